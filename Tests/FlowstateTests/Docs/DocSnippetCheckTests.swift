import Foundation
import Testing

/// Keeps the documentation's code honest: every ```swift block of README.md, of `docs/*.md` and of
/// every DocC article (`Sources/*/*.docc/**/*.md`) must appear in a test source file under `Tests/`,
/// verbatim up to whitespace, as code (not inside a comment or a string literal). The tests holding
/// them compile them and run them (see `ArticleSnippetTests`, `TestingFlowsArticleTests`,
/// `PrintedCounterexampleTests`, `GraphArticleSnippetTests`, `RenderingArticleSnippetTests`, `SpecArticleSnippetTests`, `FlowSpecTests.article`,
/// `NavigationArticleSnippetTests`, `FirstLaunchTests.articleExample`, `MacroSnippetTests`). A doc
/// edit that is not mirrored in a test fails here; a test edit that breaks a mirrored snippet no
/// longer matches and fails here too.
///
/// Whitespace-normalized means: each line trimmed, runs of spaces and tabs inside a line collapsed to
/// one, blank lines ignored. A snippet's leading `import` lines must be imports of the same test file
/// (a function cannot hold them); the rest must be consecutive lines of that file.
///
/// A block that is deliberately not Swift (pseudo-code, shell, a diagram) uses another fence language
/// (`sh`, `text`...) and is not checked.
@Suite("Docs: every Swift snippet is compiled by a test")
struct DocSnippetCheckTests {
    /// One ```swift block of a Markdown file.
    struct Snippet: CustomStringConvertible {
        var file: String
        var line: Int
        /// The lines of the block, normalized, blank ones left out.
        var lines: [String]

        /// The leading `import` lines.
        var imports: [String] { Array(lines.prefix { $0.hasPrefix("import ") }) }
        /// The lines after the leading imports.
        var body: [String] { Array(lines.drop { $0.hasPrefix("import ") }) }

        var description: String { "\(file):\(line)" }
    }

