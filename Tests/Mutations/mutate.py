#!/usr/bin/env python3
"""Mutation check: deliberate mistakes in the engine and the supervisor must each fail a test.

`make mutate` runs this. It copies the package (the working tree as it is: tracked and untracked
files, not ignored ones) to a temporary folder, checks that the unmutated copy passes
`swift test --filter FlowstateTests`, then applies each mutation below in turn (one textual
search-and-replace in one source file, on the copy only), builds and runs the same tests, and
reports which tests caught it. A mutation that no test catches "survived": the script then exits 1.

Each mutation's search text must occur exactly once in its file; when the source moves on and the
text is no longer there (or is there twice), the script stops with an error naming the mutation,
so that the patch is updated rather than silently skipped.

One build folder (inside the copy) serves every run: only one file changes between two runs. The
copy's manifest is trimmed to the targets the tests need (TARGETS), so that work in progress
elsewhere in the package (drawing, navigation, tools) neither slows the runs down nor breaks them.
A test that crashes the test process is named from the crash's backtrace and the run repeated
without it, so that every other test still reports whether it caught the mutation.

Usage: Tests/Mutations/mutate.py [--only NAME ...] [--keep] [--list] [--swift SWIFT]
Standard library only.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILTER = "FlowstateTests"
TEST_TIMEOUT = 900  # seconds; a run that hangs counts as caught (reported as a timeout)


@dataclass
class Mutation:
    name: str
    what: str
    file: str
    search: str
    replace: str


MUTATIONS = [
    Mutation(
        name="document-order",
        what="a state's transitions are tried in reverse declaration order",
        file="Sources/Flowstate/FlowCompiler.swift",
        search="for r in shortcuts.bySource[shortcuts.sourceRanges[source]..<shortcuts.sourceRanges[source + 1]] {",
        replace="for r in shortcuts.bySource[shortcuts.sourceRanges[source]..<shortcuts.sourceRanges[source + 1]]"
        ".reversed() {",
    ),
    Mutation(
        name="exit-order",
        what="a transition's exit effects run outermost first",
        file="Sources/Flowstate/FlowCompiler.swift",
        search="""        var s = shortcuts.exitUp[leaf]
        while s >= 0 && depth[s] > floor {
            effects.append(contentsOf: exits[s])
            s = above(s, in: shortcuts.exitUp)
        }""",
        replace="""        var s = shortcuts.exitUp[leaf]
        var outermostFirst: [Int] = []
        while s >= 0 && depth[s] > floor {
            outermostFirst.insert(s, at: 0)
            s = above(s, in: shortcuts.exitUp)
        }
        for x in outermostFirst { effects.append(contentsOf: exits[x]) }""",
    ),
    Mutation(
        name="teardown-order",
        what="siblings are torn down in spawn order (the first spawned first)",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="""            var c = nodes[Int(s)].firstChild  // pushed first to last: the last child is torn down first
            while c >= 0 {
                stack.append((c, false))
                c = nodes[Int(c)].next
            }""",
        replace="""            var c = nodes[Int(s)].lastChild
            while c >= 0 {
                stack.append((c, false))
                c = nodes[Int(c)].previous
            }""",
    ),
    Mutation(
        name="guard-ignored",
        what="every guard holds",
        file="Sources/Flowstate/FlowTable.swift",
        search="move.guardIndex < 0 || guards[Int(move.guardIndex)](states[state], event)",
        replace="true",
    ),
    Mutation(
        name="child-not-torn-down",
        what="the declared child of a state the parent leaves keeps running",
        file="Sources/Flowstate/Supervisor/Supervisor.swift",
        search="if stateSlot >= 0 && (summary.kind == .finished || !box.isActive(Int(stateSlot))) {",
        replace="if stateSlot >= 0 && summary.kind == .finished {",
    ),
    Mutation(
        name="restart-intensity",
        what="one restart more than maxRestarts is allowed within the window (< became <=)",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="guard instants.count < maxRestarts, failedStarts <= maxRestarts else { return false }",
        replace="guard instants.count <= maxRestarts, failedStarts <= maxRestarts else { return false }",
    ),
]


def log(message):
    print(message, flush=True)


def package_files():
    """The working tree's files as git sees them: tracked and untracked, ignored ones left out."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode()
    files = [f for f in out.split("\0") if f and os.path.isfile(os.path.join(ROOT, f))]
    if os.path.isfile(os.path.join(ROOT, "Package.resolved")):
        files.append("Package.resolved")  # ignored by git, but it pins the dependencies
    return sorted(set(files))


