import ArgumentParser
import FlowSpec

/// `flowviz routes FILE`
struct Routes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the deep links a flow file declares, and the shortest event path each takes.",
        discussion: """
        A JSON flow spec declares its deep links under "routes": [{"path": "/checkout/payment", \
        "state": "payment"}]. Each line says where a link leads and the events that take the flow \
        there from its start, found by running the flow on the engine (as paths finds them), with the \
        guards each step needs: path -> state: events. A link that no event sequence opens is an \
        error line at its place in the file.

        Exit status: 0 every route is reachable (or there are none); 1 a route's state is not reached; \
        2 a file cannot be read or parsed, or the flow is invalid (a route names an undeclared state); \
        3 the flow holds what is not run; 64 the command line is wrong.

        Example: flowviz routes docs/flows/checkout-routes.json
        """
    )

    @Argument(help: "The flow file (JSON flow spec; SCXML declares no routes).", completion: .file(extensions: ["json", "scxml"]))
    var file: String

    func run() async throws {
        let flow = try DiskFile.open(file)
        try flow.refuseWhatIsNotRun()
        let compiled = flow.spec.compile()
        try DiskFile.requireValid(compiled.validate(), orExit: 2)
        guard !flow.spec.routes.isEmpty else {
            print("no routes")
            return
        }
        let paths = try DiskFile.explore(compiled)
        var unreachable = false
        for route in flow.spec.routes {
            guard let events = paths.shortestPath(to: route.state) else {
                let place = route.location.map { "\($0)" } ?? file
                report("\(place): error: route '\(route.path)' opens '\(route.state)', which no event sequence reaches")
                unreachable = true
                continue
            }
            let line = events.isEmpty ? "(start)" : events.map(\.description).joined(separator: ", ")
            print("\(route.path) -> \(route.state): \(line)")
        }
        if unreachable { throw ExitCode(1) }
    }
}
