#!/usr/bin/env python3
"""Runs Flowstate's ratio benchmarks and fails when a ratio passes its threshold (`make bench`).

Every figure is a ratio to a baseline measured in the same run of the harness (ordo-one/benchmark):
the hand-written switch for `FlowMachine.send`, `FlowMachine.send` for `FlowRuntime.send` and
`Supervisor.send`, a hand-written tree for spawn + teardown and for memory, the 1k case for the
10k case, the engine's step on a flow file's definition for `FlowSimulation`'s step on the file.

- Time is the thread CPU time of the measured region (a custom metric recorded by
  Support/BenchmarkSupport; `--clock wall` uses the harness's wall clock instead, for both sides).
  Each time subject also runs its baseline just before its measured region in every iteration
  (`measure(pairedWith:)`); the ratio is the median (p50) of those per-iteration ratios, which a
  build on the other core disturbs far less than two medians taken seconds apart. The baselines'
  own benchmarks run too (their rows in the harness's output, their allocation counts).
- Allocations are the harness's malloc count (MallocInterposer) over 1,000,000 events.
- Memory is the heap a measured region leaves allocated (glibc mallinfo2: chunks in use, headers
  included, plus mmapped ones).

    cd Benchmarks && python3 check-ratios.py                 # run the benchmarks, then check
    python3 check-ratios.py --from .build/ratios/Current_run.influx.csv   # check an earlier run

Exit status: 0 when every check passes, 1 when one fails or a benchmark is missing, 2 when the
benchmark run itself failed. Python 3 standard library only.
"""

import argparse
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, ".build", "ratios")
# The benchmark target of each group (--only builds and runs only the targets of its groups).
TARGETS = {"send": "Engine", "tree": "SupervisorBench", "owner": "SupervisorBench", "timers": "SupervisorBench",
           "render": "ExporterBench", "spec": "ExporterBench", "simulate": "SimulationBench"}
GROUPS = {"send": "Send", "tree": "Tree", "owner": "Owner", "timers": "Timers", "render": "Big", "spec": "Spec",
          "simulate": "Simulate"}  # --only: name prefixes
# Rendering big flows in-process (wall clock, ms): the absolute targets, with `dot` on the
# same DOT in the same run shown beside them.
RENDER_LIMITS = {200: 1_000.0, 400: 5_000.0}
SPEC_VALIDATE = "Spec: validate 10,000 states and 50,000 transitions (compile the definition simulate runs, check it)"
SPEC_PATHS = "Spec: paths (shortest paths and transition cover) of 10,000 states and 50,000 transitions"
SPEC_BFS = "Spec: breadth-first search over the same graph (baseline, hand-written adjacency lists)"
SPEC_ONCE = "Spec: validate + paths compiled once (what flowviz paths does)"
SPEC_LIMIT_MS = 1_000.0
# A flow file's step in FlowSimulation against the engine's own step on the definition the file
# compiles to, the same events (issue 37, item 7; Benchmarks/Simulation): per step, paired in each
# iteration. The driver keeps SCXML's queues, runs the file's executable content and records every
# step as strings, so it costs many engine steps (engine: a string event's step, some 300-450 ns).
# First measured at 35.9x (10.9 us a step) and 15.9x (7.2 us an event), load average 9 on 2 cores
# (docs/PERFORMANCE.md, "A simulation step"); the thresholds leave room for noise and catch a driver
# that gets twice as slow.
SIMULATION_STEPS = 10_000  # steps per iteration of every "Simulate:" benchmark
SIMULATION_RATIOS = [  # (subject, baseline, label, threshold)
    ("Simulate: FlowSimulation of a self-sending document, 10k steps to its step limit",
     "Simulate: FlowMachine.send, again and again, 10k steps (baseline)",
     "FlowSimulation step of a self-sending document / FlowMachine.send", 60.0),
    ("Simulate: FlowSimulation.send, a ring's script, 10k events",
     "Simulate: FlowMachine.send, a ring's script, 10k events (baseline)",
     "FlowSimulation.send of a script / FlowMachine.send", 30.0),
]

