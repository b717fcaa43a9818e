/* ptimers: POSIX timers (timer_create and its calls) and clock_nanosleep on
 * the CPU-time clocks, one scenario per argument:
 *   create    ids, clocks, sigevents and every call's errors, RLIMIT_SIGPENDING
 *   signal    the siginfo of a timer's signal; a NULL sigevent's SIGALRM
 *   overrun   a periodic timer's signal queued once while blocked: si_overrun
 *             and timer_getoverrun agree; capped at DELAYTIMER_MAX
 *   none      SIGEV_NONE timers counting down in timer_gettime
 *   abstime   TIMER_ABSTIME on each clock; the old value timer_settime returns
 *   thread    SIGEV_THREAD_ID to a chosen thread, to one that exited; the C
 *             library's SIGEV_THREAD
 *   fork      a child has none of its parent's timers
 *   exec      exec deletes the timers and their pending signal; ids go on
 *   sigwait   sigwaitinfo and rt_sigtimedwait take a timer's signal
 *   cputime   timers on the process and thread CPU-time clocks
 *   nsleep    clock_nanosleep on the CPU-time clocks: EOPNOTSUPP for the
 *             thread's, the process's sleeps; interrupted, stopped, restarted
 *   modern    Linux 6.13's rules: a re-set or deleted timer's queued signal
 *             is dropped; a periodic timer's ignored signal comes back when
 *             its handler does
 *   exit      exit with timers armed (the trace shows none firing after)
 * Timer calls are raw system calls, so each line shows what the kernel
 * returned. Times are never printed, only checked against generous bounds
 * ("yes"), so that a run natively and one under umk print the same lines
 * on a loaded machine. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define KSIGSET 8	/* the kernel's sigset_t: 64 signals */
#define MS 1000000L	/* ns */
#define BADPTR 8	/* an address no program maps */

static const char *yes(int c)
{
	return c ? "yes" : "no";
}

static long tcreate(int clock, struct sigevent *ev, int *id)
{
	return rsys(SYS_timer_create, clock, ev, id);
}

static long tset(int id, int flags, long value_ns, long interval_ns, struct itimerspec *old)
{
	struct itimerspec its = {
		.it_interval = { interval_ns / 1000000000, interval_ns % 1000000000 },
		.it_value = { value_ns / 1000000000, value_ns % 1000000000 },
	};

	return rsys(SYS_timer_settime, id, flags, &its, old);
}

/* timer_settime with fields as given, valid or not. */
static long tset_raw(int id, long isec, long insec, long vsec, long vnsec)
{
	struct itimerspec its = { .it_interval = { isec, insec }, .it_value = { vsec, vnsec } };

	return rsys(SYS_timer_settime, id, 0, &its, NULL);
}

static long tget(int id, struct itimerspec *cur)
{
	return rsys(SYS_timer_gettime, id, cur);
}

static long ns_of(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000L + ts->tv_nsec;
}

static long clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ns_of(&ts);
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Spin until clock c has moved by ns. */
static void spin_on(clockid_t c, long ns)
{
	long end = clock_ns(c) + ns;

	while (clock_ns(c) < end)
		;
}

static void set_handler(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO | flags };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		die("sigaction %d failed", sig);
}

static void set_ignored(int sig)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	if (sigaction(sig, &sa, NULL))
		die("sigaction %d failed", sig);
}

static void mask(int how, int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigprocmask(how, &set, NULL))
		die("sigprocmask failed");
}

static int pending(int sig)
{
	sigset_t set;

	sigpending(&set);
	return sigismember(&set, sig);
}

/* rt_sigtimedwait for sig, waiting at most ms: the signal or -Exxx. */
static long timedwait(int sig, siginfo_t *si, long ms)
{
	sigset_t set;
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	sigemptyset(&set);
	sigaddset(&set, sig);
	memset(si, 0, sizeof(*si));
	return rsys(SYS_rt_sigtimedwait, &set, si, &ts, KSIGSET);
}

static const char *sig_text(int sig)
{
	static char buf[16];

	if (sig < SIGRTMIN)
		return signal_name(sig);
	snprintf(buf, sizeof(buf), "SIGRTMIN+%d", sig - SIGRTMIN);
	return buf;
}

static const char *code_text(int code)
{
	static char buf[16];

	switch (code) {
	case SI_USER: return "SI_USER";
	case SI_TIMER: return "SI_TIMER";
	case SI_TKILL: return "SI_TKILL";
	case SI_KERNEL: return "SI_KERNEL";
	}
	snprintf(buf, sizeof(buf), "%d", code);
	return buf;
}

static void print_spec(const char *what, const struct itimerspec *its)
{
	printf("%s: it_value %ld.%09ld it_interval %ld.%09ld\n", what, (long)its->it_value.tv_sec,
	       its->it_value.tv_nsec, (long)its->it_interval.tv_sec, its->it_interval.tv_nsec);
}

/* ---- what the handlers saw ---- */

static volatile sig_atomic_t got;
static volatile int got_sig, got_code, got_timerid, got_overrun, got_value;
static volatile long got_tid, got_cpu_ns;
static volatile clockid_t got_clock = CLOCK_MONOTONIC;

static void recorder(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_timerid = si->si_timerid;
	got_overrun = si->si_overrun;
	got_value = si->si_value.sival_int;
	got_tid = syscall(SYS_gettid);
	got_cpu_ns = clock_ns(got_clock);
	got++;
}

/* Wait for the handler, at most ms of wall time. */
static int wait_got(int n, long ms)
{
	long end = clock_ns(CLOCK_MONOTONIC) + ms * MS;

	while (got < n && clock_ns(CLOCK_MONOTONIC) < end)
		msleep(1);
	return got >= n;
}

