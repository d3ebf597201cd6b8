import FlowGraph
import Flowstate

extension FlowFile {
    /// One block of SCXML executable content (an `<onentry>`, an `<onexit>` or a `<transition>`'s
    /// body) as a tree: its actions in document order, an `<if>` holding the blocks of its branches.
    /// The SCXML reader makes it, the SCXML writer writes it as it is, and ``FlowSimulation`` runs it
    /// (the interpreter lowers each block once to branches and jumps, so that running one is a loop
    /// however deeply it nests). Walking a block never recurses: a block built in code may nest as
    /// deep as its maker likes.
    ///
    /// ``FlowSimulation`` runs blocks as the W3C recommendation says: in document order, and an
    /// action that fails (a `<send>` to a target it cannot reach, an unsupported element, a condition
    /// it cannot evaluate) puts `error.execution` on the internal queue and abandons the rest of its
    /// block.
    public struct Executable: Hashable, Sendable {
        /// The actions, in document order.
        public var actions: [Action]

        /// A block of actions.
        public init(_ actions: [Action] = []) { self.actions = actions }

        /// Calls `body` with every action of the block, those inside `<if>` branches included, in
        /// document order (an `<if>` before its branches' actions).
        func forEachAction(_ body: (Action) -> Void) {
            Self.walk(actions) { step in
                switch step {
                case .action(let action), .openIf(let action): body(action)
                case .branch, .otherwise, .closeIf: break
                }
            }
        }
    }

    /// An action of executable content: what it does (``kind``) and, for one read from a file, the
    /// element as written, which the SCXML writer writes back.
    ///
    /// Two actions are equal when they do the same (their kinds are equal): how the file wrote them
    /// (the order and text of their attributes) is not compared.
    public struct Action: Hashable, Sendable {
        /// What an action does.
        public enum Kind: Hashable, Sendable {
            /// `<raise event>`: the event goes on the machine's internal queue.
            case raise(event: String)
            /// `<send>`: an event to a queue, now or after a delay.
            case send(Send)
            /// `<cancel sendid>`: a delayed event this machine sent, not yet delivered, is dropped.
            case cancel(sendID: String)
            /// `<log label expr>`: recorded. (The null data model evaluates no expressions: `expr` is
            /// recorded as written.)
            case log(label: String?, expr: String?)
            /// `<if cond>` with its `<elseif cond>` branches and its `<else>`: the actions of the first
            /// branch whose condition holds run, else those of `otherwise` (`nil`: no `<else>`). An
            /// `<if>` without branches (built in code) runs `otherwise`.
            case `if`([Branch], otherwise: [Action]?)
            /// An element the null data model cannot execute (`<assign>`, `<script>`, `<foreach>`, ...):
            /// executing it raises `error.execution`.
            case unsupported(element: String, location: FlowSourceLocation?)

            /// Compares step by step, without recursion (see `Executable.walk(_:_:)`).
            public static func == (a: Kind, b: Kind) -> Bool {
                switch (a, b) {
                case (.if, .if): Executable.tokens(of: [Action(a)]) == Executable.tokens(of: [Action(b)])
                case (.if, _), (_, .if): false
                case (.raise(let x), .raise(let y)): x == y
                case (.send(let x), .send(let y)): x == y
                case (.cancel(let x), .cancel(let y)): x == y
                case (.log(let x1, let x2), .log(let y1, let y2)): x1 == y1 && x2 == y2
                case (.unsupported(let x1, let x2), .unsupported(let y1, let y2)): x1 == y1 && x2 == y2
                default: false
                }
            }

            /// Hashes step by step, without recursion.
            public func hash(into hasher: inout Hasher) {
                switch self {
                case .if: hasher.combine(Executable.tokens(of: [Action(self)]))
                case .raise(let event):
                    hasher.combine(0)
                    hasher.combine(event)
                case .send(let send):
                    hasher.combine(1)
                    hasher.combine(send)
                case .cancel(let id):
                    hasher.combine(2)
                    hasher.combine(id)
                case .log(let label, let expr):
                    hasher.combine(3)
                    hasher.combine(label)
                    hasher.combine(expr)
                case .unsupported(let element, let location):
                    hasher.combine(4)
                    hasher.combine(element)
                    hasher.combine(location)
                }
            }
        }

        /// A branch of an `<if>`: its condition (`true`, `false`, `In('s')` or a guard's name) and the
        /// actions it runs.
        public struct Branch: Hashable, Sendable {
            /// The `cond` of the `<if>` or `<elseif>`.
            public var condition: String
            /// The actions the branch runs.
            public var actions: [Action]

            /// A branch.
            public init(_ condition: String, _ actions: [Action]) {
                self.condition = condition
                self.actions = actions
            }
        }

        /// What the action does.
        public var kind: Kind
        /// The element as the file wrote it (its attributes in order and as written, its children;
        /// an `<if>` without its children, which ``kind`` holds), written back by the SCXML writer
        /// when it reads back to the same kind. `nil` for an action built in code: the writer writes
        /// what ``kind`` says.
        var element: XMLNode?

        /// An action built in code.
        public init(_ kind: Kind) { self.kind = kind }

        /// An action read from an element.
        init(_ kind: Kind, element: XMLNode) {
            self.kind = kind
            self.element = element
        }

        /// Equal when the kinds are (how the file wrote them is not compared).
        public static func == (a: Action, b: Action) -> Bool { a.kind == b.kind }

        /// Hashes the kind.
        public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