EVENTS = 1_000_000  # events per iteration of every "Send:" benchmark

SWITCH = "Send: hand-written switch, 1M events (baseline)"
MACHINE = "Send: FlowMachine.send, 1M events"
RUNTIME = "Send: FlowRuntime.send, 1M events (no-op handler, no observers)"
SUPERVISOR = "Send: Supervisor.send to a running root, 1M events (no observers)"
CONTEXT_SWITCH = "Send: hand-written switch with context, 1M events (baseline)"
CONTEXT_MACHINE = "Send: FlowMachine.send with context (updates, context guard, emits), 1M events"
# How a caller holds the step (issue 24): each form of Benchmarks/Engine/StepForms.swift, against the
# same switch, held to the same threshold as the one-expression form and to no allocation per event.
# Issue 24's target, 3x for every form, is met since FlowStep is a small struct that Swift passes in
# registers (docs/PERFORMANCE.md, "How a caller holds a step"); every form is held to it.
STEP_FORMS = [  # (benchmark, label, threshold)
    ("Send: FlowMachine.send, step bound to a let, 1M events", "let step = send; step.effects", 3.0),
    ("Send: FlowMachine.send, step switched over, 1M events", "switch step.kind { case .transitioned: ... }", 3.0),
    ("Send: FlowMachine.send, call's result switched over, 1M events", "switch try send(e) { case let step ... }",
     3.0),
    ("Send: FlowMachine.send, step passed to a function, 1M events", "step passed to a function", 3.0),
    ("Send: FlowMachine.send, step passed to a generic function, 1M events", "step passed to a generic function", 3.0),
    ("Send: FlowMachine.send, step's state, effects and transitions read, 1M events",
     "step.state, .effects, .transitions", 3.0),
]
# A flow with parallel states (issue 24): two regions of five states against two hand-written switches
# given the same events (Benchmarks/Engine/ParallelFlow.swift), no allocation per event, held to issue
# 24's target, 4x. Earlier stops measured 3.9-6.4x and kept guards of 6-8x; since the common step of a
# small flow is a look-up in its configuration table (stop 35), it measures about 3.1x in both forms
# (docs/PERFORMANCE.md, "A step of a flow with parallel states").
PARALLEL_SWITCHES = "Send: two hand-written switches (two regions), 1M events (baseline)"
PARALLEL_FORMS = [
    ("Send: FlowMachine.send, two regions of five states, step bound to a let, 1M events",
     "FlowMachine.send, two regions, let step = send; step.effects / two switches", 4.0),
    ("Send: FlowMachine.send, two regions of five states, step's state, effects and transitions read, 1M events",
     "FlowMachine.send, two regions, step.state, .effects, .transitions / two switches", 4.0),
]
SIZES = ["1k", "10k", "100k", "1M"]
OWNER = "Owner: {} owner-bound spawns"
PLAIN = "Owner: {} spawns without owner"

