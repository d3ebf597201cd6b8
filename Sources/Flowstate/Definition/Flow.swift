/// The types a flow is made of: a namespace that names its states, events, effects and output.
///
/// A flow is usually an `enum` with no cases that nests its own types, so that every Flowstate API
/// takes a single generic parameter (`FlowMachine<SignUp>`, `FlowDefinition<SignUp>`):
///
/// ```swift
/// enum SignUp: Flow {
///     enum State: Hashable, Sendable { case email, password, done, cancelled }
///     enum Event: FlowEvent { case submitEmail(String), submitPassword(String), cancel
///         enum Kind: Hashable, Sendable { case submitEmail, submitPassword, cancel }
///         var kind: Kind { ... }
///     }
///     enum Effect: Sendable { case show(String), dismiss }
///     enum Output: Sendable { case signedUp, cancelled }
/// }
/// ```
///
/// Labels for diagrams come from `String(describing:)` of states, event kinds and effects: give those
/// types a `CustomStringConvertible` conformance to choose the words drawn on the picture.
///
/// A flow's conformance is never isolated to an actor (`SendableMetatype`): definitions and machines
/// are values that any isolation domain can build, inspect and run.
public protocol Flow: SendableMetatype {
    /// The states of the flow: a finite set of values, usually a payload-free `enum`.
    associatedtype State: Hashable & Sendable
    /// The events the flow reacts to; cases may carry payloads.
    associatedtype Event: FlowEvent
    /// The effects the flow asks its host to perform, as data (for a coordinator: navigation commands).
    associatedtype Effect: Sendable
    /// The result the flow produces when it reaches a final state.
    associatedtype Output: Sendable
    /// The data the flow keeps while it runs (the email typed on the first screen, the model a parent
    /// shares with its children), `Void` by default: a flow without context costs nothing for it.
    ///
    /// Guards read it, transitions change it only through named ``Update``s, and effects may be
    /// derived from it through named ``Emit``s, so a definition stays inspectable (see
    /// <doc:FlowContext>). A `Codable` context is saved in snapshots.
    associatedtype Context: Sendable = Void
}

/// An event that a flow reacts to.
///
/// Transitions are declared on an event's ``kind``: a payload-free value that names the event's case.
/// The engine dispatches on the kind and hands the full event, payload included, to guards and outputs.
///
/// An `enum` without payloads is its own kind and needs no code:
///
/// ```swift
/// enum Tap: FlowEvent { case next, back }
/// ```
///
/// An `enum` with payloads declares a payload-free `Kind` and maps each case to it.
public protocol FlowEvent: Sendable {
    /// A payload-free discriminator of the event's case, compared on every dispatch.
    associatedtype Kind: Hashable & Sendable = Self
    /// The case of this event, without its payload.
    var kind: Kind { get }
}

extension FlowEvent where Kind == Self {
    /// A payload-free event is its own kind.
    @inlinable
    public var kind: Self { self }
}

/// String events make flows whose events are only known at run time (for example, flows read from files).
extension String: FlowEvent {
    /// A string event is its own kind.
    public typealias Kind = String
}
