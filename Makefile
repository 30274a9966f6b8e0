# svc-apiserver — the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
NPM ?= npm

.PHONY: all deps etcd build typecheck lint unit e2e test run bench clean

all: build

node_modules/.package-lock.json: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

deps: node_modules/.package-lock.json

# etcd from Debian's etcd-server package when none is on PATH.
etcd:
	@command -v etcd >/dev/null 2>&1 || scripts/install-etcd.sh

build: deps
	npx tsc -p tsconfig.build.json

typecheck: deps
	npx tsc -p tsconfig.json --noEmit

# Imports point one way (DESIGN.md §3); an upward import fails the build.
lint: deps
	npx depcruise --config .dependency-cruiser.cjs cmd lib

unit: deps
	npx jest --selectProjects unit

e2e: build etcd
	npx jest --selectProjects e2e

# Everything CI runs: types, dependency direction, unit and e2e tests (results in .jest-results.json).
test: build etcd typecheck lint
	npx jest --json --outputFile=.jest-results.json

run: build etcd
	scripts/run.sh

# Starts its own etcd and apiserver; svc-apiserver vs raw etcd (npm etcd3) side by side, < 10 min.
# Table on stdout, JSON in bench/results/. Flags: make bench BENCH_FLAGS="--quick" (see bench/run.ts).
bench: build etcd
	npx tsc -p bench/tsconfig.json
	node dist/bench/bench/run.js $(BENCH_FLAGS)

clean:
	rm -rf dist data .jest-results.json
