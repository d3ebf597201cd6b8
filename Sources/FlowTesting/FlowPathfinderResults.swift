// What the path finder answers: reachability, the reasons a state is not reached, the cover.

import Flowstate

/// Whether and how the path finder reaches a state.
public enum FlowReachability<F: Flow>: Sendable {
    /// The machine settles in the state (or in a leaf inside it) at the end of the path.
    case reachable(FlowPath<F>)
    /// The machine never settles in the state, but the path's last step enters it and leaves it again
    /// by eventless transitions (a decision state), or the start does.
    case passedThrough(FlowPath<F>)
    /// No explored path enters the state.
    case unreachable(FlowUnreachableReason<F>)

    /// The path, when the state is reached or passed through.
    public var path: FlowPath<F>? {
        switch self {
        case .reachable(let path), .passedThrough(let path): path
        case .unreachable: nil
        }
    }

    /// Why the state is unreachable, when it is.
    public var reason: FlowUnreachableReason<F>? {
        if case .unreachable(let reason) = self { return reason }
        return nil
    }

    /// Whether the machine settles in the state at the end of some explored path.
    public var isReachable: Bool {
        if case .reachable = self { return true }
        return false
    }
}

/// Why no explored event sequence enters a state.
public enum FlowUnreachableReason<F: Flow>: Hashable, Sendable, CustomStringConvertible {
    /// The definition does not declare the state.
    case undeclared
    /// No path in the graph of declared transitions leads there, whatever the guards and samples
    /// (the reachability `FlowDefinition.validate()` checks).
    case noPath
    /// Paths exist in the graph, but every one needs one of these transitions from a state the
    /// exploration reached, and the engine never took it with the samples given: its guard was false
    /// for every sample (`FlowDefinition.TransitionDeclaration.guardLabel` names it), or a
    /// transition the engine tries first (an inner state's, or one declared earlier) always reacted.
    case blocked(transitions: [FlowTransitionID])
    /// Paths exist in the graph, but they need events of these kinds, and none was ever sent: no
    /// sample was given for them, and no declared child's output became one.
    case missingSamples(kinds: [F.Event.Kind])
    /// Paths exist in the graph, but every one needs one of these transitions from a state the
    /// exploration reached, and the engine never took it; the flow's context is not `Hashable`, so
    /// configurations were told apart by state alone, and a context some step left behind may have
    /// let it through. Make the context `Hashable` to explore it.
    case contextNotCompared(transitions: [FlowTransitionID])
    /// The exploration stopped at its configuration limit before reaching the state.
    case searchLimitReached

    /// The reason in words.
    public var description: String {
        switch self {
        case .undeclared: "the state is not declared"
        case .noPath: "no path of declared transitions leads there"
        case .blocked(let transitions): "every path is blocked at \(transitions) for the samples given"
        case .missingSamples(let kinds): "every path needs an event of a kind without samples: \(kinds)"
        case .contextNotCompared(let transitions):
            "every path needs one of \(transitions), never taken; the context is not Hashable, so the exploration "
                + "could not tell contexts apart"
        case .searchLimitReached: "the exploration stopped at its configuration limit"
        }
    }
}

/// Why a transition cover does not take a transition.
public enum FlowCoverGap: Hashable, Sendable, CustomStringConvertible {
    /// No explored configuration has the transition's source active (for an event transition: the
    /// machine never settles inside it; for an eventless one: no step enters it).
    case sourceNotReached
    /// The transition reacts to an event kind that has no samples (and no declared child's output
    /// became one).
    case missingSamples
    /// Its source was active and samples of its kind were sent, but the engine never selected it:
    /// its guard was false for every sample, or a transition tried first always reacted.
    case notTaken
    /// The exploration stopped at its configuration limit: before reaching the transition's source, or
    /// before exploring every configuration the transition could be taken from.
    case searchLimitReached
    /// Its source was active and events of its kind were sent, but the engine never selected it; the
    /// flow's context is not `Hashable`, so configurations were told apart by state alone, and a context
    /// not explored may have let it through.
    case contextNotCompared

    /// The reason in words.
    public var description: String {
        switch self {
        case .contextNotCompared: "never selected; the context is not Hashable, so contexts were not told apart"
        case .sourceNotReached: "its source is never active"
        case .missingSamples: "no sample of its event kind"
        case .notTaken: "never selected with the samples given"
        case .searchLimitReached: "the exploration stopped at its configuration limit"
        }
    }
}

/// Event sequences that together take every transition the path finder could take.
public struct FlowTransitionCover<F: Flow>: Sendable {
    /// The sequences, each from the machine's start. A flow without transitions has one empty path.
    public let paths: [FlowPath<F>]
    /// The transitions the paths take, in declaration order.
    public let covered: [FlowTransitionID]
    /// Why each transition the paths do not take was not taken.
    public let gaps: [FlowTransitionID: FlowCoverGap]

    /// The transitions the paths do not take, in declaration order.
    public var uncovered: [FlowTransitionID] { gaps.keys.sorted() }
}
