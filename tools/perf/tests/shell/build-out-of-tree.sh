#!/bin/bash
# make OUTPUT=DIR/ builds the test table from a clean tree, never from a stale in-tree list
. "$(dirname "$0")/lib/common.sh"
command -v make >/dev/null || skip "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip "no C compiler"
src=$PERF_SRCDIR
[ -f "$src/Makefile" ] && [ -f "$src/tests/builtin-test.c" ] || skip "the sources are not at $src"

# A copy of the sources as a clean checkout has them: nothing generated.
mkdir -p "$TMPD/src" "$TMPD/out"
(cd "$src" && tar -cf - --exclude='*.o' --exclude='*.d' --exclude=tests/tests-list.h \
	--exclude='util/parse-events-flex.[ch]' --exclude='util/parse-events-bison.[ch]' \
	Makefile ./*.c ./*.h util tests) | tar -xf - -C "$TMPD/src" || fail "cannot copy $src"

# Only the object that includes the generated list: cheap, and the case that broke.
build() {
	make -s -C "$TMPD/src" OUTPUT="$TMPD/out/" SANITIZE=1 "$TMPD/out/tests/builtin-test.o" \
		>"$TMPD/make.log" 2>&1 || { cat "$TMPD/make.log"; fail "$1"; }
}
build "an out-of-tree build from a clean tree failed"
[ -s "$TMPD/out/tests/tests-list.h" ] || fail "no tests-list.h generated in OUTPUT"
grep -q 'SUITE(' "$TMPD/out/tests/tests-list.h" || fail "the generated list is empty"

# A stale list left in the source tree by an in-tree build must not win.
echo 'SUITE(stale_leftover)' >"$TMPD/src/tests/tests-list.h"
rm -f "$TMPD/out/tests/builtin-test.o"
build "an out-of-tree build next to a stale in-tree list failed"
if nm "$TMPD/out/tests/builtin-test.o" | grep -q suite__stale_leftover; then
	fail "the out-of-tree build used the stale tests/tests-list.h of the source tree"
fi
echo "clean out-of-tree build of tests/builtin-test.o: ok"
exit 0
