import Flowstate

/// Khanlou's photo-creation child flow (seed 001): pick a photo, edit it, post it, or cancel at any
/// step. It knows nothing of who started it: its output says how it ended.
public enum PhotoCreation: Flow {
    /// The steps.
    public enum State: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case creating, picking, editing, posted, cancelled
        public var description: String { rawValue }
    }

    /// What the user does on the screens.
    public enum Event: FlowEvent, Hashable {
        case picked(photo: String)
        case edited
        case post
        case cancel

        /// The payload-free kinds.
        public enum Kind: String, Hashable, Sendable, CustomStringConvertible {
            case picked, edited, post, cancel
            public var description: String { rawValue }
        }

        public var kind: Kind {
            switch self {
            case .picked: .picked
            case .edited: .edited
            case .post: .post
            case .cancel: .cancel
            }
        }
    }

    /// The screens, as navigation commands.
    public enum Effect: Hashable, Sendable, CustomStringConvertible {
        case presentPicker, pushEditor, upload, dismiss
        public var description: String {
            switch self {
            case .presentPicker: "presentPicker"
            case .pushEditor: "pushEditor"
            case .upload: "upload"
            case .dismiss: "dismiss"
            }
        }
    }

    /// How it ended.
    public enum Output: Hashable, Sendable { case posted, cancelled }

    /// The definition.
    public static let definition = FlowDefinition<PhotoCreation>("photo-creation", initial: .creating) {
        StateNode(.creating, entry: [.presentPicker], exit: [.dismiss]) {
            StateNode(.picking) { On(.picked, to: .editing, effects: [.pushEditor]) }
            StateNode(.editing) {
                On(.edited, to: nil)
                On(.post, to: .posted, effects: [.upload])
            }
            On(.cancel, to: .cancelled)
        }
        Final(.posted, output: .posted)
        Final(.cancelled, output: .cancelled)
    }
}

/// The feed that starts photo creation (Khanlou's parent coordinator): the child's completion and
/// cancellation arrive as typed events.
public enum Feed: Flow {
    /// The feed's states.
    public enum State: String, Hashable, Sendable, CustomStringConvertible {
        case browsing, creatingPhoto
        public var description: String { rawValue }
    }

    /// Feed events, including the child's results.
    public enum Event: FlowEvent, Hashable { case newPhoto, photoPosted, photoCancelled }

    /// Feed effects, wrapping the child's.
    public enum Effect: Hashable, Sendable, CustomStringConvertible {
        case refresh
        case photo(PhotoCreation.Effect)
        public var description: String {
            switch self {
            case .refresh: "refresh"
            case .photo(let effect): "photo.\(effect)"
            }
        }
    }

    /// The feed runs for the app's lifetime.
    public typealias Output = Never

    /// The definition.
    public static let definition = FlowDefinition<Feed>("feed", initial: .browsing) {
        StateNode(.browsing) { On(.newPhoto, to: .creatingPhoto) }
        StateNode(.creatingPhoto, runs: ChildFlow(PhotoCreation.definition, effects: { .photo($0) }) { output in
            output == .posted ? .photoPosted : .photoCancelled
        }) {
            On(.photoPosted, to: .browsing, effects: [.refresh])
            On(.photoCancelled, to: .browsing)
        }
    }
}
