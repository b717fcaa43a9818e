/* sleeper [MS]: one nanosleep of MS milliseconds (default 100), then
 * "slept <elapsed> ms" measured on CLOCK_MONOTONIC. A timing program: its
 * output is not meant to be identical from run to run. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>

#include "harness.h"

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 100;
	struct timespec req = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };
	double t0 = now_ms();
	long ret = rsys(SYS_nanosleep, &req, NULL);

	if (ret)
		die("nanosleep: %s", errno_name((int)-ret));
	printf("slept %.1f ms\n", now_ms() - t0);
	return 0;
}
