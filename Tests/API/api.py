#!/usr/bin/env python3
"""The public API of Flowstate's library products, held still (issue 40; docs/STABILITY.md).

Each library module's public surface is read from the debug build's module files with the toolchain's
`swift-symbolgraph-extract` (no rebuild: a few seconds for all modules) and reduced to a text file, one
line per public declaration, sorted, with nothing that depends on the machine (no paths, no source
locations, no USRs):

    method FlowGraph.highlight(state:) | mutating func highlight(state label: String)
    init FlowGraph.init(_:mergeParallelEdges:) | init<F>(_ definition: FlowDefinition<F>, mergeParallelEdges: Bool = false) where F : Flow
    conformance FlowTrace: Swift.Decodable
    reexport Flowstate

A line is the declaration's kind, its path (`Type.member(labels:)`; members of another module's type
are qualified by that module, `Swift.String.x`) and its declaration as the compiler prints it (the
declaration fragments joined, whitespace collapsed; an extension member's `where` clause appended in
parentheses); a conformance (`conformsTo`) or superclass (`inheritsFrom`) is a line of its own, with its
conditions; `@_exported import M` in the module's sources is `reexport M`. Protocol requirements and
deprecations are noted after `  // `; that note is not compared (deprecating a symbol is compatible),
except that a protocol requirement without a default implementation that the baseline did not have
(new, or its default removed) breaks conforming types. Symbols of other modules, `package` and
`internal` symbols, SPI (`@_spi`) and members that protocol extensions of other modules give a type
(`-skip-synthesized-members`: `!=`, `Collection`'s methods...) are not part of the description, nor
the conformances every type has (`Copyable`, `Escapable`) or that `Sendable` implies (`SendableMetatype`).
A requirement and its default implementation that read alike are one line. The toolchain leaves out a
symbol whose name starts with its module's name and `Version`; `check` fails on a public one.

The checked-in baselines are `Tests/API/<Module>.api`; their header names `FlowstateRelease.version`
(Sources/Flowstate/Version.swift) and the counts.

Modes:
  check     compare each module's description with its baseline (`make check-api`, run by `make test`
            after the build). A baseline line missing from the current description (a symbol removed or
            renamed, a signature changed, a conformance dropped) fails, one line per symbol, naming it;
            so do a baseline recorded for another version than `FlowstateRelease.version` and a
            library product that is neither in MODULES nor in NOT_API. Additions pass and are listed.
            Runs `selftest` first. Exit status 0 or 1.
  record    rewrite the baselines (`make api-baseline`). Refuses to drop a baseline symbol that
            CHANGELOG.md does not name (see `names_in_changelog`): the change and its note go in the
            same commit.
  selftest  the checker's own verdicts on synthetic input (removal, rename, signature change, addition,
            conformance, requirement, CHANGELOG naming). Needs no build.
  show      print the current description of one module (`show Flowstate`).

The headers also name the toolchain whose symbol graphs they were written from. Another toolchain may
print a declaration in another form (spacing, attribute order): `check` then says so, and
`record --unreleased` re-records without the CHANGELOG rule while no git tag names the version (a
draft baseline: nothing released yet, nothing to break); refused once the version is tagged.
`record --toolchain-change` re-records the baselines another toolchain wrote without the CHANGELOG rule
(the others keep it; it refuses when every baseline was written by the toolchain in use). Review
`git diff Tests/API`: it must show only changes of form.

Naming a dropped symbol in CHANGELOG.md: a backticked name in a `### Removed` or `### Changed` list of
the `## [Unreleased]` section (or, while no git tag names the version `FlowstateRelease.version` is, of
that version's own section: the changes before the release is tagged belong to it). The name is the
declaration's path (`FlowMachine.send(_:)`), optionally qualified by its module
(`Flowstate.FlowMachine.send(_:)`), or the path without argument labels (`FlowMachine.send`: every
overload), or the path of an enclosing declaration (`FlowMachine`: the type, its members and its
conformances). A last component alone (`send(_:)`) names nothing: too many declarations share one. A
conformance is also named `Type: Protocol` (`FlowStep: Equatable`); a re-export `reexport Module`.

Usage: Tests/API/api.py check|record [--toolchain-change]|selftest|show MODULE [--swift SWIFT] [--bin-path DIR]
Standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
API_DIR = os.path.join(ROOT, "Tests", "API")

# The library products whose API semantic versioning covers, in the order of Package.swift.
MODULES = ["Flowstate", "FlowGraph", "FlowSpec", "FlowGraphviz", "FlowNavigation", "FlowTesting", "FlowstateMacros"]
# Library products that are not API: the examples (runnable documentation, changed freely).
NOT_API = {"FlowstateExamples", "CoordinatorExamples"}

NOTE = "  // "  # what follows it on a line is a note, not compared
# Conformances every type has unless it opts out (`~Copyable`, which its declaration then shows), and
# the metatype one that `Sendable` implies: the compiler lists them, a reader learns nothing from them.
IMPLICIT = {"Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype"}


# MARK: - Reading the toolchain's symbol graphs


def run(command, **kwargs):
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, **kwargs)


def library_products():
    """The names of the library products Package.swift declares."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as f:
        manifest = f.read()
    return re.findall(r'\.library\(\s*name:\s*"([^"]+)"', manifest)


