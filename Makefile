# Flowstate: `make demo` and `make test` are the whole quick start on a fresh Debian machine with Swift.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build test check-mutations check-adapters check-api api-baseline sanitize demo bench fuzz docs clean mutate

all: build

# System dependencies (Debian packages): Graphviz's C library and the `dot` binary (the exporter links
# libgvc), and fonts for every script a label may use: DejaVu Sans (Latin, Greek, Cyrillic, Arabic,
# Hebrew, combining marks), WenQuanYi Micro Hei (Chinese, Japanese, Korean; 1.6 MB download) and
# Symbola (emoji and symbols; 1.3 MB). Chromium runs the interactive viewer's tests (headless). Python 3
# runs the mutation check (`make check-mutations`, part of `make test`) and the benchmark thresholds.
DEB_PACKAGES := python3 graphviz libgraphviz-dev pkg-config fonts-dejavu-core fonts-wqy-microhei fonts-symbola fonts-noto-color-emoji chromium
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "==> installing" $$missing "(apt)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

test: check-mutations build check-api check-adapters
	$(SWIFT) test

# Every mutation of `make mutate` still applies (its search text found exactly once) and its suite's
# targets match Package.swift: checked on the working tree in about a second, no build.
check-mutations: deps
	python3 Tests/Mutations/mutate.py --check

# The public API held still (docs/STABILITY.md): each library's public declarations, read from the debug
# build's modules by swift-symbolgraph-extract (seconds, no rebuild), against Tests/API/<Module>.api. A
# declaration removed, renamed or changed fails, naming it; additions pass and are listed. The checker's
# own verdicts are checked first. `make api-baseline` re-records the baselines; it refuses to drop a
# declaration that CHANGELOG.md's [Unreleased] section does not name under Removed or Changed.
check-api: build
	python3 Tests/API/api.py check --swift "$(SWIFT)"

api-baseline: build
	python3 Tests/API/api.py record --swift "$(SWIFT)"

# The UIKit and SwiftUI adapters are compiled on Apple platforms only. On Linux, Platforms/AppleAdapterCheck
# type-checks them, and their documentation snippets, against stubs of UIKit, SwiftUI and Combine (docs/ADAPTERS.md).
check-adapters:
ifeq ($(shell uname -s),Linux)
	$(SWIFT) build --package-path Platforms/AppleAdapterCheck --build-tests
else
	@echo "check-adapters: Linux only; on Apple platforms the package compiles the adapters itself"
endif

# The whole suite under ThreadSanitizer, then AddressSanitizer, each in its own build folder.
sanitize: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp $(SWIFT) test --sanitize=address --scratch-path .build-asan

demo: build
	$(SWIFT) run -q flowstate-demo
	@echo "Open the pictures listed above (docs/flows/*.svg) in a browser."

bench: deps
	@echo "==> ratio checks and generated flows' type-check times (Benchmarks/check-ratios.py; one group:" \
		"--only compile, send, ...); the exporter benchmarks run separately:" \
		"cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark --target ExporterBench"
	cd Benchmarks && python3 check-ratios.py --swift "$(SWIFT)"

# libFuzzer on the JSON flow spec reader, the SCXML reader and (structure-aware) the SCXML simulation,
# each for FUZZ_SECONDS, from the seed corpus in Fuzz/Corpus (new inputs go to Fuzz/.corpus, crashes
# and inputs that run over 10 s, a hang, to Fuzz/crashes/). FuzzSCXML mutates with SCXML's words
# (Fuzz/scxml.dict). To read a finding's message again: SWIFT_BACKTRACE=enable=no Fuzz/.build-fuzz/release/FuzzSCXML FILE.
FUZZ_SECONDS ?= 60
FUZZ_BUILD := $(SWIFT) build --package-path Fuzz -c release --scratch-path Fuzz/.build-fuzz -Xswiftc -sanitize=fuzzer,address
fuzz:
	$(FUZZ_BUILD) --product FuzzSpec
	$(FUZZ_BUILD) --product FuzzSCXML
	$(FUZZ_BUILD) --product FuzzSimulate
	mkdir -p Fuzz/.corpus/spec Fuzz/.corpus/scxml Fuzz/.corpus/simulate Fuzz/crashes
	Fuzz/.build-fuzz/release/FuzzSpec -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=Fuzz/crashes/spec- Fuzz/.corpus/spec Fuzz/Corpus/spec
	Fuzz/.build-fuzz/release/FuzzSCXML -max_total_time=$(FUZZ_SECONDS) -dict=Fuzz/scxml.dict -artifact_prefix=Fuzz/crashes/scxml- Fuzz/.corpus/scxml Fuzz/Corpus/scxml
	Fuzz/.build-fuzz/release/FuzzSimulate -max_total_time=$(FUZZ_SECONDS) -timeout=10 -artifact_prefix=Fuzz/crashes/simulate- Fuzz/.corpus/simulate Fuzz/Corpus/simulate

# DocC for every library, with warnings as errors (swift-docc-plugin).
docs:
	$(SWIFT) package --scratch-path .build-docs generate-documentation \
		--target Flowstate --target FlowGraph --target FlowSpec --target FlowGraphviz --target FlowNavigation --target FlowTesting --target FlowstateMacros --warnings-as-errors
	@echo "Documentation archives: .build-docs/plugins/Swift-DocC/outputs/*.doccarchive"

# Mutation check: each deliberate mistake in Tests/Mutations/mutate.py (engine, supervisor, the flow-file
# interpreter, the path finder, navigation bookkeeping) is applied to a copy of the package kept between
# runs (incremental builds), and the tests listed for it, run in the built test binary, must fail.
# Exits 1 if a mutation survives. 53 mutations in 12.7 minutes on 2 cores (load average 1-3), the copy
# built before; `--full` runs each suite's every test instead. `make test` runs only `--check` (every
# mutation still applies, its tests exist). See docs/TESTING.md.
mutate:
	python3 Tests/Mutations/mutate.py --swift "$(SWIFT)"

clean:
	rm -rf .build .build-tsan .build-asan .build-docs Benchmarks/.build Fuzz/.build-fuzz Fuzz/.corpus Platforms/AppleAdapterCheck/.build
