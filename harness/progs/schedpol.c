/* schedpol: scheduling policies, priorities, nice values and affinity.
 *
 *   schedpol calls     the calls' results and errors
 *   schedpol order     which threads run first once the main thread
 *                      blocks: real-time ones by priority, each to the end
 *   schedpol preempt   a SCHED_FIFO thread that wakes takes the CPU from a
 *                      SCHED_OTHER thread spinning
 *   schedpol yield     SCHED_FIFO threads of one priority: run to the end
 *                      without sched_yield, alternate with it
 *   schedpol rr        two spinning threads of one priority, SCHED_RR
 *                      (100 ms quanta) and then SCHED_OTHER: how often
 *                      they alternate
 *   schedpol nice      two spinning SCHED_OTHER threads, nice 0 and 5,
 *                      then 0 and 19: the CPU time they get
 *   schedpol idlewake  a thread that sleeps 1 ms at a time while a
 *                      SCHED_IDLE one spins: it takes the CPU back as it
 *                      wakes (the Bats test reads umk's trace for that)
 *   schedpol idle      a SCHED_IDLE process among three spinning
 *                      SCHED_OTHER ones, each with memory of its own: it
 *                      gets little of the CPU, but not nothing
 *
 * Natively the run must be pinned to one CPU (taskset -c 0), as umk has
 * one, and may need root (real-time policies). Threads record events in
 * one array that the main thread prints at the end, so the order printed
 * is the order they ran in. The main thread takes SCHED_FIFO 50 with
 * SCHED_RESET_ON_FORK: its threads start SCHED_OTHER, and a priority
 * raised from there queues them at the tail of their new priority. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static const char *yes(int c) { return c ? "yes" : "no"; }

#define MAX_EVENTS 64
static const char *events[MAX_EVENTS];
static volatile int nevents;

static void record(const char *what)
{
	if (nevents < MAX_EVENTS)
		events[nevents++] = what;
}

static void print_events(void)
{
	int i;

	for (i = 0; i < nevents; i++)
		printf("%s\n", events[i]);
	nevents = 0;
}

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Use ms of this thread's CPU time. */
static void spin(double ms)
{
	double end = thread_cpu_ms() + ms;

	while (thread_cpu_ms() < end)
		;
}

static void set_policy(pid_t tid, int policy, int prio)
{
	struct sched_param p = { .sched_priority = prio };

	if (rsys(SYS_sched_setscheduler, tid, policy, &p))
		die("sched_setscheduler(%d, %d, %d) failed", (int)tid, policy, prio);
}

