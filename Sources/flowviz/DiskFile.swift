import ArgumentParser
import FlowGraph
import FlowSpec
import Flowstate
import Foundation

/// A flow file read from disk (a JSON flow spec, or SCXML), or the one line that says why it could not be.
struct DiskFile {
    /// Files larger than this are refused before they are read.
    static let maxSize = 10 * 1024 * 1024

    let path: String
    let spec: FlowFile

    /// Reads and parses a flow file: SCXML when its name ends in `.scxml` or `.xml` or its text starts
    /// with `<`, the JSON flow spec otherwise.
    /// - Throws: ``FileProblem`` with one readable line.
    static func read(_ path: String) throws(FileProblem) -> DiskFile {
        let bytes = try readBytes(path, expecting: "a flow file")
        let path = path == "-" ? standardInputName : path
        do {
            return DiskFile(path: path, spec: try FlowFile.read(bytes, file: path))
        } catch {
            throw FileProblem(error.description)
        }
    }

    /// Reads a flow file for a command: on failure, reports its one line and exits 2.
    static func open(_ path: String) throws -> DiskFile {
        do {
            return try read(path)
        } catch {
            report(error.line)
            throw ExitCode(2)
        }
    }

    /// Reports the flow's validation errors, one line each, and exits with `status` if there are any.
    func requireValid(orExit status: Int32) throws {
        try Self.requireValid(spec.validate(), orExit: status)
    }

    /// Reports the errors among validation issues, one line each, and exits with `status` if there are any.
    static func requireValid(_ issues: [ValidationIssue], orExit status: Int32) throws {
        let errors = issues.filter { $0.severity == .error }
        guard errors.isEmpty else {
            errors.forEach { report($0.description) }
            throw ExitCode(status)
        }
    }

    /// The paths of a compiled flow file (`paths`, `routes`): its exploration, or one line naming what
    /// the flow holds that is not run and exit status 3.
    static func explore(_ compiled: FlowFile.Compiled) throws -> FlowFilePathfinder {
        do {
            return try FlowFilePathfinder(compiled)
        } catch {
            report(error.description)
            throw ExitCode(3)
        }
    }

    /// The name standard input goes by in messages.
    static let standardInputName = "<stdin>"

    /// `size` bytes in megabytes with one decimal, rounded up: never the limit itself when over it.
    static func megabytes(_ size: Int) -> String {
        let tenths = (size * 10 + 1_048_575) / 1_048_576
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }

