import Flowstate
import Testing

/// Definitions far deeper than anyone writes by hand, built without recursion (each level wraps the
/// previous one), and small nested definitions whose compiled form is written out in full.
enum DeepFlows {
    typealias Element = FlowElement<StringFlow>

    /// `s0 ⊃ s1 ⊃ … ⊃ s(n-1) ⊃ {x, y}`, and a top-level final state `cancelled`. Every level has an
    /// entry and an exit effect; only three levels declare transitions: `s0` has `cancel` (to
    /// `cancelled`), the middle level `s(n/2)` has `reset` (to itself), and the leaves `x` and `y`
    /// go `next` to each other.
    static func chain(depth n: Int) -> FlowDefinition<StringFlow> {
        var inner: [Element] = [
            StateNode<StringFlow>("x", entry: ["in x"], exit: ["out x"]) { On("next", to: "y") }.element,
            StateNode<StringFlow>("y", entry: ["in y"], exit: ["out y"]) { On("next", to: "x") }.element,
        ]
        for i in stride(from: n - 1, through: 0, by: -1) {
            let children = inner
            inner = [
                StateNode<StringFlow>("s\(i)", entry: ["in s\(i)"], exit: ["out s\(i)"]) {
                    children
                    if i == n / 2 { On("reset", to: "s\(i)") }
                    if i == 0 { On("cancel", to: "cancelled") }
                }.element
            ]
        }
        inner.append(Final<StringFlow>("cancelled", output: "cancelled").element)
        return FlowDefinition("deep", initial: "s0", elements: inner)
    }

    /// `s0 ⊃ s1 ⊃ … ⊃ s(n-1)`, every level declaring a targetless `tick` with one effect, and the
    /// leaf `s(n-1)` a `next` to itself: the leaf inherits all n transitions, each one effect long.
    static func ticking(depth n: Int) -> FlowDefinition<StringFlow> {
        var inner: [Element] = []
        for i in stride(from: n - 1, through: 0, by: -1) {
            let children = inner
            inner = [
                StateNode<StringFlow>("s\(i)") {
                    children
                    On("tick", guard: i == n - 1 ? nil : Guard("level \(i)", condition: { true }), to: nil,
                       effects: ["tick \(i)"])
                    if i == n - 1 { On("next", to: "s\(i)", effects: ["again"]) }
                }.element
            ]
        }
        return FlowDefinition("ticking", initial: "s0", elements: inner)
    }

    static let confirmed = Guard<StringFlow>("confirmed", evaluate: { state, _ in state != "detail" })

    /// An app: inherited transitions at every level, a self transition, one to an ancestor, one into
    /// a compound state with an initial child that is not its first, a decision state, a final state.
    static let app = FlowDefinition<StringFlow>("app", initial: "app") {
        StateNode("app", initial: "main", entry: ["in app"], exit: ["out app"]) {
            StateNode("login", entry: ["in login"], exit: ["out login"]) {
                On("submit", to: "main", effects: ["sign in"])
            }
            StateNode("main", entry: ["in main"], exit: ["out main"]) {
                StateNode("feed", entry: ["in feed"], exit: ["out feed"]) {
                    On("open", to: "detail")
                    On("settings", to: "settings")
                }
                StateNode("detail", entry: ["in detail"], exit: ["out detail"]) {
                    On("back", to: "feed")
                    On("refresh", to: "detail", effects: ["again"])
                }
                StateNode("settings", initial: "privacy", entry: ["in settings"], exit: ["out settings"]) {
                    StateNode("general", entry: ["in general"]) {
                        On("next", to: "privacy")
                    }
                    StateNode("privacy", exit: ["out privacy"]) {
                        On("next", to: "general")
                        On("done", to: "decide", effects: ["save"])
                    }
                    On("close", to: "main")
                }
                StateNode("decide") {
                    Always(guard: Guard("never", condition: { false }), to: "finished")
                    Always(to: "feed", effects: ["decided"])
                }
                On("refresh", to: nil, effects: ["reload"])
            }
            On("logout", to: "login", effects: ["forget"])
            On("quit", guard: confirmed, to: "finished")
            Final("finished", output: "done", entry: ["in finished"])
        }
    }

