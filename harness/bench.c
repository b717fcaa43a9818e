/* bench getpid N | bench yield N: the cost of one trapped system call and
 * of one sched_yield switch between two threads, in ns per operation on
 * CLOCK_MONOTONIC (raw clock_gettime). A timing program: compare a run
 * under umk with a native run pinned to one CPU (taskset -c 0), where the
 * two threads must also take turns. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "harness.h"

static long rounds;

static void *yielder(void *arg)
{
	for (long i = 0; i < rounds; i++)
		rsys0(SYS_sched_yield);
	return arg;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "getpid") && strcmp(argv[1], "yield")))
		die("usage: bench getpid|yield N");
	rounds = atol(argv[2]);
	if (rounds <= 0)
		die("N must be positive");

	if (strcmp(argv[1], "getpid") == 0) {
		double t0 = now_ms();

		for (long i = 0; i < rounds; i++)
			rsys0(SYS_getpid);
		printf("getpid: %.0f ns/op (%ld calls)\n", (now_ms() - t0) * 1e6 / rounds, rounds);
		return 0;
	}

	pthread_t t[2];
	double t0 = now_ms();

	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, yielder, NULL))
			die("pthread_create failed");
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("sched_yield: %.0f ns/op (%ld yields by each of 2 threads)\n",
	       (now_ms() - t0) * 1e6 / (2 * rounds), rounds);
	return 0;
}
