# Hyzer: `make run` to serve the dashboard, `make test` to run every test.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
DATA_DIR ?= ./data

.PHONY: run build test clean deps browser-deps bench

## Build and serve http://$(HOST):$(PORT) with data in $(DATA_DIR); seeds a demo round on first start.
run: build
	$(SWIFT) run --skip-build hyzer serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR) --demo

build: deps
	$(SWIFT) build

## Every test: unit, store, sync (with a throwaway PostgreSQL 15) and HTTP tests, then the
## browser tests (real headless Chromium).
test: deps browser-deps
	$(SWIFT) build --build-tests
	scripts/with-postgres $(SWIFT) test --skip-build
	python3 -m pytest Tests/browser -q -p no:cacheprovider

## SSE fan-out: 1,000 and 5,000 subscribers on one round of a release server, 20 scores.
bench: deps
	$(SWIFT) build -c release --product hyzer
	$(SWIFT) build -c release --product hyzer-bench
	ulimit -n 65536 2>/dev/null || true; .build/release/hyzer-bench --server .build/release/hyzer --subscribers 1000,5000 --scores 20

clean:
	rm -rf .build

## Chromium, its driver and Selenium for the browser tests, installed when missing.
browser-deps:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
		echo "installing chromium and chromium-driver"; \
		apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; }
	@python3 -c "import selenium, pytest" 2>/dev/null || python3 -m pip install -q selenium pytest

## System libraries the build links (present on the standard image; installed when missing).
deps:
	@for pkg in libsqlite3-dev zlib1g-dev; do \
		dpkg -s $$pkg >/dev/null 2>&1 || { echo "installing $$pkg"; (apt-get update -qq && apt-get install -y -qq $$pkg) || exit 1; }; \
	done