static void print_got(const char *prefix)
{
	printf("%s%s si_code=%s si_timerid=%d si_overrun=%d si_value=%d\n", prefix, sig_text(got_sig),
	       code_text(got_code), got_timerid, got_overrun, got_value);
}

static void print_info(const char *prefix, long r, const siginfo_t *si)
{
	if (r < 0) {
		show(prefix, r);
		return;
	}
	printf("%s = %s si_code=%s si_timerid=%d si_value=%d\n", prefix, sig_text((int)r),
	       code_text(si->si_code), si->si_timerid, si->si_value.sival_int);
}

/* ---- create: ids, clocks, sigevents, errors ---- */

static void create(void)
{
	static const struct { int clock; const char *name; } clocks[] = {
		{ CLOCK_REALTIME, "CLOCK_REALTIME" }, { CLOCK_MONOTONIC, "CLOCK_MONOTONIC" },
		{ CLOCK_BOOTTIME, "CLOCK_BOOTTIME" },
		{ CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID" },
		{ CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID" },
		{ CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW" },
		{ CLOCK_REALTIME_COARSE, "CLOCK_REALTIME_COARSE" },
		{ CLOCK_MONOTONIC_COARSE, "CLOCK_MONOTONIC_COARSE" },
		{ 10, "clock 10" }, { 12, "clock 12" }, { 100, "clock 100" },
	};
	struct sigevent ev;
	struct itimerspec its;
	struct rlimit rl, zero;
	char call[96];
	int id = -1, i, last;
	pid_t child;

	for (i = 0; i < (int)(sizeof(clocks) / sizeof(clocks[0])); i++) {
		id = -1;
		snprintf(call, sizeof(call), "timer_create(%s, NULL)", clocks[i].name);
		if (show(call, tcreate(clocks[i].clock, NULL, &id)) == 0)
			printf("  id %d\n", id);
	}

	/* Bad sigevents: each takes an id, as on Linux. */
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = 0;
	show("timer_create(SIGEV_SIGNAL, signal 0)", tcreate(CLOCK_MONOTONIC, &ev, &id));
	ev.sigev_signo = 65;
	show("timer_create(SIGEV_SIGNAL, signal 65)", tcreate(CLOCK_MONOTONIC, &ev, &id));
	ev.sigev_signo = SIGUSR1;
	ev.sigev_notify = 3;
	show("timer_create(sigev_notify 3)", tcreate(CLOCK_MONOTONIC, &ev, &id));
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_notify_thread_id = child;
	show("timer_create(SIGEV_THREAD_ID, a child process)", tcreate(CLOCK_MONOTONIC, &ev, &id));
	kill(child, SIGKILL);
	wait_status(child);
	ev.sigev_notify_thread_id = 0;
	show("timer_create(SIGEV_THREAD_ID, thread 0)", tcreate(CLOCK_MONOTONIC, &ev, &id));
	ev.sigev_notify = SIGEV_NONE;
	ev.sigev_signo = 1000;
	if (show("timer_create(SIGEV_NONE, signal 1000)", tcreate(CLOCK_MONOTONIC, &ev, &id)) == 0)
		printf("  id %d\n", id);
	show("timer_create(bad sigevent pointer)", tcreate(CLOCK_MONOTONIC, (void *)BADPTR, &id));
	show("timer_create(bad clock, bad sigevent pointer)", tcreate(100, (void *)BADPTR, &id));
	show("timer_create(bad id pointer)", tcreate(CLOCK_MONOTONIC, NULL, (void *)BADPTR));
	if (show("timer_create(CLOCK_MONOTONIC, NULL)", tcreate(CLOCK_MONOTONIC, NULL, &id)) == 0)
		printf("  id %d: the failures after the sigevent was read took ids\n", id);
	last = id;

	/* The limit: each timer holds a queued-signal slot. */
	getrlimit(RLIMIT_SIGPENDING, &rl);
	zero = (struct rlimit){ 0, rl.rlim_max };
	setrlimit(RLIMIT_SIGPENDING, &zero);
	show("RLIMIT_SIGPENDING 0: timer_create", tcreate(CLOCK_MONOTONIC, NULL, &id));
	setrlimit(RLIMIT_SIGPENDING, &rl);

	/* The other calls' errors. */
	show("timer_settime(NULL value)", rsys(SYS_timer_settime, last, 0, NULL, NULL));
	show("timer_settime(bad value pointer)", rsys(SYS_timer_settime, last, 0, BADPTR, NULL));
	show("timer_settime(tv_nsec 1000000000)", tset_raw(last, 0, 0, 1, 1000000000));
	show("timer_settime(tv_sec -1)", tset_raw(last, 0, 0, -1, 0));
	show("timer_settime(interval tv_nsec -1)", tset_raw(last, 0, -1, 1, 0));
	show("timer_settime(timer 12345)", tset(12345, 0, 1000 * MS, 0, NULL));
	show("timer_settime(timer -1)", tset(-1, 0, 1000 * MS, 0, NULL));
	show("timer_settime(1 s, bad old pointer)", tset(last, 0, 1000 * MS, 0, (void *)BADPTR));
	tget(last, &its);
	printf("  armed all the same: %s\n", yes(its.it_value.tv_sec || its.it_value.tv_nsec));
	show("timer_gettime(bad pointer)", rsys(SYS_timer_gettime, last, BADPTR));
	show("timer_gettime(timer 12345)", tget(12345, &its));
	show("timer_getoverrun(timer 12345)", rsys(SYS_timer_getoverrun, 12345));
	show("timer_getoverrun(never fired)", rsys(SYS_timer_getoverrun, last));
	show("timer_delete(timer 12345)", rsys(SYS_timer_delete, 12345));
	show("timer_delete", rsys(SYS_timer_delete, last));
	show("timer_delete(deleted)", rsys(SYS_timer_delete, last));
	show("timer_gettime(deleted)", tget(last, &its));
	show("timer_settime(deleted)", tset(last, 0, 1000 * MS, 0, NULL));
	show("timer_getoverrun(deleted)", rsys(SYS_timer_getoverrun, last));
	if (show("timer_create(CLOCK_MONOTONIC, NULL)", tcreate(CLOCK_MONOTONIC, NULL, &id)) == 0)
		printf("  id %d: a deleted timer's id is not handed out again at once\n", id);
}

/* ---- signal: what a timer's signal carries ---- */

static void signal_info(void)
{
	static const struct { int clock; const char *name; } clocks[] = {
		{ CLOCK_MONOTONIC, "CLOCK_MONOTONIC" }, { CLOCK_REALTIME, "CLOCK_REALTIME" },
		{ CLOCK_BOOTTIME, "CLOCK_BOOTTIME" },
	};
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its;
	int id, i;

	set_handler(SIGUSR1, recorder, 0);
	set_handler(SIGALRM, recorder, 0);
	for (i = 0; i < 3; i++) {
		got = 0;
		ev.sigev_value.sival_int = 40 + i;
		tcreate(clocks[i].clock, &ev, &id);
		printf("%s: timer %d, signal SIGUSR1, value %d, 20 ms\n", clocks[i].name, id, 40 + i);
		show("  timer_settime", tset(id, 0, 20 * MS, 0, NULL));
		if (!wait_got(1, 5000))
			die("no signal from timer %d", id);
		print_got("  handler ");
		tget(id, &its);
		print_spec("  timer_gettime after it fired", &its);
		show("  timer_getoverrun", rsys(SYS_timer_getoverrun, id));
	}
	got = 0;
	show("timer_create(CLOCK_MONOTONIC, NULL sigevent)", tcreate(CLOCK_MONOTONIC, NULL, &id));
	tset(id, 0, 10 * MS, 0, NULL);
	if (!wait_got(1, 5000))
		die("no SIGALRM from timer %d", id);
	print_got("  handler ");
	printf("  si_value is the timer id: %s\n", yes(got_value == id));
}

/* ---- overrun ---- */

static void overrun(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its;
	siginfo_t si;
	int id, round;
	long r, o;

	mask(SIG_BLOCK, SIGUSR1);
	tcreate(CLOCK_MONOTONIC, &ev, &id);
	printf("SIGUSR1 blocked; a 5 ms periodic timer; 60 ms of sleep each round\n");
	tset(id, 0, 5 * MS, 5 * MS, NULL);
	for (round = 1; round <= 2; round++) {
		msleep(60);
		printf("round %d: SIGUSR1 pending: %s\n", round, yes(pending(SIGUSR1)));
		r = timedwait(SIGUSR1, &si, 0);
		print_info("  rt_sigtimedwait", r, &si);
		o = rsys(SYS_timer_getoverrun, id);
		printf("  si_overrun >= 10: %s; timer_getoverrun = si_overrun: %s\n",
		       yes(si.si_overrun >= 10), yes(o == si.si_overrun));
	}
	tget(id, &its);
	printf("timer_gettime: it_interval %ld.%09ld, it_value in (0, 5 ms]: %s\n",
	       (long)its.it_interval.tv_sec, its.it_interval.tv_nsec,
	       yes(ns_of(&its.it_value) > 0 && ns_of(&its.it_value) <= 5 * MS));
	show("timer_delete", rsys(SYS_timer_delete, id));

	/* Billions of intervals missed: the count stops at DELAYTIMER_MAX. */
	tcreate(CLOCK_REALTIME, &ev, &id);
	printf("CLOCK_REALTIME, TIMER_ABSTIME 1970-01-01 00:00:01, every 1 ns\n");
	show("  timer_settime", tset(id, TIMER_ABSTIME, 1000 * MS, 1, NULL));
	r = timedwait(SIGUSR1, &si, 5000);
	print_info("  rt_sigtimedwait", r, &si);
	printf("  si_overrun %d, timer_getoverrun %ld\n", si.si_overrun, rsys(SYS_timer_getoverrun, id));
	show("  timer_delete", rsys(SYS_timer_delete, id));
}

/* ---- none: SIGEV_NONE ---- */

static void none(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_NONE };
	struct itimerspec a, b;
	long v1, v2;
	int id;

	tcreate(CLOCK_MONOTONIC, &ev, &id);
	printf("SIGEV_NONE, CLOCK_MONOTONIC, 300 ms\n");
	tset(id, 0, 300 * MS, 0, NULL);
	tget(id, &a);
	msleep(50);
	tget(id, &b);
	v1 = ns_of(&a.it_value);
	v2 = ns_of(&b.it_value);
	printf("  first reading in (0, 300 ms]: %s\n", yes(v1 > 0 && v1 <= 300 * MS));
	printf("  50 ms later, at least 50 ms less: %s\n", yes(v2 > 0 && v1 - v2 >= 50 * MS));
	msleep(300);
	tget(id, &a);
	print_spec("  expired", &a);
	show("  timer_getoverrun", rsys(SYS_timer_getoverrun, id));

	printf("SIGEV_NONE, CLOCK_MONOTONIC, every 30 ms\n");
	tset(id, 0, 30 * MS, 30 * MS, NULL);
	msleep(100);
	tget(id, &a);
	printf("  after 100 ms: it_interval %ld.%09ld, it_value in (0, 30 ms]: %s\n",
	       (long)a.it_interval.tv_sec, a.it_interval.tv_nsec,
	       yes(ns_of(&a.it_value) > 0 && ns_of(&a.it_value) <= 30 * MS));
	show("  timer_getoverrun (never delivered)", rsys(SYS_timer_getoverrun, id));
	printf("  SIGALRM or any signal pending: %s\n", yes(pending(SIGALRM)));
	show("  timer_settime(0) with old value", tset(id, 0, 0, 0, &a));
	printf("  old: it_interval %ld.%09ld, it_value in (0, 30 ms]: %s\n",
	       (long)a.it_interval.tv_sec, a.it_interval.tv_nsec,
	       yes(ns_of(&a.it_value) > 0 && ns_of(&a.it_value) <= 30 * MS));
	tget(id, &a);
	printf("  disarmed: it_interval %ld.%09ld\n", (long)a.it_interval.tv_sec, a.it_interval.tv_nsec);

	tcreate(CLOCK_PROCESS_CPUTIME_ID, &ev, &id);
	printf("SIGEV_NONE, CLOCK_PROCESS_CPUTIME_ID, 200 ms\n");
	tset(id, 0, 200 * MS, 0, NULL);
	tget(id, &a);
	spin_on(CLOCK_PROCESS_CPUTIME_ID, 50 * MS);
	tget(id, &b);
	v1 = ns_of(&a.it_value);
	v2 = ns_of(&b.it_value);
	printf("  after 50 ms of CPU, at least 50 ms less: %s\n", yes(v2 > 0 && v1 - v2 >= 50 * MS));
	spin_on(CLOCK_PROCESS_CPUTIME_ID, 160 * MS);
	tget(id, &a);
	print_spec("  expired", &a);
}

/* ---- abstime ---- */

static void abstime(void)
{
	static const struct { int clock; const char *name; } clocks[] = {
		{ CLOCK_MONOTONIC, "CLOCK_MONOTONIC" }, { CLOCK_REALTIME, "CLOCK_REALTIME" },
		{ CLOCK_BOOTTIME, "CLOCK_BOOTTIME" },
	};
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its, old;
	long target, r;
	siginfo_t si;
	int id, i;

	mask(SIG_BLOCK, SIGUSR1);
	for (i = 0; i < 3; i++) {
		tcreate(clocks[i].clock, &ev, &id);
		target = clock_ns(clocks[i].clock) + 50 * MS;
		printf("%s, TIMER_ABSTIME now + 50 ms\n", clocks[i].name);
		show("  timer_settime", tset(id, TIMER_ABSTIME, target, 0, NULL));
		tget(id, &its);
		printf("  timer_gettime: it_value in (0, 50 ms]: %s\n",
		       yes(ns_of(&its.it_value) > 0 && ns_of(&its.it_value) <= 50 * MS));
		r = timedwait(SIGUSR1, &si, 5000);
		print_info("  rt_sigtimedwait", r, &si);
		printf("  not before the time: %s\n", yes(clock_ns(clocks[i].clock) >= target));
		rsys(SYS_timer_delete, id);
	}

	tcreate(CLOCK_MONOTONIC, &ev, &id);
	printf("CLOCK_MONOTONIC, TIMER_ABSTIME 1 ns (long past)\n");
	show("  timer_settime", tset(id, TIMER_ABSTIME, 1, 0, NULL));
	r = timedwait(SIGUSR1, &si, 5000);
	print_info("  rt_sigtimedwait", r, &si);

	printf("old values\n");
	tset(id, 0, 1000 * MS, 0, NULL);
	show("  timer_settime(2 s) after 1 s", tset(id, 0, 2000 * MS, 0, &old));
	printf("  old it_value in (0, 1 s]: %s, it_interval %ld.%09ld\n",
	       yes(ns_of(&old.it_value) > 0 && ns_of(&old.it_value) <= 1000 * MS),
	       (long)old.it_interval.tv_sec, old.it_interval.tv_nsec);
	tset(id, 0, 1000 * MS, 250 * MS, NULL);
	show("  timer_settime(0) after 1 s every 250 ms", tset(id, 0, 0, 0, &old));
	printf("  old it_value in (0, 1 s]: %s, it_interval %ld.%09ld\n",
	       yes(ns_of(&old.it_value) > 0 && ns_of(&old.it_value) <= 1000 * MS),
	       (long)old.it_interval.tv_sec, old.it_interval.tv_nsec);
	tget(id, &its);
	print_spec("  disarmed", &its);
	show("  timer_settime(1 s) on a disarmed timer, old value", tset(id, 0, 1000 * MS, 0, &old));
	print_spec("  old", &old);
}

/* ---- thread: SIGEV_THREAD_ID and SIGEV_THREAD ---- */

static volatile long thread_tid[2];
static volatile int threads_done;
static volatile int thread_saw_pending;

/* Thread 0 waits with SIGUSR1 open; thread 1 blocks it and watches for it
 * to be pending on itself. */
static void *waiter(void *arg)
{
	int n = (int)(long)arg;
	long end;

	if (n == 1)
		mask(SIG_BLOCK, SIGUSR1);
	thread_tid[n] = syscall(SYS_gettid);
	end = clock_ns(CLOCK_MONOTONIC) + 5000 * MS;
	while (!threads_done && clock_ns(CLOCK_MONOTONIC) < end) {
		if (n == 1 && pending(SIGUSR1))
			thread_saw_pending = 1;
		msleep(1);
	}
	return NULL;
}

static void *short_lived(void *arg)
{
	*(long *)arg = syscall(SYS_gettid);
	return NULL;
}

static volatile int notified, notified_value;
static volatile long notified_tid;

static void notify(union sigval v)
{
	notified_value = v.sival_int;
	notified_tid = syscall(SYS_gettid);
	notified++;
}

static void thread(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGUSR1 };
	long main_tid = syscall(SYS_gettid), gone_tid = 0, end;
	struct itimerspec its;
	pthread_t t[2], s;
	timer_t lt;
	int id, i;

	set_handler(SIGUSR1, recorder, 0);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, waiter, (void *)(long)i);
	while (!thread_tid[0] || !thread_tid[1])
		msleep(1);

	ev.sigev_notify_thread_id = thread_tid[0];
	ev.sigev_value.sival_int = 5;
	show("timer_create(SIGEV_THREAD_ID, thread A)", tcreate(CLOCK_MONOTONIC, &ev, &id));
	tset(id, 0, 20 * MS, 0, NULL);
	if (!wait_got(1, 5000))
		die("no signal for thread A");
	print_got("  handler ");
	printf("  ran in thread A: %s (main: %s)\n", yes(got_tid == thread_tid[0]), yes(got_tid == main_tid));

	ev.sigev_notify_thread_id = thread_tid[1];
	show("timer_create(SIGEV_THREAD_ID, thread B, which blocks SIGUSR1)",
	     tcreate(CLOCK_MONOTONIC, &ev, &id));
	tset(id, 0, 20 * MS, 0, NULL);
	end = clock_ns(CLOCK_MONOTONIC) + 5000 * MS;
	while (!thread_saw_pending && clock_ns(CLOCK_MONOTONIC) < end)
		msleep(1);
	printf("  pending on thread B: %s; on main: %s\n", yes(thread_saw_pending), yes(pending(SIGUSR1)));
	threads_done = 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);

	pthread_create(&s, NULL, short_lived, &gone_tid);
	pthread_join(s, NULL);
	ev.sigev_notify_thread_id = (pid_t)gone_tid;
	show("timer_create(SIGEV_THREAD_ID, a thread that has exited)", tcreate(CLOCK_MONOTONIC, &ev, &id));

	pthread_create(&s, NULL, short_lived, &gone_tid);
	while (!gone_tid)
		msleep(1);
	ev.sigev_notify_thread_id = (pid_t)gone_tid;
	got = 0;
	tcreate(CLOCK_MONOTONIC, &ev, &id);
	pthread_join(s, NULL);
	printf("a timer for a thread that exits before it fires, 10 ms\n");
	tset(id, 0, 10 * MS, 0, NULL);
	msleep(100);
	printf("  any signal: %s\n", yes(got || pending(SIGUSR1)));
	tget(id, &its);
	print_spec("  timer_gettime", &its);

	printf("the C library's SIGEV_THREAD, value 7, 20 ms\n");
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = notify;
	ev.sigev_value.sival_int = 7;
	if (timer_create(CLOCK_MONOTONIC, &ev, &lt))
		die("timer_create(SIGEV_THREAD): %s", strerror(errno));
	timer_settime(lt, 0, &(struct itimerspec){ .it_value = { 0, 20 * MS } }, NULL);
	end = clock_ns(CLOCK_MONOTONIC) + 5000 * MS;
	while (!notified && clock_ns(CLOCK_MONOTONIC) < end)
		msleep(1);
	printf("  called with value %d, in another thread: %s\n", notified_value,
	       yes(notified && notified_tid != main_tid));
	printf("  timer_delete = %d\n", timer_delete(lt));
}

