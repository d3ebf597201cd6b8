import FlowGraph
import FlowSpec
import FlowSpecTestSupport
import FlowTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import Testing

/// A nested flow as a JSON flow spec, for `flowviz`: compound states hold their children, each
/// transition is declared on its source with its event as the label's first word.
func nestedSpec(_ graph: FlowDiagram) -> String {
    var children: [String?: [FlowDiagram.Node]] = [:]
    for node in graph.nodes { children[node.parent, default: []].append(node) }
    var outgoing: [String: [FlowDiagram.Edge]] = [:]
    for edge in graph.edges { outgoing[edge.from, default: []].append(edge) }
    func label(_ id: String) -> String { graph.node(id)?.label ?? id }
    func state(_ node: FlowDiagram.Node) -> String {  // three levels deep at most: recursion is fine here
        var fields = ["\"name\": \"\(node.label)\""]
        if node.kind == .final { fields.append("\"final\": true") }
        let transitions = (outgoing[node.id] ?? []).map { edge in
            "{ \"event\": \"\(edge.events[0] ?? "go")\", \"target\": \"\(label(edge.to))\" }"
        }
        if !transitions.isEmpty { fields.append("\"transitions\": [\(transitions.joined(separator: ", "))]") }
        if let inner = children[node.id] { fields.append("\"states\": [\(inner.map(state).joined(separator: ",\n"))]") }
        return "{ " + fields.joined(separator: ", ") + " }"
    }
    let top = (children[nil] ?? []).map(state).joined(separator: ",\n")
    return "{ \"flowspec\": 1, \"name\": \"\(graph.name)\", \"initial\": \"\(label(graph.initial ?? ""))\", \"states\": [\n\(top)\n] }\n"
}

/// What the flowviz commands do with flow files beyond the basics (`FlowvizTests`): validation of a
/// final state's child, parallel files, time limits, collapsed pictures, the interactive page.
@Suite("flowviz: validate, simulate, paths, render and view on particular flows")
struct FlowvizCommandTests {
    @Test("flowviz validate refuses a final state that runs a child flow with one line and exit 1 (issue 21)")
    func validateFinalStateWithChild() throws {
        let scratch = try Scratch()
        let file = try scratch.file("login.json", SpecSamples.finalStateWithChild)
        let result = try Flowviz.run(["validate", file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(file):4:5: error: final state 'done' runs child flow 'twoFactor'"))
    }

    @Test("flowviz simulate and paths run a parallel file")
    func parallelFile() throws {
        let path = try flowFile("player.scxml").path
        let simulate = try Flowviz.run(["simulate", path, "--events", "play,toggleSound"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        #expect(simulate.stdout.contains("idle --play--> muted, small"), "\(simulate.stdout)")
        #expect(simulate.stdout.contains("muted, small --toggleSound--> audible, small"), "\(simulate.stdout)")
        let paths = try Flowviz.run(["paths", path])
        #expect(paths.status == 0, "\(paths.stderr)")
        #expect(paths.stdout.contains("audible"), "\(paths.stdout)")
    }

    @Test("flowviz simulate --time-limit: one line, exit 1; the default is documented in --help; a bad value is a usage error")
    func simulateTimeLimit() throws {
        let scratch = try Scratch()
        let file = try scratch.file("busy.scxml", SpecSamples.busy)
        let run = try Flowviz.run(["simulate", file, "--time-limit", "0.05"])
        #expect(run.status == 1)
        #expect(run.stderr == "\(file): error: more than 50ms of processing: the run was stopped (a document that keeps itself busy)\n",
                "\(run.stderr)")
        let help = try Flowviz.run(["simulate", "--help"])
        #expect(help.stdout.contains("--time-limit") && help.stdout.contains("(default 10"), "\(help.stdout)")
        for bad in ["-1", "nan", "soon"] {
            let wrong = try Flowviz.run(["simulate", file, "--time-limit", bad])
            #expect(wrong.status == 64, "--time-limit \(bad): \(wrong.stderr)")
        }
    }

    @Test("--guard is read by one function for simulate and view: NAME=true|false is accepted, anything else is a usage error naming it")
    func guardDefaultsOption() throws {
        let path = try flowFile("player.scxml").path
        for command in [["simulate", path, "--events", "play"], ["view", path, "--events", "play", "-o", "-"]] {
            let good = try Flowviz.run(command + ["--guard", "ready=false"])
            #expect(good.status == 0, "\(command[0]): \(good.stderr)")
            for bad in ["ready", "ready=yes", "=maybe"] {
                let wrong = try Flowviz.run(command + ["--guard", bad])
                #expect(wrong.status == 64, "\(command[0]) --guard \(bad): \(wrong.stderr)")
                #expect(wrong.stderr.contains("--guard '\(bad)' must be NAME=true or NAME=false"),
                        "\(command[0]): \(wrong.stderr)")
            }
        }
    }

    @Test("flowviz render collapses a big nested flow by itself, and --collapse, --cluster and --pages choose")
    func flowvizOptions() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.folder) }
        let generated = LegibilityFlows.generated(400, nested: true)
        let spec = try scratch.file("big.json", nestedSpec(generated))
        let auto = try Flowviz.run(["render", spec, "-o", scratch.path("auto.dot")])
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(auto.stderr.contains("note: \(generated.nodes.count) states are too many for one picture"), "\(auto.stderr)")
        let autoDOT = try String(contentsOfFile: scratch.path("auto.dot"), encoding: .utf8)
        #expect(autoDOT.contains(FlowDiagram.collapsedStatesAttribute))