def flowstate_version():
    path = os.path.join(ROOT, "Sources", "Flowstate", "Version.swift")
    with open(path, encoding="utf-8") as f:
        match = re.search(r'public static let version\s*=\s*"([^"]+)"', f.read())
    if not match:
        sys.exit(f"api.py: no `public static let version = \"...\"` in {os.path.relpath(path, ROOT)}")
    return match.group(1)


def find_extractor(swift):
    found = shutil.which("swift-symbolgraph-extract")
    if found:
        return found
    swift_path = shutil.which(swift)
    if swift_path:
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift_path)), "swift-symbolgraph-extract")
        if os.path.exists(candidate):
            return candidate
    sys.exit("api.py: swift-symbolgraph-extract not found (it comes with the Swift toolchain, beside `swift`)")


def target_triple(swift):
    result = run([swift, "-print-target-info"])
    if result.returncode != 0:
        sys.exit(f"api.py: `{swift} -print-target-info` failed:\n{result.stderr}")
    return json.loads(result.stdout)["target"]["triple"]


def extra_flags():
    """Clang flags for the system library CGraphviz (FlowGraphviz imports it): its module map, and
    Graphviz's headers from pkg-config as SwiftPM finds them."""
    flags = ["-I", os.path.join(ROOT, "Sources", "CGraphviz")]
    if shutil.which("pkg-config"):
        result = run(["pkg-config", "--cflags-only-I", "libgvc"])
        for flag in result.stdout.split():
            if flag.startswith("-I"):
                flags += ["-Xcc", flag]
    return flags


def extract(module, extractor, triple, modules_dir, out_dir, cache_dir):
    """Writes `module`'s symbol graphs to out_dir/module/; returns an error text or None."""
    folder = os.path.join(out_dir, module)
    os.makedirs(folder)
    command = [extractor, "-module-name", module, "-target", triple, "-I", modules_dir,
               "-minimum-access-level", "public", "-skip-synthesized-members",
               "-omit-extension-block-symbols", "-module-cache-path", cache_dir,
               "-output-dir", folder] + extra_flags()
    result = run(command)
    if result.returncode != 0:
        return f"{module}: swift-symbolgraph-extract failed ({result.returncode}):\n{result.stderr.strip()}"
    return None


def graphs(swift, bin_path, modules):
    """({module: [(extended module or None, graph json)]}, the toolchain that wrote them) from the build
    in bin_path."""
    extractor = find_extractor(swift)
    triple = target_triple(swift)
    modules_dir = os.path.join(bin_path, "Modules")
    if not os.path.isdir(modules_dir):
        modules_dir = bin_path
    missing = [m for m in modules if not os.path.exists(os.path.join(modules_dir, f"{m}.swiftmodule"))]
    if missing:
        sys.exit(f"api.py: no {', '.join(m + '.swiftmodule' for m in missing)} in {modules_dir}: "
                 f"build first (`swift build`; `make check-api` does)")
    cache_dir = os.path.join(bin_path, "api-module-cache")
    result = {}
    toolchain = "unknown"
    with tempfile.TemporaryDirectory(prefix="flowstate-api-") as out_dir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            errors = list(pool.map(lambda m: extract(m, extractor, triple, modules_dir, out_dir, cache_dir), modules))
        errors = [e for e in errors if e]
        if errors:
            sys.exit("api.py: " + "\n".join(errors))
        for module in modules:
            folder = os.path.join(out_dir, module)
            found = []
            for name in sorted(os.listdir(folder)):
                if not name.endswith(".symbols.json"):
                    continue
                stem = name[: -len(".symbols.json")]
                if stem == module:
                    extended = None
                elif stem.startswith(module + "@"):
                    extended = stem[len(module) + 1:]
                else:
                    continue  # another module's graph
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    found.append((extended, json.load(f)))
                toolchain = found[-1][1].get("metadata", {}).get("generator", toolchain)
            result[module] = found
    return result, toolchain


# MARK: - The description: one line per declaration


def collapse(text):
    return " ".join(text.split())


def constraint_text(constraints, implied=()):
    """The constraints as text, leaving out the implicit ones and those in `implied` (the extended
    type's own: a member of `extension G` and of `G`'s body read alike)."""
    parts = []
    for c in constraints or []:
        if c.get("kind") == "conformance" and c.get("rhs") in ("Copyable", "Escapable", "SendableMetatype"):
            continue
        op = {"conformance": ":", "superclass": ":", "sameType": " =="}.get(c.get("kind"), " " + c.get("kind", "?"))
        part = f"{c.get('lhs')}{op} {c.get('rhs')}"
        if part not in implied:
            parts.append(part)
    return ", ".join(parts)


def reexports(module):
    """`@_exported import M` in the module's sources: the modules a client of this one imports too."""
    found = set()
    folder = os.path.join(ROOT, "Sources", module)
    for base, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(base, name), encoding="utf-8") as f:
                    found.update(re.findall(r"^\s*@_exported\s+import\s+(?:\w+\s+)?([\w.]+)", f.read(), re.M))
    return found