# Thresholds, from the issue. Not to be loosened to make a run pass.
SEND_RATIOS = [  # (subject, baseline, label, threshold)
    (MACHINE, SWITCH, "FlowMachine.send / switch", 3.0),
    *[(form, SWITCH, f"FlowMachine.send, {label} / switch"
       + ("" if limit <= 3.0 else " (a guard; issue 24's target of 3x is not met)"), limit)
      for form, label, limit in STEP_FORMS],
    *[(form, PARALLEL_SWITCHES, label, limit) for form, label, limit in PARALLEL_FORMS],
    (RUNTIME, MACHINE, "FlowRuntime.send / FlowMachine.send", 3.0),
    (SUPERVISOR, MACHINE, "Supervisor.send / FlowMachine.send", 6.0),
    # The cost of context (issue 16): updates, a context guard and derived effects, against the same
    # switch over the same struct.
    (CONTEXT_MACHINE, CONTEXT_SWITCH, "FlowMachine.send with context / switch with context", 6.0),
]
# Steady state allocates nothing: allocations per event above the switch's (the harness's own
# handful per run) must stay under one per 1,000 events. One allocation per event reads 1.0.
ALLOCATIONS_PER_EVENT = 0.001
TREE_RATIO = 2.0  # spawn + teardown, and retained bytes, per machine against the hand-written tree
# Linear from 1k to 1M: the ratio to the hand-written tree at N stays within 1.5x of the ratio at 1k
# (the hand-written tree's own per-machine cost grows with N from cache and TLB misses, which no tree
# avoids; dividing by it leaves what the supervisor adds). An n log n cost doubles from 1k to 1M.
LINEARITY = 1.5
# "10,000 owner-bound spawns cost at most ~10x 1,000 of them": linear is 10x (the spawns without an
# owner, measured in the same run, show what linear looks like here); ~ allows 20% for noise.
OWNER_GROWTH = 12.0
# "10,000 armed timers cost O(log n) each to arm and cancel" (issue 25): the cost per timer with 10,000
# in the queue against 1,000 (paired in each iteration). log2(10k) / log2(1k) is 1.33x; a queue that
# scans or shifts its timers grows about 10x. 2x leaves room for the cache misses of a bigger heap.
TIMERS = "Timers: {} armed and cancelled"
TIMER_GROWTH = 2.0

METRICS = {  # as the influx export names them (spaces removed)
    "cpu": "ThreadCPUtime(ns)",
    "wall": "Time(wallclock)",
    "mallocs": "Malloc(total)",
    "heap": "Heapretained(bytes)",
    "paired_cpu": "PairedbaselinethreadCPUtime(ns)",
    "paired_ratio": "Ratiotopairedbaseline(x10000)",
}


def run_benchmarks(swift, out_dir, groups):
    os.makedirs(out_dir, exist_ok=True)
    csv_path = os.path.join(out_dir, "Current_run.influx.csv")
    if os.path.exists(csv_path):
        os.remove(csv_path)
    name_filter = "^(" + "|".join(GROUPS[g] for g in groups) + "): .*"
    targets = "^(" + "|".join(sorted({TARGETS[g] for g in groups})) + ")$"
    command = [swift, "package", "--disable-sandbox", "benchmark", "--target", targets, "--filter", name_filter,
               "--format", "influx", "--path", out_dir, "--no-progress"]
    print("==> " + " ".join(f"'{c}'" if " " in c or "^" in c else c for c in command), flush=True)
    status = subprocess.call(command, cwd=HERE)
    if status != 0 or not os.path.exists(csv_path):
        # A benchmark that crashed (a checksum precondition, say) fails the run: no partial check.
        print(f"FAILED: the benchmark run failed (exit status {status}; see its output above)", file=sys.stderr)
        sys.exit(2)
    return csv_path


