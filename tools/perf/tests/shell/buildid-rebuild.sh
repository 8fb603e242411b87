#!/bin/bash
# Build-id cache: a program rebuilt at the same path keeps its recorded symbols
# We record a program (filling a private build-id cache), rebuild it at the
# same path with a function inserted in front of the hot one, and read the
# old file again: ours and the distro's report give the original symbols
# through the cache.  With the cache emptied ours shows [unknown] and one
# warning naming the DSO and both ids -- never the inserted function.  Also:
# --symfs, --buildid-dir / PERF_BUILDID_DIR, -N, -B, a cache that cannot be
# written, and a corrupt ELF file in the cache.
. "$(dirname "$0")/lib/common.sh"
need_oracle
. "$(dirname "$0")/lib/hot-prog.sh"
need_root
need_gcc
own_tmpd buildid-rebuild

hot_prog prog plain 150000000
$PERF record -q -e cpu-clock -o v1.data ./prog || fail "record v1"
bid=$($PERF buildid-list -i v1.data 2>/dev/null | awk '$2 ~ /\/prog$/ {print $1}')
[ -n "$bid" ] || bid=$("$ORACLE" buildid-list -i v1.data 2>/dev/null | awk '$2 ~ /\/prog$/ {print $1}')
[ -n "$bid" ] || fail "no build id recorded for prog"
link=$HOME/.debug/.build-id/${bid:0:2}/${bid:2}
[ -L "$link" ] || fail "no cache link $link"
[ "$(readlink "$link")" = "../..$TMPD/prog/$bid" ] || fail "cache link target $(readlink "$link")"
[ -f "$HOME/.debug$TMPD/prog/$bid/elf" ] || fail "no cache entry for prog"
cmp -s prog "$HOME/.debug$TMPD/prog/$bid/elf" || fail "cache entry differs from prog"
cp prog v1.elf
vdso_bid=$($PERF buildid-list -i v1.data 2>/dev/null | awk '$2 == "[vdso]" {print $1}')
[ -z "$vdso_bid" ] || [ -f "$HOME/.debug/[vdso]/$vdso_bid/vdso" ] || fail "[vdso] listed but not cached"

prog_syms() { awk '$NF ~ /prog\)$/ {print $(NF-1)}' | sort | uniq -c | sort -rn; }
$PERF script -F ip,sym,dso -i v1.data 2>/dev/null | prog_syms >v1.syms
grep -q ' hot_original$' v1.syms || { cat v1.syms; fail "v1: no samples in hot_original"; }

hot_prog prog inserted 150000000
$PERF script -F ip,sym,dso -i v1.data 2>script.err | prog_syms >v2.syms
cmp -s v1.syms v2.syms || { diff v1.syms v2.syms; fail "rebuilt: our symbols changed"; }
$PERF report --stdio -i v1.data >ours.rep 2>/dev/null || fail "report"
grep -q 'hot_original' ours.rep || fail "rebuilt: our report lost hot_original"
grep -q 'inserted' ours.rep && fail "rebuilt: our report names the inserted function"
oracle_ok "report" report --stdio -i v1.data >dist.rep
grep -q "hot_original" dist.rep || { cat dist.rep; fail "rebuilt: the distro's report lost hot_original"; }
grep -q 'inserted' dist.rep && fail "rebuilt: the distro's report names the inserted function"

# Cache emptied: addresses and one warning, never a wrong symbol.
mv "$HOME/.debug" "$HOME/debug.saved"
$PERF script -F ip,sym,dso -i v1.data 2>nocache.err | prog_syms >nocache.syms
grep -q 'inserted\|hot_original' nocache.syms && fail "no cache: symbols from a binary with another id"
grep -q '\[unknown\]' nocache.syms || fail "no cache: samples not shown as [unknown]"
newbid=$(readelf -n prog | awk '/Build ID/ {print $3}')
[ "$(grep -c 'Warning' nocache.err)" = 1 ] || { cat nocache.err; fail "no cache: not one warning"; }
grep -q "prog has build id $newbid but was recorded with $bid" nocache.err ||
	{ cat nocache.err; fail "no cache: the warning does not name the DSO and both ids"; }