def describe(module_graphs, exported=()):
    """The sorted, unique lines describing one module, from its symbol graphs [(extended, json)]."""
    lines = set()
    for extended, graph in module_graphs:
        paths = {}
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open") or symbol.get("spi"):
                continue
            path = ".".join(symbol["pathComponents"])
            if extended:
                path = f"{extended}.{path}"
            paths[symbol["identifier"]["precise"]] = path
        requirements = {}  # precise id of a requirement -> whether it has a default implementation
        for rel in graph.get("relationships", []):
            if rel["kind"] in ("requirementOf", "optionalRequirementOf"):
                requirements.setdefault(rel["source"], rel["kind"] == "optionalRequirementOf")
        for rel in graph.get("relationships", []):
            if rel["kind"] == "defaultImplementationOf" and rel["target"] in requirements:
                requirements[rel["target"]] = True

        # Each type's own generic constraints, by path: implied in every extension of it.
        own_constraints = {}
        for symbol in graph.get("symbols", []):
            precise = symbol["identifier"]["precise"]
            if precise in paths:
                text = constraint_text(symbol.get("swiftGenerics", {}).get("constraints"))
                own_constraints[paths[precise]] = set(text.split(", ")) if text else set()

        def name_of(precise, fallback):
            return paths.get(precise) or fallback or precise

        for symbol in graph.get("symbols", []):
            precise = symbol["identifier"]["precise"]
            if precise not in paths:
                continue
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            declaration = collapse("".join(f["spelling"] for f in symbol.get("declarationFragments", [])))
            parent = paths[precise].rsplit(".", 1)[0] if "." in paths[precise] else ""
            where = constraint_text(symbol.get("swiftExtension", {}).get("constraints"),
                                    own_constraints.get(parent, set()))
            if where and "where " not in declaration:
                declaration += f" (where {where})"
            if symbol.get("accessLevel") == "open" and not re.search(r"\bopen\b", declaration):
                declaration = "open " + declaration
            availability = []
            for entry in symbol.get("availability", []):
                domain = entry.get("domain", "*")
                if entry.get("isUnconditionallyUnavailable"):
                    availability.append(f"@available({domain}, unavailable)")
                for field in ("introduced", "obsoleted"):
                    if field in entry:
                        v = entry[field]
                        number = ".".join(str(v.get(k, 0)) for k in ("major", "minor", "patch"))
                        availability.append(f"@available({domain}, {field}: {number})")
            if availability:
                declaration = " ".join(sorted(availability)) + " " + declaration
            marks = []
            if precise in requirements:
                marks.append("requirement, defaulted" if requirements[precise] else "requirement")
            if any(e.get("deprecated") or e.get("isUnconditionallyDeprecated") for e in symbol.get("availability", [])):
                marks.append("deprecated")
            line = f"{kind} {paths[precise]} | {declaration}"
            if marks:
                line += NOTE + ", ".join(marks)
            lines.add(line)
        for rel in graph.get("relationships", []):
            if rel["kind"] not in ("conformsTo", "inheritsFrom") or rel["source"] not in paths:
                continue
            target = name_of(rel["target"], rel.get("targetFallback"))
            if target in IMPLICIT:
                continue
            word = "conformance" if rel["kind"] == "conformsTo" else "inherits"
            line = f"{word} {paths[rel['source']]}: {target}"
            where = constraint_text(rel.get("swiftConstraints"))
            if where:
                line += f" where {where}"
            lines.add(line)
    for name in exported:
        lines.add(f"reexport {name}")
    # One line per compared text: a requirement and its default implementation, when they read alike,
    # are one declaration with both notes.
    merged = {}
    for line in lines:
        merged.setdefault(key(line), set()).update(notes(line))
    order = ["requirement", "defaulted", "deprecated"]
    return sorted(k + (NOTE + ", ".join(n for n in order if n in found) if found else "") for k, found in merged.items())


# MARK: - Lines, comparison, verdicts


def key(line):
    """What is compared: the line without its note."""
    return line.split(NOTE, 1)[0]


def parse(line):
    """(kind, path, declaration) of a description line."""
    body = key(line)
    head, _, declaration = body.partition(" | ")
    kind, _, path = head.partition(" ")
    if kind in ("conformance", "inherits"):
        path, _, declaration = path.partition(": ")
        declaration = f"{kind} {declaration}"
    return kind, path, declaration


def notes(line):
    """The notes of a line: {"requirement", "defaulted", "deprecated"} or fewer."""
    return set(line.split(NOTE, 1)[1].split(", ")) if NOTE in line else set()


def is_breaking_requirement(line):
    return "requirement" in notes(line) and "defaulted" not in notes(line)


def base_name(component):
    return component.split("(", 1)[0]


def rename_guess(old, added):
    """An added line that reads as `old` renamed: same kind and parent, the declaration with the old name
    replaced by the new one."""
    kind, path, declaration = parse(old)
    parent, _, last = path.rpartition(".")
    for line in added:
        k, p, d = parse(line)
        new_parent, _, new_last = p.rpartition(".")
        if k != kind or new_parent != parent or new_last == last:
            continue
        if declaration.replace(base_name(last), base_name(new_last)) == d or \
                re.sub(r"\b" + re.escape(base_name(last)) + r"\b", base_name(new_last), declaration) == d:
            return p
    return None


