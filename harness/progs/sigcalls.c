/* sigcalls: the signal system calls, one scenario per argument:
 *   timedwait  rt_sigtimedwait: a pending signal, timeouts, EINTR, errors
 *   queue      sigqueue/rt_sigqueueinfo: real-time signals queue with their
 *              values, standard ones coalesce, the EPERM rule
 *   order      several signals pending at once: the order handlers run in
 *   itimer     alarm, setitimer/getitimer with an interval, pause + EINTR
 *   itimer-cpu ITIMER_PROF and ITIMER_VIRTUAL: signals on CPU time spent,
 *              none while asleep, not inherited by fork
 *   tidkill    kill and rt_sigqueueinfo to a thread's id: its process gets the
 *              signal, the named thread takes it unless it blocks it
 *   alarm-sicode  the si_code of SIGALRM from setitimer and alarm
 *   altstack   sigaltstack with SA_ONSTACK, from inside a handler and out
 *   altstack-frame  the uc_stack a frame saves; SS_AUTODISARM
 * Handlers only record what they saw; main prints it, one event a line.
 * Times are printed rounded to 50 ms, so a run natively and one under umk
 * print the same lines. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define KSIGSET 8	/* the kernel's sigset_t: 64 signals */

static double t0;

/* Milliseconds since t0, rounded to the nearest 50. */
static long at(void)
{
	return ((long)(now_ms() - t0) + 25) / 50 * 50;
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void set_handler(int sig, void (*fn)(int, siginfo_t *, void *), int flags,
			const int *mask_sigs)
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO | flags };

	sigemptyset(&sa.sa_mask);
	for (; mask_sigs && *mask_sigs; mask_sigs++)
		sigaddset(&sa.sa_mask, *mask_sigs);
	if (sigaction(sig, &sa, NULL))
		die("sigaction %d failed", sig);
}

static void block(int how, const int *sigs)
{
	sigset_t set;

	sigemptyset(&set);
	for (; *sigs; sigs++)
		sigaddset(&set, *sigs);
	if (sigprocmask(how, &set, NULL))
		die("sigprocmask failed");
}

/* "SIGRTMIN+1" for the real-time signals, whose numbers musl offsets. */
static const char *sig_text(int sig)
{
	static char buf[16];

	if (sig < SIGRTMIN)
		return signal_name(sig);
	snprintf(buf, sizeof(buf), sig == SIGRTMIN ? "SIGRTMIN" : "SIGRTMIN+%d", sig - SIGRTMIN);
	return buf;
}

static const char *code_text(int code)
{
	static char buf[16];

	switch (code) {
	case SI_USER: return "SI_USER";
	case SI_KERNEL: return "SI_KERNEL";
	case SI_QUEUE: return "SI_QUEUE";
	case SI_TIMER: return "SI_TIMER";
	case SI_TKILL: return "SI_TKILL";
	}
	snprintf(buf, sizeof(buf), "%d", code);
	return buf;
}

/* ---- what the handlers saw ---- */

struct event {
	int sig, code, value;
	char what;	/* 'e' entered, 'x' left */
};
static struct event events[32];
static volatile int nevents;

static void record(int sig, int code, int value, char what)
{
	if (nevents < (int)(sizeof(events) / sizeof(events[0])))
		events[nevents] = (struct event){ sig, code, value, what };
	nevents++;
}

static void recorder(int sig, siginfo_t *si, void *uc)
{
	record(sig, si->si_code, si->si_code == SI_QUEUE ? si->si_value.sival_int : 0, 'e');
}

/* Enters and leaves, so stacked frames show in the order they ran. */
static void nested_recorder(int sig, siginfo_t *si, void *uc)
{
	record(sig, si->si_code, 0, 'e');
	record(sig, si->si_code, 0, 'x');
}

static void print_events(const char *prefix, int values)
{
	for (int i = 0; i < nevents; i++) {
		printf("%s%s %s", prefix, events[i].what == 'e' ? "handler" : "leave", sig_text(events[i].sig));
		if (events[i].what == 'e')
			printf(" si_code=%s", code_text(events[i].code));
		if (values)
			printf(" value=%d", events[i].value);
		putchar('\n');
	}
	nevents = 0;
}

/* ---- rt_sigtimedwait ---- */