def read_results(csv_path, percentile):
    """{benchmark name: {metric: value at `percentile`}} from the harness's influx CSV export."""
    results, iterations = {}, {}
    want = f"{float(percentile):.1f}"
    with open(csv_path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#") or row[0] == "measurement":
                continue
            # ...,metric,unit,test,percentile,value,test_average,iterations,warmup_iterations,time
            # (counted from the end: host and kernel columns may hold anything)
            metric, _unit, test, pct, value, _avg, count = row[-9:-2]
            if pct == want:
                results.setdefault(test, {})[metric] = float(value)
                iterations[test] = int(count)
    return results, iterations


class Checker:
    def __init__(self, results, iterations, clock):
        self.results = results
        self.iterations = iterations
        self.clock = clock
        self.time_metric = METRICS[clock]
        self.rows = []
        self.failed = False

    def get(self, name, metric, required=True):
        value = self.results.get(name, {}).get(metric)
        if value is None and required:
            self.missing(f"{name} [{metric}]")
        return value

    def missing(self, what):
        self.failed = True
        self.rows.append((f"MISSING: {what}", "", "", "", "", "FAIL"))

    def time_ratio(self, subject, baseline, per=1.0):
        """(subject time, baseline time, ratio), times divided by `per`.

        With thread CPU time, a subject measured with `measure(pairedWith:)` gives the median of its
        per-iteration ratios to the baseline run just before it; otherwise (or with --clock wall) the
        ratio of the two benchmarks' medians.
        """
        s = self.get(subject, self.time_metric)
        if s is None:
            return None
        paired = self.get(subject, METRICS["paired_ratio"], required=False)
        if self.clock == "cpu" and paired is not None:
            b = self.get(subject, METRICS["paired_cpu"])
            return (s / per, b / per, paired / 10_000) if b else None
        b = self.get(baseline, self.time_metric)
        return (s / per, b / per, s / b) if b else None

    def check(self, label, value, baseline, ratio, threshold, ratio_text=None, threshold_text=None):
        ok = ratio <= threshold
        self.failed |= not ok
        self.rows.append((label, fmt(value), fmt(baseline), ratio_text or f"{ratio:.2f}x",
                          threshold_text or f"<= {threshold:g}x", "ok" if ok else "FAIL"))

    def info(self, label, value, baseline, ratio):
        self.rows.append((label, fmt(value), fmt(baseline), f"{ratio:.2f}x", "(info)", ""))

    def tree(self, kind, size):
        """(name, machines) of the Supervisor's and the hand-written tree's benchmark."""
        pattern = re.compile(re.escape(f"Tree: {kind}, {size}, ") + r"(\d+) machines \((Supervisor|hand-written tree)\)$")
        found = {}
        for name in self.results:
            match = pattern.match(name)
            if match:
                found[match.group(2)] = (name, int(match.group(1)))
        return found.get("Supervisor"), found.get("hand-written tree")


def fmt(value):
    if value is None:
        return "-"
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.6f}".rstrip("0")


def evaluate(checker, groups):
    clock = "CPU" if checker.clock == "cpu" else "wall"
    per_machine = {}  # (kind, size) -> (supervisor per machine, hand-written per machine, ratio)
    if "send" in groups:
        evaluate_send(checker, clock)
    if "tree" in groups:
        evaluate_tree(checker, clock, per_machine)
    if "owner" in groups:
        evaluate_owner(checker, clock)
    if "timers" in groups:
        evaluate_timers(checker, clock)
    if "render" in groups:
        evaluate_render(checker)
    if "spec" in groups:
        evaluate_spec(checker)
    if "simulate" in groups:
        evaluate_simulation(checker, clock)
    return per_machine


def evaluate_simulation(checker, clock):
    for subject, baseline, label, threshold in SIMULATION_RATIOS:
        measured = checker.time_ratio(subject, baseline, per=SIMULATION_STEPS)
        if measured:
            checker.check(f"{label} ({clock} ns/step)", *measured, threshold)


def evaluate_spec(checker):
    # validate + paths of a parsed 10,000-state flow file under one second (wall), the hand-written BFS beside.
    validate = checker.get(SPEC_VALIDATE, METRICS["wall"])
    paths = checker.get(SPEC_PATHS, METRICS["wall"])
    bfs = checker.get(SPEC_BFS, METRICS["wall"], required=False)
    if validate is None or paths is None:
        return
    ms = (validate + paths) / 1e6
    checker.check("flow file of 10,000 states: validate + paths (wall ms; hand-written BFS beside)",
                  ms, bfs / 1e6 if bfs else None, ms / SPEC_LIMIT_MS, 1.0,
                  ratio_text=f"{ms / (bfs / 1e6):.0f}x BFS" if bfs else "-",
                  threshold_text=f"< {SPEC_LIMIT_MS:,.0f} ms")
    # Information: flowviz paths compiles the file once for both (the check counts two compilations).
    once = checker.get(SPEC_ONCE, METRICS["wall"], required=False)
    if once is not None:
        checker.info("  the same compiled once, as flowviz paths does (wall ms)", once / 1e6, ms, once / 1e6 / ms)


