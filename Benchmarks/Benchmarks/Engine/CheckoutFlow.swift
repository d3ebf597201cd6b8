import Flowstate

/// A 10-state checkout flow with guards and payload-free events, written twice: as a Flowstate
/// definition and as a hand-written `switch`. Both compute the same checksum over a run.
enum Checkout: Flow {
    enum State: Int, Hashable, Sendable {
        case idle, browsing, details, cart, checkout, payment, confirming, failed, help, receipt
    }
    enum Event: UInt8, FlowEvent { case next, back, help, cancel }
    typealias Effect = Int
    typealias Output = Int
}

/// Opaque to the optimizer, so neither implementation can fold the guards away.
@inline(never) func cartHasItems() -> Bool { CommandLine.arguments.count > 0 }
@inline(never) func paymentApproved() -> Bool { CommandLine.arguments.count > 1_000 }

let checkoutDefinition = FlowDefinition<Checkout>("checkout", initial: .idle) {
    StateNode(.idle) {
        On(.next, to: .browsing, effects: [1])
        On(.help, to: .help)
    }
    StateNode(.browsing, entry: [10]) {
        On(.next, to: .details, effects: [2])
        On(.back, to: .idle)
        On(.help, to: .help)
    }
    StateNode(.details) {
        On(.next, to: .cart, effects: [3])
        On(.back, to: .browsing)
    }
    StateNode(.cart, entry: [11], exit: [12]) {
        On(.next, guard: Guard("has items", condition: cartHasItems), to: .checkout)
        On(.back, to: .details)
        On(.cancel, to: .idle, effects: [4])
    }
    StateNode(.checkout) {
        On(.next, to: .payment)
        On(.back, to: .cart)
        On(.cancel, to: .idle, effects: [4])
    }
    StateNode(.payment, entry: [13]) {
        On(.next, guard: Guard("approved", condition: paymentApproved), to: .confirming)
        On(.next, to: .failed, effects: [5])
        On(.back, to: .checkout)
    }
    StateNode(.confirming) {
        On(.next, to: .receipt, effects: [6])
        On(.back, to: .payment)
    }
    StateNode(.failed, entry: [14]) {
        On(.next, to: .payment)
        On(.back, to: .cart)
        On(.cancel, to: .idle, effects: [4])
    }
    StateNode(.help, entry: [15], exit: [16]) {
        On(.back, to: .idle)
        On(.next, to: .idle)
    }
    StateNode(.receipt) {
        On(.next, to: .idle, effects: [7])
    }
}

/// The same flow as a hand-written `switch`: the baseline.
struct HandWrittenCheckout {
    var state = Checkout.State.idle

    /// Returns the sum of the effects performed, in the same order the engine reports them.
    @inline(__always)
    mutating func send(_ event: Checkout.Event) -> Int {
        switch (state, event) {
        case (.idle, .next): state = .browsing; return 1 + 10
        case (.idle, .help): state = .help; return 15
        case (.browsing, .next): state = .details; return 2
        case (.browsing, .back): state = .idle; return 0
        case (.browsing, .help): state = .help; return 15
        case (.details, .next): state = .cart; return 3 + 11
        case (.details, .back): state = .browsing; return 10
        case (.cart, .next): if cartHasItems() { state = .checkout; return 12 }; return 0
        case (.cart, .back): state = .details; return 12
        case (.cart, .cancel): state = .idle; return 12 + 4
        case (.checkout, .next): state = .payment; return 13
        case (.checkout, .back): state = .cart; return 11
        case (.checkout, .cancel): state = .idle; return 4
        case (.payment, .next):
            if paymentApproved() { state = .confirming; return 0 }
            state = .failed; return 5 + 14
        case (.payment, .back): state = .checkout; return 0
        case (.confirming, .next): state = .receipt; return 6
        case (.confirming, .back): state = .payment; return 13
        case (.failed, .next): state = .payment; return 13
        case (.failed, .back): state = .cart; return 11
        case (.failed, .cancel): state = .idle; return 4
        case (.help, .back), (.help, .next): state = .idle; return 16
        case (.receipt, .next): state = .idle; return 7
        default: return 0
        }
    }
}

/// A fixed pseudo-random sequence of events (xorshift64*, fixed seed), biased towards `next` so
/// that runs go deep into the flow.
func checkoutEvents(count: Int) -> [Checkout.Event] {
    var x: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
        x ^= x >> 12
        x ^= x << 25
        x ^= x >> 27
        let r = (x &* 0x2545_F491_4F6C_DD1D) >> 60  // 0...15
        switch r {
        case 0..<9: return .next
        case 9..<13: return .back
        case 13..<15: return .cancel
        default: return .help
        }
    }
}
