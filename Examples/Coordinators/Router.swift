import FlowNavigation
import Flowstate

/// The Router (seed 003): the main flow asks for an order; ordering needs a login first; the result
/// comes back to the requester as a typed value, not through a callback registered on a router.
public enum OrderRouter {
    /// The screens.
    public enum Screen: String, Hashable, Sendable, Codable, CustomStringConvertible {
        case home, login, cart, confirmation
        public var description: String { rawValue }
    }

    /// What an order flow gives back.
    public enum OrderResult: Hashable, Sendable {
        case placed(orderID: Int)
        case cancelled
    }

    /// Who is logged in: outside the flows, read by a guard.
    public final class Session: @unchecked Sendable {
        /// Whether a user is logged in. Tests and the host set it from one thread.
        public var isLoggedIn = false
        /// Creates a session.
        public init() {}
    }

    /// The main flow: it requests an order and receives its typed result.
    public enum Main: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case home, ordering
            public var description: String { rawValue }
        }
        /// Its events; `orderFinished` carries the order flow's result.
        public enum Event: FlowEvent, Hashable {
            case order, orderFinished(OrderResult)
            /// Kinds.
            public enum Kind: String, Hashable, Sendable, CustomStringConvertible {
                case order, orderFinished
                public var description: String { rawValue }
            }
            /// The kind.
            public var kind: Kind {
                switch self {
                case .order: .order
                case .orderFinished: .orderFinished
                }
            }
        }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// It never finishes.
        public typealias Output = Never
    }

    /// The order flow: login if needed, then the cart, then the confirmation.
    public enum Order: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case start, login, cart, confirming, placed, cancelled
            public var description: String { rawValue }
        }
        /// Its events.
        public enum Event: FlowEvent, Hashable { case loggedIn, checkout, confirm, cancel, wentBack }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// The typed result.
        public typealias Output = OrderResult
    }

    /// The main flow.
    public static let main = FlowDefinition<Main>("main", initial: .home) {
        StateNode(.home) { On(.order, to: .ordering) }
        StateNode(.ordering) { On(.orderFinished, to: .home) }
    }

    /// The order flow; `session` decides whether it starts with the login.
    public static func order(session: Session, nextOrderID: @escaping @Sendable () -> Int) -> FlowDefinition<Order> {
        let loggedIn = Guard<Order>("logged in") { session.isLoggedIn }
        return FlowDefinition<Order>("order", initial: .start) {
            StateNode(.start) {
                Always(guard: loggedIn, to: .cart, effects: [.present(.cart)])
                Always(to: .login, effects: [.present(.login)])
            }
            StateNode(.login) {
                On(.loggedIn, to: .cart, effects: [.push(.cart)])
                On(.cancel, to: .cancelled)
            }
            StateNode(.cart) {
                On(.checkout, to: .confirming, effects: [.push(.confirmation)])
                On(.cancel, to: .cancelled)
            }
            StateNode(.confirming) {
                On(.confirm, to: .placed)
                On(.wentBack, to: .cart)
                On(.cancel, to: .cancelled)
            }
            Final(.placed, outputLabel: "placed(orderID)", entry: [.dismiss]) { _ in .placed(orderID: nextOrderID()) }
            Final(.cancelled, output: .cancelled, entry: [.dismiss])
        }
    }

    /// Runs the example.
    public final class Host {
        /// The coordinator.
        public let coordinator: Coordinator<Screen>
        /// The session.
        public let session = Session()
        /// The main flow.
        public private(set) var main: MachineHandle<Main>!
        /// The order flow, while it runs.
        public private(set) var ordering: MachineHandle<Order>?
        /// The results delivered to the main flow, in order.
        public var results: [OrderResult] { delivered.results }

        /// Starts on the home screen.
        public init(navigator: any Navigator<Screen>) throws {
            coordinator = Coordinator(navigator: navigator)
            navigator.perform(.push(.home), retaining: nil)
            main = try coordinator.start(OrderRouter.main, effects: { $0 })
        }

        private let delivered = ResultLog()

        /// The home screen's "order" button.
        public func order() throws {
            // A second tap while the order flow runs starts nothing (NavigationCheckTests).
            if let ordering, coordinator.supervisor.contains(ordering.id) { return }
            try coordinator.send(.order, to: main)
            let counter = Counter()
            ordering = try coordinator.start(
                OrderRouter.order(session: session, nextOrderID: { counter.next() }), under: main, effects: { $0 },
                userNavigation: { if case .wentBack(from: .confirmation) = $0 { .wentBack } else { nil } },
                dismissed: .orderFinished(.cancelled),
                output: { [delivered] result in
                    delivered.results.append(result)
                    return .orderFinished(result)
                })
        }
    }
}

/// The results delivered to the requester. Used from the coordinator's one isolation domain.
final class ResultLog: @unchecked Sendable {
    var results: [OrderRouter.OrderResult] = []
}

/// Order numbers.
final class Counter: @unchecked Sendable {
    private var value = 1000
    func next() -> Int {
        value += 1
        return value
    }
}
