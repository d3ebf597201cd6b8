import FlowSpecTestSupport
import FlowTestSupport
import Foundation
import Testing

/// `flowviz` on the two-factor code's flow files, whose delayed transitions `DelayFlowFileTests`
/// (FlowSpecTests) checks in the library.
@Suite("Delayed transitions in flow files: flowviz")
struct DelayFlowFileCommandTests {
    static func text(_ name: String) throws -> String {
        try String(contentsOf: try flowFile(name), encoding: .utf8)
    }

    @Test("flowviz validate, render, simulate with 'wait', paths and generate swift, end to end")
    func flowviz() throws {
        let scratch = try Scratch()
        let json = try scratch.file("two-factor-code.json", try DelayFlowFileCommandTests.text("two-factor-code.json"))
        let scxml = try scratch.file("two-factor-code.scxml", try DelayFlowFileCommandTests.text("two-factor-code.scxml"))
        for file in [json, scxml] {
            #expect(try Flowviz.run(["validate", file]).status == 0)
            let dot = scratch.path("out.dot")
            #expect(try Flowviz.run(["render", file, "-o", dot]).status == 0)
            #expect(try String(contentsOfFile: dot, encoding: .utf8).contains("after 30s"))
            let run = try Flowviz.run(["simulate", file, "--events", "wait 30s, resend, wait 5min"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("at 30s: after 30s (delayed)\nwaiting --after 30s--> canResend / showResend\n"), "\(run.stdout)")
            #expect(run.stdout.contains("canResend --after 5min--> expired\nfinished: expired\nconfiguration: expired\n"), "\(run.stdout)")
            let paths = try Flowviz.run(["paths", file])
            #expect(paths.status == 0, "\(paths.stderr)")
            #expect(paths.stdout.contains("canResend: wait 30s"), "\(paths.stdout)")
            let swift = try Flowviz.run(["generate", "swift", file])
            #expect(swift.stdout.contains("After(.seconds(30), to: State.canResend, effects: [Effect.showResend])"), "\(swift.stderr)")
        }
        let bad = try Flowviz.run(["simulate", json, "--events", "wait"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("'wait' takes a positive duration"))
    }
}
