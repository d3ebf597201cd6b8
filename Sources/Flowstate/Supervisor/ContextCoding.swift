#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a machine's context is saved in a snapshot: as JSON text (keys sorted, so that equal
/// contexts give equal snapshots), when the context type is `Codable`.
enum ContextCoding {
    /// The context as JSON; `nil` for a flow without context (`Void`).
    /// - Throws: ``SupervisorError/Code/contextNotCodable`` when the context is not `Encodable` or
    ///   fails to encode.
    static func encode<Context>(_ context: Context, flow: String) throws(SupervisorError) -> String? {
        if Context.self == Void.self { return nil }
        guard let value = context as? any Encodable else {
            throw SupervisorError(code: .contextNotCodable,
                                  message: "flow '\(flow)' has a context of type \(Context.self), which is not "
                                      + "Codable: make it Codable to take a snapshot")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw SupervisorError(code: .contextNotCodable,
                                  message: "flow '\(flow)': its context could not be encoded: \(error)")
        }
    }

    /// The context saved as `json`.
    /// - Throws: ``SupervisorError/Code/snapshotMismatch`` when it does not decode as `Context`.
    static func decode<Context>(_ type: Context.Type, from json: String, flow: String) throws(SupervisorError)
        -> Context?
    {
        if Context.self == Void.self { return nil }
        guard let decodable = Context.self as? any Decodable.Type else {
            throw SupervisorError(code: .snapshotMismatch,
                                  message: "flow '\(flow)' has a saved context, but its context type \(Context.self) "
                                      + "is not Codable")
        }
        do {
            guard let value = try JSONDecoder().decode(decodable, from: Data(json.utf8)) as? Context else {
                throw SupervisorError(code: .snapshotMismatch,
                                      message: "flow '\(flow)': the saved context is not a \(Context.self)")
            }
            return value
        } catch let error as SupervisorError {
            throw error
        } catch {
            throw SupervisorError(code: .snapshotMismatch,
                                  message: "flow '\(flow)': the saved context does not decode as \(Context.self): \(error)")
        }
    }
}
