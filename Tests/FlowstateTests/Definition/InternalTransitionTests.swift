@testable import Flowstate
import Testing

/// A sign-up sheet: a compound state presented on entry and dismissed on exit, whose steps move
/// inside it (the DocC article's example).
enum Sheet: Flow {
    enum State: Hashable, Sendable { case home, sheet, name, email, review, done }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case open, next, startOver, cancel, confirm }
    enum Effect: Hashable, Sendable { case present, dismiss, show(State) }
    typealias Output = Void
}

/// Parallel and history flows for the SCXML engine's paths.
enum Panes: Flow {
    enum State: Hashable, Sendable { case root, panes, left, list, detail, right, closed, open, away, last }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case select, reset, toggle, leave, back, bounce }
    typealias Effect = String
    typealias Output = Void
}

@Suite("Internal transitions")
struct InternalTransitionTests {
    @Test("The article's example: starting over inside a sheet does not dismiss it; declared external, it does")
    func articleExample() throws {
        let onboarding = FlowDefinition<Sheet>("onboarding", initial: .home) {
            StateNode(.home) { On(.open, to: .sheet) }
            StateNode(.sheet, initial: .name, entry: [.present], exit: [.dismiss]) {
                StateNode(.name, entry: [.show(.name)]) { On(.next, to: .email) }
                StateNode(.email, entry: [.show(.email)]) { On(.next, to: .review) }
                StateNode(.review, entry: [.show(.review)]) { On(.confirm, to: .done) }
                // From any step: back to the first one, and the sheet stays up.
                On(.startOver, to: .name, type: .internal)
                On(.cancel, to: .home)
            }
            Final(.done)
        }
        #expect(onboarding.validate().isEmpty, "\(onboarding.validate())")
        var machine = try FlowMachine(onboarding)
        _ = try machine.start()                        // home
        _ = try machine.send(.open)                    // present, name
        _ = try machine.send(.next)                    // email
        let again = try machine.send(.startOver)
        #expect(again.state == .name)
        #expect(Array(again.effects) == [.show(.name)])

        // The same transition, external: the sheet is dismissed and presented again.
        let external = FlowDefinition<Sheet>("external", initial: .sheet) {
            StateNode(.sheet, initial: .name, entry: [.present], exit: [.dismiss]) {
                StateNode(.name) { On(.next, to: .email) }
                StateNode(.email)
                On(.startOver, to: .name)
            }
        }
        var other = try FlowMachine(external)
        _ = try other.start()
        _ = try other.send(.next)
        let restart = try other.send(.startOver)
        #expect(Array(restart.effects) == [.dismiss, .present])
    }

    @Test("The declaration says its type: inspectable transitions and the outline (FlowSpecTests' InternalTransitionFileTests check the drawing)")
    func inspectable() throws {
        let flow = FlowDefinition<Sheet>("sheet", initial: .sheet) {
            StateNode(.sheet, initial: .name) {
                StateNode(.name) { On(.next, to: .email) }
                StateNode(.email)
                On(.startOver, to: .name, type: .internal)
            }
        }
        #expect(flow.transitions.map(\.type) == [.external, .internal])
        #expect(flow.outline.transitions.map(\.type) == [.external, .internal])
        #expect(TransitionType.allCases == [.external, .internal] && TransitionType.internal.rawValue == "internal")
    }

    @Test("Validation warns, with the declaration's place, where internal changes nothing; never where it keeps its source")
    func ineffectiveInternal() throws {
        let line = #line + 5
        let flow = FlowDefinition<Panes>("panes", initial: .root) {
            StateNode(.root, initial: .panes) {
                Parallel(.panes) {
                    StateNode(.left, initial: .list) {
                        StateNode(.list) { On(.select, to: .list, type: .internal) }  // atomic source
                        StateNode(.detail)
                        On(.select, guard: Guard("never", condition: { false }), to: .detail, type: .internal)  // kept
                        On(.reset, to: .left, type: .internal)  // itself
                        On(.bounce, to: .closed, type: .internal)  // outside
                        On(.leave, to: nil, type: .internal)  // targetless
                    }
                    StateNode(.right, initial: .closed) {
                        StateNode(.closed) { On(.toggle, to: .open) }
                        StateNode(.open) { On(.toggle, to: .closed) }
                    }
                    On(.back, to: .list, type: .internal)  // parallel source
                }
            }
        }
        let issues = flow.validate().filter { $0.kind == .ineffectiveInternal }
        #expect(issues.allSatisfy { $0.severity == .warning })
        #expect(issues.map { $0.location?.line } == [line, line + 3, line + 4, line + 5, line + 11], "\(issues)")
        #expect(issues.map { flow[$0.transition!].type } == Array(repeating: .internal, count: 5))
        #expect(issues[0].message.contains("'list' is atomic"), "\(issues[0].message)")
        #expect(issues[1].message.contains("targets 'left' itself"), "\(issues[1].message)")
        #expect(issues[2].message.contains("'closed' is not inside 'left'"), "\(issues[2].message)")
        #expect(issues[3].message.contains("no target"), "\(issues[3].message)")
        #expect(issues[4].message.contains("'panes' is parallel"), "\(issues[4].message)")
        #expect(ValidationIssue.Kind.ineffectiveInternal.description == "ineffective-internal")
        #expect(flow.isValid)
    }