        let whole = try Flowviz.run(["render", spec, "-o", scratch.path("whole.dot"), "--collapse", "none"])
        #expect(whole.status == 0 && whole.stderr.isEmpty)
        #expect(try !String(contentsOfFile: scratch.path("whole.dot"), encoding: .utf8).contains(FlowDiagram.collapsedStatesAttribute))

        let top = try Flowviz.run(["render", spec, "-o", scratch.path("top.mmd"), "--collapse", "0"])
        #expect(top.status == 0 && top.stderr.isEmpty, "a depth asked for is no surprise")
        #expect(try String(contentsOfFile: scratch.path("top.mmd"), encoding: .utf8).contains("group 0<br/>22 states"))

        let cluster = try Flowviz.run(["render", spec, "-o", scratch.path("group.svg"), "--cluster", "group 7",
                                       "--highlight", "state 17"])
        #expect(cluster.status == 0, "\(cluster.stderr)")
        let svg = try String(contentsOfFile: scratch.path("group.svg"), encoding: .utf8)
        #expect(svg.contains("↗ state") && svg.contains("#ffe08a"), "stubs, and the highlighted state")

        let paged = try Flowviz.run(["render", spec, "-o", scratch.path("pages.svg"), "--pages", "--collapse", "1"])
        #expect(paged.status == 0, "\(paged.stderr)")
        let written = paged.stdout.split(separator: "\n").map(String.init)
        #expect(written.first == scratch.path("pages.svg") && written.count == 1 + 50, "the overview, then 50 parts")
        #expect(written.allSatisfy { FileManager.default.fileExists(atPath: $0) })

