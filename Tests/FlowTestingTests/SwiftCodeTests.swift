import Flowstate
import FlowstateExamples
import FlowTesting
import Testing

@Suite("Swift code printer")
struct SwiftCodeTests {
    struct Tap: Hashable, Sendable {
        var kind: Int
        var payload: Int?
    }

    indirect enum Gesture: Hashable, Sendable {
        case pair(Int, Int)
        case tap(Tap)
        case list([String])
        case table([String: Int])
        case ratio(Double)
        case flag(Bool)
        case maybe(String?)
        case nested(Gesture?)
    }

    @Test("Enum cases, labels, nested values and literals print as expressions the context types")
    func expressions() {
        #expect(FlowSwiftCode.expression(SignUp.Event.submitEmail("ada@example.com")) == #".submitEmail("ada@example.com")"#)
        #expect(FlowSwiftCode.expression(SignUp.Event.cancel) == ".cancel")
        #expect(FlowSwiftCode.expression(PhotoCreation.Event.picked(photo: "cat.jpg")) == #".picked(photo: "cat.jpg")"#)
        #expect(FlowSwiftCode.expression(FirstLaunch.Effect.signUp(.present(.email))) == ".signUp(.present(.email))")
        #expect(FlowSwiftCode.expression(Gesture.pair(1, -2)) == ".pair(1, -2)")
        #expect(FlowSwiftCode.expression(Gesture.tap(Tap(kind: 3, payload: nil))) == ".tap(.init(kind: 3, payload: nil))")
        #expect(FlowSwiftCode.expression(Gesture.tap(Tap(kind: 3, payload: 4))) == ".tap(.init(kind: 3, payload: 4))")
        #expect(FlowSwiftCode.expression(Gesture.list(["a", "b"])) == #".list(["a", "b"])"#)
        #expect(FlowSwiftCode.expression(Gesture.table([:])) == ".table([:])")
        #expect(FlowSwiftCode.expression(Gesture.table(["k": 1])) == #".table(["k": 1])"#)
        #expect(FlowSwiftCode.expression(Gesture.ratio(0.5)) == ".ratio(0.5)")
        #expect(FlowSwiftCode.expression(Gesture.flag(true)) == ".flag(true)")
        #expect(FlowSwiftCode.expression(Gesture.maybe(nil)) == ".maybe(nil)")
        #expect(FlowSwiftCode.expression(Gesture.nested(.nested(.pair(0, 0)))) == ".nested(.nested(.pair(0, 0)))")
        #expect(FlowSwiftCode.expression("line\n\"quoted\"") == #""line\n\"quoted\"""#)
    }

    @Test("Printed events compile: the expressions above, pasted")
    func pasted() {
        let events: [Gesture] = [
            .pair(1, -2), .tap(.init(kind: 3, payload: nil)), .list(["a", "b"]), .table([:]), .table(["k": 1]),
            .ratio(0.5), .flag(true), .maybe(nil), .nested(.nested(.pair(0, 0))),
        ]
        #expect(events.map(FlowSwiftCode.expression) == [
            ".pair(1, -2)", ".tap(.init(kind: 3, payload: nil))", #".list(["a", "b"])"#, ".table([:])",
            #".table(["k": 1])"#, ".ratio(0.5)", ".flag(true)", ".maybe(nil)", ".nested(.nested(.pair(0, 0)))",
        ])
    }

    @Test("A deep value prints without exhausting the stack")
    func deep() {
        var value: Gesture = .flag(false)
        for _ in 0..<2_000 { value = .nested(value) }
        let code = FlowSwiftCode.expression(value)
        #expect(code.hasPrefix(".nested(.nested(") && code.hasSuffix(".flag(false)" + String(repeating: ")", count: 2_000)))
    }

    @Test("Replay statements, with a custom event printer")
    func replay() {
        let code = FlowSwiftCode.replay([SignUp.Event.back, .cancel], definition: "flow", throwing: [0]) { "." + $0.description }
        #expect(code == """
            var machine = try FlowMachine(flow)
            _ = try machine.start()
            _ = try? machine.send(.back)  // throws: unhandled event
            _ = try machine.send(.cancel)
            """)
    }
}
