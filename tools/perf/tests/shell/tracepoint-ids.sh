#!/bin/bash
# Tracepoint ids we read equal the distro perf's
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_tracefs
cd "$TMPD"
events="sched:sched_switch syscalls:sys_enter_prctl raw_syscalls:sys_exit"
args=""; for e in $events; do args="$args -e $e"; done
"$ORACLE" record -q $args -o d.data -- true 2>/dev/null || skip "the distro perf cannot record tracepoints here"
for e in $events; do
	theirs=$("$ORACLE" evlist -v -i d.data 2>/dev/null | grep "^$e:" | sed -n 's/.*config: \(0x[0-9a-f]*\).*/\1/p')
	ours=$("$PERF" list --ids "$e" | awk '{ print $2 }')
	[ -n "$theirs" ] && [ -n "$ours" ] || fail "no id for $e (ours '$ours', distro '$theirs')"
	[ $((theirs)) -eq "$ours" ] || fail "$e: our id $ours, the distro's $theirs"
	echo "$e: $ours"
done
# And a file we record carries the same ids.
"$PERF" record -q $args -o o.data -- true || fail "record"
for e in $events; do
	a=$("$ORACLE" evlist -v -i o.data | grep "^$e:" | sed -n 's/.*config: \(0x[0-9a-f]*\).*/\1/p')
	b=$("$ORACLE" evlist -v -i d.data 2>/dev/null | grep "^$e:" | sed -n 's/.*config: \(0x[0-9a-f]*\).*/\1/p')
	[ "$a" = "$b" ] || fail "$e: our file says $a, the distro's $b"
done
exit 0
