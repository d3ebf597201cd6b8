@_exported import Flowstate

/// Derives what the engine needs from an event enum whose cases carry payloads.
///
/// ```swift
/// @FlowEvent
/// enum Event {
///     case submitEmail(String)
///     @Sensitive case submitPassword(String)
///     case back, cancel
/// }
/// ```
///
/// adds, in the enum:
///
/// - `enum Kind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible`, one case per
///   case of the enum, with the same names: the kinds transitions are declared on (`On(.submitEmail, ...)`);
/// - `var kind: Kind`, a `switch` over `self` (`@inlinable` when the enum is public), so dispatching
///   costs what a hand-written `switch` costs;
/// - `var description: String`, each case with its payload (`submitEmail(a@b.co)`), except the
///   parameters marked ``Sensitive()``, printed as `<redacted>` (`submitPassword(<redacted>)`).
///   An enum that declares its own `description` keeps it;
///
/// and conforms the enum to `FlowEvent` and `CustomStringConvertible`. The derived members have the
/// enum's access level (`public`, `package`, or the default).
///
/// It is an error to apply it to anything but an enum, to an enum without cases, to an enum that
/// declares `Kind` or `kind` itself, or to one with two cases of the same name (`case a(x: Int), a(y: Int)`).
@attached(member, names: named(Kind), named(kind), named(description))
@attached(extension, conformances: FlowEvent, CustomStringConvertible)
public macro FlowEvent() = #externalMacro(module: "FlowstateMacrosPlugin", type: "FlowEventMacro")

/// Redacts every parameter of the cases it marks from the description `@FlowEvent` derives.
///
/// ```swift
/// @Sensitive case submitPassword(String)     // submitPassword(<redacted>)
/// ```
///
/// Valid only on a case (or a `case` line of several) of an enum marked ``FlowEvent()`` that has a payload.
/// The event itself, and so guards and outputs, still receive the payload: only the description hides it.
@attached(peer)
public macro Sensitive() = #externalMacro(module: "FlowstateMacrosPlugin", type: "SensitiveMacro")

/// Redacts the named parameters of the cases it marks from the description `@FlowEvent` derives.
///
/// Name a parameter by its label, or by its position counted from 0 when it has none:
///
/// ```swift
/// @Sensitive("password") case signIn(user: String, password: String)   // signIn(user: ada, password: <redacted>)
/// @Sensitive(1) case token(String, String)                             // token(bearer, <redacted>)
/// ```
///
/// A label or position the case does not have is an error.
@attached(peer)
public macro Sensitive(_ parameters: String...) = #externalMacro(module: "FlowstateMacrosPlugin", type: "SensitiveMacro")

/// Redacts the parameters at the given positions (counted from 0); see ``Sensitive(_:)-80fll``.
@attached(peer)
public macro Sensitive(_ positions: Int...) = #externalMacro(module: "FlowstateMacrosPlugin", type: "SensitiveMacro")
