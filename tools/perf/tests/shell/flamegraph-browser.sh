#!/bin/bash
# perf script report flamegraph's page in headless Chromium, offline: it renders, zooms, searches, asks for nothing
# The page of a -g recording of a workload with known functions is loaded
# from its file with the network cut off (no DNS, a dead proxy).  From
# the DOM after rendering (--dump-dom), parsed: the page's script ran with
# no error and fetched nothing (its own counts on <body>, and no console
# message at all), and says in whole ms when it was drawn; the workload's
# functions are frames; a zoom (the
# fragment's #zoom=, which draws as a click does) leaves only the zoomed
# frame's subtree, full width, and its callers, in a chart no taller than
# they are; a search (#search=) marks
# exactly the frames whose names hold the text, with their share of the
# samples as the tree counts it.  A copy of the page given an <img> from
# the network must show the refused request, or the check above could not
# see one.  A screenshot, decoded with zlib, must not be one colour.  A
# differential page (--diff with a second run) shows on each frame the
# change of its share that the tree's numbers give.
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
# The root is the chart's bottom row: a window of 800 pixels shows only
# the top of a deep chart, which may be empty.  The window holds it all
# (18-pixel rows below the title and the search box).
chart_rows=$(sed -n 3p views.txt)
chrome --screenshot="$TMPD/shot.png" --window-size=1200,$((160 + 20 * chart_rows)) "$url" \
	>/dev/null 2>shot.err || fail "chromium exited $? on --screenshot"
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

python3 - <<'EOP' || fail "the screenshot is blank"
import struct, sys, zlib
data = open("shot.png", "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG")
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
if depth != 8 or ctype not in (2, 6):
    sys.exit("an unexpected PNG layout: depth %d, colour type %d" % (depth, ctype))
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, other, hued = bytearray(stride), set(), 0, 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        colours.add(px)
        other += px != b"\xff\xff\xff"
        hued += max(px) - min(px) > 40
    prev = line
share = other / (w * h)
print("screenshot %dx%d: %d colours, %.1f%% not white, %d pixels in colour" %
      (w, h, len(colours), 100 * share, hued))
# Text, the search box and the grey root are not in colour; the frames
# are.  The process's frame alone spans the width, some 18 rows high:
# how many other frames there are is the recording's business.
if len(colours) < 8 or hued < 5000:
    sys.exit("%d colours, %d pixels in colour" % (len(colours), hued))
EOP
exit 0
