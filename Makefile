# cachebench: `make bench` and `make test` install what is missing, build, and run.
SHELL := /bin/bash
SWIFT ?= swift
WORKLOAD ?= Workloads/default.json
APT_PACKAGES := libsqlite3-dev libjemalloc-dev

.PHONY: all deps build release test bench quick gate baseline regress plot soak fuzz crash-test asan tsan clean format format-check

all: test

# Installs libsqlite3-dev and libjemalloc-dev (and pkg-config) with apt-get when pkg-config cannot
# find them, and valgrind (for run --instructions and the gate) when it is not on the PATH.
deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev"; \
	pkg-config --exists jemalloc 2>/dev/null || missing="$$missing libjemalloc-dev"; \
	command -v valgrind >/dev/null 2>&1 || missing="$$missing valgrind"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null || exit 1; \
	fi

build: deps
	$(SWIFT) build

# Source paths mapped to one name, so that the binary's loaded image does not depend on where the
# checkout is: instruction counts follow that image's layout, and the gate compares counts made
# in one checkout with a baseline made in another.
PREFIX_MAP := -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)=/src -Xcc -ffile-prefix-map=$(CURDIR)=/src
# The same for the base of make regress, built in a work tree of its own: one source, one binary.
BASE_PREFIX_MAP := -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)/.build/regress-base=/src \
  -Xcc -ffile-prefix-map=$(CURDIR)/.build/regress-base=/src

release: deps
	$(SWIFT) build -c release --product cachebench $(PREFIX_MAP)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --parallel

# The layout of the Swift sources is swift-format's (the toolchain's `swift format`), configured in
# .swift-format (docs/guide-testing.md#habits-ci-keeps): format rewrites them, format-check (CI)
# fails on a file that is not as it would write it.
FORMATTED = Sources Tests Examples Package.swift
format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

# Runs write under results/runs/, which git ignores: a fresh clone's make bench leaves git status
# clean, and its rows record the revision without -dirty. The CSVs committed in results/ are
# curated copies of such runs (results/README.md).
RUNS := results/runs
bench: release
	.build/release/cachebench run $(WORKLOAD) --out $(RUNS)/$(basename $(notdir $(WORKLOAD))).csv \
	  --samples $(RUNS)/$(basename $(notdir $(WORKLOAD)))-samples.csv

quick: release
	.build/release/cachebench run Workloads/quick.json --out $(RUNS)/quick.csv

# The CI gate: the deterministic rows of Workloads/gate.json (allocations, bytes, records, and
# instructions under valgrind) from a release build against Baselines/gate.csv, each within its
# tolerance (Baselines/gate.thresholds.csv); exits 2 when one got worse.
# Some five to eight minutes after the build on two cores (docs/gate.md).
gate: release
	scripts/gate check

# Refreshes Baselines/gate.csv and the machine it was made on, after an intended change.
baseline: release
	scripts/gate baseline

# Timing verdicts against another revision: builds BASE in a work tree of its own, then measures
# both builds on WORKLOAD with cachebench ab --paired (both as workers, step by step in turns, for
# at most PAIRED_SECONDS, default 90). A BASE from before the worker mode fails the handshake, and
# ab falls back to whole runs in turns (ROUNDS each, default 5); PAIRED=0 asks for those directly.
ROUNDS ?= 5
PAIRED ?= 1
PAIRED_SECONDS ?= 90
regress: release
	@test -n "$(BASE)" || { echo "usage: make regress BASE=<git ref> [WORKLOAD=...] [PAIRED_SECONDS=90] [PAIRED=0 ROUNDS=5]" >&2; exit 64; }
	rm -rf .build/regress-base && git worktree prune
	git worktree add --detach .build/regress-base $(BASE)
	cd .build/regress-base && $(SWIFT) build -c release --product cachebench $(BASE_PREFIX_MAP)
	.build/release/cachebench ab --base .build/regress-base/.build/release/cachebench \
	  --current .build/release/cachebench $(WORKLOAD) --rounds $(ROUNDS) \
	  $(if $(filter 1,$(PAIRED)),--paired --seconds $(PAIRED_SECONDS)); \
	  status=$$?; git worktree remove --force .build/regress-base; exit $$status

