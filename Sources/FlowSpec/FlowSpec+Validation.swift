import FlowGraph
import Flowstate

extension FlowSpec {
    /// The file's problems, checked on the definition ``FlowSimulation`` runs (for SCXML, with its
    /// descriptor matching), so a file without errors starts.
    ///
    /// A transition that earlier unguarded transitions of its state always win over, for every event
    /// it matches, is a `ValidationIssue.Kind.shadowedTransition` warning: SCXML selects by document
    /// order, and so does the engine. (`*` after `error`: not shadowed, it still takes other events;
    /// `error` after `*`: shadowed.)
    public func validate() -> [ValidationIssue] {
        let matching: Matching = semantics == .scxml ? .descriptors(EventClasses([self])) : .text
        let (definition, map) = compiled(guards: [:], matching: matching)
        var declarations: [Int: Int] = [:]  // spec transition -> how many declarations stand for it
        for s in map { declarations[s, default: 0] += 1 }
        var shadowed: [Int: [ValidationIssue]] = [:]
        var issues: [ValidationIssue] = []
        for issue in definition.validate() {
            if issue.kind == .shadowedTransition, let id = issue.transition, id.position < map.count {
                shadowed[map[id.position], default: []].append(issue)
            } else {
                issues.append(issue)
            }
        }
        for (s, found) in shadowed.sorted(by: { $0.key < $1.key }) where found.count == declarations[s] {
            issues.append(found[0])
        }
        // Errors first, each group in the order found.
        return issues.filter { $0.severity == .error } + issues.filter { $0.severity != .error }
    }
}
