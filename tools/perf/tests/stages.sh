#!/bin/bash
# The stages of make test, run in order by the top-level Makefile:
#
#   stages.sh MAKE [--loaded]
#
# Each stage runs even when an unrelated one before it failed, so that one
# failing test does not hide what the fuzzer or the sanitizers would have
# found; a stage that needs one that failed is reported "not run", never
# left out.  The table at the end names each stage and what became of it,
# and the last line counts them: "stages: N passed, N failed, N skipped",
# a skipped stage being one that did not run.
#
# --loaded keeps every CPU busy for the whole run, as another job on a
# shared machine would: one spinning process a CPU and one that makes
# syscalls and forks short-lived processes.  The load is bounded: it stops
# when the stages end, and by itself after LOAD_MAX_S seconds (5400) if
# this script was killed before it could stop it.
set -u
MAKE=${1:?usage: stages.sh MAKE [--loaded]}
LOADED=${2:-}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
PERF_DIR=$ROOT/tools/perf
LOAD_MAX_S=${LOAD_MAX_S:-5400}

names=() results=()
# stage NAME NEEDS COMMAND...: runs COMMAND in ROOT unless stage NEEDS (a
# name, or "-") did not pass.
stage() {
	local name=$1 needs=$2 i rc
	shift 2
	if [ "$needs" != - ]; then
		for i in "${!names[@]}"; do
			[ "${names[$i]}" = "$needs" ] || continue
			[ "${results[$i]}" = passed ] && break
			echo "== $name: not run, as $needs ${results[$i]}"
			names+=("$name") results+=("not run (needs $needs)")
			return
		done
	fi
	echo "== $name"
	(cd "$ROOT" && "$@")
	rc=$?
	names+=("$name")
	if [ $rc -eq 0 ]; then results+=(passed); else results+=("failed (exit $rc)"); fi
}

LOADDIR=
start_load() {
	local n i

	LOADDIR=$(mktemp -d /tmp/perf-test-load.XXXXXX) || exit 1
	: >"$LOADDIR/on"
	n=$(nproc 2>/dev/null || echo 2)
	# A loop runs while the flag file is there and its deadline has not
	# passed; each step is short, so it stops within a fraction of a second.
	for i in $(seq 1 "$n"); do
		( end=$((SECONDS + LOAD_MAX_S))
		  while [ -e "$LOADDIR/on" ] && [ $SECONDS -lt $end ]; do
			"$PERF_DIR/perf" test -w burn 0.2 || exit
		  done ) &
	done
	( end=$((SECONDS + LOAD_MAX_S))
	  while [ -e "$LOADDIR/on" ] && [ $SECONDS -lt $end ]; do
		"$PERF_DIR/perf" test -w getppid 20000 || exit
		for i in 1 2 3 4 5 6 7 8; do /bin/true; done
		ls -R /usr/share/doc >/dev/null 2>&1
		sleep 0.05
	  done ) &
	echo "== load: $n spinning processes and one of syscalls and forks, at most $LOAD_MAX_S s"
}
stop_load() {
	[ -n "$LOADDIR" ] || return 0
	rm -f "$LOADDIR/on"
	wait
	rm -rf "$LOADDIR"
	LOADDIR=
}
trap stop_load EXIT

JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}
stage build - $MAKE -j"$JOBS" all
if [ "$LOADED" = --loaded ]; then
	[ "${results[0]}" = passed ] && start_load
fi
stage "perf test" build sh -c 'cd tools/perf && ./perf test'
stage "fuzz build" build $MAKE -j"$JOBS" -C tools/perf fuzz-session
stage "fuzz smoke" "fuzz build" $MAKE -C tools/perf fuzz-smoke FUZZ_TIME=30
stage "sanitizer build" - $MAKE -j"$JOBS" -C tools/perf OUTPUT="$ROOT/build-asan/" SANITIZE=1
stage "unit tests under ASan/UBSan" "sanitizer build" sh -c 'cd tools/perf &&
	PERF_TEST_NO_SHELL=1 ASAN_OPTIONS=detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$0"/build-asan/perf test' "$ROOT"
stop_load

passed=0 failed=0 notrun=0
echo
echo "== make test${LOADED:+ $LOADED}: stages"
for i in "${!names[@]}"; do
	printf '   %-30s %s\n' "${names[$i]}" "${results[$i]}"
	case ${results[$i]} in
	passed) passed=$((passed + 1)) ;;
	failed*) failed=$((failed + 1)) ;;
	*) notrun=$((notrun + 1)) ;;
	esac
done
echo "stages: $passed passed, $failed failed, $notrun skipped"
[ $failed -eq 0 ] && [ $notrun -eq 0 ]
