# Hyzer: `make run` to serve the dashboard, `make test` to run every test.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
DATA_DIR ?= ./data

.PHONY: run build test lint soak clean deps browser-deps system-deps bench bench-check bench-budget bench-check-debug bench-budget-debug bench-deps demo install

## Build and serve http://$(HOST):$(PORT) with data in $(DATA_DIR); seeds a demo round on first start.
run: build
	$(SWIFT) run --skip-build hyzer serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR) --demo

build: deps
	$(SWIFT) build

PREFIX ?= /usr/local
## A release build as $(PREFIX)/bin/hyzer, its pages in $(PREFIX)/share/hyzer: it then runs from
## any folder with no --resources (`hyzer serve --data-dir /var/lib/hyzer`).
install: deps
	$(SWIFT) build -c release --product hyzer
	scripts/install-hyzer .build/release/hyzer $(PREFIX)

## Every test: unit, store, sync (with a throwaway PostgreSQL 15) and HTTP tests, the system
## tests (the real binary: kill -9 during sync, connection limits, 1,000 live subscribers, the
## OpenAPI document fuzzed by schemathesis), then the browser tests (real headless Chromium).
## Fault and load tests run small counts here; `make soak` runs the full ones. Last, the cost
## budget on the debug build (`make bench-check-debug`).
test: deps browser-deps system-deps bench-deps lint
	$(SWIFT) build --build-tests
	scripts/with-postgres $(SWIFT) test --skip-build
	python3 -m pytest Tests/system -q -p no:cacheprovider
	python3 -m pytest Tests/browser -q -p no:cacheprovider
	$(MAKE) --no-print-directory bench-check-debug

## The code as `swift format` (the toolchain's) writes it, with `.swift-format`: fix with
## `swift format format --in-place --recursive Sources Tests Benchmarks Package.swift`;
## every target declares in Package.swift each module it imports; and no `try?` in the store or
## the sync engine hides a failure (scripts/check-quiet-failures.py).
lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks Package.swift
	python3 scripts/check-imports.py
	python3 scripts/check-quiet-failures.py

## The fault and load tests at full size: 100 kill -9 trials, 500 three-device interleavings,
## 1,000 subscribers for 60 s, 200 schemathesis examples per operation, and a randomized league
## night of thousands of steps (150 nights) checked on every page. Figures: test-output/soak-*.txt.
soak: deps system-deps
	$(SWIFT) build --build-tests
	HYZER_PROPERTY_SEEDS=500 $(SWIFT) test --skip-build --filter InterleavingTests
	HYZER_KILL_TRIALS=100 python3 -m pytest Tests/system/test_kill.py -q -s -p no:cacheprovider
	HYZER_LOAD_SECONDS=60 python3 -m pytest Tests/system/test_load.py -q -s -p no:cacheprovider
	HYZER_FUZZ_EXAMPLES=200 python3 -m pytest Tests/system/test_openapi_fuzz.py -q -s -p no:cacheprovider
	HYZER_NIGHT_NIGHTS=150 HYZER_NIGHT_STEPS=40 python3 -m pytest Tests/system/test_random_night.py -q -s -p no:cacheprovider

## Benchmarks on release builds, one table (and bench-results.json, to compare runs): score
## writes (one client, 64 at once), pages by wrk against a bare Hummingbird hello served by a
## process of its own, 10,000 SSE subscribers, propagation through PostgreSQL, initial pull of 1,000,000
## events (embedded and PostgreSQL), standings in a 10,000-event round, first answer after
## exec with a black-holed cloud, RSS per idle subscriber; each with its goal. Then the card
## page on an emulated phone (scripts/bench-phone.py: slow 4G, 4x CPU), then ratings and hole
## statistics over a layout of 10,000 rounds (hyzer-bench ratings). Takes ~13 min.
## The single benchmarks (sse, sync, pull, backup, standings, ratings, idle) run alone: see hyzer-bench.
bench: deps browser-deps bench-deps
	$(SWIFT) build -c release --product hyzer
	$(SWIFT) build -c release --product hyzer-bench
	scripts/with-postgres .build/release/hyzer-bench report --server .build/release/hyzer --subscribers 10000 --events 1000000 --output bench-results.json
	python3 scripts/bench-phone.py .build/release/hyzer --json bench-phone.json
	.build/release/hyzer-bench ratings --rounds 10000
	python3 scripts/bench-readme.py

