import ArgumentParser
import FlowGraph
import FlowSpec
import Flowstate

/// What a flow file holds that is valid but not run (SCXML's data, scripts, invocations that need a
/// data model, ...): `validate` warns of it, `render` and `view` draw it, the commands that run the
/// flow refuse it.
extension DiskFile {
    /// An SCXML document without states: there is nothing to validate or run (the reader warns of it).
    var hasNoStates: Bool { spec.semantics == .scxml && spec.states.isEmpty }

    /// The flow's validation issues (none for an SCXML document without states).
    var validationIssues: [ValidationIssue] { hasNoStates ? [] : spec.validate() }

    /// The errors a drawing reports: those of the definition drawn (none for a document without states).
    var drawingErrors: [ValidationIssue] {
        hasNoStates ? [] : spec.definition().validate().filter { $0.severity == .error }
    }

    /// The graph `render` and `view` draw: the file's, with the SCXML it keeps as text under the
    /// states that hold it.
    var graph: FlowDiagram {
        var graph = FlowDiagram(spec)
        graph.showKeptSCXML(of: spec)
        return graph
    }

    /// For the commands that run the flow (`simulate`, `paths`, `view --events`): reports, in one line,
    /// the first thing the file holds that is not run (with how many more), and exits 3.
    func refuseWhatIsNotRun() throws {
        guard let first = spec.warnings.first else { return }
        let more = spec.warnings.count - 1
        report((first.location.map { "\($0): " } ?? "") + "error: \(first.message)"
               + (more == 0 ? "" : " (and \(more) more not run: flowviz validate lists them)"))
        throw ExitCode(3)
    }
}
