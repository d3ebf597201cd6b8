import Flowstate

// `radio.scxml` in this folder becomes the typed flow `Radio` at build time, as `sign-up.scxml`
// becomes `SignUp`: a parallel state (`on`: the band and the volume are regions), a history state
// (`lastBand`: `resume` comes back to the band last tuned), a transition with two targets (`reset`)
// and a completion transition (`done.state.band`, raised when the band's region reaches its final
// state) are written as `Parallel`, `History`, `On(_:to: [...])` and `On(done:to:)`.

/// The app's side of the generated radio flow: its one guard's rule and its effects' work.
public struct RadioRules: Radio.Requirements {
    /// What the effects did, in order.
    public let log: EffectLog
    /// Whether the signal is strong enough to switch from FM to AM.
    public let signal: Bool

    /// Rules that write what the effects do to `log`, with a signal strong or not.
    public init(log: EffectLog = EffectLog(), signal: Bool = true) {
        self.log = log
        self.signal = signal
    }

    /// Switching bands needs a strong signal.
    public func strongSignal(_ event: Radio.Event?) -> Bool { signal }

    /// Shows that the radio is off.
    public func showOff() { log.append("showOff") }
    /// Shows that the radio is on.
    public func showOn() { log.append("showOn") }
    /// Hides the radio's panel.
    public func hideOn() { log.append("hideOn") }
    /// Lowers the volume.
    public func lowerVolume() { log.append("lowerVolume") }
}