## The cost budget, in instructions per request (callgrind on the release binary; counts do not
## move with machine noise): a score POST; the cached leaderboard page for a spectator, a
## returning browser and signed in; one score reaching 100 live subscribers; a season's standings
## and a round's ratings after a score. Fails when a path costs more than Benchmarks/budget.json
## + 10 % and prints the functions that grew. `make bench-budget` writes the counts measured as
## the new budget (a commit of its own that says why). Takes ~4 min after the release build.
bench-check: deps bench-deps
	$(SWIFT) build -c release --product hyzer
	$(SWIFT) build -c release --product hyzer-bench
	python3 scripts/bench-check.py --binary .build/release/hyzer --hello .build/release/hyzer-bench

bench-budget: deps bench-deps
	$(SWIFT) build -c release --product hyzer
	$(SWIFT) build -c release --product hyzer-bench
	python3 scripts/bench-check.py --binary .build/release/hyzer --hello .build/release/hyzer-bench --write
	python3 scripts/bench-readme.py --results /nonexistent

## The same budget counted on the debug build, which `make test` (and so CI) checks: a release
## build would double CI's time. Debug counts are 3-7x the release ones and move with the same
## added work (a read, a hop, a render); Benchmarks/budget-debug.json. About 100 s.
bench-check-debug: deps bench-deps
	$(SWIFT) build --product hyzer
	python3 scripts/bench-check.py --binary .build/debug/hyzer --budget Benchmarks/budget-debug.json --requests 50

bench-budget-debug: deps bench-deps
	$(SWIFT) build --product hyzer
	python3 scripts/bench-check.py --binary .build/debug/hyzer --budget Benchmarks/budget-debug.json --requests 50 --write

## valgrind (callgrind) and a C compiler for its sigsuspend shim, and wrk (the pages' load),
## installed when missing.
bench-deps:
	@command -v valgrind >/dev/null && command -v cc >/dev/null && command -v wrk >/dev/null || { echo "installing valgrind, gcc, wrk"; apt-get update -qq && apt-get install -y -qq valgrind gcc wrk >/dev/null; }

## Two devices sharing the embedded cloud: score on :8080, watch :8081 (Ctrl-C stops both).
demo: build
	@mkdir -p data/demo
	@echo "Device A: http://$(HOST):8080   Device B: http://$(HOST):8081   (cloud: data/demo/cloud.sqlite)"
	@# Stops exactly the two servers it started (`kill 0` would signal make and the shell too,
	@# which dash reports as a crash).
	@bin=$$($(SWIFT) build --show-bin-path); \
	$$bin/hyzer serve --host $(HOST) --port 8080 --data-dir data/demo/a --cloud sqlite:data/demo/cloud.sqlite --demo & a=$$!; \
	$$bin/hyzer serve --host $(HOST) --port 8081 --data-dir data/demo/b --cloud sqlite:data/demo/cloud.sqlite & b=$$!; \
	trap 'kill $$a $$b 2>/dev/null; wait $$a $$b 2>/dev/null; exit 0' INT TERM; \
	wait $$a $$b

clean:
	rm -rf .build

## Chromium, its driver, Selenium and axe-core (axe-selenium-python) for the browser tests,
## installed when missing.
browser-deps:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
		echo "installing chromium and chromium-driver"; \
		apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; }
	@python3 -c "import selenium, pytest, axe_selenium_python" 2>/dev/null || python3 -m pip install -q selenium pytest axe-selenium-python

## pytest, schemathesis and qrcode (the check-in QR code's reference) for the system tests,
## promtool (Debian's prometheus) to lint /metrics, and nginx (the load balancer in front of
## test_cluster's instances), installed when missing.
system-deps:
	@python3 -c "import pytest, schemathesis, qrcode, hypothesis" 2>/dev/null || python3 -m pip install -q pytest schemathesis qrcode hypothesis
	@command -v promtool >/dev/null || { echo "installing prometheus (promtool)"; apt-get update -qq && apt-get install -y -qq prometheus >/dev/null; }
	@command -v nginx >/dev/null || { echo "installing nginx"; apt-get update -qq && apt-get install -y -qq nginx >/dev/null; }

## System libraries the build links (present on the standard image; installed when missing).
deps:
	@for pkg in libsqlite3-dev zlib1g-dev; do \
		dpkg -s $$pkg >/dev/null 2>&1 || { echo "installing $$pkg"; (apt-get update -qq && apt-get install -y -qq $$pkg) || exit 1; }; \
	done