def evaluate_render(checker):
    for size, limit in RENDER_LIMITS.items():
        for shape in ("flat", "nested"):
            ours = checker.get(f"Big: {size} states, {shape} (in-process)", METRICS["wall"])
            dot = checker.get(f"Big: {size} states, {shape} (dot binary on the same DOT)", METRICS["wall"], required=False)
            if ours is None:
                continue
            ms = ours / 1e6
            checker.check(f"render {size} states, {shape}, in-process (wall ms; dot on the same DOT beside)",
                          ms, dot / 1e6 if dot else None, ms / limit, 1.0,
                          ratio_text=f"{ms / (dot / 1e6):.2f}x dot" if dot else "-",
                          threshold_text=f"< {limit:,.0f} ms")


def evaluate_send(checker, clock):
    # One event, as a ratio to its baseline in the same run.
    for subject, baseline, label, threshold in SEND_RATIOS:
        measured = checker.time_ratio(subject, baseline, per=EVENTS)
        if measured:
            checker.check(f"{label} ({clock} ns/event)", *measured, threshold)

    # No allocation per event in steady state.
    base = checker.get(SWITCH, METRICS["mallocs"])
    for subject, label in [(MACHINE, "FlowMachine.send"), (RUNTIME, "FlowRuntime.send"), (SUPERVISOR, "Supervisor.send"),
                           (CONTEXT_MACHINE, "FlowMachine.send with context"),
                           *[(form, f"FlowMachine.send, {label}") for form, label, _ in STEP_FORMS],
                           *[(form, label.split(" / ")[0]) for form, label, _ in PARALLEL_FORMS]]:
        s = checker.get(subject, METRICS["mallocs"])
        if s is not None and base is not None:
            excess = (s - base) / EVENTS
            checker.check(f"{label} allocations/event (vs switch)", s / EVENTS, base / EVENTS, excess,
                          ALLOCATIONS_PER_EVENT, ratio_text=f"+{excess:.6f}".rstrip("0").rstrip("."),
                          threshold_text=f"<= +{ALLOCATIONS_PER_EVENT:g}")


def evaluate_tree(checker, clock, per_machine):
    # Spawn + teardown time and retained memory against the hand-written tree at each size, then linearity.
    for kind, what in [("spawn + teardown", f"spawn + teardown ({clock} ns/machine)"),
                       ("idle", "retained bytes/machine")]:
        for size in SIZES:
            sup, hand = checker.tree(kind, size)
            if sup is None or hand is None:
                checker.missing(f"Tree: {kind}, {size}")
                continue
            if sup[1] != hand[1]:
                checker.missing(f"Tree: {kind}, {size}: the two trees differ ({sup[1]} and {hand[1]} machines)")
                continue
            if kind == "idle":
                s, h = checker.get(sup[0], METRICS["heap"]), checker.get(hand[0], METRICS["heap"])
                if s is None or h is None:
                    continue
                if h <= 0:  # no mallinfo2 (not glibc): nothing was measured
                    checker.missing(f"Tree: idle, {size}: heap statistics unavailable on this platform")
                    continue
                measured = (s / sup[1], h / hand[1], s / h)
            else:
                measured = checker.time_ratio(sup[0], hand[0], per=sup[1])
            if measured:
                per_machine[(kind, size)] = measured
                checker.check(f"Supervisor {what}, {size}", *measured, TREE_RATIO)
        first = per_machine.get((kind, SIZES[0]))
        for size in SIZES[1:]:
            later = per_machine.get((kind, size))
            if first is not None and later is not None:
                checker.check(f"Linear {kind}: ratio at {size} / ratio at {SIZES[0]}", later[2], first[2],
                              later[2] / first[2], LINEARITY)


