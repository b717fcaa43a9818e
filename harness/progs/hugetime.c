/*
 * hugetime: timeouts so large that nanoseconds overflow 64 bits. Linux
 * saturates them ("forever"); wrapping instead turns them into tiny or
 * past times. An interval timer with such an interval must not re-arm in
 * the past (umk once looped forever there), and such a nanosleep must sleep
 * until a signal ends it (here a 100 ms timer), not return at once.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define WRAPS 18446744074L	/* * 1e9 wraps 2^64 to about 0.3 s */

static volatile int alarms;

static void on_signal(int sig)
{
	if (sig == SIGALRM)
		alarms++;
}

int main(void)
{
	struct itimerval v = { .it_interval = { WRAPS, 0 }, .it_value = { 0, 1000 } };
	struct sigaction sa;
	struct itimerval stop = { .it_value = { 0, 100000 } };
	struct timespec ts = { WRAPS, 0 }, ms100 = { 0, 100 * 1000000L };
	double t0;
	long ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	show("setitimer(huge interval)", rsys(SYS_setitimer, ITIMER_REAL, &v, NULL));
	rsys(SYS_nanosleep, &ms100, NULL);
	printf("alive, SIGALRM %d time(s)\n", alarms);

	/* A 100 ms one-shot timer ends the huge sleep. */
	t0 = now_ms();
	rsys(SYS_setitimer, ITIMER_REAL, &stop, NULL);
	ret = rsys(SYS_nanosleep, &ts, NULL);
	show("nanosleep(huge)", ret);
	printf("it slept %ld00 ms\n", (long)((now_ms() - t0) / 100 + 0.5));
	return 0;
}
