#!/bin/bash
# perf record as a user at perf_event_paranoid 2: kernel samples left out, as the distro does
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
command -v setpriv >/dev/null || skip "setpriv is not installed"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
[ "$paranoid" = 2 ] || skip "perf_event_paranoid is '$paranoid', this tests the fallback at 2"
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to run as"
uid=$(id -u nobody) gid=$(id -g nobody)
as_user() { setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"; }
as_user test -x "$PERF" || skip "user nobody cannot run $PERF (a parent directory is closed)"

# A directory only the user can write, as a user's own would be.
chmod 711 "$TMPD"
D=$TMPD/user
mkdir "$D" && chown "$uid:$gid" "$D" || fail "cannot make a directory for nobody"
cd "$D"

# $1: what, $2: expected event name, the rest: record arguments.
record_as_user() {
	local what=$1 name=$2; shift 2
	as_user "$PERF" record -o "$D/u.data" "$@" >"$D/out" 2>"$D/err"
	local rc=$?
	[ $rc -eq 0 ] || { cat "$D/err"; fail "$what: exit $rc, the distro records this"; }
	grep -q 'perf_event_paranoid' "$D/err" && { cat "$D/err"; fail "$what: warned without -v"; }
	f=$D/u.data
	[ -s "$f" ] || f=$(ls "$D"/u.data.2* 2>/dev/null | head -1)
	[ -s "$f" ] || fail "$what: no file written"
	attrs=$(oracle_ok "$what: evlist" evlist -v -f -i "$f")
	echo "$attrs" | grep "^$name: " | grep -q 'exclude_kernel: 1, exclude_hv: 1' ||
		{ echo "$attrs"; fail "$what: $name is not user-only (exclude_kernel, exclude_hv)"; }
	# Every sample the distro shows is in user space: no kernel addresses.
	oracle_ok "$what: script" script -f -F ip,sym -i "$f" >"$D/script"
	if grep -Eq '^ *ffff' "$D/script"; then
		head "$D/script"; fail "$what: kernel samples in a user-only recording"
	fi
	echo "$what: ok ($(wc -l <"$D/script") samples, $(echo "$attrs" | grep "^$name: " | cut -d: -f1-2))"
	rm -f "$D"/u.data*
}

# The workload spends 50 ms of its own CPU time: cpu-clock at 1 ms samples it.
record_as_user "-e cpu-clock" cpu-clock:u -e cpu-clock -c 1000000 -- "$PERF" test -w threads 1 50
[ "$(wc -l <"$D/script")" -ge 10 ] || fail "-e cpu-clock: fewer than 10 user samples of 50 ms"
record_as_user "the default event" cpu-clock:u -c 1000000 -- "$PERF" test -w threads 1 50
record_as_user "--overwrite --switch-output" cpu-clock:u --overwrite --switch-output -- sleep 1

# -v says once that kernel samples are left out, as the distro's -v does.
as_user "$PERF" record -v -e cpu-clock -e task-clock -o "$D/v.data" -- true >/dev/null 2>"$D/err" ||
	{ cat "$D/err"; fail "-v: record failed"; }
n=$(grep -c 'kernel.perf_event_paranoid=2, trying to fall back to excluding kernel and hypervisor' "$D/err")
[ "$n" -eq 1 ] || { cat "$D/err"; fail "-v: the fallback was told $n times, want once"; }

# A user's explicit :k cannot fall back: the open error stays.
as_user "$PERF" record -e cpu-clock:k -o "$D/k.data" -- true >/dev/null 2>"$D/err" &&
	fail "cpu-clock:k as a user at paranoid 2 succeeded"
[ ! -e "$D/k.data" ] || fail "cpu-clock:k left a file behind"
grep -q 'permission' "$D/err" || { cat "$D/err"; fail "cpu-clock:k: no permission message"; }
exit 0
