#!/bin/bash
# perf version, --version, -v, --build-options and the VERSION feature of our files: upstream's form, marked as ours
. "$(dirname "$0")/lib/common.sh"
need_oracle
cd "$TMPD"

# Upstream's "perf version MAJOR.MINOR.SUBLEVEL" with an EXTRAVERSION of
# ours, the same whichever way it is asked for.
v=$("$PERF" version) || fail "perf version exited $?"
echo "$v"
[ "$("$PERF" --version)" = "$v" ] || fail "perf --version says '$("$PERF" --version)', not '$v'"
[ "$("$PERF" -v)" = "$v" ] || fail "perf -v says '$("$PERF" -v)', not '$v'"
[[ $v =~ ^perf\ version\ [0-9]+\.[0-9]+\.[0-9]+-flight$ ]] ||
	fail "'$v' is not upstream's form 'perf version MAJOR.MINOR.SUBLEVEL' with our '-flight'"
ver=${v#perf version }

# --build-options: the version, then upstream's rows in its layout, each
# saying what this build has; the same feature names in the same order as
# the distro's.
"$PERF" version --build-options >bo.txt || fail "perf version --build-options exited $?"
[ "$(head -1 bo.txt)" = "$v" ] || fail "--build-options does not start with '$v'"
tail -n +2 bo.txt | grep -Evx ' *[a-z0-9_-]+: \[ (on |OFF) \]  # HAVE_[A-Z0-9_]+' &&
	fail "--build-options lines above are not upstream's 'name: [ on  ]  # MACRO'"
[ "$(tail -n +2 bo.txt | wc -l)" -ge 10 ] || fail "--build-options lists $(tail -n +2 bo.txt | wc -l) features"
for f in dwarf libelf libdw-dwarf-unwind bpf zstd; do
	grep -Eqx " *$f: \[ on  \]  # HAVE_[A-Z_]+" bo.txt || fail "--build-options does not say $f is on"
done
# Not built in: no libunwind (unwinding is libdw's), no perl or python.
for f in libunwind libperl libpython; do
	grep -Eqx " *$f: \[ OFF \]  # HAVE_[A-Z_]+" bo.txt || fail "--build-options says $f is on"
done
oracle_ok "version --build-options" version --build-options >d-bo.txt || exit 1
cmp -s <(tail -n +2 bo.txt | sed 's/: \[.*\]  #/: #/') <(tail -n +2 d-bo.txt | sed 's/: \[.*\]  #/: #/') ||
	{ diff d-bo.txt bo.txt; fail "--build-options names other features than the distro's"; }
# Its usage and an unknown option: exit 129, as the distro's.
"$PERF" version -h >h.out 2>h.err; rc=$?
[ $rc -eq 129 ] && grep -q -- '--build-options' h.err || fail "perf version -h exited $rc: $(cat h.err)"
"$PERF" version --no-such-option >u.out 2>u.err; rc=$?
[ $rc -eq 129 ] && [ ! -s u.out ] || fail "perf version --no-such-option exited $rc"
[ "$("$PERF" version extra words)" = "$v" ] || fail "perf version with words after it does not print '$v'"

# The file says the same, to our reader and to the distro's.
"$PERF" record -q -e cpu-clock -o v.data -- true 2>rec.err || { cat rec.err; fail "record exited $?"; }
"$PERF" report --header-only -i v.data | grep -qxF "# perf version : $ver" ||
	fail "our header-only does not show '# perf version : $ver'"
oracle_ok "header-only" report --header-only -i v.data | grep -qxF "# perf version : $ver" ||
	fail "the distro does not read '# perf version : $ver' in our file"
exit 0
