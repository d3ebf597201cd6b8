import FlowGraph
import FlowGraphviz
import FlowTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import Testing

@Suite struct ViewerTests {
    /// The demo's sign-up session, run on a `FlowRuntime` and recorded by a `FlowTraceRecorder`.
    static func signUpRun() throws -> (trace: FlowTrace, steps: [FlowStep<SignUp>]) {
        let runtime = try FlowRuntime(SignUp.definition) { _, _ in }
        let recorder = FlowTraceRecorder(runtime)
        var steps: [FlowStep<SignUp>] = []
        runtime.observe { steps.append($0) }
        try runtime.start()
        let session: [SignUp.Event] = [
            .submitEmail("ada"), .submitEmail("ada@example.com"), .submitPassword("short"),
            .submitPassword("correct horse"), .back, .submitPassword("correct horse battery"),
            .submitCode("12"), .submitCode("123456"),
        ]
        for event in session { try runtime.send(event) }
        return (recorder.trace, steps)
    }

    /// The edges (as the page's classes) that draw the transitions a step took.
    static func edgeClasses(_ step: FlowTrace.Step, in graph: FlowDiagram) -> [String] {
        Set(step.transitions.compactMap { t in graph.edges.firstIndex { $0.transitions.contains(t) } })
            .map(FlowViewer.edgeElementClass).sorted()
    }

    static func element(_ label: String, in graph: FlowDiagram) -> String {
        FlowViewer.stateElementID(graph.id(ofLabel: label) ?? "missing:\(label)")
    }

    @Test func theRecorderKeepsWhatTheEngineReported() throws {
        let (trace, steps) = try Self.signUpRun()
        let moving = steps.filter { $0.kind != .ignored && $0.kind != .rejected }
        #expect(trace.steps.count == moving.count)
        for (recorded, step) in zip(trace.steps, moving) {
            #expect(recorded.transitions == step.transitions.map(\.position))
            #expect(recorded.effects == step.effects.map { "\($0)" })
            #expect(recorded.to == "\(step.state)")
        }
        #expect(trace == FlowTrace(steps))
        // A machine's steps appended one by one give the same trace.
        var appended = FlowTrace(steps: [])
        for step in steps { appended.append(step) }
        #expect(appended == trace)
    }

    @Test func theRecorderFollowsASupervisorTreeWithItsEffects() throws {
        let supervisor = Supervisor()
        let recorder = FlowTraceRecorder(supervisor)
        var events: [TreeEvent] = []
        supervisor.observe { events.append($0) }
        var performed: [(MachineID, String)] = []
        let launch = try supervisor.start(FirstLaunch.definition, handler: recorder.recording { effect, context in
            performed.append((context.origin, "\(effect)"))
        })
        try supervisor.send(.createAccount, to: launch)
        let child = try #require(supervisor.machines.last)
        let signUp = try #require(supervisor.handle(of: child.id, as: SignUp.self))
        try supervisor.send(.submitEmail("ada@example.com"), to: signUp)
        #expect(recorder.machines.first == launch.id)
        #expect(recorder.machines.contains(child.id))
        #expect(recorder.trace == recorder.trace(of: launch.id))
        for machine in [launch.id, child.id] {
            let trace = recorder.trace(of: machine)
            // Transitions as the tree events reported them, effects as the handler performed them.
            let fromEvents = FlowTrace(events, machine: machine)
            #expect(trace.steps.map(\.transitions) == fromEvents.steps.map(\.transitions))
            #expect(trace.steps.map(\.to) == fromEvents.steps.map(\.to))
            #expect(trace.steps.flatMap { $0.effects ?? ["<nil>"] } == performed.filter { $0.0 == machine }.map(\.1))
        }
        #expect(!recorder.trace(of: child.id).steps.flatMap { $0.effects ?? [] }.isEmpty)
        // Without the wrapped handler, effects are not known: nil, not empty.
        let plain = Supervisor()
        let unwrapped = FlowTraceRecorder(plain)
        try plain.start(SignUp.definition) { _, _ in }
        #expect(unwrapped.trace.steps.count == 1)
        #expect(unwrapped.trace.steps[0].effects == nil)
    }

