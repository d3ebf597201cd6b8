import Flowstate

// `two-factor-code.scxml` in this folder becomes the typed flow `TwoFactorCode` at build time: the
// two-factor code screen of `Examples/Flows/TwoFactorCode.swift`, written as SCXML by the SCXML writer.
// Its delayed transition (resending is offered 30 seconds after a code was sent) is SCXML's idiom, a
// delayed `<send>` on entry cancelled on exit, which the generator writes back as `After(.seconds(30), ...)`.

/// The app's side of the generated two-factor flow: its one guard's rule and its effects' work.
public struct TwoFactorCodeRules: TwoFactorCode.Requirements {
    /// What the effects did, in order.
    public let log: EffectLog
    /// Whether a submitted code has six digits.
    public let validCode: Bool

    /// Rules that write what the effects do to `log`, with codes valid or not.
    public init(log: EffectLog = EffectLog(), validCode: Bool = true) {
        self.log = log
        self.validCode = validCode
    }

    /// Whether the code has six digits (the generated events carry no code: the app's form knows).
    public func _6Digits(_ event: TwoFactorCode.Event?) -> Bool { validCode }

    /// Sends a code.
    public func sendCode() { log.append("sendCode") }
    /// Shows that the code was wrong.
    public func showErrorWrongCode() { log.append("showError(wrong code)") }
    /// Shows the resend button.
    public func showResend() { log.append("showResend") }
    /// Hides the resend button.
    public func hideResend() { log.append("hideResend") }
}
