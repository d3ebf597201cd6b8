import DequeModule
import FlowGraph
import Flowstate

/// A flow file compiled once for running: its definition (descriptor matching for SCXML), the map
/// from declarations to the file's transitions, and its index. Shared by every session of it.
final class SpecDocument: Sendable {
    let spec: FlowFile
    let definition: FlowDefinition<StringFlow>
    let index: SpecIndex
    let scxml: Bool
    /// The states a step may have something to do in besides the engine's work, by name: those with
    /// executable content, an invoke, or (SCXML) a nested final raising `done.state`. Looked up for
    /// every state entered or exited; every other state has nothing to run.
    let states: [String: FlowFile.State]
    /// The executable content of the file's transitions that have some, lowered
    /// (``SpecInstruction/lower(_:)``), by index in document order.
    let contents: [Int: [SpecInstruction]]
    /// The `<onentry>` blocks of the states in ``states``, lowered, by name.
    let onEntry: [String: [[SpecInstruction]]]
    /// The `<onexit>` blocks of the states in ``states``, lowered, by name.
    let onExit: [String: [[SpecInstruction]]]
    /// Whether a step can have anything for the driver to do besides the engine's work: executable
    /// content, an invoke, a nested final raising `done.state` (a JSON spec without child flows has
    /// none), or parallel states (whose `done.state` events the engine reports for the driver to queue).
    let hasContent: Bool
    /// Whether the flow has parallel or history states (runs SCXML's algorithm in the engine): its
    /// notes name every active leaf, and the engine reports the `done.state` events it raises.
    let parallel: Bool
    /// SCXML: the nested final states whose `done.state.<parent>` the driver raises (those outside
    /// every parallel state, which the definition declares as plain states; the engine raises and
    /// reports the others).
    let raisesDone: Set<String>

    /// - Parameter effects: Whether the definition carries effect labels (what a simulation reports;
    ///   an exploration does not read them, see ``FlowFile/compiled(guards:matching:effects:children:)``).
    init(_ spec: FlowFile, guards: [String: Bool], classes: EventClasses, effects: Bool = true) {
        self.spec = spec
        let scxml = spec.semantics == .scxml
        self.scxml = scxml
        // Compiled first, indexed after: the index is not alive while the compilation peaks.
        let (definition, map) = spec.compiled(guards: guards, matching: scxml ? .descriptors(classes) : .text,
                                              effects: effects)
        var index = SpecIndex(spec)
        index.specTransitions = map
        self.definition = definition
        var states: [String: FlowFile.State] = [:]
        var contents: [Int: [SpecInstruction]] = [:]
        var onEntry: [String: [[SpecInstruction]]] = [:]
        var onExit: [String: [[SpecInstruction]]] = [:]
        var raisesDone: Set<String> = []
        let hierarchy = definition.hierarchy
        index.forEach(state: { ordinal, state in
            let nestedFinal = scxml && state.isFinal && index.hierarchy.parent(of: ordinal) >= 0
            if nestedFinal, let p = definition.position(of: state.name),
               hierarchy.nearestParallelAncestor(of: p) == FlowHierarchy.root {
                raisesDone.insert(state.name)
            }
            if !state.onEntry.isEmpty || !state.onExit.isEmpty || state.child != nil || nestedFinal {
                states[state.name] = state
                onEntry[state.name] = state.onEntry.map(SpecInstruction.lower)
                onExit[state.name] = state.onExit.map(SpecInstruction.lower)
            }
        }, transition: { t, transition in
            if let content = transition.content, !content.actions.isEmpty { contents[t] = SpecInstruction.lower(content) }
        })
        self.states = states
        self.contents = contents
        self.onEntry = onEntry
        self.onExit = onExit
        self.raisesDone = raisesDone
        parallel = hierarchy.hasParallel || hierarchy.hasHistory  // history flows run SCXML's algorithm too
        hasContent = !states.isEmpty || !contents.isEmpty || parallel
        self.index = index
    }
}
