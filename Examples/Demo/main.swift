import Flowstate
import FlowstateExamples

// Runs the sign-up flow of seed 004 through a FlowRuntime and prints what happens, step by step.

let definition = SignUp.definition
print("Flow '\(definition.name)': \(definition.states.count) states, \(definition.transitions.count) transitions")
for transition in definition.transitions {
    let target = transition.target.map { "\($0)" } ?? "(stays)"
    print("  \(transition.source) -> \(target)  \(transition.label)")
}
let issues = definition.validate()
print(issues.isEmpty ? "Validation: no problems." : "Validation:\n" + issues.map { "  \($0)" }.joined(separator: "\n"))

let session: [SignUp.Event] = [
    .submitEmail("ada"), .submitEmail("ada@example.com"),
    .submitPassword("short"), .submitPassword("correct horse"),
    .back, .submitPassword("correct horse battery"),
    .submitCode("12"), .submitCode("123456"),
]

do {
    let runtime = try FlowRuntime(definition) { effect, _ in
        print("      perform \(effect)")
    }
    runtime.observe { step in print("  \(step)") }
    print("\nTrace:")
    try runtime.start()
    for event in session {
        try runtime.send(event)
    }
    print("\nFinished: \(runtime.isFinished), output: \(runtime.output.map { "\($0)" } ?? "none")")
} catch {
    print("error: \(error)")
}
