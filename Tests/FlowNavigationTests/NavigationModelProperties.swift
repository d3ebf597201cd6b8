@testable import FlowNavigation
import PropertyBased
import Testing

/// The headless navigator as it was before it kept a `NavigationModel` (the stacks as arrays of
/// screens, lifetimes left out), kept as the reference the model must agree with. The user's
/// compound navigation is played as its primitive steps: popping several screens is going back once
/// per screen, dismissing a lower modal is swiping down each modal from the top.
final class ReferenceNavigator {
    var roots: [[Int]] = [[]]
    var selected = 0
    var showsTabs = false
    var modals: [[Int]] = []
    var alert: (title: String, choices: [String])?
    var problems: [String] = []
    var heard: [UserNavigation<Int>] = []

    var stacks: [[Int]] { [roots[selected]] + modals }
    var tabStacks: [[Int]] { showsTabs ? roots : [] }

    func withTopStack<R>(_ body: (inout [Int]) -> R) -> R {
        if modals.isEmpty { body(&roots[selected]) } else { body(&modals[modals.count - 1]) }
    }

    func perform(_ command: NavigatorCommand<Int>) {
        switch command {
        case .push(let screen): withTopStack { $0.append(screen) }
        case .present(let screen): modals.append([screen])
        case .pop:
            if withTopStack({ stack in stack.count > 1 ? stack.removeLast() : nil }) == nil {
                problems.append("pop on the root of a stack (\(stacks))")
            }
        case .popToRoot: withTopStack { $0.removeSubrange(min(1, $0.count)...) }
        case .dismiss:
            if modals.isEmpty { problems.append("dismiss with no modal stack (\(stacks))") } else { modals.removeLast() }
        case .alert(let title, let choices): alert = (title, choices)
        case .tabs(let screens):
            guard !screens.isEmpty, Set(screens).count == screens.count else {
                problems.append("tabs need distinct root screens (\(screens))")
                return
            }
            roots = screens.map { [$0] }
            selected = 0
            showsTabs = true
        case .selectTab(let screen):
            if let index = tabIndex(of: screen) { selected = index } else {
                problems.append("no tab whose root is \(screen) (\(tabStacks))")
            }
        }
    }

    func tabIndex(of root: Int) -> Int? { showsTabs ? roots.firstIndex { $0.first == root } : nil }

    @discardableResult func goBack() -> Bool {
        guard let screen = withTopStack({ stack in stack.count > 1 ? stack.removeLast() : nil }) else { return false }
        heard.append(.wentBack(from: screen))
        return true
    }

    @discardableResult func swipeDown() -> Bool {
        guard let screen = modals.last?.first else { return false }
        modals.removeLast()
        heard.append(.dismissed(screen))
        return true
    }

    func selectTab(_ root: Int) {
        guard modals.isEmpty, let index = tabIndex(of: root), index != selected else { return }
        selected = index
        heard.append(.selectedTab(root))
    }

    func choose(_ label: String) {
        guard let alert, let index = alert.choices.firstIndex(of: label) else { return }
        self.alert = nil
        heard.append(.choseAlert(index: index))
    }
}

/// What an adapter keeps on screen, built only from the operations the model returns (and, for the
/// user's navigation, from what the platform did before reporting it), with UIKit's rules checked:
/// present and dismiss only at the top and never under an alert, one alert at a time, pops to a count
/// the stack has.
struct FakePlatform {
    var roots: [[Int]] = [[]]
    var showsTabs = false
    var selected = 0
    var modals: [[Int]] = []
    var alert: NavigationAlert?
    var violations: [String] = []

    mutating func perform(_ operation: NavigationOperation<Int>) {
        switch operation {
        case .push(let item, let position):
            guard exists(position) else { return violations.append("\(operation): no such stack") }
            update(position) { $0.append(item.id) }
        case .pop(let position, let count):
            guard exists(position), count >= 1, count < ids(position).count else {
                return violations.append("\(operation): \(ids(position))")
            }
            update(position) { $0.removeSubrange(count...) }
        case .present(let item, let level):
            if level != modals.count || alert != nil { violations.append("\(operation) over \(modals), alert \(alert != nil)") }
            modals.append([item.id])
        case .dismiss(let level):
            guard level == modals.count - 1, alert == nil else { return violations.append("\(operation) of \(modals)") }
            modals.removeLast()
        case .showTabs(let items):
            if items.isEmpty { violations.append("no tabs") }
            roots = items.map { [$0.id] }
            showsTabs = true
            selected = 0
        case .selectTab(let index):
            if !showsTabs || !roots.indices.contains(index) || index == selected { violations.append("\(operation)") }
            selected = index
        case .showAlert(let shown):
            if alert != nil { violations.append("an alert over an alert") }
            alert = shown
        case .hideAlert:
            if alert == nil { violations.append("hide with no alert") }
            alert = nil
        }
    }

    func exists(_ position: StackPosition) -> Bool {
        switch position {
        case .root(let tab): (showsTabs ? roots.indices : 0..<1).contains(tab)
        case .modal(let level): modals.indices.contains(level)
        }
    }

