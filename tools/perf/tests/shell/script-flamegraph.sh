#!/bin/bash
# perf script report flamegraph: the distro's JSON, a self-contained page, --diff, -l, filters, bad input
# On a -g recording of a workload with known functions, the JSON tree
# holds main -> fg_outer -> fg_middle -> fg_leaf_hot/fg_leaf_cold (hot
# with more samples), and equals the distro's -f json on the same file
# (parsed, and byte for byte); the HTML page is parsed: no element that
# fetches anything, no URL, a policy that forbids fetching, its data the
# same tree, a title naming the file and its time range.  --comm, --pid
# and --time select; --diff gives each node the baseline's samples on the same path;
# -o - writes to stdout; perf script -l lists the report in the
# distro's layout; bad options and unknown reports are one line each.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/flame-prog.sh"
command -v python3 >/dev/null || skip "python3 is not installed (it parses the outputs)"
own_tmpd flamegraph
flame_record fg.data

"$PERF" script report flamegraph -i fg.data -f json -o ours.json >out.txt 2>err.txt ||
	fail "-f json exited $?: $(head -1 err.txt)"
[ "$(cat out.txt)" = "dumping data to ours.json" ] || fail "-o: unexpected stdout: $(head -1 out.txt)"
"$PERF" script report flamegraph -i fg.data -o page.html >/dev/null 2>err.txt ||
	fail "html exited $?: $(head -1 err.txt)"
"$PERF" script report flamegraph -i fg.data -f json -o - >stdout.json 2>/dev/null ||
	fail "-o - exited $?"
cmp -s stdout.json ours.json || fail "-o - does not write the same JSON to stdout"
(cd "$TMPD" && mkdir dflt && cd dflt && cp ../fg.data perf.data &&
	"$PERF" script report flamegraph >/dev/null && "$PERF" script report flamegraph -f json >/dev/null &&
	[ -s flamegraph.html ] && [ -s stacks.json ]) || fail "the default names are not flamegraph.html and stacks.json"
pid=$(python3 -c '
import json, sys
for c in json.load(open("ours.json"))["c"]:
    if c["n"].startswith("flame ("):
        print(c["n"][7:-1])' ) || fail "ours.json does not parse"
[ -n "$pid" ] || fail "no 'flame (PID)' process in ours.json"
"$PERF" script report flamegraph -i fg.data -f json -o nocomm.json --comm nosuch >/dev/null ||
	fail "--comm exited $?"
"$PERF" script report flamegraph -i fg.data -f json -o pid.json --pid "$pid" >/dev/null ||
	fail "--pid exited $?"
# --time: the first half of the run has fewer samples, and the title says its range.
"$PERF" script report flamegraph -i fg.data -o half.html --time 0%-50% >/dev/null ||
	fail "--time exited $?"
python3 - <<'EOP' || fail "--time 0%-50% does not draw the first half"
import re, sys
def title(f):
    m = re.search(r"<title>Flame graph of fg\.data, ([0-9.]+) to ([0-9.]+) s \([0-9.]+ s, ([0-9]+) samples\)</title>",
                  open(f).read())
    if not m:
        sys.exit("%s: no title with a time range" % f)
    return float(m[1]), float(m[2]), int(m[3])
(a0, a1, an), (h0, h1, hn) = title("page.html"), title("half.html")
if not (0 < hn < an and h0 == a0 and h1 <= (a0 + a1) / 2 + 1e-6):
    sys.exit("half: %s to %s, %d samples; all: %s to %s, %d" % (h0, h1, hn, a0, a1, an))
EOP

cat >check.py <<'EOP'
import json, re, sys
from html.parser import HTMLParser

def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)

def total(n):
    return n["v"] + sum(total(c) for c in n["c"])

ours = json.load(open("ours.json"))
if ours["n"] != "all" or ours["l"] != "root":
    fail("the root is not 'all' of type root: %r" % ours["n"])
procs = [c for c in ours["c"] if c["n"] == "flame (%s)" % sys.argv[1]]
if len(procs) != 1:
    fail("not one 'flame (%s)' node" % sys.argv[1])
