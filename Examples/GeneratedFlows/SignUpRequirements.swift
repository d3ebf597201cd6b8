import Flowstate
import Foundation

// `sign-up.scxml` in this folder becomes the typed flow `SignUp` at build time (the FlowCodegen
// plugin, `Package.swift`): its states, events, effects and outputs as enums, and a `Requirements`
// protocol that this type implements. A guard or an effect added to the file and not implemented
// here fails the build at the file's line.

/// The app's side of the generated sign-up flow: the guards' rules and the effects' work.
public struct SignUpRules: SignUp.Requirements {
    /// What the effects did, in order (a real app presents screens instead).
    public let log: EffectLog

    /// Rules that write what the effects do to `log`.
    public init(log: EffectLog = EffectLog()) { self.log = log }

    /// The form says whether the email looked valid; in this example every email does.
    public func validEmail(_ event: SignUp.Event?) -> Bool { true }
    /// Every password is strong enough here.
    public func strongPassword(_ event: SignUp.Event?) -> Bool { true }
    /// Every code has six digits here.
    public func _6Digits(_ event: SignUp.Event?) -> Bool { true }

    /// Presents the email screen.
    public func presentEmail() { log.append("present(email)") }
    /// Dismisses the sign-up.
    public func dismiss() { log.append("dismiss") }
    /// Pushes the password screen.
    public func pushPassword() { log.append("push(password)") }
    /// Shows that the email is invalid.
    public func showErrorInvalidEmail() { log.append("showError(invalid email)") }
    /// Shows that the password is too short.
    public func showErrorPasswordTooShort() { log.append("showError(password too short)") }
    /// Pushes the two-factor screen.
    public func pushTwoFactor() { log.append("push(twoFactor)") }
    /// Goes back one screen.
    public func pop() { log.append("pop") }
    /// Sends the two-factor code.
    public func sendCode() { log.append("sendCode") }
}

/// The effects performed, in order: a thread-safe list for the example and its tests.
public final class EffectLog: @unchecked Sendable {
    // Guarded by `lock`.
    private var entries: [String] = []
    private let lock = NSLock()

    /// An empty log.
    public init() {}

    /// Adds an entry.
    public func append(_ entry: String) { lock.withLock { entries.append(entry) } }

    /// The entries so far.
    public var all: [String] { lock.withLock { entries } }
}