static pid_t main_tid;

static void *send_usr2_later(void *arg)
{
	msleep(100);
	rsys(SYS_tgkill, getpid(), main_tid, SIGUSR2);
	return arg;
}

static void timedwait(void)
{
	sigset_t set;
	siginfo_t si;
	struct timespec ts;
	char call[80];
	long r;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	block(SIG_BLOCK, (int[]){ SIGUSR1, 0 });

	raise(SIGUSR1);
	memset(&si, 0, sizeof(si));
	r = show("rt_sigtimedwait({SIGUSR1}) with SIGUSR1 pending", rsys(SYS_rt_sigtimedwait, &set, &si, NULL, KSIGSET));
	printf("  si_signo=%s si_code=%s\n", signal_name(si.si_signo), code_text(si.si_code));

	t0 = now_ms();
	ts = (struct timespec){ 0, 100000000 };
	r = rsys(SYS_rt_sigtimedwait, &set, &si, &ts, KSIGSET);
	snprintf(call, sizeof(call), "rt_sigtimedwait({SIGUSR1}, 100ms) at=%ldms", at());
	show(call, r);

	t0 = now_ms();
	ts = (struct timespec){ 0, 0 };
	r = rsys(SYS_rt_sigtimedwait, &set, &si, &ts, KSIGSET);
	snprintf(call, sizeof(call), "rt_sigtimedwait({SIGUSR1}, 0) at=%ldms", at());
	show(call, r);

	/* SIGUSR2 is outside the set and has a handler. */
	pthread_t t;

	set_handler(SIGUSR2, recorder, 0, NULL);
	main_tid = rsys0(SYS_gettid);
	t0 = now_ms();
	if (pthread_create(&t, NULL, send_usr2_later, NULL))
		die("pthread_create failed");
	r = rsys(SYS_rt_sigtimedwait, &set, &si, NULL, KSIGSET);
	snprintf(call, sizeof(call), "rt_sigtimedwait({SIGUSR1}), SIGUSR2 at 100ms, at=%ldms", at());
	print_events("  ", 0);
	show(call, r);
	pthread_join(t, NULL);

	/* With SA_RESTART too: rt_sigtimedwait is never restarted. */
	set_handler(SIGUSR2, recorder, SA_RESTART, NULL);
	t0 = now_ms();
	if (pthread_create(&t, NULL, send_usr2_later, NULL))
		die("pthread_create failed");
	r = rsys(SYS_rt_sigtimedwait, &set, &si, NULL, KSIGSET);
	snprintf(call, sizeof(call), "rt_sigtimedwait({SIGUSR1}), SA_RESTART SIGUSR2 at 100ms, at=%ldms", at());
	print_events("  ", 0);
	show(call, r);
	pthread_join(t, NULL);

	/* Errors. */
	ts = (struct timespec){ 0, 0 };
	show("rt_sigtimedwait(sigsetsize 4)", rsys(SYS_rt_sigtimedwait, &set, &si, &ts, 4));
	show("rt_sigtimedwait(sigsetsize 16)", rsys(SYS_rt_sigtimedwait, &set, &si, &ts, 16));
	show("rt_sigtimedwait(set=1)", rsys(SYS_rt_sigtimedwait, 1, &si, &ts, KSIGSET));
	show("rt_sigtimedwait(timeout=1)", rsys(SYS_rt_sigtimedwait, &set, &si, 1, KSIGSET));
	ts = (struct timespec){ 0, 1000000000 };
	show("rt_sigtimedwait(tv_nsec 1e9)", rsys(SYS_rt_sigtimedwait, &set, &si, &ts, KSIGSET));
	ts = (struct timespec){ -1, 0 };
	show("rt_sigtimedwait(tv_sec -1)", rsys(SYS_rt_sigtimedwait, &set, &si, &ts, KSIGSET));
	raise(SIGUSR1);
	ts = (struct timespec){ 0, 0 };
	show("rt_sigtimedwait(info=1) with SIGUSR1 pending", rsys(SYS_rt_sigtimedwait, &set, 1, &ts, KSIGSET));
	sigset_t pending;

	sigpending(&pending);
	printf("SIGUSR1 still pending after the EFAULT: %s\n", sigismember(&pending, SIGUSR1) ? "yes" : "no");
	raise(SIGUSR1);
	show("rt_sigtimedwait(info=NULL) with SIGUSR1 pending", rsys(SYS_rt_sigtimedwait, &set, NULL, &ts, KSIGSET));
}

