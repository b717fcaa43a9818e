/*
 * procbench: the cost of processes, for the address-space benchmarks
 * (make bench, README "Benchmarks"). Prints "PROBE: N ns" per operation.
 *
 *   procbench fork N KIB       fork + _exit + waitpid, N times, from a
 *                              process that has touched KIB KiB of heap
 *                              (busybox's shell touches about 1.5 MiB)
 *   procbench yield-procs N    sched_yield ping-pong between two processes
 *                              (a switch of address space each time)
 *   procbench yield-threads N  the same between two threads of one process
 *
 * The yield probes report ns per sched_yield, on one CPU (run pinned:
 * taskset -c 0), where each yield hands the CPU to the other task.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static long rounds;

static void report(const char *probe, double ms, long ops)
{
	printf("%s: %.0f ns\n", probe, ms * 1e6 / (double)ops);
}

static void fork_probe(long n, long kib)
{
	char *heap = malloc((size_t)kib << 10);
	double t0;
	long i;

	if (kib && !heap)
		die("malloc %ld KiB", kib);
	if (kib)
		memset(heap, 1, (size_t)kib << 10);
	t0 = now_ms();
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork failed");
		if (pid == 0)
			_exit(0);
		if (wait_status(pid) != 0)
			die("child failed");
	}
	report("fork+exit+wait", now_ms() - t0, n);
	free(heap);
}

static void *yielder(void *arg)
{
	for (long i = 0; i < rounds; i++)
		sched_yield();
	return arg;
}

static void yield_threads(long n)
{
	pthread_t t;
	double t0;

	rounds = n;
	t0 = now_ms();
	if (pthread_create(&t, NULL, yielder, NULL))
		die("pthread_create failed");
	yielder(NULL);
	pthread_join(t, NULL);
	report("sched_yield between threads", now_ms() - t0, 2 * n);
}

static void yield_procs(long n)
{
	double t0;
	pid_t pid;

	rounds = n;
	t0 = now_ms();
	pid = fork();
	if (pid < 0)
		die("fork failed");
	yielder(NULL);
	if (pid == 0)
		_exit(0);
	if (wait_status(pid) != 0)
		die("child failed");
	report("sched_yield between processes", now_ms() - t0, 2 * n);
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc < 3 || n <= 0)
		die("usage: procbench fork N KIB | yield-procs N | yield-threads N");
	if (!strcmp(argv[1], "fork") && argc > 3)
		fork_probe(n, atol(argv[3]));
	else if (!strcmp(argv[1], "yield-procs"))
		yield_procs(n);
	else if (!strcmp(argv[1], "yield-threads"))
		yield_threads(n);
	else
		die("procbench: unknown probe %s", argv[1]);
	return 0;
}