def compare(baseline, current):
    """The verdict for one module: (broken, added, deprecated), where broken is a list of
    (old line, [current lines at the same path], renamed-to guess or None, why)."""
    current_keys = {key(line) for line in current}
    baseline_keys = {key(line) for line in baseline}
    gone = [line for line in baseline if key(line) not in current_keys]
    added = [line for line in current if key(line) not in baseline_keys]
    by_path = {}
    for line in current:
        by_path.setdefault(parse(line)[1], []).append(line)
    broken = []
    for line in gone:
        kind, path, _ = parse(line)
        same_path = [c for c in by_path.get(path, []) if parse(c)[0] == kind]
        if not same_path and kind not in ("conformance", "inherits", "reexport"):
            # The same name with other argument labels (a parameter added, removed or relabelled).
            same_path = [c for c in added if parse(c)[0] == kind and strip_labels(parse(c)[1]) == strip_labels(path)]
        broken.append((line, same_path, None if same_path else rename_guess(line, added), "gone"))
    # A protocol requirement without a default that the baseline did not have: conforming types break.
    baseline_notes = {key(line): line for line in baseline}
    for line in current:
        if not is_breaking_requirement(line):
            continue
        before = baseline_notes.get(key(line))
        if before is None or not is_breaking_requirement(before):
            broken.append((line, [], None, "requirement"))
    deprecated = [line for line in current if "deprecated" in notes(line)
                  and key(line) in baseline_notes and "deprecated" not in notes(baseline_notes[key(line)])]
    return broken, sorted(added), deprecated


def verdict_lines(module, broken):
    """One readable line per broken symbol."""
    out = []
    for line, same_path, renamed, why in broken:
        kind, path, declaration = parse(line)
        if why == "requirement":
            out.append(f"{module}: {path}: new protocol requirement without a default implementation "
                       f"(types that conform outside the module stop compiling): {declaration}")
        elif kind in ("conformance", "inherits"):
            out.append(f"{module}: {path}: {kind} removed: was '{path}: {declaration.split(' ', 1)[1]}'")
        elif same_path:
            now = "; ".join(f"'{parse(c)[2]}'" if parse(c)[1] == path else f"{parse(c)[1]} '{parse(c)[2]}'"
                            for c in same_path)
            out.append(f"{module}: {path} ({kind}) changed: was '{declaration}'; now {now}")
        elif renamed:
            out.append(f"{module}: {path} ({kind}) removed (renamed to {renamed}?): was '{declaration}'")
        else:
            out.append(f"{module}: {path} ({kind}) removed: was '{declaration}'")
    return out


# MARK: - CHANGELOG.md: what a change says it removes or changes


def changelog_sections(text, version, tagged):
    """The text of the sections where a dropped symbol may be named: [Unreleased], and [version] while
    no git tag names it."""
    sections = re.split(r"(?m)^## ", text)
    chosen = []
    for section in sections[1:]:
        title = section.split("\n", 1)[0].strip()
        if title.startswith("[Unreleased]") or (not tagged and title.startswith(f"[{version}]")):
            chosen.append(section)
    return chosen


def names_in_changelog(text, version, tagged):
    """The backticked names under `### Removed` and `### Changed` of the sections that count."""
    names = set()
    for section in changelog_sections(text, version, tagged):
        for block in re.split(r"(?m)^### ", section)[1:]:
            heading = block.split("\n", 1)[0].strip().lower()
            if heading.startswith("removed") or heading.startswith("changed"):
                names.update(n.strip() for n in re.findall(r"`([^`\n]+)`", block))
    return names


def strip_labels(path):
    """`Coordinator.restore(_:definition:)` -> `Coordinator.restore`."""
    parts = path.split(".")
    return ".".join(parts[:-1] + [base_name(parts[-1])]) if "(" in parts[-1] else path


def covers(name, path):
    """Whether a CHANGELOG name covers a declaration's path: the path itself, the path without its
    argument labels (every overload), or an enclosing declaration's (a type covers its members)."""
    return name in (path, strip_labels(path)) or path.startswith(name + ".") or strip_labels(path).startswith(name + ".")


def is_named(module, line, names):
    """Whether CHANGELOG names (backticked, module-qualified or not) cover a description line."""
    kind, path, declaration = parse(line)
    if kind == "reexport":
        return f"reexport {path}" in names
    candidates = set(names)
    candidates.update(n[len(module) + 1:] for n in names if n.startswith(module + "."))
    if kind in ("conformance", "inherits"):
        target = declaration.split(" ", 1)[1].split(" where ", 1)[0]
        if {f"{path}: {target}", f"{path}: {target.rsplit('.', 1)[-1]}"} & candidates:
            return True
    return any(covers(name, path) for name in candidates)


def git_tagged(version):
    result = run(["git", "tag", "--list", version, f"v{version}"])
    return result.returncode == 0 and bool(result.stdout.strip())


