#!/bin/bash
# perf script report flamegraph's page in headless Chromium, offline, by mouse and keyboard: it zooms, searches, shows a tooltip, asks for nothing
# The page of a -g recording of a workload with known functions is loaded
# from its file with the network cut off (no DNS, a dead proxy).  Driven
# as a user drives it, over the DevTools protocol (lib/cdp.py): a click
# on fg_leaf_cold zooms it to the chart's width and hides fg_leaf_hot,
# the mouse over it shows its samples and share (all of it inside the
# window, at the window's edge too), a click on "Reset zoom"
# and typing fg_leaf_hot into the search box mark exactly the frames
# that hold the text, with their share as the tree counts it, and
# Backspace, key by key, takes the marks away again; all the
# while no request and no console error or exception, and a screenshot
# has the frames' colours.  The states the fragment opens (#zoom=,
# #search=) are read from the DOM after rendering (--dump-dom), parsed:
# the zoomed chart holds its frame's callers and subtree and is no
# taller than they are, and the page's own counts on <body> say no
# error, no request, and in whole ms when it was drawn.  A copy of the
# page given an <img> from the network must show the request to both
# checks, or they could not see one.  A differential page (--diff with a
# second run) shows on each frame the change of its share that the
# tree's numbers give, and the mouse over a frame its baseline too.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/flame-prog.sh"
. "$(dirname "$0")/lib/chromium.sh"
own_tmpd flamegraph-browser
chromium_setup

flame_record fg.data
"$PERF" script report flamegraph -i fg.data -o page.html >/dev/null || fail "html exited $?"
"$PERF" script report flamegraph -i fg.data -f json -o stacks.json >/dev/null || fail "json exited $?"

# The fragments to open: a path to fg_leaf_cold from the process down, and
# what a search for fg_leaf_hot must find (the samples of its frames).
python3 - >views.txt <<'EOP' || fail "stacks.json: no path to fg_leaf_cold"
import json, urllib.parse
root = json.load(open("stacks.json"))
def find(n, name, path):
    if n["n"] == name:
        return path
    for c in n["c"]:
        p = find(c, name, path + [c["n"]])
        if p:
            return p
def total(n):
    return n["v"] + sum(total(c) for c in n["c"])
def hits(n, text):
    return total(n) if text in n["n"] else sum(hits(c, text) for c in n["c"])
def deepest(n, depth):
    return max([depth] + [deepest(c, depth + 1) for c in n["c"]])
path = find(root, "fg_leaf_cold", [])
node = root
for name in path:
    node = next(c for c in node["c"] if c["n"] == name)
print(urllib.parse.quote(";".join(path), safe=""))
# The zoomed chart's rows: its callers' and the deepest of its subtree's.
print(hits(root, "fg_leaf_hot"), total(root), deepest(node, len(path)) + 1)
# The whole chart's rows, for a screenshot as tall as the chart.
print(deepest(root, 0) + 1)
EOP
zoom=$(sed -n 1p views.txt)
read -r hot all rows < <(sed -n 2p views.txt)

url="file://$TMPD/page.html"
dom_of plain "$url"
dom_of zoom "$url#zoom=$zoom"
dom_of search "$url#search=fg_leaf_hot"
sed 's|<body |<body><img src="https://example.invalid/x.png"><div |' page.html >fetching.html
dom_of fetching "file://$TMPD/fetching.html"
# A differential page: a second run as the baseline.
cp fg.data new.data
flame_record base.data
"$PERF" script report flamegraph -i new.data --diff base.data -o diff.html >/dev/null ||
	fail "--diff exited $?"
"$PERF" script report flamegraph -i new.data --diff base.data -f json -o diff.json >/dev/null ||
	fail "--diff -f json exited $?"
dom_of diff "file://$TMPD/diff.html"

cat >dom.py <<'EOP'
import sys, urllib.parse
from html.parser import HTMLParser

