import FlowNavigation
import Flowstate

/// Proves that a coordinator tree shows no screen its flows do not own: explores, breadth first, every
/// state the tree and the screens reach by the app's taps and the user's gestures (back, swipe down,
/// each tab, each alert choice) on a `HeadlessNavigator`, and reports the shortest sequence that
/// leads to a problem, printed as a Swift test.
///
/// A problem is:
/// - a screen on a stack whose flow is gone (it ended, or was torn down, and left its screen behind),
///   or that no flow of the tree showed;
/// - a flow that removes a screen it did not show (`Coordinator.problems`), and a command that makes
///   no sense for the stacks (a `pop` of a stack's root, a `dismiss` with no modal stack), which the
///   navigator records;
/// - a tap or a gesture that throws something else than a flow refusing an event.
///
/// Each state is reached again from a fresh host (the check replays the actions that lead there), so
/// `make` must build the same tree every time. A state is told apart by the stacks, the selected tab,
/// the alert and every machine's active states: not by contexts, history or timers (no time passes:
/// a delayed transition is not taken). The search is bounded by `maxDepth` actions and `maxStates`
/// states; ``Result/isComplete`` says whether every state so told apart was explored.
///
/// ```swift
/// let check = NavigationCheck<Shop.Host, Shop.Screen>(make: { navigator in
///     let host = Shop.Host(navigator: navigator)
///     try host.start()
///     return (host, host.coordinator)
/// }, taps: [
///     .init("try host.coordinator.send(.checkout, to: host.app)") { try $0.coordinator.send(.checkout, to: $0.app) },
/// ])
/// #expect(check.run().problem == nil)
/// ```
public struct NavigationCheck<Host, Screen: Hashable & Sendable> {
    /// Something the app's screens do when the user taps: a name, which is the Swift a test writes for
    /// it (`try host.coordinator.send(.next, to: host.account!)`), and what it does on a host. A tap
    /// that throws `SupervisorError` because its flow is gone or does not take the event there is not
    /// possible there; any other error (a handler's failure, `make` throwing) is a problem.
    public struct Tap {
        /// The Swift a test writes for it.
        public let swift: String
        /// What it does.
        public let perform: (Host) throws -> Void

        /// A tap.
        public init(_ swift: String, _ perform: @escaping (Host) throws -> Void) {
            self.swift = swift
            self.perform = perform
        }
    }

    /// What a run found.
    public struct Result {
        /// The states explored.
        public let explored: Int
        /// Whether every reachable state was explored (no bound was hit).
        public let isComplete: Bool
        /// The first problem found, if any.
        public let problem: String?
        /// The actions that lead to it, shortest first, as Swift lines.
        public let path: [String]

        /// The counterexample as a Swift test, to paste and fix (empty when there is no problem).
        public var swiftTest: String {
            guard let problem else { return "" }
            var lines = ["@Test func navigationProblem() throws {",
                         "    // \(problem)",
                         "    let navigator = HeadlessNavigator<\(Screen.self)>()",
                         "    let host = try make(navigator)  // as the check's make builds it"]
            lines += path.map { "    " + $0 }
            lines.append("    #expect(navigator.problems.isEmpty)")
            lines.append("}")
            return lines.joined(separator: "\n")
        }
    }

    private let make: (HeadlessNavigator<Screen>) throws -> (host: Host, coordinator: Coordinator<Screen>)
    private let taps: [Tap]
    private let hostScreens: Set<Screen>

    /// A check of the tree `make` builds on a navigator, driven by `taps` and the user's gestures.
    /// - Parameters:
    ///   - hostScreens: Screens the host shows itself, which no flow owns (a launch screen pushed
    ///     before the flows start). Any other screen without a live owner is a problem.
    ///   - make: Builds the host and starts its flows on the navigator given; returns the host and its
    ///     coordinator.
    ///   - taps: The app's taps.
    public init(hostScreens: Set<Screen> = [],
                make: @escaping (HeadlessNavigator<Screen>) throws -> (host: Host, coordinator: Coordinator<Screen>),
                taps: [Tap]) {
        self.make = make
        self.taps = taps
        self.hostScreens = hostScreens
    }

    /// One thing to try: a tap, or a gesture on the navigator.
    private enum Action: Hashable {
        case tap(Int), back, swipe, tab(Screen), choose(String)
    }

