import Flowstate
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A flow with data of its own: the email typed on the first screen reaches a later guard, an
/// effect and the output.
enum Checkout: Flow {
    enum State: Hashable, Sendable { case email, confirm, review, done, cancelled, decide }
    enum Event: FlowEvent, Equatable {
        case submitEmail(String), confirm, edit, cancel, retry
        enum Kind: Hashable, Sendable { case submitEmail, confirm, edit, cancel, retry }
        var kind: Kind {
            switch self {
            case .submitEmail: .submitEmail
            case .confirm: .confirm
            case .edit: .edit
            case .cancel: .cancel
            case .retry: .retry
            }
        }
    }
    enum Effect: Hashable, Sendable { case show(String), track(String), hide }
    enum Output: Hashable, Sendable { case ordered(email: String), cancelled }
    struct Context: Hashable, Sendable, Codable {
        var email = ""
        var edits = 0
        var log: [String] = []
    }
}

extension Checkout {
    static let rememberEmail = Update<Checkout>("remember email") { context, event in
        if case .submitEmail(let email) = event { context.email = email }
        context.log.append("remember")
    }
    static let countEdit = Update<Checkout>("count edit") { context, _ in
        context.edits += 1
        context.log.append("edit")
    }
    static let validEmail = Guard<Checkout>("valid email") { event in
        if case .submitEmail(let email) = event { email.contains("@") } else { false }
    }
    static let fewEdits = Guard<Checkout>("fewer than 2 edits") { context, _ in context.edits < 2 }
    static let hasEmail = Guard<Checkout>("has email") { context, _ in !context.email.isEmpty }
    static let showSummary = Emit<Checkout>("show(summary)") { context, _ in .show("summary of \(context.email)") }
    static let trackEvent = Emit<Checkout>("track(event)") { context, event in
        .track("\(event.map { "\($0.kind)" } ?? "none") after \(context.edits) edits")
    }
    static let showEmail = Emit<Checkout>("show(email)") { context, _ in .show("email \(context.email)") }

    static let definition = FlowDefinition<Checkout>("checkout", initial: .email, context: Context()) {
        StateNode(.email, entry: [.show("email")], emitOnEntry: [showEmail]) {
            On(.submitEmail, guard: validEmail, to: .confirm, update: rememberEmail, effects: [.hide], emit: [trackEvent])
        }
        StateNode(.confirm, exit: [.hide], emitOnExit: [trackEvent]) {
            StateNode(.review, entry: [.show("review")], emitOnEntry: [showSummary]) {
                On(.edit, guard: fewEdits, to: .email, update: countEdit)
            }
            On(.confirm, to: .done)
        }
        StateNode(.decide) {
            Always(guard: hasEmail, to: .confirm, update: Update("log decide") { context, _ in context.log.append("decide") })
            Always(to: .email)
        }
        StateNode(.cancelled) {}
        Final(.done, outputLabel: "ordered(email)") { context, _ in .ordered(email: context.email) }
    }
}

@Suite("Flow context: typed data, named updates, derived effects")
struct ContextTests {
    typealias C = Checkout

