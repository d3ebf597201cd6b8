import FlowNavigation
import Flowstate

/// The Assistant (seeds 000 and 002): a persons list and an add-person child flow. The data lives in
/// the flows: the child keeps the name being typed in its context and returns it as its typed output;
/// the list's flow adds it to its own context, which is what the list screen shows. No model object
/// outside the flows, no delegate, and a snapshot keeps both (a draft survives a relaunch).
/// Discarding a draft asks with an alert that the flow presents, and whose answers are the flow's own
/// events (seed 000's "who presents the alert?").
public enum Assistant {
    /// The screens.
    public enum Screen: String, Hashable, Sendable, Codable, CustomStringConvertible {
        case persons, addPerson
        public var description: String { rawValue }
    }

    /// The list's flow.
    public enum Persons: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case list, adding
            public var description: String { rawValue }
        }
        /// Its events. `added` carries the person the add-person flow saved.
        public enum Event: FlowEvent, Hashable {
            case add, added(String), addCancelled
            /// Kinds, for dispatch.
            public enum Kind: String, Hashable, Sendable, CustomStringConvertible {
                case add, added, addCancelled
                public var description: String { rawValue }
            }
            /// The kind.
            public var kind: Kind {
                switch self {
                case .add: .add
                case .added: .added
                case .addCancelled: .addCancelled
                }
            }
        }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// It never finishes.
        public typealias Output = Never
        /// The list's data: what the list screen shows.
        public struct Context: Hashable, Sendable, Codable {
            /// The persons, in the order added.
            public var persons: [String] = []
            /// An empty list.
            public init() {}
        }
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
        /// Navigation only: the name is data, not an effect.
        public typealias Effect = Navigation<Screen, Event>
        /// How it ended: saved with the name typed, or discarded.
        public enum Output: Hashable, Sendable { case saved(String), discarded }
        /// The draft.
        public struct Context: Hashable, Sendable, Codable {
            /// The name typed so far.
            public var name = ""
            /// An empty draft.
            public init() {}
        }
    }

    /// The list's update: the person saved joins the list.
    static let keepPerson = Update<Persons>("keep the person") { context, event in
        if case .added(let name) = event { context.persons.append(name) }
    }

    /// The list.
    public static let persons = FlowDefinition<Persons>("persons", initial: .list, context: .init()) {
        StateNode(.list) { On(.add, to: .adding) }
        StateNode(.adding) {
            On(.added, to: .list, update: keepPerson)
            On(.addCancelled, to: .list)
        }
    }

    /// The add-person flow's update: the name typed so far.
    static let rememberName = Update<AddPerson>("remember the name") { context, event in
        if case .typed(let name) = event { context.name = name }
    }

    static let discardAlert = Alert<AddPerson.Event>("Discard this person?", choices: [
        .init("Keep editing", sends: .keepEditing, isCancel: true),
        .init("Discard", sends: .discard),
    ])

    /// Type a name, save it; cancelling asks first.
    public static let addPerson = FlowDefinition<AddPerson>("add-person", initial: .adding, context: .init()) {
        StateNode(.adding, entry: [.present(.addPerson)]) {
            StateNode(.editing) {
                On(.typed, to: nil, update: rememberName)
                On(.save, to: .saved)
                On(.cancel, to: .confirmingDiscard, effects: [.alert(discardAlert)])
            }
            StateNode(.confirmingDiscard) {
                On(.keepEditing, to: .editing)
                On(.discard, to: .discarded)
            }
        }
        Final(.saved, outputLabel: "saved(name)", entry: [.dismiss]) { context, _ in .saved(context.name) }
        Final(.discarded, output: .discarded, entry: [.dismiss])
    }

    /// The list's event for the add-person flow's output.
    public static func listEvent(_ output: AddPerson.Output) -> Persons.Event {
        if case .saved(let name) = output { .added(name) } else { .addCancelled }
    }

    /// Runs the example: the data is in the flows' contexts, not in the host.
    public final class Host {
        /// The coordinator.
        public let coordinator: Coordinator<Screen>
        /// The list flow.
        public private(set) var list: MachineHandle<Persons>!
        /// The add-person flow, while it runs.
        public private(set) var adding: MachineHandle<AddPerson>?
        /// What the list screen shows: the list flow's context.
        public var shown: [String] { coordinator.supervisor.context(of: list)?.persons ?? [] }

        /// Starts on the list.
        public init(navigator: any Navigator<Screen>) throws {
            coordinator = Coordinator(navigator: navigator)
            navigator.perform(.push(.persons), retaining: nil)
            list = try coordinator.start(Assistant.persons, effects: { $0 })
        }

        /// The list's "+" button.
        public func add() throws {
            // A second tap while the add-person flow runs starts nothing (NavigationCheckTests).
            if let adding, coordinator.supervisor.contains(adding.id) { return }
            try coordinator.send(.add, to: list)
            adding = try coordinator.start(Assistant.addPerson, under: list, effects: { $0 },
                                           dismissed: .addCancelled, output: Assistant.listEvent)
        }

        /// The add-person screen's text field.
        public func type(_ name: String) throws {
            guard let adding else { return }
            try coordinator.send(.typed(name), to: adding)
        }
    }
}
