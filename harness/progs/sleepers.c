/* sleepers [procs] N M [US|random]: N threads (or, with "procs", N
 * processes) each sleep M times for US microseconds (default 1000), or with
 * "random" for a random 1 to 20 ms each time, with nanosleep, and the
 * program prints how much later than asked they woke, the median and the
 * 99th percentile over all N*M sleeps in microseconds (on
 * CLOCK_MONOTONIC), and the sleepers' CPU time per wake-up in ns: the sum
 * over the sleepers of CLOCK_THREAD_CPUTIME_ID across their sleeps, divided
 * by N*M. That counts what the kernel spends on a sleeper's behalf while it
 * is the running one (its system calls, switching to it: for processes,
 * switching its address space in); timer interrupts taken while the CPU is
 * idle are not counted, under any kernel. A probe of make bench
 * (harness/bench/bench.sh): the kernel's timer queue and one host timer
 * interrupt serving many sleepers, and with processes the switches between
 * them.
 *
 * The sleepers are all created before any sleeps, so the creation of 10000
 * of them does not overlap the first sleeps: threads wait at a barrier,
 * processes read a pipe whose write end the parent closes once all are
 * forked. Processes write their figures into a shared anonymous mapping
 * and the parent reaps them all, each exiting 0. Checks: every nanosleep
 * returns 0 and none returns early. A kernel that cannot create N sleepers
 * (EAGAIN: its task limit) gets "n/a" and the sleeper it stopped at,
 * status 0. The random sleeps come from a fixed seed per sleeper, so every
 * run asks for the same sleeps. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define RANDOM_MIN_US 1000
#define RANDOM_MAX_US 20000

static long m, us;		/* us 0: random */
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

/* sleep_all: sleeper K's M sleeps, their overshoots into overshoot[K*M...] and
 * its CPU time into cpu[K]. */
static void sleep_all(long k)
{
	long long *out = overshoot + k * m, c0;
	unsigned seed = k + 1;

	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < m; i++) {
		long want = us ? us : RANDOM_MIN_US + rand_r(&seed) % (RANDOM_MAX_US - RANDOM_MIN_US + 1);
		struct timespec req = { want / 1000000, want % 1000000 * 1000 };
		long long t0 = clock_ns(CLOCK_MONOTONIC);
		long ret = rsys(SYS_nanosleep, &req, NULL);

		out[i] = clock_ns(CLOCK_MONOTONIC) - t0 - want * 1000LL;
		if (ret != 0)
			die("sleeper %ld: nanosleep returned -1 %s", k, errno_name(-ret));
		if (out[i] < 0)
			die("sleeper %ld: nanosleep returned %lld ns early", k, -out[i]);
	}
	cpu[k] = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
}

static void *sleeper(void *arg)
{
	pthread_barrier_wait(&start);
	sleep_all((long)arg);
	return NULL;
}

static void no_more(const char *what, long i, long n)
{
	printf("sleepers: n/a (EAGAIN creating %s %ld of %ld: the kernel's task limit)\n",
	       what, i + 1, n);
	fflush(stdout);
}

static void run_threads(long n)
{
	pthread_t *t = calloc(n, sizeof(*t));
	pthread_attr_t attr;

	if (!t)
		die("out of memory");
	if (pthread_barrier_init(&start, NULL, n + 1))
		die("pthread_barrier_init failed");
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (long i = 0; i < n; i++) {
		int err = pthread_create(&t[i], &attr, sleeper, (void *)i);

		if (err == EAGAIN) {
			no_more("thread", i, n);
			_exit(0);	/* the created threads wait at the barrier */
		}
		if (err)
			die("pthread_create %ld: %s", i, errno_name(err));
	}
	pthread_barrier_wait(&start);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static void run_procs(long n)
{
	pid_t *pid = calloc(n, sizeof(*pid));
	int go[2];
	char c;

	if (!pid)
		die("out of memory");
	if (pipe(go))
		die("pipe failed");
	for (long i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(go[1]);
			if (read(go[0], &c, 1) != 0)
				die("sleeper %ld: the start pipe did not read end of file", i);
			sleep_all(i);
			_exit(0);
		}
		if (pid[i] < 0 && errno == EAGAIN) {
			no_more("process", i, n);
			for (long j = 0; j < i; j++)
				kill(pid[j], SIGKILL);
			for (long j = 0; j < i; j++)
				waitpid(pid[j], NULL, 0);
			exit(0);
		}
		if (pid[i] < 0)
			die("fork %ld: %s", i, errno_name(errno));
	}
	close(go[1]);	/* all start */
	for (long i = 0; i < n; i++) {
		int status;

		if (waitpid(pid[i], &status, 0) != pid[i])
			die("waitpid %ld: %s", i, errno_name(errno));
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			die("sleeper %ld: status %#x", i, status);
	}
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
	int procs = argc > 1 && !strcmp(argv[1], "procs");
	size_t size;
	void *shared;

	argv += procs;
	argc -= procs;
	if (argc < 3 || argc > 4)
		die("usage: sleepers [procs] N M [US|random]");
	n = atol(argv[1]);
	m = atol(argv[2]);
	us = argc < 4 ? 1000 : !strcmp(argv[3], "random") ? 0 : atol(argv[3]);
	if (n <= 0 || m <= 0 || (us <= 0 && strcmp(argv[3], "random")))
		die("N, M and US must be positive (or US \"random\")");
	total = n * m;
	/* shared, so that forked sleepers' figures reach the parent */
	size = (total + n) * sizeof(long long);
	shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die("mmap of %zu bytes failed", size);
	overshoot = shared;
	cpu = overshoot + total;
	if (procs)
		run_procs(n);
	else
		run_threads(n);
	for (long i = 0; i < n; i++)
		cpu_sum += cpu[i];
	qsort(overshoot, total, sizeof(*overshoot), cmp);
	/* "N x M" for threads, "N processes x M" for processes: the renderer
	 * (harness/bench/bench_report.py) charts only the threads' */
	printf("sleepers: %ld%s x %ld sleeps of ", n, procs ? " processes" : "", m);
	if (us)
		printf("%ld us: ", us);
	else
		printf("%d to %d us: ", RANDOM_MIN_US, RANDOM_MAX_US);
	printf("overshoot median %.1f us, p99 %.1f us, %.0f ns CPU per wake-up\n",
	       overshoot[total / 2] / 1e3, overshoot[total * 99 / 100] / 1e3,
	       (double)cpu_sum / total);
	return 0;
}
