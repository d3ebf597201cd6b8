import CoordinatorExamples
import Foundation
import Testing

/// Runs the built `flowstate-examples` binary, as a user would.
enum ExamplesBinary {
    /// The binary sits beside the test bundle in the build folder.
    static let url: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("flowstate-examples")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "flowstate-examples")
    }()

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

@Suite("The examples as a product: flowstate-examples plays each seed scenario")
struct SeedScenarioTests {
    /// Whether `lines` holds `expected` in this order (other lines may come between).
    static func inOrder(_ lines: [String], _ expected: [String]) -> Bool {
        var rest = expected[...]
        for line in lines where rest.first == line { rest.removeFirst() }
        return rest.isEmpty
    }

    @Test("Khanlou (001): a photo is posted, the next is abandoned by a back gesture and a swipe")
    func khanlou() throws {
        let lines = try #require(SeedScenario.named("khanlou")).run()
        #expect(Self.inOrder(lines, [
            "== khanlou (seed 001): an app coordinator's feed starts a photo child flow; post one photo, go back and swipe the next away",
            "  stacks: [[feed]]",
            "> tap 'new photo'",
            "  screen: present picker",
            "  stacks: [[feed], [picker]]",
            "> pick a photo",
            "  screen: push editor",
            "  stacks: [[feed], [picker, editor]]",
            "> tap 'post'",
            "  screen: dismiss",
            "  flow: #2 completed: posted",
            "  stacks: [[feed]]",
            "> back gesture on the editor",
            "  user: went back from editor",
            "  stacks: [[feed], [picker]]",
            "> swipe the picker down",
            "  user: swiped picker down",
            "  flow: #3 torn down (owner released)",
            "  stacks: [[feed]]",
            "  machines: [\"khanlou-app in browsing\"]",
        ]), "\(lines.joined(separator: "\n"))")
    }

    @Test("Assistant (000, 002): a person saved into the list flow's context, the next discarded through the alert")
    func assistant() throws {
        let lines = try #require(SeedScenario.named("assistant")).run()
        #expect(Self.inOrder(lines, [
            "> tap '+'",
            "  screen: present addPerson",
            "> tap 'save'",
            "  screen: dismiss",
            "  flow: #2 completed: saved(\"Ada Lovelace\")",
            "  the list shows (the list flow's context): [\"Ada Lovelace\"]",
            "> tap 'cancel'",
            "  screen: alert 'Discard this person?' (Keep editing | Discard)",
            "  stacks: [[persons], [addPerson]] + alert 'Discard this person?' (Keep editing | Discard)",
            "> choose 'Keep editing'",
            "  user: chose alert button 0",
            "> choose 'Discard'",
            "  flow: #3 completed: discarded",
            "  stacks: [[persons]]",
            "  the list shows (the list flow's context): [\"Ada Lovelace\"]",
        ]), "\(lines.joined(separator: "\n"))")
    }

    @Test("Router (003): an order logs in first, its typed result comes back")
    func router() throws {
        let lines = try #require(SeedScenario.named("router")).run()
        #expect(Self.inOrder(lines, [
            "> tap 'order' (logged out)",
            "  screen: present login",
            "> log in",
            "  screen: push cart",
            "> tap 'checkout'",
            "  screen: push confirmation",
            "> tap 'confirm'",
            "  flow: #2 completed: placed(orderID: 1001)",
            "  results delivered to the main flow: placed(orderID: 1001)",
            "> tap 'order' (logged in)",
            "  screen: present cart",
            "> tap 'cancel'",
            "  stacks: [[home]]",
        ]), "\(lines.joined(separator: "\n"))")
    }

    @Test("First launch (004): a child bound to its screen dies with it; a back gesture; then home")
    func firstLaunch() throws {
        let lines = try #require(SeedScenario.named("first-launch")).run()
        #expect(Self.inOrder(lines, [
            "  stacks: [[welcome]]",
            "> tap 'create account'",
            "  stacks: [[welcome], [email]]",
            "> swipe the sign-up down",
            "  user: swiped email down",
            "  flow: #2 torn down (owner released)",
            "  stacks: [[welcome]]",
            "> back gesture on the password screen",
            "  user: went back from password",
            "  stacks: [[welcome], [email]]",
            "> enter the code, tap 'next'",
            "  flow: #3 completed: created",
            "  screen: push home",
            "  stacks: [[welcome, home]]",
            "  machines: [\"first-launch-account in home\"]",
        ]), "\(lines.joined(separator: "\n"))")
    }

    @Test("The shop (issue 38): the grandchild hears the back gesture; the restored tree shows its screens in one batch and hears the user; a deep link shows only the final stacks")
    func shop() throws {
        let lines = try #require(SeedScenario.named("shop")).run()
        #expect(Self.inOrder(lines, [
            "> back gesture on the code screen (the two-factor step's)",
            "  user: went back from code",
            "  flow: #3 asking --back--> cancelled",
            "  stacks: [[cart], [login]]",
            "> relaunch: restore the snapshot",
            "  screen: tabs home, cart",
            "  screen: select tab cart",
            "  screen: present login",
            "  screen: push code",
            "  stacks: [[cart], [login, code]]",
            "> enter the code, tap 'verify'",
            "  flow: #1 onCart, browsing, loggingIn, guest --loggedIn--> onCart, browsing, payment, member",
            "  stacks: [[cart, address, payment]]",
            "> open /checkout/payment",
            "  screen: select tab cart",
            "  screen: push address",
            "  screen: push payment",
            "  path: showCart, checkout, next, pay, loggedIn",
            "  stacks: [[cart, address, payment]]",
        ]), "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains("  screen: present login") || lines.firstIndex(of: "> open /checkout/payment")! > lines.lastIndex(of: "  screen: present login")!,
                "the deep link never shows the login sheet")
    }

    @Test("Every scenario plays to the end without a navigation problem, the same way twice")
    func everyScenario() throws {
        #expect(SeedScenario.all.map(\.name) == ["khanlou", "assistant", "router", "first-launch", "shop"])
        for scenario in SeedScenario.all {
            let lines = try scenario.run()
            #expect(try scenario.run() == lines, "deterministic")
            #expect(!lines.contains { $0.contains("failed") || $0.contains("refused") || $0.contains("dropped") })
        }
    }

    @Test("The binary: one scenario, all of them, --list, --help, a wrong name")
    func binary() throws {
        let router = try ExamplesBinary.run(["router"])
        #expect(router.status == 0, "\(router.stderr)")
        #expect(router.stdout == (try SeedScenario.named("router")!.run()).joined(separator: "\n") + "\n")

        let all = try ExamplesBinary.run([])
        #expect(all.status == 0)
        let expected = try SeedScenario.all.map { try $0.run().joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
        #expect(all.stdout == expected)
        #expect(try ExamplesBinary.run(["all"]).stdout == expected)

        let list = try ExamplesBinary.run(["--list"])
        #expect(list.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["khanlou", "assistant", "router", "first-launch", "shop"])

        let help = try ExamplesBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: flowstate-examples"))
        #expect(help.stdout.contains("Scenarios: khanlou, assistant, router, first-launch, shop, or all"))

        let wrong = try ExamplesBinary.run(["nope"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("unknown scenario 'nope'"))
    }
}
