# Builds a program for the build-id tests: hot_original() spins $3 loops.
# With $2 = inserted, a function of the same size comes in front of it, so
# the first build's addresses fall inside "inserted" in the second build.
# Usage: hot_prog <output> plain|inserted <loops>
hot_prog() {
	local body=''

	[ "$2" = inserted ] && body="__attribute__((noinline)) void inserted(void)
{
	for (unsigned long i = 0; i < ${3}UL; i++)
		sink += i * 7;
}"
	cat >prog.c <<EOC
volatile unsigned long sink;
$body
__attribute__((noinline)) void hot_original(void)
{
	for (unsigned long i = 0; i < ${3}UL; i++)
		sink += i * 7;
}
int main(void) { hot_original(); return 0; }
EOC
	gcc -O1 -fno-inline -o "$1" prog.c || fail "gcc: cannot build $1"
}
