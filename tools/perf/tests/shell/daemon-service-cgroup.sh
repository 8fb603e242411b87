#!/bin/bash
# perf daemon: a session that follows a cgroup waits for it, records it system-wide, and waits again when it is removed
. "$(dirname "$0")/lib/common.sh"
CG=perfsvc-$$
MNT=
FOLLOW_CLEANUP='[ -n "$MNT" ] && [ -d "$MNT/$CG" ] && rmdir "$MNT/$CG"'
. "$(dirname "$0")/lib/daemon-follow.sh"

need_root	# a cgroup made, system-wide recording
MNT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$MNT" ] || skip "no cgroup2 file system is mounted"
"$PERF" record -a -G x -e dummy -o probe.data -- true > probe.txt 2>&1
grep -Eqi "unknown (switch|option)" probe.txt && skip "perf record -G is not available"

# A spinner in the cgroup: it moves itself in before it spins.
spin_in() { bash -c 'echo $$ > "$1/cgroup.procs" && exec bash -c "while :; do :; done"' sh "$MNT/$CG" & }

printf '[daemon]\nbase = %s\n[session-svc]\nrun = %s\ncgroup = %s\n' "$BASE" "$RUN" "$CG" > "$CFG"
D start || fail "start exited $?"
wait_waiting_for "cgroup '$CG'"
D | grep -qx "\[-1:svc\] waiting for cgroup '$CG': perf record $RUN" || { D; fail "the plain list"; }

# The cgroup appears: its tasks are recorded, and no others.
mkdir "$MNT/$CG"
wait_recording_of "cgroup '$CG'" "-a -G $CG"
spin_in; W=$!
dump_of "$W"

# It is removed: the recorder is stopped, writes its last dump, and the
# session waits, with no restart however many times the daemon looks.
kill -9 "$W"; wait "$W" 2>/dev/null
dumps=$(ls "$BASE"/session-svc/perf.data.* | wc -l)
# (rmdir fails while the killed task is still being taken out of it.)
wait_for "rmdir '$MNT/$CG' 2>/dev/null" || fail "cannot remove the cgroup $MNT/$CG"
wait_waiting_for "cgroup '$CG'"
wait_files "$BASE/session-svc/perf.data.*" $((dumps + 1))
stays_waiting_for "cgroup '$CG'"

# It comes back: recorded again.
mkdir "$MNT/$CG"
wait_recording_of "cgroup '$CG'" "-a -G $CG"
spin_in; W=$!
dump_of "$W"
kill -9 "$W"; wait "$W" 2>/dev/null
D stop || fail "stop exited $?"
exit 0