    @Test("Guards read the context; updates change it before the step's effects are derived; the output reads it")
    func guardsUpdatesEmitsAndOutput() throws {
        var machine = try FlowMachine(C.definition)
        #expect(machine.context == C.Context())
        let start = try machine.start()
        // Entry: the constant effect, then the emit, derived from the initial context (no event).
        #expect(Array(start.effects) == [.show("email"), .show("email ")])

        #expect(try machine.send(.submitEmail("nope")).state == .email)  // the event guard says no
        #expect(machine.context.email == "")

        let submitted = try machine.send(.submitEmail("ada@example.com"))
        #expect(machine.context.email == "ada@example.com")
        #expect(machine.context.log == ["remember"])
        // Transition effects (constant, then emitted), then entries outermost first; every emit reads
        // the context after the update.
        #expect(Array(submitted.effects) == [
            .hide, .track("submitEmail after 0 edits"),
            .show("review"), .show("summary of ada@example.com"),
        ])

        // A context guard: two edits are allowed, the third is rejected.
        for round in 1...2 {
            let edit = try machine.send(.edit)
            #expect(edit.state == .email)
            #expect(Array(edit.effects) == [.hide, .track("edit after \(round) edits"), .show("email"),
                                            .show("email ada@example.com")])
            _ = try machine.send(.submitEmail("ada@example.com"))
        }
        #expect(machine.context.edits == 2)
        guard try machine.send(.edit).kind == .rejected else {
            Issue.record("a third edit should be rejected by the context guard")
            return
        }

        let finished = try machine.send(.confirm)
        #expect(finished == .finished(from: .review, to: .done, event: .confirm,
                                      effects: FlowEffects([.hide, .track("confirm after 2 edits")]),
                                      output: .ordered(email: "ada@example.com"), transitions: finished.transitions))
        #expect(machine.output == .ordered(email: "ada@example.com"))
    }

    @Test("The FlowContext article's example runs as it says")
    func article() throws {
        var machine = try FlowMachine(Checkout.definition)
        _ = try machine.start()
        let step = try machine.send(.submitEmail("ada@example.com"))
        #expect(machine.context.email == "ada@example.com")
        #expect(Array(step.effects) == [.hide, .track("submitEmail after 0 edits"),
                                        .show("review"), .show("summary of ada@example.com")])
        #expect(Checkout.definition.transitions[0].label
            == "submitEmail [valid email] {remember email} / hide, track(event)")
    }

    @Test("Eventless transitions: each guard reads the context as the previous updates left it")
    func eventlessReadContext() throws {
        // Starting in `decide` without an email goes to `email`; with one, to `confirm` (and logs).
        var empty = try FlowMachine(FlowDefinition<C>("d", initial: .decide, context: C.Context()) {
            C.definition.elementsForDecide()
        })
        #expect(try empty.start().state == .email)
        #expect(empty.context.log.isEmpty)

        var filled = try FlowMachine(FlowDefinition<C>("d", initial: .decide, context: C.Context(email: "a@b")) {
            C.definition.elementsForDecide()
        })
        #expect(try filled.start().state == .review)
        #expect(filled.context.log == ["decide"])
    }

    @Test("A machine given its own context starts from it; the definition's stays the default")
    func givenContext() throws {
        var machine = try FlowMachine(C.definition, context: C.Context(email: "x@y", edits: 5, log: []))
        #expect(Array(try machine.start().effects) == [.show("email"), .show("email x@y")])
        #expect(C.definition.initialContext == C.Context())
        var resumed = try FlowMachine(C.definition, resumingIn: .review, context: C.Context(email: "r@s", edits: 2))
        #expect(resumed.context.email == "r@s")
        #expect(try resumed.send(.edit).state == .review)  // rejected: two edits already
    }

    @Test("stop() derives the exit emits from the current context, with no event")
    func stopDerivesExits() throws {
        var machine = try FlowMachine(C.definition)
        _ = try machine.start()
        _ = try machine.send(.submitEmail("a@b"))
        #expect(Array(machine.stop()) == [.hide, .track("none after 0 edits")])
        #expect(Array(machine.stop()).isEmpty)
    }

    @Test("A step that fails with an eventless loop leaves the context as it was")
    func loopLeavesContext() throws {
        enum Loop: Flow {
            typealias State = Int
            typealias Event = String
            typealias Effect = String
            typealias Output = Void
            typealias Context = Int
        }
        let bump = Update<Loop>("bump") { count, _ in count += 1 }
        let definition = FlowDefinition<Loop>("loop", initial: 0, context: 0) {
            StateNode(0) { On("go", to: 1, update: bump) }
            StateNode(1) { Always(to: 2, update: bump) }
            StateNode(2) { Always(to: 1, update: bump) }
        }
        var machine = try FlowMachine(definition)
        _ = try machine.start()
        #expect(throws: FlowError.self) { try machine.send("go") }
        #expect(machine.context == 0)
        #expect(machine.state == 0)
    }

    @Test("A definition shows its updates and emits without running: labels, declarations, outline")
    func inspectable() throws {
        let definition = C.definition
        let submit = try #require(definition.transitions.first { $0.eventLabel == "submitEmail" })
        #expect(submit.updateLabel == "remember email")
        #expect(submit.effectLabels == ["hide", "track(event)"])
        #expect(submit.label == "submitEmail [valid email] {remember email} / hide, track(event)")
        let review = try #require(definition.declaration(of: .review))
        #expect(review.entryLabels == ["show(\"review\")", "show(summary)"])
        #expect(review.emitOnEntry.map(\.name) == ["show(summary)"])
        #expect(definition.declaration(of: .done)?.outputLabel == "ordered(email)")
        let outline = definition.outline
        #expect(outline.transitions.contains { $0.update == "remember email" && $0.label.contains("{remember email}") })
    }

    @Test("Validation refuses unnamed guards, updates and emits, and a shadowed transition names its update")
    func validation() {
        let unnamed = FlowDefinition<C>("unnamed", initial: .email, context: C.Context()) {
            StateNode(.email, emitOnEntry: [Emit("") { _, _ in .hide }]) {
                On(.confirm, guard: Guard("") { _ in true }, to: .done, update: Update("") { _, _ in })
                On(.cancel, to: .done, emit: [Emit("") { _, _ in .hide }])
            }
            Final(.done, output: .cancelled)
        }
        let kinds = unnamed.validate().filter { $0.kind == .unnamed }
        #expect(kinds.count == 4)
        #expect(kinds.allSatisfy { $0.severity == .error })
        #expect(!unnamed.isValid)

        let shadowed = FlowDefinition<C>("shadowed", initial: .email, context: C.Context()) {
            StateNode(.email) {
                On(.confirm, to: .done)
                On(.confirm, to: .done, update: C.rememberEmail)
            }
            Final(.done, output: .cancelled)
        }
        let warning = shadowed.validate().first { $0.kind == .shadowedTransition }
        #expect(warning?.message.contains("its update 'remember email' never runs") == true)
    }

    @Test("FlowRuntime runs a flow with context: the context is readable after each step")
    func runtime() throws {
        var performed: [C.Effect] = []
        let runtime = try FlowRuntime(C.definition, context: C.Context(email: "pre@set")) { effect, _ in
            performed.append(effect)
        }
        try runtime.start()
        #expect(performed == [.show("email"), .show("email pre@set")])
        try runtime.send(.submitEmail("a@b"))
        #expect(runtime.context.email == "a@b")
    }
}

