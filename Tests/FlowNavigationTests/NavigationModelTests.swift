@testable import FlowNavigation
import Testing

/// The platform-free logic behind every navigator: what each command does to the model and which
/// operations an adapter performs, what each report of the user's navigation does and which events it
/// yields, in which order. The UIKit and SwiftUI adapters only forward these (docs/ADAPTERS.md).
@Suite("Navigation model: commands, operations, reports of the user's navigation")
struct NavigationModelTests {
    typealias Model = NavigationModel<String>
    typealias Item = NavigationItem<String>

    /// A model after these commands, each of which must be performed.
    static func model(_ commands: [NavigatorCommand<String>]) -> Model {
        var model = Model()
        for command in commands {
            let update = model.apply(command)
            #expect(update.problem == nil, "\(command)")
        }
        return model
    }

    @Test("docs/ADAPTERS.md: the model in a few lines")
    func article() {
        var model = NavigationModel<String>()
        _ = model.apply(.push("feed"))
        _ = model.apply(.push("post"))
        let update = model.apply(.push("comments"))
        #expect(update.operations == [.push(NavigationItem(id: 2, screen: "comments"), on: .root(tab: 0))])
        let events = model.reconcile(.popped(.root(tab: 0), remaining: 1))   // a long press on back
        #expect(events == [.wentBack(from: "comments"), .wentBack(from: "post")])
        #expect(model.stacks == [["feed"]])
    }

    // MARK: Commands

    @Test("push: on the top stack (the root, a modal, the selected tab); the new item retains the lifetime")
    func push() {
        var model = Model()
        var update = model.apply(.push("a"))
        #expect(update == NavigationUpdate(operations: [.push(Item(id: 0, screen: "a"), on: .root(tab: 0))], retainer: 0))
        update = model.apply(.present("m"))
        update = model.apply(.push("b"))
        #expect(update.operations == [.push(Item(id: 2, screen: "b"), on: .modal(level: 0))])
        #expect(model.stacks == [["a"], ["m", "b"]])
        #expect(model.topPosition == .modal(level: 0) && model.top == "b")

        var tabs = Self.model([.tabs(["x", "y"]), .selectTab("y")])
        update = tabs.apply(.push("z"))
        #expect(update.operations == [.push(Item(id: 3, screen: "z"), on: .root(tab: 1))])
        #expect(tabs.tabStacks == [["x"], ["y", "z"]])
    }

    @Test("present: a new modal stack over the top one, at the next level")
    func present() {
        var model = Self.model([.push("a")])
        #expect(model.apply(.present("m")).operations == [.present(Item(id: 1, screen: "m"), level: 0)])
        let update = model.apply(.present("n"))
        #expect(update == NavigationUpdate(operations: [.present(Item(id: 2, screen: "n"), level: 1)], retainer: 2))
        #expect(model.stacks == [["a"], ["m"], ["n"]])
    }

    @Test("pop and popToRoot: act on the top stack; a pop of a root is a problem, a popToRoot at the root is nothing")
    func pop() {
        var model = Self.model([.push("a"), .push("b"), .push("c"), .present("m")])
        #expect(model.apply(.pop).problem == "pop on the root of a stack ([[\"a\", \"b\", \"c\"], [\"m\"]])")
        #expect(model.apply(.popToRoot) == NavigationUpdate())
        #expect(model.apply(.dismiss).operations == [.dismiss(level: 0)])
        #expect(model.apply(.pop).operations == [.pop(.root(tab: 0), toCount: 2)])
        #expect(model.apply(.push("d")).problem == nil)
        #expect(model.apply(.popToRoot).operations == [.pop(.root(tab: 0), toCount: 1)])
        #expect(model.stacks == [["a"]])
        var empty = Model()
        #expect(empty.apply(.pop).problem != nil)
        #expect(empty.apply(.popToRoot) == NavigationUpdate())
    }

    @Test("dismiss: the top modal stack only; with none it is a problem")
    func dismiss() {
        var model = Self.model([.push("a"), .present("m"), .push("m2"), .present("n")])
        #expect(model.apply(.dismiss).operations == [.dismiss(level: 1)])
        #expect(model.stacks == [["a"], ["m", "m2"]])
        #expect(model.apply(.dismiss).operations == [.dismiss(level: 0)])
        #expect(model.apply(.dismiss).problem == "dismiss with no modal stack ([[\"a\"]])")
    }

