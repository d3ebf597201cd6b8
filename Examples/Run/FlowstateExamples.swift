import ArgumentParser
import CoordinatorExamples

/// `flowstate-examples`: plays the seed articles' coordinator designs (`Examples/Coordinators`) as
/// scripted user sessions on the headless navigator and prints what happens.
@main
struct FlowstateExamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flowstate-examples",
        abstract: "Run the seed articles' coordinator designs, and the shop, headlessly and print what happens.",
        discussion: """
        Each scenario is a scripted user session on a HeadlessNavigator: lines starting with > are \
        what the user does, 'screen:' the navigation the flows perform, 'user:' the navigation the \
        user did on their own, 'flow:' the supervisor's tree events (transitions, children spawned, \
        completed with their output, torn down), 'stacks:' the navigation stacks after the action.

        Scenarios: \(SeedScenario.all.map(\.name).joined(separator: ", ")), or all (the default).

        Exit status: 0 success; 1 a flow refused a step; 64 the command line is wrong.

        Example: flowstate-examples router
        """
    )

    @Argument(help: "The scenarios to run, by name (default: all).")
    var scenarios: [String] = []

    @Flag(help: "List the scenarios, one per line: name, seeds, summary.")
    var list = false

    func validate() throws {
        for name in scenarios where name != "all" && SeedScenario.named(name) == nil {
            throw ValidationError(
                "unknown scenario '\(name)'; choose from: \(SeedScenario.all.map(\.name).joined(separator: ", ")), all")
        }
    }

    func run() throws {
        if list {
            for scenario in SeedScenario.all {
                print("\(scenario.name)\tseed \(scenario.seeds)\t\(scenario.summary)")
            }
            return
        }
        let chosen = scenarios.isEmpty || scenarios.contains("all")
            ? SeedScenario.all : scenarios.compactMap(SeedScenario.named)
        for (index, scenario) in chosen.enumerated() {
            if index > 0 { print("") }
            for line in try scenario.run() { print(line) }
        }
    }
}