# Plots every results CSV in PLOTS (default results/runs, your runs; with its samples, when
# NAME-samples.csv exists there) and every comparison (*-comparison.csv, from compare or ab --out)
# to PNGs beside them. PLOTS=results redraws the curated figures committed there.
PLOTS ?= $(RUNS)
plot:
	@python3 -c "import matplotlib" 2>/dev/null || python3 -m pip install -q matplotlib
	@for f in $(PLOTS)/*.csv; do \
	  [ -e "$$f" ] || { echo "No CSV in $(PLOTS)/: run make bench first (or make plot PLOTS=results)" >&2; exit 1; }; \
	  case "$$f" in \
	    *-samples.csv|*-series.csv|results/soak.csv) ;; \
	    *-comparison.csv) python3 scripts/compare_plot.py "$$f" || exit 1 ;; \
	    *) samples="$${f%.csv}-samples.csv"; \
	       if [ -f "$$samples" ]; then python3 scripts/plot.py "$$f" --samples "$$samples" || exit 1; \
	       else python3 scripts/plot.py "$$f" || exit 1; fi ;; \
	  esac; \
	done

# A long session (docs/command-line.md#soak): Workloads/soak.json's million traffic steps on bounded
# stores with dates on, memory and SQLite, sampled every 10,000 steps (the resident set, jemalloc's
# live bytes, records, the database and its WAL), and what grew per 100,000 steps after a warm-up of
# 100,000: results/soak.txt (the table, after the machine's load), results/soak.csv (the growth),
# results/soak-series.csv (the samples) and results/soak.png. About 12 minutes on the 2-core VM: not in CI.
soak: release
	@python3 -c "import matplotlib" 2>/dev/null || python3 -m pip install -q matplotlib
	set -o pipefail; { echo "# $$(date -u +%Y-%m-%dT%H:%M:%SZ), $$(nproc) cores, load average before: $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	  .build/release/cachebench soak Workloads/soak.json --allow-large --every 10000 --warmup 100000 \
	    --out results/soak.csv --series results/soak-series.csv || exit $$?; \
	  echo "# load average after: $$(cut -d' ' -f1-3 /proc/loadavg)"; } | tee results/soak.txt
	python3 scripts/soak_plot.py results/soak-series.csv --growth results/soak.csv --out results/soak.png

# libFuzzer with AddressSanitizer on the JSON parser, the GraphQL parser with fragment checks
# and planning, and the workload loader, SECONDS each (default 60), from the seed corpus in
# Tests/Fuzz/Corpus; new inputs go to .build/fuzz/, crashes to .build/fuzz/<target>-crash-*.
SECONDS ?= 60
FUZZ_TARGETS := FuzzJSON:json FuzzGraphQL:graphql FuzzWorkload:workload
fuzz: deps
	cd Tests/Fuzz && $(SWIFT) build --sanitize=fuzzer --sanitize=address
	@for pair in $(FUZZ_TARGETS); do \
	  target=$${pair%%:*}; corpus=$${pair##*:}; \
	  mkdir -p .build/fuzz/$$corpus; \
	  echo "== $$target, $(SECONDS) s"; \
	  Tests/Fuzz/.build/debug/$$target .build/fuzz/$$corpus Tests/Fuzz/Corpus/$$corpus \
	    -max_total_time=$(SECONDS) -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
	    -artifact_prefix=.build/fuzz/$$target- 2>&1 | grep -E "^(Done|stat::number_of_executed_units|stat::new_units_added|==[0-9]+==ERROR|SUMMARY)" ; \
	  test $${PIPESTATUS[0]:-0} -eq 0 || exit 1; \
	done

# Kills a process merging into SQLite (compact and apollo layouts x WAL and DELETE journals,
# unbounded and bounded with merges that evict) at random moments, KILLS times each (default 50),
# and checks the database after every kill: integrity_check ok, every merge reported committed
# there whole (bounded: or evicted, from a store past half its budget), none torn, and a bounded
# store's count of its bytes, reopened, what its tables hold and within its budget.
KILLS ?= 50
crash-test: deps
	$(SWIFT) build -c release --product crashtest
	.build/release/crashtest run --kills $(KILLS)

# Sanitizer runs. Both build without jemalloc (CACHEBENCH_NO_JEMALLOC: the sanitizers replace
# malloc themselves), in build directories of their own, so they run the test targets that need no
# jemalloc figures: JSON, the language, the stores, the normalizer and reader, results, generator and
# workload files (MeasurementTests, WorkbenchTests and EndToEndTests measure memory and run
# workloads, which need jemalloc). ThreadSanitizer runs the stores' tests, their threads among them.
SANITIZED_TESTS := JSONTests|GraphQLLanguageTests|NormalizedCacheTests|SQLiteCacheTests|ResultsTests|GeneratorTests|WorkloadsTests
asan: deps
	CACHEBENCH_NO_JEMALLOC=1 $(SWIFT) build --build-tests --sanitize=address --build-path .build/asan
	CACHEBENCH_NO_JEMALLOC=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
	  $(SWIFT) test --skip-build --sanitize=address --build-path .build/asan --filter '$(SANITIZED_TESTS)'

tsan: deps
	CACHEBENCH_NO_JEMALLOC=1 $(SWIFT) build --build-tests --sanitize=thread --build-path .build/tsan
	CACHEBENCH_NO_JEMALLOC=1 TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build --sanitize=thread \
	  --build-path .build/tsan --filter 'NormalizedCacheTests|SQLiteCacheTests'

clean:
	rm -rf .build