/* ---- queueing ---- */

static void queue(const char *self)
{
	sigset_t pending;
	siginfo_t si;

	set_handler(SIGRTMIN, recorder, 0, NULL);
	block(SIG_BLOCK, (int[]){ SIGRTMIN, 0 });
	for (int v = 10; v <= 30; v += 10)
		show("sigqueue(self, SIGRTMIN)", sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = v }) ? -errno : 0);
	show("rt_sigpending", rsys(SYS_rt_sigpending, &pending, KSIGSET));
	printf("SIGRTMIN pending: %s\n", sigismember(&pending, SIGRTMIN) ? "yes" : "no");
	printf("unblock SIGRTMIN\n");
	block(SIG_UNBLOCK, (int[]){ SIGRTMIN, 0 });
	print_events("  ", 1);
	sigpending(&pending);
	printf("SIGRTMIN pending after: %s\n", sigismember(&pending, SIGRTMIN) ? "yes" : "no");

	set_handler(SIGUSR1, recorder, 0, NULL);
	block(SIG_BLOCK, (int[]){ SIGUSR1, 0 });
	raise(SIGUSR1);
	raise(SIGUSR1);
	sigpending(&pending);
	printf("SIGUSR1 raised twice while blocked, pending: %s\n", sigismember(&pending, SIGUSR1) ? "yes" : "no");
	printf("unblock SIGUSR1\n");
	block(SIG_UNBLOCK, (int[]){ SIGUSR1, 0 });
	print_events("  ", 0);

	/* rt_sigqueueinfo with a made-up si_code: only to oneself. */
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_USER;
	show("rt_sigqueueinfo(self, SIGUSR1, si_code=SI_USER)",
	     rsys(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si));
	print_events("  ", 0);
	si.si_code = SI_KERNEL;
	show("rt_sigqueueinfo(self, SIGUSR1, si_code=SI_KERNEL)",
	     rsys(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si));
	print_events("  ", 0);

	pid_t child = spawn(self, (char *[]){ (char *)self, "sleep", NULL });

	si.si_code = SI_USER;
	show("rt_sigqueueinfo(child, SIGUSR1, si_code=SI_USER)", rsys(SYS_rt_sigqueueinfo, child, SIGUSR1, &si));
	si.si_code = SI_TKILL;
	show("rt_sigqueueinfo(child, SIGUSR1, si_code=SI_TKILL)", rsys(SYS_rt_sigqueueinfo, child, SIGUSR1, &si));
	si.si_code = SI_KERNEL;
	show("rt_sigqueueinfo(child, SIGUSR1, si_code=SI_KERNEL)", rsys(SYS_rt_sigqueueinfo, child, SIGUSR1, &si));
	si.si_code = SI_QUEUE;
	show("rt_sigqueueinfo(child, SIGTERM, si_code=SI_QUEUE)", rsys(SYS_rt_sigqueueinfo, child, SIGTERM, &si));
	printf("child: %s\n", status_text(wait_status(child)));
	show("rt_sigqueueinfo(self, SIGUSR1, info=1)", rsys(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, 1));
}

/* ---- several pending at once ---- */

static void order(void)
{
	const int sigs[] = { SIGUSR1, SIGUSR2, SIGRTMIN + 1, 0 };

	for (int i = 0; sigs[i]; i++)
		set_handler(sigs[i], nested_recorder, 0, NULL);
	block(SIG_BLOCK, sigs);
	for (int i = 0; sigs[i]; i++)
		raise(sigs[i]);
	printf("unblock SIGUSR1, SIGUSR2, SIGRTMIN+1 at once\n");
	block(SIG_UNBLOCK, sigs);
	print_events("  ", 0);

	/* SIGUSR1's handler blocks SIGUSR2: it waits for that handler's end. */
	set_handler(SIGUSR1, nested_recorder, 0, (int[]){ SIGUSR2, 0 });
	block(SIG_BLOCK, sigs);
	for (int i = 0; sigs[i]; i++)
		raise(sigs[i]);
	printf("again, SIGUSR1's sa_mask holding SIGUSR2\n");
	block(SIG_UNBLOCK, sigs);
	print_events("  ", 0);

	/* Process-directed (kill) and thread-directed (raise) together. */
	set_handler(SIGUSR1, nested_recorder, 0, NULL);
	block(SIG_BLOCK, sigs);
	kill(getpid(), SIGRTMIN + 1);
	kill(getpid(), SIGUSR1);
	raise(SIGUSR2);
	printf("again, SIGUSR1 and SIGRTMIN+1 by kill, SIGUSR2 by raise\n");
	block(SIG_UNBLOCK, sigs);
	print_events("  ", 0);
}

