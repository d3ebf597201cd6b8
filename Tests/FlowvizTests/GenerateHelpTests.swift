import Foundation
import Testing

/// `flowviz generate --help` says what cannot become a typed flow, and only that (issue 37: it still
/// listed parallel states, which the generator has written as `Parallel` for a while).
@Suite("flowviz generate --help")
struct GenerateHelpTests {
    @Test("The help lists what the generator refuses, not parallel states, which it writes")
    func unsupportedList() throws {
        let help = try Flowviz.run(["generate", "--help"])
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // unwrapped
        #expect(help.status == 0)
        #expect(!text.contains("a parallel state,"), "\(text)")
        for refused in ["a wildcard event descriptor", "several initial states", "a history without exactly one plain default target",
                        "two names that become the same Swift name"] {
            #expect(text.contains(refused), "\(refused): \(text)")
        }
        #expect(text.contains("Parallel states, history states"), "\(text)")
    }
}
