import Foundation
import Testing

/// Compares text with a golden file in the `Golden` folder beside the calling test's file;
/// `FLOWSTATE_UPDATE_GOLDEN=1 swift test` rewrites the files.
public func expectGolden(_ text: String, _ name: String, filePath: String = #filePath,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
    if ProcessInfo.processInfo.environment["FLOWSTATE_UPDATE_GOLDEN"] == "1" {
        try text.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(text == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
}