def path(n, names):
    """The node at the end of names, a path of callers that starts anywhere under n."""
    if n["n"] == names[0]:
        m = n
        for name in names[1:]:
            m = m and next((c for c in m["c"] if c["n"] == name), None)
        if m:
            return m
    for c in n["c"]:
        m = path(c, names)
        if m:
            return m
    return None

chain = path(procs[0], ["main", "fg_outer", "fg_middle"])
if not chain:
    fail("no main -> fg_outer -> fg_middle path")
hot = next((c for c in chain["c"] if c["n"] == "fg_leaf_hot"), None)
cold = next((c for c in chain["c"] if c["n"] == "fg_leaf_cold"), None)
if not hot or not cold:
    fail("fg_middle does not call fg_leaf_hot and fg_leaf_cold")
if not total(hot) > total(cold) > 0:
    fail("fg_leaf_hot (%d samples) not above fg_leaf_cold (%d)" % (total(hot), total(cold)))

nocomm = json.load(open("nocomm.json"))
if nocomm["c"] or nocomm["v"]:
    fail("--comm nosuch kept samples")
bypid = json.load(open("pid.json"))
if [c["n"] for c in bypid["c"]] != ["flame (%s)" % sys.argv[1]]:
    fail("--pid %s kept %r" % (sys.argv[1], [c["n"] for c in bypid["c"]]))

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.stack, self.data, self.title, self.csp = [], [], {}, "", ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        self.stack.append((tag, a))
        if tag == "meta" and a.get("http-equiv", "").lower() == "content-security-policy":
            self.csp = a.get("content", "")

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_data(self, d):
        if not self.stack:
            return
        tag, a = self.stack[-1]
        if tag == "title":
            self.title += d
        elif tag == "script":
            key = a.get("id") or "code"
            self.data[key] = self.data.get(key, "") + d

text = open("page.html", encoding="utf-8").read()
page = Page()
page.feed(text)
page.close()
for tag, a in page.tags:
    if tag in ("link", "img", "iframe", "object", "embed", "base", "source", "audio", "video"):
        fail("the page has a <%s> element" % tag)
    for k in ("src", "href", "srcset", "data", "action", "poster"):
        if k in a and not (tag == "object" and k == "data"):
            fail("<%s> has a %s attribute: %r" % (tag, k, a[k]))
if re.search(r"\b(?:https?|ftp|wss?|file):", text) or "url(" in text or "@import" in text:
    fail("the page names a URL")
if "default-src 'none'" not in page.csp:
    fail("no policy that forbids fetching: %r" % page.csp)
if "stacks" not in page.data or "code" not in page.data:
    fail("the page has no data or no script")
if json.loads(page.data["stacks"]) != ours:
    fail("the page's data is not the -f json tree")
if not re.fullmatch(r"Flame graph of fg\.data, \d+\.\d{6} to \d+\.\d{6} s \(\d+\.\d{6} s, \d+ samples\)",
                    page.title):
    fail("the title does not name the file and its time range: %r" % page.title)
if int(page.title.split(", ")[-1].split()[0]) != total(ours):
    fail("the title's count is not the tree's")
EOP
python3 check.py "$pid" || fail "the outputs are not as they should be"

# --diff: a second run as the baseline.  The tree stays the new file's;
# each node's "b" is what the same path holds in the baseline's own tree,
# a process matched by its comm when its pid is not there.
flame_record base.data
"$PERF" script report flamegraph -i base.data -f json -o base.json >/dev/null || fail "base: exit $?"
"$PERF" script report flamegraph -i fg.data --diff base.data -f json -o diff.json >/dev/null ||
	fail "--diff -f json exited $?"
"$PERF" script report flamegraph -i fg.data --diff base.data -o diff.html >/dev/null ||
	fail "--diff exited $?"
python3 - <<'EOP' || fail "the differential flame graph is not as it should be"
import json, re, sys
ours, base, diff = (json.load(open(f)) for f in ("ours.json", "base.json", "diff.json"))
def total(n):
    return n["v"] + sum(total(c) for c in n["c"])
