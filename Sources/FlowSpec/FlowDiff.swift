import FlowGraph
import Flowstate

/// The structural difference between two versions of a flow: states and transitions added, removed
/// and changed, for reviewing a flow change.
///
/// States are matched by name. Transitions are matched by their state, event and guard (the n-th
/// such transition of the old version with the n-th of the new); a matched transition whose target
/// update or effects differ is changed. A state's child outputs (which event each becomes) are
/// compared too.
public struct FlowDiff: Sendable {
    /// One difference.
    public enum Change: Hashable, Sendable, CustomStringConvertible {
        /// A state only the new version has, inside `parent` if any.
        case stateAdded(String, parent: String?)
        /// A state only the old version has.
        case stateRemoved(String, parent: String?)
        /// A state both have, with `what` describing each difference (`entry: [a] -> [b]`).
        case stateChanged(String, what: [String])
        /// A transition only the new version has.
        case transitionAdded(source: String, label: String, target: String?)
        /// A transition only the old version has.
        case transitionRemoved(source: String, label: String, target: String?)
        /// A transition both have, with `what` describing each difference.
        case transitionChanged(source: String, label: String, what: [String])
        /// The initial state changed.
        case initialChanged(from: String, to: String)

        /// One line: `+`, `-` or `~`, then what.
        public var description: String {
            func arrow(_ source: String, _ label: String, _ target: String?) -> String {
                "\(source) --\(label)--> \(target ?? "(targetless)")"
            }
            switch self {
            case .stateAdded(let name, let parent): return "+ state \(name)" + (parent.map { " (in \($0))" } ?? "")
            case .stateRemoved(let name, let parent): return "- state \(name)" + (parent.map { " (in \($0))" } ?? "")
            case .stateChanged(let name, let what): return "~ state \(name): " + what.joined(separator: "; ")
            case .transitionAdded(let s, let l, let t): return "+ transition " + arrow(s, l, t)
            case .transitionRemoved(let s, let l, let t): return "- transition " + arrow(s, l, t)
            case .transitionChanged(let s, let l, let what): return "~ transition \(s) --\(l)-->: " + what.joined(separator: "; ")
            case .initialChanged(let from, let to): return "~ initial state: \(from) -> \(to)"
            }
        }
    }

    /// The differences: the initial state, then states, then transitions, each in document order.
    public var changes: [Change]
    /// The old and new versions.
    public let old: FlowFile, new: FlowFile

    /// Compares two versions of a flow.
    public init(old: FlowFile, new: FlowFile) {
        self.old = old
        self.new = new
        let before = SpecIndex(old), after = SpecIndex(new)
        var changes: [Change] = []
        if old.initialStates != new.initialStates {
            changes.append(.initialChanged(from: old.initialStates.joined(separator: " "), to: new.initialStates.joined(separator: " ")))
        }
        for name in before.order where after.states[name] == nil {
            changes.append(.stateRemoved(name, parent: before.parent[name]))
        }
        for name in after.order {
            guard let was = before.states[name] else {
                changes.append(.stateAdded(name, parent: after.parent[name]))
                continue
            }
            let now = after.states[name]!
            var what: [String] = []
            func compare<T: Equatable>(_ field: String, _ a: T, _ b: T, _ show: (T) -> String) {
                if a != b { what.append("\(field): \(show(a)) -> \(show(b))") }
            }
            let list: ([String]) -> String = { "[" + $0.joined(separator: ", ") + "]" }
            let optional: (String?) -> String = { $0 ?? "none" }
            compare("parent", before.parent[name], after.parent[name], optional)
            compare("final", was.isFinal, now.isFinal) { "\($0)" }
            compare("parallel", was.isParallel, now.isParallel) { "\($0)" }
            compare("history", was.history, now.history) { $0?.rawValue ?? "none" }
            compare("output", was.output, now.output, optional)
            compare("initial", was.initialStates, now.initialStates) { $0.isEmpty ? "none" : $0.joined(separator: " ") }
            compare("child", was.child, now.child, optional)
            let outputs: ([FlowFile.ChildOutput]) -> String = { list($0.map { "\($0.output): \($0.event ?? "none")" }) }
            compare("outputs", was.childOutputs, now.childOutputs, outputs)
            compare("entry", was.entry, now.entry, list)
            compare("exit", was.exit, now.exit, list)
            if !what.isEmpty { changes.append(.stateChanged(name, what: what)) }
        }
        // Transitions, matched by (state, event, guard) and occurrence.
        func keyed(_ index: SpecIndex) -> [(key: String, source: String, transition: FlowFile.Transition)] {
            var counts: [String: Int] = [:]
            return index.transitions.map { source, t in
                let base = [source, t.eventLabel ?? "\u{0}", t.guardName ?? "\u{0}"].joined(separator: "\u{1}")
                counts[base, default: 0] += 1
                return (base + "\u{1}\(counts[base]!)", source, t)
            }
        }
        let oldKeyed = keyed(before), newKeyed = keyed(after)
        var oldByKey: [String: FlowFile.Transition] = [:]
        for entry in oldKeyed { oldByKey[entry.key] = entry.transition }
        let newKeys = Set(newKeyed.map(\.key))
        for entry in oldKeyed where !newKeys.contains(entry.key) {
            changes.append(.transitionRemoved(source: entry.source, label: Self.label(entry.transition), target: Self.target(entry.transition)))
        }
        for entry in newKeyed {
            guard let was = oldByKey[entry.key] else {
                changes.append(.transitionAdded(source: entry.source, label: Self.label(entry.transition), target: Self.target(entry.transition)))
                continue
            }
            var what: [String] = []
            if was.targets != entry.transition.targets {
                what.append("target: \(Self.target(was) ?? "none") -> \(Self.target(entry.transition) ?? "none")")
            }
            if was.isInternal != entry.transition.isInternal {
                what.append("internal: \(was.isInternal) -> \(entry.transition.isInternal)")
            }
            if was.update != entry.transition.update {
                what.append("update: \(was.update ?? "none") -> \(entry.transition.update ?? "none")")
            }
            if was.effects != entry.transition.effects {
                what.append("effects: [\(was.effects.joined(separator: ", "))] -> [\(entry.transition.effects.joined(separator: ", "))]")
            }
            if !what.isEmpty {
                changes.append(.transitionChanged(source: entry.source, label: Self.label(entry.transition), what: what))
            }
        }
        self.changes = changes
    }