    /// A chain `a ⊃ b ⊃ c ⊃ d` and a top-level `z` that goes straight into it: transitions to an
    /// ancestor, to the source itself, to a descendant, and out to another top-level state.
    static let domains = FlowDefinition<StringFlow>("domains", initial: "z") {
        StateNode("a", entry: ["in a"], exit: ["out a"]) {
            StateNode("b", entry: ["in b"], exit: ["out b"]) {
                StateNode("c", entry: ["in c"], exit: ["out c"]) {
                    StateNode("d", entry: ["in d"], exit: ["out d"]) {
                        On("up", to: "b")
                    }
                    On("self", to: "c")
                }
                On("down", to: "d")
            }
            On("away", to: "z")
        }
        StateNode("z", entry: ["in z"], exit: ["out z"]) {
            Always(to: "a", effects: ["go"])
        }
    }

    /// Every kind of structural error at once.
    static let broken = FlowDefinition<StringFlow>("broken", initial: "a") {
        On("stray", to: "a")
        StateNode("a", initial: "ghost") {
            StateNode("b") { On("go", to: "nowhere") }
            On("go", to: "b")
            On("go", to: "c")
        }
        StateNode("a")
        Final("c", output: "done") {
            StateNode("inner")
            On("back", to: "a")
        }
        StateNode("lonely")
    }
}

/// A state declaration's structure, for comparing with expected values written out.
private struct Shape: Equatable, CustomStringConvertible {
    var state: String
    var kind: FlowDefinition<StringFlow>.StateDeclaration.Kind
    var parent: String?
    var children: [String]
    var initial: String?
    var entry: [String]
    var exit: [String]

    init(_ state: String, _ kind: FlowDefinition<StringFlow>.StateDeclaration.Kind, parent: String?,
         children: [String] = [], initial: String? = nil, entry: [String] = [], exit: [String] = []) {
        (self.state, self.kind, self.parent, self.children, self.initial, self.entry, self.exit) =
            (state, kind, parent, children, initial, entry, exit)
    }

    init(_ d: FlowDefinition<StringFlow>.StateDeclaration) {
        self.init(d.state, d.kind, parent: d.parent, children: d.children, initial: d.initialChild,
                  entry: d.entryLabels, exit: d.exitLabels)
    }

    var description: String { "\(state) \(kind) in \(parent ?? "-") \(children) initial \(initial ?? "-")" }
}

/// A transition declaration, as `source event [guard] -> target / effects`.
private func line(_ t: FlowDefinition<StringFlow>.TransitionDeclaration) -> String {
    "\(t.source) \(t.eventLabel ?? "ε")\(t.guardLabel.map { " [\($0)]" } ?? "") -> \(t.target ?? "·")"
        + (t.effectLabels.isEmpty ? "" : " / \(t.effectLabels.joined(separator: ", "))")
}

private func ids(_ positions: Int...) -> FlowTransitions {
    FlowTransitions(positions.map { FlowTransitionID(position: $0) })
}

private func fx(_ effects: [String]) -> FlowEffects<String> { FlowEffects(effects) }

