import FlowSpec
import Flowstate
import FlowTestSupport
import Foundation
import Testing

/// Deep links in flow files (issue 38, item 4): `"routes"` in the JSON flow spec, read and written,
/// validated, and listed with their paths by `flowviz routes`.
@Suite("flowviz routes: a flow file's deep links and the path each takes")
struct RoutesCommandTests {
    static let shop = """
    {
      "flowspec": 1,
      "name": "shop",
      "initial": "home",
      "states": [
        {"name": "home", "transitions": [{"event": "showCart", "target": "cart"}]},
        {"name": "cart", "transitions": [{"event": "checkout", "target": "address"}]},
        {"name": "address", "transitions": [{"event": "next", "target": "payment"}]},
        {"name": "payment", "transitions": [{"event": "pay", "guard": "logged in", "target": "placed"}]},
        {"name": "placed"},
        {"name": "orders"}
      ],
      "routes": [
        {"path": "/checkout/payment", "state": "payment"},
        {"path": "/placed", "state": "placed"}
      ]
    }
    """

    @Test("Routes are read with their places, written back, and survive a round trip")
    func roundTrip() throws {
        let spec = try FlowFile.parse(Self.shop, file: "shop.json")
        #expect(spec.routes.map(\.path) == ["/checkout/payment", "/placed"])
        #expect(spec.routes.map(\.state) == ["payment", "placed"])
        #expect(spec.routes[0].location?.line == 14)
        let again = try FlowFile.parse(spec.json(), file: "again.json")
        #expect(again.routes.map { [$0.path, $0.state] } == spec.routes.map { [$0.path, $0.state] })
        #expect(again.json() == spec.json())
    }

    @Test("A route to an undeclared state is an unknown-target error at its place")
    func unknownState() throws {
        let text = Self.shop.replacingOccurrences(of: #""state": "placed"}"#, with: #""state": "nowhere"}"#)
        let issues = try FlowFile.parse(text, file: "shop.json").validate()
        let issue = try #require(issues.first { $0.kind == .unknownTarget })
        #expect(issue.message == "route '/placed' opens 'nowhere', which is not a declared state")
        #expect(issue.location?.line == 15)
    }

    @Test("flowviz routes prints each route's shortest path, with the guards a step needs")
    func listed() throws {
        let scratch = try Scratch()
        let file = try scratch.file("shop.json", Self.shop)
        let result = try Flowviz.run(["routes", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
        /checkout/payment -> payment: showCart, checkout, next
        /placed -> placed: showCart, checkout, next, pay[logged in]

        """)
    }

    @Test("A route no event sequence opens: one error line at its place, exit 1")
    func unreachable() throws {
        let scratch = try Scratch()
        let text = Self.shop.replacingOccurrences(of: #""state": "placed"}"#, with: #""state": "orders"}"#)
        let file = try scratch.file("shop.json", text)
        let result = try Flowviz.run(["routes", file])
        #expect(result.status == 1)
        #expect(result.stdout == "/checkout/payment -> payment: showCart, checkout, next\n")
        #expect(result.stderr == "\(file):15:5: error: route '/placed' opens 'orders', which no event sequence reaches\n")
    }

    @Test("Converted to SCXML, a file's routes are said to be left out")
    func convertNotes() throws {
        let scratch = try Scratch()
        let file = try scratch.file("shop.json", Self.shop)
        let result = try Flowviz.run(["convert", file, "--to", "scxml"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("SCXML leaves out the deep links (\"routes\")"), "\(result.stderr)")
    }
}