$PERF report --stdio -i v1.data 2>/dev/null | grep -q 'inserted' && fail "no cache: report names inserted"
# --symfs: the original binary under another root is found there, by ours and the distro.
mkdir -p "symfs$TMPD"
cp "$HOME/debug.saved$TMPD/prog/$bid/elf" "symfs$TMPD/prog"
$PERF report --stdio --symfs symfs -i v1.data 2>/dev/null | grep -q 'hot_original' ||
	fail "--symfs: our report lost hot_original"
oracle_ok "report --symfs" report --stdio --symfs symfs -i v1.data | grep -q 'hot_original' ||
	fail "--symfs: the distro's report lost hot_original"

# A corrupt ELF file in the cache: said, skipped, no crash.
mv "$HOME/debug.saved" "$HOME/.debug"
entry=$HOME/.debug$TMPD/prog/$bid/elf
rm -f "$entry"
printf '\177ELF\002\001\001 this is not an ELF file' >"$entry"
$PERF script -F ip,sym,dso -i v1.data >corrupt.out 2>corrupt.err || fail "corrupt cache entry: exit $?"
grep -q "not an ELF file" corrupt.err || { cat corrupt.err; fail "corrupt cache entry not reported"; }
prog_syms <corrupt.out | grep -q 'inserted\|hot_original' && fail "corrupt cache entry: symbols used"
# Cut short after its notes (the id still matches): read as far as it goes, no crash.
rm -f "$entry"
head -c 4096 v1.elf >"$entry"
$PERF script -F ip,sym,dso -i v1.data >cut.out 2>cut.err || { cat cut.err; fail "truncated cache entry: exit $?"; }
prog_syms <cut.out | grep -q 'inserted' && fail "truncated cache entry: wrong symbols"

# Where the cache is: --buildid-dir, then PERF_BUILDID_DIR; -N and -B write none.
$PERF --buildid-dir "$TMPD/bd1" record -q -e cpu-clock -o bd1.data ./prog || fail "record --buildid-dir"
ls "$TMPD/bd1/.build-id" >/dev/null 2>&1 || fail "--buildid-dir: no cache there"
PERF_BUILDID_DIR=$TMPD/bd2 $PERF record -q -e cpu-clock -o bd2.data ./prog || fail "record (env)"
ls "$TMPD/bd2/.build-id" >/dev/null 2>&1 || fail "PERF_BUILDID_DIR: no cache there"
PERF_BUILDID_DIR=$TMPD/bd3 $PERF record -q -N -e cpu-clock -o n.data ./prog || fail "record -N"
[ -e "$TMPD/bd3" ] && fail "-N: a cache was written"
[ -n "$($PERF buildid-list -i n.data 2>/dev/null)" ] || fail "-N: no BUILD_ID feature"
PERF_BUILDID_DIR=$TMPD/bd4 $PERF record -q -B -e cpu-clock -o b.data ./prog || fail "record -B"
[ -e "$TMPD/bd4" ] && fail "-B: a cache was written"
$PERF buildid-list -i b.data | grep -Eq '^ {41}/.*/prog$' || fail "-B: buildid-list does not list prog without an id"
"$ORACLE" buildid-list -i b.data 2>/dev/null | grep -Eq '^[0-9a-f]{40} ' &&
	fail "-B: build ids written"

# A cache that cannot be written: one warning, the recording is fine.
echo file >"$TMPD/notadir"
PERF_BUILDID_DIR=$TMPD/notadir/cache $PERF record -e cpu-clock -o w.data ./prog 2>w.err ||
	{ cat w.err; fail "record with an unwritable cache failed"; }
[ "$(grep -c 'build-id cache' w.err)" = 1 ] || { cat w.err; fail "unwritable cache: not one warning"; }
$PERF script -i w.data >/dev/null 2>&1 || fail "unwritable cache: the file is not readable"
exit 0