extension FlowDefinition where F == Checkout {
    /// The `decide` state of ``Checkout`` and the states it leads to, for a definition starting there.
    func elementsForDecide() -> [FlowElement<Checkout>] {
        [
            StateNode<Checkout>(.decide) {
                Always(guard: Checkout.hasEmail, to: .confirm,
                       update: Update("log decide") { context, _ in context.log.append("decide") })
                Always(to: .email)
            }.element,
            StateNode<Checkout>(.email) {}.element,
            StateNode<Checkout>(.confirm) {
                StateNode(.review) {
                    On(.edit, guard: Checkout.fewEdits, to: .email, update: Checkout.countEdit)
                }
            }.element,
        ]
    }
}

/// A parent that shares its model with a declared child, and takes the child's answer back.
enum Host: Flow {
    enum State: Hashable, Sendable { case idle, asking, answered }
    enum Event: FlowEvent, Equatable {
        case ask, answer(String)
        enum Kind: Hashable, Sendable { case ask, answer }
        var kind: Kind { if case .answer = self { .answer } else { .ask } }
    }
    typealias Effect = String
    typealias Output = Void
    struct Context: Hashable, Sendable, Codable {
        var user = "ada"
        var answers: [String] = []
    }
}

enum Question: Flow {
    typealias State = String
    typealias Event = String
    typealias Effect = String
    typealias Output = String
    struct Context: Hashable, Sendable, Codable {
        var user = ""
        var typed = ""
    }

    static let type = Update<Question>("type") { context, event in context.typed += event ?? "" }
    static let definition = FlowDefinition<Question>("question", initial: "asking", context: Context()) {
        StateNode("asking", emitOnEntry: [Emit("greet(user)") { context, _ in "hello \(context.user)" }]) {
            On("type", to: nil, update: type, emit: [Emit("echo") { context, _ in "typed \(context.typed)" }])
            On("send", to: "sent")
        }
        Final("sent", outputLabel: "typed") { context, _ in context.typed }
    }
}

extension Host {
    static let definition = FlowDefinition<Host>("host", initial: .idle, context: Context()) {
        StateNode(.idle) { On(.ask, to: .asking) }
        StateNode(.asking, runs: ChildFlow(Question.definition, context: { host in Question.Context(user: host.user) }) {
            .answer($0)
        }) {
            On(.answer, to: .answered, update: Update("keep answer") { context, event in
                if case .answer(let text) = event { context.answers.append(text) }
            })
        }
        StateNode(.answered) { On(.ask, to: .asking) }
    }
}

@Suite("Flow context under a supervisor: given, shared with children, restarted, snapshotted")
struct SupervisorContextTests {
    @Test("A declared child's context comes from its parent's; its output updates the parent's context")
    func sharedWithChild() throws {
        let supervisor = Supervisor()
        var shown: [String] = []
        let host = try supervisor.start(Host.definition, context: Host.Context(user: "grace")) { effect, _ in
            shown.append(effect)
        }
        try supervisor.send(.ask, to: host)
        #expect(shown == ["hello grace"])
        let question = try #require(supervisor.declaredChild(of: host, in: .asking, as: Question.self))
        #expect(supervisor.context(of: question) == Question.Context(user: "grace"))
        try supervisor.send("type", to: question)
        #expect(shown == ["hello grace", "typed type"])
        try supervisor.send("send", to: question)
        #expect(supervisor.state(of: host) == .answered)
        #expect(supervisor.context(of: host)?.answers == ["type"])
        #expect(supervisor.context(of: question) == nil)  // gone
    }

