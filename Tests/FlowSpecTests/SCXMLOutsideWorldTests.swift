import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import Flowstate
import Foundation
import PropertyBased
import Testing

/// `make fuzz`'s finding `scxml-roundtrip-1` (FuzzSCXML, issue 26; also the seed
/// `Fuzz/Corpus/scxml/regression-roundtrip-1.scxml`), as its bytes: not UTF-8 throughout, so in base64.
let fuzzRoundTrip1 = Array(Data(base64Encoded: """
PHNjeG1sIGluaXRpYWw9ImEiPjxwYXJhbGxlbCBpZD0icCI+Pj4+Pj4+Pv/s8zszewAAPj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+Pj4+\
Pj4+Pj4+Pj4+Pj48c3RhdGUgaWQ9IngiLz48L3BhcmFsbGVsPjxzdGF0ZSBpZD0iYSI+PGludm9rZSBzcmM9ImMiIGlkPSJpIi8+PG9uZW50cnk+PHNl\
bmQgZXZlbnQ9ImUiIGRlbGE6PSIycyIvPjxhc3NpZ24gbG9jYXRpb/7/Lf//////cHI9IjEiLz48L29uZW50cnk+PHRyYW5zaXRpb24gZXZlbnQ9ImUu\
KiBmIiBjb25kPSJJbigmYXBvczthJmFwb3M7KSI+PHJhaXNlIGV2ZW50PSJnIi8+PC90cmFuc2l0aW9uPjwvc3RhdGU+PGZpbmFsIGlkPSJ6Ij48ZG9u\
ZWRhdGE+PGN0bnRlbnQgZXhwcj0ib3V0Ii8+PC9kb25lZGF0YT48L2ZpbmFsPjwvc2N4bWw+
""", options: .ignoreUnknownCharacters) ?? Data())

@Suite("SCXML from the outside world: every valid document reads, and writes back to the same spec")
struct SCXMLOutsideWorldTests {
    // MARK: The fuzz finding

