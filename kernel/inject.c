/*
 * kernel/inject.c: --inject=CALL#N:SIG, a signal umk itself delivers while
 * the Nth sleeping occurrence of a system call sleeps (umk only; it is how
 * harness/umk-eintr/ interrupts a program's blocking calls one at a time,
 * docs/usage.md "Interrupting a blocking call").
 *
 * An occurrence of a call is one entry into it: a call restarted after a
 * signal is a new occurrence, and restart_syscall is a call of its own. An
 * occurrence is a sleeping one the first time its task leaves the CPU
 * inside it for the reason "sleep" (the trace's `switch ... (sleep)` line);
 * sleeping occurrences of CALL are numbered from 1 in the order of those
 * switches, over every task of every process, as umk-eintr numbers them
 * from the trace.
 *
 * At that switch schedule() calls inject_switch(); the signal is sent by the
 * next task to run, from finish_task_switch(), once the sleeper is off the
 * CPU, so the sleeper wakes as it would for any sender (sending it from
 * schedule() itself would wake prev while it is still current). SIG goes to
 * the sleeping thread, as tgkill(2) would send it, with si_code SI_KERNEL.
 * "stop" sends SIGSTOP to the sleeper's process and, once one of its tasks
 * has stopped, arms INJECT_CONT_NS of the kernel's clock after which SIGCONT
 * goes to the process: ^Z, then fg. Each --inject acts once.
 */
#include <umk/entry.h>
#include <umk/inject.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/signal.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/unistd.h>

#include <umk/sched/signal.h>
#include <umk/uapi/siginfo.h>

/* How long an injected stop lasts, on the kernel's clock. */
#define INJECT_CONT_NS (10 * NSEC_PER_MSEC)

static struct {
	int nr;				/* the call; -1: no --inject */
	unsigned long n;		/* its sleeping occurrence to interrupt, from 1 */
	int sig;			/* the signal, or SIGSTOP for "stop" (then SIGCONT) */
	unsigned long seen;		/* sleeping occurrences of nr so far */
	struct task_struct *sleeper;	/* to signal at the next finish_task_switch */
	pid_t stop_tgid;		/* "stop": the process, until its SIGCONT is armed */
	struct timer_list cont_timer;
} inject = { .nr = -1 };

static bool parse_ulong(const char *s, unsigned long *v)
{
	unsigned long r = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || r > (~0UL - 9) / 10)
			return false;
		r = r * 10 + (*s - '0');
	}
	*v = r;
	return true;
}

/* "SIGCHLD", "CHLD" or a number 1..31. */
static int parse_signal(const char *s)
{
	unsigned long v;
	int sig;

	if (parse_ulong(s, &v))
		return v >= 1 && v < SIGRTMIN ? (int)v : 0;
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (sig = 1; sig < SIGRTMIN; sig++) {
		const char *name = signal_name(sig);

		if (name && !strcmp(name + 3, s))
			return sig;
	}
	return 0;
}

const char *inject_setup(const char *spec)
{
	char call[32];
	const char *hash = NULL, *colon = NULL, *p;
	size_t len;
	long nr;

	for (p = spec; *p; p++) {
		if (*p == '#' && !hash)
			hash = p;
		else if (*p == ':' && hash && !colon)
			colon = p;
	}
	if (!hash || !colon)
		return "is not CALL#N:SIGNAL (read#3:SIGCHLD, epoll_wait#1:stop)";
	len = hash - spec;
	if (!len || len >= sizeof(call))
		return "names no system call";
	memcpy(call, spec, len);
	call[len] = 0;
	for (nr = 0; nr < NR_syscalls; nr++)
		if (!strcmp(syscall_name(nr), call))
			break;
	if (nr == NR_syscalls)
		return "names no system call umk knows";
	len = colon - hash - 1;
	if (len >= 21)
		return "has no occurrence N (1 or more)";
	memcpy(call, hash + 1, len);
	call[len] = 0;
	if (!parse_ulong(call, &inject.n) || !inject.n)
		return "has no occurrence N (1 or more)";
	if (!strcmp(colon + 1, "stop"))
		inject.sig = SIGSTOP;
	else if (!(inject.sig = parse_signal(colon + 1)))
		return "has no signal (a name like SIGCHLD, a number 1-31, or stop)";
	inject.nr = nr;
	return NULL;
}

void inject_syscall_enter(long nr)
{
	current->inject_call = nr + 1;
	current->inject_slept = false;
}

void inject_syscall_exit(void)
{
	current->inject_call = 0;
}

static void inject_cont(struct timer_list *t)
{
	struct task_struct *p = find_task_by_pid(inject.stop_tgid);
	kernel_siginfo_t info;

	if (!p || p->exit_state)
		return;
	fill_kill_info(&info, SIGCONT, SI_KERNEL);
	send_signal(SIGCONT, &info, p, true);
}

void inject_switch(struct task_struct *prev, const char *why)
{
	if (inject.nr < 0)
		return;
	if (inject.stop_tgid && prev->tgid == inject.stop_tgid && !strcmp(why, "stop")) {
		timer_setup(&inject.cont_timer, inject_cont, "inject_cont");
		mod_timer(&inject.cont_timer, ktime_get() + INJECT_CONT_NS);
		inject.nr = -1;		/* done: the SIGCONT is armed */
		return;
	}
	if (strcmp(why, "sleep") || prev->inject_call != inject.nr + 1 || prev->inject_slept)
		return;
	prev->inject_slept = true;
	if (++inject.seen == inject.n)
		inject.sleeper = prev;
}

void inject_finish_switch(void)
{
	struct task_struct *t = inject.sleeper;
	kernel_siginfo_t info;

	if (!t)
		return;
	inject.sleeper = NULL;
	fill_kill_info(&info, inject.sig, SI_KERNEL);
	if (inject.sig == SIGSTOP) {
		inject.stop_tgid = t->tgid;
		send_signal(SIGSTOP, &info, t, true);
	} else {
		inject.nr = -1;		/* done */
		send_signal(inject.sig, &info, t, false);
	}
}
