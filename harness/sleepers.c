/* sleepers N M [US]: N threads each sleep M times for US microseconds
 * (default 1000) with nanosleep, and the program prints how much later
 * than asked they woke: the median and the 99th percentile over all N*M
 * sleeps, in microseconds, read on CLOCK_MONOTONIC. A timing program for
 * make bench: the kernel's timer queue and one host timer interrupt
 * serving many sleepers (harness/bench.sh runs it natively and under umk). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "harness.h"

static long m, us;
static long long *overshoot;	/* ns, N*M of them */

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *sleeper(void *arg)
{
	long long *out = arg;
	struct timespec req = { us / 1000000, us % 1000000 * 1000 };

	for (long i = 0; i < m; i++) {
		long long t0 = mono_ns();

		nanosleep(&req, NULL);
		out[i] = mono_ns() - t0 - us * 1000LL;
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long n, total;
	pthread_t *t;
	pthread_attr_t attr;

	if (argc < 3)
		die("usage: sleepers N M [US]");
	n = atol(argv[1]);
	m = atol(argv[2]);
	us = argc > 3 ? atol(argv[3]) : 1000;
	if (n <= 0 || m <= 0 || us <= 0)
		die("N, M and US must be positive");
	total = n * m;
	overshoot = calloc(total, sizeof(*overshoot));
	t = calloc(n, sizeof(*t));
	if (!overshoot || !t)
		die("out of memory");
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], &attr, sleeper, overshoot + i * m))
			die("pthread_create %ld failed", i);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	qsort(overshoot, total, sizeof(*overshoot), cmp);
	printf("sleepers: %ld x %ld sleeps of %ld us: overshoot median %.1f us, p99 %.1f us\n",
	       n, m, us, overshoot[total / 2] / 1e3, overshoot[total * 99 / 100] / 1e3);
	return 0;
}
