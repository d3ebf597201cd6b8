/// A problem found in a flow definition by ``FlowDefinition/validate()``.
public struct ValidationIssue: Hashable, Sendable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The flow can run, but probably not as intended.
        case warning
        /// The flow cannot run: a machine refuses to start it.
        case error

        /// Orders warnings before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `warning` or `error`.
        public var description: String { self == .error ? "error" : "warning" }
    }

    /// The kind of problem, as a value to match on. The set of kinds can grow.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Hashable, Sendable {
            case missingInitialState = "missing-initial-state"
            case unknownTarget = "unknown-target"
            case unreachableState = "unreachable-state"
            case deadEnd = "dead-end"
            case finalStateWithTransitions = "final-state-with-transitions"
            case shadowedTransition = "shadowed-transition"
            case finalStateWithChild = "final-state-with-child"
            case unknownChildOutput = "unknown-child-output"
            case unhandledChildOutput = "unhandled-child-output"
            case notRun = "not-run"
            case duplicateState = "duplicate-state"
            case invalidInitialChild = "invalid-initial-child"
            case transitionOutsideState = "transition-outside-state"
            case unnamed = "unnamed"
            case invalidParallel = "invalid-parallel"
            case invalidDoneTransition = "invalid-done-transition"
            case conflictingTargets = "conflicting-targets"
            case invalidHistory = "invalid-history"
            case ineffectiveInternal = "ineffective-internal"
            case invalidDelay = "invalid-delay"
            case reentersParallelState = "reenters-parallel-state"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The initial state is not a declared state.
        public static let missingInitialState = Kind(.missingInitialState)
        /// A transition targets a state that is not declared.
        public static let unknownTarget = Kind(.unknownTarget)
        /// A state cannot be reached from the initial state.
        public static let unreachableState = Kind(.unreachableState)
        /// A reachable state that is not final has no way out.
        public static let deadEnd = Kind(.deadEnd)
        /// A final state declares outgoing transitions.
        public static let finalStateWithTransitions = Kind(.finalStateWithTransitions)
        /// A transition is never taken: an unguarded transition of the same state for the same event
        /// comes first in declaration order, and the engine takes the first enabled one (SCXML's
        /// document order). A warning: the flow runs, the later transition is dead.
        public static let shadowedTransition = Kind(.shadowedTransition)
        /// A final state declares a child flow: the flow finishes as it enters the state, so the child
        /// would never run.
        public static let finalStateWithChild = Kind(.finalStateWithChild)
        /// A state's mapping of its child flow's outputs to events names an output the child never
        /// produces (a warning: usually an output renamed in the child), or the state runs no child
        /// flow at all (an error).
        public static let unknownChildOutput = Kind(.unknownChildOutput)
        /// A child flow's output becomes an event that no transition of its state (of the state's
        /// ancestors, or of the states inside it) takes: the output would be ignored. A warning.
        public static let unhandledChildOutput = Kind(.unhandledChildOutput)
        /// A flow file holds something valid that a simulation does not run (SCXML's data, scripts,
        /// invocations that need a data model...): kept to draw, validate and write, a warning.
        public static let notRun = Kind(.notRun)
        /// A state is declared twice.
        public static let duplicateState = Kind(.duplicateState)
        /// A compound state's initial child is not one of its children.
        public static let invalidInitialChild = Kind(.invalidInitialChild)
        /// A transition is declared outside of any state.
        public static let transitionOutsideState = Kind(.transitionOutsideState)
        /// A guard, an ``Update`` or an ``Emit`` has an empty name: diagrams and messages could not
        /// show it.
        public static let unnamed = Kind(.unnamed)

        /// A parallel state has no regions, or a final state is declared as a region (a region is a
        /// state that contains its final states).
        public static let invalidParallel = Kind(.invalidParallel)
        /// A completion transition (`On(done:)`) waits for a state that never completes.
        public static let invalidDoneTransition = Kind(.invalidDoneTransition)

        /// A transition's targets cannot be active together (several targets must lie in different
        /// regions of one parallel state).
        public static let conflictingTargets = Kind(.conflictingTargets)

        /// A history state is declared outside a compound state, declares transitions or states of its
        /// own, or defaults to a state it cannot remember (not a child of its state for a shallow
        /// history, not inside it for a deep one, or a history).
        public static let invalidHistory = Kind(.invalidHistory)

        /// A transition is declared internal (``TransitionType/internal``) where that changes nothing:
        /// its source is not a compound state (atomic or parallel), it has no target, or a target is
        /// not inside its source. It runs as an external transition (SCXML's rule); a warning.
        public static let ineffectiveInternal = Kind(.ineffectiveInternal)
        /// A delayed transition (``After``) has a delay that is not positive.
        public static let invalidDelay = Kind(.invalidDelay)
        /// An external transition exits and re-enters a parallel state that contains its target: SCXML's
        /// domain is never a parallel state, so a transition declared on a region (or inside one) to a
        /// state of that parallel state resets every region and runs the parallel state's exit and entry
        /// effects again. Correct semantics, rarely what is meant: a warning that names the way out
        /// (``TransitionType/internal`` on the region that holds the target). A transition that targets
        /// the parallel state itself, or a state in each of its regions (a deliberate reset), is not
        /// reported.
        public static let reentersParallelState = Kind(.reentersParallelState)

        /// The kind's stable name, as `flowviz validate --format json` prints it.
        public var description: String { backing.rawValue }
    }

    /// What kind of problem.
    public internal(set) var kind: Kind
    /// Error or warning.
    public internal(set) var severity: Severity
    /// A sentence that says what is wrong and where in the flow.
    public internal(set) var message: String
    /// Where the offending state or transition was declared.
    public internal(set) var location: FlowSourceLocation?

    /// Creates an issue.
    public init(kind: Kind, severity: Severity, message: String, location: FlowSourceLocation?,
                transition: FlowTransitionID? = nil) {
        self.kind = kind
        self.severity = severity
        self.message = message
        self.location = location
        self.transition = transition
    }

    /// The transition the issue is about, for ``Kind/shadowedTransition`` (the transition never
    /// taken), ``Kind/ineffectiveInternal`` and ``Kind/reentersParallelState``:
    /// `definition[transition]` gives its declaration.
    public internal(set) var transition: FlowTransitionID?

    /// The error for a final state that declares a child flow, for the engine's definitions and for
    /// flow files alike.
    package static func finalStateWithChild(state: String, child: String, location: FlowSourceLocation?) -> Self {
        ValidationIssue(kind: .finalStateWithChild, severity: .error,
                        message: "final state '\(state)' runs child flow '\(child)', which would never run: "
                            + "the flow finishes when it enters the state",
                        location: location)
    }

    /// `[location: ]severity: message` (`file:line:column: error: message`, the form compilers print),
    /// one line, the package's one format for problems (docs/ARCHITECTURE.md, "Errors").
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity): \(message)"
    }
}