    @Test func tracesEncodedWithoutEffectsStillDecode() throws {
        let old = #"{"steps":[{"to":"email","transitions":[]},{"from":"email","to":"password","event":"submitEmail","transitions":[1]}]}"#
        let trace = try JSONDecoder().decode(FlowTrace.self, from: Data(old.utf8))
        #expect(trace.steps.count == 2)
        #expect(trace.steps.allSatisfy { $0.effects == nil })
        let withEffects = FlowTrace(steps: [.init(from: nil, to: "a", event: nil, effects: []),
                                            .init(from: "a", to: "b", event: "go", transitions: [0], effects: ["x", "</script>"])])
        #expect(try JSONDecoder().decode(FlowTrace.self, from: JSONEncoder().encode(withEffects)) == withEffects)
    }

    /// A flow whose every label is hostile to HTML, JavaScript and JSON.
    static let evil = "</script><script>window.pwned=1</script>"
    static let quoted = "say \"hi\" & 'bye' <b>x</b> <!-- no -->"
    static let control = "bell\u{7}tab\tline\u{2028}para\u{2029}nul\u{0}end\\"
    static let unicode = "日本語 👩‍👩‍👧 e\u{301} עברית"

    static func hostile() throws -> FlowViewer {
        let definition = FlowDefinition<StringFlow>(evil, initial: evil) {
            StateNode(evil, entry: [quoted]) {
                On(SpecEvent(control), guard: Guard(quoted) { _ in true }, to: unicode, effects: [evil, control])
            }
            StateNode(unicode, exit: [unicode]) {
                On("back", to: evil)
            }
        }
        let runtime = try FlowRuntime(definition) { _, _ in }
        let recorder = FlowTraceRecorder(runtime)
        try runtime.start()
        try runtime.send(SpecEvent(control))
        return FlowViewer(definition, trace: recorder.trace, title: evil + quoted + unicode)
    }

    @Test func everyLabelIsEscapedAndThePageNeedsNoNetwork() throws {
        let viewer = try Self.hostile()
        let page = try viewer.html()
        // Only the page's own two scripts; nothing opened by a label.
        #expect(page.components(separatedBy: "<script").count - 1 == 2)
        #expect(page.components(separatedBy: "</script").count - 1 == 2)
        #expect(!page.contains("<!-- no -->"))
        // Self-contained: no external resource, and every "http://" names an XML namespace (SVG's, XLink's).
        for banned in ["<link", " src=", "url(", "@import", "https:", "<iframe", "<img"] { #expect(!page.contains(banned), "\(banned)") }
        var rest = page[...]
        while let http = rest.range(of: "http://") {
            let after = page[http.upperBound...]
            #expect(after.hasPrefix("www.w3.org/2000/svg\"") || after.hasPrefix("www.w3.org/1999/xlink\""), "\(after.prefix(40))")
            rest = page[http.upperBound...]
        }
        // The data is JSON with nothing an HTML parser would act on, and it says what the labels say.
        let open = try #require(page.range(of: "<script type=\"application/json\" id=\"fv-data\">"))
        let close = try #require(page.range(of: "</script>", range: open.upperBound..<page.endIndex))
        let data = String(page[open.upperBound..<close.lowerBound])
        for scalar in data.unicodeScalars {
            #expect(!["<", ">", "&", "\u{2028}", "\u{2029}"].contains(scalar) && scalar.value >= 0x20 && scalar.value != 0x7F,
                    "raw U+\(String(scalar.value, radix: 16)) in the data")
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        let states = try #require(object["states"] as? [[String: Any]])
        #expect(states.compactMap { $0["label"] as? String } == [Self.evil, Self.unicode])
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.last?["event"] as? String == Self.control)
        #expect(steps.last?["effects"] as? [String] == [Self.evil, Self.control])
    }