    @Test("tabs: replace the root, keep the modals, select the first; the tab bar retains the lifetime")
    func tabs() {
        var model = Self.model([.push("a"), .push("b"), .present("m")])
        let update = model.apply(.tabs(["x", "y"]))
        #expect(update == NavigationUpdate(operations: [.showTabs([Item(id: 3, screen: "x"), Item(id: 4, screen: "y")])],
                                           retainer: 5))
        #expect(model.tabBarID == 5 && model.showsTabs && model.selectedTab == 0)
        #expect(model.stacks == [["x"], ["m"]] && model.tabStacks == [["x"], ["y"]])
        #expect(model.ids == [2, 3, 4, 5], "the old root's items are gone")
        #expect(model.apply(.tabs(["x", "x"])).problem == "tabs need distinct root screens ([\"x\", \"x\"])")
        #expect(model.apply(.tabs([])).problem != nil)
        #expect(model.tabStacks == [["x"], ["y"]])
    }

    @Test("selectTab: selects a tab by its root; the selected one is nothing; an unknown one is a problem")
    func selectTab() {
        var model = Self.model([.tabs(["x", "y"])])
        #expect(model.apply(.selectTab("y")).operations == [.selectTab(1)])
        #expect(model.selectedTabRoot == "y")
        #expect(model.apply(.selectTab("y")) == NavigationUpdate())
        #expect(model.apply(.selectTab("z")).problem == "no tab whose root is z ([[\"x\"], [\"y\"]])")
        var noTabs = Self.model([.push("x")])
        #expect(noTabs.apply(.selectTab("x")).problem != nil)
    }

    @Test("alert: shown over everything; a new one replaces it; a present or dismiss under it takes it down and shows it again")
    func alert() {
        var model = Self.model([.push("a")])
        let first = NavigationAlert(title: "Discard?", choices: ["Keep", "Discard"], cancelIndex: 0)
        #expect(model.apply(.alert(title: "Discard?", choices: ["Keep", "Discard"]), cancelIndex: 0).operations
                == [.showAlert(first)])
        let second = NavigationAlert(title: "Sure?", choices: ["Yes"])
        #expect(model.apply(.alert(title: "Sure?", choices: ["Yes"])).operations == [.hideAlert, .showAlert(second)])
        #expect(model.apply(.present("m")).operations
                == [.hideAlert, .present(Item(id: 1, screen: "m"), level: 0), .showAlert(second)])
        #expect(model.apply(.push("b")).operations == [.push(Item(id: 2, screen: "b"), on: .modal(level: 0))],
                "a push under the alert leaves it")
        #expect(model.apply(.dismiss).operations == [.hideAlert, .dismiss(level: 0), .showAlert(second)])
        #expect(model.alert == second)
        #expect(NavigationAlert(title: "t", choices: ["a"], cancelIndex: 3).cancelIndex == nil, "out of range")
    }

    // MARK: Reports of the user's navigation

    @Test("The back gesture: one screen gone, reported after the model dropped it")
    func backGesture() {
        var model = Self.model([.push("a"), .push("b")])
        #expect(model.reconcile(.popped(.root(tab: 0), remaining: 1)) == [.wentBack(from: "b")])
        #expect(model.stacks == [["a"]])
        #expect(model.ids == [0])
    }

    @Test("A long press on back pops several screens: one wentBack per screen, the top one first")
    func multiPop() {
        var model = Self.model([.push("a"), .present("m"), .push("m1"), .push("m2"), .push("m3")])
        #expect(model.reconcile(.popped(.modal(level: 0), remaining: 1))
                == [.wentBack(from: "m3"), .wentBack(from: "m2"), .wentBack(from: "m1")])
        #expect(model.stacks == [["a"], ["m"]])
    }

    @Test("UIKit reports every transition: a stack as long as the model's, or longer, or emptied, is no event")
    func poppedNoChange() {
        var model = Self.model([.push("a"), .push("b")])
        #expect(model.reconcile(.popped(.root(tab: 0), remaining: 2)).isEmpty)
        #expect(model.reconcile(.popped(.root(tab: 0), remaining: 3)).isEmpty)
        #expect(model.reconcile(.popped(.root(tab: 0), remaining: 0)).isEmpty, "a stack keeps its root")
        #expect(model.reconcile(.popped(.modal(level: 0), remaining: 1)).isEmpty, "no such stack")
        #expect(model.reconcile(.popped(.root(tab: 3), remaining: 1)).isEmpty)
        #expect(model.stacks == [["a", "b"]])
    }

    @Test("A tab's stack popped by a second tap on the tab (UIKit pops it to its root)")
    func tabReselectPops() {
        var model = Self.model([.tabs(["x", "y"]), .push("x1"), .push("x2")])
        #expect(model.reconcile(.popped(.root(tab: 0), remaining: 1)) == [.wentBack(from: "x2"), .wentBack(from: "x1")])
        #expect(model.tabStacks == [["x"], ["y"]])
    }

    @Test("SwiftUI's path: a shorter prefix is going back; the same path, a longer or a different one is not adopted")
    func path() {
        var model = Self.model([.push("a"), .push("b"), .push("c")])
        let items = model.items(in: .root(tab: 0))
        #expect(model.reconcile(.path(Array(items[1...]), of: .root(tab: 0))).isEmpty, "unchanged")
        #expect(model.reconcile(.path([items[1], Item(id: 99, screen: "c")], of: .root(tab: 0))).isEmpty)
        #expect(model.reconcile(.path([items[2]], of: .root(tab: 0))).isEmpty, "not a prefix")
        #expect(model.reconcile(.path(Array(items[1...]) + [Item(id: 99, screen: "d")], of: .root(tab: 0))).isEmpty)
        #expect(model.stacks == [["a", "b", "c"]])
        #expect(model.reconcile(.path([], of: .root(tab: 0))) == [.wentBack(from: "c"), .wentBack(from: "b")])
        #expect(model.stacks == [["a"]])
        var empty = Model()
        #expect(empty.reconcile(.path([], of: .root(tab: 0))).isEmpty)
    }

    @Test("A swipe down of the top modal stack: dismissed with its root; what it pushed goes with it")
    func swipeDown() {
        var model = Self.model([.push("a"), .present("m"), .push("m1"), .present("n"), .push("n1")])
        #expect(model.reconcile(.dismissed(level: 1)) == [.dismissed("n")])
        #expect(model.stacks == [["a"], ["m", "m1"]])
        #expect(model.ids == [0, 1, 2])
    }

    @Test("A lower modal dismissed (a sheet binding set to nil under others): every stack from it up, the top one first")
    func lowerModal() {
        var model = Self.model([.push("a"), .present("m"), .present("n"), .push("n1"), .present("o")])
        #expect(model.reconcile(.dismissed(level: 0)) == [.dismissed("o"), .dismissed("n"), .dismissed("m")])
        #expect(model.stacks == [["a"]])
        #expect(model.reconcile(.dismissed(level: 0)).isEmpty, "nothing left to dismiss")
    }

    @Test("A dismissal that names a root: only counts while that root is still shown at that level")
    func dismissedRoot() {
        var model = Self.model([.push("a"), .present("m")])
        let old = model.modals[0][0].id
        _ = model.apply(.dismiss)
        _ = model.apply(.present("m"))   // the same screen, a new sheet
        #expect(model.reconcile(.dismissed(level: 0, root: old)).isEmpty, "a late write for the old sheet")
        #expect(model.reconcile(.dismissed(level: 0, root: model.modals[0][0].id)) == [.dismissed("m")])
    }

    @Test("A tab selected: reported with its root, once; not when it is already selected or unknown")
    func tabSelected() {
        var model = Self.model([.tabs(["x", "y"])])
        #expect(model.reconcile(.selectedTab(1)) == [.selectedTab("y")])
        #expect(model.selectedTab == 1)
        #expect(model.reconcile(.selectedTab(1)).isEmpty)
        #expect(model.reconcile(.selectedTab(2)).isEmpty)
        var noTabs = Self.model([.push("x")])
        #expect(noTabs.reconcile(.selectedTab(0)).isEmpty)
    }

    @Test("An alert answered: the choice's index; the alert is gone; no alert or a wrong index is nothing")
    func alertAnswered() {
        var model = Self.model([.push("a"), .alert(title: "t", choices: ["x", "y"])])
        #expect(model.reconcile(.choseAlert(index: 2)).isEmpty)
        #expect(model.reconcile(.choseAlert(index: 1)) == [.choseAlert(index: 1)])
        #expect(model.alert == nil)
        #expect(model.reconcile(.choseAlert(index: 0)).isEmpty)
    }

    // MARK: Lifetimes

    final class Lifetime {}

    @Test("The store retains each lifetime while its screen or tab bar is shown, and releases it before the report is returned")
    func lifetimes() {
        let store = NavigationStore<String>()
        weak var pushed: Lifetime?
        weak var presented: Lifetime?
        weak var bar: Lifetime?
        do {
            let a = Lifetime(), b = Lifetime()
            pushed = a
            presented = b
            store.perform(.push("a"), retaining: nil)
            store.perform(.push("b"), retaining: a)
            store.perform(.present("m"), retaining: b)
            store.perform(.pop, retaining: Lifetime())   // a lifetime with a pop is not retained
            store.perform(.alert(title: "t", choices: []), retaining: Lifetime())
        }
        #expect(pushed != nil && presented != nil && store.retainedCount == 2)
        #expect(store.reconcile(.dismissed(level: 0)) == [.dismissed("m")])
        #expect(presented == nil, "released by the time the events are returned")
        #expect(store.reconcile(.popped(.root(tab: 0), remaining: 1)) == [.wentBack(from: "b")])
        #expect(pushed == nil && store.retainedCount == 0)
        do {
            let c = Lifetime()
            bar = c
            store.perform(.tabs(["x", "y"]), retaining: c)
        }
        #expect(bar != nil)
        store.perform(.tabs(["x", "z"]), retaining: nil)
        #expect(bar == nil, "a new tab bar releases the old one's lifetime")
        #expect(store.perform(.dismiss, retaining: nil).problem != nil)
    }
}