        /// `<raise event>`.
        public static func raise(event: String) -> Action { Action(.raise(event: event)) }
        /// `<send>`.
        public static func send(_ send: Send) -> Action { Action(.send(send)) }
        /// `<cancel sendid>`.
        public static func cancel(sendID: String) -> Action { Action(.cancel(sendID: sendID)) }
        /// `<log label expr>`.
        public static func log(label: String?, expr: String?) -> Action { Action(.log(label: label, expr: expr)) }
        /// `<if>` with its branches and `<else>` (see ``Kind/if(_:otherwise:)``).
        public static func `if`(_ branches: [Branch], otherwise: [Action]? = nil) -> Action {
            Action(.if(branches, otherwise: otherwise))
        }
        /// An element the null data model cannot execute.
        public static func unsupported(element: String, location: FlowSourceLocation? = nil) -> Action {
            Action(.unsupported(element: element, location: location))
        }
    }

    /// An SCXML `<send>`.
    public struct Send: Hashable, Sendable {
        /// The event's name.
        public var event: String
        /// `#_internal`, `#_parent`, `#_<invokeid>`, `#_scxml_<sessionid>` or `nil` (the sender's
        /// external queue).
        public var target: String?
        /// The I/O processor (`nil` or `http://www.w3.org/TR/scxml/#SCXMLEventProcessor` are supported).
        public var type: String?
        /// The send's identifier, for `<cancel>`.
        public var id: String?
        /// The delay in milliseconds (`delay="1.5s"`, `"200ms"`), 0 for none.
        public var delay: Int
        /// Where the `<send>` was written.
        public var location: FlowSourceLocation?

        /// A send.
        public init(event: String, target: String? = nil, type: String? = nil, id: String? = nil, delay: Int = 0,
                    location: FlowSourceLocation? = nil) {
            self.event = event
            self.target = target
            self.type = type
            self.id = id
            self.delay = delay
            self.location = location
        }

        /// SCXML's event I/O processor type.
        static let scxmlType = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
    }

    /// Reads a CSS2 duration as SCXML writes delays (`"2s"`, `"0.5s"`, `"150ms"`) in milliseconds,
    /// rounded down; `nil` if it is not one.
    static func milliseconds(_ text: Substring) -> Int? {
        let t = text.trimmingSpaces
        let (number, scale): (Substring, Double)
        if t.hasSuffix("ms") {
            (number, scale) = (t.dropLast(2), 1)
        } else if t.hasSuffix("s") {
            (number, scale) = (t.dropLast(), 1000)
        } else {
            return nil
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              number.filter({ $0 == "." }).count <= 1, let value = Double(number), value.isFinite,
              value * scale < Double(Int32.max) else { return nil }
        return Int(value * scale)
    }
}

extension FlowFile.Executable {
    /// What a walk over actions meets, in document order.
    enum Step {
        /// An action that is not an `<if>`.
        case action(FlowFile.Action)
        /// An `<if>`, before its branches.
        case openIf(FlowFile.Action)
        /// The start of a branch: the `<if>`'s own (`first`) or an `<elseif>`'s.
        case branch(condition: String, first: Bool)
        /// The start of the `<else>`.
        case otherwise
        /// The end of an `<if>`.
        case closeIf(FlowFile.Action)
    }

    /// Walks actions in document order, an `<if>`'s branches between its opening and its closing,
    /// with an explicit stack: the one traversal of the tree (lowering, writing, comparing, reading
    /// what a block does), never recursive, however deep the tree.
    static func walk(_ actions: [FlowFile.Action], _ visit: (Step) -> Void) {
        enum Work {
            case action(FlowFile.Action)
            case step(Step)
        }
        var stack: [Work] = actions.reversed().map { .action($0) }
        while let work = stack.popLast() {
            switch work {
            case .step(let step):
                visit(step)
            case .action(let action):
                guard case .if(let branches, let otherwise) = action.kind else {
                    visit(.action(action))
                    continue
                }
                visit(.openIf(action))
                stack.append(.step(.closeIf(action)))
                if let otherwise {
                    stack += otherwise.reversed().map { .action($0) }
                    stack.append(.step(.otherwise))
                }
                for (k, branch) in branches.enumerated().reversed() {
                    stack += branch.actions.reversed().map { .action($0) }
                    stack.append(.step(.branch(condition: branch.condition, first: k == 0)))
                }
            }
        }
    }

    /// A flat account of actions (`walk(_:_:)`'s steps, each leaf's kind): equal for equal trees.
    enum Token: Hashable {
        case leaf(FlowFile.Action.Kind)
        case open
        case branch(String)
        case otherwise
        case close
    }

    /// The tokens of actions, in document order.
    static func tokens(of actions: [FlowFile.Action]) -> [Token] {
        var tokens: [Token] = []
        walk(actions) { step in
            switch step {
            case .action(let action): tokens.append(.leaf(action.kind))
            case .openIf: tokens.append(.open)
            case .branch(let condition, _): tokens.append(.branch(condition))
            case .otherwise: tokens.append(.otherwise)
            case .closeIf: tokens.append(.close)
            }
        }
        return tokens
    }
}

extension FlowFile.Executable: CustomStringConvertible {
    /// The block as text, in document order, without the places its actions were read from (what a
    /// written document reads back to is the same text): each action (`raise(event: "r")`), an
    /// `<if>` as `if`, each branch's `branch(<condition>)` before its actions, `else`, and `end`,
    /// separated by `; `.
    public var description: String {
        var out: [String] = []
        Self.walk(actions) { step in
            switch step {
            case .action(let action):
                switch action.kind {
                case .send(var send):
                    send.location = nil
                    out.append("\(FlowFile.Action.Kind.send(send))")
                case .unsupported(let element, _): out.append("unsupported(\(element))")
                default: out.append("\(action.kind)")
                }
            case .openIf: out.append("if")
            case .branch(let condition, _): out.append("branch(\(condition))")
            case .otherwise: out.append("else")
            case .closeIf: out.append("end")
            }
        }
        return out.joined(separator: "; ")
    }
}
