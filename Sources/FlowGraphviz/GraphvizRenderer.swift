import CGraphviz
import FlowGraph
import Foundation

/// An output format Graphviz renders to.
public struct RenderFormat: Hashable, Sendable, CustomStringConvertible {
    /// Graphviz's name for the format.
    public let name: String
    /// A format by Graphviz's name (`svg`, `png`, `pdf`, ...).
    public init(_ name: String) { self.name = name }

    /// Scalable vector graphics.
    public static let svg = RenderFormat("svg")
    /// A PNG bitmap.
    public static let png = RenderFormat("png")
    /// A PDF document.
    public static let pdf = RenderFormat("pdf")

    /// The name.
    public var description: String { name }
}

/// Renders DOT in-process through Graphviz's C library (libgvc).
///
/// libgvc is not thread-safe: every call into it, from any renderer on any thread, goes through one
/// process-wide lock, so concurrent callers are safe. The Graphviz context is created once and
/// reused. Graphviz's diagnostics are captured (nothing is printed to stderr) and a failure becomes a
/// ``GraphvizError`` carrying Graphviz's message.
public final class GraphvizRenderer: Sendable {
    /// The shared renderer.
    public static let shared = GraphvizRenderer()

    /// Creates a renderer (they all share one Graphviz context).
    public init() {}

    /// Renders DOT text to a format's bytes.
    /// - Parameters:
    ///   - dot: The graph.
    ///   - format: The output format.
    ///   - engine: The layout engine (`dot`, `neato`, `fdp`, `sfdp`, `circo`, `twopi`, ...).
    public func render(dot: String, format: RenderFormat = .svg, engine: String = "dot") throws(GraphvizError) -> [UInt8] {
        try Graphviz.withContext { (context: OpaquePointer) throws(GraphvizError) -> [UInt8] in
            let graph = try Graphviz.parse(dot)
            defer { agclose(graph) }
            guard gvLayout(context, graph, engine) == 0 else {
                throw GraphvizError(code: .layoutFailed, message: Graphviz.messages(or: "layout with engine '\(engine)' failed"))
            }
            defer { gvFreeLayout(context, graph) }
            var data: UnsafeMutablePointer<CChar>?
            var length: UInt32 = 0
            guard gvRenderData(context, graph, format.name, &data, &length) == 0, let data else {
                throw GraphvizError(code: .renderFailed, message: Graphviz.messages(or: "rendering to '\(format)' failed"))
            }
            defer { gvFreeRenderData(data) }
            return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                Array(UnsafeBufferPointer(start: $0, count: Int(length)))
            }
        }
    }

    /// Renders a flow graph, applying ``LayoutPolicy`` so that big flows lay out in bounded time
    /// (the DOT drawn is ``LayoutPolicy/dot(_:)`` of the bounded graph).
    public func render(_ graph: FlowDiagram, format: RenderFormat = .svg, engine: String? = nil) throws(GraphvizError) -> [UInt8] {
        var graph = graph
        LayoutPolicy.bound(&graph)
        return try render(dot: LayoutPolicy.dot(graph), format: format, engine: engine ?? LayoutPolicy.engine(for: graph))
    }

    /// Renders DOT text to a file.
    public func render(dot: String, to path: String, format: RenderFormat, engine: String = "dot") throws(GraphvizError) {
        let bytes = try render(dot: dot, format: format, engine: engine)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw GraphvizError(code: .writeFailed, message: "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Parses DOT with libcgraph and counts what it holds (used by tests to prove the DOT the
    /// project writes is valid).
    func parse(dot: String) throws(GraphvizError) -> (nodes: Int, edges: Int) {
        try Graphviz.withContext { (_: OpaquePointer) throws(GraphvizError) -> (nodes: Int, edges: Int) in
            let graph = try Graphviz.parse(dot)
            defer { agclose(graph) }
            return (Int(agnnodes(graph)), Int(agnedges(graph)))
        }
    }
}

/// The one place that calls into Graphviz.
enum Graphviz {
    private static let lock = NSLock()
    // Guarded by `lock`: the context, created once, and the messages Graphviz reports while a call runs.
    nonisolated(unsafe) private static var context: OpaquePointer?
    nonisolated(unsafe) fileprivate static var collected: [String] = []

    static func withContext<T>(_ body: (OpaquePointer) throws(GraphvizError) -> T) throws(GraphvizError) -> T {
        lock.lock()
        defer { lock.unlock() }
        collected = []
        if context == nil {
            _ = agseterrf(collectMessage)
            context = gvContext()
        }
        guard let context else {
            throw GraphvizError(code: .unavailable, message: "Graphviz could not create a context (is graphviz installed?)")
        }
        _ = agreseterrors()
        return try body(context)
    }

    /// Runs `body` with the lock held, for the libraries Graphviz uses (fontconfig, Pango), which
    /// share its state.
    static func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Parses DOT; called with the lock held.
    static func parse(_ dot: String) throws(GraphvizError) -> UnsafeMutablePointer<Agraph_t> {
        guard let graph = agmemread(dot) else {
            throw GraphvizError(code: .invalidDOT, message: messages(or: "the DOT text could not be parsed"))
        }
        return graph
    }

    /// What Graphviz said during this call, as one line; called with the lock held. Graphviz hands
    /// a message over in fragments (`Error`, then `: syntax error ...`), so they are joined first.
    ///
    /// Graphviz's parser does not reset its line counter between parses, so the line numbers in its
    /// syntax errors are only right for the first parse of a process.
    static func messages(or fallback: String) -> String {
        let text = collected.joined().split(separator: "\n").map { strippingSeverity(String($0)) }.filter { !$0.isEmpty }
        return text.isEmpty ? fallback : text.joined(separator: "; ")
    }
}

/// A Graphviz message without its `Error: ` / `Warning: ` prefix (the error's code says what it is).
private func strippingSeverity(_ message: String) -> String {
    var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
    for prefix in ["Error", "Warning"] where text.hasPrefix(prefix) {
        let rest = text.dropFirst(prefix.count).drop { $0 == " " }
        if rest.first == ":" { text = rest.dropFirst().trimmingCharacters(in: .whitespaces) }
    }
    return text
}

/// Receives Graphviz's diagnostics instead of stderr (called with `Graphviz.lock` held).
private let collectMessage: agusererrf = { message in
    if let message { Graphviz.collected.append(String(cString: message)) }
    return 0
}
