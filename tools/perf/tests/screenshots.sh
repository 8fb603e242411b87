#!/bin/bash
# The README's pictures: the demo's first dump (tests/demo.sh) drawn by
# perf script report flamegraph, as a flame graph zoomed into the busiest
# process and as a timeline with the middle of the dump selected, and shot
# in headless Chromium with the network cut off, 1000x600.
# Usage: tests/screenshots.sh [<output directory>]  (default Documentation/images)
set -u
PERF_DIR=$(cd "$(dirname "$0")/.." && pwd)
PERF=$PERF_DIR/perf
IMAGES=$(cd "${1:-$PERF_DIR/Documentation/images}" && pwd) || exit 1
CHROMIUM=$(command -v chromium) || { echo "screenshots: chromium is not installed; make deps installs it." >&2; exit 1; }
WORK=$(mktemp -d /tmp/perf-screenshots.XXXXXX) || exit 1
trap 'rm -rf "$WORK"' EXIT

DEMO_DIR=$WORK/demo bash "$PERF_DIR/tests/demo.sh" >"$WORK/demo.log" 2>&1 ||
	{ tail -5 "$WORK/demo.log"; echo "screenshots: the demo failed" >&2; exit 1; }
cd "$WORK/demo" || exit 1
DUMP=$(ls perf.data.* | head -1)
"$PERF" script report flamegraph -i "$DUMP" -o flamegraph.html >/dev/null &&
"$PERF" script report flamegraph -f json -i "$DUMP" -o stacks.json >/dev/null &&
"$PERF" script report flamegraph --timeline -i "$DUMP" -o timeline.html >/dev/null ||
	{ echo "screenshots: perf script report flamegraph failed on $DUMP" >&2; exit 1; }
# The busiest process (the workload), and the middle half of the dump's time range.
zoom=$(python3 -c '
import json, urllib.parse
def total(n):
    return n["v"] + sum(total(c) for c in n["c"])
top = max(json.load(open("stacks.json"))["c"], key=total)
print(urllib.parse.quote(top["n"], safe=""))') || exit 1
range=$(python3 -c '
import json, re
page = open("timeline.html", encoding="utf-8").read()
d = json.loads(re.search(r"id=\"timeline-data\">(.*?)</script>", page, re.S).group(1))
span = d["end"] - d["start"]
print("%.6f,%.6f" % (d["start"] + span / 4, d["end"] - span / 4))') || exit 1
for page in "flamegraph#zoom=$zoom" "timeline#range=$range"; do
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$WORK/profile" --host-resolver-rules='MAP * ~NOTFOUND' \
		--proxy-server=127.0.0.1:9 --hide-scrollbars --window-size=1000,600 \
		--virtual-time-budget=5000 --screenshot="$IMAGES/${page%%#*}.png" \
		"file://$PWD/${page%%#*}.html#${page#*#}" >/dev/null 2>chromium.err ||
		{ tail -3 chromium.err; echo "screenshots: chromium failed on $page" >&2; exit 1; }
	echo "$IMAGES/${page%%#*}.png"
done
