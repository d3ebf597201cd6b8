import FlowGraph
import Flowstate

/// Executable content read (the elements of `<onentry>`, `<onexit>` and `<transition>`): a tree of
/// actions (``FlowFile/Executable``), and a label for each element at the top of a block.
extension SCXMLReader {
    /// The elements of executable content.
    static let executable: Set<String> = ["raise", "send", "log", "assign", "script", "if", "elseif", "else",
                                          "foreach", "cancel"]

    /// The executable content of an element: a label for each element (what steps report and
    /// diagrams draw), and the block ``FlowSimulation`` runs. What the null data model cannot run is
    /// reported in ``warnings``.
    ///
    /// Labels: `<raise event="e"/>` is `raise(e)`, a `<send>` with only an event (and an id) is
    /// `send(e)`, `<log label="l"/>` is `l`, anything else its element name and attributes.
    mutating func content(in node: XMLNode) throws(FlowSpecError) -> (labels: [String], block: FlowFile.Executable) {
        var labels: [String] = []
        for child in node.children {
            guard Self.executable.contains(child.name) else {
                throw error(.unsupported, "<\(child.name)> is not executable content (in <\(node.name)>)", child.location)
            }
            labels.append(Self.label(of: child))
        }
        let block = FlowFile.Executable(try actions(node.children))
        block.forEachAction { action in
            if case .unsupported(let element, let location?) = action.kind {
                warn("\(element) needs a data model: shown as a label, not run (simulate runs SCXML's null data model)", location)
            }
        }
        return (labels, block)
    }

    /// The label of one element of executable content.
    static func label(of child: XMLNode) -> String {
        switch child.name {
        case "raise" where child.attribute("event") != nil:
            return "raise(\(child.attribute("event")!))"
        case "send" where child.attribute("event") != nil && child.attributes.allSatisfy({ ["event", "id"].contains($0.name) }):
            return "send(\(child.attribute("event")!))"
        case "log" where child.attribute("label") != nil && child.attribute("expr") == nil:
            return child.attribute("label")!
        default:
            let list = child.attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
            return "\(child.name)(\(list))"
        }
    }

    /// The actions of a list of executable elements, each keeping its element (an `<if>` without its
    /// children) for the writer. An `<if>` is read by reading its branches' elements the same way:
    /// the recursion is as deep as the document nests `<if>`, which the XML reader bounds
    /// (``XMLParser/maxDepth``). (Everything after reading walks the tree without recursion.)
    func actions(_ elements: [XMLNode]) throws(FlowSpecError) -> [FlowFile.Action] {
        var result: [FlowFile.Action] = []
        for element in elements {
            guard Self.executable.contains(element.name) else {
                throw error(.unsupported, "<\(element.name)> is not executable content", element.location)
            }
            switch element.name {
            case "raise":
                guard let event = element.attribute("event"), !event.isEmpty else {
                    throw error(.missingField, "<raise> needs an 'event'", element.location)
                }
                result.append(FlowFile.Action(.raise(event: event), element: element))
            case "send":
                result.append(FlowFile.Action(try send(element), element: element))
            case "cancel":
                if let id = element.attribute("sendid") {
                    result.append(FlowFile.Action(.cancel(sendID: id), element: element))
                } else {
                    result.append(FlowFile.Action(.unsupported(element: "<cancel> without 'sendid'", location: element.location),
                                                   element: element))
                }
            case "log":
                result.append(FlowFile.Action(.log(label: element.attribute("label"), expr: element.attribute("expr")),
                                               element: element))
            case "if":
                // <if c1>A<elseif c2>B<else>C</if>: the branches (c1, A) and (c2, B), otherwise C.
                var branches = [FlowFile.Action.Branch(element.attribute("cond") ?? "", [])]
                var otherwise: [FlowFile.Action]?
                var segment: [XMLNode] = []
                for child in element.children {
                    guard child.name == "elseif" || child.name == "else" else {
                        segment.append(child)
                        continue
                    }
                    guard otherwise == nil else {
                        throw error(.invalidValue, "<\(child.name)> after <else> in <if>", child.location)
                    }
                    branches[branches.count - 1].actions = try actions(segment)
                    segment = []
                    if child.name == "elseif" {
                        branches.append(FlowFile.Action.Branch(child.attribute("cond") ?? "", []))
                    } else {
                        otherwise = []
                    }
                }
                if otherwise != nil {
                    otherwise = try actions(segment)
                } else {
                    branches[branches.count - 1].actions = try actions(segment)
                }
                var written = element
                written.children = []  // the branches hold them
                result.append(FlowFile.Action(.if(branches, otherwise: otherwise), element: written))
            default:
                // elseif/else outside <if>, assign, script, foreach: nothing the null data model runs.
                result.append(FlowFile.Action(.unsupported(element: "<\(element.name)>", location: element.location),
                                               element: element))
            }
        }
        return result
    }

    /// What a `<send>` does; attributes that need a data model make it unsupported.
    private func send(_ element: XMLNode) throws(FlowSpecError) -> FlowFile.Action.Kind {
        for attribute in element.attributes where !["event", "target", "type", "id", "delay"].contains(attribute.name) {
            return .unsupported(element: "<send \(attribute.name)>", location: attribute.location)
        }
        if let child = element.children.first {
            return .unsupported(element: "<\(child.name)> in <send>", location: child.location)
        }
        guard let event = element.attribute("event"), !event.isEmpty else {
            return .unsupported(element: "<send> without 'event'", location: element.location)
        }
        var delay = 0
        if let text = element.attribute("delay") {
            guard let ms = FlowFile.milliseconds(Substring(text)) else {
                throw error(.invalidValue, "<send delay=\"\(text)\"> is not a duration such as \"2s\" or \"150ms\"",
                            element.location(of: "delay"))
            }
            delay = ms
        }
        return .send(FlowFile.Send(event: event, target: element.attribute("target"), type: element.attribute("type"),
                                   id: element.attribute("id"), delay: delay, location: element.location))
    }
}