def comm(name):
    return re.sub(r" \([0-9]+\)$", "", name)
def check(d, o, b, depth):
    want = total(b) if b else 0
    if d["b"] != want:
        sys.exit("%s: b %d, the baseline holds %d" % (d["n"], d["b"], want))
    if [c["n"] for c in d["c"]] != [c["n"] for c in o["c"]] or d["v"] != o["v"]:
        sys.exit("%s: not the new file's node" % d["n"])
    for dc, oc in zip(d["c"], o["c"]):
        bc = None
        if b:
            bc = next((x for x in b["c"] if x["n"] == dc["n"]), None)
            if not bc and depth == 0:
                bc = next((x for x in b["c"] if comm(x["n"]) == comm(dc["n"])), None)
        check(dc, oc, bc, depth + 1)
check(diff, ours, base, 0)
if not re.search(r'"b": [1-9]', open("diff.json").read().split("fg_leaf_hot", 1)[1][:60]):
    sys.exit("fg_leaf_hot has no baseline samples: the processes were not matched")
EOP
grep -q '<title>Differential flame graph of fg.data against base.data, ' diff.html ||
	fail "the differential page's title does not name both files"

# Bad input: one line, and the distro's statuses.
check_bad() {	# <status> <what> <args...>
	local want=$1 what=$2 st
	shift 2
	"$PERF" "$@" >/dev/null 2>bad.err
	st=$?
	[ $st -eq "$want" ] || fail "$what: exit $st, not $want"
	[ "$(wc -l <bad.err)" -eq 1 ] || fail "$what: not one line: $(cat bad.err)"
}
check_bad 129 "-f svg" script report flamegraph -i fg.data -f svg
check_bad 129 "--colorscheme red" script report flamegraph -i fg.data --colorscheme red
check_bad 255 "a missing file" script report flamegraph -i nosuch.data
check_bad 255 "a missing baseline" script report flamegraph -i fg.data --diff nosuch.data
check_bad 255 "an unknown report" script -i fg.data report nosuchreport
check_bad 129 "a stray word" script report flamegraph -i fg.data stray

"$PERF" script -l >list.txt || fail "perf script -l exited $?"
[ "$(head -1 list.txt)" = "List of available trace scripts:" ] || fail "-l: no heading"
grep -qx '  flamegraph                           create flame graphs' list.txt ||
	fail "-l does not list flamegraph in the distro's layout"

# The distro's own report on the same file (it reads ./perf.data only).
need_oracle
mkdir distro && cp fg.data distro/perf.data
(cd distro && "$ORACLE" script report flamegraph -f json -o distro.json) >/dev/null 2>distro.err ||
	skip "the distro's flamegraph report cannot run here: $(grep -v '^$' distro.err | head -1)"
"$ORACLE" script -l | grep -x '  flamegraph .*' | cmp -s - <(grep -x '  flamegraph .*' list.txt) ||
	fail "-l's flamegraph line is not the distro's"
python3 - <<'EOP' || fail "our JSON is not the distro's"
import json, sys
ours, theirs = json.load(open("ours.json")), json.load(open("distro/distro.json"))
def diff(a, b, path):
    for k in ("n", "l", "v"):
        if a[k] != b[k]:
            return "%s: %s %r, the distro's %r" % ("/".join(path), k, a[k], b[k])
    if [c["n"] for c in a["c"]] != [c["n"] for c in b["c"]]:
        return "%s: children %r, the distro's %r" % ("/".join(path), [c["n"] for c in a["c"]],
                                                    [c["n"] for c in b["c"]])
    for x, y in zip(a["c"], b["c"]):
        d = diff(x, y, path + [x["n"]])
        if d:
            return d
    return None
d = diff(ours, theirs, ["all"])
if d:
    print(d, file=sys.stderr)
    sys.exit(1)
EOP
cmp -s ours.json distro/distro.json || fail "our JSON parses as the distro's but its bytes differ"
echo "flamegraph: JSON as the distro's, $(wc -c <ours.json) bytes; page $(wc -c <page.html) bytes"
exit 0