/* ---- alarm and ITIMER_REAL ---- */

static void itimer(void)
{
	struct itimerval it, old;
	char call[80];
	long r;

	set_handler(SIGALRM, recorder, 0, NULL);
	show("alarm(1)", alarm(1));
	show("alarm(0)", alarm(0));

	it = (struct itimerval){ { 0, 50000 }, { 0, 50000 } };
	t0 = now_ms();
	show("setitimer(ITIMER_REAL, 50ms every 50ms)", rsys(SYS_setitimer, ITIMER_REAL, &it, NULL));
	show("getitimer(ITIMER_REAL)", rsys(SYS_getitimer, ITIMER_REAL, &old));
	printf("  it_interval=%ld.%06ld it_value in (0, 50ms]: %s\n", (long)old.it_interval.tv_sec,
	       (long)old.it_interval.tv_usec,
	       (old.it_value.tv_sec == 0 && old.it_value.tv_usec > 0 && old.it_value.tv_usec <= 50000) ? "yes" : "no");
	while (now_ms() - t0 < 275)
		msleep(5);
	it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	show("setitimer(ITIMER_REAL, 0) at 275ms", rsys(SYS_setitimer, ITIMER_REAL, &it, &old));
	printf("  old it_interval=%ld.%06ld\n", (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec);
	printf("SIGALRM count: %d\n", nevents);
	nevents = 0;
	show("getitimer(ITIMER_REAL) disarmed", rsys(SYS_getitimer, ITIMER_REAL, &old));
	printf("  it_interval=%ld.%06ld it_value=%ld.%06ld\n", (long)old.it_interval.tv_sec,
	       (long)old.it_interval.tv_usec, (long)old.it_value.tv_sec, (long)old.it_value.tv_usec);

	it = (struct itimerval){ { 0, 0 }, { 0, 100000 } };
	t0 = now_ms();
	rsys(SYS_setitimer, ITIMER_REAL, &it, NULL);
	r = rsys0(SYS_pause);
	snprintf(call, sizeof(call), "pause(), ITIMER_REAL of 100ms, at=%ldms", at());
	printf("  SIGALRM handler ran: %d\n", nevents);
	nevents = 0;
	show(call, r);

	it = (struct itimerval){ { 0, 0 }, { 0, 1000000 } };
	show("setitimer(tv_usec 1000000)", rsys(SYS_setitimer, ITIMER_REAL, &it, NULL));
	it = (struct itimerval){ { 0, 1000000 }, { 0, 0 } };
	show("setitimer(interval tv_usec 1000000)", rsys(SYS_setitimer, ITIMER_REAL, &it, NULL));
	it = (struct itimerval){ { 0, 0 }, { 0, -1 } };
	show("setitimer(tv_usec -1)", rsys(SYS_setitimer, ITIMER_REAL, &it, NULL));
	show("setitimer(value=1)", rsys(SYS_setitimer, ITIMER_REAL, 1, NULL));
	show("getitimer(value=1)", rsys(SYS_getitimer, ITIMER_REAL, 1));
	show("getitimer(which=5)", rsys(SYS_getitimer, 5, &old));
}

/* The si_code of SIGALRM from an ITIMER_REAL expiry and from alarm(). */
static void alarm_sicode(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };

	set_handler(SIGALRM, recorder, 0, NULL);
	rsys(SYS_setitimer, ITIMER_REAL, &it, NULL);
	rsys0(SYS_pause);
	printf("setitimer(ITIMER_REAL, 50ms):\n");
	print_events("  ", 0);
	alarm(1);
	rsys0(SYS_pause);
	printf("alarm(1):\n");
	print_events("  ", 0);
}