# MARK: - Baseline files


def header(module, version, toolchain, lines):
    declarations, conformances = counts(lines)
    return [
        f"# The public API of {module}, checked by `make check-api` (Tests/API/api.py; docs/STABILITY.md).",
        "# Generated by `make api-baseline`; do not edit by hand.",
        f"# version: {version}",
        f"# toolchain: {toolchain}",
        f"# declarations: {declarations}; conformances and re-exports: {conformances}",
    ]


def counts(lines):
    declarations = sum(1 for l in lines if parse(l)[0] not in ("conformance", "inherits", "reexport"))
    return declarations, len(lines) - declarations


def baseline_path(module):
    return os.path.join(API_DIR, f"{module}.api")


def read_baseline(module):
    """(header fields {"version": ..., "toolchain": ...}, lines) of a module's baseline, or ({}, None)."""
    path = baseline_path(module)
    if not os.path.exists(path):
        return {}, None
    fields = {}
    lines = []
    with open(path, encoding="utf-8") as f:
        for raw in f.read().splitlines():
            match = re.match(r"# (version|toolchain): (.*)$", raw)
            if match:
                fields[match.group(1)] = match.group(2).strip()
            elif raw and not raw.startswith("#"):
                lines.append(raw)
    return fields, lines


def write_baseline(module, version, toolchain, lines):
    with open(baseline_path(module), "w", encoding="utf-8") as f:
        f.write("\n".join(header(module, version, toolchain, lines) + lines) + "\n")


# MARK: - Modes


def check_products():
    products = library_products()
    unlisted = [p for p in products if p not in MODULES and p not in NOT_API]
    gone = [m for m in MODULES if m not in products]
    problems = []
    if unlisted:
        problems.append(f"library products neither in MODULES nor in NOT_API of Tests/API/api.py: {', '.join(unlisted)} "
                        "(a new library is API: add it to MODULES and record its baseline)")
    if gone:
        problems.append(f"MODULES names modules that Package.swift no longer declares as libraries: {', '.join(gone)}")
    return problems


def invisible_names():
    """Public declarations the symbol graph leaves out, so that the check cannot hold them: the toolchain
    skips every symbol whose name starts with its module's name and `Version` (Apple's generated
    `<Module>VersionNumber` and `<Module>VersionString` symbols), DocC with it."""
    problems = []
    for module in MODULES:
        pattern = re.compile(r"^[^/\n]*\b(?:public|open)\b[^\n]*?\b(" + module + r"Version\w*)", re.M)
        for base, _, files in os.walk(os.path.join(ROOT, "Sources", module)):
            for name in sorted(files):
                if name.endswith(".swift"):
                    path = os.path.join(base, name)
                    with open(path, encoding="utf-8") as f:
                        for match in pattern.finditer(f.read()):
                            problems.append(f"{os.path.relpath(path, ROOT)}: public `{match.group(1)}` is left out of the "
                                            f"symbol graph (names that start with `{module}Version` are), so neither this "
                                            "check nor DocC sees it: rename it")
    return problems


def bin_path_of(args):
    if args.bin_path:
        return os.path.abspath(args.bin_path)
    result = run([args.swift, "build", "--show-bin-path"])
    if result.returncode != 0:
        sys.exit(f"api.py: `{args.swift} build --show-bin-path` failed:\n{result.stderr}")
    return result.stdout.strip().splitlines()[-1]


def current_descriptions(args, modules):
    """({module: description lines}, the toolchain that wrote the symbol graphs)."""
    found, toolchain = graphs(args.swift, bin_path_of(args), modules)
    return {m: describe(found[m], sorted(reexports(m))) for m in modules}, toolchain


