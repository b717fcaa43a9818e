/* arch/time.c's trace clock (os_trace_clock_ns) outside umk: for about
 * half a second, each reading is bracketed by two readings of the host's
 * CLOCK_MONOTONIC, and must lie within a microsecond of that bracket (the
 * bound the trace ring promises) and never before the reading before it.
 * A tight loop: most readings are extrapolations from an anchor up to its
 * whole lifetime (~0.1 s), where an error in the scale would show.
 * Prints one line with the count, the worst distance outside the bracket
 * and whether the TSC was used; exits 1 on the first violation. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <umk/kernel.h>
#include <umk/os.h>

void time_init(int clockid);

/* What arch/time.o needs of the rest of umk. */
void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(2);
}

void __cyg_profile_func_enter(void *fn, void *site) {}
void __cyg_profile_func_exit(void *fn, void *site) {}

int main(void)
{
	long long worst = -1000000000, n = 0;
	u64 prev = 0, end;
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	const char *tsc = "no (the clock itself)";

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5)) {
			if (strstr(line, " nonstop_tsc"))
				tsc = "yes";
			break;
		}
	time_init(CLOCK_MONOTONIC);
	end = os_clock_ns(CLOCK_MONOTONIC) + 500000000ULL;
	for (;;) {
		s64 a = os_clock_ns(CLOCK_MONOTONIC);
		u64 t = os_trace_clock_ns();
		s64 b = os_clock_ns(CLOCK_MONOTONIC);
		long long out = (long long)a - (long long)t;

		if ((long long)t - b > out)
			out = (long long)t - b;
		if (out > worst)
			worst = out;
		if (out > 1000 || t < prev) {
			printf("trace_clock: reading %lld: %llu outside [%lld, %lld] or before %llu\n", n,
			       (unsigned long long)t, (long long)a, (long long)b,
			       (unsigned long long)prev);
			return 1;
		}
		prev = t;
		n++;
		if ((u64)b > end)
			break;
	}
	printf("trace_clock: %lld readings, the worst %lld ns outside CLOCK_MONOTONIC's bracket "
	       "(at most 1000), TSC used: %s\n", n, worst > 0 ? worst : 0, tsc);
	return 0;
}
