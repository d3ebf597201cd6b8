import CoordinatorExamples
import FlowGraph
import FlowSpec
import FlowGraphviz
import Flowstate
import FlowstateExamples
import Foundation

// `make demo`: runs the sign-up flow of seed 004 and prints its trace, then draws every example flow
// to docs/flows/ (SVG through Graphviz in-process, plus DOT and Mermaid text) and prints the paths.

let definition = SignUp.definition
print("Flow '\(definition.name)': \(definition.states.count) states, \(definition.transitions.count) transitions")
let issues = definition.validate()
print(issues.isEmpty ? "Validation: no problems." : "Validation:\n" + issues.map { "  \($0)" }.joined(separator: "\n"))

let session: [SignUp.Event] = [
    .submitEmail("ada"), .submitEmail("ada@example.com"),
    .submitPassword("short"), .submitPassword("correct horse"),
    .back, .submitPassword("correct horse battery"),
    .submitCode("12"), .submitCode("123456"),
]

var steps: [FlowStep<SignUp>] = []
do {
    let runtime = try FlowRuntime(definition) { effect, _ in print("      perform \(effect)") }
    runtime.observe { step in
        steps.append(step)
        print("  \(step)")
    }
    print("\nTrace:")
    try runtime.start()
    for event in session { try runtime.send(event) }
    print("\nFinished: \(runtime.isFinished), output: \(runtime.output.map { "\($0)" } ?? "none")")
} catch {
    print("error: \(error)")
}

/// Writes a graph as SVG, DOT and Mermaid into docs/flows and returns the SVG's path.
func draw(_ graph: FlowDiagram, as name: String) throws -> String {
    let folder = URL(fileURLWithPath: "docs/flows", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var graph = graph
    LayoutPolicy.bound(&graph)  // what the renderer lays out safely (see LayoutPolicy)
    let dot = LayoutPolicy.dot(graph)  // what the renderer draws of the bounded graph
    try dot.write(to: folder.appendingPathComponent("\(name).dot"), atomically: true, encoding: .utf8)
    try MermaidWriter.mermaid(graph).write(to: folder.appendingPathComponent("\(name).mmd"), atomically: true, encoding: .utf8)
    let svg = folder.appendingPathComponent("\(name).svg")
    try Data(GraphvizRenderer.shared.render(dot: dot, format: .svg)).write(to: svg)
    // The legibility check reads the laid-out picture back from Graphviz: no label over another
    // label or a state, nothing clipped, every character drawn by an installed font.
    let problems = try GraphvizRenderer.shared.legibility(of: dot)
    for problem in problems { print("  warning: \(name): \(problem)") }
    return svg.path + (problems.isEmpty ? " (legible)" : " (\(problems.count) legibility problems)")
}

/// A live supervisor tree in the middle of seed 004's first launch: the sign-up child machine runs
/// inside the state that started it, on its password screen.
func liveTree() throws -> FlowDiagram {
    let supervisor = Supervisor()
    let launch = try supervisor.start(FirstLaunch.definition) { _, _ in }
    try supervisor.send(.createAccount, to: launch)
    if let child = supervisor.machines.last, let signUp = supervisor.handle(of: child.id, as: SignUp.self) {
        try supervisor.send(.submitEmail("ada@example.com"), to: signUp)
    }
    return FlowDiagram(supervisor: supervisor)
}

print("\nDiagrams:")
do {
    var traced = FlowDiagram(SignUp.definition)
    traced.overlay(FlowTrace(steps))
    let drawings: [(FlowDiagram, String)] = [
        (FlowDiagram(SignUp.definition), "sign-up"),
        (traced, "sign-up-trace"),
        (FlowDiagram(FirstLaunch.definition), "first-launch"),
        (FlowDiagram(PhotoCreation.definition), "photo-creation"),
        (FlowDiagram(Feed.definition), "feed"),
        (try liveTree(), "first-launch-live-tree"),
        // The coordinator examples (Examples/Coordinators), one diagram per flow.
        (FlowDiagram(KhanlouPhotos.app), "coordinators-khanlou-app"),
        (FlowDiagram(KhanlouPhotos.photo), "coordinators-khanlou-photo"),
        (FlowDiagram(FirstLaunchAccount.launch), "coordinators-first-launch"),
        (FlowDiagram(FirstLaunchAccount.newAccount), "coordinators-new-account"),
        (FlowDiagram(Assistant.persons), "coordinators-assistant-persons"),
        (FlowDiagram(Assistant.addPerson), "coordinators-assistant-add-person"),
        (FlowDiagram(OrderRouter.main), "coordinators-router-main"),
        (FlowDiagram(OrderRouter.order(session: OrderRouter.Session(), nextOrderID: { 0 })), "coordinators-router-order"),
        (FlowDiagram(Shop.app), "coordinators-shop-app"),
        (FlowDiagram(Shop.login), "coordinators-shop-login"),
        (FlowDiagram(Shop.twoFactor), "coordinators-shop-two-factor"),
    ]
    for (graph, name) in drawings {
        print("  \(try draw(graph, as: name))")
    }
} catch {
    print("error: \(error)")
}
// The same session as one interactive page (FlowViewer): step through it in a browser with ← →.
do {
    try FlowViewer(SignUp.definition, trace: FlowTrace(steps)).write(to: "docs/flows/sign-up-viewer.html")
    print("  docs/flows/sign-up-viewer.html (interactive)")
} catch {
    print("error: \(error)")
}

/// The app's Swift flows reach `flowviz` as files: one call writes the spec of a definition, or of
/// every flow alive in a supervisor's tree (each child flow in its own file, named as the parent's
/// state names it), in JSON and in SCXML.
func writeSpecs() throws -> [String] {
    let folder = URL(fileURLWithPath: "docs/flows/specs", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let supervisor = Supervisor()
    let launch = try supervisor.start(FirstLaunch.definition) { _, _ in }
    try supervisor.send(.createAccount, to: launch)
    var written: [String] = []
    for spec in FlowFile.specs(of: supervisor) + [FlowFile(PhotoCreation.definition), FlowFile(Feed.definition)] {
        for (text, ext) in [(spec.json(), "json"), (spec.scxml(), "scxml")] {
            let url = folder.appendingPathComponent("\(spec.name).\(ext)")
            try text.write(to: url, atomically: true, encoding: .utf8)
            written.append(url.path)
        }
    }
    return written
}

print("\nFlow files (try: swift run flowviz paths docs/flows/specs/first-launch.json):")
do {
    for path in try writeSpecs() { print("  \(path)") }
} catch {
    print("error: \(error)")
}