    @Test("A snapshot saves every context as JSON; restoring gives them back")
    func snapshotRoundTrip() throws {
        let supervisor = Supervisor()
        let host = try supervisor.start(Host.definition, context: Host.Context(user: "grace", answers: ["earlier"])) { _, _ in }
        try supervisor.send(.ask, to: host)
        let question = try #require(supervisor.declaredChild(of: host, in: .asking, as: Question.self))
        try supervisor.send("type", to: question)
        let snapshot = try supervisor.snapshot()
        #expect(snapshot.roots[0].context == #"{"answers":["earlier"],"user":"grace"}"#)
        #expect(snapshot.roots[0].children[0].context == #"{"typed":"type","user":"grace"}"#)

        // Through JSON, as an app saves it.
        let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(TreeSnapshot.self, from: data)
        #expect(decoded == snapshot)

        let restored = Supervisor()
        var shown: [String] = []
        let again = try restored.restore(decoded.roots[0], definition: Host.definition) { effect, _ in shown.append(effect) }
        #expect(restored.context(of: again) == Host.Context(user: "grace", answers: ["earlier"]))
        let child = try #require(restored.declaredChild(of: again, in: .asking, as: Question.self))
        #expect(restored.context(of: child) == Question.Context(user: "grace", typed: "type"))
        try restored.send("type", to: child)
        #expect(shown == ["typed typetype"])  // nothing performed on restore; the restored context is used
        #expect(try restored.snapshot() != snapshot)
    }

    @Test("A context that does not decode is a snapshot mismatch; a non-Codable context cannot be snapshotted")
    func snapshotErrors() throws {
        let supervisor = Supervisor()
        _ = try supervisor.start(Host.definition) { _, _ in }
        var snapshot = try supervisor.snapshot().roots[0]
        snapshot.context = #"{"user": 3}"#
        #expect { try Supervisor().restore(snapshot, definition: Host.definition) { _, _ in } } throws: { error in
            (error as? SupervisorError)?.code == .snapshotMismatch
                && "\(error)".contains("does not decode")
        }
        // A snapshot without a context (taken before the flow had one) restores with the initial one.
        snapshot.context = nil
        let restored = Supervisor()
        let handle = try restored.restore(snapshot, definition: Host.definition) { _, _ in }
        #expect(restored.context(of: handle) == Host.Context())

        enum Opaque: Flow {
            typealias State = Int
            typealias Event = String
            typealias Effect = String
            typealias Output = Void
            final class Model: Sendable {}
            typealias Context = Model
        }
        let opaque = FlowDefinition<Opaque>("opaque", initial: 0, context: Opaque.Model()) {
            StateNode(0) { On("x", to: 0) }
        }
        let other = Supervisor()
        _ = try other.start(opaque) { _, _ in }
        #expect { try other.snapshot() } throws: { error in
            (error as? SupervisorError)?.code == .contextNotCodable && "\(error)".contains("opaque")
        }
    }

    @Test("A restart starts again from the context the machine was given, not from where its updates left it")
    func restartFromStartContext() throws {
        enum Counter: Flow {
            typealias State = Int
            typealias Event = String
            typealias Effect = String
            typealias Output = Void
            typealias Context = Int
        }
        let definition = FlowDefinition<Counter>("counter", initial: 0, context: 0) {
            StateNode(0, emitOnEntry: [Emit("count") { count, _ in "count \(count)" }]) {
                On("bump", to: nil, update: Update("bump") { count, _ in count += 1 },
                   emit: [Emit("count") { count, _ in "count \(count)" }])
                On("fail", to: nil, effects: ["boom"])
            }
        }
        let supervisor = Supervisor()
        var shown: [String] = []
        let counter = try supervisor.start(definition, context: 10,
                                           policy: .restart(maxRestarts: 3, within: .seconds(60))) { effect, _ in
            if effect == "boom" { throw CancellationError() }
            shown.append(effect)
        }
        try supervisor.send("bump", to: counter)
        try supervisor.send("bump", to: counter)
        #expect(shown == ["count 10", "count 11", "count 12"])
        try? supervisor.send("fail", to: counter)
        #expect(shown.last == "count 10")  // the replacement started from the given context
        #expect(supervisor.context(of: counter) == nil)  // the handle names the failed incarnation
    }
}