    /// A test source file: its lines, normalized, with the lines inside block comments and multi-line
    /// string literals replaced by `nil` (they never match), blank lines left out.
    struct Source {
        var path: String
        var lines: [String?]
    }

    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Trims a line and collapses runs of blanks inside it.
    static func normalize(_ line: Substring) -> String {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The ```swift blocks of a Markdown text. `file` names it in messages.
    static func snippets(in markdown: String, file: String) -> [Snippet] {
        var result: [Snippet] = []
        var fence: (marker: String, swift: Bool, line: Int, lines: [String])?
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = normalize(raw)
            if let open = fence {
                if line.hasPrefix(open.marker), line.allSatisfy({ $0 == open.marker.first }) {
                    if open.swift { result.append(Snippet(file: file, line: open.line, lines: open.lines)) }
                    fence = nil
                } else if !line.isEmpty {
                    fence?.lines.append(line)
                }
            } else if line.hasPrefix("```") || line.hasPrefix("~~~") {
                let marker = String(line.prefix { $0 == line.first })
                let info = line.dropFirst(marker.count).split(separator: " ").first.map { $0.lowercased() } ?? ""
                fence = (marker, info == "swift", index + 1, [])
            }
        }
        #expect(fence == nil, "\(file): a code block is not closed")
        return result
    }

    /// The Markdown files whose snippets are checked, relative to the package.
    static func markdownFiles() throws -> [String] {
        let manager = FileManager.default
        var files = ["README.md"]
        let docs = try manager.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        files += docs.filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        for module in try manager.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path) {
            let folder = "Sources/\(module)"
            guard let entries = try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path) else {
                continue
            }
            for catalog in entries where catalog.hasSuffix(".docc") {
                let path = "\(folder)/\(catalog)"
                let enumerator = manager.enumerator(atPath: root.appendingPathComponent(path).path)
                while let entry = enumerator?.nextObject() as? String {
                    if entry.hasSuffix(".md") { files.append("\(path)/\(entry)") }
                }
            }
        }
        return files.sorted()
    }

    /// Every Swift file under Tests/, but this one.
    static func testSources() throws -> [Source] {
        let tests = root.appendingPathComponent("Tests")
        let here = URL(fileURLWithPath: #filePath).standardizedFileURL.path
        var sources: [Source] = []
        let enumerator = FileManager.default.enumerator(atPath: tests.path)
        while let entry = enumerator?.nextObject() as? String {
            let url = tests.appendingPathComponent(entry)
            guard entry.hasSuffix(".swift"), url.standardizedFileURL.path != here else { continue }
            sources.append(Source(path: "Tests/\(entry)", lines: codeLines(try String(contentsOf: url, encoding: .utf8))))
        }
        return sources
    }

    /// The normalized lines of a Swift file; `nil` for a line inside a block comment or a multi-line
    /// string literal (including the line that closes it).
    static func codeLines(_ text: String) -> [String?] {
        var result: [String?] = []
        var inString = false
        var inComment = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = normalize(raw)
            if line.isEmpty { continue }
            let quotes = line.components(separatedBy: "\"\"\"").count - 1
            if inString {
                result.append(nil)
                if quotes % 2 == 1 { inString = false }
            } else if inComment {
                result.append(nil)
                if line.contains("*/") { inComment = false }
            } else {
                result.append(line)
                if quotes % 2 == 1 {
                    inString = true
                } else if let open = line.range(of: "/*"), !line[open.upperBound...].contains("*/"),
                          !line[..<open.lowerBound].contains("//") {
                    inComment = true
                }
            }
        }
        return result
    }

    /// Whether `source` holds the snippet: its imports among the file's lines, its body consecutive.
    static func holds(_ source: Source, _ snippet: Snippet) -> Bool {
        let body = snippet.body.map { Optional($0) }
        guard !body.isEmpty, body.count <= source.lines.count else { return false }
        let found = (0...(source.lines.count - body.count)).contains { start in
            source.lines[start] == body[0] && source.lines[start..<start + body.count].elementsEqual(body)
        }
        return found && snippet.imports.allSatisfy { source.lines.contains($0) }
    }

    @Test("Every ```swift block of the README, docs/ and the DocC articles is in a test, verbatim")
    func everySnippetIsCompiled() throws {
        let files = try Self.markdownFiles()
        #expect(files.contains("README.md") && files.contains("Sources/Flowstate/Flowstate.docc/DefiningAFlow.md"))
        let snippets = try files.flatMap { file in
            Self.snippets(in: try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8), file: file)
        }
        // A floor, so that a checker that finds no file or no block cannot pass.
        #expect(snippets.count >= 40, "only \(snippets.count) snippets found")
        let sources = try Self.testSources()
        for snippet in snippets {
            let holders = sources.filter { Self.holds($0, snippet) }
            #expect(!holders.isEmpty, """
                \(snippet): this ```swift block is in no test under Tests/ (whitespace aside); add it, verbatim, \
                to a test that compiles and runs it, or give a block that is not Swift another fence language:
                \(snippet.lines.joined(separator: "\n"))
                """)
        }
    }

    @Test("The checker: fences, normalization, comments and strings")
    func checker() {
        let markdown = """
            Text.
            ```swift
            let  a = 1   // one

            let b = a
            ```
            ```sh
            make test
            ```
            ~~~swift
            import Flowstate
            print(a)
            ~~~
            """
        let snippets = Self.snippets(in: markdown, file: "x.md")
        #expect(snippets.map(\.lines) == [["let a = 1 // one", "let b = a"], ["import Flowstate", "print(a)"]])
        #expect(snippets.map(\.line) == [2, 10])
        #expect(snippets[1].imports == ["import Flowstate"] && snippets[1].body == ["print(a)"])

        let code = Source(path: "a.swift", lines: Self.codeLines("""
            import Flowstate
            func f() {
                let a = 1     // one
                let b = a
                print(a)
            }
            """))
        #expect(Self.holds(code, snippets[0]) && Self.holds(code, snippets[1]))
        let commented = Source(path: "b.swift", lines: Self.codeLines("""
            /*
            let a = 1 // one
            let b = a
            */
            let s = \"""
            let a = 1 // one
            let b = a
            \"""
            // let a = 1 // one
            """))
        #expect(!Self.holds(commented, snippets[0]))
        let noImport = Source(path: "c.swift", lines: Self.codeLines("print(a)"))
        #expect(!Self.holds(noImport, snippets[1]), "a snippet's imports must be the file's")
    }
}
