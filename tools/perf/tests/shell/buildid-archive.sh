#!/bin/bash
# perf archive round trip; buildid-list and buildid-cache against the distro; vdso symbols
# A program that spends its time in its own code and in the vdso is
# recorded (private cache).  perf archive packs what the file needs; after
# the binary is deleted and the tarball is extracted into a fresh HOME's
# ~/.debug, ours and the distro's report still name the program's function.
# The distro's perf archive of our file packs the same entries as ours.
# The [vdso] samples get the vdso's symbols from the cached image, as the
# distro's do; a stripped libc keeps its symbols through the debug file
# archived beside it.  BUILD_ID lists only DSOs with samples (all with
# --buildid-all); buildid-list (with and without --with-hits) and
# buildid-cache -a/-l/-r agree with the distro.
. "$(dirname "$0")/lib/common.sh"
need_root
need_oracle
need_gcc
command -v bzip2 >/dev/null || skip "bzip2 (for tar cjf) is not installed"
# Not under /tmp/perf-*: the distro perf takes files there for JIT symbol maps.
TMPD0=$TMPD
TMPD=$(mktemp -d /tmp/buildid-archive.XXXXXX)
trap 'rm -rf "$TMPD" "$TMPD0"' EXIT
cd "$TMPD"
unset PERF_BUILDID_DIR
export HOME=$TMPD/home1
mkdir -p "$HOME" bin

cat >prog.c <<'EOF'
#include <time.h>
volatile unsigned long sink;
__attribute__((noinline)) void archived_fn(void)
{
	for (unsigned long i = 0; i < 100000000UL; i++)
		sink += i * 7;
}
int main(void)
{
	struct timespec ts;

	archived_fn();
	for (int i = 0; i < 2000000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sink += ts.tv_nsec;
	}
	return 0;
}
EOF
gcc -O1 -o bin/prog prog.c || fail "gcc"
$PERF record -q -e cpu-clock -o p.data ./bin/prog || fail "record"

# buildid-list as the distro prints it, the file's list and the DSOs with hits.
$PERF buildid-list -i p.data >ours.bl || fail "buildid-list"
oracle_ok "buildid-list" buildid-list -i p.data >dist.bl
cmp -s ours.bl dist.bl || { diff ours.bl dist.bl; fail "buildid-list differs"; }
$PERF buildid-list --with-hits -i p.data >ours.blh || fail "buildid-list --with-hits"
oracle_ok "buildid-list --with-hits" buildid-list --with-hits -i p.data >dist.blh
cmp -s ours.blh dist.blh || { diff ours.blh dist.blh; fail "buildid-list --with-hits differs"; }
grep -q ' /.*/bin/prog$' ours.blh || fail "--with-hits: prog missing"
# BUILD_ID names the DSOs with samples (and the kernel and vdso), as upstream's;
# --buildid-all every DSO mapped (libc at least, hit or not).
awk '$2 != "[vdso]" && $2 != "[kernel.kallsyms]"' ours.bl | while read -r id name; do
	grep -qxF "$id $name" ours.blh || fail "BUILD_ID lists $name, which has no samples"
done || exit 1
$PERF record -q --buildid-all -e cpu-clock -o all.data ./bin/prog || fail "record --buildid-all"
$PERF buildid-list -i all.data >all.bl
grep -q ' /.*/libc[.-]' all.bl || fail "--buildid-all: libc not listed"
[ "$(wc -l <all.bl)" -ge "$(wc -l <ours.bl)" ] || fail "--buildid-all lists fewer DSOs"