def mode_check(args):
    started = time.monotonic()
    if not selftest(quiet=True):
        return 1
    problems = check_products() + invisible_names()
    version = flowstate_version()
    current, toolchain = current_descriptions(args, MODULES)
    broken_lines, added_lines, deprecated_lines, table, stale = [], [], [], [], []
    toolchains = set()
    for module in MODULES:
        fields, baseline = read_baseline(module)
        recorded_version = fields.get("version")
        toolchains.add(fields.get("toolchain"))
        if baseline is None:
            problems.append(f"{module}: no baseline (Tests/API/{module}.api): record it with `make api-baseline`")
            continue
        if recorded_version != version:
            stale.append(f"{module} ({recorded_version})")
        broken, added, deprecated = compare(baseline, current[module])
        broken_lines += verdict_lines(module, broken)
        replacing = {line for item in broken for line in item[1]}  # listed as the "now" of a change
        added_lines += [f"{module}: {line}" for line in added if line not in replacing]
        deprecated_lines += [f"{module}: {line}" for line in deprecated]
        declarations, conformances = counts(current[module])
        table.append(f"  {module:<16} {declarations:>5} declarations, {conformances:>4} conformances and re-exports")
    if stale:
        problems.append(f"baselines recorded for another version than FlowstateRelease.version, {version}: "
                        f"{', '.join(stale)}; re-record them with `make api-baseline` in the change that sets the version")
    print("check-api: public API per module (Tests/API/*.api):")
    print("\n".join(table))
    if added_lines:
        print(f"check-api: {len(added_lines)} addition(s), compatible, not yet in the baseline (`make api-baseline` records them):")
        print("\n".join("  + " + line for line in added_lines))
    if deprecated_lines:
        print(f"check-api: {len(deprecated_lines)} declaration(s) deprecated since the baseline (compatible):")
        print("\n".join("  ~ " + line for line in deprecated_lines))
    elapsed = time.monotonic() - started
    sys.stdout.flush()
    if broken_lines or problems:
        if broken_lines:
            print(f"check-api: FAILED: {len(broken_lines)} source-breaking change(s) to the public API:", file=sys.stderr)
            print("\n".join("  - " + line for line in broken_lines), file=sys.stderr)
            print("check-api: to make such a change on purpose (a new major version, docs/STABILITY.md), name each symbol "
                  "in backticks under `### Removed` or `### Changed` in CHANGELOG.md's `## [Unreleased]` section, run "
                  "`make api-baseline`, and commit the baselines with the CHANGELOG. Otherwise, restore the symbol "
                  "(a deprecated alias or overload keeps old callers compiling).", file=sys.stderr)
            if toolchains - {toolchain, None}:
                print(f"check-api: note: the baselines were recorded with {', '.join(sorted(t for t in toolchains if t))}; "
                      f"this is {toolchain}. If the changes above are only the form in which this toolchain prints "
                      "declarations, re-record with `python3 Tests/API/api.py record --toolchain-change` and review "
                      "`git diff Tests/API`.", file=sys.stderr)
        for problem in problems:
            print(f"check-api: FAILED: {problem}", file=sys.stderr)
        return 1
    print(f"check-api: OK, no source-breaking change ({elapsed:.1f} s)")
    return 0


def mode_record(args):
    problems = check_products()
    if problems:
        sys.exit("api-baseline: " + "\n".join(problems))
    version = flowstate_version()
    current, toolchain = current_descriptions(args, MODULES)
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
        names = names_in_changelog(f.read(), version, git_tagged(version))
    if args.unreleased and git_tagged(version):
        print(f"api-baseline: --unreleased: version {version} is tagged (released): a change to its API must be "
              "named in CHANGELOG.md", file=sys.stderr)
        return 1
    unnamed, dropped = [], []
    other_toolchain = False
    for module in MODULES:
        fields, baseline = read_baseline(module)
        if baseline is None:
            continue
        # --toolchain-change exempts only baselines that another toolchain wrote.
        exempt = (args.toolchain_change and fields.get("toolchain") != toolchain) or args.unreleased
        other_toolchain = other_toolchain or exempt
        broken, _, _ = compare(baseline, current[module])
        for item, text in zip(broken, verdict_lines(module, broken)):
            if is_named(module, item[0], names) or exempt:
                dropped.append(text)
            else:
                unnamed.append(text)
    sys.stdout.flush()
    if args.toolchain_change and not other_toolchain:
        print(f"api-baseline: --toolchain-change: every baseline was recorded with this toolchain ({toolchain}); "
              "a change of the API itself must be named in CHANGELOG.md", file=sys.stderr)
        return 1
    if unnamed:
        print(f"api-baseline: refused: {len(unnamed)} source-breaking change(s) that CHANGELOG.md does not name:", file=sys.stderr)
        print("\n".join("  - " + t for t in unnamed), file=sys.stderr)
        print("api-baseline: name each in backticks (its path, e.g. `FlowMachine.send(_:)`, `FlowMachine.send` for every "
              "overload, or an enclosing type's path) "
              "under `### Removed` or `### Changed` in the `## [Unreleased]` section of CHANGELOG.md "
              "(docs/STABILITY.md), then run `make api-baseline` again.", file=sys.stderr)
        return 1
    for module in MODULES:
        _, baseline = read_baseline(module)
        broken, added, _ = compare(baseline or [], current[module])
        write_baseline(module, version, toolchain, current[module])
        declarations, conformances = counts(current[module])
        state = "new" if baseline is None else f"{len(added)} added"
        print(f"api-baseline: Tests/API/{module}.api: {declarations} declarations, {conformances} conformances and "
              f"re-exports ({state}; version {version})")
    if dropped:
        why = "that CHANGELOG.md names" + (", or re-recorded for the toolchain" if other_toolchain else "")
        print(f"api-baseline: dropped {len(dropped)} declaration(s) {why}:")
        print("\n".join("  - " + t for t in dropped))
    return 0


def mode_show(args):
    if args.module not in MODULES:
        sys.exit(f"api.py: {args.module} is not one of {', '.join(MODULES)}")
    print("\n".join(current_descriptions(args, [args.module])[0][args.module]))
    return 0


# MARK: - Self-test: the checker's verdicts on synthetic input