/* ---- fork and exec ---- */

static void fork_scenario(void)
{
	struct itimerspec its;
	int a, b, id;
	pid_t pid;

	tcreate(CLOCK_MONOTONIC, NULL, &a);
	tcreate(CLOCK_PROCESS_CPUTIME_ID, NULL, &b);
	tset(a, 0, 10000 * MS, 0, NULL);
	printf("parent: timers %d and %d, %d armed\n", a, b, a);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		show("child: timer_gettime(parent's armed timer)", tget(a, &its));
		show("child: timer_gettime(parent's CPU-clock timer)", tget(b, &its));
		show("child: timer_delete(parent's timer)", rsys(SYS_timer_delete, a));
		if (show("child: timer_create", tcreate(CLOCK_MONOTONIC, NULL, &id)) == 0)
			printf("child:   id %d\n", id);
		exit(0);
	}
	printf("child: %s\n", status_text(wait_status(pid)));
	show("parent: timer_gettime", tget(a, &its));
	printf("parent: still armed: %s\n", yes(its.it_value.tv_sec > 0));
}

static void exec_scenario(const char *self)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	char ids[2][16];
	int a, b;

	mask(SIG_BLOCK, SIGUSR2);
	tcreate(CLOCK_MONOTONIC, &ev, &a);
	tcreate(CLOCK_MONOTONIC, &ev, &b);
	tset(a, 0, 5 * MS, 5 * MS, NULL);
	tset(b, 0, 10000 * MS, 0, NULL);
	msleep(50);
	printf("before exec: timers %d (every 5 ms) and %d (10 s); SIGUSR2 blocked, pending: %s\n", a, b,
	       yes(pending(SIGUSR2)));
	fflush(stdout);
	snprintf(ids[0], sizeof(ids[0]), "%d", a);
	snprintf(ids[1], sizeof(ids[1]), "%d", b);
	execl(self, self, "exec-check", ids[0], ids[1], (char *)NULL);
	die("execl %s failed", self);
}