    /// Explores the tree.
    /// - Parameters:
    ///   - maxDepth: The most actions in a path.
    ///   - maxStates: The most states explored.
    public func run(maxDepth: Int = 8, maxStates: Int = 2_000) -> Result {
        var seen: Set<String> = []
        var queue: [[Action]] = [[]]
        var head = 0
        var complete = true
        while head < queue.count {
            let path = queue[head]
            head += 1
            let replay: Replay
            do {
                replay = try self.replay(path)
            } catch let failure as Failure {
                return Result(explored: seen.count, isComplete: complete, problem: failure.message, path: describe(path))
            } catch {
                continue  // a step not possible there (replays are deterministic: not reached)
            }
            // A problem met on the way counts even when the state it leads to was seen before.
            if let problem = replay.problem {
                return Result(explored: seen.count + 1, isComplete: complete, problem: problem, path: describe(path))
            }
            guard seen.insert(replay.key).inserted else { continue }
            guard path.count < maxDepth else {
                complete = false
                continue
            }
            guard seen.count < maxStates else {
                complete = false
                break
            }
            queue += replay.actions.map { path + [$0] }
        }
        return Result(explored: seen.count, isComplete: complete, problem: nil, path: [])
    }

    private struct Replay {
        let key: String
        let problem: String?
        let actions: [Action]
    }

    private struct Failure: Error {
        let message: String
    }

    /// A step that is not possible where the path is (a gesture with nothing to act on, a tap on a
    /// flow that is gone or that does not take the event there): the path is not explored further.
    private struct NotPossible: Error {}

    /// Builds a fresh host, performs `path`, and says where it is. Throws `Failure` for a problem met
    /// on the way (a tap that threw something else than a refusal), anything else when a step of the
    /// path is not possible.
    private func replay(_ path: [Action]) throws -> Replay {
        let navigator = HeadlessNavigator<Screen>()
        let host: Host, coordinator: Coordinator<Screen>
        do {
            (host, coordinator) = try make(navigator)
        } catch {
            throw Failure(message: "make threw \(error)")
        }
        for action in path {
            switch action {
            case .tap(let index):
                do {
                    try taps[index].perform(host)
                } catch let error as SupervisorError where Self.isNotPossible(error) {
                    throw NotPossible()
                } catch {
                    throw Failure(message: "\(taps[index].swift) threw \(error)")
                }
            case .back: if !navigator.goBack() { throw NotPossible() }
            case .swipe: if !navigator.swipeDown() { throw NotPossible() }
            case .tab(let root): if !navigator.selectTab(root) { throw NotPossible() }
            case .choose(let label): if !navigator.choose(label) { throw NotPossible() }
            }
        }
        coordinator.supervisor.sweep()
        let machines = coordinator.supervisor.machines
        let alert = navigator.alert.map { "\($0.title): \($0.choices)" } ?? "-"
        let key = "\(navigator.tabStacks) \(navigator.stacks) \(navigator.selectedTab.map { "\($0)" } ?? "-") \(alert) "
            + machines.map { "\($0.flow):\($0.state)" }.joined(separator: ",")
        var problem = navigator.problems.first.map { "the flows asked for a command that makes no sense: \($0)" }
            ?? coordinator.problems.first
        if problem == nil {
            let shown = Array(navigator.tabStacks.joined()) + Array(navigator.stacks.joined())
            for screen in shown where coordinator.owner(of: screen) == nil && !hostScreens.contains(screen) {
                problem = "screen \(screen) is shown, and no live flow of the tree owns it (its flow ended or was torn down and left it, or none showed it)"
                break
            }
        }
        var actions = taps.indices.map { Action.tap($0) } + [.back, .swipe]
        actions += navigator.tabStacks.compactMap(\.first).map { .tab($0) }
        actions += (navigator.alert?.choices ?? []).map { .choose($0) }
        return Replay(key: key, problem: problem, actions: actions)
    }

    /// Whether a tap's error says the tap is not possible there: its flow is gone, or does not take
    /// the event in its state (unhandled under the `fail` policy). Any other error is a problem.
    private static func isNotPossible(_ error: SupervisorError) -> Bool {
        error.code == .machineGone || (error.code == .stepFailed && error.underlying?.code == .unhandledEvent)
    }

    private func describe(_ path: [Action]) -> [String] {
        path.map { action in
            switch action {
            case .tap(let index): taps[index].swift
            case .back: "navigator.goBack()"
            case .swipe: "navigator.swipeDown()"
            case .tab(let root): "navigator.selectTab(\(String(reflecting: root)))"
            case .choose(let label): "navigator.choose(\(String(reflecting: label)))"
            }
        }
    }
}