static void calls(void)
{
	struct sched_param p = { 0 };
	struct timespec ts;
	unsigned long mask[2] = { 0, 0 };
	long ret;

	printf("priority range FIFO %ld..%ld, RR %ld..%ld, OTHER %ld..%ld, BATCH %ld..%ld, IDLE %ld..%ld\n",
	       rsys(SYS_sched_get_priority_min, SCHED_FIFO), rsys(SYS_sched_get_priority_max, SCHED_FIFO),
	       rsys(SYS_sched_get_priority_min, SCHED_RR), rsys(SYS_sched_get_priority_max, SCHED_RR),
	       rsys(SYS_sched_get_priority_min, SCHED_OTHER), rsys(SYS_sched_get_priority_max, SCHED_OTHER),
	       rsys(SYS_sched_get_priority_min, SCHED_BATCH), rsys(SYS_sched_get_priority_max, SCHED_BATCH),
	       rsys(SYS_sched_get_priority_min, SCHED_IDLE), rsys(SYS_sched_get_priority_max, SCHED_IDLE));
	show("sched_get_priority_max(4)", rsys(SYS_sched_get_priority_max, 4));
	show("sched_get_priority_min(-1)", rsys(SYS_sched_get_priority_min, -1));
	show("sched_getscheduler(0)", rsys(SYS_sched_getscheduler, 0));
	show("sched_getparam(0)", rsys(SYS_sched_getparam, 0, &p));
	printf("  priority %d\n", p.sched_priority);

	p.sched_priority = 0;
	show("sched_setscheduler(0, FIFO, 0)", rsys(SYS_sched_setscheduler, 0, SCHED_FIFO, &p));
	p.sched_priority = 5;
	show("sched_setscheduler(0, OTHER, 5)", rsys(SYS_sched_setscheduler, 0, SCHED_OTHER, &p));
	p.sched_priority = 100;
	show("sched_setscheduler(0, FIFO, 100)", rsys(SYS_sched_setscheduler, 0, SCHED_FIFO, &p));
	p.sched_priority = -1;
	show("sched_setscheduler(0, FIFO, -1)", rsys(SYS_sched_setscheduler, 0, SCHED_FIFO, &p));
	p.sched_priority = 0;
	show("sched_setscheduler(0, 4, 0)", rsys(SYS_sched_setscheduler, 0, 4, &p));
	show("sched_setscheduler(0, -1, 0)", rsys(SYS_sched_setscheduler, 0, -1, &p));
	show("sched_setscheduler(0, DEADLINE, 0)", rsys(SYS_sched_setscheduler, 0, 6, &p));
	show("sched_setscheduler(0, OTHER, NULL)", rsys(SYS_sched_setscheduler, 0, SCHED_OTHER, NULL));
	show("sched_setscheduler(-1, OTHER, 0)", rsys(SYS_sched_setscheduler, -1, SCHED_OTHER, &p));
	show("sched_setscheduler(99999, OTHER, 0)", rsys(SYS_sched_setscheduler, 99999, SCHED_OTHER, &p));
	show("sched_setscheduler(0, OTHER, bad)", rsys(SYS_sched_setscheduler, 0, SCHED_OTHER, 8));
	show("sched_getscheduler(-1)", rsys(SYS_sched_getscheduler, -1));
	show("sched_getscheduler(99999)", rsys(SYS_sched_getscheduler, 99999));
	show("sched_getparam(0, NULL)", rsys(SYS_sched_getparam, 0, NULL));

	p.sched_priority = 10;
	show("sched_setscheduler(0, FIFO, 10)", rsys(SYS_sched_setscheduler, 0, SCHED_FIFO, &p));
	show("sched_getscheduler(0)", rsys(SYS_sched_getscheduler, 0));
	p.sched_priority = 20;
	show("sched_setparam(0, 20)", rsys(SYS_sched_setparam, 0, &p));
	p.sched_priority = 0;
	rsys(SYS_sched_getparam, 0, &p);
	printf("  priority %d\n", p.sched_priority);
	show("sched_rr_get_interval(0) for FIFO", rsys(SYS_sched_rr_get_interval, 0, &ts));
	printf("  %ld.%09ld s\n", (long)ts.tv_sec, ts.tv_nsec);
	p.sched_priority = 5;
	show("sched_setscheduler(0, RR|RESET_ON_FORK, 5)",
	     rsys(SYS_sched_setscheduler, 0, SCHED_RR | SCHED_RESET_ON_FORK, &p));
	show("sched_getscheduler(0)", rsys(SYS_sched_getscheduler, 0));
	show("sched_rr_get_interval(0) for RR", rsys(SYS_sched_rr_get_interval, 0, &ts));
	printf("  %ld.%09ld s\n", (long)ts.tv_sec, ts.tv_nsec);
	show("sched_rr_get_interval(0, bad)", rsys(SYS_sched_rr_get_interval, 0, 8));
	p.sched_priority = 0;
	show("sched_setscheduler(0, BATCH, 0)", rsys(SYS_sched_setscheduler, 0, SCHED_BATCH, &p));
	show("sched_getscheduler(0)", rsys(SYS_sched_getscheduler, 0));
	show("sched_setscheduler(0, OTHER, 0)", rsys(SYS_sched_setscheduler, 0, SCHED_OTHER, &p));

	ret = rsys(SYS_sched_getaffinity, 0, sizeof(mask), mask);
	printf("sched_getaffinity(0, 16): a positive multiple of 8: %s, CPU 0 in it: %s\n",
	       yes(ret > 0 && ret % 8 == 0), yes(mask[0] & 1));
	show("sched_getaffinity(0, 0)", rsys(SYS_sched_getaffinity, 0, 0, mask));
	show("sched_getaffinity(0, 4)", rsys(SYS_sched_getaffinity, 0, 4, mask));
	show("sched_getaffinity(99999, 8)", rsys(SYS_sched_getaffinity, 99999, 8, mask));
	show("sched_getaffinity(0, 8, bad)", rsys(SYS_sched_getaffinity, 0, 8, 8));
	mask[0] = 1;
	show("sched_setaffinity(0, {0})", rsys(SYS_sched_setaffinity, 0, 8, mask));
	mask[0] = 0;
	show("sched_setaffinity(0, {})", rsys(SYS_sched_setaffinity, 0, 8, mask));
	show("sched_setaffinity(0, bad)", rsys(SYS_sched_setaffinity, 0, 8, 8));

	show("getpriority(PRIO_PROCESS, 0)", rsys(SYS_getpriority, PRIO_PROCESS, 0));
	show("setpriority(PRIO_PROCESS, 0, 5)", rsys(SYS_setpriority, PRIO_PROCESS, 0, 5));
	show("getpriority(PRIO_PROCESS, 0)", rsys(SYS_getpriority, PRIO_PROCESS, 0));
	show("setpriority(PRIO_PROCESS, 0, -3) as root", rsys(SYS_setpriority, PRIO_PROCESS, 0, -3));
	show("getpriority(PRIO_PGRP, 0)", rsys(SYS_getpriority, PRIO_PGRP, 0));
	show("setpriority(PRIO_PROCESS, 0, 100)", rsys(SYS_setpriority, PRIO_PROCESS, 0, 100));
	show("getpriority(PRIO_PROCESS, getpid())", rsys(SYS_getpriority, PRIO_PROCESS, getpid()));
	show("getpriority(3, 0)", rsys(SYS_getpriority, 3, 0));
	show("setpriority(-1, 0, 0)", rsys(SYS_setpriority, -1, 0, 0));
	show("getpriority(PRIO_PROCESS, 99999)", rsys(SYS_getpriority, PRIO_PROCESS, 99999));
	show("setpriority(PRIO_PROCESS, 99999, 0)", rsys(SYS_setpriority, PRIO_PROCESS, 99999, 0));
	show("getpriority(PRIO_USER, 54321)", rsys(SYS_getpriority, PRIO_USER, 54321));
	show("setpriority(PRIO_PROCESS, 0, 0)", rsys(SYS_setpriority, PRIO_PROCESS, 0, 0));
}

