import Foundation

/// A temporary folder with files in it.
public struct Scratch {
    /// The folder, created by `init()`.
    public let folder: URL

    /// Creates a new, empty folder under the temporary directory.
    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowviz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Writes `text` to the file `name` in the folder, and returns its path.
    public func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The path of the file `name` in the folder (which need not exist).
    public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
