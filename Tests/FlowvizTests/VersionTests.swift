import Flowstate
import Foundation
import Testing

/// The version is written once, `FlowstateRelease.version` (Sources/Flowstate/Version.swift); what names
/// it elsewhere must agree: the latest released heading of CHANGELOG.md, the README's install line,
/// `flowviz --version`, and the headers of the checked-in API descriptions (Tests/API/*.api, which
/// `make check-api` also compares).
@Suite("Version: one number, named alike by the CHANGELOG, the README, flowviz and the API baseline")
struct VersionTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The version of the first `## [x.y.z] - yyyy-mm-dd` heading (the latest release; `## [Unreleased]`
    /// is not one), or `nil`.
    static func latestRelease(inChangelog text: String) -> String? {
        let pattern = #"(?m)^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}\s*$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }

    /// The README's install line, as it must read for `version` (the README's block is `text`, so
    /// DocSnippetCheckTests does not look for it here):
    /// .package(url: "https://github.com/flowstate/flowstate.git", from: "1.0.0"),
    static func installLine(_ version: String) -> String {
        #".package(url: "https://github.com/flowstate/flowstate.git", from: ""# + version + #""),"#
    }

    @Test("The constant is a semantic version: three numbers")
    func isSemanticVersion() {
        let parts = FlowstateRelease.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil },
                "\(FlowstateRelease.version)")
    }

    @Test("CHANGELOG.md: an Unreleased section, then the latest release is the constant's version")
    func changelog() throws {
        let text = try Self.read("CHANGELOG.md")
        // Found first, then expected: #expect would print the whole file with a failure.
        let statesSemver = text.contains("[Semantic Versioning]")
        #expect(statesSemver, "CHANGELOG.md must state semantic versioning")
        let unreleased = text.range(of: "\n## [Unreleased]\n")?.lowerBound
        let release = text.range(of: "\n## [\(FlowstateRelease.version)] - ")?.lowerBound
        #expect(unreleased != nil, "CHANGELOG.md has no '## [Unreleased]' heading")
        #expect(release != nil, "CHANGELOG.md has no heading '## [\(FlowstateRelease.version)] - date'")
        if let unreleased, let release { #expect(unreleased < release, "'## [Unreleased]' must come first") }
        let latest = Self.latestRelease(inChangelog: text)
        #expect(latest == FlowstateRelease.version, "CHANGELOG.md's latest release heading")
    }

    @Test("The checker of the CHANGELOG finds the first release heading, not Unreleased nor a later one")
    func changelogReader() {
        let text = "# Changelog\n\n## [Unreleased]\n\n### Added\n- x\n\n## [1.2.0] - 2027-01-05\n\n## [1.1.0] - 2026-12-20\n"
        #expect(Self.latestRelease(inChangelog: text) == "1.2.0")
        #expect(Self.latestRelease(inChangelog: "## [Unreleased]\n") == nil)
    }

    @Test("README: the install line names the version")
    func readme() throws {
        let text = try Self.read("README.md")
        let line = Self.installLine(FlowstateRelease.version)
        let found = text.contains(line)
        #expect(found, "README.md must hold the install line \(line)")
    }

    @Test("flowviz --version prints the version")
    func flowvizVersion() throws {
        let result = try Flowviz.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == FlowstateRelease.version + "\n")
    }

    @Test("Every API baseline (Tests/API/*.api) names the version in its header")
    func apiBaselines() throws {
        let folder = Self.root.appendingPathComponent("Tests/API")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".api") }.sorted()
        #expect(files.count >= 7, "\(files)")
        for file in files {
            let named = try Self.read("Tests/API/\(file)").contains("\n# version: \(FlowstateRelease.version)\n")
            #expect(named, "Tests/API/\(file): its header names another version than \(FlowstateRelease.version)")
        }
    }
}
