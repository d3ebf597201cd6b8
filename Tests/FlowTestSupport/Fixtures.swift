import Foundation

/// Where the test fixtures live: each folder of files (flow files, SCXML corpora, the W3C suite,
/// golden files) has one home, in the folder of the test target that uses it most, and the other
/// test targets find it there, in the source tree, through this helper (never a copy).
public enum Fixtures {
    /// The package's `Tests` folder in the source tree.
    public static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The package's root folder (where `Package.swift`, `docs/` and `Examples/` are).
    public static let repository = tests.deletingLastPathComponent()

    /// A file or folder under `Tests`, by its path there (`"FlowSpecTests/Flows/door.scxml"`).
    public static func url(_ path: String) -> URL { tests.appendingPathComponent(path) }
}