static void exec_check(int a, int b)
{
	struct itimerspec its;
	int id;

	printf("after exec: SIGUSR2 still blocked: %s, pending: %s\n", yes(({
		       sigset_t cur;
		       sigprocmask(SIG_BLOCK, NULL, &cur);
		       sigismember(&cur, SIGUSR2);
	       })), yes(pending(SIGUSR2)));
	show("after exec: timer_gettime(first)", tget(a, &its));
	show("after exec: timer_gettime(second)", tget(b, &its));
	if (show("after exec: timer_create", tcreate(CLOCK_MONOTONIC, NULL, &id)) == 0)
		printf("  id %d\n", id);
	msleep(30);
	printf("30 ms later, SIGUSR2 pending: %s\n", yes(pending(SIGUSR2)));
}

/* ---- sigwait ---- */

static void sigwait_scenario(void)
{
	int sig = SIGRTMIN + 1;
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = sig };
	sigset_t set;
	siginfo_t si;
	int id, r, n;

	mask(SIG_BLOCK, sig);
	ev.sigev_value.sival_int = 99;
	tcreate(CLOCK_MONOTONIC, &ev, &id);
	printf("SIGRTMIN+1 blocked; timer %d, value 99, 20 ms\n", id);
	tset(id, 0, 20 * MS, 0, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	memset(&si, 0, sizeof(si));
	r = sigwaitinfo(&set, &si);
	print_info("  sigwaitinfo", r, &si);
	printf("  si_overrun %d\n", si.si_overrun);

	printf("every 10 ms, three rt_sigtimedwait(1 s)\n");
	tset(id, 0, 10 * MS, 10 * MS, NULL);
	for (n = 0; n < 3; n++)
		print_info("  rt_sigtimedwait", timedwait(sig, &si, 1000), &si);
	tset(id, 0, 0, 0, NULL);
	show("disarmed: rt_sigtimedwait(50 ms)", timedwait(sig, &si, 50));
}