        let huge = try Flowviz.run(["render", spec, "-o", scratch.path("huge.dot"), "--collapse", "\(Int.max)"])
        #expect(huge.status == 0, "deeper than the flow: nothing collapsed \(huge.stderr)")
        #expect(try String(contentsOfFile: scratch.path("huge.dot"), encoding: .utf8) == String(contentsOfFile: scratch.path("whole.dot"), encoding: .utf8))
        for bad in [["--collapse", "deep"], ["--collapse", "-1"], ["--pages", "--cluster", "group 0"]] {
            #expect(try Flowviz.run(["render", spec, "-o", scratch.path("x.svg")] + bad).status == 64, "\(bad)")
        }
        let unknown = try Flowviz.run(["render", spec, "-o", scratch.path("x.svg"), "--cluster", "state 3"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no compound state 'state 3'"))
    }

    @Test func theCommandWritesAPageAndSaysWhatIsWrongInOneLine() throws {
        let scratch = try Scratch()
        let spec = try scratch.file("sign-up.json", FlowFile(SignUp.definition).json())
        let out = scratch.path("sign-up.html")
        let written = try Flowviz.run(["view", spec, "--events", "submitEmail,submitPassword", "-o", out])
        #expect(written.status == 0, "\(written.stderr)")
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<svg"))
        #expect(page.contains("id=\"fvn_s0\""))

        // A trace written by simulate.
        let traceFile = scratch.path("run.json")
        let simulated = try Flowviz.run(["simulate", spec, "--events", "submitEmail", "--trace-out", traceFile])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fromTrace = try Flowviz.run(["view", spec, "--trace", traceFile, "-o", "-"])
        #expect(fromTrace.status == 0, "\(fromTrace.stderr)")
        #expect(fromTrace.stdout.contains("\"event\":\"submitEmail\""))

        // Errors: one line each, with the documented status.
        let missing = try Flowviz.run(["view", scratch.path("nope.json"), "-o", out])
        #expect(missing.status == 2)
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let both = try Flowviz.run(["view", spec, "--events", "a", "--trace", traceFile, "-o", out])
        #expect(both.status == 64)
        let alien = try scratch.file("alien.json", #"{"flowtrace": 1, "steps": [{"to": "nowhere"}]}"#)
        let unfit = try Flowviz.run(["view", spec, "--trace", alien, "-o", out])
        #expect(unfit.status == 2)
        #expect(unfit.stderr.contains("'nowhere', which is not a state of the flow"))
        #expect(unfit.stderr.split(separator: "\n").count == 1)
        let badTrace = try scratch.file("bad.json", "{\"flowtrace\": 1, \"steps\": [")
        let unreadable = try Flowviz.run(["view", spec, "--trace", badTrace, "-o", out])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.split(separator: "\n").count == 1)
        let help = try Flowviz.run(["view", "--help"])
        #expect(help.stdout.contains("Exit status: 0 written"))

        // Standard input.
        let process = Process()
        process.executableURL = Flowviz.binary
        process.arguments = ["view", "-", "-o", "-"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(try String(contentsOfFile: spec, encoding: .utf8).utf8))
        try input.fileHandleForWriting.close()
        let piped = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(piped.contains("<svg"))
    }
}

/// The page `flowviz view` writes, driven in Chromium (`ViewerTests.InBrowser` in FlowGraphvizTests
/// drives the pages `FlowViewer` makes).
@Suite(.serialized, .enabled(if: Browser.path != nil, Comment(rawValue: Browser.missing)))
struct FlowvizViewInBrowserTests {
    @Test func aTraceFromSimulateCarriesEffectsAndOneWithoutShowsDeclaredOnes() throws {
        let scratch = try Scratch()
        let spec = try scratch.file("sign-up.json", FlowFile(SignUp.definition).json())
        let traceFile = scratch.path("run.json")
        let simulated = try Flowviz.run(["simulate", spec, "--events", "submitEmail,submitPassword", "--trace-out", traceFile])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        // The same trace without its effects, as an older or hand-written trace file has it.
        var bare = try FlowTrace.parse(Array(try Data(contentsOf: URL(fileURLWithPath: traceFile))), file: traceFile)
        for i in bare.steps.indices { bare.steps[i].effects = nil }
        let bareFile = try scratch.file("bare.json", bare.json())
        let fromTrace = try Flowviz.run(["view", spec, "--trace", traceFile, "-o", "-"])
        let fromBare = try Flowviz.run(["view", spec, "--trace", bareFile, "-o", "-"])
        let fromEvents = try Flowviz.run(["view", spec, "--events", "submitEmail,submitPassword", "-o", "-"])
        #expect(fromTrace.status == 0 && fromBare.status == 0 && fromEvents.status == 0)
        let actions = "fv.snap('start'); fv.key('ArrowRight'); fv.key('ArrowRight'); fv.snap('twoFactor');"
        let traced = try Browser.drive(fromTrace.stdout, actions)
        let untraced = try Browser.drive(fromBare.stdout, actions)
        let simulatedRun = try Browser.drive(fromEvents.stdout, actions)
        try #require(traced.count == 2 && untraced.count == 2 && simulatedRun.count == 2)
        // A trace without effects: the page says so and shows the transitions' declared ones.
        #expect(untraced[1].text("effectsTitle") == "Effects (declared)")
        #expect(untraced[1].list("effects") == ["push(twoFactor)"])
        #expect(untraced[0].text("effectsNone") == "none (the run did not record effects)")
        // Simulated by the command, or read back from simulate's trace, the run carries what was
        // performed (the entry effect too).
        for run in [traced, simulatedRun] {
            #expect(run[1].text("effectsTitle") == "Effects")
            #expect(run[1].list("effects") == ["push(twoFactor)", "sendCode"])
            #expect(run[0].list("effects") == ["present(email)"])
        }
        for snaps in [traced, untraced, simulatedRun] {
            #expect(snaps[1].text("position") == "Step 3 of 3")
            #expect(snaps[1].text("move") == "password → twoFactor")
            #expect(snaps[1].list("current") == ["fvn_s3"])
        }
    }
}
