#!/bin/bash
# perf record: bad input gives one clear error and no file
. "$(dirname "$0")/lib/common.sh"
need_oracle
cd "$TMPD"
echo precious > perf.data.old

expect_error() {
	local what=$1; shift
	"$PERF" record "$@" >out.txt 2>err.txt
	local rc=$?
	[ $rc -ne 0 ] || fail "$what: exit status 0"
	crashed $rc && fail "$what: crashed (exit $rc)"
	[ -s err.txt ] || fail "$what: no message"
	[ ! -e perf.data ] || fail "$what: left a perf.data behind"
	[ "$(cat perf.data.old)" = precious ] || fail "$what: perf.data.old was touched"
	echo "$what -> $(head -1 err.txt)"
}

expect_error "-m 0" -m 0 -e cpu-clock -- true
expect_error "-m lots" -m lots -e cpu-clock -- true
expect_error "-e nosuch:event" -e nosuch:event -- true
expect_error "bad term" -e 'cpu-clock/bogus/' -- true
expect_error "missing workload" -e cpu-clock -- /nonexistent/command
expect_error "missing command in PATH" -e cpu-clock -- no-such-command-xyz
# Found, but its exec fails once released (an interpreter that is not
# there): the child's errno, not an exit status 127 of its own.
printf '#!/nonexistent/interpreter\n' > bad-interp && chmod +x bad-interp
expect_error "workload whose exec fails" -e cpu-clock -- ./bad-interp
"$PERF" record -e cpu-clock -- ./bad-interp >/dev/null 2>&1
rc=$?
[ $rc -eq 255 ] || fail "a failed exec: exit $rc, not 255"
grep -qx "Workload failed: cannot run './bad-interp': No such file or directory" err.txt ||
	fail "a failed exec: $(cat err.txt)"
expect_error "-p of a missing pid" -e cpu-clock -p 999999999
expect_error "-o in a missing dir" -e cpu-clock -o /nonexistent/dir/x.data -- true
expect_error "missing option argument" -e
# A fifo or a socket at -o is refused and left as it was: the new file takes
# its name by rename(2), which would have replaced the node.
mkfifo out.fifo
expect_error "-o a fifo" -e cpu-clock -o out.fifo -- true
[ -p out.fifo ] || fail "-o a fifo: the fifo was replaced"
grep -q 'out.fifo: it is a fifo, a socket or a block device' err.txt || fail "-o a fifo: $(cat err.txt)"
# A character device is written in place, as the distro does: -o /dev/null
# records and exits 0, and /dev/null stays the device.  A dump would rename
# it: --switch-output with it is refused.
"$PERF" record -e cpu-clock -o /dev/null -- true >out.txt 2>err.txt ||
	fail "-o /dev/null: exit $?: $(cat err.txt)"
[ -c /dev/null ] || fail "-o /dev/null: /dev/null is no longer a character device"
grep -q "Captured and wrote 0.000 MB /dev/null" err.txt || fail "-o /dev/null: $(cat err.txt)"
expect_error "--switch-output to a device" --switch-output -e cpu-clock -o /dev/null -- true
grep -q "give a regular file with -o, not the device /dev/null" err.txt ||
	fail "--switch-output -o /dev/null: $(cat err.txt)"
[ -c /dev/null ] || fail "--switch-output -o /dev/null: /dev/null was replaced"
if [ "$(id -u)" -eq 0 ] && mknod -m 666 null.dev c 1 3 2>/dev/null; then
	"$PERF" record -e cpu-clock -o null.dev -- true 2>err.txt || fail "-o a device node: $(cat err.txt)"
	[ -c null.dev ] || fail "-o a device node: the node was replaced"
