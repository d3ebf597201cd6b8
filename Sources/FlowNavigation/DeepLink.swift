import Flowstate

/// A deep link into a flow: the states it leads to, and the events a path there may use.
///
/// ``Coordinator/open(_:in:)`` looks, from the machine's current configuration, for the shortest
/// sequence of `events` after which every `target` state is active: it runs the flow's own engine on a
/// copy of the machine, so guards are honoured and updates change the context as they would. Then it
/// sends those events to the machine in one ``Coordinator/batch(_:)``: the children they spawn and tear
/// down come and go, and with declared screens (``ScreenMap``) the user sees only the final stacks.
/// Parameters travel as the events' payloads (an event such as `.opened(productID)`), so the events a
/// link may use are values, made when the link is (a route's `:name` segments give them).
///
/// ```swift
/// let payment = DeepLink<Shop.App>("checkout/payment", to: [.payment, .member],
///                                   through: [.showCart, .checkout, .next, .pay, .loggedIn])
/// try coordinator.open(payment, in: app)
/// ```
public struct DeepLink<F: Flow>: Sendable {
    /// The link's name, for messages.
    public let name: String
    /// The states that are all active when the link is open.
    public let target: [F.State]
    /// The events a path to the target may use.
    public let events: [F.Event]
    /// The most configurations a search explores (a flow whose contexts keep changing has no end of them).
    let maxConfigurations: Int

    /// A link to `target` through `events`.
    /// - Parameters:
    ///   - name: The link's name, for messages.
    ///   - target: The states that are all active when the link is open.
    ///   - events: The events a path there may use (with their payloads: the link's parameters).
    ///   - maxConfigurations: The most configurations a search explores.
    public init(_ name: String, to target: [F.State], through events: [F.Event], maxConfigurations: Int = 10_000) {
        self.name = name
        self.target = target
        self.events = events
        self.maxConfigurations = maxConfigurations
    }

    /// Whether every target state is active in `machine`.
    public func isOpen(in machine: FlowMachine<F>) -> Bool { target.allSatisfy(machine.isActive) }

    /// The shortest sequence of ``events`` after which a copy of `machine` has every target state
    /// active (empty when it has already), or `nil` when none is found within the limit it was made with
    /// (`maxConfigurations`). A configuration is its active states, what its histories remember, its armed
    /// timers and its context; events that are ignored, rejected by a guard, or refused do not count.
    public func path(from machine: FlowMachine<F>) -> [F.Event]? {
        if isOpen(in: machine) { return [] }
        var explorer = FlowExplorer<Key, Int, FlowMachine<F>>(start: Key(machine), run: machine, limit: maxConfigurations)
        while let (_, _, run) = explorer.next() {
            for (index, event) in events.enumerated() {
                var next = run
                // An event the machine refuses there (unhandled under the `fail` policy, an eventless
                // loop) is no step of a path: the error says only that, so it is not kept.
                guard let step = try? next.send(event), step.kind != .ignored, step.kind != .rejected else { continue }
                guard let reached = explorer.reach(Key(next), by: index, exploring: next.isFinished ? nil : next),
                      reached.isNew else { continue }
                if isOpen(in: next) {
                    return explorer.exploration.labels(to: reached.node).map { events[$0] }
                }
            }
        }
        return nil
    }

    /// The path from the start of `definition` (with `context`, or its initial context), as a test
    /// asks in one line that every link leads somewhere: `#expect(link.path(in: App.definition) != nil)`.
    /// - Throws: `FlowError` when the flow cannot start.
    public func path(in definition: FlowDefinition<F>, context: F.Context? = nil) throws(FlowError) -> [F.Event]? {
        var machine = if let context { try FlowMachine(definition, context: context) } else { try FlowMachine(definition) }
        _ = try machine.start()
        return path(from: machine)
    }

    /// A configuration, as the search tells them apart: the engine's exploration key (active states,
    /// what histories remember, armed timers), and the context: compared as a value when it is
    /// `Hashable`, else by its description.
    struct Key: Hashable {
        let configuration: [Int]
        let context: AnyHashable
        init(_ machine: FlowMachine<F>) {
            configuration = machine.explorationKey
            context = (machine.context as? any Hashable).map { AnyHashable($0) } ?? AnyHashable(String(describing: machine.context))
        }
    }
}

/// Deep links by URL path: patterns such as `/product/:id`, each with the link it opens.
///
/// ```swift
/// var routes = DeepLinkRoutes<Shop.App>()
/// routes.add("/checkout/payment") { _ in Shop.paymentLink }
/// routes.add("/product/:id") { parameters in parameters["id"] == nil ? nil : Shop.productLink }
/// try coordinator.open(path: "/product/42", routes: routes, in: app)
/// ```
public struct DeepLinkRoutes<F: Flow>: Sendable {
    private var routes: [(pattern: [Substring], make: @Sendable ([String: String]) -> DeepLink<F>?)] = []

    /// No routes.
    public init() {}

    /// The patterns, in the order they were added.
    var patterns: [String] { routes.map { "/" + $0.pattern.joined(separator: "/") } }

