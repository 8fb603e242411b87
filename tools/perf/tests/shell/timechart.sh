#!/bin/bash
# perf timechart draws what ran on each CPU and each task's running and blocked time, a dump's trigger, and refuses bad input
. "$(dirname "$0")/lib/common.sh"
need_oracle
need_root
need_tracefs
command -v python3 >/dev/null || skip "python3 is not installed: no XML parser to read the picture"
cd "$TMPD"

# The workload blocks by construction: the CLONE_VFORK parent of a child
# that sleeps waits in uninterruptible sleep (D), however fast the disks
# are, so its row has running and blocked bars.  The record is
# system-wide: it is known by its pid.
WORK='"$PERF" test -w vforks 20 & echo $! >blk.pid
wait; sleep 0.05'
$PERF timechart record -T -- sh -c "$WORK" >rec.out 2>rec.err || { cat rec.err; fail "perf timechart record"; }
$PERF evlist -i perf.data >evlist || fail "perf evlist"
grep -qx sched:sched_switch evlist || fail "perf timechart record -T did not record sched_switch"
grep -q power: evlist && fail "perf timechart record -T recorded power events"

$PERF timechart -o ours.svg 2>tc.err || { cat tc.err; fail "perf timechart"; }
grep -qE '^Written [0-9]+\.[0-9] seconds of trace to ours\.svg\.$' tc.err ||
	{ cat tc.err; fail "perf timechart did not say what it wrote as the distro does"; }
$PERF script -F cpu | tr -dc '0-9\n' | sort -un >cpus
BLK=$(cat blk.pid)
$PERF sched timehist 2>/dev/null | grep -q " wl-vfork\[$BLK\]" || fail "perf sched timehist shows no wl-vfork $BLK"
# By tid: before its exec, the workload's task is timehist's sh[tid].
$PERF sched timehist 2>/dev/null | awk -v t="[[]$BLK(/[0-9]+)?[]]\$" '$3 ~ t { w += $4; r += $6; n++ }
	END { printf "%d %.3f %.3f\n", n, w, r }' >timehist

# The picture, read with a parser: CPU rows for the file's CPUs, the workload's row
# with running and blocked bars, its times what timehist adds up (timehist
# prints milliseconds cut to three decimals: a microsecond a line).
check_svg() {	# <svg> <workload tid> [cpus timehist]
	python3 - "$@" <<'EOF'
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
svg, tid = sys.argv[1], sys.argv[2]
root = ET.parse(svg).getroot()
def fail(msg):
    print("FAIL: %s: %s" % (svg, msg), file=sys.stderr)
    sys.exit(1)
rows = [g for g in root.iter(NS + "g") if g.get("class") == "task"]
w = [g for g in rows if g.get("data-tid") == tid]
if len(w) != 1:
    fail("%d rows for the workload %s" % (len(w), tid))
bars = {r.get("class") for r in w[0].iter(NS + "rect")}
for cls in ("sample", "blocked"):
    if cls not in bars:
        fail("the workload's row has no %s bar (it has %s)" % (cls, sorted(bars)))
if len(sys.argv) > 3:
    cpus = {int(c) for c in open(sys.argv[3]).read().split()}
    drawn = {int(g.get("data-cpu")) for g in root.iter(NS + "g") if g.get("class") == "cpu"}
    if not cpus or not cpus <= drawn:
        fail("CPU rows %s, the file's CPUs %s" % (sorted(drawn), sorted(cpus)))
    n, wait, run = open(sys.argv[4]).read().split()
    tol = (int(n) + 1) * 1000
    ours_run = int(w[0].get("data-running"))
    ours_off = sum(int(w[0].get("data-" + s)) for s in ("waiting", "sleeping", "blocked"))
    if abs(ours_run - float(run) * 1e6) > tol:
        fail("the workload ran %d ns, timehist says %s ms in %s lines" % (ours_run, run, n))
    if abs(ours_off - float(wait) * 1e6) > tol:
        fail("the workload was off CPU %d ns, timehist says %s ms" % (ours_off, wait))
    if int(w[0].get("data-blocked")) <= 0:
        fail("the workload was never blocked")
print(len(rows))
EOF
}
check_svg ours.svg "$BLK" cpus timehist >nrows || fail "the picture"
[ "$(cat nrows)" -gt 1 ] || fail "a system-wide record drew only $(cat nrows) task rows"

# -p restricts the rows, by name (any other wl-vfork too) and by pid; -w sets the width.
$PERF timechart -p wl-vfork -o p.svg 2>/dev/null || fail "perf timechart -p wl-vfork"
$PERF timechart -p "$BLK" -w 1234 -o w.svg 2>/dev/null || fail "perf timechart -p $BLK -w 1234"
check_svg p.svg "$BLK" >/dev/null || fail "p.svg: -p wl-vfork did not draw wl-vfork $BLK"
python3 - <<'EOF' || fail "p.svg: -p wl-vfork drew other tasks too"
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
comms = [g.get("data-comm") for g in ET.parse("p.svg").getroot().iter(NS + "g")
         if g.get("class") == "task"]
