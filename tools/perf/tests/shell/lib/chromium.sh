# Headless Chromium for the page tests: no sandbox (root has none), no GPU,
# every host name unresolved and every proxied request sent to a closed
# port, so that a page can only show what it holds.  Skips when chromium
# is missing or cannot start.  Usage: chromium_setup; chrome <option> <url>,
# or dom_of <name> <url> for the rendered DOM in <name>.dom; cdp <script>
# runs a python3 script that drives a page with lib/cdp.py.
chromium_setup() {
	command -v python3 >/dev/null || skip "python3 is not installed (it parses the DOM)"
	CHROMIUM=$(command -v chromium) || skip "chromium is not installed (make deps installs it)"
	export CHROMIUM TMPD
	chrome --dump-dom about:blank >blank.html 2>blank.err ||
		skip "chromium cannot run here: $(grep -v dbus blank.err | tail -1)"
}

chrome() {	# <output option> <url>
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$TMPD/profile" --host-resolver-rules='MAP * ~NOTFOUND' \
		--proxy-server=127.0.0.1:9 --enable-logging=stderr --v=0 \
		--window-size=1200,800 --virtual-time-budget=5000 "$@"
}

dom_of() {	# <name> <url>: the DOM after rendering into <name>.dom, its log in <name>.err
	chrome --dump-dom "$2" >"$1.dom" 2>"$1.err" || fail "chromium exited $? on $1 ($2)"
}

cdp() {	# <script> [args]: the script imports cdp (lib/cdp.py) and says FAIL: on stderr
	PYTHONPATH=$CDP_LIB timeout 60 python3 "$@"
}
CDP_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
