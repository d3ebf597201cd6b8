import Flowstate

/// The checkout flow of CheckoutFlow.swift with data of its own: a cart that transitions change
/// through named updates, a guard that reads it, and effects derived from it. Written twice, as a
/// Flowstate definition and as a hand-written `switch` over the same struct; both compute the same
/// checksum over a run.
enum ContextCheckout: Flow {
    typealias State = Checkout.State
    typealias Event = Checkout.Event
    typealias Effect = Int
    typealias Output = Int
    struct Context: Sendable {
        var items = 0
        var visits = 0
    }
}

let contextCheckoutDefinition: FlowDefinition<ContextCheckout> = {
    let visit = Update<ContextCheckout>("visit") { cart, _ in cart.visits &+= 1 }
    let addItem = Update<ContextCheckout>("add item") { cart, _ in cart.items &+= 1 }
    let empty = Update<ContextCheckout>("empty cart") { cart, _ in cart.items = 0 }
    let hasItems = Guard<ContextCheckout>("has items") { cart, _ in cart.items > 0 }
    let showVisits = Emit<ContextCheckout>("show(visits)") { cart, _ in 100 &+ cart.visits % 7 }
    let showItems = Emit<ContextCheckout>("show(items)") { cart, _ in 200 &+ cart.items % 5 }
    return FlowDefinition<ContextCheckout>("checkout with context", initial: .idle, context: .init()) {
        StateNode(.idle) {
            On(.next, to: .browsing, update: visit, effects: [1])
            On(.help, to: .help)
        }
        StateNode(.browsing, emitOnEntry: [showVisits]) {
            On(.next, to: .details, effects: [2])
            On(.back, to: .idle)
            On(.help, to: .help)
        }
        StateNode(.details) {
            On(.next, to: .cart, update: addItem, effects: [3])
            On(.back, to: .browsing)
        }
        StateNode(.cart, exit: [12], emitOnEntry: [showItems]) {
            On(.next, guard: hasItems, to: .checkout)
            On(.back, to: .details)
            On(.cancel, to: .idle, update: empty, effects: [4])
        }
        StateNode(.checkout) {
            On(.next, to: .payment)
            On(.back, to: .cart)
            On(.cancel, to: .idle, update: empty, effects: [4])
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
            On(.cancel, to: .idle, update: empty, effects: [4])
        }
        StateNode(.help, entry: [15], exit: [16]) {
            On(.back, to: .idle)
            On(.next, to: .idle)
        }
        StateNode(.receipt) {
            On(.next, to: .idle, update: empty, effects: [7])
        }
    }
}()

/// The same flow and cart as a hand-written `switch`: the baseline.
struct HandWrittenContextCheckout {
    var state = Checkout.State.idle
    var cart = ContextCheckout.Context()

    @inline(__always) var visits: Int { 100 &+ cart.visits % 7 }
    @inline(__always) var items: Int { 200 &+ cart.items % 5 }

    /// Returns the sum of the effects performed, in the same order the engine reports them.
    @inline(__always)
    mutating func send(_ event: Checkout.Event) -> Int {
        switch (state, event) {
        case (.idle, .next): state = .browsing; cart.visits &+= 1; return 1 &+ visits
        case (.idle, .help): state = .help; return 15
        case (.browsing, .next): state = .details; return 2
        case (.browsing, .back): state = .idle; return 0
        case (.browsing, .help): state = .help; return 15
        case (.details, .next): state = .cart; cart.items &+= 1; return 3 &+ items
        case (.details, .back): state = .browsing; return visits
        case (.cart, .next): if cart.items > 0 { state = .checkout; return 12 }; return 0
        case (.cart, .back): state = .details; return 12
        case (.cart, .cancel): state = .idle; cart.items = 0; return 12 + 4
        case (.checkout, .next): state = .payment; return 13
        case (.checkout, .back): state = .cart; return items
        case (.checkout, .cancel): state = .idle; cart.items = 0; return 4
        case (.payment, .next):
            if paymentApproved() { state = .confirming; return 0 }
            state = .failed; return 5 + 14
        case (.payment, .back): state = .checkout; return 0
        case (.confirming, .next): state = .receipt; return 6
        case (.confirming, .back): state = .payment; return 13
        case (.failed, .next): state = .payment; return 13
        case (.failed, .back): state = .cart; return items
        case (.failed, .cancel): state = .idle; cart.items = 0; return 4
        case (.help, .back), (.help, .next): state = .idle; return 16
        case (.receipt, .next): state = .idle; cart.items = 0; return 7
        default: return 0
        }
    }
}
