/* cpuhog: two threads spin on their own counters without making a system
 * call, while the main thread sleeps 300 ms and then tells them to stop.
 * Without preemption by the timer the first spinner would never give the
 * CPU back and the program would hang; with it both make progress. */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>

#include "harness.h"

static volatile int stop;
static volatile unsigned long count[2];

static void *spin(void *arg)
{
	volatile unsigned long *c = arg;

	while (!stop)
		(*c)++;
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	struct timespec req = { .tv_nsec = 300 * 1000000L };

	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, spin, (void *)&count[i]))
			die("pthread_create failed");
	if (rsys(SYS_nanosleep, &req, NULL))
		die("nanosleep failed");
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	if (count[0] > 0)
		printf("A progressed\n");
	if (count[1] > 0)
		printf("B progressed\n");
	return 0;
}
