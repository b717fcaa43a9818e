/*
 * futexkey: a futex's key includes whether it is private. A thread waits
 * with FUTEX_WAIT_PRIVATE (200 ms timeout); the main thread first wakes the
 * word with a shared FUTEX_WAKE, which must find no waiter, then with
 * FUTEX_WAKE_PRIVATE, which must find it.
 */
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE 1
#define FUTEX_WAKE_PRIVATE 129
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>

#include "harness.h"

static unsigned int word;
static long wait_ret;

static void *waiter(void *arg)
{
	struct timespec ts = { 0, 200 * 1000000L };

	wait_ret = rsys(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
	return NULL;
}

int main(void)
{
	struct timespec ms50 = { 0, 50 * 1000000L };
	pthread_t t;

	pthread_create(&t, NULL, waiter, NULL);
	rsys(SYS_nanosleep, &ms50, NULL);
	show("futex(FUTEX_WAKE) of a private waiter", rsys(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0));
	show("futex(FUTEX_WAKE_PRIVATE)", rsys(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	pthread_join(t, NULL);
	show("futex(FUTEX_WAIT_PRIVATE)", wait_ret);
	return 0;
}