def synthetic_graph():
    """A small symbol graph as swift-symbolgraph-extract writes it."""
    def sym(precise, kind, path, fragments, access="public", **extra):
        s = {"identifier": {"precise": precise}, "kind": {"identifier": f"swift.{kind}"}, "pathComponents": path,
             "declarationFragments": [{"kind": "text", "spelling": f} for f in fragments], "accessLevel": access,
             "location": {"uri": "file:///somewhere/on/this/machine.swift"}}
        s.update(extra)
        return s
    return {
        "symbols": [
            sym("s:T", "struct", ["Thing"], ["struct ", "Thing"]),
            sym("s:T.f", "method", ["Thing", "f(_:)"], ["func ", "f", "(_ x: ", "Int", ") -> ", "Int"]),
            sym("s:T.g", "method", ["Thing", "g()"], ["func g()"],
                swiftExtension={"constraints": [{"kind": "conformance", "lhs": "T", "rhs": "Equatable"}]}),
            sym("s:T.old", "method", ["Thing", "old()"], ["func old()"],
                availability=[{"domain": "*", "isUnconditionallyDeprecated": True}]),
            sym("s:T.h", "method", ["Thing", "h()"], ["func h()"], access="internal"),
            sym("s:T.spi", "method", ["Thing", "spi()"], ["func spi()"], spi=True),
            sym("s:P", "protocol", ["P"], ["protocol P"]),
            sym("s:P.r", "method", ["P", "r()"], ["func r()"]),
            sym("s:P.d", "property", ["P", "d"], ["var d: Int { get }"]),
            sym("s:P.d.impl", "property", ["P", "d"], ["var d: Int { get }"]),
        ],
        "relationships": [
            {"kind": "memberOf", "source": "s:T.f", "target": "s:T"},
            {"kind": "conformsTo", "source": "s:T", "target": "s:SQ", "targetFallback": "Swift.Equatable"},
            {"kind": "conformsTo", "source": "s:T", "target": "s:P"},
            {"kind": "conformsTo", "source": "s:T", "target": "s:SH", "targetFallback": "Swift.Hashable",
             "swiftConstraints": [{"kind": "conformance", "lhs": "T", "rhs": "Hashable"}]},
            {"kind": "requirementOf", "source": "s:P.r", "target": "s:P"},
            {"kind": "requirementOf", "source": "s:P.d", "target": "s:P"},
            {"kind": "defaultImplementationOf", "source": "s:P.d.impl", "target": "s:P.d"},
        ],
    }


