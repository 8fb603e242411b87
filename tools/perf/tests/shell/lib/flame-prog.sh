# Builds the flame graph tests' workload: main -> fg_outer -> fg_middle ->
# fg_leaf_hot (three parts of the work) and fg_leaf_cold (one part), with
# frame pointers, so that -g chains name every function.  $2 loops a part.
# Usage: flame_prog <output> <loops>
flame_prog() {
	cat >flame.c <<EOC
volatile unsigned long sink;
__attribute__((noinline)) void fg_leaf_hot(void)
{
	for (unsigned long i = 0; i < 3 * ${2}UL; i++)
		sink += i * 7;
}
__attribute__((noinline)) void fg_leaf_cold(void)
{
	for (unsigned long i = 0; i < ${2}UL; i++)
		sink += i * 7;
}
__attribute__((noinline)) void fg_middle(void)
{
	fg_leaf_hot();
	fg_leaf_cold();
	sink++;
}
__attribute__((noinline)) void fg_outer(void)
{
	fg_middle();
	sink++;
}
int main(void) { fg_outer(); return 0; }
EOC
	gcc -O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o "$1" flame.c ||
		fail "gcc: cannot build $1"
}

# Records the workload with -g into $1 (our perf); skips when it cannot.
flame_record() {
	flame_prog ./flame 30000000
	"$PERF" record -q -g -e cpu-clock -c 100000 -o "$1" ./flame >/dev/null 2>record.err ||
		skip "perf record -g cannot record cpu-clock here: $(head -1 record.err)"
}
