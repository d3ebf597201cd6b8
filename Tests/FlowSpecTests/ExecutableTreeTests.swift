@testable import FlowSpec
import FlowSpecTestSupport
import Flowstate
import PropertyBased
import Testing

/// Executable content is a tree (`FlowFile.Executable`): read, written and compared without
/// recursion, lowered to jumps only inside the interpreter.
@Suite("Executable content as a tree")
struct ExecutableTreeTests {
    /// `depth` nested `<if>`s, the innermost raising `deep`, each level's `<else>` raising `shallow`.
    static func nested(_ depth: Int) -> FlowFile.Executable {
        var inner: [FlowFile.Action] = [.raise(event: "deep")]
        for _ in 0..<depth { inner = [.if([.init("true", inner)], otherwise: [.raise(event: "shallow")])] }
        return FlowFile.Executable(inner)
    }

    /// A flow whose state `a` runs `block` on entry, and leaves for `done` on `deep`.
    static func spec(_ block: FlowFile.Executable) -> FlowFile {
        var a = FlowFile.State(name: "a")
        a.onEntry = [block]
        a.transitions = [FlowFile.Transition(event: "deep", target: "done")]
        var done = FlowFile.State(name: "done")
        done.isFinal = true
        var spec = FlowFile(name: "nested", initial: "a", states: [a, done])
        spec.semantics = .scxml
        return spec
    }

    @Test("An <if> nested as deep as the XML reader allows is read, run and written back")
    func deepAsTheReaderAllows() throws {
        // <scxml>, <state> and <onentry> take three levels, the <raise> one.
        let depth = XMLParser.maxDepth - 4
        let text = "<scxml initial=\"a\"><state id=\"a\"><onentry>"
            + String(repeating: "<if cond=\"true\">", count: depth) + "<raise event=\"deep\"/>"
            + String(repeating: "</if>", count: depth)
            + "</onentry><transition event=\"deep\" target=\"done\"/></state><final id=\"done\"/></scxml>"
        let (spec, written) = try expectRoundTrip(Array(text.utf8), file: "deep.scxml")
        #expect(spec.states[0].onEntry[0].description == Self.nested(depth).description.replacingElses())
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        #expect(simulation.configuration == ["done"])
        #expect(written.contains(String(repeating: "  ", count: depth + 3) + "<raise event=\"deep\"/>"))
        // One level more is refused with its place, never a crash.
        let deeper = text.replacingOccurrences("<onentry>", with: "<onentry><if cond=\"true\">")
            .replacingOccurrences("</onentry>", with: "</if></onentry>")
        #expect(throws: FlowSpecError.self) { try FlowFile.parseSCXML(deeper, file: "deeper.scxml") }
    }

    @Test("A tree built in code 10,000 levels deep is compared, lowered, written and run without recursion")
    func tenThousandLevels() throws {
        let depth = 10_000
        let block = Self.nested(depth)
        let copy = Self.nested(depth)
        #expect(block == copy)
        #expect(block.hashValue == copy.hashValue)
        #expect(block != Self.nested(depth - 1))
        let code = SpecInstruction.lower(block)
        // branch, jump per level (each has an <else>), and the raises.
        #expect(code.count == 2 * depth + depth + 1)
        let lines = SCXMLWriter.lines(of: block.actions, indent: "")
        #expect(lines.count == 4 * depth + 1)
        let simulation = try FlowSimulation(Self.spec(block))
        try simulation.start()
        #expect(simulation.configuration == ["done"])
        // What it writes nests deeper than the reader reads: refused, never a crash.
        #expect(throws: FlowSpecError.self) { try FlowFile.parseSCXML(Self.spec(block).scxml(), file: "deep.scxml") }
    }