/* ---- sigaltstack ---- */
static void altstack_frame(void);

static char altstack[64 * 1024] __attribute__((aligned(16)));
static struct {
	long query_ret, change_ret;
	stack_t query, frame;
	int local_inside;
} seen;
static int try_change;	/* the handler tries to re-register the altstack */
static int show_frame;	/* print the uc_stack the frame saved */

static int inside_altstack(const void *p)
{
	return (const char *)p >= altstack && (const char *)p < altstack + sizeof(altstack);
}

static void altstack_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	volatile int local = 0;
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

	seen.query_ret = rsys(SYS_sigaltstack, NULL, &seen.query);
	if (try_change)
		seen.change_ret = rsys(SYS_sigaltstack, &ss, NULL);
	seen.frame = uc->uc_stack;
	seen.local_inside = inside_altstack((const void *)&local);
}

static const char *ss_flags_text(int flags)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s%s%s%s", flags & SS_ONSTACK ? "SS_ONSTACK|" : "",
		 flags & SS_DISABLE ? "SS_DISABLE|" : "", flags & SS_AUTODISARM ? "SS_AUTODISARM|" : "",
		 (flags & ~(SS_ONSTACK | SS_DISABLE | SS_AUTODISARM)) ? "?|" : "");
	if (!buf[0])
		return "0";
	buf[strlen(buf) - 1] = '\0';
	return buf;
}

static void print_stack(const char *what, const stack_t *ss)
{
	printf("  %s: ss_flags=%s ss_sp=%s ss_size=%s\n", what, ss_flags_text(ss->ss_flags),
	       ss->ss_sp == altstack ? "altstack" : ss->ss_sp ? "other" : "NULL",
	       ss->ss_size == sizeof(altstack) ? "64K" : ss->ss_size ? "other" : "0");
}

static void run_on_altstack(const char *what)
{
	memset(&seen, 0, sizeof(seen));
	raise(SIGUSR1);
	printf("in the handler (%s):\n", what);
	show("  sigaltstack(NULL, &old)", seen.query_ret);
	print_stack("old", &seen.query);
	if (show_frame)
		print_stack("uc_stack", &seen.frame);
	printf("  local variable inside the altstack: %s\n", seen.local_inside ? "yes" : "no");
	if (try_change)
		show("  sigaltstack(&new) on it", seen.change_ret);
}

static void altstack_calls(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) }, old;

	show("sigaltstack(NULL, &old) at start", rsys(SYS_sigaltstack, NULL, &old));
	print_stack("old", &old);
	show("sigaltstack(64K)", rsys(SYS_sigaltstack, &ss, NULL));
	set_handler(SIGUSR1, altstack_handler, SA_ONSTACK, NULL);
	try_change = 1;
	run_on_altstack("SA_ONSTACK");
	show("sigaltstack(NULL, &old) after", rsys(SYS_sigaltstack, NULL, &old));
	print_stack("old", &old);

	set_handler(SIGUSR1, altstack_handler, 0, NULL);
	run_on_altstack("no SA_ONSTACK");

	try_change = 1;
	ss = (stack_t){ .ss_flags = SS_DISABLE };
	show("sigaltstack(SS_DISABLE)", rsys(SYS_sigaltstack, &ss, &old));
	print_stack("old", &old);
	show("sigaltstack(NULL, &old)", rsys(SYS_sigaltstack, NULL, &old));
	print_stack("old", &old);
	run_on_altstack("SA_ONSTACK, altstack disabled");

	ss = (stack_t){ .ss_sp = altstack, .ss_size = 2047 };
	show("sigaltstack(ss_size 2047)", rsys(SYS_sigaltstack, &ss, NULL));
	ss.ss_size = 2048;
	show("sigaltstack(ss_size 2048)", rsys(SYS_sigaltstack, &ss, NULL));
	ss = (stack_t){ .ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0x10 };
	show("sigaltstack(ss_flags 0x10)", rsys(SYS_sigaltstack, &ss, NULL));
	ss.ss_flags = SS_ONSTACK;
	show("sigaltstack(ss_flags SS_ONSTACK)", rsys(SYS_sigaltstack, &ss, NULL));
	show("sigaltstack(NULL, &old)", rsys(SYS_sigaltstack, NULL, &old));
	print_stack("old", &old);
	show("sigaltstack(ss=1)", rsys(SYS_sigaltstack, 1, NULL));
	show("sigaltstack(NULL, oss=1)", rsys(SYS_sigaltstack, NULL, 1));
}