    @Test("Fuzz finding scxml-roundtrip-1: a name without a local part ('dela:') is refused where it is written")
    func fuzzFinding() throws {
        #expect(fuzzRoundTrip1.count == 402)
        // It used to read, with an attribute named "" that the writer could not write back: the
        // <send>, then the whole <onentry>, came back as <script/> and <assign/>.
        let error = #expect(throws: FlowSpecError.self) {
            try FlowFile.parseSCXML(fuzzRoundTrip1, file: "scxml-roundtrip-1.scxml")
        }
        #expect(error?.code == .malformedXML)
        #expect(error?.description.hasPrefix("scxml-roundtrip-1.scxml:1:188: error: 'dela:' is not a valid name") == true,
                "\(String(describing: error))")
        // Names must be UTF-8, as attribute values must.
        var bytes = fuzzRoundTrip1
        let dela = try #require(bytes.firstRange(of: Array(" dela:=".utf8)))
        bytes.replaceSubrange(dela, with: Array(" delay=".utf8))
        let second = #expect(throws: FlowSpecError.self) { try FlowFile.parseSCXML(bytes, file: "f.scxml") }
        #expect(second?.description.contains("an attribute name is not valid UTF-8") == true, "\(String(describing: second))")
    }

    @Test("Fuzz finding scxml-roundtrip-1, well-formed: it reads, the foreign attribute left out, and round-trips")
    func fuzzFindingRepaired() throws {
        var text = String(decoding: fuzzRoundTrip1, as: UTF8.self)
        text = text.replacingOccurrences(of: "<scxml ", with: "<scxml xmlns:dela=\"urn:x\" ")
            .replacingOccurrences(of: " dela:=", with: " dela:delay=")
        let broken = try #require(text.range(of: "locatio"))
        let end = try #require(text.range(of: "pr=\"1\"", range: broken.upperBound..<text.endIndex))
        text.replaceSubrange(broken.lowerBound..<end.upperBound, with: "location=\"x\" expr=\"1\"")
        let (spec, written) = try expectRoundTrip(Array(text.utf8), file: "repaired.scxml")
        let a = try #require(spec.states.first { $0.name == "a" })
        #expect(a.entry == ["send(e)", "assign(location=x, expr=1)"], "dela:delay is another namespace's attribute")
        #expect(written.contains("<assign location=\"x\" expr=\"1\"/>"), "\(written)")
    }

    @Test("A <send> with an event and a <param> or <content> writes back as written (event, id, children), not <send>")
    func sendWithParameters() throws {
        for inner in ["<param name=\"p\" expr=\"1\"/>", "<content expr=\"'x'\"/>", "<param name=\"p\" location=\"v\"/><param name=\"q\" expr=\"2\"/>"] {
            let (spec, written) = try expectRoundTrip(Array("""
            <scxml initial="a"><state id="a">
              <onentry><send event="e" id="s">\(inner)</send><raise event="r"/></onentry>
              <transition event="go" target="a"><send event="f">\(inner)</send></transition>
            </state></scxml>
            """.utf8), file: "send.scxml")
            #expect(spec.states[0].entry == ["send(e)", "raise(r)"])
            #expect(written.contains("<send event=\"e\" id=\"s\">") && written.contains("<send event=\"f\">"), "\(written)")
            #expect(written.contains(inner.hasPrefix("<param") ? "<param name=\"p\"" : "<content expr="), "\(written)")
        }
    }

    // MARK: The fuzz findings of the whole-spec oracle (issue 26; seeds `Fuzz/Corpus/scxml/regression-*`)

    @Test("Fuzz finding scxml-roundtrip-2: 'initial' on a <parallel>, which enters all its children, is refused where it is written")
    func parallelInitial() throws {
        // It used to read, and the writer (rightly) left it out: read back, the state had no initial.
        for (text, place) in [
            ("<scxml initial=\"p\"><parallel id=\"p\" initial=\"b\"><state id=\"a\"/><state id=\"b\"/></parallel></scxml>", "1:37"),
            ("<scxml initial=\"p\"><parallel id=\"p\">\n<initial><transition target=\"b\"/></initial><state id=\"a\"/><state id=\"b\"/></parallel></scxml>", "2:1"),
        ] {
            let error = #expect(throws: FlowSpecError.self) { try FlowFile.parseSCXML(text, file: "p.scxml") }
            #expect(error?.code == .invalidValue)
            #expect(error?.description == "p.scxml:\(place): error: <parallel> 'p' names an initial child: a <parallel> enters all its children")
        }
        // A JSON spec cannot hold it either (its SCXML would not).
        let json = "{\"flowspec\": 1, \"name\": \"p\", \"initial\": \"p\", \"states\": [\n{\"name\": \"p\", \"parallel\": true, \"initial\": \"b\", \"states\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}]}"
        let error = #expect(throws: FlowSpecError.self) { try FlowFile.parse(json, file: "p.json") }
        #expect(error?.description == "p.json:2:33: error: parallel state 'p' names an initial child 'b': a parallel state enters all its children")
        // Without it, a <parallel> round-trips.
        try expectRoundTrip(Array("<scxml initial=\"p\"><parallel id=\"p\"><state id=\"a\"/><state id=\"b\"/></parallel></scxml>".utf8), file: "p.scxml")
    }

    @Test("Fuzz finding scxml-roundtrip-3: an inline document is never named as an <invoke src> of the file (nor as the file's document)")
    func inlineNameTaken() throws {
        // `<invoke src="fuzz@1">` named the inline document the reader called fuzz@1: the state ran it,
        // and the writer wrote it inline (read back, fuzz@1 and fuzz@2).
        for srcFirst in [true, false] {
            let src = "<state id=\"a\"><invoke src=\"fuzz@1\"/></state>"
            let inline = "<state id=\"b\"><invoke><content><scxml initial=\"x\"><state id=\"x\"/></scxml></content></invoke></state>"
            let text = "<scxml initial=\"\(srcFirst ? "a" : "b")\">" + (srcFirst ? src + inline : inline + src) + "</scxml>"
            let (spec, _) = try expectRoundTrip(Array(text.utf8), file: "fuzz.scxml")
            #expect(spec.states.first { $0.name == "a" }?.child == "fuzz@1", "the src, as written")
            #expect(spec.states.first { $0.name == "b" }?.child == "fuzz@2", "the inline document, numbered past the src")
            #expect(spec.documents.keys.sorted() == ["fuzz@2"])
        }
        // Nested inline documents, and one that would take the file's own name.
        let (spec, _) = try expectRoundTrip(Array("""
        <scxml name="sub@1" initial="a">
          <state id="a"><invoke><content><scxml name="sub"><state id="x"><invoke><content><scxml name="sub"><final id="y"/></scxml></content></invoke></state></scxml></content></invoke></state>
          <state id="b"><invoke src="sub@2"/></state>
        </scxml>
        """.utf8), file: "nested.scxml")
        #expect(spec.states[0].child == "sub@3")
        #expect(spec.documents["sub@3"]?.states[0].child == "sub@4")
        #expect(spec.states[1].child == "sub@2")
        // Without a name to avoid, the numbers are as before: the n-th inline document is @n.
        let plain = try FlowFile.parseSCXML("""
        <scxml initial="a"><state id="a"><invoke><content><scxml name="s"><state id="x"/></scxml></content></invoke></state>
        <state id="b"><invoke src="other@1"/></state></scxml>
        """, file: "plain.scxml")
        #expect(plain.documents.keys.sorted() == ["s@1"])
    }

    @Test("Fuzz finding scxml-roundtrip-4: a label with more than ten ', name=' writes back attributes that read to it and to the same instruction")
    func manyAttributeLikeValues() throws {
        let values = (1...12).map { "k\($0)=\($0)" }.joined(separator: ", ")
        for element in [
            "<log expr=\"x\" label=\"a, \(values)\"/>",
            "<log label=\"a, \(values)\" foo=\"1, label=z\" expr=\"x, \(values)\"/>",
            "<if cond=\"c, \(values)\" x=\"1\"><raise event=\"r\"/></if>",
            "<send event=\"e, \(values)\" delay=\"2s\" target=\"#_internal\"/>",
            "<send id=\"i, \(values)\" target=\"t\"/>",
            "<send event=\"e\" foo=\"f, \(values)\" delay=\"d, \(values)\"/>",
            "<assign expr=\"1, \(values)\" location=\"x, \(values)\"/>",
            "<cancel sendid=\"s, \(values)\" why=\"w, \(values)\"/>",
        ] {
            let (spec, written) = try expectRoundTrip(Array("""
            <scxml initial="a"><state id="a"><onentry>\(element)</onentry></state></scxml>
            """.utf8), file: "labels.scxml")
            #expect(spec.states[0].entry.count == 1)
            // Each reads back to the same label and instruction; the first two as written.
            if element.hasPrefix("<log") { #expect(written.contains(element), "\(written)") }
        }
    }

    @Test("Fuzz finding scxml-roundtrip-5: a value or name that is one character with its neighbour (a combining accent first, a prepended mark last) is taken apart scalar by scalar")
    func joiningScalars() throws {
        // U+0301 joins the character before it ("=" in a label), U+0600 the one after it ("," or ">"
        // or "@"): labels, <send foo> and inline documents' names were taken apart character by
        // character, so these came back as other attributes, as <script/>, or under another name.
        let (accent, mark) = ("\u{301}", "\u{600}")
        for element in [
            "<log expr=\"\(accent)x\" label=\"a\"/>",
            "<log expr=\"x\" label=\"\(accent)a, b=1\"/>",
            "<log expr=\"x\(mark)\" label=\"a\"/>",
            "<send event=\"e\" delay=\"1s\" target=\"\(accent)\"/>",
            "<send event=\"e\" a\(mark)=\"1\"/>",
            "<if cond=\"c\"><send event=\"e\" a\(mark)=\"1\"/><send event=\"e\"><p\(mark)/></send></if>",
        ] {
            let (spec, written) = try expectRoundTrip(Array("""
            <scxml initial="a"><state id="a"><onentry>\(element)</onentry></state></scxml>
            """.utf8), file: "scalars.scxml")
            #expect(spec.states[0].entry.count == 1)
            if element.hasPrefix("<log") { #expect(written.contains(element), "\(written)") }
        }
        let (spec, written) = try expectRoundTrip(Array("""
        <scxml initial="a"><state id="a"><invoke><content><scxml name="\(mark)"><state id="x"/></scxml></content></invoke></state></scxml>
        """.utf8), file: "scalars.scxml")
        #expect(spec.documents.keys.map { Array($0.unicodeScalars) } == [Array("\(mark)@1".unicodeScalars)])
        #expect(written.contains("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\"\(mark)\""), "\(written)")
    }

    // MARK: The corpus

    @Test("The corpus is there, each document labelled as written for the tests")
    func corpusPresent() throws {
        let names = SCXMLCorpus.documents()
        #expect(names.count >= 8, "\(names)")
        for name in names {
            let text = String(decoding: try SCXMLCorpus.bytes(name), as: UTF8.self)
            #expect(text.contains("Written for Flowstate's tests"), "\(name) says where it comes from")
        }
    }

    @Test("Every corpus document writes back to SCXML that reads to the same spec", arguments: SCXMLCorpus.documents())
    func corpusRoundTrip(_ name: String) throws {
        try expectRoundTrip(try SCXMLCorpus.bytes(name), file: name)
    }

    @Test("The W3C documents (converted and as fetched) that read write back to the same spec")
    func w3cRoundTrip() throws {
        var read = 0
        for (folder, suffix) in [("null", ".scxml"), ("txml", ".txml"), ("reference", ".scxml")] {
            let url = try #require(w3cFolder(folder))
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).filter({ $0.hasSuffix(suffix) }).sorted() {
                let bytes = Array(try Data(contentsOf: url.appendingPathComponent(name)))
                guard (try? FlowFile.parseSCXML(bytes, file: name)) != nil else { continue }
                read += 1
                try expectRoundTrip(bytes, file: name)
            }
        }
        // 227 .txml tests and the converted ones: with conf: attributes left out, most read now.
        #expect(read > 200, "\(read) documents read")
    }

    @Test("Generated documents with data, invocations, foreign namespaces and eventless transitions round-trip")
    func generated() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...999).array(of: 1...120)) { genes in
            let text = OutsideWorldGenerator.document(genes)
            guard let spec = try? FlowFile.parseSCXML(text, file: "g.scxml") else {
                Issue.record("a generated document does not read:\n\(text)")
                return
            }
            _ = spec
            try expectRoundTrip(Array(text.utf8), file: "g.scxml")
        }
    }

    // MARK: Namespaces

    @Test("Other namespaces' elements and attributes are left out; SCXML's own may carry a prefix")
    func namespaces() throws {
        let spec = try FlowFile.parseSCXML("""
        <s:scxml xmlns:s="http://www.w3.org/2005/07/scxml" xmlns:qt="http://www.qt.io/2015/02/scxml-ext" s:initial="a">
          <qt:editorinfo initialGeometry="1;2"><s:state id="ghost"/></qt:editorinfo>
          <s:state id="a" qt:geometry="0;0">
            <s:onentry><qt:x/><s:raise event="r" qt:y="1"/></s:onentry>
            <s:transition event="e" target="b"><qt:editorinfo/></s:transition>
            <panel xmlns="urn:other"><s:state id="hidden"/></panel>
          </s:state>
          <s:final id="b"/>
        </s:scxml>
        """, file: "ns.scxml")
        #expect(spec.statesInDocumentOrder.map(\.name) == ["a", "b"], "what other namespaces hold is left out with them")
        #expect(spec.initial == "a")
        #expect(spec.states[0].entry == ["raise(r)"])
        #expect(spec.warnings.isEmpty)
        // An attribute that SCXML's namespace prefix would make `xmlns` is left out: written back, it
        // would declare a namespace.
        let (sneaky, _) = try expectRoundTrip(Array("""
        <scxml xmlns:q="http://www.w3.org/2005/07/scxml" initial="a"><state id="a">
          <datamodel><data id="d" q:xmlns="urn:evil"><v/></data></datamodel>
          <onentry><send event="e" q:xmlns="urn:evil"/></onentry>
        </state></scxml>
        """.utf8), file: "sneaky.scxml")
        #expect(sneaky.states[0].data == [#"<datamodel><data id="d"><v/></data></datamodel>"#])
        #expect(sneaky.states[0].entry == ["send(e)"])
    }

    @Test("Namespace mistakes are refused where they are written", arguments: [
        ("<scxml><qt:editorinfo/><state id='a'/></scxml>", "1:8", "the namespace prefix 'qt' is not declared"),
        ("<scxml><state id='a' qt:x='1'/></scxml>", "1:22", "the namespace prefix 'qt' is not declared"),
        ("<scxml><state id='a' a:b:c='1'/></scxml>", "1:22", "'a:b:c' is not a valid name"),
        ("<scxml><:state id='a'/></scxml>", "1:9", "':state' is not a valid name"),
        ("<scxml xmlns:p=''><state id='a'/></scxml>", "1:8", "the namespace prefix 'p' is declared with an empty namespace"),
        ("<scxml xmlns:q='urn:q'><state id='a' q:x='1' q:x='2'/></scxml>", "1:46", "attribute 'q:x' is given twice"),
        ("<scxml xmlns:q='http://www.w3.org/2005/07/scxml'><state id='a' q:id='b'/></scxml>", "1:64", "attribute 'id' is given twice"),
    ])
    func namespaceErrors(text: String, place: String, message: String) {
        let error = #expect(throws: FlowSpecError.self) { try FlowFile.parseSCXML(text, file: "bad.scxml") }
        #expect(error?.description.hasPrefix("bad.scxml:\(place): error: ") == true, "\(String(describing: error))")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    // MARK: What is kept, drawn and warned about

    @Test("Data is kept as text where it is written (values, inline JSON and XML, CDATA scripts) and shown in lines")
    func dataKept() throws {
        let spec = try FlowFile.parseSCXML(try SCXMLCorpus.bytes("data-and-scripts.scxml"), file: "data-and-scripts.scxml")
        #expect(spec.data.count == 2)
        #expect(spec.data[0] == #"<datamodel><data id="items" expr="[]"/><data id="catalog" src="catalog.json"/><data id="limits">{ "maxItems": 20, "currency": "EUR" }</data></datamodel>"#)
        #expect(spec.data[1].hasPrefix("<script>function total(items) { return items.reduce((sum, item) =&gt; sum + item.price, 0); }"))
        #expect(FlowFile.dataLines(spec.data) == [
            "items = []", "catalog ← catalog.json", #"limits = { "maxItems": 20, "currency": "EUR" }"#,
            "script: function total(items) { return items.reduce((sum, item) => sum + item.p…",
        ])
        let shopping = try #require(spec.states.first { $0.name == "shopping" })
        #expect(FlowFile.dataLines(shopping.data) == ["lastAdded", #"banner = <message lang="en">Free delivery over 50 EUR</message>"#])
        let paid = try #require(spec.states.first { $0.name == "paid" })
        #expect(FlowFile.dataLines(paid.data) == ["donedata() { param(name=total, expr=total(items)); param(name=count, expr=items…"])
        #expect(spec.warnings.map { "\($0.location?.line ?? 0): \($0.message)" } == [
            "7: <datamodel> declares data: kept as text, not run (simulate runs SCXML's null data model)",
            "12: <script> needs a data model: kept as text, not run (simulate runs SCXML's null data model)",
            "17: <datamodel> declares data: kept as text, not run (simulate runs SCXML's null data model)",
            "22: <assign> needs a data model: shown as a label, not run (simulate runs SCXML's null data model)",
            "23: <script> needs a data model: shown as a label, not run (simulate runs SCXML's null data model)",
            "24: <send namelist> needs a data model: shown as a label, not run (simulate runs SCXML's null data model)",
            "31: <content> in <send> needs a data model: shown as a label, not run (simulate runs SCXML's null data model)",
            "38: <donedata> with <param> needs a data model: kept as text, not run",
        ])
        #expect(throws: FlowSimulation.Problem.self) { try FlowSimulation(spec) }
    }

    @Test("An <invoke> that needs a data model, of another type, or a state's second is kept as text with a warning", arguments: [
        ("<invoke src='c.scxml' namelist='x'/>", "<invoke namelist> needs a data model"),
        ("<invoke src='c.scxml' idlocation='v'/>", "<invoke idlocation> needs a data model"),
        ("<invoke srcexpr=\"'c.scxml'\"/>", "<invoke srcexpr> needs a data model"),
        ("<invoke src='c.scxml' typeexpr=\"'scxml'\"/>", "<invoke typeexpr> needs a data model"),
        ("<invoke src='c.scxml'><param name='x' expr='1'/></invoke>", "<param> in <invoke> needs a data model"),
        ("<invoke src='c.scxml'><finalize><assign location='x' expr='1'/></finalize></invoke>", "<finalize> with content needs a data model"),
        ("<invoke type='http://www.w3.org/TR/ccxml/' src='c.ccxml'/>", "<invoke type=\"http://www.w3.org/TR/ccxml/\"> is not an SCXML document"),
        ("<invoke><content expr='doc'/></invoke>", "an <invoke>'s <content> without one <scxml> document needs a data model"),
        ("<invoke><content>text</content></invoke>", "an <invoke>'s <content> without one <scxml> document needs a data model"),
        ("<invoke type='scxml'/>", "an <invoke> without 'src' or <content> names no document"),
        ("<invoke src=''/>", "an <invoke> with an empty 'src' names no document"),
    ])
    func invokesKept(invoke: String, reason: String) throws {
        let text = "<scxml initial='a'><state id='a'>\(invoke)<transition event='e' target='b'/></state><final id='b'/></scxml>"
        let (spec, _) = try expectRoundTrip(Array(text.utf8), file: "i.scxml")
        let a = spec.states[0]
        #expect(a.child == nil && a.data.count == 1)
        #expect(spec.warnings.map(\.description) == ["i.scxml:1:34: warning: \(reason): the <invoke> is kept as text, not run"])
        #expect(spec.validate().filter { $0.severity == .error }.isEmpty)
        let problem = #expect(throws: FlowSimulation.Problem.self) { try FlowSimulation(spec) }
        #expect(problem?.description.hasPrefix("i.scxml:1:34: error:") == true, "\(String(describing: problem))")
    }

    @Test("A state with two <invoke>s runs the first as its child; the second is kept as text, in its place when written")
    func twoInvokes() throws {
        let (spec, written) = try expectRoundTrip(Array("""
        <scxml initial="a"><state id="a">
          <invoke src="first.scxml" id="one"/>
          <invoke src="second.scxml" id="two" autoforward="true"/>
        </state></scxml>
        """.utf8), file: "two.scxml")
        #expect(spec.states[0].child == "first.scxml" && spec.states[0].childID == "one")
        #expect(spec.states[0].data == [#"<invoke src="second.scxml" id="two" autoforward="true"/>"#])
        #expect(spec.warnings.map(\.message) == ["state 'a' has a second <invoke>: a state runs one child flow, so it is kept as text, not run"])
        #expect(try #require(written.range(of: "first.scxml")).lowerBound < (try #require(written.range(of: "second.scxml"))).lowerBound)
        var graph = FlowDiagram(spec)
        graph.showKeptSCXML(of: spec)
        #expect(graph.nodes[0].attributes["label"] == "a\ninvoke(src=second.scxml, id=two, autoforward=true)")
    }

    @Test("An eventless transition without a target reads, is drawn as a loop, and is not simulated")
    func eventlessWithoutTarget() throws {
        let (spec, _) = try expectRoundTrip(Array("""
        <scxml initial="a"><state id="a">
          <transition cond="In('a')"><log label="again"/></transition>
          <transition event="go" target="b"/>
        </state><final id="b"/></scxml>
        """.utf8), file: "loop.scxml")
        let t = spec.states[0].transitions[0]
        #expect(t.event == nil && t.target == nil && t.effects == ["again"])
        #expect(spec.warnings.map(\.location?.line) == [2])
        #expect(spec.validate().filter { $0.severity == .error }.isEmpty)
        let graph = FlowDiagram(spec)
        #expect(graph.edges.contains { $0.from == $0.to && $0.label.contains("[In('a')]") }, "\(graph.edges)")
        let problem = #expect(throws: FlowSimulation.Problem.self) { try FlowSimulation(spec) }
        #expect(problem?.description.hasPrefix("loop.scxml:2:3: error:") == true, "\(String(describing: problem))")
    }

    @Test("An <scxml> without states reads, with a warning, and writes back without an initial state")
    func noStates() throws {
        let (spec, written) = try expectRoundTrip(Array("<scxml xmlns='http://www.w3.org/2005/07/scxml' name='blank'><datamodel><data id='x'/></datamodel></scxml>".utf8),
                                                  file: "blank.scxml")
        #expect(spec.states.isEmpty && spec.initial.isEmpty)
        #expect(!written.contains("initial="), "\(written)")
        #expect(spec.warnings.count == 2)
        let error = #expect(throws: FlowSpecError.self) { try FlowFile.parseSCXML("<scxml initial='a'/>", file: "x.scxml") }
        #expect(error?.description == "x.scxml:1:8: error: <scxml> names an initial state 'a' but contains no <state>, <parallel> or <final>")
    }

    @Test("A <donedata> with one <content>, by expr or text, is the output; anything else is kept as text")
    func doneData() throws {
        let spec = try FlowFile.parseSCXML("""
        <scxml initial="a"><state id="a"><transition event="e" target="b"/><transition event="f" target="c"/></state>
          <final id="b"><donedata><content>  left   </content></donedata></final>
          <final id="c"><donedata><content><result ok="true"/></content></donedata></final>
        </scxml>
        """, file: "d.scxml")
        #expect(spec.states[1].output == "left" && spec.states[1].data.isEmpty)
        #expect(spec.states[2].output == nil && spec.states[2].data == [#"<donedata><content><result ok="true"/></content></donedata>"#])
        try expectRoundTrip(Array(spec.scxml().utf8), file: "d.scxml")
    }

    @Test("JSON carries the SCXML kept as text and eventless transitions without a target (SCXML semantics only)")
    func json() throws {
        let spec = try FlowFile.parseSCXML(try SCXMLCorpus.bytes("irp-style-eventless-counter.scxml"), file: "counter.scxml")
        let text = spec.json()
        #expect(text.contains(#""data": ["<datamodel><data id=\"Var1\" expr=\"0\"/>"#), "\(text)")
        let back = try FlowFile.parse(text, file: "counter.json")
        #expect(back.json() == text)
        #expect(back.statesInDocumentOrder.map(\.data) == spec.statesInDocumentOrder.map(\.data))
        #expect(back.warnings.count == 2, "\(back.warnings)")
        #expect(throws: FlowSimulation.Problem.self) { try FlowSimulation(back) }
        #expect(try FlowFile.parseSCXML(back.scxml(), file: "counter.scxml").json() == text)
        let flowstate = text.replacingOccurrences(of: "\"semantics\": \"scxml\",\n", with: "")
        let error = #expect(throws: FlowSpecError.self) { try FlowFile.parse(flowstate, file: "f.json") }
        #expect(error?.description.contains("a transition without an 'event' is taken as soon as its state is entered, so it needs a 'target'") == true)
        #expect(error?.location.line == 11, "\(String(describing: error))")
    }

    @Test("Text that does not read as an element kept as text is written as a <script>, never as broken SCXML")
    func keptTextWritten() throws {
        var a = FlowFile.State(name: "a")
        a.data = ["<state id='sneaky'/>", "not xml < & >", "<datamodel><data id='x'/></datamodel>", "<donedata/>"]
        var spec = FlowFile(name: "hand", initial: "a", states: [a])
        spec.data = ["<invoke src='x'/>"]
        let back = try FlowFile.parseSCXML(spec.scxml(), file: "hand.scxml")
        #expect(back.statesInDocumentOrder.map(\.name) == ["a"])
        #expect(back.states[0].data == ["<script>&lt;state id='sneaky'/&gt;</script>", "<script>not xml &lt; &amp; &gt;</script>",
                                        #"<datamodel><data id="x"/></datamodel>"#, "<script>&lt;donedata/&gt;</script>"])
        #expect(back.data == ["<script>&lt;invoke src='x'/&gt;</script>"])
        try expectRoundTrip(Array(spec.scxml().utf8), file: "hand.scxml")
    }
}

