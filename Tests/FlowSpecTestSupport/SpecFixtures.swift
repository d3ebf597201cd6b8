import FlowSpec
import FlowTestSupport
import Foundation
import Testing

/// A flow file of `Tests/FlowSpecTests/Flows`.
public func flowFile(_ name: String) throws -> URL {
    let url = Fixtures.url("FlowSpecTests/Flows/\(name)")
    try #require(FileManager.default.fileExists(atPath: url.path), "missing Flows/\(name)")
    return url
}

/// A flow file of `Tests/FlowSpecTests/Flows`, read as SCXML or JSON by its extension.
public func readSpec(_ name: String) throws -> FlowFile {
    let url = try flowFile(name)
    let bytes = Array(try Data(contentsOf: url))
    return name.hasSuffix(".scxml") ? try FlowFile.parseSCXML(bytes, file: name) : try FlowFile.parse(bytes, file: name)
}

/// The documents of `Tests/FlowSpecTests/Corpus` (see its README for their provenance).
public enum SCXMLCorpus {
    /// The corpus folder.
    public static var folder: URL? {
        let url = Fixtures.url("FlowSpecTests/Corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The documents at the corpus' top level, by name.
    public static func documents() -> [String] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(".scxml") }.sorted()
    }

    /// The bytes of the document `name`.
    public static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(folder?.appendingPathComponent(name))
        return Array(try Data(contentsOf: url))
    }

    /// The path of the document `name`.
    public static func path(_ name: String) throws -> String {
        try #require(folder?.appendingPathComponent(name)).path
    }
}

/// The SCION test framework's 282 SCXML documents (`Corpus/scion`, provenance in its `PROVENANCE.md`).
public enum SCIONCorpus {
    /// The folder, `Corpus/scion`.
    public static var folder: URL? { SCXMLCorpus.folder?.appendingPathComponent("scion") }

    /// Every document, by its path under `Corpus/scion`.
    public static func documents() -> [String] {
        guard let folder, let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".scxml") }.sorted()
    }

    /// The documents not read yet, with the message each is refused with.
    public static let refused: [String: String] = [:]
}

/// The W3C SCXML conformance suite's folders under `Tests/FlowSpecTests/W3C`: `null` (converted to the
/// null data model), `txml` (as fetched) and `reference`.
public func w3cFolder(_ name: String) -> URL? {
    let url = Fixtures.url("FlowSpecTests/W3C/\(name)")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}

/// Flow files written out in tests of several targets.
public enum SpecSamples {
    /// A login flow file whose final state runs a child flow (an error, issue 21).
    public static let finalStateWithChild = """
    { "flowspec": 1, "name": "login", "initial": "password",
      "states": [
        { "name": "password", "transitions": [ { "event": "ok", "target": "done" } ] },
        { "name": "done", "final": true, "child": "twoFactor" }
      ] }
    """

    /// A document that never stops on its own: each entry sends the event that re-enters the state.
    public static let busy = """
    <scxml initial="a">
      <state id="a"><onentry><send event="again"/></onentry><transition event="again" target="a"/></state>
    </scxml>
    """
}