    func ids(_ position: StackPosition) -> [Int] {
        guard exists(position) else { return [] }
        switch position {
        case .root(let tab): return roots[tab]
        case .modal(let level): return modals[level]
        }
    }

    mutating func update(_ position: StackPosition, _ body: (inout [Int]) -> Void) {
        switch position {
        case .root(let tab): body(&roots[tab])
        case .modal(let level): body(&modals[level])
        }
    }

    func shows(_ model: NavigationModel<Int>) -> Bool {
        let modelRoots = model.roots.map { $0.map(\.id) }
        return roots == modelRoots && showsTabs == model.showsTabs && selected == model.selectedTab
            && modals == model.modals.map { $0.map(\.id) } && alert == model.alert
    }
}

@Suite("Navigation model properties")
struct NavigationModelProperties {
    final class Lifetime {}

    /// One step: a command (kinds 0 to 7) or what the user did (8 to 11), with two small numbers.
    static let steps = zip(Gen.int(in: 0...11), Gen.int(in: 0...5), Gen.int(in: 0...5)).array(of: 0...40)

    @Test("Random commands and user navigation: the model agrees with the reference navigator (stacks, tabs, alert, problems, events in order); the operations alone rebuild what the model shows, within UIKit's rules; a lifetime lives exactly as long as its screen")
    func agreesWithReference() async {
        await propertyCheck(count: 300, input: Self.steps) { steps in
            let store = NavigationStore<Int>()
            let reference = ReferenceNavigator()
            var platform = FakePlatform()
            var heard: [UserNavigation<Int>] = []
            var lifetimes: [(id: Int, object: () -> AnyObject?)] = []
            for (index, (kind, a, b)) in steps.enumerated() {
                let context = "step \(index) of \(steps)"
                if kind < 8 {
                    let command: NavigatorCommand<Int> = switch kind {
                    case 0: .push(a)
                    case 1: .present(a)
                    case 2: .pop
                    case 3: .popToRoot
                    case 4: .dismiss
                    case 5: .alert(title: "t\(a)", choices: (0..<b).map { "c\($0)" })
                    case 6: .tabs(b == 0 ? [a, a] : Array(0..<(a % 4 + 1)))
                    default: .selectTab(a)
                    }
                    let lifetime = Lifetime()
                    let problems = reference.problems.count
                    reference.perform(command)
                    let update = store.perform(command, retaining: lifetime, cancelIndex: kind == 5 ? a : nil)
                    #expect(update.problem == reference.problems.dropFirst(problems).first, "\(context)")
                    if let retainer = update.retainer { lifetimes.append((retainer, { [weak lifetime] in lifetime })) }
                    for operation in update.operations { platform.perform(operation) }
                } else {
                    // The platform shows what the user did, then reports it.
                    let model = store.model
                    var report: NavigationReport<Int>?
                    switch kind {
                    case 8:  // back, or a long press on back popping two (never below the root)
                        let position = model.topPosition
                        let count = model.items(in: position).count
                        guard count > 1 else { break }
                        let remaining = max(1, count - 1 - b % 2)
                        for _ in remaining..<count { reference.goBack() }
                        platform.update(position) { $0.removeSubrange(remaining...) }
                        report = a % 2 == 0 ? .popped(position, remaining: remaining)
                            : .path(Array(model.items(in: position)[1..<remaining]), of: position)
                    case 9:  // a swipe down of the top modal, or a lower modal dismissed with those over it
                        guard !model.modals.isEmpty else { break }
                        let level = a % 2 == 0 ? model.modals.count - 1 : a % model.modals.count
                        for _ in level..<model.modals.count { reference.swipeDown() }
                        platform.modals.removeSubrange(level...)
                        report = .dismissed(level: level, root: b % 2 == 0 ? nil : model.modals[level][0].id)
                    case 10:  // a tab tapped, when no modal covers the tab bar
                        guard model.showsTabs, model.modals.isEmpty else { break }
                        let tab = a % model.roots.count
                        reference.selectTab(model.roots[tab][0].screen)
                        platform.selected = tab
                        report = .selectedTab(tab)
                    default:  // an alert button (an index past the choices does nothing)
                        guard let alert = model.alert else { break }
                        if b < alert.choices.count {
                            reference.choose(alert.choices[b])
                            platform.alert = nil
                        }
                        report = .choseAlert(index: b)
                    }
                    if let report { heard += store.reconcile(report) }
                }
                let model = store.model
                #expect(model.stacks == reference.stacks && model.tabStacks == reference.tabStacks, "\(context)")
                #expect(model.alert?.title == reference.alert?.title && model.alert?.choices == reference.alert?.choices,
                        "\(context)")
                #expect(heard == reference.heard, "\(context)")
                #expect(platform.shows(model), "the operations rebuild the model, \(context)")
                #expect(platform.violations.isEmpty, "\(platform.violations), \(context)")
                let ids = model.ids
                for (id, object) in lifetimes {
                    #expect((object() != nil) == ids.contains(id), "lifetime of \(id), \(context)")
                }
                #expect(store.retainedCount == lifetimes.filter { ids.contains($0.id) }.count, "\(context)")
            }
        }
    }
}