/// Documents built from genes: nested states with data, invocations of every kind, donedata,
/// eventless transitions with and without targets, executable content with parameters, and
/// another namespace's elements and attributes among them.
enum OutsideWorldGenerator {
    static func document(_ genes: [Int]) -> String {
        var g = genes.makeIterator()
        func next(_ n: Int) -> Int { (g.next() ?? 0) % n }
        var count = 0
        var ids: [String] = []
        func foreign() -> String {
            switch next(4) {
            case 0: "<qt:editorinfo geometry=\"\(next(9));\(next(9))\"/>"
            case 1: "<my:note>text \(next(9))</my:note>"
            default: ""
            }
        }
        func foreignAttribute() -> String { next(3) == 0 ? " qt:geometry=\"\(next(9))\"" : "" }
        func data() -> String {
            switch next(5) {
            case 0: "<data id=\"v\(next(5))\" expr=\"\(next(99))\"\(foreignAttribute())/>"
            case 1: "<data id=\"s\(next(5))\" src=\"f\(next(5)).json\"/>"
            case 2: "<data id=\"t\(next(5))\">[\(next(9)), &lt;\(next(9))&gt;]</data>"
            case 3: "<data id=\"x\(next(5))\"><item n=\"\(next(9))\">\(next(9))</item>\(foreign())</data>"
            default: "<data id=\"e\(next(5))\"/>"
            }
        }
        func executable() -> String {
            var out = ""
            for _ in 0..<next(3) {
                switch next(6) {
                case 0: out += "<send event=\"s\(next(3))\"><param name=\"p\" expr=\"\(next(9))\"/></send>"
                case 1: out += "<assign location=\"v\" expr=\"\(next(9))\"/>"
                case 2: out += "<raise event=\"r\(next(3))\"\(foreignAttribute())/>"
                case 3: out += "<if cond=\"c\(next(3))\"><log label=\"l\"/>\(foreign())<else/><send event=\"x\" namelist=\"v\"/></if>"
                case 4: out += foreign()
                default: out += "<log label=\"l\(next(3))\" expr=\"\(next(9))\"/>"
                }
            }
            return out
        }
        func invoke() -> String {
            let extras = [" namelist=\"v\"", " idlocation=\"w\"", " typeexpr=\"'scxml'\"", "", "", ""]
            let children = ["<param name=\"p\" expr=\"\(next(9))\"/>", "<finalize><assign location=\"v\" expr=\"1\"/></finalize>",
                            "<finalize/>", "", "", foreign()]
            let source = next(3) == 0 ? " srcexpr=\"'c\(next(3)).scxml'\"" : " src=\"c\(next(3)).scxml\""
            let id = next(2) == 0 ? " id=\"i\(next(9))\"" : ""
            let inline = next(4) == 0
            let body = children[next(children.count)]
            if inline {
                return "<invoke\(id)\(extras[next(extras.count)])><content><scxml name=\"kid\"><state id=\"k\(next(9))\"/></scxml></content>\(body)</invoke>"
            }
            return "<invoke\(source)\(id)\(extras[next(extras.count)])\(foreignAttribute())>\(body)</invoke>"
        }
        func state(depth: Int) -> String {
            count += 1
            let id = "s\(count)"
            ids.append(id)
            if next(5) == 0 {
                let done = ["", "<donedata><content expr=\"out\"/></donedata>", "<donedata><param name=\"p\" expr=\"1\"/></donedata>",
                            "<donedata><content>text \(next(9))</content></donedata>"][next(4)]
                return "<final id=\"\(id)\"\(foreignAttribute())>\(foreign())<onentry>\(executable())</onentry>\(done)</final>"
            }
            var out = "<state id=\"\(id)\"\(foreignAttribute())>" + foreign()
            if next(3) == 0 { out += "<datamodel>" + (0..<(1 + next(2))).map { _ in data() }.joined() + "</datamodel>" }
            if next(2) == 0 { out += "<onentry>\(executable())</onentry>" }
            for _ in 0..<next(3) { out += invoke() }
            for _ in 0..<next(4) {
                let event = next(3) == 0 ? "" : " event=\"e\(next(4))\""
                let target = next(3) == 0 ? "" : " target=\"s\(1 + next(count + 3))\""
                let cond = next(2) == 0 ? " cond=\"c\(next(3))\"" : ""
                out += "<transition\(event)\(cond)\(target)\(foreignAttribute())>\(foreign())\(executable())</transition>"
            }
            if depth < 2 { for _ in 0..<next(3) { out += state(depth: depth + 1) } }
            return out + "</state>"
        }
        var body = ""
        if next(3) == 0 { body += "<datamodel>\(data())\(data())</datamodel>" }
        if next(4) == 0 { body += "<script>f(\(next(9))) &amp;&amp; g()</script>" }
        body += foreign()
        for _ in 0..<next(4) { body += state(depth: 0) }
        return """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:qt="http://www.qt.io/2015/02/scxml-ext" xmlns:my="urn:my" \
        version="1.0" name="generated">\(body)</scxml>
        """
    }
}