/* What the frame saves in uc_stack, and SS_AUTODISARM. */
static void altstack_frame(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) }, old;

	show_frame = 1;
	show("sigaltstack(64K)", rsys(SYS_sigaltstack, &ss, NULL));
	set_handler(SIGUSR1, altstack_handler, SA_ONSTACK, NULL);
	run_on_altstack("SA_ONSTACK");
	/* Disarmed while the handler runs; sigreturn re-arms it from uc_stack. */
	ss.ss_flags = SS_AUTODISARM;
	try_change = 0;
	show("sigaltstack(64K, SS_AUTODISARM)", rsys(SYS_sigaltstack, &ss, NULL));
	set_handler(SIGUSR1, altstack_handler, SA_ONSTACK, NULL);
	run_on_altstack("SA_ONSTACK, SS_AUTODISARM");
	show("sigaltstack(NULL, &old) after", rsys(SYS_sigaltstack, NULL, &old));
	print_stack("old", &old);
}

/* ---- ITIMER_PROF and ITIMER_VIRTUAL ---- */

static volatile sig_atomic_t cpu_signals, cpu_code;

static void cpu_itimer_handler(int sig, siginfo_t *si, void *uc)
{
	cpu_signals++;
	cpu_code = si->si_code;
}

/* The process's CPU time, ms. */
static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Spin until n signals came or 5 s of wall time passed: the CPU time it
 * took, ms. */
static double spin_for(int n)
{
	double start = cpu_ms(), wall = now_ms();

	while (cpu_signals < n && now_ms() - wall < 5000)
		;
	return cpu_ms() - start;
}

static void show_itimer(const char *what, int which)
{
	struct itimerval v;
	long r = rsys(SYS_getitimer, which, &v);

	if (r) {
		show(what, r);
		return;
	}
	printf("%s: interval %ld ms, value %s\n", what,
	       v.it_interval.tv_sec * 1000 + v.it_interval.tv_usec / 1000,
	       v.it_value.tv_sec || v.it_value.tv_usec ? "running" : "0");
}