@Suite("Deep definitions")
struct DeepDefinitionTests {
    @Test("A deeply nested definition compiles, validates, starts, moves and stops", arguments: [10_000, 100_000])
    func deepChain(depth n: Int) throws {
        let definition = DeepFlows.chain(depth: n)
        #expect(definition.validate().isEmpty)
        #expect(definition.states.count == n + 3)
        #expect(definition.states[n - 1].children == ["x", "y"])
        #expect(definition.states[n].parent == "s\(n - 1)")
        #expect(definition.transitions.map(line) == [
            "x next -> y", "y next -> x", "s\(n / 2) reset -> s\(n / 2)", "s0 cancel -> cancelled",
        ])

        var machine = try FlowMachine(definition)
        let start = try machine.start()
        #expect(start.state == "x")
        #expect(Array(start.effects) == (0..<n).map { "in s\($0)" } + ["in x"])
        #expect(try machine.send("next") == .transitioned(from: "x", to: "y", event: "next",
                                                          effects: fx(["out x", "in y"]), transitions: ids(0)))
        #expect(Array(machine.stop()) == ["out y"] + (0..<n).reversed().map { "out s\($0)" })
    }

    @Test("Transitions inherited from far up a 10,000-deep chain leave and enter every level between")
    func deepChainInherited() throws {
        let n = 10_000
        let definition = DeepFlows.chain(depth: n)
        #expect(definition.outline.states.count == n + 3)
        var machine = try FlowMachine(definition)
        _ = try machine.start()
        #expect(machine.configuration == ["x"] + (0..<n).reversed().map { "s\($0)" })

        // From the leaf, the middle level's self transition leaves and re-enters the lower half.
        let reset = try machine.send("reset")
        let lower = n / 2..<n
        #expect(reset.state == "x")
        #expect(reset.transitions == ids(2))
        #expect(Array(reset.effects) == ["out x"] + lower.reversed().map { "out s\($0)" } + lower.map { "in s\($0)" }
            + ["in x"])

        // The root's transition leaves every level, innermost first.
        let exits = (0..<n).reversed().map { "out s\($0)" }
        #expect(try machine.send("cancel") == .finished(
            from: "x", to: "cancelled", event: "cancel", effects: fx(["out x"] + exits), output: "cancelled",
            transitions: ids(3)))
        #expect(machine.stop().isEmpty)
    }

    @Test("A leaf inheriting a transition from each of 10,000 levels takes the innermost that applies")
    func deepInheritance() throws {
        let n = 10_000
        let definition = DeepFlows.ticking(depth: n)
        #expect(definition.validate().isEmpty)
        #expect(definition.transitions.count == n + 1)
        #expect(line(definition.transitions[0]) == "s\(n - 1) tick -> · / tick \(n - 1)")
        #expect(line(definition.transitions[1]) == "s\(n - 1) next -> s\(n - 1) / again")
        #expect(line(definition.transitions[n]) == "s0 tick [level 0] -> · / tick 0")
        var machine = try FlowMachine(definition)
        #expect(try machine.start() == .started(state: "s\(n - 1)", effects: FlowEffects(), transitions: ids()))
        #expect(try machine.send("tick") == .transitioned(from: "s\(n - 1)", to: "s\(n - 1)", event: "tick",
                                                          effects: fx(["tick \(n - 1)"]), transitions: ids(0)))
        #expect(try machine.send("next") == .transitioned(from: "s\(n - 1)", to: "s\(n - 1)", event: "next",
                                                          effects: fx(["again"]), transitions: ids(1)))
        #expect(machine.stop().isEmpty)
    }

    @Test("Building and dropping a 100,000-deep element tree does not overflow the stack")
    func dropDeepElements() {
        var inner: [FlowElement<StringFlow>] = [StateNode<StringFlow>("leaf").element]
        for i in stride(from: 99_999, through: 0, by: -1) {
            let children = inner
            inner = [StateNode<StringFlow>("s\(i)") { children; On("next", to: "leaf") }.element]
        }
        #expect(inner.count == 1)
        inner = []
        #expect(inner.isEmpty)
    }

    @Test("Elements shared between definitions survive the teardown of one of them")
    func sharedElements() throws {
        var inner: [FlowElement<StringFlow>] = [StateNode<StringFlow>("leaf").element]
        for i in stride(from: 999, through: 0, by: -1) {
            let children = inner
            inner = [StateNode<StringFlow>("s\(i)") { children }.element]
        }
        let shared = inner
        var first: [FlowElement<StringFlow>]? = [StateNode<StringFlow>("first") { shared }.element]
        let second = [StateNode<StringFlow>("second") { shared }.element]
        inner = []
        #expect(FlowDefinition("first", initial: "first", elements: first!).states.count == 1_002)
        first = nil
        let definition = FlowDefinition("second", initial: "second", elements: second)
        #expect(definition.states.count == 1_002)
        #expect(definition.validate().map(\.kind) == [.deadEnd])  // `leaf` has no way out
        #expect(definition.states.last?.state == "leaf")
    }

    @Test("A nested app compiles to the same declarations and steps as it always has")
    func app() throws {
        let definition = DeepFlows.app
        #expect(definition.validate().isEmpty)
        #expect(definition.states.map(Shape.init) == [
            Shape("app", .compound, parent: nil, children: ["login", "main", "finished"], initial: "main",
                  entry: ["in app"], exit: ["out app"]),
            Shape("login", .atomic, parent: "app", entry: ["in login"], exit: ["out login"]),
            Shape("main", .compound, parent: "app", children: ["feed", "detail", "settings", "decide"], initial: "feed",
                  entry: ["in main"], exit: ["out main"]),
            Shape("feed", .atomic, parent: "main", entry: ["in feed"], exit: ["out feed"]),
            Shape("detail", .atomic, parent: "main", entry: ["in detail"], exit: ["out detail"]),
            Shape("settings", .compound, parent: "main", children: ["general", "privacy"], initial: "privacy",
                  entry: ["in settings"], exit: ["out settings"]),
            Shape("general", .atomic, parent: "settings", entry: ["in general"]),
            Shape("privacy", .atomic, parent: "settings", exit: ["out privacy"]),
            Shape("decide", .atomic, parent: "main"),
            Shape("finished", .final, parent: "app", entry: ["in finished"]),
        ])
        #expect(definition.transitions.map(line) == [
            "login submit -> main / sign in",
            "feed open -> detail",
            "feed settings -> settings",
            "detail back -> feed",
            "detail refresh -> detail / again",
            "general next -> privacy",
            "privacy next -> general",
            "privacy done -> decide / save",
            "settings close -> main",
            "decide ε [never] -> finished",
            "decide ε -> feed / decided",
            "main refresh -> · / reload",
            "app logout -> login / forget",
            "app quit [confirmed] -> finished",
        ])

        var m = try FlowMachine(definition)
        #expect(try m.start() == .started(state: "feed", effects: fx(["in app", "in main", "in feed"]),
                                          transitions: ids()))
        #expect(try m.send("open") == .transitioned(from: "feed", to: "detail", event: "open",
                                                    effects: fx(["out feed", "in detail"]), transitions: ids(1)))
        // The leaf's own `refresh` comes before its parent's.
        #expect(try m.send("refresh") == .transitioned(from: "detail", to: "detail", event: "refresh",
                                                       effects: fx(["out detail", "again", "in detail"]),
                                                       transitions: ids(4)))
        #expect(try m.send("quit") == .rejected(state: "detail", event: "quit"))
        #expect(try m.send("back") == .transitioned(from: "detail", to: "feed", event: "back",
                                                    effects: fx(["out detail", "in feed"]), transitions: ids(3)))
        #expect(try m.send("refresh") == .transitioned(from: "feed", to: "feed", event: "refresh",
                                                       effects: fx(["reload"]), transitions: ids(11)))
        #expect(try m.send("settings") == .transitioned(from: "feed", to: "privacy", event: "settings",
                                                        effects: fx(["out feed", "in settings"]), transitions: ids(2)))
        #expect(try m.send("next") == .transitioned(from: "privacy", to: "general", event: "next",
                                                    effects: fx(["out privacy", "in general"]), transitions: ids(6)))
        #expect(try m.send("next") == .transitioned(from: "general", to: "privacy", event: "next",
                                                    effects: fx([]), transitions: ids(5)))
        // To an ancestor: the domain is the ancestor's parent, so the ancestor is left and entered again.
        #expect(try m.send("close") == .transitioned(
            from: "privacy", to: "feed", event: "close",
            effects: fx(["out privacy", "out settings", "out main", "in main", "in feed"]), transitions: ids(8)))
        _ = try m.send("settings")
        #expect(try m.send("done") == .transitioned(
            from: "privacy", to: "feed", event: "done",
            effects: fx(["out privacy", "out settings", "save", "decided", "in feed"]), transitions: ids(7, 10)))
        #expect(try m.send("logout") == .transitioned(
            from: "feed", to: "login", event: "logout",
            effects: fx(["out feed", "out main", "out app", "forget", "in app", "in login"]), transitions: ids(12)))
        #expect(try m.send("submit") == .transitioned(
            from: "login", to: "feed", event: "submit",
            effects: fx(["out login", "sign in", "in main", "in feed"]), transitions: ids(0)))
        #expect(try m.send("nothing") == .ignored(state: "feed", event: "nothing"))
        var resting = try FlowMachine(definition, resumingIn: "privacy")
        #expect(Array(resting.stop()) == ["out privacy", "out settings", "out main", "out app"])
        #expect(try m.send("quit") == .finished(
            from: "feed", to: "finished", event: "quit",
            effects: fx(["out feed", "out main", "out app", "in app", "in finished"]), output: "done",
            transitions: ids(13)))
        #expect(m.stop().isEmpty)
    }

    @Test("Transition domains: to an ancestor, to itself, to a descendant, to another top-level state")
    func domains() throws {
        let definition = DeepFlows.domains
        #expect(definition.validate().isEmpty)
        #expect(definition.states.map(Shape.init) == [
            Shape("a", .compound, parent: nil, children: ["b"], initial: "b", entry: ["in a"], exit: ["out a"]),
            Shape("b", .compound, parent: "a", children: ["c"], initial: "c", entry: ["in b"], exit: ["out b"]),
            Shape("c", .compound, parent: "b", children: ["d"], initial: "d", entry: ["in c"], exit: ["out c"]),
            Shape("d", .atomic, parent: "c", entry: ["in d"], exit: ["out d"]),
            Shape("z", .atomic, parent: nil, entry: ["in z"], exit: ["out z"]),
        ])
        #expect(definition.transitions.map(line) == [
            "d up -> b", "c self -> c", "b down -> d", "a away -> z", "z ε -> a / go",
        ])
        var m = try FlowMachine(definition)
        #expect(try m.start() == .started(
            state: "d", effects: fx(["in z", "out z", "go", "in a", "in b", "in c", "in d"]), transitions: ids(4)))
        #expect(try m.send("up") == .transitioned(
            from: "d", to: "d", event: "up",
            effects: fx(["out d", "out c", "out b", "in b", "in c", "in d"]), transitions: ids(0)))
        #expect(try m.send("self") == .transitioned(
            from: "d", to: "d", event: "self", effects: fx(["out d", "out c", "in c", "in d"]), transitions: ids(1)))
        #expect(try m.send("down") == .transitioned(
            from: "d", to: "d", event: "down",
            effects: fx(["out d", "out c", "out b", "in b", "in c", "in d"]), transitions: ids(2)))
        #expect(try m.send("away") == .transitioned(
            from: "d", to: "d", event: "away",
            effects: fx(["out d", "out c", "out b", "out a", "in z", "out z", "go", "in a", "in b", "in c", "in d"]),
            transitions: ids(3, 4)))
        #expect(Array(m.stop()) == ["out d", "out c", "out b", "out a"])
    }

    @Test("Structural errors are reported in declaration order, errors before warnings")
    func broken() {
        let definition = DeepFlows.broken
        let issues = definition.validate()
        #expect(issues.map(\.kind) == [
            .transitionOutsideState, .duplicateState, .finalStateWithTransitions, .invalidInitialChild,
            .unknownTarget, .finalStateWithTransitions, .shadowedTransition, .unreachableState,
        ])
        #expect(issues.map(\.severity) == Array(repeating: .error, count: 6) + [.warning, .warning])
        #expect(issues[0].message == "transition on 'stray' is declared outside of any state")
        #expect(issues[1].message.hasPrefix("state 'a' is declared twice (first at "))
        #expect(issues[2].message == "final state 'c' contains state 'inner'")
        #expect(issues[3].message == "initial child 'ghost' of state 'a' is not one of its children")
        #expect(issues[4].message
            == "transition from 'b' on 'go' targets 'nowhere', which is not a declared state")
        #expect(issues[5].message == "final state 'c' has an outgoing transition")
        #expect(issues[6].message.hasPrefix("state 'a' has a transition on 'go' that is never taken: the unguarded one at "))
        #expect(issues[7].message == "state 'lonely' is unreachable from the initial state 'a'")
        #expect(definition.states.map(\.state) == ["a", "b", "c", "lonely"])
        #expect(definition.transitions.map(line) == [
            "b go -> nowhere", "a go -> b", "a go -> c", "c back -> a",
        ])
        #expect(!definition.isValid)
    }
}
