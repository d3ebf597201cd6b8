import Foundation
import Testing

/// README's "Use it in your app" names products; each must be one the package declares, so the
/// section cannot drift from `Package.swift`.
@Suite("README: the products it names are the package's")
struct ReadmeProductsTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Every product named in 'Use it in your app' is declared by Package.swift, and every library is named")
    func productsExist() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Use it in your app").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        let declared = Set(Self.matches(of: #"\.(?:library|executable|plugin)\(name: "([^"]+)""#, in: manifest))
        let named = Set(Self.matches(of: #"\.product\(name: "([^"]+)", package: "Flowstate"\)"#, in: section)
            + Self.matches(of: #"\n\| `([A-Za-z-]+)` \|"#, in: section))
        #expect(!named.isEmpty)
        #expect(named.subtracting(declared).isEmpty, "named but not declared: \(named.subtracting(declared).sorted())")
        let examples: Set = ["FlowstateExamples", "CoordinatorExamples", "flowstate-examples"]
        let missing = declared.subtracting(named).subtracting(examples)
        #expect(missing.isEmpty, "declared but not in the README's table: \(missing.sorted())")
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
