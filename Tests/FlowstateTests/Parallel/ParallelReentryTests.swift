@testable import Flowstate
import Testing

/// Two tabs as the regions of one parallel state: which tab is selected, and the stack shown.
enum TwoTabs: Flow {
    enum State: Hashable, Sendable { case main, selection, onA, onB, stack, root, detail, settings }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case selectA, selectB, open, reset, settings }
    enum Effect: Hashable, Sendable { case showTabs }
    typealias Output = Void
}

/// Issue 37, item 1: a transition declared on a region to its own child exits and re-enters the whole
/// parallel state (SCXML's domain skips parallel states). The semantics stay; validation says so.
@Suite("A transition that re-enters its parallel state")
struct ParallelReentryTests {
    /// The issue's flow: `selectB` declared on the `selection` region, external (the default).
    static func tabs(selectB type: TransitionType = .external) -> FlowDefinition<TwoTabs> {
        FlowDefinition<TwoTabs>("tabs", initial: .main) {
            Parallel(.main, entry: [.showTabs]) {
                StateNode(.selection, initial: .onA) {
                    StateNode(.onA)
                    StateNode(.onB)
                    On(.selectB, to: .onB, type: type)
                }
                StateNode(.stack, initial: .root) {
                    StateNode(.root) { On(.open, to: .detail) }
                    StateNode(.detail)
                }
            }
        }
    }

    /// The flow as docs/SEMANTICS.md and the *Parallel states* article show it (the same as `tabs()`).
    static func documented() -> FlowDefinition<TwoTabs> {
        FlowDefinition<TwoTabs>("tabs", initial: .main) {
            Parallel(.main, entry: [.showTabs]) {
              StateNode(.selection, initial: .onA) { StateNode(.onA); StateNode(.onB); On(.selectB, to: .onB) }
              StateNode(.stack, initial: .root) { StateNode(.root) { On(.open, to: .detail) }; StateNode(.detail) }
            }
            // after open, selectB: rests in [onB, root] (the other tab's stack is lost), effects [showTabs] again
        }
    }

    @Test("The semantics are SCXML's: the other region's stack is lost and the parallel state's entry runs again")
    func semanticsKept() throws {
        var machine = try FlowMachine(Self.documented())
        _ = try machine.start()
        _ = try machine.send(.open)
        let step = try machine.send(.selectB)
        #expect(machine.isActive(.onB) && machine.isActive(.root) && !machine.isActive(.detail))
        #expect(Array(step.effects) == [.showTabs])

        // Internal, the transition moves its region alone.
        var kept = try FlowMachine(Self.tabs(selectB: .internal))
        _ = try kept.start()
        _ = try kept.send(.open)
        let internalStep = try kept.send(.selectB)
        #expect(kept.isActive(.onB) && kept.isActive(.detail))
        #expect(Array(internalStep.effects).isEmpty)
    }

    @Test("Validation warns of the external transition, names it, the parallel state and the way out")
    func warns() throws {
        let flow = Self.tabs()
        let issues = flow.validate().filter { $0.kind == .reentersParallelState }
        #expect(issues.count == 1, "\(flow.validate())")
        let issue = try #require(issues.first)
        #expect(issue.severity == .warning)
        #expect(flow[try #require(issue.transition)].event == .selectB)
        #expect(issue.location != nil)
        #expect(issue.message.contains("'selection'") && issue.message.contains("'selectB'"), "\(issue.message)")
        #expect(issue.message.contains("parallel state 'main'"), "\(issue.message)")
        #expect(issue.message.contains("type: .internal"), "\(issue.message)")
        #expect(ValidationIssue.Kind.reentersParallelState.description == "reenters-parallel-state")
        #expect(flow.isValid, "a warning: the flow still runs")
        // Declared internal, nothing to warn of.
        #expect(Self.tabs(selectB: .internal).validate().isEmpty, "\(Self.tabs(selectB: .internal).validate())")
    }

