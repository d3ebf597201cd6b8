import Flowstate

/// An event of a flow read from a file: Flowstate's `SpecEvent`, under its name in this module too
/// (`FlowSpec.SpecEvent`).
public typealias SpecEvent = Flowstate.SpecEvent
