/*
 * futexkey: a futex's key includes whether it is private. A thread waits
 * with FUTEX_WAIT_PRIVATE (200 ms timeout); the main thread first wakes the
 * word with a shared FUTEX_WAKE, which must find no waiter, then with
 * FUTEX_WAKE_PRIVATE, which must find it.
 *
 * Then the addresses a key needs: a private futex needs none but one below
 * TASK_SIZE (a wake on an unmapped or PROT_NONE word succeeds), a shared
 * one a page it can be keyed on (EFAULT when unmapped, PROT_NONE, or
 * private memory that is read-only).
 */
#define FUTEX_WAIT 0
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE 1
#define FUTEX_WAKE_PRIVATE 129
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
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

static void addresses(void)
{
	char *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(gone, 4096);
	show("FUTEX_WAKE_PRIVATE, unmapped", rsys(SYS_futex, gone, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0));
	show("FUTEX_WAKE, unmapped", rsys(SYS_futex, gone, FUTEX_WAKE, 1, 0, 0, 0));
	show("FUTEX_WAKE_PRIVATE, PROT_NONE", rsys(SYS_futex, none, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0));
	show("FUTEX_WAKE, PROT_NONE", rsys(SYS_futex, none, FUTEX_WAKE, 1, 0, 0, 0));
	show("FUTEX_WAKE, private read-only", rsys(SYS_futex, ro, FUTEX_WAKE, 1, 0, 0, 0));
	show("FUTEX_WAKE_PRIVATE, a kernel address",
	     rsys(SYS_futex, 0xffffffff80000000UL, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0));
	show("FUTEX_WAIT_PRIVATE, unmapped", rsys(SYS_futex, gone, FUTEX_WAIT_PRIVATE, 0, 0, 0, 0));
	show("FUTEX_WAIT, private read-only", rsys(SYS_futex, ro, FUTEX_WAIT, 1, 0, 0, 0));
	show("FUTEX_WAKE_PRIVATE, misaligned", rsys(SYS_futex, ro + 1, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0));
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
	addresses();
	return 0;
}
