/* tlsthreads [THREADS [ROUNDS]]: threads keep their own thread-local data
 * and errno through everything that can happen between two instructions:
 * preemption, yields, sleeps, signal handlers (sent by other threads), and
 * system calls that fail. Each thread owns a __thread record and an errno
 * value; it writes them, lets the kernel run, and checks them. A handler
 * checks its own thread's record too and leaves errno as it found it.
 * Prints the number of mismatches: 0 on Linux, and 0 under umk on either
 * FS base path (docs/design.md, "The FS base"). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define MAX_THREADS 16

static __thread struct {
	long id;		/* the thread's index, from its first instruction */
	long round;
	char name[16];
} me;
static __thread long handled_here;

static int nthreads = 8, rounds = 40;
static volatile long mismatches;
static volatile long handler_runs;
static pthread_t threads[MAX_THREADS];
/* start: every pthread_t is known before any thread signals another;
 * finish: no thread is joined (and freed) while another may signal it. */
static pthread_barrier_t start, finish;

static bool mine_ok(long id)
{
	char want[16];

	snprintf(want, sizeof(want), "thread %ld", id);
	return me.id == id && !strcmp(me.name, want);
}

static void on_usr1(int sig)
{
	int saved = errno;

	if (me.id < 0 || me.id >= MAX_THREADS || !mine_ok(me.id))
		__atomic_add_fetch(&mismatches, 1, __ATOMIC_SEQ_CST);
	handled_here++;
	__atomic_add_fetch(&handler_runs, 1, __ATOMIC_SEQ_CST);
	errno = EDOM;		/* clobbered, then put back as a handler must */
	close(-1);
	errno = saved;
}

/* Let the kernel run in one of several ways. */
static void disturb(long id, int r)
{
	struct timespec ts = { 0, 200000 };
	volatile unsigned long spin;

	switch ((id + r) % 4) {
	case 0:
		sched_yield();
		break;
	case 1:
		/* A handler run during the sleep ends it with EINTR, natively
		 * too when the sender runs on another CPU: this thread's errno
		 * must then say so, and the round goes on with its own value. */
		if (nanosleep(&ts, NULL) == -1) {
			if (errno != EINTR)
				__atomic_add_fetch(&mismatches, 1, __ATOMIC_SEQ_CST);
			errno = 1000 + id;
		}
		break;
	case 2:
		for (spin = 0; spin < 300000; spin++)	/* long enough to be preempted */
			;
		break;
	case 3:
		pthread_kill(threads[(id + 1) % nthreads], SIGUSR1);
		sched_yield();
		break;
	}
}

static void *worker(void *arg)
{
	long id = (long)arg;

	me.id = id;
	snprintf(me.name, sizeof(me.name), "thread %ld", id);
	pthread_barrier_wait(&start);
	for (int r = 0; r < rounds; r++) {
		me.round = r;
		errno = 1000 + id;
		disturb(id, r);
		if (errno != 1000 + id || me.round != r || !mine_ok(id))
			__atomic_add_fetch(&mismatches, 1, __ATOMIC_SEQ_CST);
		/* A failing call sets this thread's errno, no other's. */
		if (close(-1) != -1 || errno != EBADF)
			__atomic_add_fetch(&mismatches, 1, __ATOMIC_SEQ_CST);
	}
	pthread_barrier_wait(&finish);
	return (void *)handled_here;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	long handled = 0;

	if (argc > 1)
		nthreads = atoi(argv[1]);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (nthreads < 2 || nthreads > MAX_THREADS || rounds < 1)
		die("usage: tlsthreads [THREADS 2..16 [ROUNDS]]");
	sigaction(SIGUSR1, &sa, NULL);
	me.id = -1;		/* main is no worker */
	pthread_barrier_init(&start, NULL, nthreads + 1);
	pthread_barrier_init(&finish, NULL, nthreads);
	for (long i = 0; i < nthreads; i++)
		if (pthread_create(&threads[i], NULL, worker, (void *)i))
			die("pthread_create failed");
	pthread_barrier_wait(&start);
	for (long i = 0; i < nthreads; i++) {
		void *h;

		pthread_join(threads[i], &h);
		handled += (long)h;
	}
	printf("%d threads x %d rounds: %ld mismatches\n", nthreads, rounds, mismatches);
	printf("every handler ran on a worker, in its own TLS: %s\n",
	       handled == handler_runs && handled > 0 ? "yes" : "no");
	return mismatches != 0;
}
