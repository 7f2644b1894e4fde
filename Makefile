# Hyzer: `make run` to serve the dashboard, `make test` to run every test.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
DATA_DIR ?= ./data

.PHONY: run build test clean deps

## Build and serve http://$(HOST):$(PORT) with data in $(DATA_DIR); seeds a demo round on first start.
run: build
	$(SWIFT) run --skip-build hyzer serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR) --demo

build: deps
	$(SWIFT) build

## Every test: unit, store and HTTP tests.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build

## System libraries the build links (present on the standard image; installed when missing).
deps:
	@for pkg in libsqlite3-dev zlib1g-dev; do \
		dpkg -s $$pkg >/dev/null 2>&1 || { echo "installing $$pkg"; (apt-get update -qq && apt-get install -y -qq $$pkg) || exit 1; }; \
	done