def copy_package(destination):
    for f in package_files():
        target = os.path.join(destination, f)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, f), target)


# Only what the tests need is built in the copy: its manifest is trimmed to these targets, so that
# the run neither waits for nor depends on the rest of the package (drawing, navigation, tools).
TARGETS = ["Flowstate", "FlowstateExamples", FILTER]
MANIFEST_TRIM = """

// Added by Tests/Mutations/mutate.py to its temporary copy: only what the tests it runs need is built.
let mutationTargets: Set<String> = [%s]
package.targets.removeAll { !mutationTargets.contains($0.name) }
package.products.removeAll()
""" % ", ".join(f'"{t}"' for t in TARGETS)


def trim_manifest(copy):
    path = os.path.join(copy, "Package.swift")
    with open(path, encoding="utf-8") as f:
        manifest = f.read()
    missing = [t for t in TARGETS if f'"{t}"' not in manifest]
    if missing:
        sys.exit(f"mutate: Package.swift no longer declares {', '.join(missing)}; update TARGETS in {__file__}")
    with open(path, "a", encoding="utf-8") as f:
        f.write(MANIFEST_TRIM)


def check_patches(copy):
    """Every search text occurs exactly once in its file, before anything is built."""
    problems = []
    for m in MUTATIONS:
        path = os.path.join(copy, m.file)
        if not os.path.isfile(path):
            problems.append(f"{m.name}: {m.file} does not exist")
            continue
        with open(path, encoding="utf-8") as f:
            count = f.read().count(m.search)
        if count != 1:
            problems.append(f"{m.name}: the search text occurs {count} times in {m.file} (expected exactly once)")
    if problems:
        sys.exit("mutate: the patches no longer match the sources; update Tests/Mutations/mutate.py:\n  "
                 + "\n  ".join(problems))


# Swift Testing's lines: `✘ Test "Display name" recorded an issue at File.swift:12:5: ...` (or the
# function's name when the test has no display name), then `✘ Test "..." failed after ...`.
FAILED_TEST = re.compile(r'✘ Test (?:"([^"]+)"|(\S+)) (?:recorded an issue(?: at (\S+?):\d+:)?|failed)')


# A crash's backtrace names the test function it happened in, in a frame of a test file:
# `5 [ra] 0x... SignUpFlowTests.happyPath() + 4036 in FlowstatePackageTests.xctest at /.../Tests/FlowstateTests/...`
CRASH_FRAME = re.compile(r"(\w+)\.(\w+)\([^)]*\) \+ \d+ in \S+ at \S*/Tests/" + FILTER + r"/")
MAX_CRASHES = 5