def evaluate_owner(checker, clock):
    # Owner-bound spawns: 10k against 1k.
    measured = checker.time_ratio(OWNER.format("10k"), OWNER.format("1k"), per=1e6)
    if measured:
        checker.check(f"10k / 1k owner-bound spawns ({clock} ms)", *measured, OWNER_GROWTH)
    s, b = checker.get(PLAIN.format("10k"), checker.time_metric), checker.get(PLAIN.format("1k"), checker.time_metric)
    if s is not None and b:
        checker.info(f"10k / 1k spawns without owner ({clock} ms), for scale", s / 1e6, b / 1e6, s / b)


def evaluate_timers(checker, clock):
    # Arm and cancel: the cost per timer with 10k timers in the queue against 1k.
    measured = checker.time_ratio(TIMERS.format("10k"), TIMERS.format("1k"), per=1e6)
    if measured:
        subject, baseline, ratio = measured
        per_timer = ratio / 10
        checker.check(f"timer queue: arm + cancel per timer, 10k armed / 1k armed ({clock} ms per run)",
                      subject, baseline, per_timer, TIMER_GROWTH)


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    lines = []
    for k, row in enumerate([header] + rows):
        cells = [str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown(rows, header):
    out = ["| " + " | ".join(header) + " |", "| --- |" + " ---: |" * (len(header) - 1)]
    for row in rows:
        cells = list(row)
        if cells[-1] == "FAIL":
            cells[-1] = "**FAIL**"
        out.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="csv", help="check this influx CSV export instead of running the benchmarks")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"), help="the swift driver (default: swift)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="where the run's export and report go")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                        help="thread CPU time (default) or wall clock, for both sides of every time ratio")
    parser.add_argument("--percentile", type=float, default=50.0, choices=[0.0, 25.0, 50.0, 75.0, 90.0, 99.0, 100.0],
                        help="which percentile of the iterations, of every metric including the per-iteration "
                             "ratios (default: 50; the export holds 0, 25, 50, 75, 90, 99 and 100)")
    parser.add_argument("--only", action="append", choices=sorted(GROUPS),
                        help="run and check only this group (repeatable); default: all")
    args = parser.parse_args()
    groups = args.only or list(GROUPS)

    csv_path = args.csv or run_benchmarks(args.swift, args.out, groups)
    results, iterations = read_results(csv_path, args.percentile)
    checker = Checker(results, iterations, args.clock)
    per_machine = evaluate(checker, groups)

    header = ("check", "value", "baseline", "ratio", "threshold", "result")
    print()
    print(f"Ratios (p{args.percentile:g} of each benchmark's iterations; every baseline from the same run: {csv_path})")
    print(table(checker.rows, header))

    cost_header = ("machines", "Supervisor ns/machine", "hand-written ns/machine",
                   "Supervisor B/machine", "hand-written B/machine")
    cost_rows = []
    for size in SIZES:
        t = per_machine.get(("spawn + teardown", size), (None, None, None))
        m = per_machine.get(("idle", size), (None, None, None))
        cost_rows.append((size, fmt(t[0]), fmt(t[1]), fmt(m[0]), fmt(m[1])))
    if "tree" in groups:
        print()
        print("Per-machine cost (spawn + teardown time; heap retained by an idle tree)")
        print(table(cost_rows, cost_header))
    print()
    print("Iterations measured per benchmark (after warm-up):")
    for name, count in sorted(iterations.items()):
        print(f"  {count:4d}  {name}")

    report_dir = os.path.dirname(os.path.abspath(csv_path))
    with open(os.path.join(report_dir, "ratios.md"), "w") as f:
        f.write(markdown(checker.rows, header) + "\n")
        if "tree" in groups:
            f.write("\n" + markdown(cost_rows, cost_header) + "\n")

    if checker.failed:
        failures = sum(1 for r in checker.rows if r[-1] == "FAIL")
        print(f"\nFAILED: {failures} check(s) past their threshold or missing (report: {report_dir}/ratios.md)")
        sys.exit(1)
    print(f"\nAll {len(checker.rows)} checks passed (report: {report_dir}/ratios.md)")


if __name__ == "__main__":
    main()
