#!/bin/bash
# perf version, --version, -v and the VERSION feature of our files: upstream's form, marked as ours
. "$(dirname "$0")/lib/common.sh"
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

# The file says the same, to our reader and to the distro's.
"$PERF" record -q -e cpu-clock -o v.data -- true 2>rec.err || { cat rec.err; fail "record exited $?"; }
"$PERF" report --header-only -i v.data | grep -qxF "# perf version : $ver" ||
	fail "our header-only does not show '# perf version : $ver'"
if [ -x "$ORACLE" ]; then
	oracle_ok "header-only" report --header-only -i v.data | grep -qxF "# perf version : $ver" ||
		fail "the distro does not read '# perf version : $ver' in our file"
else
	echo "(the distro perf ($ORACLE) is not installed: the header is not read by it)"
fi
exit 0