/* ---- cputime ---- */

static volatile int spin_stop;

static void *spinner(void *arg)
{
	long ns = (long)arg;

	if (ns)
		spin_on(CLOCK_THREAD_CPUTIME_ID, ns);
	else
		while (!spin_stop)
			;
	return NULL;
}

static void *thread_timer_then_exit(void *arg)
{
	tcreate(CLOCK_THREAD_CPUTIME_ID, NULL, (int *)arg);
	return NULL;
}

static void cputime(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its;
	long start, r, o;
	pthread_t t;
	siginfo_t si;
	int id;

	set_handler(SIGUSR1, recorder, 0);
	got_clock = CLOCK_PROCESS_CPUTIME_ID;
	tcreate(CLOCK_PROCESS_CPUTIME_ID, &ev, &id);
	printf("CLOCK_PROCESS_CPUTIME_ID, 30 ms, spinning\n");
	start = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	tset(id, 0, 30 * MS, 0, NULL);
	got = 0;
	while (!got && clock_ns(CLOCK_PROCESS_CPUTIME_ID) - start < 5000 * MS)
		;
	print_got("  handler ");
	printf("  after at least 30 ms of CPU: %s\n", yes(got && got_cpu_ns - start >= 30 * MS));
	tget(id, &its);
	print_spec("  timer_gettime after it fired", &its);

	got_clock = CLOCK_THREAD_CPUTIME_ID;
	ev.sigev_value.sival_int = 1;
	tcreate(CLOCK_THREAD_CPUTIME_ID, &ev, &id);
	printf("CLOCK_THREAD_CPUTIME_ID, 30 ms, another thread spinning 100 ms while this one sleeps\n");
	tset(id, 0, 30 * MS, 0, NULL);
	got = 0;
	pthread_create(&t, NULL, spinner, (void *)(100 * MS));
	pthread_join(t, NULL);
	tget(id, &its);
	printf("  no signal: %s; still more than 20 ms to go: %s\n", yes(!got),
	       yes(ns_of(&its.it_value) > 20 * MS));
	printf("  this thread spinning\n");
	start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	while (!got && clock_ns(CLOCK_THREAD_CPUTIME_ID) - start < 5000 * MS)
		;
	print_got("  handler ");

	got_clock = CLOCK_PROCESS_CPUTIME_ID;
	ev.sigev_value.sival_int = 2;
	tcreate(CLOCK_PROCESS_CPUTIME_ID, &ev, &id);
	printf("CLOCK_PROCESS_CPUTIME_ID, 30 ms, only another thread spinning\n");
	got = 0;
	start = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	tset(id, 0, 30 * MS, 0, NULL);
	spin_stop = 0;
	pthread_create(&t, NULL, spinner, NULL);
	wait_got(1, 5000);
	spin_stop = 1;
	pthread_join(t, NULL);
	print_got("  handler ");
	printf("  after at least 30 ms of the process's CPU: %s\n", yes(got && got_cpu_ns - start >= 30 * MS));

	printf("CLOCK_PROCESS_CPUTIME_ID, every 1 ms, SIGUSR2 blocked, 30 ms of CPU\n");
	mask(SIG_BLOCK, SIGUSR2);
	ev.sigev_signo = SIGUSR2;
	tcreate(CLOCK_PROCESS_CPUTIME_ID, &ev, &id);
	tset(id, 0, 1 * MS, 1 * MS, NULL);
	spin_on(CLOCK_PROCESS_CPUTIME_ID, 30 * MS);
	r = timedwait(SIGUSR2, &si, 0);
	print_info("  rt_sigtimedwait", r, &si);
	o = rsys(SYS_timer_getoverrun, id);
	printf("  si_overrun >= 10: %s; timer_getoverrun = si_overrun: %s\n", yes(si.si_overrun >= 10),
	       yes(o == si.si_overrun));
	tget(id, &its);
	printf("  timer_gettime: it_interval %ld.%09ld, it_value in (0, 1 ms]: %s\n",
	       (long)its.it_interval.tv_sec, its.it_interval.tv_nsec,
	       yes(ns_of(&its.it_value) > 0 && ns_of(&its.it_value) <= 1 * MS));
	rsys(SYS_timer_delete, id);

	printf("CLOCK_THREAD_CPUTIME_ID, TIMER_ABSTIME now (reached already), SIGUSR2 blocked\n");
	tcreate(CLOCK_THREAD_CPUTIME_ID, &ev, &id);
	show("  timer_settime", tset(id, TIMER_ABSTIME, clock_ns(CLOCK_THREAD_CPUTIME_ID), 0, NULL));
	printf("  pending on return: %s\n", yes(pending(SIGUSR2)));
	print_info("  rt_sigtimedwait", timedwait(SIGUSR2, &si, 0), &si);

	printf("a thread's CPU-clock timer, the thread gone\n");
	pthread_create(&t, NULL, thread_timer_then_exit, &id);
	pthread_join(t, NULL);
	show("  timer_settime", tset(id, 0, 10 * MS, 0, NULL));
	show("  timer_gettime", tget(id, &its));
	print_spec("  timer_gettime", &its);
	show("  timer_delete", rsys(SYS_timer_delete, id));
}