    /// A run of the media flow (two regions of one parallel state), recorded step by step.
    static func mediaRun() throws -> FlowTrace {
        var machine = try FlowMachine(Media.definition)
        var trace = FlowTrace(steps: [])
        trace.append(try machine.start())
        for event: Media.Event in [.start, .fetched, .play, .pause, .cancel] { trace.append(try machine.send(event)) }
        return trace
    }

    @Test func aParallelRunCarriesEveryActiveLeafToThePage() throws {
        let trace = try Self.mediaRun()
        #expect(trace.steps.map(\.leaves) == [nil, ["fetching", "paused"], ["fetched", "paused"], ["fetched", "playing"],
                                              ["fetched", "paused"], nil])
        let viewer = FlowViewer(Media.definition, trace: trace)
        #expect(viewer.traceProblems.isEmpty)
        let graph = viewer.graph
        let ids = try ["fetching", "paused"].map { try #require(graph.id(ofLabel: $0)) }
        #expect(try viewer.html().contains("\"states\":[\"\(ids[0])\",\"\(ids[1])\"]"))
        // A leaf the flow does not have is a problem, as a state it does not have is.
        var odd = trace
        odd.steps[1].leaves = ["fetching", "nowhere"]
        let oddViewer = FlowViewer(Media.definition, trace: odd)
        #expect(oddViewer.traceProblems == ["step 2 rests in 'nowhere', which is not a state of the flow"])
    }

    /// The tests that drive the page in Chromium.
    @Suite(.serialized, .enabled(if: Browser.path != nil, Comment(rawValue: Browser.missing)))
    struct InBrowser {
        @Test func stepsThroughARunWithKeysAndButtons() throws {
            let (trace, _) = try ViewerTests.signUpRun()
            let viewer = FlowViewer(SignUp.definition, trace: trace)
            let graph = viewer.graph
            let n = trace.steps.count
            #expect(n == 8)
            var actions = "fv.snap('start');\n"
            for i in 1..<n { actions += "fv.key('ArrowRight'); fv.snap('right \(i)');\n" }
            actions += "fv.key('ArrowRight'); fv.snap('past the end');\n"
            for i in stride(from: n - 2, through: 0, by: -1) { actions += "fv.key('ArrowLeft'); fv.snap('left \(i)');\n" }
            actions += """
            fv.click('fv-back'); fv.snap('back at the start');
            fv.click('fv-forward'); fv.snap('forward button');
            fv.key('End'); fv.snap('end');
            fv.click('fv-back'); fv.snap('back button');
            fv.key('Home'); fv.snap('home');
            fv.click('fv-last'); fv.snap('last button');
            fv.click('fv-first'); fv.snap('first button');
            """
            let snaps = try Browser.drive(try viewer.html(), actions)
            var expected: [Int] = Array(0..<n) + [n - 1] + Array(stride(from: n - 2, through: 0, by: -1))
            expected += [0, 1, n - 1, n - 2, 0, n - 1, 0]
            try #require(snaps.count == expected.count)
            for (snap, index) in zip(snaps, expected) {
                let step = trace.steps[index]
                let name = snap.text("name") ?? "?"
                #expect(snap.text("position") == "Step \(index + 1) of \(n)" + (index == 0 ? " (start)" : ""), "\(name)")
                #expect(snap.list("current") == [ViewerTests.element(step.to, in: graph)], "\(name)")
                #expect(snap.list("active") == [ViewerTests.element("signingUp", in: graph)].filter { _ in
                    step.to != "done" && step.to != "cancelled" }, "\(name)")
                #expect(snap.list("taken") == ViewerTests.edgeClasses(step, in: graph), "\(name)")
                #expect(snap.text("event") == (step.event ?? "(start)"), "\(name)")
                #expect(snap.text("move") == (step.from ?? "start") + " → " + step.to, "\(name)")
                #expect(snap.text("effectsTitle") == "Effects", "\(name)")
                #expect(snap.list("effects") == step.effects, "\(name)")
                #expect(snap.list("transitions") == step.transitions.map { SignUp.definition.outline.transitions[$0].label },
                        "\(name)")
                #expect(snap.flags("buttons") == [index == 0, index == 0, index == n - 1, index == n - 1], "\(name)")
            }
            // The run is the one recorded: a targetless step stays, a back step returns.
            #expect(trace.steps[1].from == "email" && trace.steps[1].to == "email")
            #expect(snaps[1].list("effects") == ["showError(invalid email)"])
            #expect(snaps[n - 1].list("current") == [ViewerTests.element("done", in: graph)])
        }

        @Test func hoveringOrSelectingAStateShowsItsTransitions() throws {
            let viewer = FlowViewer(SignUp.definition)
            let graph = viewer.graph
            let outline = SignUp.definition.outline
            let password = try #require(graph.id(ofLabel: "password"))
            let twoFactor = try #require(graph.id(ofLabel: "twoFactor"))
            let snaps = try Browser.drive(try viewer.html(), """
            fv.snap('nothing');
            fv.hover('\(password)'); fv.snap('hover password');
            fv.leave(); fv.snap('left');
            fv.click('\(twoFactor)'); fv.leave(); fv.snap('selected twoFactor');
            fv.hover('\(password)'); fv.snap('hover over a selection');
            fv.leave(); fv.snap('back to the selection');
            fv.key('Escape'); fv.snap('escape');
            """)
            try #require(snaps.count == 7)
            /// What the page lists for a state: its transitions, then each ancestor's, as the outline declares them.
            func listed(_ label: String) -> (lines: [String], edges: [String], headings: [String]) {
                var chain = [label]
                var current = outline.states.first { $0.label == label }?.parent
                while let parent = current { chain.append(outline.states[parent].label); current = outline.states[parent].parent }
                var lines: [String] = []
                var edges: Set<String> = []
                var headings: [String] = []
                for source in chain {
                    let own = outline.transitions.enumerated().filter { outline.states[$0.element.source].label == source }
                    if own.isEmpty { continue }
                    headings.append(source == label ? "Transitions" : "Inherited from \(source)")
                    for (position, t) in own {
                        var line = t.event ?? "(eventless)"
                        if let guardLabel = t.guardLabel { line += " [\(guardLabel)]" }
                        line += t.targetless ? " (stays)" : " → " + outline.states[t.target!].label
                        if !t.effects.isEmpty { line += " / " + t.effects.joined(separator: ", ") }
                        lines.append(line)
                        if let e = graph.edges.firstIndex(where: { $0.transitions.contains(position) }) {
                            edges.insert(FlowViewer.edgeElementClass(e))
                        }
                    }
                }
                return (lines, edges.sorted(), headings)
            }
            let passwordList = listed("password")
            #expect(passwordList.lines.contains("submitPassword [strong password] → twoFactor / push(twoFactor)"))
            #expect(passwordList.lines.contains("submitPassword (stays) / showError(password too short)"))
            #expect(passwordList.lines.contains("cancel → cancelled"))
            for snap in [snaps[1], snaps[4]] {
                #expect(snap.text("state") == "password")
                #expect(snap.list("stateTransitions") == passwordList.lines)
                #expect(snap.list("stateHeadings") == passwordList.headings)
                #expect(snap.list("related") == passwordList.edges)
                #expect(snap.list("selected") == [FlowViewer.stateElementID(password)])
            }
            let twoFactorList = listed("twoFactor")
            for snap in [snaps[3], snaps[5]] {
                #expect(snap.text("state") == "twoFactor")
                #expect(snap.text("entry") == "Entry: sendCode")
                #expect(snap.list("stateTransitions") == twoFactorList.lines)
                #expect(snap.list("related") == twoFactorList.edges)
                #expect(snap.list("selected") == [FlowViewer.stateElementID(twoFactor)])
            }
            for snap in [snaps[0], snaps[2], snaps[6]] {
                #expect(snap.text("hint") == "Hover or click a state.")
                #expect(snap.text("state") == nil)
                #expect(snap.list("selected").isEmpty)
                #expect(snap.list("related").isEmpty)
            }
            #expect(snaps[0]["runHidden"] as? Bool == true)
        }

        @Test func nestedStatesFoldAndUnfold() throws {
            let (trace, _) = try ViewerTests.signUpRun()
            let viewer = FlowViewer(SignUp.definition, trace: trace)
            let graph = viewer.graph
            let signingUp = try #require(graph.id(ofLabel: "signingUp"))
            let inside = ["email", "password", "twoFactor"].map { ViewerTests.element($0, in: graph) }.sorted()
            let internalEdges = graph.edges.enumerated().filter { _, edge in
                let ends = [edge.from, edge.to].map { graph.node($0)?.parent }
                return ends.allSatisfy { $0 == signingUp } || (edge.from == signingUp && graph.node(edge.to)?.parent == signingUp)
            }.map { FlowViewer.edgeElementClass($0.offset) }.sorted()
            let crossing = graph.edges.enumerated().filter { _, edge in
                graph.node(edge.from)?.parent == signingUp && graph.node(edge.to)?.parent == nil
                    || edge.from == signingUp && graph.node(edge.to)?.parent == nil
            }.map { FlowViewer.edgeElementClass($0.offset) }
            #expect(!internalEdges.isEmpty && !crossing.isEmpty)
            let snaps = try Browser.drive(try viewer.html(), """
            fv.key('ArrowRight'); fv.key('ArrowRight'); fv.snap('in password');
            fv.fold('\(signingUp)'); fv.snap('folded by the list');
            fv.key('ArrowRight'); fv.snap('a step inside the fold');
            fv.dblclick('\(signingUp)'); fv.snap('unfolded by double-click');
            fv.dblclick('\(signingUp)'); fv.snap('folded by double-click');
            fv.fold('\(signingUp)'); fv.snap('unfolded by the list');
            """)
            try #require(snaps.count == 6)
            let cluster = FlowViewer.stateElementID(signingUp)
            for i in [0, 3, 5] {
                let snap = snaps[i]
                #expect(snap.list("folded").isEmpty, "\(i)")
                #expect(snap.list("hiddenStates").isEmpty, "\(i)")
                #expect(snap.list("hiddenEdges").isEmpty, "\(i)")
                #expect(snap.list("badges").isEmpty, "\(i)")
                #expect(snap.list("folds") == ["▾ signingUp"], "\(i)")
            }
            for i in [1, 2, 4] {
                let snap = snaps[i]
                #expect(snap.list("folded") == [cluster], "\(i)")
                #expect(snap.list("hiddenStates") == inside, "\(i)")
                #expect(snap.list("hiddenEdges") == internalEdges, "\(i)")
                #expect(Set(snap.list("hiddenEdges")).isDisjoint(with: crossing), "\(i)")
                #expect(snap.list("badges") == ["▸ 3 states folded"], "\(i)")
                #expect(snap.list("folds") == ["▸ signingUp (folded)"], "\(i)")
                // The current state is inside the fold: the fold stands for it.
                #expect(snap.list("current") == [cluster], "\(i)")
                #expect(snap.text("move")?.hasSuffix("(inside folded signingUp)") == true, "\(i)")
            }
            #expect(snaps[0].list("current") == [ViewerTests.element("password", in: graph)])
            #expect(snaps[2].text("event") == trace.steps[3].event)
            #expect(snaps[3].list("current") == [ViewerTests.element(trace.steps[3].to, in: graph)])
        }

        @Test func hostileLabelsStayText() throws {
            let viewer = try ViewerTests.hostile()
            let evil = try #require(viewer.graph.id(ofLabel: ViewerTests.evil))
            let snaps = try Browser.drive(try viewer.html(), """
            fv.snap('start'); fv.key('ArrowRight'); fv.snap('step'); fv.hover('\(evil)'); fv.snap('hover');
            """)
            try #require(snaps.count == 3)
            for snap in snaps {
                #expect(snap.text("pwned") == "undefined")
                #expect(snap["scripts"] as? Int == 3)  // the data, the page's script and the driver
                #expect(snap.text("heading") == ViewerTests.evil + ViewerTests.quoted + ViewerTests.unicode)
                #expect(snap.text("title") == ViewerTests.evil + ViewerTests.quoted + ViewerTests.unicode)
            }
            #expect(snaps[0].list("effects") == [ViewerTests.quoted])
            #expect(snaps[1].text("event") == ViewerTests.control)
            #expect(snaps[1].list("effects") == [ViewerTests.evil, ViewerTests.control])
            #expect(snaps[1].text("move") == ViewerTests.evil + " → " + ViewerTests.unicode)
            #expect(snaps[2].text("state") == ViewerTests.evil)
            #expect(snaps[2].text("entry") == "Entry: " + ViewerTests.quoted)
            #expect(snaps[2].list("stateTransitions") == [
                ViewerTests.control + " [" + ViewerTests.quoted + "] → " + ViewerTests.unicode + " / "
                    + ViewerTests.evil + ", " + ViewerTests.control,
            ])
        }

        @Test func aParallelRunHighlightsEveryActiveLeaf() throws {
            let trace = try ViewerTests.mediaRun()
            let viewer = FlowViewer(Media.definition, trace: trace)
            let graph = viewer.graph
            var actions = "fv.snap('start');\n"
            for i in 1..<trace.steps.count { actions += "fv.key('ArrowRight'); fv.snap('step \(i)');\n" }
            actions += "fv.key('ArrowLeft'); fv.snap('back');\n"
            let snaps = try Browser.drive(try viewer.html(), actions)
            let expected = Array(trace.steps.indices) + [trace.steps.count - 2]
            try #require(snaps.count == expected.count)
            for (snap, index) in zip(snaps, expected) {
                let step = trace.steps[index]
                let name = snap.text("name") ?? "?"
                let leaves = step.leaves ?? [step.to]
                #expect(snap.list("current") == leaves.map { ViewerTests.element($0, in: graph) }.sorted(), "\(name)")
                let regions = leaves.count > 1 ? ["busy", "download", "player"] : []
                #expect(snap.list("active") == regions.map { ViewerTests.element($0, in: graph) }.sorted(), "\(name)")
                #expect(snap.list("taken") == ViewerTests.edgeClasses(step, in: graph), "\(name)")
                let move = (step.from ?? "start") + " → " + step.to
                #expect(snap.text("move") == move + (leaves.count > 1 ? " (active: " + leaves.joined(separator: ", ") + ")" : ""),
                        "\(name)")
            }
            #expect(snaps[1].list("current").count == 2)
        }

        @Test func aSupervisedMachinesRecordedRunSteps() throws {
            let supervisor = Supervisor()
            let recorder = FlowTraceRecorder(supervisor)
            let launch = try supervisor.start(FirstLaunch.definition, handler: recorder.recording { _, _ in })
            try supervisor.send(.createAccount, to: launch)
            let child = try #require(supervisor.machines.last)
            let signUp = try #require(supervisor.handle(of: child.id, as: SignUp.self))
            try supervisor.send(.submitEmail("ada@example.com"), to: signUp)
            try supervisor.send(.submitPassword("correct horse battery"), to: signUp)
            let outline = try #require(supervisor.outline(of: child.id))
            let trace = recorder.trace(of: child.id)
            let viewer = FlowViewer(outline, trace: trace)
            #expect(viewer.traceProblems.isEmpty)
            let snaps = try Browser.drive(try viewer.html(), "fv.key('End'); fv.snap('end'); fv.key('Home'); fv.snap('start');")
            try #require(snaps.count == 2 && trace.steps.count == 3)
            #expect(snaps[0].list("current") == [ViewerTests.element("twoFactor", in: viewer.graph)])
            #expect(snaps[0].list("taken") == ViewerTests.edgeClasses(trace.steps[2], in: viewer.graph))
            #expect(snaps[0].list("effects") == trace.steps[2].effects)
            #expect(snaps[1].list("current") == [ViewerTests.element("email", in: viewer.graph)])
        }
    }
}