    @Test("A flat flow decides the domain when it compiles: the same precompiled moves, no SCXML table")
    func flatFlowsPayNothing() throws {
        let flow = FlowDefinition<Sheet>("sheet", initial: .sheet) {
            StateNode(.sheet, initial: .name, entry: [.present], exit: [.dismiss]) {
                StateNode(.name, entry: [.show(.name)]) { On(.next, to: .email) }
                StateNode(.email, entry: [.show(.email)], exit: [.show(.home)])
                On(.startOver, to: .name, type: .internal)
                Always(guard: Guard("never", condition: { false }), to: .email, type: .internal)
            }
        }
        #expect(flow.table.parallel == nil && !flow.hierarchy.hasParallel && !flow.hierarchy.hasHistory)
        var machine = try FlowMachine(flow)
        _ = try machine.start()
        _ = try machine.send(.next)
        let step = try machine.send(.startOver)
        #expect(Array(step.effects) == [.show(.home), .show(.name)])
        #expect(machine.configuration == [.name, .sheet])
    }

    /// A parallel state whose left region moves inside itself: `reset` is declared on the region.
    static let panes = FlowDefinition<Panes>("panes", initial: .panes) {
        Parallel(.panes, entry: ["enter panes"], exit: ["exit panes"]) {
            StateNode(.left, initial: .list, entry: ["enter left"], exit: ["exit left"]) {
                StateNode(.list, entry: ["enter list"], exit: ["exit list"]) { On(.select, to: .detail) }
                StateNode(.detail, entry: ["enter detail"], exit: ["exit detail"])
                On(.reset, to: .list, type: .internal, effects: ["reset"])
            }
            StateNode(.right, initial: .closed, entry: ["enter right"], exit: ["exit right"]) {
                StateNode(.closed, entry: ["enter closed"], exit: ["exit closed"]) { On(.toggle, to: .open) }
                StateNode(.open, entry: ["enter open"], exit: ["exit open"]) { On(.toggle, to: .closed) }
            }
        }
    }

    @Test("In a region, an internal transition stays local: the common step takes it, and SCXML's algorithm agrees")
    func parallelCommonStep() throws {
        var machine = try FlowMachine(Self.panes)
        _ = try machine.start()
        #expect(machine.table.takesCommonParallelSteps)
        _ = try machine.send(.select)
        _ = try machine.send(.toggle)
        let taken = machine.sendParallelCommon(.reset)
        let common = try #require(taken)
        #expect(Array(common.effects) == ["exit detail", "reset", "enter list"])
        #expect(machine.configuration == [.open, .right, .list, .left, .panes])

        // The same step through SCXML's algorithm (the microstep-reporting driver never takes the
        // common step).
        var general = try FlowMachine(Self.panes)
        _ = try general.startReportingMicrosteps()
        _ = try general.sendReportingMicrosteps(.select)
        let (step, microsteps) = try general.sendReportingMicrosteps(.reset)
        #expect(Array(step.effects) == ["exit detail", "reset", "enter list"])
        let left = try #require(Self.panes.position(of: .left))
        #expect(!microsteps.flatMap(\.actions).contains(.exit(left)) && !microsteps.flatMap(\.actions).contains(.enter(left)))
    }

    @Test("With history states: an internal transition to a history inside its source keeps the source (SCXML's engine)")
    func history() throws {
        let flow = FlowDefinition<Panes>("history", initial: .left) {
            StateNode(.left, initial: .list, entry: ["enter left"], exit: ["exit left"]) {
                History(.last, .shallow, default: .list)
                StateNode(.list, exit: ["exit list"]) { On(.select, to: .detail) }
                StateNode(.detail, entry: ["enter detail"], exit: ["exit detail"]) {
                    StateNode(.closed, entry: ["enter closed"]) { On(.toggle, to: .open) }
                    StateNode(.open) { On(.leave, to: .away) }
                }
                On(.back, to: .last, type: .internal, effects: ["back"])
                On(.leave, to: .away)
            }
            StateNode(.away, entry: ["enter away"]) { On(.back, to: .last) }
        }
        #expect(flow.validate().isEmpty, "\(flow.validate())")
        var machine = try FlowMachine(flow)
        _ = try machine.start()
        _ = try machine.send(.select)                   // detail, closed
        _ = try machine.send(.leave)                    // away; the history remembers detail
        _ = try machine.send(.back)                     // left, detail (its initial child)
        let step = try machine.send(.back)              // internal, to the history: left stays
        #expect(Array(step.effects) == ["exit detail", "back", "enter detail", "enter closed"])
        #expect(machine.configuration == [.closed, .detail, .left])
    }
}
