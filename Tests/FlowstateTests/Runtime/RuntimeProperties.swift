import Flowstate
import PropertyBased
import Testing

@Suite("Runtime properties")
struct RuntimeProperties {
    /// The handler sends events while performing effects; they must be processed after the step, in
    /// the order they were sent, and the handler must never be re-entered.
    @Test("Queued events are handled FIFO after the step, never re-entrantly")
    func fifoNoReentrance() async {
        let followUps = zip(Gen.int(in: 0...3), Gen.int(in: 0...2)).array(of: 0...6).array(of: 1...20)
        await propertyCheck(count: 150, input: Generators.flows(allowEventless: false, failingPolicy: false), Generators.events, followUps) { flow, events, plan in
            var depth = 0
            var maxDepth = 0
            var sentByHandler: [Gx.Event] = []
            var processed: [Gx.Event] = []
            var effectCount = 0
            let runtime = try FlowRuntime(flow.definition) { _, runtime in
                depth += 1
                maxDepth = max(maxDepth, depth)
                defer { depth -= 1 }
                let sends = plan[effectCount % plan.count]
                effectCount += 1
                guard sentByHandler.count < 200 else { return }
                for (kind, payload) in sends {
                    let event = Gx.Event(kind: kind, payload: payload)
                    sentByHandler.append(event)
                    let pending = runtime.pendingEvents
                    try runtime.send(event)
                    #expect(runtime.pendingEvents == pending + 1, "a send from the handler is queued, not processed")
                }
            }
            runtime.observe { step in if let event = step.event { processed.append(event) } }
            _ = try? runtime.start()
            for event in events where !runtime.isFinished {
                let before = sentByHandler.count
                _ = try? runtime.send(event)
                #expect(runtime.pendingEvents == 0)
                let queuedNow = Array(sentByHandler[before...])
                #expect(Array(processed.suffix(queuedNow.count)) == queuedNow || runtime.isFinished)
            }
            #expect(maxDepth <= 1)
        }
    }
}
