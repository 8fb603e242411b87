#!/bin/bash
# A user shut out of tracefs is told so, with the remount that lets users in, as the distro does
# tracefs mounted for root only (mode 700) is mounted all the same: a user
# who may not read it must hear that, and how to open it (remount with
# mode=755), not that it is not mounted.  A tracefs mount's mode belongs
# to the one tracefs of the machine, so the test does not remount it: in
# a mount namespace of its own it covers the events directory with one
# only root may read, which shuts the user out of the tracepoints the
# same way and is gone with the namespace.  Our record and list, and the
# distro's record, run there as user nobody.
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
for c in unshare setpriv; do command -v $c >/dev/null || skip "$c is not installed"; done
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to run as"
uid=$(id -u nobody) gid=$(id -g nobody)
setpriv --reuid="$uid" --regid="$gid" --clear-groups test -x "$PERF" ||
	skip "user nobody cannot run $PERF (a parent directory is closed)"
tracefs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
[ -d "$tracefs/events" ] || skip "no events directory in the tracefs at $tracefs"
unshare -m true 2>/dev/null || skip "unshare -m is not allowed here"

chmod 711 "$TMPD"
cd "$TMPD" || fail "no work directory"
mkdir -m 700 "$TMPD/locked" "$TMPD/out" && chown "$uid:$gid" "$TMPD/out" ||
	fail "cannot make the directories"
mode=$(stat -c %a "$tracefs")
# In the namespace: the events covered, then each command as nobody, its
# status in NAME.rc and its messages in NAME.err (in $TMPD/out).
cat >inside.sh <<'EOS'
tmpd=$1 tracefs=$2 uid=$3 gid=$4 perf=$5 oracle=$6
mount --bind "$tmpd/locked" "$tracefs/events" || exit 1
as() {
	local n=$1; shift
	setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@" >"$tmpd/out/$n.out" \
		2>"$tmpd/out/$n.err"
	echo $? >"$tmpd/out/$n.rc"
}
as ours-record "$perf" record -e sched:sched_switch -o "$tmpd/out/o.data" -- true
as ours-list "$perf" list tracepoint
as theirs-record "$oracle" record -e sched:sched_switch -o "$tmpd/out/d.data" -- true
EOS
unshare -m --propagation private bash inside.sh "$TMPD" "$tracefs" "$uid" "$gid" "$PERF" "$ORACLE" ||
	fail "cannot cover $tracefs/events in a mount namespace"
[ "$(stat -c %a "$tracefs")" = "$mode" ] || fail "the mode of $tracefs changed"
[ -d "$tracefs/events/sched" ] || fail "$tracefs/events is covered outside the namespace"

cd "$TMPD/out" || fail "no output directory"
for f in ours-record ours-list; do
	[ -s $f.rc ] || fail "$f did not run"
	grep -q "remount,mode=755 $tracefs" $f.err || { cat $f.err; fail "$f: no remount,mode=755 hint"; }
	grep -q 'not mounted' $f.err && { cat $f.err; fail "$f: says tracefs is not mounted"; }
	crashed "$(cat $f.rc)" && fail "$f crashed"
done
[ "$(cat ours-record.rc)" -ne 0 ] || fail "our record of a tracepoint it cannot read exited 0"
[ ! -e o.data ] || fail "our record left a file"
echo "ours: $(grep -o 'no permission.*' ours-record.err)"
grep -q 'remount,mode=755' theirs-record.err ||
	{ cat theirs-record.err; fail "the distro does not see a permission problem here"; }
[ "$(cat ours-record.rc)" = "$(cat theirs-record.rc)" ] ||
	fail "our record exited $(cat ours-record.rc), the distro's $(cat theirs-record.rc)"
# As the distro: no tracepoints listed is no error.
[ "$(cat ours-list.rc)" = 0 ] || fail "our list exited $(cat ours-list.rc)"
exit 0