/* ---- order ---- */

static void *runner(void *arg)
{
	const char **names = arg;

	record(names[0]);
	spin(30);
	record(names[1]);
	return NULL;
}

static void order(void)
{
	static const char *na[] = { "A (OTHER) starts", "A (OTHER) ends" };
	static const char *nb[] = { "B (FIFO 10) starts", "B (FIFO 10) ends" };
	static const char *nc[] = { "C (FIFO 5) starts", "C (FIFO 5) ends" };
	static const char *nd[] = { "D (RR 10) starts", "D (RR 10) ends" };
	struct sched_param p;
	pthread_t a, b, c, d;

	/* nothing runs until we block; threads start SCHED_OTHER */
	set_policy(0, SCHED_FIFO | SCHED_RESET_ON_FORK, 50);
	pthread_create(&a, NULL, runner, na);
	pthread_create(&b, NULL, runner, nb);
	pthread_create(&c, NULL, runner, nc);
	pthread_create(&d, NULL, runner, nd);
	p.sched_priority = 10;
	pthread_setschedparam(b, SCHED_FIFO, &p);
	p.sched_priority = 5;
	pthread_setschedparam(c, SCHED_FIFO, &p);
	p.sched_priority = 10;
	pthread_setschedparam(d, SCHED_RR, &p);
	record("main blocks");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	pthread_join(d, NULL);
	print_events();
}

/* ---- preempt ---- */

static void *sleeper(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	record("F (FIFO 10) starts, sleeps 50 ms");
	nanosleep(&ts, NULL);
	record("F (FIFO 10) woke up");
	return NULL;
}

static void preempt(void)
{
	struct sched_param p = { .sched_priority = 10 };
	pthread_t f;

	pthread_create(&f, NULL, sleeper, NULL);
	pthread_setschedparam(f, SCHED_FIFO, &p);
	record("main (OTHER) spins 200 ms");
	spin(200);
	record("main (OTHER) done spinning");
	pthread_join(f, NULL);
	print_events();
}

/* Two threads running fn(arg1) and fn(arg2), given policy and prio in
 * that order while the caller, SCHED_FIFO 50, keeps the CPU; then wait
 * for both. */