/* ---- nsleep: clock_nanosleep on the CPU-time clocks ---- */

static long nsleep(int clock, int flags, long ns, struct timespec *rem)
{
	struct timespec req = { ns / 1000000000, ns % 1000000000 };

	return rsys(SYS_clock_nanosleep, clock, flags, &req, rem);
}

static long nsleep_raw(long sec, long nsec)
{
	struct timespec req = { sec, nsec };

	return rsys(SYS_clock_nanosleep, CLOCK_PROCESS_CPUTIME_ID, 0, &req, NULL);
}

/* A child that sleeps 10 s on its process clock, to be stopped, continued
 * and interrupted by its parent. */
static void stopped_sleeper(void)
{
	struct timespec rem = { 0, 0 };
	int fd[2];
	pid_t pid;
	int st;
	long r;
	char c;

	if (pipe(fd))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		set_handler(SIGUSR1, recorder, 0);
		close(fd[0]);
		write(fd[1], "x", 1);
		r = nsleep(CLOCK_PROCESS_CPUTIME_ID, 0, 10000 * MS, &rem);
		show("child: clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 10 s)", r);
		printf("child:   handler ran: %s; rmtp in (9 s, 10 s]: %s\n", yes(got),
		       yes(ns_of(&rem) > 9000 * MS && ns_of(&rem) <= 10000 * MS));
		exit(0);
	}
	close(fd[1]);
	read(fd[0], &c, 1);
	msleep(50);
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	printf("parent: the sleeper %s\n", WIFSTOPPED(st) ? "stopped" : "did not stop");
	kill(pid, SIGCONT);
	msleep(50);
	kill(pid, SIGUSR1);
	printf("parent: continued it, then SIGUSR1; child: %s\n", status_text(wait_status(pid)));
}