fi
# The summary line leaves out a count of no samples, as the distro's does
# (a one-second period on a workload that ends at once).
"$PERF" record -e cpu-clock -c 1000000000 -o z.data -- true 2>err.txt || fail "record z.data: $(cat err.txt)"
line=$(grep "Captured and wrote" err.txt)
case $line in
*samples*) fail "no samples, yet the summary says: $line" ;;
"[ perf record: Captured and wrote "*" MB z.data ]") ;;
*) fail "the summary line of no samples: $line" ;;
esac
expect_error "unknown option" --bogus-option -- true
expect_error "nothing to record"
expect_error "bad --switch-output" --switch-output=soon -e cpu-clock -- true
grep -q "^Invalid --switch-output value 'soon': use " err.txt ||
	fail "bad --switch-output: the message does not name the value: $(head -1 err.txt)"
grep -q "^ Usage: perf record " err.txt || fail "bad --switch-output: no usage after the message"
# A negative time is refused before anything is renamed (perf.data.old is
# checked by expect_error; a perf.data of the user's must stay as it is).
echo mine > perf.data
"$PERF" record --switch-output=-5s -e cpu-clock -- true >out.txt 2>err.txt
rc=$?
[ $rc -eq 234 ] || fail "--switch-output=-5s: exit $rc, not 234 as for other bad --switch-output values"
[ "$(cat perf.data)" = mine ] || fail "--switch-output=-5s: perf.data was replaced"
grep -q -- "--switch-output\[=" err.txt || fail "--switch-output=-5s: no usage of the option"
echo "--switch-output=-5s -> $(head -1 err.txt)"
rm -f perf.data

# A value an option refuses is a usage error: 129, as the distro exits, with
# that option's usage.
for bad in "-m lots" "-c many" "-D soon" "-k nosuchclock" "--call-graph=bogus" \
	   "--switch-max-files=x"; do
	"$PERF" record $bad -e cpu-clock -- true >out.txt 2>err.txt
	rc=$?
	[ $rc -eq 129 ] || fail "$bad: exit $rc, not 129"
	[ "$(grep -c '^    [ -]' err.txt)" -le 4 ] || fail "$bad: the whole usage, not the option's"
	"$ORACLE" record $bad -e cpu-clock -o o.data -- true >/dev/null 2>&1
	orc=$?
	[ $orc -eq $rc ] || fail "$bad: exit $rc, the distro's $orc"
done
# Triggers and the control channel.
expect_error "--control without fifo:/fd:" --control=ctl -e cpu-clock -- true
expect_error "--control FIFO missing" --control=fifo:/nonexistent/ctl -e cpu-clock -- true
touch regular
expect_error "--control not a FIFO" --control=fifo:regular -e cpu-clock -- true
expect_error "--control fd not open" --control=fd:77 -e cpu-clock -- true
expect_error "--filter first" --filter 'ret < 0' -e cpu-clock -- true
expect_error "--filter after cpu-clock" -e cpu-clock --filter 'ret < 0' -- true
expect_error "--exclude-perf after cpu-clock" -e cpu-clock --exclude-perf -- true
expect_error "--switch-output-event unknown" --switch-output-event=nosuch:event -e cpu-clock -- true
expect_error "--switch-output-delay bad" --switch-output --switch-output-delay=soon -- true
expect_error "--switch-output-delay alone" --switch-output-delay=100ms -e cpu-clock -- true
expect_error "-D bad" -D -5 -e cpu-clock -- true
expect_error "-D -1 without --control" -D -1 -e cpu-clock -- true
if [ "$(id -u)" -eq 0 ] && grep -q tracefs /proc/mounts; then
	expect_error "--filter the kernel refuses" -e syscalls:sys_enter_read --filter 'bogus == 1' \
		-- true
	grep -q 'bogus == 1.*syscalls:sys_enter_read' err.txt || fail "the filter error names neither"
	expect_error "trigger filter the kernel refuses" --switch-output-event=syscalls:sys_exit_read \
		--filter 'nofield > 0' -e cpu-clock -- true
fi

# The workload's exit status is ours.
if [ "$(id -u)" -eq 0 ]; then
	"$PERF" record -q -e cpu-clock -o st.data -- sh -c 'exit 7'
	[ $? -eq 7 ] || fail "workload exit status not passed on"
	ls -l st.data | grep -q '^-rw-------' || fail "perf.data is not created 0600"
fi
exit 0