static void itimer_cpu(void)
{
	struct itimerval every100 = { { 0, 100000 }, { 0, 100000 } };
	struct itimerval once100 = { { 0, 0 }, { 0, 100000 } }, off = { 0 };
	struct timespec nap = { 0, 300000000 };
	double used;
	int status;
	pid_t pid;

	set_handler(SIGPROF, cpu_itimer_handler, SA_RESTART, NULL);
	set_handler(SIGVTALRM, cpu_itimer_handler, SA_RESTART, NULL);
	show_itimer("getitimer(ITIMER_PROF) at start", ITIMER_PROF);
	show("setitimer(ITIMER_PROF, 100ms of CPU every 100ms)",
	     rsys(SYS_setitimer, ITIMER_PROF, &every100, NULL));
	show_itimer("getitimer(ITIMER_PROF)", ITIMER_PROF);
	pid = fork();
	if (pid == 0) {
		show_itimer("child: getitimer(ITIMER_PROF)", ITIMER_PROF);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	used = spin_for(3);
	printf("3 SIGPROF while spinning: %s, si_code %s, after 250 to 600 ms of CPU: %s\n",
	       cpu_signals >= 3 ? "yes" : "no", cpu_code == SI_KERNEL ? "SI_KERNEL" : "other",
	       used >= 250 && used <= 600 ? "yes" : "no");
	cpu_signals = 0;
	nanosleep(&nap, NULL);
	printf("SIGPROF while asleep 300 ms: %d\n", (int)cpu_signals);
	show("setitimer(ITIMER_PROF, off)", rsys(SYS_setitimer, ITIMER_PROF, &off, NULL));

	cpu_signals = 0;
	show("setitimer(ITIMER_VIRTUAL, 100ms once)", rsys(SYS_setitimer, ITIMER_VIRTUAL, &once100, NULL));
	used = spin_for(1);
	printf("SIGVTALRM while spinning: %s, after 50 to 400 ms of CPU: %s\n",
	       cpu_signals == 1 ? "once" : "no", used >= 50 && used <= 400 ? "yes" : "no");
	show_itimer("getitimer(ITIMER_VIRTUAL) after", ITIMER_VIRTUAL);
	show("setitimer(3)", rsys(SYS_setitimer, 3, &once100, NULL));
	show("getitimer(-1)", rsys(SYS_getitimer, -1, &off));
}

/* ---- kill and sigqueue to a thread's id ---- */

static volatile pid_t handled_by;
static volatile int thread_ready, thread_done;

static void tid_handler(int sig, siginfo_t *si, void *uc)
{
	handled_by = (pid_t)syscall(SYS_gettid);
}

static pid_t thread_tid;

static void *tid_thread(void *arg)
{
	sigset_t set;

	if (arg) {		/* this thread blocks SIGUSR1 */
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
	}
	thread_tid = (pid_t)syscall(SYS_gettid);
	thread_ready = 1;
	while (!thread_done)
		msleep(5);
	return NULL;
}

static const char *who(pid_t tid)
{
	return tid == thread_tid ? "the thread named" :
	       tid == getpid() ? "the main thread" : tid ? "another thread" : "nobody";
}

static void tidkill_round(int blocks)
{
	siginfo_t si;
	pthread_t t;

	thread_ready = thread_done = 0;
	handled_by = 0;
	if (pthread_create(&t, NULL, tid_thread, blocks ? &t : NULL))
		die("pthread_create failed");
	while (!thread_ready)
		msleep(1);
	show("kill(tid, 0)", rsys(SYS_kill, thread_tid, 0));
	show("kill(tid, SIGUSR1)", rsys(SYS_kill, thread_tid, SIGUSR1));
	msleep(50);
	printf("  handled by: %s\n", who(handled_by));
	handled_by = 0;
	/* The system call itself: libc's sigqueue blocks every signal around
	 * it, so that the caller, unblocking, could take the signal before
	 * the thread named wakes (natively, a race between two CPUs). */
	si = (siginfo_t){ .si_signo = SIGUSR1, .si_code = SI_QUEUE };
	si.si_pid = getpid();
	si.si_uid = getuid();
	show("rt_sigqueueinfo(tid, SIGUSR1)", rsys(SYS_rt_sigqueueinfo, thread_tid, SIGUSR1, &si));
	msleep(50);
	printf("  handled by: %s\n", who(handled_by));
	thread_done = 1;
	pthread_join(t, NULL);
}

static void tidkill(void)
{
	set_handler(SIGUSR1, tid_handler, 0, NULL);
	printf("a thread that takes SIGUSR1:\n");
	tidkill_round(0);
	printf("a thread that blocks SIGUSR1:\n");
	tidkill_round(1);
	/* pthread_join returns once the kernel clears the thread's tid word,
	 * on its way out: until it is reaped, a moment later (on another
	 * CPU, natively), its id still names it. */
	for (int i = 0; i < 1000 && rsys(SYS_kill, thread_tid, 0) == 0; i++)
		msleep(1);
	show("kill(the joined thread's tid, 0)", rsys(SYS_kill, thread_tid, 0));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2)
		die("usage: sigcalls timedwait|queue|order|itimer|itimer-cpu|tidkill|alarm-sicode|altstack|altstack-frame");
	if (strcmp(argv[1], "sleep") == 0) {	/* a child to signal */
		msleep(10000);
		return 0;
	}
	t0 = now_ms();
	if (strcmp(argv[1], "timedwait") == 0)
		timedwait();
	else if (strcmp(argv[1], "queue") == 0)
		queue(argv[0]);
	else if (strcmp(argv[1], "order") == 0)
		order();
	else if (strcmp(argv[1], "itimer") == 0)
		itimer();
	else if (strcmp(argv[1], "itimer-cpu") == 0)
		itimer_cpu();
	else if (strcmp(argv[1], "tidkill") == 0)
		tidkill();
	else if (strcmp(argv[1], "alarm-sicode") == 0)
		alarm_sicode();
	else if (strcmp(argv[1], "altstack") == 0)
		altstack_calls();
	else if (strcmp(argv[1], "altstack-frame") == 0)
		altstack_frame();
	else
		die("unknown scenario %s", argv[1]);
	return 0;
}