static void nsleep_scenario(void)
{
	struct timespec rem = { 123, 456 };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	long start, r;
	pthread_t t;
	int id;

	show("clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 1 ms)", nsleep(CLOCK_THREAD_CPUTIME_ID, 0, MS, NULL));
	show("clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, bad pointer)",
	     rsys(SYS_clock_nanosleep, CLOCK_THREAD_CPUTIME_ID, 0, BADPTR, NULL));
	show("clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 0)", nsleep(CLOCK_PROCESS_CPUTIME_ID, 0, 0, NULL));
	show("clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME now: reached already)",
	     nsleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME, clock_ns(CLOCK_PROCESS_CPUTIME_ID), NULL));
	show("clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, bad pointer)",
	     rsys(SYS_clock_nanosleep, CLOCK_PROCESS_CPUTIME_ID, 0, BADPTR, NULL));
	show("clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, tv_nsec -1)", nsleep_raw(0, -1));

	spin_stop = 0;
	pthread_create(&t, NULL, spinner, NULL);
	start = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	show("clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 50 ms), another thread spinning",
	     nsleep(CLOCK_PROCESS_CPUTIME_ID, 0, 50 * MS, NULL));
	printf("  the process used at least 50 ms: %s\n",
	       yes(clock_ns(CLOCK_PROCESS_CPUTIME_ID) - start >= 50 * MS));
	start = clock_ns(CLOCK_PROCESS_CPUTIME_ID) + 50 * MS;
	show("clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME now + 50 ms), another thread spinning",
	     nsleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME, start, NULL));
	printf("  not before the time: %s\n", yes(clock_ns(CLOCK_PROCESS_CPUTIME_ID) >= start));
	spin_stop = 1;
	pthread_join(t, NULL);

	set_handler(SIGUSR1, recorder, 0);
	tcreate(CLOCK_MONOTONIC, &ev, &id);
	got = 0;
	tset(id, 0, 30 * MS, 0, NULL);
	r = nsleep(CLOCK_PROCESS_CPUTIME_ID, 0, 10000 * MS, &rem);
	show("clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 10 s), alone, a timer's handler after 30 ms", r);
	printf("  handler ran: %s; rmtp in (9 s, 10 s]: %s\n", yes(got),
	       yes(ns_of(&rem) > 9000 * MS && ns_of(&rem) <= 10000 * MS));
	got = 0;
	rem = (struct timespec){ 123, 456 };
	tset(id, 0, 30 * MS, 0, NULL);
	r = nsleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME, clock_ns(CLOCK_PROCESS_CPUTIME_ID) + 10000 * MS,
		   &rem);
	show("clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME now + 10 s), the same", r);
	printf("  handler ran: %s; rmtp untouched: %s\n", yes(got), yes(rem.tv_sec == 123 && rem.tv_nsec == 456));
	stopped_sleeper();
}

/* ---- modern: Linux 6.13's stale and ignored timer signals ---- */

