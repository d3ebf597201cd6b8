import Flowstate

/// An event of a flow read from a file: Flowstate's `SpecEvent`, under its name in this module too
/// (`FlowSpec.SpecEvent`).
public typealias SpecEvent = Flowstate.SpecEvent

/// The flow type of flows read from files: now Flowstate's `StringFlow`, the one flow of string
/// labels.
@available(*, deprecated, renamed: "StringFlow")
public typealias SpecFlow = StringFlow