# vdso: named from the cached image, as the distro names it.  Which samples
# get a name is the machine's: a kernel whose vdso leaves its inner clock
# functions out of the symbol table leaves theirs [unknown], for the distro
# too.  Ours must name each as the distro does, only by the image's symbols.
vdso() { grep -F '([vdso])' | sort; }
$PERF script -F ip,sym,dso -i p.data 2>/dev/null | vdso >ours.vdso
oracle_ok "script" script -F ip,sym,dso -i p.data | vdso >dist.vdso
[ -s dist.vdso ] || skip "no samples fell into the vdso (no vdso clock_gettime here?)"
cmp -s ours.vdso dist.vdso || { diff ours.vdso dist.vdso | head; fail "[vdso] symbols differ"; }
img=$(ls "$HOME"/.debug/\[vdso\]/*/vdso 2>/dev/null | head -1)
[ -n "$img" ] || fail "the vdso image is not in the build-id cache"
readelf -Ws "$img" | awk '$4 == "FUNC" { sub(/@.*/, "", $8); print $8 }' | sort -u >vdso.syms
awk '$2 != "[unknown]" { print $2 }' ours.vdso | sort -u | comm -23 - vdso.syms >vdso.strange
[ ! -s vdso.strange ] || fail "[vdso] samples named by what the cached image lacks: $(xargs <vdso.strange)"
echo "[vdso] samples: $(grep -vc '\[unknown\]' ours.vdso) named, $(grep -c '\[unknown\]' ours.vdso) [unknown], as the distro names them"

# The archive: ours and the distro's pack the same entries.
$PERF archive p.data >archive.out || fail "perf archive"
grep -q 'tar xvf p.data.tar.bz2 -C ~/.debug' archive.out || fail "archive: no instructions"
tar tjf p.data.tar.bz2 | sort >ours.lst || fail "archive is not a tar.bz2"
grep -q '/bin/prog/[0-9a-f]*/elf$' ours.lst || fail "archive lacks prog"
# A cache entry linked or unlinked by another recorder while tar reads it:
# GNU tar then says "file changed as we read it" and exits 1; the archive is
# still whole.  A tar that does that every time stands in for the race.
mkdir -p fake
cat >fake/tar <<'EOF2'
#!/bin/sh
/usr/bin/tar "$@" || exit $?
echo "tar: cached file: file changed as we read it" >&2
exit 1
EOF2
chmod +x fake/tar
PATH=$PWD/fake:$PATH $PERF archive p.data >/dev/null 2>&1 || fail "perf archive failed on tar's 'file changed'"
tar tjf p.data.tar.bz2 | sort | cmp -s - ours.lst || fail "the archive differs after tar's 'file changed'"
# No tar at all, or one that fails: one line naming what, exit 1, and no
# archive left as if it were whole.
mkdir -p notar
PATH=$PWD/notar $PERF archive p.data >/dev/null 2>notar.err
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <notar.err)" -eq 1 ] && grep -q 'tar could not write p.data.tar.bz2: No such file' notar.err ||
	{ cat notar.err; fail "perf archive with no tar in PATH: exit $rc"; }
# A tar that writes half an archive and fails (exit 2): the archive made
# before stays as it was, and no temporary is left beside it.
cp p.data.tar.bz2 before.tar.bz2
printf '#!/bin/sh\necho half >"$3"\nexit 2\n' >fake/tar
PATH=$PWD/fake:$PATH $PERF archive p.data >/dev/null 2>bad.err
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <bad.err)" -eq 1 ] || { cat bad.err; fail "perf archive with a tar that exits 2: exit $rc"; }
cmp -s p.data.tar.bz2 before.tar.bz2 || fail "a failed tar spoiled the archive made before"
ls p.data.tar.bz2.* 2>/dev/null && fail "a failed tar left its temporary behind"
mv p.data.tar.bz2 ours.tar.bz2
oracle_ok "archive" archive p.data >/dev/null
tar tjf p.data.tar.bz2 | sort >dist.lst
cmp -s ours.lst dist.lst || { diff ours.lst dist.lst; fail "the distro's archive differs from ours"; }

