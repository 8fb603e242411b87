#!/bin/bash
# Numbered events lost at dumps: ours in swap and pause mode and the distro,
# in the same run.  A writer pinned to CPU 0 makes write(-1, NULL, i) for
# i = 1, 2, ... as fast as it can (each recorded by syscalls:sys_enter_write
# with its count), recorded with -C 0 -m 16M --overwrite --switch-output;
# DUMPS (25) SIGUSR2s about 100 ms apart, each waited for.  Per recorder:
# numbers missing from the union of the dumps, per dump; SIGUSR2 to file
# (median); the recorder's RssAnon and its locked ring pages (VmPin) at the
# end; our dumps' longest swap (-v).
. "$(dirname "$0")/lib.sh"
DUMPS=${DUMPS:-25}
cat >"$W/numbers.c" <<'CEOF'
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }
int main(void)
{
	long i;

	signal(SIGTERM, on_term);
	for (i = 1; !stop; i++)
		if (write(-1, NULL, i) >= 0)
			return 1;
	printf("%ld\n", i - 1);
	return 0;
}
CEOF
cc -O2 -o "$W/numbers" "$W/numbers.c" || exit 1

# run WHO BINARY [OPTIONS]: prints "who dumps numbers missing per_dump sig_ms rss_kb pin_kb"
run() {
	local who=$1 bin=$2 rec p w ms=() last missing rss pin
	shift 2
	rm -rf "$W/$who"; mkdir "$W/$who"
	"$bin" record "$@" -C 0 -m 16M --overwrite --switch-output -e syscalls:sys_enter_write \
		--filter 'fd == 0xffffffff' -o "$W/$who/d" 2>"$W/$who.err" &
	rec=$!
	p=$(wait_recording $rec plain) || exit 1
	taskset -c 0 "$W/numbers" >"$W/$who.last" &
	w=$!
	for i in $(seq 1 "$DUMPS"); do
		sleep 0.1
		s=$(date +%s%N)
		kill -USR2 $rec
		wait_files "$W/$who/d" $i || exit 1
		ms+=($(( ($(date +%s%N) - s) / 1000000 )))
	done
	kill -TERM $w; wait $w
	rss=$(status_kb $p RssAnon); pin=$(status_kb $p VmPin)
	kill -INT $rec; wait $rec
	last=$(cat "$W/$who.last")
	# The distro's exit file is not a dump: only the DUMPS dumps count.
	for f in $(ls "$W/$who"/d.* | head -"$DUMPS"); do
		"$DISTRO" script -F trace:trace -i "$f" 2>/dev/null
	done | sed -n 's/.*fd: 0xffffffff.*count: 0x\([0-9a-f]*\)$/\1/p' |
		while read -r x; do echo $((16#$x)); done | sort -u >"$W/$who.got"
	# From the first dump's first number to the last dump's last.
	lo=$(sort -n "$W/$who.got" | head -1); hi=$(sort -n "$W/$who.got" | tail -1)
	missing=$(comm -23 <(seq "$lo" "$hi" | sort) <(sort "$W/$who.got") | wc -l)
	echo "$who $DUMPS $((hi - lo + 1)) $missing $((missing / DUMPS)) \
$(printf '%s\n' "${ms[@]}" | sort -n | sed -n "$(( (DUMPS + 1) / 2 ))p") ${rss:-?} ${pin:-?} \
$(sed -n 's/.*pairs swapped, \([0-9.]*\) ms at most each.*/\1/p' "$W/$who.err")"
}

printf '%-8s %6s %9s %8s %9s %13s %9s %8s %s\n' who dumps numbers missing per_dump \
	"sig->file ms" RssAnon_kB VmPin_kB "longest swap ms"
for r in "swap $OURS -v --dump-mode=swap" "pause $OURS --dump-mode=pause" "distro $DISTRO"; do
	run $r | awk '{ printf "%-8s %6s %9s %8s %9s %13s %9s %8s %s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
done