    /// The bytes of a stream (standard input for `-`, or a pipe), up to the size limit.
    static func readStream(_ handle: FileHandle, name: String, expecting what: String) throws(FileProblem) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count <= maxSize {
            let chunk = handle.readData(ofLength: 65_536)
            if chunk.isEmpty { break }
            bytes.append(contentsOf: chunk)
        }
        guard bytes.count <= maxSize else {
            throw FileProblem("\(name): error: the input is over \(megabytes(maxSize)); flow files are limited to \(megabytes(maxSize))")
        }
        guard !bytes.isEmpty else { throw FileProblem("\(name):1:1: error: the input is empty: expected \(what)") }
        return bytes
    }

    /// The bytes of a file that exists, is a readable regular file, not empty and not too big;
    /// `-` is standard input.
    static func readBytes(_ path: String, expecting what: String) throws(FileProblem) -> [UInt8] {
        if path == "-" { return try readStream(.standardInput, name: standardInputName, expecting: what) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileProblem("\(path): error: no such file")
        }
        guard !isDirectory.boolValue else { throw FileProblem("\(path): error: is a directory, not \(what)") }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw FileProblem("\(path): error: cannot read the file: \(error.localizedDescription)")
        }
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            if type.rawValue == "NSFileTypeFIFO" || type.rawValue == "NSFileTypePipe", let handle = FileHandle(forReadingAtPath: path) {  // a pipe: <(command)
                return try readStream(handle, name: path, expecting: what)
            }
            let kind = switch type {
            case .typeCharacterSpecial: "is a character device"
            case .typeBlockSpecial: "is a block device"
            case .typeSocket: "is a socket"
            default: "is not a regular file"
            }
            throw FileProblem("\(path): error: \(kind), not \(what) (give a regular file, or - for standard input)")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw FileProblem("\(path): error: permission denied")
        }
        let size = (attributes[.size] as? Int) ?? 0
        guard size <= maxSize else {
            throw FileProblem("\(path): error: the file is \(megabytes(size)); flow files are limited to \(megabytes(maxSize))")
        }
        guard size > 0 else {
            // Said here rather than by the parser: Foundation's `contents(atPath:)` leaks its read
            // buffer for an empty file (LeakSanitizer, make sanitize).
            throw FileProblem("\(path):1:1: error: the file is empty: expected \(what)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw FileProblem("\(path): error: cannot read the file") }
        guard data.count <= maxSize else {  // it grew since it was measured
            throw FileProblem("\(path): error: the file is over \(megabytes(maxSize)); flow files are limited to \(megabytes(maxSize))")
        }
        return Array(data)
    }

    /// The child flow files a flow names, found next to it: the name as a path, then with `.json`,
    /// `.scxml` or `.xml` added.
    func children() throws(FileProblem) -> [String: FlowFile] {
        var found: [String: FlowFile] = [:]
        var pending = [(self, path)]
        var seen: Set<String> = [path]
        while let (file, _) = pending.popLast() {
            let folder = URL(fileURLWithPath: file.path).deletingLastPathComponent()
            for name in file.spec.childNames where found[name] == nil {
                // SCXML's `src` may be a `file:` URI (`file:child.scxml`, `file:///abs/child.scxml`),
                // relative to the document.
                var path = name
                if path.hasPrefix("file://") { path = String(path.dropFirst("file://".count)) }
                else if path.hasPrefix("file:") { path = String(path.dropFirst("file:".count)) }
                let candidates = [path, path + ".json", path + ".scxml", path + ".xml"].map {
                    $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).path
                }
                guard let childPath = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { continue }
                let child = try DiskFile.read(childPath)
                found[name] = child.spec
                if seen.insert(childPath).inserted { pending.append((child, childPath)) }
            }
        }
        return found
    }
}

extension FlowFile {
    /// The names of the child flows the spec's states run.
    var childNames: [String] {
        // Documents the file holds inline (`<invoke><content>`) are found without a file; the files
        // they name are looked for too.
        var names: [String] = []
        var pending = [self]
        while let spec = pending.popLast() {
            for state in spec.statesInDocumentOrder {
                guard let child = state.child else { continue }
                if let inline = spec.documents[child] { pending.append(inline) } else { names.append(child) }
            }
        }
        return names
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

extension DiskFile {
    /// The simulation `simulate` and `view --events` run: the child flows found beside the file, and
    /// the guards' default truths (``guardDefaults(_:)``). Reports and exits 2 when a child file cannot
    /// be read, 3 when the flow cannot be simulated (history states, several initial states, data, a
    /// missing child).
    func simulation(guards defaults: [String: Bool]) throws -> FlowSimulation {
        let children: [String: FlowFile]
        do {
            children = try self.children()
        } catch {
            report(error.line)
            throw ExitCode(2)
        }
        do {
            return try FlowSimulation(spec, guards: defaults, children: { children[$0] })
        } catch {
            report(error.description)
            throw ExitCode(3)
        }
    }
}

/// Reads `--events` (`open, submit[valid], wait 30s, close`): the steps (events, and `wait D` steps
/// that let virtual time pass), or a usage error naming the bad one.
func inputList(_ text: String) throws -> [FlowSimulation.Input] {
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
    switch FlowSimulation.Input.list(text) {
    case .success(let parsed): return parsed
    case .failure(let error):
        report("error: \(error)")
        throw ExitCode.validationFailure
    }
}

/// The guards' default truths from `--guard NAME=true|false` options (`simulate`, `view --events`): the
/// one reader of the option, called by the commands' `validate()` and again when they run.
/// - Throws: `ValidationError` naming the first option that is not `NAME=true` or `NAME=false`.
func guardDefaults(_ items: [String]) throws -> [String: Bool] {
    var defaults: [String: Bool] = [:]
    for item in items {
        let parts = item.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, parts[1] == "true" || parts[1] == "false" else {
            throw ValidationError("--guard '\(item)' must be NAME=true or NAME=false")
        }
        defaults[String(parts[0])] = parts[1] == "true"
    }
    return defaults
}