class Dom(HTMLParser):
    """The body's counts, the chart's zoom, the frames and the matched line."""
    def __init__(self):
        super().__init__()
        self.body, self.zoom, self.frames, self.matched, self.in_matched = {}, None, [], "", False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.in_matched = a.get("id") == "matched"
        if tag == "body":
            self.body = a
        elif a.get("id") == "chart":
            self.zoom = a.get("data-zoom")
            self.chart_style = a.get("style", "")
        elif "frame" in a.get("class", "").split():
            self.frames.append(a)

    def handle_endtag(self, tag):
        self.in_matched = False

    def handle_data(self, d):
        if self.in_matched:
            self.matched += d

def load(name):
    d = Dom()
    d.feed(open(name, encoding="utf-8").read())
    return d

def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)

def names(d):
    return {f.get("data-name") for f in d.frames}

zoom, hot, total = urllib.parse.unquote(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rows = int(sys.argv[4])
views = {v: load(v + ".dom") for v in ("plain", "zoom", "search", "fetching")}
for v, d in views.items():
    if d.body.get("data-rendered") != "1":
        fail("%s: the page did not render (body %r)" % (v, d.body))
    if not d.body.get("data-render-ms", "").isdigit():
        fail("%s: no time to render in ms for the bench (body %r)" % (v, d.body))
    if v != "fetching" and ("data-errors" in d.body or "data-blocked" in d.body or
                            d.body.get("data-requests") != "0"):
        fail("%s: errors or requests: %r" % (v, d.body))
if "data-blocked" not in views["fetching"].body:
    fail("a page with an <img> from the network shows no refused request: %r" %
         views["fetching"].body)

plain = views["plain"]
want = {"main", "fg_outer", "fg_middle", "fg_leaf_hot", "fg_leaf_cold"}
if not want <= names(plain):
    fail("functions missing from the frames: %s" % sorted(want - names(plain)))
if plain.zoom != "" or any("match" in f.get("class", "") for f in plain.frames) or plain.matched:
    fail("the plain page is zoomed or marks matches")

z = views["zoom"]
if z.zoom != zoom:
    fail("zoomed to %r, not %r" % (z.zoom, zoom))
if "fg_leaf_hot" in names(z) or len(z.frames) >= len(plain.frames):
    fail("the zoom into fg_leaf_cold still shows fg_leaf_hot (%d frames, %d unzoomed)" %
         (len(z.frames), len(plain.frames)))
cold = [f for f in z.frames if f.get("data-name") == "fg_leaf_cold"]
if len(cold) != 1 or "width: 100%" not in cold[0].get("style", ""):
    fail("the zoomed frame is not drawn full width: %r" % cold)
if "height: %dpx" % (18 * rows) not in z.chart_style:
    fail("the zoomed chart is %r, not the %d rows of its frame's callers and subtree" %
         (z.chart_style, rows))
callers = zoom.split(";")[:-1]
if not set(callers) <= names(z):
    fail("the zoomed frame's callers are not drawn: %s" % sorted(set(callers) - names(z)))

s = views["search"]
marked = [f.get("data-name") for f in s.frames if "match" in f.get("class", "").split()]
should = [f.get("data-name") for f in s.frames if "fg_leaf_hot" in f.get("data-name")]
if not marked or marked != should:
    fail("search marks %r, not the frames %r" % (marked, should))
line = "Matched: %.2f%% (%d of %d samples)" % (100.0 * hot / total, hot, total)
if s.matched != line:
    fail("the search says %r, not %r" % (s.matched, line))
# Each frame of the diff says the change of its share, as the tree gives it.
import json
d = load("diff.dom")
if d.body.get("data-rendered") != "1" or "data-errors" in d.body or d.body.get("data-requests") != "0":
    fail("diff: not rendered, or errors or requests: %r" % d.body)
tree = json.load(open("diff.json"))
def totals(n):
    n["t"] = n["v"] + sum(totals(c) for c in n["c"])
    return n["t"]
totals(tree)
def want(n, out):
    out.setdefault(n["n"], set()).add("%.2f" % (100.0 * (n["t"] / tree["t"] - n["b"] / tree["b"])))
    for c in n["c"]:
        want(c, out)
deltas = {}
want(tree, deltas)
if not d.frames or "fg_leaf_hot" not in names(d):
    fail("diff: no fg_leaf_hot frame")
for f in d.frames:
    # The page rounds in JavaScript; -0.00 and 0.00 are one.
    got = f.get("data-delta", "").replace("-0.00", "0.00")
    if got not in {x.replace("-0.00", "0.00") for x in deltas.get(f.get("data-name"), ())}:
        fail("diff: %s shows a change of %r, not one of %r" %
             (f.get("data-name"), got, deltas.get(f.get("data-name"))))
print("%d frames; zoomed %d; %s; diff %d frames" % (len(plain.frames), len(z.frames), line,
                                                    len(d.frames)))
EOP
python3 dom.py "$zoom" "$hot" "$all" "$rows" || fail "the rendered pages are not as they should be"
for v in plain zoom search diff; do
	if grep ':CONSOLE' $v.err; then
		fail "$v: the page wrote to the console"
	fi
done
grep -q ':CONSOLE' fetching.err || fail "the fetching page's refused request was not on the console"

# As a user drives it, through the DevTools protocol: a click on
# fg_leaf_cold zooms it to the chart's width with fg_leaf_hot gone, the
# mouse over it shows its samples and share, "Reset zoom" and typing in
# the search box mark fg_leaf_hot's frames with their share; no request
# and no error all along, and the screenshot has the frames' colours.
# The copy with an <img> from the network must show the request and the
# refusal, or the checks could not see one.
cat >drive.py <<'EOP'
import json, sys
from cdp import Browser, fail, png_pixels

url, fetching, diff = sys.argv[1:4]
root = json.load(open("stacks.json"))
def total(n):
    n["t"] = n["v"] + sum(total(c) for c in n["c"])
    return n["t"]
def path_to(n, name):
    if n["n"] == name:
        return [n]
    for c in n["c"]:
        p = path_to(c, name)
        if p:
            return [n] + p
def hits(n, text):
    return n["t"] if text in n["n"] else sum(hits(c, text) for c in n["c"])
total(root)

b = Browser()
b.open(url)
frames = "[...document.querySelectorAll('#chart .frame')]"
named = lambda name: "%s.filter(f => f.dataset.name === %s)" % (frames, json.dumps(name))
all_frames = b.eval(frames + ".length")
missing = b.eval("%s.filter(n => !%s.some(f => f.dataset.name === n))" %
                 (json.dumps(["main", "fg_outer", "fg_middle", "fg_leaf_hot", "fg_leaf_cold"]), frames))
if missing:
    fail("open the page", "functions missing from the frames: %s" % missing)

# The widest fg_leaf_cold is the one the JSON's first path leads to.
path = path_to(root, "fg_leaf_cold")
zoom = ";".join(n["n"] for n in path[1:])
cold = named("fg_leaf_cold") + ".sort((a, b) => b.dataset.samples - a.dataset.samples)[0]"
x, y, _ = b.centre("find fg_leaf_cold", cold)
b.click(x, y)
b.wait("click fg_leaf_cold", "document.getElementById('chart').dataset.zoom === %s" % json.dumps(zoom))
chart_w = b.eval("document.getElementById('chart').getBoundingClientRect().width")
x, y, r = b.centre("the zoomed frame", cold)
if abs(r[2] - chart_w) > 1:
    fail("click fg_leaf_cold", "the zoomed frame is %.1f px wide in a %.1f px chart" % (r[2], chart_w))
left = b.eval(frames + ".length")
if b.eval(named("fg_leaf_hot") + ".length") or left >= all_frames:
    fail("click fg_leaf_cold", "fg_leaf_hot is still drawn (%d frames of %d)" % (left, all_frames))

b.mouse("mouseMoved", x, y)
tip = "%s: %d samples (%.2f%%)" % ("fg_leaf_cold", path[-1]["t"], 100.0 * path[-1]["t"] / root["t"])
b.wait("move over fg_leaf_cold", "(() => { const t = document.getElementById('tip');"
       " return getComputedStyle(t).display === 'block' && t.textContent === %s; })()" %
       json.dumps(tip))
# At the window's right edge the tooltip is still all inside it.
b.mouse("mouseMoved", r[0] + r[2] - 3, y)
b.wait("move to fg_leaf_cold's right end", "(() => { const t = document.getElementById('tip');"
       " const r = t.getBoundingClientRect(), v = document.documentElement;"
       " return t.textContent === %s && r.left >= 0 && r.right <= v.clientWidth &&"
       " r.top >= 0 && r.bottom <= v.clientHeight; })()" % json.dumps(tip))

x, y, _ = b.centre("find Reset zoom", "document.getElementById('reset')")
b.click(x, y)
b.wait("click Reset zoom", "document.getElementById('chart').dataset.zoom === '' && "
       "%s.length === %d" % (frames, all_frames))

x, y, _ = b.centre("find the search box", "document.getElementById('search')")
b.click(x, y)
b.wait("click the search box", "document.activeElement === document.getElementById('search')")
b.type("fg_leaf_hot")
hot = hits(root, "fg_leaf_hot")
line = "Matched: %.2f%% (%d of %d samples)" % (100.0 * hot / root["t"], hot, root["t"])
b.wait("type fg_leaf_hot", "document.getElementById('matched').textContent === %s" % json.dumps(line))
wrong = b.eval("%s.filter(f => f.classList.contains('match') !== f.dataset.name.includes('fg_leaf_hot'))"
               ".map(f => f.dataset.name)" % frames)
marked = b.eval("document.querySelectorAll('#chart .frame.match').length")
if wrong or not marked:
    fail("type fg_leaf_hot", "%d frames marked, wrongly marked or not: %s" % (marked, wrong))
# Backspaced out, the search marks nothing and says nothing.
for _ in "fg_leaf_hot":
    b.key("Backspace", 8)
b.wait("backspace the search out", "document.getElementById('search').value === '' &&"
       " document.getElementById('matched').textContent === '' &&"
       " !document.querySelector('#chart .frame.match')")
b.clean("the page's run")

# Text, the search box and the grey root are not in colour; the frames
# are.  The process's frame alone spans the width, some 18 rows high:
# how many other frames there are is the recording's business.
w, h, rows = png_pixels(b.screenshot())
colours = {px for row in rows for px in row}
hued = sum(max(px) - min(px) > 40 for row in rows for px in row)
if len(colours) < 8 or hued < 5000:
    fail("screenshot", "blank: %d colours, %d pixels in colour in %dx%d" % (len(colours), hued, w, h))

# On the diff, the tooltip adds the baseline's samples and share and
# the change in points, as diff.json's numbers give them.
b.open(diff)
hot = named("fg_leaf_hot") + ".sort((a, b) => b.dataset.samples - a.dataset.samples)[0]"
x, y, _ = b.centre("find fg_leaf_hot in the diff", hot)
n = json.load(open("diff.json"))
total(n)
new_all, base_all = n["t"], n["b"]
for name in b.eval("path(%s.node)" % hot):
    n = next(c for c in n["c"] if c["n"] == name)
d = 100 * (n["t"] / new_all - n["b"] / base_all)
diff_tip = "fg_leaf_hot: %d samples (%.2f%%), baseline %d (%.2f%%), %s%.2f points" % (
    n["t"], 100.0 * n["t"] / new_all, n["b"], 100.0 * n["b"] / base_all, "+" if d >= 0 else "", d)
b.mouse("mouseMoved", x, y)
b.wait("move over fg_leaf_hot in the diff", "document.getElementById('tip').textContent === %s" %
       json.dumps(diff_tip))
b.clean("the diff's run")

b.open(fetching)
b.eval("1")
if not any("example.invalid" in u for u in b.requests) or not b.errors:
    fail("open a page with an <img> from the network", "requests %r, errors %r" %
         (b.requests, b.errors))
print("zoomed %d of %d frames; %s; %s; screenshot %dx%d, %d pixels in colour; %s" %
      (left, all_frames, tip, line, w, h, hued, diff_tip))
EOP
cdp drive.py "$url" "file://$TMPD/fetching.html" "file://$TMPD/diff.html" || fail "the page does not answer its input as it should"
exit 0
