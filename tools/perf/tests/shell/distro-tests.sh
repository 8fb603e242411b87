#!/bin/bash
# The distro's own shell tests (daemon, pipe_test, record+zstd_comp_decomp, buildid, record_offcpu) pass with our perf first in PATH
. "$(dirname "$0")/lib/common.sh"
need_root	# they record system-wide and own daemon bases under /tmp
DIR=${DISTRO_TESTS:-/usr/lib/perf-core/tests/shell}
[ -d "$DIR" ] || skip "the distro's perf tests are not installed ($DIR: package linux-perf)"
cd "$TMPD"
# 'perf' is ours for them; a HOME of their own keeps the shared build-id cache out of it.
mkdir bin home
ln -s "$PERF" bin/perf
export HOME=$TMPD/home

# Why a test cannot run on this machine, from what it needs that is not
# ours; empty if it can.  A test's own skip (exit 2) is not taken on
# trust: its zstd check asks our 'perf record -h', so it counts as a failure.
machine_lacks() {
	case $1 in
	pipe_test) command -v cc >/dev/null || echo "no C compiler (cc)" ;;
	buildid)
		command -v cc >/dev/null || echo "no C compiler (cc)"
		command -v readelf >/dev/null || echo "no readelf (binutils)" ;;
	# It records 'perf bench sched messaging' (ours) with --off-cpu: our
	# BPF program must load, or record ignores the option, as the distro's
	# does where its skeleton is not built.
	record_offcpu)
		"$PERF" record --off-cpu -e dummy -o "$TMPD/offcpu.data" -q true 2>&1 |
			sed -n "s/.*option \`off-cpu' is being ignored because /no BPF for --off-cpu: /p"
		rm -f "$TMPD/offcpu.data" ;;
	esac
}

failed= ran=0
for t in daemon pipe_test record+zstd_comp_decomp buildid record_offcpu; do
	if [ ! -f "$DIR/$t.sh" ]; then
		failed="$failed $t(missing)"
		echo "$t: $DIR/$t.sh is not there"
		continue
	fi
	why=$(machine_lacks "$t")
	if [ -n "$why" ]; then
		echo "$t: skipped, the machine has $why"
		continue
	fi
	run=$(mktemp -d "$TMPD/$t.XXXXXX")
	# By bash, whatever the first line says: 6.1's buildid.sh uses bash's
	# ${id:0:2} under #!/bin/sh, which dash (Debian's sh) refuses, with
	# the distro's perf as with ours.
	(cd "$run" && PATH=$TMPD/bin:$PATH timeout 600 bash "$DIR/$t.sh") >"$t.log" 2>&1
	rc=$?
	ran=$((ran + 1))
	echo "$t: exit $rc"
	if [ $rc -ne 0 ]; then
		sed "s/^/	/" "$t.log" | tail -30
		failed="$failed $t"
	fi
done
[ -z "$failed" ] || fail "the distro's tests failed with our perf first in PATH:$failed"
[ $ran -gt 0 ] || skip "none of the distro's tests could run here"
exit 0
