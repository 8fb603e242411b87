#!/bin/bash
# perf script report flamegraph --timeline on a flight-recorder dump, in headless Chromium: rows, trigger, a drag or a click on a row redraws the graph
# A workload with known functions sleeps, works and then makes the
# getppid(2) that triggers a dump (--switch-output-event) of its samples
# and switches.  The dump's page is loaded from its file with the network
# cut off, as flamegraph-browser does, and read back with --dump-dom and
# html.parser: it rendered with no script error, no console message and
# no request; it has a row for the CPUs and the task the data names; the
# trigger's line says what the dump's header says, at the trigger's time;
# a span is drawn for each loss the data holds.  A time range (#range=,
# what a drag sets) redraws the flame graph with exactly the samples the
# page's data has in that range, fewer than all, and a process (#pid=)
# with only that process's node under the root.  Then as a user drives
# it, over the DevTools protocol (lib/cdp.py): a drag across the rows
# shows the range under the mouse while the button is held, selects it
# and redraws the flame graph with the
# samples in it, a click on the workload's row leaves only its process;
# no request, no console error or exception, and a screenshot that is
# not blank.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/flame-prog.sh"
. "$(dirname "$0")/lib/chromium.sh"
need_root
need_tracefs
own_tmpd timeline-browser
chromium_setup

# The flame graph workload, run twice around a sleep, then the trigger.
flame_prog ./flame 10000000
sed -i 's/^int main(void).*$/#include <unistd.h>\n#include <sys\/syscall.h>\nint main(void) { fg_outer(); usleep(50000); fg_outer(); syscall(SYS_getppid); fg_outer(); return 0; }/' flame.c
gcc -O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o flame flame.c || fail "gcc: flame.c"
"$PERF" record -q -g -e cpu-clock -c 100000 -e sched:sched_switch/call-graph=no/ --overwrite \
	--switch-output-event=syscalls:sys_exit_getppid -o tr.data ./flame >/dev/null 2>rec.err ||
	{ cat rec.err; fail "record exited $?"; }
dump=
for f in tr.data.*; do
	"$PERF" report --header-only -i "$f" >"$f.hdr" 2>/dev/null
	grep -q 'dump requested by : trigger syscalls:sys_exit_getppid' "$f.hdr" && dump=$f
done
[ -n "$dump" ] || { ls -l; cat rec.err; fail "no dump was asked for by the trigger"; }
"$PERF" script report flamegraph --timeline -i "$dump" -o tl.html >/dev/null ||
	fail "--timeline exited $?"
header=$(sed -n 's/^# dump requested by : //p' "$dump.hdr")

# The selections to open: the first half of the range, the workload's pid.
python3 - tl.html >views.txt <<'EOP' || fail "tl.html: no timeline data"
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'id="timeline-data">(.*?)</script>', page, re.S).group(1))
t = d["samples"]["t"]
mid = (d["start"] + d["end"]) / 2
t1 = round((mid - d["start"]) * 1e6)
tasks = d["tasks"]
pid = max(set(tasks["pid"]), key=lambda p: sum(1 for i in d["samples"]["task"] if tasks["pid"][i] == p))
print("%.6f,%.6f" % (d["start"], mid))
print(len(t), sum(1 for x in t if x <= t1), pid)
EOP
range=$(sed -n 1p views.txt)
read -r all half pid < <(sed -n 2p views.txt)

url="file://$TMPD/tl.html"
dom_of plain "$url"
dom_of range "$url#range=$range"
dom_of pid "$url#pid=$pid"

cat >dom.py <<'EOP'
import json, re, sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    """The body, the timeline's attributes, its labels, marks and the frames."""
    def __init__(self):
        super().__init__()
        self.body, self.view, self.selected = {}, {}, {}
        self.labels, self.requests, self.lost, self.frames = [], [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "").split()
        if tag == "body":
            self.body = a
        elif a.get("id") == "timeline":
            self.view = a
        elif a.get("id") == "tl-selected":
            self.selected = a
        elif "tl-label" in cls:
            self.labels.append(a)
        elif "tl-request" in cls:
            self.requests.append(a)
        elif "tl-lost" in cls:
            self.lost.append(a)
        elif "frame" in cls:
            self.frames.append(a)

def load(name):
    (d := Dom()).feed(open(name, encoding="utf-8").read())
    return d

def fail(msg):
    sys.exit("FAIL: " + msg)

header, all_, half, pid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
page = open("tl.html", encoding="utf-8").read()
data = json.loads(re.search(r'id="timeline-data">(.*?)</script>', page, re.S).group(1))
views = {v: load(v + ".dom") for v in ("plain", "range", "pid")}
for v, d in views.items():
    if d.body.get("data-rendered") != "1" or "data-errors" in d.body or \
       "data-blocked" in d.body or d.body.get("data-requests") != "0":
        fail("%s: not rendered, or errors or requests: %r" % (v, d.body))

def root_samples(d):
    roots = [f for f in d.frames if f.get("data-name") == "all"]
    if len(roots) != 1:
        fail("%d root frames" % len(roots))
    return int(roots[0]["data-samples"])

p = views["plain"]
cpus = sorted(set(data["samples"]["cpu"] + data["switches"]["cpu"]))
if [l.get("data-cpu") for l in p.labels if "data-cpu" in l] != [str(c) for c in cpus]:
    fail("CPU rows %r, not the data's CPUs %r" % (p.labels, cpus))
if pid not in [l.get("data-pid") for l in p.labels]:
    fail("no row for the workload's pid %s" % pid)
if p.view.get("data-samples") != str(all_) or int(p.view.get("data-switches", 0)) < 1:
    fail("the timeline holds %r samples and %r switches, not %d and some" %
         (p.view.get("data-samples"), p.view.get("data-switches"), all_))