    @Test("From one region into another, from the parallel state itself, eventless and from deeper states: each warns; a reset to the parallel state itself and a transition that leaves it do not")
    func cases() throws {
        let line = #line + 6
        let flow = FlowDefinition<TwoTabs>("tabs", initial: .main) {
            Parallel(.main, entry: [.showTabs]) {
                StateNode(.selection, initial: .onA) {
                    StateNode(.onA)
                    StateNode(.onB) { On(.selectA, to: .onA) }      // leaf to a sibling: domain is the region, fine
                    On(.reset, to: .main)                           // to the parallel state itself: a reset, meant
                }
                StateNode(.stack, initial: .root) {
                    StateNode(.root) { On(.selectB, to: .onB) }     // into the other region: re-enters main
                    StateNode(.detail) { On(.settings, to: .settings) }  // leaves main: fine
                    On(.open, to: .detail)                          // region to its child: re-enters main
                }
                On(.selectA, to: .onA)                              // the parallel state to a descendant
                On(.reset, to: [.onA, .root])                       // a state in each region: a reset, meant
            }
            StateNode(.settings) { On(.selectA, to: .main) }
        }
        let issues = flow.validate().filter { $0.kind == .reentersParallelState }
        #expect(issues.map { $0.location?.line } == [line + 3, line + 5, line + 7], "\(issues)")
        #expect(issues[0].message.contains("region 'selection'"), "\(issues[0].message)")
        #expect(issues[0].message.contains("('stack' at its initial state)"), "\(issues[0].message)")
        #expect(issues[1].message.contains("type: .internal"), "\(issues[1].message)")
        #expect(issues[2].message.contains("region 'selection'"), "\(issues[2].message)")
    }

    @Test("Nested parallel states: the outermost one the transition exits is named, and only one it exits")
    func nested() throws {
        enum Nested: Flow {
            enum State: Hashable, Sendable { case outer, left, inner, a, a1, a2, b, right }
            enum Event: FlowEvent, Hashable { typealias Kind = Self; case go }
            typealias Effect = String
            typealias Output = Void
        }
        // `inner` is a region of `outer`: from region `a`, the domain skips both.
        let direct = FlowDefinition<Nested>("direct", initial: .outer) {
            Parallel(.outer) {
                Parallel(.inner) {
                    StateNode(.a, initial: .a1) {
                        StateNode(.a1) { On(.go, to: .a2) }  // a sibling: fine
                        StateNode(.a2)
                        Always(to: .a2)  // a region to its own child, eventless: re-enters outer
                    }
                    StateNode(.b)
                }
                StateNode(.right)
            }
        }
        let issues = direct.validate().filter { $0.kind == .reentersParallelState }
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.message.contains("parallel state 'outer'") == true, "\(issues)")
        #expect(issues.first?.message.contains("(eventless)") == true, "\(issues)")

        // `inner` inside the compound region `left`: the domain is `left`, so only `inner` is re-entered.
        let wrapped = FlowDefinition<Nested>("wrapped", initial: .outer) {
            Parallel(.outer) {
                StateNode(.left, initial: .inner) {
                    Parallel(.inner) {
                        StateNode(.a, initial: .a1) {
                            StateNode(.a1)
                            StateNode(.a2)
                            On(.go, to: .a2)
                        }
                        StateNode(.b)
                    }
                }
                StateNode(.right)
            }
        }
        let inner = wrapped.validate().filter { $0.kind == .reentersParallelState }
        #expect(inner.count == 1 && inner.first?.message.contains("parallel state 'inner'") == true, "\(inner)")
    }

    @Test("From another region: the advice is to declare the transition on the target's region, guarded by In(source)")
    func fromAnotherRegion() {
        let definition = FlowDefinition<TwoTabs>("tabs", initial: .main) {
            Parallel(.main) {
                StateNode(.selection, initial: .onA) {
                    StateNode(.onA) { On(.settings, to: .settings) }  // a state of the other region
                    StateNode(.onB)
                }
                StateNode(.stack, initial: .root) {
                    StateNode(.root)
                    StateNode(.settings)
                }
            }
        }
        let issues = definition.validate().filter { $0.kind == .reentersParallelState }
        #expect(issues.count == 1)
        #expect(issues.first?.message.hasSuffix(
            "to move region 'stack' alone, declare the transition on that region, internal (`type: .internal`), guarded by `.in(onA)` to keep its condition") == true,
            "\(issues)")
    }
}
