/// A timer a machine armed for a delayed transition (``After``): which state armed it, for which
/// transition, and when (its arming generation), so that a timer that fires after its state was
/// left, or after the state was left and entered again, is recognised as stale and ignored.
///
/// A timer is plain data, the same type for every flow (and `Codable`): a host schedules it, keeps
/// it, and hands it back to ``FlowMachine/fire(_:)`` when its delay has passed.
public struct FlowTimer: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The state the delayed transition is declared on, by position among the definition's
    /// ``FlowDefinition/states`` (``FlowDefinition/state(of:)`` names it).
    public let state: Int
    /// The delayed transition (``FlowDefinition/subscript(_:)`` gives its declaration).
    public let transition: FlowTransitionID
    /// Which arming this is: the machine counts every timer it arms, so each arming has its own.
    public let generation: UInt64

    /// A timer of the transition at `transition`, declared on the state at `state`, armed as the
    /// machine's `generation`th.
    public init(state: Int, transition: FlowTransitionID, generation: UInt64) {
        self.state = state
        self.transition = transition
        self.generation = generation
    }

    /// `timer(t3 of s2 #7)`.
    public var description: String { "timer(\(transition) of s\(state) #\(generation))" }

    /// A delay as diagrams label it: `30s`, `500ms`, `2min`, `1h`, `1.5s`.
    public static func label(of delay: Duration) -> String {
        let (seconds, attoseconds) = delay.components
        if attoseconds == 0 {
            if seconds != 0 && seconds % 3600 == 0 { return "\(seconds / 3600)h" }
            if seconds != 0 && seconds % 60 == 0 { return "\(seconds / 60)min" }
            return "\(seconds)s"
        }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if attoseconds % perMillisecond == 0, !overflow {
            let total = milliseconds &+ attoseconds / perMillisecond
            return total % 1000 == 0 ? "\(total / 1000)s" : (seconds == 0 ? "\(total)ms" : "\(Double(total) / 1000)s")
        }
        return "\(Double(seconds) + Double(attoseconds) / 1e18)s"
    }
}

/// What a step did to a machine's timers (``FlowStep/timers``), in the order SCXML gives the exits
/// and entries that caused it: a host schedules what is armed and cancels what is cancelled.
public enum FlowTimerChange: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The timer's state was entered: the timer should fire after `delay`.
    case arm(FlowTimer, after: Duration)
    /// The timer's state was left (or the flow finished): it must not fire any more.
    case cancel(FlowTimer)

    /// The timer armed or cancelled.
    public var timer: FlowTimer {
        switch self {
        case .arm(let timer, _), .cancel(let timer): timer
        }
    }

    /// `arm timer(t3 of s2 #7) after 30s` or `cancel timer(t3 of s2 #7)`.
    public var description: String {
        switch self {
        case .arm(let timer, let delay): "arm \(timer) after \(FlowTimer.label(of: delay))"
        case .cancel(let timer): "cancel \(timer)"
        }
    }
}

extension FlowDefinition {
    /// The state that armed `timer` (the one its delayed transition is declared on), or `nil` when
    /// the timer is not one of this definition's.
    public func state(of timer: FlowTimer) -> F.State? {
        states.indices.contains(timer.state) ? states[timer.state].state : nil
    }

    /// The delay of the transition `timer` is armed for, or `nil` when the timer is not one of this
    /// definition's.
    public func delay(of timer: FlowTimer) -> Duration? {
        transitions.indices.contains(timer.transition.position) ? transitions[timer.transition.position].delay : nil
    }
}