static void run_pair(void *(*fn)(void *), void *arg1, void *arg2, int policy, int prio)
{
	struct sched_param p = { .sched_priority = prio };
	pthread_t t1, t2;

	pthread_create(&t1, NULL, fn, arg1);
	pthread_create(&t2, NULL, fn, arg2);
	pthread_setschedparam(t1, policy, &p);
	pthread_setschedparam(t2, policy, &p);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
}

/* ---- yield ---- */

static void *yielder(void *arg)
{
	const char **names = arg;
	int i;

	for (i = 0; i < 3; i++) {
		record(names[i]);
		if (names[3])
			rsys0(SYS_sched_yield);
		else
			spin(15);	/* longer than umk's 10 ms slice */
	}
	return NULL;
}

static void yield(void)
{
	static const char *np[] = { "P 1", "P 2", "P 3", NULL };
	static const char *nq[] = { "Q 1", "Q 2", "Q 3", NULL };
	static const char *nx[] = { "X 1", "X 2", "X 3", "yield" };
	static const char *ny[] = { "Y 1", "Y 2", "Y 3", "yield" };

	set_policy(0, SCHED_FIFO | SCHED_RESET_ON_FORK, 50);
	printf("FIFO 10, spinning without sched_yield:\n");
	run_pair(yielder, np, nq, SCHED_FIFO, 10);
	print_events();
	printf("FIFO 10, with sched_yield:\n");
	run_pair(yielder, nx, ny, SCHED_FIFO, 10);
	print_events();
}

/* ---- rr ---- */

static volatile int last_runner, switches;

static void *alternator(void *arg)
{
	int me = (int)(long)arg;
	double end = thread_cpu_ms() + 450;

	while (thread_cpu_ms() < end) {
		if (last_runner != me) {
			last_runner = me;
			switches++;
		}
	}
	return NULL;
}

static int alternations(int policy, int prio)
{
	last_runner = 0;
	switches = 0;
	run_pair(alternator, (void *)1L, (void *)2L, policy, prio);
	return switches;
}

static void rr(void)
{
	int n;

	set_policy(0, SCHED_FIFO | SCHED_RESET_ON_FORK, 50);
	n = alternations(SCHED_RR, 10);
	printf("RR 10: 450 ms each in 100 ms quanta: between 6 and 14 turns: %s\n",
	       yes(n >= 6 && n <= 14));
	if (n < 6 || n > 14)
		printf("  (%d)\n", n);
	n = alternations(SCHED_OTHER, 0);
	printf("OTHER: 450 ms each in short slices: more than 30 turns: %s\n", yes(n > 30));
	if (n <= 30)
		printf("  (%d)\n", n);
}

/* ---- nice ---- */

static volatile int stop_spinning;
static int light_nice;
static double cpu_of_light;

static void *nice0(void *arg)
{
	spin(300);
	stop_spinning = 1;
	return NULL;
}

static void *light(void *arg)
{
	rsys(SYS_setpriority, PRIO_PROCESS, 0, light_nice);
	while (!stop_spinning)
		;
	cpu_of_light = thread_cpu_ms();
	return NULL;
}

/* A spinning SCHED_OTHER thread of nice n, against one of nice 0 that
 * spins 300 ms: the share of that the other got. */