# Elsewhere: the binary gone, a fresh HOME with the archive extracted.
rm -f bin/prog
export HOME=$TMPD/home2
mkdir -p "$HOME/.debug"
tar xjf ours.tar.bz2 -C "$HOME/.debug" || fail "extract"
$PERF report --stdio -i p.data 2>/dev/null | grep -q 'archived_fn' || fail "our report lost archived_fn"
oracle_ok "report" report --stdio -i p.data | grep -q 'archived_fn' ||
	fail "the distro's report lost archived_fn"
$PERF script -F ip,sym,dso -i p.data 2>/dev/null | vdso >ours2.vdso
cmp -s ours.vdso ours2.vdso || fail "[vdso] symbols lost after the move"

# A stripped system library travels with its debug file (kept beside it in
# the cache): read under an empty --symfs root, so neither the library nor
# /usr/lib/debug is there, its local symbols (only in the debug file) stay.
libc_id=$(readelf -n /lib/x86_64-linux-gnu/libc.so.6 2>/dev/null | awk '/Build ID/ {print $3}')
if [ -n "$libc_id" ] && [ -r "/usr/lib/debug/.build-id/${libc_id:0:2}/${libc_id:2}.debug" ]; then
	printf '%s\n' '#include <stdlib.h>' '#include <string.h>' 'volatile unsigned long sink;' \
		'int main(void) { char *b = malloc(1 << 20); for (int k = 0; k < 3000; k++) {' \
		'memset(b, k | 1, 1 << 20); sink += strlen(b + (k & 1023)); } return 0; }' >lc.c
	gcc -O1 -o lc lc.c || fail "gcc lc"
	export HOME=$TMPD/home4
	mkdir -p "$HOME"
	$PERF record -q -e cpu-clock -o lc.data ./lc || fail "record lc"
	$PERF report --stdio -i lc.data 2>/dev/null | awk '$3 == "libc.so.6" {print $NF}' | sort >lc.here
	[ -s lc.here ] || fail "no samples in libc"
	$PERF archive lc.data >/dev/null || fail "archive lc"
	tar tjf lc.data.tar.bz2 | grep -q "libc.so.6/$libc_id/debug$" || fail "libc's debug file not archived"
	export HOME=$TMPD/home5
	mkdir -p "$HOME/.debug" empty-root
	tar xjf lc.data.tar.bz2 -C "$HOME/.debug" || fail "extract lc"
	$PERF report --stdio --symfs empty-root -i lc.data 2>/dev/null |
		awk '$3 == "libc.so.6" {print $NF}' | sort >lc.there
	cmp -s lc.here lc.there || { diff lc.here lc.there; fail "libc symbols lost with the archive alone"; }
fi

# No cache at all: nothing to pack, as the distro says.
export HOME=$TMPD/home3
mkdir -p "$HOME"
$PERF archive p.data >/dev/null 2>na.err && fail "archive with an empty cache succeeded"
grep -q 'no build-ids found' na.err || { cat na.err; fail "archive: no message for an empty cache"; }

# buildid-cache -a / -l / -r, read back by the distro.
gcc -O1 -o bin/prog prog.c || fail "gcc"
$PERF buildid-cache -a bin/prog || fail "buildid-cache -a"
id=$(readelf -n bin/prog | awk '/Build ID/ {print $3}')
"$ORACLE" buildid-cache -l | grep -q "^$id $TMPD/bin/prog$" || fail "the distro does not list our -a"
$PERF buildid-cache -l | grep -q "^$id $TMPD/bin/prog$" || fail "our -l does not list it"
$PERF buildid-cache -r bin/prog || fail "buildid-cache -r"
"$ORACLE" buildid-cache -l | grep -q "$id" && fail "-r left the entry"
$PERF buildid-cache -a /etc/hostname 2>err.txt && fail "-a of a non-ELF file succeeded"
[ "$(wc -l <err.txt)" = 1 ] && grep -q "Couldn't add /etc/hostname" err.txt || fail "-a error message"
exit 0
