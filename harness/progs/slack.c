/* slack: two threads sleep until absolute deadlines 40 us apart
 * (clock_nanosleep on CLOCK_MONOTONIC, TIMER_ABSTIME), both armed well
 * before the first, and the program prints what each call returned and
 * whether it woke before its deadline (it must not).
 *
 * Under umk with the host clock, the second deadline lies within the
 * first sleeper's timer slack (TIMER_SLACK_NS, 50 us): one timer interrupt
 * wakes both, which the trace shows as their two "timer nanosleep
 * expired" events with nothing but wake-ups between (tests/sched.bats).
 * Without slack a host timer goes off for each, unless the host itself
 * delivers the first one more than 40 us late (an idle VM may). Under
 * --clock=virtual there is no slack: each wakes at its deadline. */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>

#include "harness.h"

#define GAP_NS 40000LL
#define AHEAD_NS (50 * 1000000LL)	/* both armed long before the first */

static long long deadline[2];
static long ret[2];
static int early[2];

static long long mono_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime failed");
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *sleeper(void *arg)
{
	long k = (long)arg;
	struct timespec ts = { deadline[k] / 1000000000LL, deadline[k] % 1000000000LL };

	ret[k] = rsys(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	early[k] = mono_ns() < deadline[k];
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	deadline[0] = mono_ns() + AHEAD_NS;
	deadline[1] = deadline[0] + GAP_NS;
	for (long k = 0; k < 2; k++)
		if (pthread_create(&t[k], NULL, sleeper, (void *)k))
			die("pthread_create failed");
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	for (int k = 0; k < 2; k++) {
		show(k ? "second clock_nanosleep" : "first clock_nanosleep", ret[k]);
		printf("%s woke %s its deadline\n", k ? "second" : "first", early[k] ? "before" : "at or after");
	}
	return 0;
}
