# Top-level Makefile: installs what the build needs, then delegates to tools/perf.
#
#   make          build tools/perf/perf
#   make deps     install missing Debian packages (needs root or sudo)
#   make run      deps + build + a short flight-recorder demo
#   make test     deps + build + the whole `perf test` table, the fuzzer's
#                 smoke run, then the unit tests again under
#                 AddressSanitizer/UBSan; a table of the stages at the end
#   make test-loaded  the same with every CPU kept busy by a bounded load
#   make bench    benchmarks against the distro perf (bench/)
#   make sweep    every record command line of tools/perf/tests/sweep, read by
#                 our readers and the distro's, compared (needs root and the
#                 distro perf; its figures at the end)
#   make install   the binary, manual pages, completion, systemd unit and
#                  examples under prefix (/usr/local), DESTDIR, bindir, mandir
#                  as GNU makefiles take them; builds first if needed
#   make uninstall removes what install put
#   make clean

PERF_DIR := tools/perf
PERF     := $(PERF_DIR)/perf
# Builds use every CPU (make JOBS=1 for one at a time).
JOBS     ?= $(shell nproc 2>/dev/null || echo 1)

# Debian packages the build, the tests and the benchmarks need (chromium:
# the flame graph page is loaded headless by its test, about a minute to
# install; asciidoctor: the manual pages in roff, for make install).
DEB_PKGS := gcc make pkg-config flex bison libtraceevent-dev libelf-dev libdw-dev \
	    libunwind-dev libiberty-dev libzstd-dev libbpf-dev linux-perf clang libclang-rt-14-dev strace procps xxd \
	    asciidoctor chromium python3

.PHONY: all man install uninstall deps run test test-loaded test-unit test-asan bench bench-quick fuzz sweep clean

all:
	$(MAKE) -j$(JOBS) -C $(PERF_DIR)

# prefix, DESTDIR and the rest reach tools/perf's Makefile from the command line.
man install uninstall:
	$(MAKE) -j$(JOBS) -C $(PERF_DIR) $@

deps:
	@missing=""; \
	for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing missing packages:$$missing"; \
		SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null || \
		{ echo "error: could not install:$$missing; install them by hand and retry" >&2; exit 1; }; \
	fi

run: deps all
	@bash $(PERF_DIR)/tests/demo.sh

# Every stage runs, and the last lines name each with its result: one that
# needs a stage that failed is reported "not run" (tests/stages.sh).
test: deps
	@JOBS=$(JOBS) bash $(PERF_DIR)/tests/stages.sh "$(MAKE)"

# The same stages with every CPU kept busy the whole time by a bounded load
# of spinning, syscalls and forks, as a shared machine's other jobs would.
test-loaded: deps
	@JOBS=$(JOBS) bash $(PERF_DIR)/tests/stages.sh "$(MAKE)" --loaded

test-asan:
	$(MAKE) -j$(JOBS) -C $(PERF_DIR) OUTPUT=$(CURDIR)/build-asan/ SANITIZE=1
	@echo "== unit tests under AddressSanitizer/UBSan =="
	@cd $(PERF_DIR) && PERF_TEST_NO_SHELL=1 ASAN_OPTIONS=detect_leaks=1 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(CURDIR)/build-asan/perf test

bench: deps all
	@for b in bench/record-throughput.sh bench/flight-recorder.sh bench/flight-recorder-triggers.sh bench/control-ping-storm.sh bench/flight-recorder-scale.sh bench/flight-recorder-swap.sh bench/flight-recorder-swap-scale.sh bench/sideband-forks.sh bench/script-throughput.sh bench/see-a-dump.sh; do bash $$b || exit 1; done

# The short form of every benchmark, a few minutes: its ratios beside their targets.
bench-quick: deps all
	@bash bench/quick.sh

sweep: deps all
	@PERF=$(CURDIR)/$(PERF) SWEEP_JOBS=$${SWEEP_JOBS:-4} bash $(PERF_DIR)/tests/shell/reader-sweep.sh --all

fuzz: deps
	$(MAKE) -C $(PERF_DIR) fuzz

clean:
	$(MAKE) -C $(PERF_DIR) clean
	rm -rf build-asan