    /// A transition's targets as SCXML writes them (`a b` for several), `nil` for a targetless one.
    static func target(_ t: FlowFile.Transition) -> String? {
        t.targets.isEmpty ? nil : t.targets.joined(separator: " ")
    }

    /// `event [guard]`, as diagrams label a transition without its effects.
    static func label(_ t: FlowFile.Transition) -> String {
        (t.eventLabel ?? "") + (t.guardName.map { (t.eventLabel == nil ? "" : " ") + "[\($0)]" } ?? "")
    }

    /// The old target named in a transition change's description, if the target changed.
    private static func oldTarget(_ what: [String]) -> String? {
        guard let line = what.first(where: { $0.hasPrefix("target: ") }) else { return nil }
        let parts = line.dropFirst(8).split(separator: " -> ", maxSplits: 1)
        guard parts.count == 2, parts[0] != "none" else { return nil }
        return firstName(String(parts[0]))
    }

    /// The first state named in a list written `a b` (the one whose arrow the diagram marks).
    private static func firstName(_ names: String) -> String {
        names.split(separator: " ").first.map(String.init) ?? names
    }

    /// Whether the versions are structurally the same.
    public var isEmpty: Bool { changes.isEmpty }

    /// One diagram of both versions: the new flow, with added states and transitions in green,
    /// removed ones (put back from the old version) in red and dashed, changed ones in orange.
    public var graph: FlowDiagram {
        var graph = FlowDiagram(new)
        let added = "#2e9e44", removed = "#d0312d", changed = "#e08a00"
        let before = SpecIndex(old)
        // Removed states, parents first, inside their parent wherever it is drawn.
        for case .stateRemoved(let name, let parent) in changes {
            let id = "old\(graph.nodes.count)"
            let state = before.states[name]!
            var node = FlowDiagram.Node(id: id, label: name, kind: state.isFinal ? .final : (state.states.isEmpty ? .state : .compound),
                                      parent: parent.flatMap { graph.id(ofLabel: $0) })
            node.attributes = ["color": removed, "fontcolor": removed, "style": node.kind == .compound ? "dashed" : "rounded,dashed"]
            graph.nodes.append(node)
        }
        for i in graph.nodes.indices {
            for change in changes {
                switch change {
                case .stateAdded(let name, _) where graph.nodes[i].label == name:
                    graph.nodes[i].attributes["color"] = added
                    graph.nodes[i].attributes["fontcolor"] = added
                    graph.nodes[i].attributes["penwidth"] = "2"
                case .stateChanged(let name, let what) where graph.nodes[i].label == name:
                    graph.nodes[i].attributes["color"] = changed
                    graph.nodes[i].attributes["penwidth"] = "2"
                    graph.nodes[i].attributes["tooltip"] = what.joined(separator: "; ")
                default: break
                }
            }
        }
        // Edges: found by their ends and label; each marked once.
        func edgeIndex(source: String, label: String, target: String?) -> Int? {
            guard let from = graph.id(ofLabel: source) else { return nil }
            let to = target.flatMap { graph.id(ofLabel: Self.firstName($0)) } ?? from
            return graph.edges.firstIndex { $0.from == from && $0.to == to && $0.label.hasPrefix(label) && $0.attributes["color"] == nil }
        }
        for change in changes {
            switch change {
            case .transitionAdded(let source, let label, let target):
                if let e = edgeIndex(source: source, label: label, target: target) {
                    graph.edges[e].attributes = ["color": added, "fontcolor": added, "penwidth": "2"]
                }
            case .transitionChanged(let source, let label, let what):
                // A moved target: the old arrow stays, red and dashed.
                if let oldTarget = Self.oldTarget(what), let from = graph.id(ofLabel: source),
                   let to = graph.id(ofLabel: oldTarget) {
                    graph.edges.append(FlowDiagram.Edge(from: from, to: to, label: "− " + label, events: [nil],
                                                      attributes: ["color": removed, "fontcolor": removed, "style": "dashed"]))
                }
                if let e = graph.edges.firstIndex(where: { $0.from == graph.id(ofLabel: source) && $0.label.hasPrefix(label) && $0.attributes["color"] == nil }) {
                    graph.edges[e].attributes = ["color": changed, "fontcolor": changed, "penwidth": "2"]
                }
            case .transitionRemoved(let source, let label, let target):
                guard let from = graph.id(ofLabel: source) else { continue }
                let to = target.flatMap { graph.id(ofLabel: Self.firstName($0)) } ?? from
                graph.edges.append(FlowDiagram.Edge(from: from, to: to, label: "− " + label, events: [nil],
                                                  attributes: ["color": removed, "fontcolor": removed, "style": "dashed"]))
            default: break
            }
        }
        graph.name = "\(old.name) → \(new.name)"
        return graph
    }
}
