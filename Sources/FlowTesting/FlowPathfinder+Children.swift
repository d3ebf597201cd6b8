// How the path finder runs declared children to learn the outputs they can give.

import Flowstate

/// A state and the parent's context: what a declared child's reachable outputs depend on.
struct ChildKey: Hashable {
    var state: Int
    var context: AnyHashable?
}

/// Explores a declared child's own definition to find the outputs it can finish with: with the
/// child samples of its event type and, when its events carry no payload, every kind its transitions
/// name; its own children in turn, down to ``maxDepth`` levels of nesting (a chain of children is a
/// chain of definitions, which code can make as long as it likes, and each level is a call).
struct ChildExplorer: ChildOutputFinder, @unchecked Sendable {
    // @unchecked: the samples are `any Sendable` values, only read; `cut` is written by the one
    // thread that runs the exploration, which owns it.
    let samples: [any Sendable]
    let limit: Int
    var depth = 0
    /// Set when some child's exploration stopped early (its own limit, or the nesting limit): its
    /// outputs may be incomplete, and so is every exploration that asked for them.
    let cut = Flag()

    /// The most levels of declared children explored below the flow itself.
    static let maxDepth = 32

    final class Flag {
        var isSet = false
    }

    init(samples: [any Sendable], limit: Int) {
        self.samples = samples
        self.limit = limit
    }

    func outputs<Child: Flow>(of definition: FlowDefinition<Child>,
                              context: Child.Context) throws(FlowError) -> [Child.Output] {
        guard depth < Self.maxDepth else {
            cut.isSet = true
            return []
        }
        var nested = self
        nested.depth += 1
        var grouped: [Child.Event.Kind: [Child.Event]] = [:]
        for kind in FlowIndex(definition).kinds {
            if let event = kind as? Child.Event { grouped[kind, default: []].append(event) }  // Event == Kind
        }
        for case let event as Child.Event in samples { grouped[event.kind, default: []].append(event) }
        // A child that cannot start is an error, as the supervisor could not spawn it either.
        let explored = try FlowPathfinder<Child>(definition, grouped: grouped, children: nested, context: context,
                                                 maxConfigurations: limit)
        if !explored.isComplete { cut.isSet = true }
        return explored.outputs
    }
}