static void modern(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	siginfo_t si;
	int id;
	long r;

	mask(SIG_BLOCK, SIGUSR2);
	tcreate(CLOCK_MONOTONIC, &ev, &id);
	printf("SIGUSR2 blocked, 10 ms; 50 ms later\n");
	tset(id, 0, 10 * MS, 0, NULL);
	msleep(50);
	printf("  pending: %s\n", yes(pending(SIGUSR2)));
	show("  timer_settime(10 s)", tset(id, 0, 10000 * MS, 0, NULL));
	printf("  still pending: %s\n", yes(pending(SIGUSR2)));
	show("  rt_sigtimedwait(0): the signal is stale", timedwait(SIGUSR2, &si, 0));
	printf("  pending: %s\n", yes(pending(SIGUSR2)));

	printf("10 ms again, then timer_delete\n");
	tset(id, 0, 10 * MS, 0, NULL);
	msleep(50);
	printf("  pending: %s\n", yes(pending(SIGUSR2)));
	show("  timer_delete", rsys(SYS_timer_delete, id));
	show("  rt_sigtimedwait(0)", timedwait(SIGUSR2, &si, 0));

	printf("re-set while pending, and fired again\n");
	tcreate(CLOCK_MONOTONIC, &ev, &id);
	tset(id, 0, 10 * MS, 0, NULL);
	msleep(50);
	ev.sigev_value.sival_int = 0;
	tset(id, 0, 10 * MS, 0, NULL);
	msleep(50);
	r = timedwait(SIGUSR2, &si, 0);
	print_info("  rt_sigtimedwait(0)", r, &si);
	show("  rt_sigtimedwait(0) again", timedwait(SIGUSR2, &si, 0));
	rsys(SYS_timer_delete, id);

	printf("SIGUSR1 ignored, every 10 ms; 55 ms later SIGUSR1 blocked and a handler installed\n");
	set_ignored(SIGUSR1);
	ev.sigev_signo = SIGUSR1;
	tcreate(CLOCK_MONOTONIC, &ev, &id);
	tset(id, 0, 10 * MS, 10 * MS, NULL);
	msleep(55);
	printf("  pending while ignored: %s\n", yes(pending(SIGUSR1)));
	mask(SIG_BLOCK, SIGUSR1);
	set_handler(SIGUSR1, recorder, 0);
	printf("  pending at once: %s\n", yes(pending(SIGUSR1)));
	r = timedwait(SIGUSR1, &si, 0);
	print_info("  rt_sigtimedwait(0)", r, &si);
	printf("  si_overrun >= 3 (the ignored expiries): %s\n", yes(si.si_overrun >= 3));
	rsys(SYS_timer_delete, id);

	printf("SIGUSR1 ignored and not blocked, one-shot 10 ms; 50 ms later a handler installed\n");
	set_ignored(SIGUSR1);
	mask(SIG_UNBLOCK, SIGUSR1);
	tcreate(CLOCK_MONOTONIC, &ev, &id);
	tset(id, 0, 10 * MS, 0, NULL);
	msleep(50);
	got = 0;
	set_handler(SIGUSR1, recorder, 0);
	msleep(10);
	printf("  handler ran: %s\n", yes(got));

	printf("SIGUSR1 blocked, every 10 ms; 50 ms later set to SIG_IGN, 50 ms later a handler\n");
	mask(SIG_BLOCK, SIGUSR1);
	tset(id, 0, 10 * MS, 10 * MS, NULL);
	msleep(50);
	printf("  pending: %s\n", yes(pending(SIGUSR1)));
	set_ignored(SIGUSR1);
	printf("  pending once ignored: %s\n", yes(pending(SIGUSR1)));
	msleep(50);
	set_handler(SIGUSR1, recorder, 0);
	printf("  pending with the handler back: %s\n", yes(pending(SIGUSR1)));
	r = timedwait(SIGUSR1, &si, 0);
	print_info("  rt_sigtimedwait(0)", r, &si);
	printf("  si_overrun >= 6: %s\n", yes(si.si_overrun >= 6));
}

/* ---- exit: timers armed at exit ---- */

static void exit_scenario(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	int id;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		mask(SIG_BLOCK, SIGUSR1);
		tcreate(CLOCK_MONOTONIC, &ev, &id);
		tset(id, 0, 5 * MS, 5 * MS, NULL);
		tcreate(CLOCK_PROCESS_CPUTIME_ID, &ev, &id);
		tset(id, 0, 1000 * MS, 0, NULL);
		msleep(20);
		printf("child: exiting with a periodic timer and a CPU-clock timer armed\n");
		exit(0);
	}
	printf("child: %s\n", status_text(wait_status(pid)));
	msleep(50);
	printf("parent: 50 ms later, done\n");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && strcmp(argv[1], "exec-check") == 0) {
		exec_check(atoi(argv[2]), atoi(argv[3]));
		return 0;
	}
	if (argc != 2)
		die("usage: ptimers create|signal|overrun|none|abstime|thread|fork|exec|sigwait|cputime|"
		    "nsleep|modern|exit");
	if (strcmp(argv[1], "create") == 0)
		create();
	else if (strcmp(argv[1], "signal") == 0)
		signal_info();
	else if (strcmp(argv[1], "overrun") == 0)
		overrun();
	else if (strcmp(argv[1], "none") == 0)
		none();
	else if (strcmp(argv[1], "abstime") == 0)
		abstime();
	else if (strcmp(argv[1], "thread") == 0)
		thread();
	else if (strcmp(argv[1], "fork") == 0)
		fork_scenario();
	else if (strcmp(argv[1], "exec") == 0)
		exec_scenario(argv[0]);
	else if (strcmp(argv[1], "sigwait") == 0)
		sigwait_scenario();
	else if (strcmp(argv[1], "cputime") == 0)
		cputime();
	else if (strcmp(argv[1], "nsleep") == 0)
		nsleep_scenario();
	else if (strcmp(argv[1], "modern") == 0)
		modern();
	else if (strcmp(argv[1], "exit") == 0)
		exit_scenario();
	else
		die("unknown scenario %s", argv[1]);
	return 0;
}