if len(p.requests) != 1 or p.requests[0].get("data-text") != header:
    fail("the trigger's mark %r is not the header's %r" % (p.requests, header))
m = re.search(r" at (\d+\.\d+) on CPU", header)
if not m or p.requests[0].get("data-time") != m.group(1):
    fail("the trigger is marked at %r, not at the header's %r" %
         (p.requests[0].get("data-time"), m and m.group(1)))
if len(p.lost) != len(data["lost"]["t0"]):
    fail("%d loss spans drawn, the data has %d" % (len(p.lost), len(data["lost"]["t0"])))
if root_samples(p) != all_ or p.selected.get("data-samples") != str(all_):
    fail("unselected, the flame graph has %d samples, not %d" % (root_samples(p), all_))

r = views["range"]
if not 0 < half < all_:
    fail("the first half holds %d of %d samples: no test of a range" % (half, all_))
if root_samples(r) != half or r.selected.get("data-samples") != str(half):
    fail("the range's flame graph has %d samples, not the %d in it" % (root_samples(r), half))

procs = {f.get("data-name") for f in views["pid"].frames
         if f.get("data-name", "").endswith(" (%s)" % pid)}
others = [f.get("data-name") for f in views["pid"].frames if re.search(r" \(\d+\)$", f.get("data-name", "")) and f.get("data-name") not in procs]
if len(procs) != 1 or others:
    fail("the pid's flame graph has processes %r and %r" % (procs, others))
print("%d samples, %d switches, %d rows; the first half %d; %s" %
      (all_, int(p.view["data-switches"]), len(p.labels), half, header))
EOP
python3 dom.py "$header" "$all" "$half" "$pid" || fail "the rendered pages are not as they should be"
for v in plain range pid; do
	if grep ':CONSOLE' $v.err; then
		fail "$v: the page wrote to the console"
	fi
done

# As a user drives it, over the DevTools protocol: a drag across the
# rows from a tenth of the way to the middle shows the range's box while
# the button is held, and selects a range starting
# and ending there, and the flame graph is redrawn with exactly the
# samples the data has in it, fewer than all; a click on the workload's
# label leaves only its process under the root, and "Clear selection"
# brings all the samples back; no request and no
# error all along, and the screenshot is not blank.
cat >drive.py <<'EOP'
import json, re, sys
from cdp import Browser, fail, png_pixels

url, pid = sys.argv[1], int(sys.argv[2])
page = open("tl.html", encoding="utf-8").read()
data = json.loads(re.search(r'id="timeline-data">(.*?)</script>', page, re.S).group(1))
t = data["samples"]["t"]
span = max(1, round((data["end"] - data["start"]) * 1e6))
root = "[...document.querySelectorAll('#chart .frame')].find(f => f.dataset.name === 'all')" \
       ".dataset.samples"

b = Browser()
b.open(url)
x, y, r = b.centre("find the timeline", "document.getElementById('tl-plot')")
x0, x1 = r[0] + 0.1 * r[2], r[0] + 0.5 * r[2]
# While the button is held the box is drawn where the mouse went.
box = "(() => { const b = document.getElementById('tl-selection').getBoundingClientRect();" \
      " return b.width > 0 && Math.abs(b.left - %f) <= 2 && Math.abs(b.right - %f) <= 2; })()" % (x0, x1)
b.drag(x0, y, x1, held=lambda: b.wait("drag across the timeline, the button held", box))
sel = b.wait("drag across the timeline", "tl.sel.range")
# The page's times are the drag's pixels: a pixel either way at most.
for got, f in zip(sel, (0.1, 0.5)):
    if abs(got - f * span) > span / r[2] + 1:
        fail("drag across the timeline", "the range %r is not the drag's %.1f to %.1f" %
             (sel, 0.1 * span, 0.5 * span))
n = sum(1 for s in t if sel[0] <= s <= sel[1])
if not 0 < n < len(t):
    fail("drag across the timeline", "the range holds %d of %d samples: no test of a range" %
         (n, len(t)))
b.wait("drag across the timeline", "%s === '%d' && "
       "document.getElementById('tl-selected').dataset.samples === '%d'" % (root, n, n))

x, y, _ = b.centre("find the workload's row", "document.querySelector('.tl-label[data-pid=\"%d\"]')" % pid)
b.click(x, y)
b.wait("click the workload's row", "tl.sel.pid === %d" % pid)
procs = b.wait("click the workload's row", "(() => { const f = [...document.querySelectorAll("
               "'#chart .frame')].map(f => f.dataset.name).filter(n => / \\(\\d+\\)$/.test(n));"
               " return f.length && f; })()")
if procs != ["%s (%d)" % (procs[0].rsplit(" (", 1)[0], pid)]:
    fail("click the workload's row", "the flame graph has processes %r" % procs)
x, y, _ = b.centre("find Clear selection", "document.getElementById('tl-clear')")
b.click(x, y)
b.wait("click Clear selection", "!tl.sel.range && tl.sel.pid === null && %s === '%d' && "
       "getComputedStyle(document.getElementById('tl-selection')).display === 'none'" % (root, len(t)))
b.clean("the page's run")

w, h, rows = png_pixels(b.screenshot())
colours = {px for row in rows for px in row}
if len(colours) < 8:
    fail("screenshot", "blank: %d colours in %dx%d" % (len(colours), w, h))
print("dragged %d to %d us: %d of %d samples; %s; screenshot %dx%d, %d colours" %
      (sel[0], sel[1], n, len(t), procs[0], w, h, len(colours)))
EOP
cdp drive.py "$url" "$pid" || fail "the page does not answer its input as it should"
exit 0
