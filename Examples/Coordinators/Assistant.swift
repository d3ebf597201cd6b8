import FlowNavigation
import Flowstate

/// The Assistant (seeds 000 and 002): a persons list and an add-person child flow share one model
/// object, so saving in the child needs no delegate: the list observes the model. Discarding a draft
/// asks with an alert that the flow presents, and whose answers are the flow's own events (seed 000's
/// "who presents the alert?").
public enum Assistant {
    /// The screens.
    public enum Screen: String, Hashable, Sendable, Codable, CustomStringConvertible {
        case persons, addPerson
        public var description: String { rawValue }
    }

    /// The model both flows share: the list observes it.
    public final class PersonsModel {
        /// The persons, in the order added.
        public private(set) var persons: [String] = []
        /// Called after every change.
        public var onChange: (([String]) -> Void)?
        /// Creates an empty model.
        public init() {}
        /// Adds a person.
        public func add(_ name: String) {
            persons.append(name)
            onChange?(persons)
        }
    }

    /// The list's flow.
    public enum Persons: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case list, adding
            public var description: String { rawValue }
        }
        /// Its events.
        public enum Event: FlowEvent, Hashable { case add, added, addCancelled }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// It never finishes.
        public typealias Output = Never
    }

    /// The add-person flow.
    public enum AddPerson: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case adding, editing, confirmingDiscard, saved, discarded
            public var description: String { rawValue }
        }
        /// Its events. `typed` carries the name typed so far.
        public enum Event: FlowEvent, Hashable {
            case typed(String), save, cancel, keepEditing, discard
            /// Kinds, for dispatch.
            public enum Kind: String, Hashable, Sendable, CustomStringConvertible {
                case typed, save, cancel, keepEditing, discard
                public var description: String { rawValue }
            }
            /// The kind.
            public var kind: Kind {
                switch self {
                case .typed: .typed
                case .save: .save
                case .cancel: .cancel
                case .keepEditing: .keepEditing
                case .discard: .discard
                }
            }
        }
        /// Navigation, or writing the person into the shared model.
        public enum Effect: Sendable, CustomStringConvertible {
            case navigate(Navigation<Screen, Event>)
            case remember(String)
            case saveDraft
            /// A label.
            public var description: String {
                switch self {
                case .navigate(let navigation): "\(navigation)"
                case .remember: "remember(name)"
                case .saveDraft: "saveDraft"
                }
            }
        }
        /// How it ended.
        public enum Output: Hashable, Sendable { case saved, discarded }
    }

    /// The list.
    public static let persons = FlowDefinition<Persons>("persons", initial: .list) {
        StateNode(.list) { On(.add, to: .adding) }
        StateNode(.adding) {
            On(.added, to: .list)
            On(.addCancelled, to: .list)
        }
    }

    static let discardAlert = Alert<AddPerson.Event>("Discard this person?", choices: [
        .init("Keep editing", sends: .keepEditing, isCancel: true),
        .init("Discard", sends: .discard),
    ])

    /// Type a name, save it; cancelling asks first.
    public static let addPerson = FlowDefinition<AddPerson>("add-person", initial: .adding) {
        StateNode(.adding, entry: [.navigate(.present(.addPerson))]) {
            StateNode(.editing) {
                On(.typed, to: nil, effects: [.remember("name")])
                On(.save, to: .saved, effects: [.saveDraft])
                On(.cancel, to: .confirmingDiscard, effects: [.navigate(.alert(discardAlert))])
            }
            StateNode(.confirmingDiscard) {
                On(.keepEditing, to: .editing)
                On(.discard, to: .discarded)
            }
        }
        Final(.saved, output: .saved, entry: [.navigate(.dismiss)])
        Final(.discarded, output: .discarded, entry: [.navigate(.dismiss)])
    }

    /// Runs the example: the model is shared by the host's effect closures, not by a delegate.
    public final class Host {
        /// The coordinator.
        public let coordinator: Coordinator<Screen>
        /// The shared model.
        public let model = PersonsModel()
        /// The list flow.
        public private(set) var list: MachineHandle<Persons>!
        /// The add-person flow, while it runs.
        public private(set) var adding: MachineHandle<AddPerson>?
        /// What the list screen shows (it observes the model).
        public private(set) var shown: [String] = []
        private var draft = ""

        /// Starts on the list.
        public init(navigator: any Navigator<Screen>) throws {
            coordinator = Coordinator(navigator: navigator)
            navigator.perform(.push(.persons), retaining: nil)
            list = try coordinator.start(Assistant.persons, effects: { $0 })
            model.onChange = { [unowned self] persons in self.shown = persons }
        }

        /// The list's "+" button.
        public func add() throws {
            try coordinator.send(.add, to: list)
            draft = ""
            adding = try coordinator.start(
                Assistant.addPerson, under: list,
                effects: { if case .navigate(let navigation) = $0 { navigation } else { nil } },
                perform: { [unowned self] effect in
                    if case .saveDraft = effect { self.model.add(self.draft) }
                },
                dismissed: .addCancelled,
                output: { $0 == .saved ? .added : .addCancelled })
        }

        /// The add-person screen's text field.
        public func type(_ name: String) throws {
            guard let adding else { return }
            draft = name
            try coordinator.send(.typed(name), to: adding)
        }
    }
}
