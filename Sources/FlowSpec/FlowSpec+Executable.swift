import FlowGraph
import Flowstate

extension FlowFile {
    /// One block of SCXML executable content (an `<onentry>`, an `<onexit>` or a `<transition>`'s
    /// body), flattened into instructions: `<if>`/`<elseif>`/`<else>` become branches and jumps, so
    /// running a block is a loop however deeply the file nests its conditions.
    ///
    /// ``FlowSimulation`` runs blocks as the W3C recommendation says: in document order, and an
    /// instruction that fails (a `<send>` to a target it cannot reach, an unsupported element, a
    /// condition it cannot evaluate) puts `error.execution` on the internal queue and abandons the rest
    /// of its block.
    public struct Executable: Hashable, Sendable {
        /// The instructions, in order.
        public var instructions: [Instruction]

        /// A block of instructions.
        public init(_ instructions: [Instruction]) { self.instructions = instructions }
    }

    /// An instruction of executable content.
    public enum Instruction: Hashable, Sendable {
        /// `<raise event>`: the event goes on the machine's internal queue.
        case raise(event: String)
        /// `<send>`: an event to a queue, now or after a delay.
        case send(Send)
        /// `<cancel sendid>`: a delayed event this machine sent, not yet delivered, is dropped.
        case cancel(sendID: String)
        /// `<log label expr>`: recorded. (The null data model evaluates no expressions: `expr` is
        /// recorded as written.)
        case log(label: String?, expr: String?)
        /// The start of `<if cond>` or `<elseif cond>`: when the condition is false, execution
        /// continues at instruction `otherwise`.
        case branch(condition: String, otherwise: Int)
        /// Continue at instruction `to` (the end of an `<if>` after a taken branch).
        case jump(to: Int)
        /// An element the null data model cannot execute (`<assign>`, `<script>`, `<foreach>`, ...):
        /// executing it raises `error.execution`.
        case unsupported(element: String, location: FlowSourceLocation?)
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
        public static let scxmlType = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
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
