import FlowGraph
import Foundation

/// A flow file read from disk, or the one line that says why it could not be.
struct FlowFile {
    /// Files larger than this are refused before they are read.
    static let maxSize = 10 * 1024 * 1024

    let path: String
    let spec: FlowSpec

    /// Reads and parses a spec file.
    /// - Throws: ``FileProblem`` with one readable line.
    static func read(_ path: String) throws(FileProblem) -> FlowFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileProblem("\(path): error: no such file")
        }
        guard !isDirectory.boolValue else { throw FileProblem("\(path): error: is a directory, not a flow file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw FileProblem("\(path): error: permission denied")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maxSize else {
            throw FileProblem("\(path): error: the file is \(size / 1_048_576) MB; flow files are limited to \(maxSize / 1_048_576) MB")
        }
        guard size > 0 else {
            // Said here rather than by the parser: Foundation's `contents(atPath:)` leaks its read
            // buffer for an empty file (LeakSanitizer, make sanitize).
            throw FileProblem("\(path):1:1: error: the file is empty: expected a JSON object")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw FileProblem("\(path): error: cannot read the file") }
        do {
            return FlowFile(path: path, spec: try FlowSpec.parse(Array(data), file: path))
        } catch {
            throw FileProblem(error.description)
        }
    }
}

/// A problem with a file, as the one line `flowviz` prints for it.
struct FileProblem: Error {
    let line: String
    init(_ line: String) { self.line = line }
}

/// Writes one line to standard error.
func report(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
