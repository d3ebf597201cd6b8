import FlowNavigation
import PropertyBased
import Testing

/// `NavigationLayout.commands(from:)`, the one way the coordinator changes the stacks of a tree whose
/// screens are declared: laws checked on random layouts, against what the layout says it shows.
@Suite("Declared screens: the commands that show a layout (issue 38)")
struct NavigationLayoutProperties {
    /// A layout decoded from small numbers, so that shrinking shrinks the layout: 0-5 push that screen
    /// on the current stack, 6 presents a new modal stack, 7 moves to the next tab, 8 selects the
    /// current tab. The first number says whether tabs (100, 101) are shown; without tabs, the root
    /// stack starts with 50.
    static func layout(_ codes: [Int]) -> NavigationLayout<Int> {
        let tabs = codes.first.map { $0 % 2 == 1 } ?? false
        var roots: [[Int]] = tabs ? [[100], [101]] : [[50]]
        var modals: [[Int]] = []
        var tab = 0, selected = 0
        for code in codes.dropFirst() {
            switch code {
            case 0...5:
                if modals.isEmpty { roots[tab].append(code) } else { modals[modals.count - 1].append(code) }
            case 6: modals.append([10 + modals.count])
            case 7: if tabs, modals.isEmpty { tab = (tab + 1) % 2 }
            default: if tabs { selected = tab }
            }
        }
        return NavigationLayout(roots: roots, showsTabs: tabs, selectedTab: selected, modals: modals)
    }

    static func show(_ layout: NavigationLayout<Int>, on model: inout NavigationModel<Int>) -> [String] {
        let (commands, problems) = layout.commands(from: model)
        var refused: [String] = []
        for command in commands {
            if let problem = model.apply(command).problem { refused.append(problem) }
        }
        return problems + refused
    }

    static let codes = Gen.int(in: 0...8).array(of: 0...14)

    @Test("From an empty navigator, the commands show exactly the layout, with no problem")
    func fromEmpty() async {
        await propertyCheck(count: 300, input: Self.codes) { codes in
            let layout = Self.layout(codes)
            var model = NavigationModel<Int>()
            let problems = Self.show(layout, on: &model)
            #expect(problems.isEmpty)
            #expect(model.stacks == layout.stacks && model.tabStacks == layout.tabStacks)
        }
    }

    @Test("From any layout shown to any other, the commands show the other, keep the screens both share at the bottom of a stack, and report a problem only for tabs replaced by a single stack")
    func fromAnother() async {
        await propertyCheck(count: 300, input: zip(Self.codes, Self.codes)) { first, second in
            let from = Self.layout(first), to = Self.layout(second)
            var model = NavigationModel<Int>()
            _ = Self.show(from, on: &model)
            let kept = model.items(in: .root(tab: 0)).first?.id
            let problems = Self.show(to, on: &model)
            if from.showsTabs && !to.showsTabs {
                #expect(problems.count == 1)
                return
            }
            #expect(problems.isEmpty)
            #expect(model.stacks == to.stacks && model.tabStacks == to.tabStacks)
            if from.showsTabs == to.showsTabs {
                #expect(model.items(in: .root(tab: 0)).first?.id == kept, "the root screen is the same item")
            }
            // Shown again, the layout asks for nothing.
            #expect(to.commands(from: model).commands.isEmpty)
        }
    }
}