static double share_of_nice(int n)
{
	pthread_t t1, t2;

	stop_spinning = 0;
	light_nice = n;
	pthread_create(&t1, NULL, nice0, NULL);
	pthread_create(&t2, NULL, light, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return cpu_of_light / 300;
}

/* Two spinning SCHED_OTHER threads share the CPU by their weights: nice
 * 5 weighs 335 to nice 0's 1024, so about a third of the other's time;
 * nice 19 weighs 15, about 1.5%, in turns no shorter than other turns
 * (umk's SCHED_MIN_SLICE_NS, Linux's base slice) but fewer. */
static void nice_share(void)
{
	double ratio;

	set_policy(0, SCHED_FIFO | SCHED_RESET_ON_FORK, 50);
	ratio = share_of_nice(5);
	printf("nice 5 got between a fifth and a half of nice 0's CPU time: %s\n",
	       yes(ratio > 0.2 && ratio < 0.5));
	if (ratio <= 0.2 || ratio >= 0.5)
		printf("  (%.2f)\n", ratio);
	ratio = share_of_nice(19);
	printf("nice 19 got between 0.5%% and 5%% of nice 0's CPU time: %s\n",
	       yes(ratio > 0.005 && ratio < 0.05));
	if (ratio <= 0.005 || ratio >= 0.05)
		printf("  (%.4f)\n", ratio);
}

/* ---- SCHED_IDLE preempted ---- */

static void *idle_spinner(void *arg)
{
	struct sched_param p = { 0 };

	if (rsys(SYS_sched_setscheduler, 0, SCHED_IDLE, &p))
		die("sched_setscheduler(SCHED_IDLE) failed");
	while (!stop_spinning)
		;
	return NULL;
}

/* The main thread (SCHED_OTHER) sleeps IDLE_SLEEPS times 1 ms while a
 * SCHED_IDLE thread spins: each wake-up preempts the spinner at once. */
#define IDLE_SLEEPS 20
static void idle_wake(void)
{
	struct timespec ms = { 0, 1000000 };
	pthread_t t;
	int i;

	stop_spinning = 0;
	pthread_create(&t, NULL, idle_spinner, NULL);
	/* the spinner makes itself SCHED_IDLE as it first runs: in the first
	 * sleep */
	for (i = 0; i < IDLE_SLEEPS; i++)
		nanosleep(&ms, NULL);
	stop_spinning = 1;
	pthread_join(t, NULL);
	printf("%d sleeps of 1 ms while a SCHED_IDLE thread spun: done\n", IDLE_SLEEPS);
}

/* ---- SCHED_IDLE among processes ---- */

#define SPINNERS 3
#define SPINNER_MEMORY (4 << 20)
#define IDLE_WORK 300000	/* loop turns: a fraction of a millisecond */
#define IDLE_WAIT_MS 20000

/*
 * SCHED_IDLE weighs 3 to nice 0's 1024: among three spinning processes a
 * SCHED_IDLE one gets about 0.1% of the CPU, a few turns a second, in
 * which its own instructions must run. Each spinner has written memory of
 * its own, so that switching to another process has a cost (under umk
 * the window is remapped), which must not eat the turns: the SCHED_IDLE
 * process counts to IDLE_WORK in user mode and says so on a pipe.
 */
static void idle_among_spinners(void)
{
	pid_t spinners[SPINNERS], idle;
	int pfd[2], i, done;
	struct pollfd pf;

	if (pipe(pfd))
		die("pipe failed");
	for (i = 0; i < SPINNERS; i++) {
		spinners[i] = fork();
		if (spinners[i] < 0)
			die("fork failed");
		if (spinners[i] == 0) {
			char *mem = mmap(NULL, SPINNER_MEMORY, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (mem == MAP_FAILED)
				_exit(1);
			memset(mem, i + 1, SPINNER_MEMORY);
			for (;;)
				;
		}
	}
	idle = fork();
	if (idle < 0)
		die("fork failed");
	if (idle == 0) {
		struct sched_param p = { 0 };
		volatile long n = 0;

		if (rsys(SYS_sched_setscheduler, 0, SCHED_IDLE, &p))
			_exit(1);
		while (n < IDLE_WORK)
			n++;
		if (write(pfd[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	pf.fd = pfd[0];
	pf.events = POLLIN;
	done = poll(&pf, 1, IDLE_WAIT_MS) == 1;
	for (i = 0; i < SPINNERS; i++)
		kill(spinners[i], SIGKILL);
	kill(idle, SIGKILL);
	for (i = 0; i < SPINNERS + 1; i++)
		wait(NULL);
	printf("a SCHED_IDLE process among %d spinning ones ran its %d loop turns: %s\n",
	       SPINNERS, IDLE_WORK, yes(done));
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "calls"))
		calls();
	else if (!strcmp(what, "order"))
		order();
	else if (!strcmp(what, "preempt"))
		preempt();
	else if (!strcmp(what, "yield"))
		yield();
	else if (!strcmp(what, "rr"))
		rr();
	else if (!strcmp(what, "nice"))
		nice_share();
	else if (!strcmp(what, "idle"))
		idle_among_spinners();
	else if (!strcmp(what, "idlewake"))
		idle_wake();
	else
		die("usage: schedpol calls|order|preempt|yield|rr|nice|idle|idlewake");
	return 0;
}