    /// Adds a route: a path whose segments are `pattern`'s (a segment `:name` matches any segment,
    /// whose value `make` receives under `name`) opens the link `make` returns (`nil`: none).
    public mutating func add(_ pattern: String, _ make: @escaping @Sendable ([String: String]) -> DeepLink<F>?) {
        routes.append((pattern.split(separator: "/"), make))
    }

    /// The link of the first route whose pattern matches `path` (`/a/b`; a query or fragment is
    /// ignored), or `nil`.
    public func link(for path: String) -> DeepLink<F>? {
        let segments = path.prefix { $0 != "?" && $0 != "#" }.split(separator: "/")
        for route in routes where route.pattern.count == segments.count {
            var parameters: [String: String] = [:]
            let matches = zip(route.pattern, segments).allSatisfy { pattern, segment in
                if pattern.hasPrefix(":") {
                    parameters[String(pattern.dropFirst())] = String(segment)
                    return true
                }
                return pattern == segment
            }
            if matches, let link = route.make(parameters) { return link }
        }
        return nil
    }
}

/// Why a deep link did not open. Nothing changed in the tree.
///
/// The package's one error shape (docs/ARCHITECTURE.md, "Errors"): a ``Code`` to match on, whose set
/// can grow without breaking a caller's `switch`, and a message for people.
public struct DeepLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to match on. The set of codes can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Own: String, Hashable, Sendable {
            case unknownRoute = "unknown-route"
            case unreachable
            case machineGone = "machine-gone"
            case diverged
        }

        private let own: Own
        private init(_ own: Own) { self.own = own }

        /// No route matches the path.
        public static let unknownRoute = Code(.unknownRoute)
        /// No sequence of the link's events leads to its target from where the flow is.
        public static let unreachable = Code(.unreachable)
        /// The flow is gone.
        public static let machineGone = Code(.machineGone)
        /// The path was sent, and the flow did not end up at the link's target: what the flow ran
        /// besides its own steps (declared children, handlers sending events) took it elsewhere. Unlike
        /// the other codes, the tree changed.
        public static let diverged = Code(.diverged)

        /// The code's stable name, kebab-case (`unknown-route`).
        public var description: String { own.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for people.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `unreachable: ...`.
    public var description: String { "\(code): \(message)" }
}

extension Coordinator {
    /// Opens a deep link in a flow: sends it the shortest sequence of the link's events that makes its
    /// target states active (``DeepLink/path(from:)``), in one ``batch(_:)``. Returns the events sent
    /// (none when the link is open already).
    ///
    /// The path is found on a copy of the machine before anything is sent: a link that leads nowhere
    /// from where the flow is throws and changes nothing. The copy runs the flow's own steps only (its
    /// guards and updates), not its declared children, handlers or timers: when those take the flow
    /// elsewhere on the way, the path was sent and `diverged` is thrown. An event the machine refuses
    /// on the way (an effect handler that throws) stops the path there and throws its `SupervisorError`.
    /// - Parameters:
    ///   - link: The link.
    ///   - machine: The flow it opens in.
    /// - Throws: ``DeepLinkError`` (`unreachable`, `machineGone`, `diverged`), or the `SupervisorError`
    ///   of a step.
    @discardableResult
    public func open<F: Flow>(_ link: DeepLink<F>, in machine: MachineHandle<F>) throws -> [F.Event] {
        guard let engine = supervisor.engine(of: machine) else {
            throw DeepLinkError(code: .machineGone, message: "link '\(link.name)': flow \(machine.id) is gone")
        }
        guard let path = link.path(from: engine) else {
            let states = supervisor.leaves(of: machine)?.map { "\($0)" }.joined(separator: ", ") ?? "?"
            throw DeepLinkError(code: .unreachable, message: "link '\(link.name)': none of its events leads from \(states) to \(link.target.map { "\($0)" }.joined(separator: ", ")) (searched \(link.maxConfigurations) configurations at most)")
        }
        try batch { () throws(SupervisorError) in
            for event in path { try supervisor.send(event, to: machine) }
        }
        // The copy runs no declared children, handlers or timers: the machine itself may have moved
        // otherwise (a child that finishes as it starts, an entry effect that sends an event back).
        guard let reached = supervisor.engine(of: machine), link.isOpen(in: reached) else {
            let states = supervisor.leaves(of: machine)?.map { "\($0)" }.joined(separator: ", ") ?? "gone"
            throw DeepLinkError(code: .diverged, message: "link '\(link.name)': its path (\(path.map { "\($0)" }.joined(separator: ", "))) was sent, and the flow is in \(states), not at \(link.target.map { "\($0)" }.joined(separator: ", ")): what it ran besides its own steps (children, handlers) took it elsewhere")
        }
        return path
    }

    /// Opens the link of the first route that matches `path` (``DeepLinkRoutes/link(for:)``).
    /// - Throws: ``DeepLinkError`` with code `unknownRoute` when no route matches (nothing changes),
    ///   or what ``open(_:in:)`` throws.
    @discardableResult
    public func open<F: Flow>(path: String, routes: DeepLinkRoutes<F>, in machine: MachineHandle<F>) throws -> [F.Event] {
        guard let link = routes.link(for: path) else {
            throw DeepLinkError(code: .unknownRoute, message: "no route matches '\(path)' (routes: \(routes.patterns.joined(separator: ", ")))")
        }
        return try open(link, in: machine)
    }
}
