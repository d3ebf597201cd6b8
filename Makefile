# Flowstate: `make demo` and `make test` are the whole quick start on a fresh Debian machine with Swift.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build test sanitize demo bench docs clean

all: build

# System dependencies: Graphviz's C library and the `dot` binary (the exporter links libgvc).
deps:
	@if ! pkg-config --exists libgvc 2>/dev/null || ! command -v dot >/dev/null 2>&1; then \
		echo "==> installing graphviz libgraphviz-dev pkg-config (apt)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq graphviz libgraphviz-dev pkg-config; \
	fi

build: deps
	$(SWIFT) build

test: build
	$(SWIFT) test

# The whole suite under ThreadSanitizer, then AddressSanitizer, each in its own build folder.
sanitize: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp $(SWIFT) test --sanitize=address --scratch-path .build-asan

demo: build
	$(SWIFT) run -q flowstate-demo
	@echo "Open the pictures listed above (docs/flows/*.svg) in a browser."

bench: deps
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark

clean:
	rm -rf .build .build-tsan .build-asan Benchmarks/.build
