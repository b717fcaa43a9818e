/* yield: two threads, A and B, each print five lines and call sched_yield
 * after each. On umk's one CPU with round-robin scheduling the lines
 * alternate A, B, A, B...; natively (several CPUs) the order is free. Both
 * wait for a start flag so that neither begins before the other exists. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "harness.h"

static volatile int go;

static void *run(void *arg)
{
	const char *name = arg;
	char line[16];

	while (!go)
		sched_yield();
	for (int i = 0; i < 5; i++) {
		int n = snprintf(line, sizeof(line), "%s %d\n", name, i);

		if (write(1, line, n) != n)
			die("write failed");
		sched_yield();
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	if (pthread_create(&a, NULL, run, "A") || pthread_create(&b, NULL, run, "B"))
		die("pthread_create failed");
	go = 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