    @Test("The lowering: <if c1>A<elseif c2>B<else>C</if> is branch, jump, branch, jump, and the rest")
    func lowering() {
        let block = FlowFile.Executable([
            .if([.init("c1", [.raise(event: "a")]), .init("c2", [.raise(event: "b")])], otherwise: [.raise(event: "c")]),
            .if([.init("d", [])]),
            .log(label: "l", expr: nil),
            .unsupported(element: "<assign>"),
        ])
        #expect(SpecInstruction.lower(block) == [
            .branch(condition: "c1", otherwise: 3), .raise("a"), .jump(to: 7),
            .branch(condition: "c2", otherwise: 6), .raise("b"), .jump(to: 7),
            .raise("c"),
            .branch(condition: "d", otherwise: 8),
            .unsupported,
        ])
    }

    @Test("Actions equal when they do the same: the element as written is not compared")
    func equality() throws {
        let spec = try FlowFile.parseSCXML("""
        <scxml initial="a"><state id="a"><onentry><raise event="r" extra="1"/><log label="x"/></onentry></state></scxml>
        """, file: "t.scxml")
        #expect(spec.states[0].onEntry == [FlowFile.Executable([.raise(event: "r"), .log(label: "x", expr: nil)])])
        #expect(FlowFile.Action.raise(event: "r") != .raise(event: "s"))
        #expect(FlowFile.Action.if([.init("c", [])]) != .if([.init("c", [])], otherwise: []))
        // Two branches are not an <if> nested in an <else>.
        #expect(FlowFile.Action.if([.init("c", []), .init("d", [])])
            != .if([.init("c", [])], otherwise: [.if([.init("d", [])])]))
    }

    /// A random tree of actions that a document can hold (an `<if>` has a branch, as read), from genes.
    static func tree(_ genes: [Int]) -> FlowFile.Executable {
        var g = genes.makeIterator()
        func next() -> Int { g.next() ?? 0 }
        let unsupported = ["<assign>", "<send eventexpr>", "<param> in <send>", "<send> without 'event'",
                           "<cancel> without 'sendid'", "<foreach>", "<script>"]
        // Built with a stack of open levels (the innermost last): no recursion.
        var levels: [[FlowFile.Action]] = [[]]
        var shapes: [(branches: [FlowFile.Action.Branch], otherwise: [FlowFile.Action]?, condition: String?)] = []
        var remaining = 40
        while remaining > 0 {
            remaining -= 1
            switch next() % 10 {
            case 0 where shapes.count < 6:
                shapes.append(([], nil, "c\(next() % 4)"))
                levels.append([])
            case 1 where !shapes.isEmpty:
                // The open branch ends: an <elseif>, an <else>, or the end of the <if>.
                let actions = levels.removeLast()
                var shape = shapes.removeLast()
                if let condition = shape.condition {
                    shape.branches.append(.init(condition, actions))
                } else {
                    shape.otherwise = actions
                }
                let choice = next() % 3
                if choice == 0, shape.otherwise == nil {
                    shape.condition = "In('s\(next() % 2)')"
                    shapes.append(shape)
                    levels.append([])
                } else if choice == 1, shape.otherwise == nil {
                    shape.condition = nil
                    shapes.append(shape)
                    levels.append([])
                } else {
                    levels[levels.count - 1].append(.if(shape.branches, otherwise: shape.otherwise))
                }
            case 2: levels[levels.count - 1].append(.raise(event: "r\(next() % 3)"))
            case 3:
                let send = FlowFile.Send(event: "s\(next() % 2)", target: next() % 2 == 0 ? nil : "#_internal",
                                         id: next() % 2 == 0 ? nil : "i", delay: next() % 3 * 500)
                levels[levels.count - 1].append(.send(send))
            case 4: levels[levels.count - 1].append(.cancel(sendID: "i\(next() % 2)"))
            case 5: levels[levels.count - 1].append(.log(label: next() % 2 == 0 ? nil : "l", expr: next() % 2 == 0 ? nil : "e"))
            case 6: levels[levels.count - 1].append(.unsupported(element: unsupported[next() % unsupported.count]))
            default: break
            }
        }
        while var shape = shapes.popLast() {
            let actions = levels.removeLast()
            if let condition = shape.condition { shape.branches.append(.init(condition, actions)) } else { shape.otherwise = actions }
            levels[levels.count - 1].append(.if(shape.branches, otherwise: shape.otherwise))
        }
        return FlowFile.Executable(levels[0])
    }

    @Test("Any tree written to SCXML reads back to the same tree, and runs as its lowering says")
    func writtenTreesReadBack() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...999).array(of: 1...120)) { genes in
            let block = Self.tree(genes)
            var spec = Self.spec(block)
            spec.states[0].transitions[0].content = block
            let written = spec.scxml()
            let back = try FlowFile.parseSCXML(written, file: "t.scxml")
            #expect(back.states[0].onEntry[0].description == block.description, "\(written)")
            #expect(back.states[0].transitions[0].content.map(\.description) == block.description, "\(written)")
            #expect(SpecInstruction.lower(back.states[0].onEntry[0]).map(\.placeless) == SpecInstruction.lower(block))
            #expect(back.scxml() == written, "writing is stable")
        }
    }
}

extension SpecInstruction {
    /// The instruction without the place its `<send>` was read from.
    var placeless: SpecInstruction {
        guard case .send(var send) = self else { return self }
        send.location = nil
        return .send(send)
    }
}

extension String {
    /// The `description` of ``ExecutableTreeTests/nested(_:)`` without its `<else>` parts (a document
    /// nested to the reader's bound has none).
    func replacingElses() -> String {
        replacingOccurrences("; else; raise(event: \"shallow\")", with: "")
    }

    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
