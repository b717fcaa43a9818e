/* sleepers N M [US]: N threads each sleep M times for US microseconds
 * (default 1000) with nanosleep, and the program prints how much later
 * than asked they woke, the median and the 99th percentile over all N*M
 * sleeps in microseconds (on CLOCK_MONOTONIC), and the sleepers' CPU time
 * per wake-up in ns: the sum over the threads of CLOCK_THREAD_CPUTIME_ID
 * across their sleeps, divided by N*M. That counts what the kernel spends
 * on a thread's behalf while it is the running one (its system calls,
 * switching to it); timer interrupts taken while the CPU is idle are not
 * counted, under any kernel. A probe of make bench (harness/bench/bench.sh):
 * the kernel's timer queue and one host timer interrupt serving many
 * sleepers.
 *
 * The threads are all created before any sleeps (a barrier), so the
 * creation of 10000 threads does not overlap the first sleeps. Checks:
 * every nanosleep returns 0 and none returns early. A kernel that cannot
 * create N threads (EAGAIN: its task limit) gets "n/a" and the
 * thread it stopped at, status 0. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static long m, us;
static long long *overshoot;	/* ns, N*M of them */
static long long *cpu;		/* ns, N of them */
static pthread_barrier_t start;

static long long clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		die("clock_gettime(%d) failed", (int)clock);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *sleeper(void *arg)
{
	long k = (long)arg;
	long long *out = overshoot + k * m, c0;
	struct timespec req = { us / 1000000, us % 1000000 * 1000 };

	pthread_barrier_wait(&start);
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < m; i++) {
		long long t0 = clock_ns(CLOCK_MONOTONIC);
		long ret = rsys(SYS_nanosleep, &req, NULL);

		out[i] = clock_ns(CLOCK_MONOTONIC) - t0 - us * 1000LL;
		if (ret != 0)
			die("thread %ld: nanosleep returned -1 %s", k, errno_name(-ret));
		if (out[i] < 0)
			die("thread %ld: nanosleep returned %lld ns early", k, -out[i]);
	}
	cpu[k] = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
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
	long long cpu_sum = 0;
	pthread_t *t;
	pthread_attr_t attr;

	if (argc < 3 || argc > 4)
		die("usage: sleepers N M [US]");
	n = atol(argv[1]);
	m = atol(argv[2]);
	us = argc > 3 ? atol(argv[3]) : 1000;
	if (n <= 0 || m <= 0 || us <= 0)
		die("N, M and US must be positive");
	total = n * m;
	overshoot = calloc(total, sizeof(*overshoot));
	cpu = calloc(n, sizeof(*cpu));
	t = calloc(n, sizeof(*t));
	if (!overshoot || !t || !cpu)
		die("out of memory");
	if (pthread_barrier_init(&start, NULL, n + 1))
		die("pthread_barrier_init failed");
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (long i = 0; i < n; i++) {
		int err = pthread_create(&t[i], &attr, sleeper, (void *)i);

		if (err == EAGAIN) {
			printf("sleepers: n/a (EAGAIN creating thread %ld of %ld: the kernel's task limit)\n",
			       i + 1, n);
			fflush(stdout);
			_exit(0);	/* the created threads wait at the barrier */
		}
		if (err)
			die("pthread_create %ld: %s", i, errno_name(err));
	}
	pthread_barrier_wait(&start);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	for (long i = 0; i < n; i++)
		cpu_sum += cpu[i];
	qsort(overshoot, total, sizeof(*overshoot), cmp);
	printf("sleepers: %ld x %ld sleeps of %ld us: overshoot median %.1f us, p99 %.1f us, "
	       "%.0f ns CPU per wake-up\n",
	       n, m, us, overshoot[total / 2] / 1e3, overshoot[total * 99 / 100] / 1e3,
	       (double)cpu_sum / total);
	return 0;
}