def run_tests(copy, swift, scratch):
    """Builds and runs the tests; returns (status, failed test names, seconds, output).

    A test that crashes the test process takes the others down with it; the crashed test is named
    (from the backtrace) and the run is repeated without it, so that every test gets to report."""
    started = time.monotonic()
    build = subprocess.run([swift, "build", "--build-tests", "--scratch-path", scratch],
                           cwd=copy, capture_output=True, text=True)
    if build.returncode != 0:
        return "build failed", [], time.monotonic() - started, build.stdout + build.stderr
    failed = []  # "name (File.swift)", in the order the tests failed
    seen = set()
    skipped = []
    outputs = []
    while True:
        command = [swift, "test", "--skip-build", "--scratch-path", scratch, "--filter", FILTER]
        for pattern in skipped:
            command += ["--skip", pattern]
        # Its own process group, so that a run that hangs is ended with the test runner it started.
        test = subprocess.Popen(command, cwd=copy, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
        try:
            output, _ = test.communicate(timeout=TEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(test.pid, signal.SIGKILL)
            output, _ = test.communicate()
            outputs.append(output)
            return "timeout", failed, time.monotonic() - started, "\n".join(outputs)
        outputs.append(output)
        for line in output.splitlines():
            match = FAILED_TEST.search(line)
            if match:
                name = match.group(1) or match.group(2)
                if name not in seen:
                    seen.add(name)
                    failed.append(name + (f" ({match.group(3)})" if match.group(3) else ""))
        crash = None
        if test.returncode != 0 and "exited with unexpected signal" in output:
            # The crashed thread's frames: from `Thread 4 "..." crashed:` to the next thread.
            thread = re.search(r"^Thread \d+ .*crashed:$(.*?)(?=^Thread \d+ |\Z)", output, re.M | re.S)
            crash = CRASH_FRAME.search(thread.group(1) if thread else output)
        if crash is None or len(skipped) == MAX_CRASHES:
            break
        suite, function = crash.group(1), crash.group(2)
        failed.append(f"{suite}.{function}() (crashed)")
        skipped.append(f"{FILTER}\\.{suite}/{function}\\(")
    status = "passed" if test.returncode == 0 and not failed else "failed"
    if status == "failed" and not failed:
        failed = [f"(the test run failed with status {test.returncode}; see the output)"]
    return status, failed, time.monotonic() - started, "\n".join(outputs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="run only this mutation (repeatable)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary copy (its path is printed) and each run's output, mutate-NAME.log")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"), help="the swift driver")
    args = parser.parse_args()

    if args.list:
        for m in MUTATIONS:
            log(f"{m.name:22} {m.file}: {m.what}")
        return 0
    chosen = MUTATIONS
    if args.only:
        unknown = set(args.only) - {m.name for m in MUTATIONS}
        if unknown:
            sys.exit(f"mutate: unknown mutation(s): {', '.join(sorted(unknown))} (see --list)")
        chosen = [m for m in MUTATIONS if m.name in args.only]

    began = time.monotonic()
    copy = tempfile.mkdtemp(prefix="flowstate-mutate-")
    scratch = os.path.join(copy, ".build-mutate")
    try:
        log(f"==> copying the package to {copy}")
        copy_package(copy)
        trim_manifest(copy)
        check_patches(copy)
        originals = {}
        for m in chosen:
            with open(os.path.join(copy, m.file), encoding="utf-8") as f:
                originals.setdefault(m.file, f.read())

        log(f"==> baseline: swift test --filter {FILTER}, unmutated")
        status, failed, seconds, output = run_tests(copy, args.swift, scratch)
        if status != "passed":
            log(output[-6000:])
            sys.exit(f"mutate: the unmutated package does not pass ({status}; failing: {', '.join(failed)}): "
                     "fix that first")
        log(f"    passed ({seconds:.0f} s)")

        results = []
        for m in chosen:
            path = os.path.join(copy, m.file)
            source = originals[m.file]
            assert source.count(m.search) == 1, m.name
            with open(path, "w", encoding="utf-8") as f:
                f.write(source.replace(m.search, m.replace, 1))
            log(f"==> {m.name}: {m.what} ({m.file})")
            status, failed, seconds, output = run_tests(copy, args.swift, scratch)
            with open(path, "w", encoding="utf-8") as f:
                f.write(source)
            with open(os.path.join(copy, f"mutate-{m.name}.log"), "w", encoding="utf-8") as f:
                f.write(output)  # kept with --keep
            if status == "build failed":
                log(output[-4000:])
                log(f"    the mutated package does not build ({seconds:.0f} s): fix the patch")
            elif status == "passed":
                log(f"    SURVIVED: no test failed ({seconds:.0f} s)")
            elif status == "timeout":
                log(f"    caught: the tests did not finish within {TEST_TIMEOUT} s")
            else:
                log(f"    caught ({seconds:.0f} s) by {len(failed)} test(s)")
            results.append((m, status, failed))

        log("")
        log("==> summary")
        width = max(len(m.name) for m in chosen)
        for m, status, failed in results:
            verdict = {"failed": f"caught by {len(failed)} test(s):", "timeout": "caught (timeout)",
                       "passed": "SURVIVED", "build failed": "BUILD FAILED"}[status]
            log(f"  {m.name:{width}}  {verdict}")
            for name in failed if status == "failed" else []:
                log(f"  {'':{width}}    {name}")
        survived = [m.name for m, status, _ in results if status in ("passed", "build failed")]
        log(f"==> {len(results) - len(survived)} of {len(results)} mutations caught "
            f"in {time.monotonic() - began:.0f} s")
        if survived:
            log("==> not caught: " + ", ".join(survived))
            return 1
        return 0
    finally:
        if args.keep:
            log(f"==> kept {copy}")
        else:
            shutil.rmtree(copy, ignore_errors=True)
            # SwiftPM's lock files for the copy's build folder, named after its path.
            prefix = copy.replace(os.sep, "_") + "_"
            for name in os.listdir(tempfile.gettempdir()):
                if name.startswith(prefix) and name.endswith(".lock"):
                    os.remove(os.path.join(tempfile.gettempdir(), name))


if __name__ == "__main__":
    sys.exit(main())
