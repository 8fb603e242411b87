/*
 * A program for the flight-recorder tests: prints its pid, then spins in a
 * function of its own that calls into libc, for the seconds it is given.
 * Built by the test with frame pointers, so callchains reach main().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void burner_spin(char *buf, size_t len)
{
	for (int i = 0; i < 64; i++) {
		memset(buf, i, len);
		sink += (unsigned char)buf[i];
	}
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0;
	size_t len = 1 << 16;
	char *buf = malloc(len);
	struct timespec a, b;

	if (!buf)
		return 1;
	printf("%d\n", (int)getpid());
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		burner_spin(buf, len);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < secs);
	free(buf);
	return 0;
}
