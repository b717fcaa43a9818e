/* clocks: what a program's clocks say across a sleep and a short spin.
 *
 * Prints CLOCK_MONOTONIC, CLOCK_REALTIME and gettimeofday at the start, then
 * how far CLOCK_MONOTONIC and CLOCK_REALTIME moved across a 1.5 s nanosleep,
 * and across a spin of a few hundred microseconds with no system call.
 * Under umk --clock=virtual every value is exact: the clocks start at 0 and
 * at 2026-01-01 00:00:00 UTC, the sleep moves them by exactly 1.5 s and the
 * spin by nothing. Natively they are whatever the host says. */
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>

#include "harness.h"

static long long clock_ns(clockid_t id)
{
	struct timespec ts;
	long ret = rsys(SYS_clock_gettime, id, &ts);

	if (ret)
		die("clock_gettime(%d): %s", (int)id, errno_name((int)-ret));
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void print_ns(const char *what, long long ns)
{
	printf("%s %lld.%09lld\n", what, ns / 1000000000LL, ns % 1000000000LL);
}

int main(void)
{
	struct timespec req = { 1, 500000000 };
	struct timeval tv;
	long long mono = clock_ns(CLOCK_MONOTONIC), real = clock_ns(CLOCK_REALTIME);
	volatile unsigned long spin;

	if (rsys(SYS_gettimeofday, &tv, NULL))
		die("gettimeofday failed");
	print_ns("monotonic", mono);
	print_ns("realtime", real);
	printf("gettimeofday %lld.%06ld\n", (long long)tv.tv_sec, (long)tv.tv_usec);

	if (rsys(SYS_nanosleep, &req, NULL))
		die("nanosleep failed");
	print_ns("after nanosleep(1.5 s): monotonic moved", clock_ns(CLOCK_MONOTONIC) - mono);
	print_ns("after nanosleep(1.5 s): realtime moved", clock_ns(CLOCK_REALTIME) - real);

	mono = clock_ns(CLOCK_MONOTONIC);
	for (spin = 0; spin < 200000; spin++)
		;
	print_ns("after a spin: monotonic moved", clock_ns(CLOCK_MONOTONIC) - mono);
	return 0;
}
