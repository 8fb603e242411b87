#!/bin/bash
# make install DESTDIR=... prefix=/usr/local: the binary, manual pages man opens, completion, the unit running the installed perf; make uninstall takes all of it back
. "$(dirname "$0")/lib/common.sh"
SRC=${PERF_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TOP=$(cd "$SRC/../.." && pwd)
command -v asciidoctor >/dev/null || skip "asciidoctor is not installed: no manual pages to install (make deps)"
command -v man >/dev/null || skip "man is not installed: the pages cannot be opened"
D=$TMPD/root
P=$D/usr/local

# From the tree as it is built: make install builds only what is missing
# (the manual pages, rendered once into Documentation/).
make -s -C "$TOP" install DESTDIR="$D" prefix=/usr/local >"$TMPD/install.out" 2>&1 ||
	fail "make install exited $?: $(tail -3 "$TMPD/install.out")"

"$P/bin/perf" version | grep -q '^perf version ' || fail "the installed perf does not run: $("$P/bin/perf" version 2>&1)"

# Every page of the tree is installed, and man renders it from there.
for f in "$SRC"/Documentation/perf-*.txt; do
	page=$(basename "$f" .txt)
	[ -s "$P/share/man/man1/$page.1" ] || fail "no manual page $page.1 installed"
done
out=$(MANPAGER=cat MANWIDTH=80 man -M "$P/share/man" perf-record 2>&1) || fail "man -M ... perf-record exited $?: $out"
grep -q '^PERF-RECORD(1) ' <<<"$out" || fail "man did not render perf-record: $(head -2 <<<"$out")"
grep -q '^SYNOPSIS$' <<<"$out" || fail "perf-record's page has no SYNOPSIS heading"
grep -q 'perf record \[-e <event>\] \[<options>\] -- <command>' <<<"$out" ||
	fail "perf-record's synopsis lost its -- (asciidoctor's dash): $(grep -m1 'perf record \[' <<<"$out")"
! grep -q 'linkperf:' <<<"$out" || fail "perf-record's page shows linkperf: as it is"

# perf help opens the installed page with man: man's layout (its heading
# line), not the asciidoc source laid out by perf itself.
out=$(cd / && MANPAGER=cat MANWIDTH=80 "$P/bin/perf" help record 2>&1) || fail "perf help record exited $?"
grep -q '^PERF-RECORD(1) .*perf Manual' <<<"$out" || fail "perf help record did not open the installed page: $(head -2 <<<"$out")"
out=$(cd / && MANPAGER=cat MANWIDTH=80 "$P/bin/perf" record --help 2>&1)
grep -q '^PERF-RECORD(1) .*perf Manual' <<<"$out" || fail "perf record --help did not open the installed page"
# The tree's perf finds it through MANPATH; with neither, it shows the page itself.
out=$(MANPATH=$P/share/man MANPAGER=cat "$PERF" help record 2>&1)
grep -q '^PERF-RECORD(1) .*perf Manual' <<<"$out" || fail "perf help record with MANPATH set did not open its page"
out=$(env -u MANPATH "$PERF" help record 2>&1)
grep -q '^perf-record(1)$' <<<"$out" || fail "the tree's perf help record did not show its own page: $(head -2 <<<"$out")"
# Without man, the page is shown as it is today.
mkdir "$TMPD/bin" && ln -s "$(command -v bash)" "$TMPD/bin/bash"
out=$(PATH=$TMPD/bin "$P/bin/perf" help record 2>&1)
grep -q '^perf-record(1)$' <<<"$out" || fail "without man, perf help record showed: $(head -2 <<<"$out")"

# The completion is sourced by bash without a word on stderr, and completes.
out=$(bash --norc -c ". '$P/share/bash-completion/completions/perf' && complete -p perf" 2>&1)
[ "$out" = "complete -F _perf perf" ] || fail "sourcing the installed completion gave: $out"

# The unit runs this install's perf, not the distro's.
unit=$P/lib/systemd/system/perf-daemon.service
grep -qx 'ExecStart=/usr/local/bin/perf daemon start --foreground --config /etc/perf-daemon.conf' "$unit" ||
	fail "the unit's ExecStart is not /usr/local/bin/perf: $(grep ExecStart "$unit")"
! grep -v '^#' "$unit" | grep -q '@bindir@\|/usr/bin/perf' || fail "the unit still runs @bindir@ or /usr/bin/perf"
[ -s "$P/share/doc/perf-flight-recorder/examples/perf-daemon.conf" ] || fail "no daemon config example installed"
# systemd-analyze checks that ExecStart's binary exists, which is under
# DESTDIR until the tree is copied in place: it reads a copy naming it there.
# It exits 0 on a line it cannot parse too, so it must print nothing.
if command -v systemd-analyze >/dev/null; then
	sed "s|=/usr/local/bin/perf|=$P/bin/perf|" "$unit" >"$TMPD/perf-daemon.service"
	out=$(systemd-analyze verify --man=no "$TMPD/perf-daemon.service" 2>&1) ||
		fail "systemd-analyze verify exited $?: $out"
	[ -z "$out" ] || fail "systemd-analyze verify: $out"
else
	echo "systemd-analyze is not installed: the unit's verification is left out"
fi

# uninstall takes back every file install put (directories may stay).
make -s -C "$TOP" uninstall DESTDIR="$D" prefix=/usr/local >"$TMPD/uninstall.out" 2>&1 ||
	fail "make uninstall exited $?: $(tail -3 "$TMPD/uninstall.out")"
left=$(find "$D" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "installed and uninstalled $(ls "$SRC"/Documentation/perf-*.txt | wc -l) manual pages, the binary, completion, unit and config"
exit 0
