import FlowSpec

/// The text of a 10,000-state, 50,000-transition flow spec (what `flowviz validate` reads).
let bigSpecText: String = {
    let states = (0..<10_000).map { i -> FlowFile.State in
        var state = FlowFile.State(name: "state \(i)")
        state.transitions = (0..<5).map { k in
            FlowFile.Transition(event: "e\(k)", guardName: k == 0 ? nil : "g\(k)",
                                target: "state \((i * 7919 + k * 104_729 + 1) % 10_000)", effects: ["fx\(k)"])
        }
        return state
    }
    return FlowFile(name: "big", initial: "state 0", states: states).json()
}()
let bigSpec = try! FlowFile.parse(bigSpecText, file: "big.json")