def selftest(quiet=False):
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    lines = describe([(None, synthetic_graph()), (None, {"symbols": [], "relationships": []})], ["Flowstate"])
    expected = [
        "conformance Thing: P",
        "conformance Thing: Swift.Equatable",
        "conformance Thing: Swift.Hashable where T: Hashable",
        "method P.r() | func r()  // requirement",
        "method Thing.f(_:) | func f(_ x: Int) -> Int",
        "method Thing.g() | func g() (where T: Equatable)",
        "method Thing.old() | func old()  // deprecated",
        "property P.d | var d: Int { get }  // requirement, defaulted",
        "protocol P | protocol P",
        "reexport Flowstate",
        "struct Thing | struct Thing",
    ]
    expect(lines == expected, "describe(): got\n    " + "\n    ".join(lines))
    expect(describe([(None, synthetic_graph())]) == describe([(None, synthetic_graph())]), "describe() is not stable")
    expect(not any("somewhere" in l or "s:T" in l for l in lines), "describe() leaks a location or a USR")
    extension = describe([("Swift", {"symbols": [
        {"identifier": {"precise": "s:SS.x"}, "kind": {"identifier": "swift.property"}, "pathComponents": ["String", "x"],
         "declarationFragments": [{"spelling": "var x: Int"}], "accessLevel": "public"}], "relationships": []})])
    expect(extension == ["property Swift.String.x | var x: Int"], f"extension of another module's type: {extension}")

    baseline = expected
    # Removal, rename, signature change, conformance removal, addition: one verdict each.
    removed = [l for l in baseline if not l.startswith("method Thing.g()")]
    broken, added, _ = compare(baseline, removed)
    text = verdict_lines("M", broken)
    expect(text == ["M: Thing.g() (method) removed: was 'func g() (where T: Equatable)'"], f"removal: {text}")
    renamed = [l.replace("f(_:) | func f(", "ff(_:) | func ff(") for l in baseline]
    broken, added, _ = compare(baseline, renamed)
    text = verdict_lines("M", broken)
    expect(text == ["M: Thing.f(_:) (method) removed (renamed to Thing.ff(_:)?): was 'func f(_ x: Int) -> Int'"], f"rename: {text}")
    expect(added == ["method Thing.ff(_:) | func ff(_ x: Int) -> Int"], f"rename's addition: {added}")
    changed = [l.replace("-> Int", "-> String") for l in baseline]
    broken, added, _ = compare(baseline, changed)
    text = verdict_lines("M", broken)
    expect(text == ["M: Thing.f(_:) (method) changed: was 'func f(_ x: Int) -> Int'; now 'func f(_ x: Int) -> String'"],
           f"signature change: {text}")
    relabelled = [l.replace("f(_:) | func f(_ x: Int)", "f(_:y:) | func f(_ x: Int, y: Int)") for l in baseline]
    text = verdict_lines("M", compare(baseline, relabelled)[0])
    expect(text == ["M: Thing.f(_:) (method) changed: was 'func f(_ x: Int) -> Int'; now Thing.f(_:y:) "
                    "'func f(_ x: Int, y: Int) -> Int'"], f"a parameter added: {text}")
    unconformed = [l for l in baseline if l != "conformance Thing: Swift.Equatable"]
    text = verdict_lines("M", compare(baseline, unconformed)[0])
    expect(text == ["M: Thing: conformance removed: was 'Thing: Swift.Equatable'"], f"conformance: {text}")
    grown = baseline + ["method Thing.n() | func n()", "method P.q() | func q()  // requirement, defaulted"]
    broken, added, _ = compare(baseline, sorted(grown))
    expect(broken == [] and added == ["method P.q() | func q()  // requirement, defaulted", "method Thing.n() | func n()"],
           f"addition: {broken} {added}")
    required = sorted(baseline + ["method P.s() | func s()  // requirement"])
    text = verdict_lines("M", compare(baseline, required)[0])
    expect(len(text) == 1 and "P.s(): new protocol requirement without a default" in text[0], f"new requirement: {text}")
    undefaulted = [l.replace("requirement, defaulted", "requirement") for l in baseline]
    text = verdict_lines("M", compare(baseline, undefaulted)[0])
    expect(len(text) == 1 and "P.d: new protocol requirement" in text[0], f"default removed: {text}")
    deprecating = [l.replace("func f(_ x: Int) -> Int", "func f(_ x: Int) -> Int  // deprecated") for l in baseline]
    broken, added, deprecated = compare(baseline, deprecating)
    expect(broken == [] and added == [] and len(deprecated) == 1, f"deprecation: {broken} {added} {deprecated}")

    # CHANGELOG naming.
    changelog = ("# Changelog\n\n## [Unreleased]\n\n### Added\n- `Thing.g()`\n\n### Removed\n- `Thing.f(_:)` and "
                 "`Thing: Equatable`.\n\n### Changed\n- `old`, `Thing.old()`\n\n## [1.0.0] - 2026-12-02\n\n### Removed\n- `P.r`\n")
    names = names_in_changelog(changelog, "1.0.0", tagged=True)
    expect(names == {"Thing.f(_:)", "Thing: Equatable", "old", "Thing.old()"}, f"names (tagged): {names}")
    names_untagged = names_in_changelog(changelog, "1.0.0", tagged=False)
    expect("P.r" in names_untagged, f"names (release not tagged): {names_untagged}")
    expect(is_named("M", "method Thing.f(_:) | func f(_ x: Int) -> Int", names), "path")
    expect(not is_named("M", "method Thing.old() | func old()", {"old", "old()"}), "a last component alone names nothing")
    expect(is_named("M", "method Thing.old() | func old()", names), "a path")
    expect(is_named("M", "method Thing.old() | func old()", {"Thing.old"}), "a path without labels names every overload")
    expect(is_named("M", "method Thing.f(_:) | func f(_ x: Int) -> Int", {"Thing"}) and
           is_named("M", "conformance Thing: Swift.Equatable", {"M.Thing"}), "a type names its members and conformances")
    expect(not is_named("M", "method Things.f() | func f()", {"Thing"}), "a name is not a prefix of another")
    expect(not is_named("M", "method Thing.g() | func g()", names), "a name under ### Added names nothing")
    expect(is_named("M", "conformance Thing: Swift.Equatable", names), "conformance")
    expect(is_named("M", "method P.r() | func r()", names_untagged) and not is_named("M", "method P.r() | func r()", names),
           "the release's own section counts only until it is tagged")
    expect(is_named("M", "method Thing.f(_:) | x", {"M.Thing.f"}), "module-qualified base name")

    if failures:
        print("api.py selftest: FAILED: the checker's own verdicts are wrong:", file=sys.stderr)
        print("\n".join("  - " + f for f in failures), file=sys.stderr)
        return False
    if not quiet:
        print("api.py selftest: OK")
    return True


def main():
    parser = argparse.ArgumentParser(description="Flowstate's public API check (docs/STABILITY.md).")
    parser.add_argument("mode", choices=["check", "record", "selftest", "show"])
    parser.add_argument("module", nargs="?", help="for show: the module")
    parser.add_argument("--swift", default="swift", help="the swift driver (default: swift)")
    parser.add_argument("--bin-path", help="the build's bin folder (default: `swift build --show-bin-path`)")
    parser.add_argument("--unreleased", action="store_true",
                        help="for record: re-record without the CHANGELOG rule while no git tag names the version "
                             "(nothing released, nothing to break); refused once the version is tagged")
    parser.add_argument("--toolchain-change", action="store_true",
                        help="for record: accept unnamed changes, only when the baselines were recorded with another "
                             "toolchain (which may print declarations in another form); review git diff Tests/API")
    args = parser.parse_args()
    if args.mode == "selftest":
        return 0 if selftest() else 1
    if args.mode == "check":
        return mode_check(args)
    if args.mode == "record":
        return mode_record(args)
    if not args.module:
        parser.error("show needs a module")
    return mode_show(args)


if __name__ == "__main__":
    sys.exit(main())