sys.exit(any(c != "wl-vfork" for c in comms))
EOF
[ "$(check_svg w.svg "$BLK")" -eq 1 ] || fail "w.svg: -p $BLK drew other tasks too"
python3 -c 'import sys, xml.etree.ElementTree as ET
sys.exit(ET.parse("w.svg").getroot().get("width") != "1234")' || fail "-w 1234 did not set the width"

# Bad input: one line, a non-zero exit, as the distro's where it has one.
$PERF record -q -e cpu-clock -o nosched.data -- true 2>/dev/null || fail "perf record -e cpu-clock"
bad() {	# <expected exit> <options...>
	local want=$1 rc; shift
	$PERF timechart "$@" -o bad.svg >bad.out 2>bad.err
	rc=$?
	crashed $rc && fail "perf timechart $* crashed ($rc)"
	[ "$rc" -eq "$want" ] || { cat bad.err; fail "perf timechart $*: exit $rc, not $want"; }
	[ "$(wc -l <bad.err)" -eq 1 ] || { cat bad.err; fail "perf timechart $*: not one line"; }
	[ ! -e bad.svg ] || fail "perf timechart $* wrote a picture"
}
bad 234 -i nosched.data
grep -q "Did you call 'perf timechart record'" bad.err || fail "no sched events: $(cat bad.err)"
bad 255 -i missing.data
bad 129 -w 0
for a in "-i nosched.data" "-i missing.data"; do
	# shellcheck disable=SC2086
	"$ORACLE" timechart $a -o bad.svg >/dev/null 2>&1
	rc=$?
	# shellcheck disable=SC2086
	$PERF timechart $a -o bad.svg >/dev/null 2>&1
	[ $? -eq $rc ] || fail "perf timechart $a: exit not the distro's $rc"
done

# The distro reads the same file, and finds the workload where we do.
oracle_ok "timechart" timechart -o distro.svg >/dev/null
python3 - "$BLK" <<'EOF' || fail "the distro's picture"
import re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
names = set()
for t in ET.parse("distro.svg").getroot().iter(NS + "text"):
    m = re.match(r"(.*):(\d+) \(", t.text or "")
    if m:
        names.add((m.group(1), m.group(2)))
ours = {(g.get("data-comm"), g.get("data-pid")) for g in ET.parse("ours.svg").getroot().iter(NS + "g")
        if g.get("class") == "task"}
if ("wl-vfork", sys.argv[1]) not in names or ("wl-vfork", sys.argv[1]) not in ours:
    print("FAIL: wl-vfork %s: the distro's rows %s, ours %s" % (sys.argv[1], sorted(names)[:20],
          sorted(ours)[:20]), file=sys.stderr)
    sys.exit(1)
EOF

# A dump asked for by a trigger: its line and its words.  The workload's
# failed read(2) triggers it (as in record-triggers.sh).
mkfifo drive
$PERF record -e sched:sched_switch -e sched:sched_wakeup -m 64K --overwrite -o tr.data \
	--switch-output-event=syscalls:sys_exit_read --filter 'ret < 0' \
	-- "$PERF" test -w reads <drive 2>trec.err &
REC=$!
exec 4>drive
echo ok >&4
echo "fail 1001" >&4
wait_files 'tr.data.*' 1
echo done >&4
exec 4>&-
wait $REC || { cat trec.err; fail "the trigger's record"; }
DUMP=$(ls tr.data.* | head -1)
$PERF timechart -i "$DUMP" -o trig.svg 2>/dev/null || fail "perf timechart of the dump $DUMP"
python3 - <<'EOF' || fail "the dump's picture"
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse("trig.svg").getroot()
trig = [g for g in root.iter(NS + "g") if g.get("class") == "trigger"]
title = [t for t in root.iter(NS + "text") if t.get("class") == "title"]
def fail(msg):
    print("FAIL: trig.svg: " + msg, file=sys.stderr)
    sys.exit(1)
if len(trig) != 1 or trig[0].find(NS + "line") is None:
    fail("%d trigger markers" % len(trig))
words = trig[0].find(NS + "text").text
if not words.startswith("trigger syscalls:sys_exit_read at ") or " by perf " not in words:
    fail("the marker says " + words)
if len(title) != 1 or "dumped on trigger syscalls:sys_exit_read" not in title[0].text:
    fail("the title line is %r" % [t.text for t in title])
EOF
exit 0
