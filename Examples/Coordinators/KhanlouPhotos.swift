import FlowNavigation
import Flowstate

/// Khanlou's coordinators (seed 001): an app coordinator owns the feed; posting a photo is a child
/// flow (pick, edit, post or cancel) whose completion and cancellation reach the app as typed events.
/// The screens are islands: they report taps, the flows decide every screen change.
public enum KhanlouPhotos {
    /// The screens.
    public enum Screen: String, Hashable, Sendable, Codable, CustomStringConvertible {
        case feed, picker, editor
        public var description: String { rawValue }
    }

    /// The app coordinator's flow.
    public enum App: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case browsing, creatingPhoto
            public var description: String { rawValue }
        }
        /// Its events.
        public enum Event: FlowEvent, Hashable { case newPhoto, photoPosted, photoCancelled }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// The app never finishes.
        public typealias Output = Never
    }

    /// The photo-creation child flow.
    public enum Photo: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case creating, picking, editing, posted, cancelled
            public var description: String { rawValue }
        }
        /// Its events (`wentBack` is the user's back gesture on the editor).
        public enum Event: FlowEvent, Hashable { case picked, post, cancel, wentBack }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// How it ended.
        public enum Output: Hashable, Sendable { case posted, cancelled }
    }

    /// The app: the feed, and a photo flow started from it.
    public static let app = FlowDefinition<App>("khanlou-app", initial: .browsing) {
        StateNode(.browsing) { On(.newPhoto, to: .creatingPhoto) }
        StateNode(.creatingPhoto) {
            On(.photoPosted, to: .browsing)
            On(.photoCancelled, to: .browsing)
        }
    }

    /// Pick a photo, edit it, post it; cancel from any step.
    public static let photo = FlowDefinition<Photo>("photo-creation", initial: .creating) {
        StateNode(.creating, entry: [.present(.picker)]) {
            StateNode(.picking) {
                On(.picked, to: .editing, effects: [.push(.editor)])
            }
            StateNode(.editing) {
                On(.post, to: .posted)
                On(.wentBack, to: .picking)  // the user already popped the editor: nothing to do
            }
            On(.cancel, to: .cancelled)
        }
        Final(.posted, output: .posted, entry: [.dismiss])
        Final(.cancelled, output: .cancelled, entry: [.dismiss])
    }

    /// Runs the example on a coordinator: the feed is shown, and `newPhoto` starts the photo flow.
    public final class Host {
        /// The coordinator.
        public let coordinator: Coordinator<Screen>
        /// The app flow.
        public private(set) var app: MachineHandle<App>!
        /// The running photo flow, if any.
        public private(set) var photoFlow: MachineHandle<Photo>?

        /// Starts the app on a navigator.
        public init(navigator: any Navigator<Screen>) throws {
            coordinator = Coordinator(navigator: navigator)
            navigator.perform(.push(.feed), retaining: nil)
            app = try coordinator.start(KhanlouPhotos.app, effects: { $0 })
        }

        /// The feed's "new photo" button.
        public func newPhoto() throws {
            // A second tap while the photo flow runs starts nothing (NavigationCheckTests).
            if let photoFlow, coordinator.supervisor.contains(photoFlow.id) { return }
            try coordinator.send(.newPhoto, to: app)
            photoFlow = try coordinator.start(
                KhanlouPhotos.photo, under: app, effects: { $0 },
                userNavigation: { if case .wentBack(from: .editor) = $0 { .wentBack } else { nil } },
                dismissed: .photoCancelled,
                output: { $0 == .posted ? .photoPosted : .photoCancelled })
        }
    }
}
