@testable import FlowSpec
import Flowstate
import Testing

/// Two tabs as regions: the stack opens its detail only while the account tab is selected.
enum InGuardTabs: Flow {
    enum State: Hashable, Sendable { case main, selection, onBrowse, onAccount, stack, root, detail }
    enum Event: FlowEvent { case selectAccount, open }
    typealias Effect = String
    typealias Output = String

    static let definition = FlowDefinition<InGuardTabs>("tabs", initial: .main) {
        Parallel(.main) {
            StateNode(.selection, initial: .onBrowse) {
                StateNode(.onBrowse)
                StateNode(.onAccount)
                On(.selectAccount, to: .onAccount)
            }
            StateNode(.stack, initial: .root) {
                StateNode(.root) { On(.open, guard: .in(.onAccount), to: .detail) }
                StateNode(.detail)
            }
        }
    }
}

/// Issue 37, item 3: `Guard.in` exported as the file formats' In-condition and read back as one, so
/// the Swift flow, the file's definition and its simulation agree.
///
/// The exporter reads which state an `in(_:)` guard asks about from the engine
/// (`FlowOutline.Transition.guardState`), never from the guard's name.
@Suite("Exported In guards")
struct ExportedInGuardTests {
    @Test("Guard.in(.onAccount) is exported as In('onAccount') in JSON and SCXML, and the file's simulation takes the Swift flow's steps")
    func roundTrip() throws {
        // The Swift flow: open is refused while the browse tab is selected.
        var machine = try FlowMachine(InGuardTabs.definition)
        _ = try machine.start()
        _ = try machine.send(.open)
        #expect(machine.isActive(.root) && !machine.isActive(.detail))

        let spec = FlowFile(InGuardTabs.definition)
        let open = try #require(spec.transitionsInDocumentOrder.first { $0.transition.event == "open" })
        #expect(open.transition.guardName == "In('onAccount')")
        #expect(spec.scxml().contains("cond=\"In('onAccount')\""), "\(spec.scxml())")

        let file = try FlowFile.parse(spec.json(), file: "tabs.json")
        let simulation = try FlowSimulation(file)
        try simulation.start()
        try simulation.send("open")
        #expect(simulation.configuration.contains("root") && !simulation.configuration.contains("detail"),
                "\(simulation.configuration)")
        try simulation.send("selectAccount")
        try simulation.send("open")
        #expect(simulation.configuration.contains("detail"), "\(simulation.configuration)")

        var read = try FlowMachine(file.definition())
        _ = try read.start()
        _ = try read.send(SpecEvent("open"))
        #expect(read.isActive("root") && !read.isActive("detail"))
    }
}
