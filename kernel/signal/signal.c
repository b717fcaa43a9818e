/*
 * kernel/signal/signal.c: signal generation and get_signal (Linux's
 * kernel/signal.c). Delivery, frames and applying the restart decision are
 * in signal_deliver.c; the decision itself in restart.c.
 *
 * Generation: send_signal() queues a signal on a task (thread-directed) or on
 * its thread group (process-directed), after prepare_signal() has applied
 * job control (a stop flushes pending SIGCONT and the reverse) and discarded
 * it if ignored. complete_signal() picks a thread to wake and turns a fatal
 * signal into a group exit at once.
 *
 * Delivery happens on the way back to user mode: exit_to_user_mode_loop()
 * calls arch_do_signal_or_restart() (signal_deliver.c), which asks
 * get_signal() for a signal to act on. Default actions (ignore, stop,
 * terminate) are carried out inside get_signal(); a handler is returned to
 * be run.
 *
 * umk departs from Linux in one way: pid 1 is an ordinary process (no
 * SIGNAL_UNKILLABLE: umk's exit status is how a user learns what killed it).
 */
#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/sigframe.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/unistd.h>

#include <umk/sched/signal.h>

#define SYNCHRONOUS_MASK                                                       \
	(sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | sigmask(SIGTRAP) | \
	 sigmask(SIGFPE) | sigmask(SIGSYS))
#define SIG_KERNEL_STOP_MASK                                                   \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))
#define SIG_KERNEL_IGNORE_MASK                                                 \
	(sigmask(SIGCONT) | sigmask(SIGCHLD) | sigmask(SIGWINCH) | sigmask(SIGURG))
#define SIG_KERNEL_COREDUMP_MASK                                               \
	(sigmask(SIGQUIT) | sigmask(SIGILL) | sigmask(SIGTRAP) | sigmask(SIGABRT) | \
	 sigmask(SIGFPE) | sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGSYS) |  \
	 sigmask(SIGXCPU) | sigmask(SIGXFSZ))

static bool sig_in(int sig, unsigned long mask)
{
	return sig < SIGRTMIN && (sigmask(sig) & mask);
}
#define sig_kernel_stop(sig) sig_in(sig, SIG_KERNEL_STOP_MASK)
#define sig_kernel_ignore(sig) sig_in(sig, SIG_KERNEL_IGNORE_MASK)
#define sig_kernel_coredump(sig) sig_in(sig, SIG_KERNEL_COREDUMP_MASK)

static const char *const signal_names[_NSIG + 1] = {
	[SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT",
	[SIGILL] = "SIGILL", [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
	[SIGBUS] = "SIGBUS", [SIGFPE] = "SIGFPE", [SIGKILL] = "SIGKILL",
	[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
	[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
	[SIGSTKFLT] = "SIGSTKFLT", [SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT",
	[SIGSTOP] = "SIGSTOP", [SIGTSTP] = "SIGTSTP", [SIGTTIN] = "SIGTTIN",
	[SIGTTOU] = "SIGTTOU", [SIGURG] = "SIGURG", [SIGXCPU] = "SIGXCPU",
	[SIGXFSZ] = "SIGXFSZ", [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF",
	[SIGWINCH] = "SIGWINCH", [SIGIO] = "SIGIO", [SIGPWR] = "SIGPWR",
	[SIGSYS] = "SIGSYS",
};

const char *signal_name(int sig)
{
	static char rt[_NSIG + 1][12];

	if (sig < 1 || sig > _NSIG)
		return NULL;
	if (signal_names[sig])
		return signal_names[sig];
	if (!rt[sig][0])
		ksnprintf(rt[sig], sizeof(rt[sig]), "SIGRT%d", sig - SIGRTMIN);
	return rt[sig];
}

/* ---- pending sets ---- */

/* RLIMIT_SIGPENDING: queued siginfos of every user together, counted
 * over every process, against the target's soft limit (Linux's ucounts
 * count per real uid). Past it, real-time signals from sigqueue fail with
 * -EAGAIN and other signals are still sent without their siginfo. */
static unsigned long nr_sigqueues;

static struct sigqueue *sigqueue_alloc(int sig, struct task_struct *t, const kernel_siginfo_t *info)
{
	bool override_rlimit = sig < SIGRTMIN && info->si_code >= 0;
	struct sigqueue *q;

	if (nr_sigqueues + 1 > task_rlimit(t, RLIMIT_SIGPENDING) && !override_rlimit)
		return NULL;
	q = kmalloc(sizeof(*q));
	INIT_LIST_HEAD(&q->list);
	q->info = *info;
	nr_sigqueues++;
	return q;
}

/* A POSIX timer's sigqueue is the timer's: taking it off a queue drops the
 * timer's reference for it (kernel/time/posix-timers.c). */
static void sigqueue_free(struct sigqueue *q)
{
	if (q->flags & SIGQUEUE_PREALLOC) {
		posixtimer_sigqueue_putref(q);
		return;
	}
	nr_sigqueues--;
	kfree(q);
}

/* A periodic POSIX timer's signal flushed because it became ignored waits
 * for its handler to come back (sigqueue_free_ignored). */
static void sigqueue_free_ignored(struct sigqueue *q)
{
	if ((q->flags & SIGQUEUE_PREALLOC) && q->info.si_code == SI_TIMER)
		posixtimer_sig_ignore(q);
	else
		sigqueue_free(q);
}

void flush_sigqueue_mask(unsigned long mask, struct sigpending *p)
{
	struct sigqueue *q, *n;

	if (!(p->signal.sig & mask))
		return;
	p->signal.sig &= ~mask;
	list_for_each_entry_safe(q, n, &p->list, list) {
		if (sigmask(q->info.si_signo) & mask) {
			list_del_init(&q->list);
			sigqueue_free_ignored(q);
		}
	}
}

void flush_sigqueue(struct sigpending *p)
{
	struct sigqueue *q, *n;

	p->signal.sig = 0;
	list_for_each_entry_safe(q, n, &p->list, list) {
		list_del_init(&q->list);
		sigqueue_free(q);
	}
}

static bool has_pending_signals(const sigset_t *pending, const sigset_t *blocked)
{
	return pending->sig & ~blocked->sig;
}

static bool recalc_sigpending_tsk(struct task_struct *t)
{
	if ((t->jobctl & (JOBCTL_STOP_PENDING | JOBCTL_TRAP_MASK)) ||
	    has_pending_signals(&t->pending.signal, &t->blocked) ||
	    has_pending_signals(&t->signal->shared_pending.signal, &t->blocked)) {
		set_ti_flag(task_thread_info(t), TIF_SIGPENDING);
		return true;
	}
	return false;
}

void recalc_sigpending(void)
{
	if (!recalc_sigpending_tsk(current))
		clear_ti_flag(current_thread_info(), TIF_SIGPENDING);
}

void signal_wake_up(struct task_struct *t, bool fatal)
{
	set_ti_flag(task_thread_info(t), TIF_SIGPENDING);
	wake_up_state(t, TASK_INTERRUPTIBLE | (fatal ? TASK_WAKEKILL : 0));
}

/* ---- generation ---- */

bool sig_handler_ignored(void __user *handler, int sig)
{
	return handler == SIG_IGN || (handler == SIG_DFL && sig_kernel_ignore(sig));
}

static bool sig_ignored(struct task_struct *t, int sig)
{
	/* A blocked signal stays pending: the handler may change before it is
	 * unblocked. */
	if (sigismember(&t->blocked, sig) || sigismember(&t->real_blocked, sig))
		return false;
	if (sig_kernel_only(sig))
		return false;
	/* A tracer sees even an ignored signal (but SIGKILL). */
	if (t->ptrace && sig != SIGKILL)
		return false;
	return sig_handler_ignored(sig_action(t, sig)->handler, sig);
}

static void do_notify_parent_cldstop(struct task_struct *tsk, int why);

/* Job control at generation time. Returns false if sig is to be dropped. */
bool prepare_signal(int sig, struct task_struct *p)
{
	struct signal_struct *signal = p->signal;
	struct task_struct *t;

	if (signal->flags & SIGNAL_GROUP_EXIT) {
		return sig == SIGKILL;	/* the process is dying already */
	} else if (sig_kernel_stop(sig)) {
		flush_sigqueue_mask(sigmask(SIGCONT), &signal->shared_pending);
		for_each_thread(signal, t)
			flush_sigqueue_mask(sigmask(SIGCONT), &t->pending);
	} else if (sig == SIGCONT) {
		unsigned int why = 0;

		flush_sigqueue_mask(SIG_KERNEL_STOP_MASK, &signal->shared_pending);
		for_each_thread(signal, t) {
			flush_sigqueue_mask(SIG_KERNEL_STOP_MASK, &t->pending);
			t->jobctl &= ~JOBCTL_STOP_PENDING;
			wake_up_state(t, __TASK_STOPPED);
			if (t->ptrace & PT_SEIZED)
				ptrace_trap_notify(t);	/* PTRACE_LISTEN's wake-up */
		}
		if (signal->flags & SIGNAL_STOP_STOPPED)
			why = SIGNAL_CLD_CONTINUED;
		else if (signal->group_stop_count)
			why = SIGNAL_CLD_STOPPED;
		if (why) {
			/* The parent hears of it from the continued task, in
			 * get_signal: a stop cut short still reports CLD_STOPPED. */
			signal->flags = why | SIGNAL_STOP_CONTINUED;
			signal->group_stop_count = 0;
			signal->stop_report = 0;
			trace_with(TR_DELIVER,
				   &(struct trace_fields){ .other = p->tgid, .sig = SIGCONT,
							   .what = "continue" },
				   "SIGCONT -> continue %d", p->tgid);
		}
	}
	return !sig_ignored(p, sig);
}

/* Send SIGKILL to every thread of sig but keep (which may be NULL), and
 * wake it even from a stop (zap_other_threads). */
void zap_other_threads(struct task_struct *keep, struct signal_struct *sig)
{
	struct task_struct *t;

	sig->group_stop_count = 0;
	for_each_thread(sig, t) {
		if (t == keep)
			continue;
		t->jobctl &= ~JOBCTL_STOP_PENDING;
		sigaddset(&t->pending.signal, SIGKILL);
		signal_wake_up(t, true);
	}
}

static bool wants_signal(int sig, struct task_struct *p)
{
	if (sigismember(&p->blocked, sig))
		return false;
	if (p->exit_state || p->state == TASK_DEAD)
		return false;
	if (sig == SIGKILL)
		return true;
	return !(p->state & (__TASK_STOPPED | __TASK_TRACED));
}

static bool sig_fatal(struct task_struct *t, int sig)
{
	return !sig_kernel_ignore(sig) && !sig_kernel_stop(sig) &&
	       sig_action(t, sig)->handler == SIG_DFL;
}

static void complete_signal(int sig, struct task_struct *p, bool group)
{
	struct signal_struct *signal = p->signal;
	struct task_struct *t = p;

	if (group && !wants_signal(sig, p)) {
		bool found = false;

		for_each_thread(signal, t) {
			if (wants_signal(sig, t)) {
				found = true;
				break;
			}
		}
		if (!found)
			return;	/* every thread blocks it: it waits in shared_pending */
	} else if (!wants_signal(sig, p)) {
		return;
	}

	/* A fatal signal kills the whole group at once, as Linux does, but
	 * one that dumps core: the thread that takes it writes the core
	 * first, in get_signal. */
	if (sig_fatal(p, sig) && !sig_kernel_coredump(sig) && !(signal->flags & SIGNAL_GROUP_EXIT) &&
	    !sigismember(&t->real_blocked, sig) &&
	    (sig == SIGKILL || (!sigismember(&t->blocked, sig) && !p->ptrace))) {
		signal->flags = SIGNAL_GROUP_EXIT;
		signal->group_exit_code = sig;
		trace_with(TR_DELIVER,
			   &(struct trace_fields){ .other = p->tgid, .sig = sig, .what = "terminate" },
			   "%s -> terminate %d", signal_name(sig), p->tgid);
		zap_other_threads(NULL, signal);
		return;
	}
	signal_wake_up(t, sig == SIGKILL);
}

int send_signal(int sig, kernel_siginfo_t *info, struct task_struct *t, bool group)
{
	if (sig < 1 || sig > _NSIG)
		panic("send_signal: signal %d to pid %d", sig, t->pid);
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->pending;
	struct sigqueue *q;

	if (!prepare_signal(sig, t)) {
		trace_with(TR_SIGNAL, &(struct trace_fields){ .other = t->pid, .sig = sig, .what = "ignored" },
			   "%s -> %d ignored", signal_name(sig), t->pid);
		return 0;
	}
	/* Standard signals coalesce; real-time signals queue. */
	if (sig < SIGRTMIN && sigismember(&pending->signal, sig))
		return 0;
	trace_with(TR_SIGNAL, &(struct trace_fields){ .other = group ? t->tgid : t->pid, .sig = sig,
						      .what = group ? "process" : "thread" },
		   "%s -> %d%s", signal_name(sig), group ? t->tgid : t->pid, group ? "" : " (thread)");
	q = sigqueue_alloc(sig, t, info);
	if (q)
		list_add_tail(&q->list, &pending->list);
	else if (sig >= SIGRTMIN && info->si_code != SI_USER)
		return -EAGAIN;		/* queue overflow: sigqueue() sees it */
	/* else: sent all the same, its siginfo lost (collect_signal makes one) */
	signalfd_notify(t, sig);
	sigaddset(&pending->signal, sig);
	complete_signal(sig, t, group);
	return 0;
}

/* ---- POSIX timers' signals (kernel/time/posix-timers.c) ---- */

/* A timer's own sigqueue, made with the timer: it counts against
 * RLIMIT_SIGPENDING for as long as the timer exists, queued or not. false
 * past the limit. */
bool posixtimer_init_sigqueue(struct sigqueue *q)
{
	if (nr_sigqueues + 1 > rlimit(RLIMIT_SIGPENDING))
		return false;
	nr_sigqueues++;
	memset(&q->info, 0, sizeof(q->info));
	INIT_LIST_HEAD(&q->list);
	q->flags = SIGQUEUE_PREALLOC;
	return true;
}

/* The timer is freed: its sigqueue no longer counts. */
void posixtimer_free_sigqueue(struct sigqueue *q)
{
	(void)q;
	nr_sigqueues--;
}

/* Queue a timer's signal, which prepare_signal let through and is not
 * queued already (posixtimer_queue_sigqueue). */
void posixtimer_queue_sigqueue(struct sigqueue *q, struct task_struct *t, bool group)
{
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->pending;
	int sig = q->info.si_signo;

	trace_with(TR_SIGNAL, &(struct trace_fields){ .other = group ? t->tgid : t->pid, .sig = sig,
						      .what = group ? "process" : "thread" },
		   "%s -> %d%s", signal_name(sig), group ? t->tgid : t->pid, group ? "" : " (thread)");
	signalfd_notify(t, sig);
	list_add_tail(&q->list, &pending->list);
	sigaddset(&pending->signal, sig);
	complete_signal(sig, t, group);
}

/* exec: the old timers' signals go with them; other signals stay. */
static void __flush_itimer_signals(struct sigpending *pending)
{
	unsigned long signal = pending->signal.sig, retain = 0;
	struct sigqueue *q, *n;

	list_for_each_entry_safe(q, n, &pending->list, list) {
		if (q->info.si_code != SI_TIMER) {
			retain |= sigmask(q->info.si_signo);
		} else {
			signal &= ~sigmask(q->info.si_signo);
			list_del_init(&q->list);
			sigqueue_free(q);
		}
	}
	pending->signal.sig = signal | retain;
}

void flush_itimer_signals(void)
{
	__flush_itimer_signals(&current->pending);
	__flush_itimer_signals(&current->signal->shared_pending);
	recalc_sigpending();
}

void fill_kill_info(kernel_siginfo_t *info, int sig, int code)
{
	memset(info, 0, sizeof(*info));
	info->si_signo = sig;
	info->si_code = code;
	if (code == SI_USER || code == SI_TKILL) {
		info->_kill.pid = current->tgid;
		info->_kill.uid = current->cred.uid;
	}
}

int send_sig(int sig, struct task_struct *t, int priv)
{
	kernel_siginfo_t info;

	fill_kill_info(&info, sig, priv ? SI_KERNEL : SI_USER);
	return send_signal(sig, &info, t, false);
}

/* A signal the task cannot ignore or block: a fault it caused. If the
 * handler is SIG_IGN or the signal blocked, it is reset to the default,
 * so the task dies rather than loop on the fault (force_sig_info_to_task). */
static void force_sig_info(kernel_siginfo_t *info)
{
	struct task_struct *t = current;
	struct k_sigaction *ka = sig_action(t, info->si_signo);

	if (ka->handler == SIG_IGN || sigismember(&t->blocked, info->si_signo)) {
		ka->handler = SIG_DFL;
		sigdelset(&t->blocked, info->si_signo);
	}
	send_signal(info->si_signo, info, t, false);
}

void force_sig_fault(int sig, int code, unsigned long addr)
{
	kernel_siginfo_t info;

	memset(&info, 0, sizeof(info));
	info.si_signo = sig;
	info.si_code = code;
	info._sigfault.addr = (void __user *)addr;
	force_sig_info(&info);
}

void force_sigsegv(int sig)
{
	if (sig == SIGSEGV)
		sig_action(current, SIGSEGV)->handler = SIG_DFL;
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
}

/* ---- telling the parent ---- */

static void notify_parent(struct task_struct *tsk, struct task_struct *parent, int sig, int code,
			  int status)
{
	kernel_siginfo_t info;
	u64 utime, stime;

	/* clone() takes any exit signal in CSIGNAL; Linux sends only valid
	 * ones (do_notify_parent). */
	if (!valid_signal(sig))
		sig = 0;
	memset(&info, 0, sizeof(info));
	info.si_signo = sig;
	info.si_code = code;
	info._sigchld.pid = tsk->tgid;
	info._sigchld.uid = tsk->cred.uid;
	info._sigchld.status = status;
	/* the process's time, its exited threads' included (Linux adds
	 * signal->utime to the task's) */
	thread_group_cputime(tsk->signal, &utime, &stime);
	info._sigchld.utime = (long)nsec_to_clock_t(utime);
	info._sigchld.stime = (long)nsec_to_clock_t(stime);
	if (sig)
		send_signal(sig, &info, parent, true);
	wake_up(&parent->signal->wait_chldexit);
}

/* A thread group leader died: send its exit_signal to the parent. Returns
 * true if the parent does not want it (SIGCHLD ignored or SA_NOCLDWAIT),
 * so the caller reaps it itself. */
bool do_notify_parent(struct task_struct *tsk, int sig)
{
	/* A tracee's exit goes to its tracer first (kernel/ptrace.c). */
	struct task_struct *parent = tsk->ptrace ? tsk->parent : tsk->real_parent;
	struct k_sigaction *ka;
	int code, status;
	bool autoreap = false;

	if (!parent || parent == idle_task)
		panic("do_notify_parent: pid %d has no parent process", tsk->pid);
	ka = sig_action(parent, SIGCHLD);

	if (tsk->exit_code & 0x7f) {
		code = (tsk->exit_code & 0x80) ? CLD_DUMPED : CLD_KILLED;
		status = tsk->exit_code & 0x7f;
	} else {
		code = CLD_EXITED;
		status = (tsk->exit_code >> 8) & 0xff;
	}
	if (tsk->ptrace && parent->tgid != tsk->real_parent->tgid)
		sig = SIGCHLD;
	if (!tsk->ptrace && sig == SIGCHLD &&
	    (ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT))) {
		autoreap = true;
		if (ka->handler == SIG_IGN)
			sig = 0;
	}
	notify_parent(tsk, parent, sig, code, status);
	return autoreap;
}

static void do_notify_parent_cldstop(struct task_struct *tsk, int why)
{
	struct task_struct *parent = tsk->group_leader->real_parent;
	struct k_sigaction *ka;
	int sig = SIGCHLD;

	if (!parent || parent == idle_task)
		return;
	ka = sig_action(parent, SIGCHLD);
	if (ka->handler == SIG_IGN || (ka->flags & SA_NOCLDSTOP))
		sig = 0;
	notify_parent(tsk->group_leader, parent, sig, why,
		      why == CLD_STOPPED ? tsk->signal->stop_signr : SIGCONT);
}

/* ---- delivery ---- */

static int next_signal(struct sigpending *pending, const sigset_t *mask)
{
	unsigned long x = pending->signal.sig & ~mask->sig;

	if (!x)
		return 0;
	if (x & SYNCHRONOUS_MASK)
		x &= SYNCHRONOUS_MASK;
	return __builtin_ctzl(x) + 1;
}

/* A POSIX timer's signal is not freed but returned in *timer_sigq, for
 * dequeue_signal to ask its timer whether it still stands. */
static void collect_signal(int sig, struct sigpending *list, kernel_siginfo_t *info,
			   struct sigqueue **timer_sigq)
{
	struct sigqueue *q, *first = NULL;
	bool more = false;

	list_for_each_entry(q, &list->list, list) {
		if (q->info.si_signo != sig)
			continue;
		if (first) {
			more = true;
			break;
		}
		first = q;
	}
	if (!more)
		sigdelset(&list->signal, sig);
	if (first) {
		*info = first->info;
		list_del_init(&first->list);
		if ((first->flags & SIGQUEUE_PREALLOC) && info->si_code == SI_TIMER)
			*timer_sigq = first;
		else
			sigqueue_free(first);
	} else {
		fill_kill_info(info, sig, SI_USER);
		info->_kill.pid = 0;
	}
}

int dequeue_signal(const sigset_t *mask, kernel_siginfo_t *info)
{
	struct task_struct *t = current;
	struct sigqueue *timer_sigq;
	int sig;

again:
	timer_sigq = NULL;
	sig = next_signal(&t->pending, mask);
	if (sig) {
		collect_signal(sig, &t->pending, info, &timer_sigq);
	} else {
		sig = next_signal(&t->signal->shared_pending, mask);
		if (sig)
			collect_signal(sig, &t->signal->shared_pending, info, &timer_sigq);
	}
	recalc_sigpending();
	/* A POSIX timer's signal re-arms a periodic timer, or is dropped if
	 * the timer was re-set or deleted since it was queued. */
	if (timer_sigq && !posixtimer_deliver_signal(info, timer_sigq))
		goto again;
	return sig;
}

/* t's part in a group stop is done, by stopping or by exiting; the last
 * one completes the stop and tells the parent (task_participate_group_stop). */
void task_participate_group_stop(struct task_struct *t)
{
	struct signal_struct *sig = t->signal;

	if (!(t->jobctl & JOBCTL_STOP_PENDING))
		return;
	t->jobctl &= ~JOBCTL_STOP_PENDING;
	if (sig->group_stop_count > 0 && --sig->group_stop_count == 0) {
		sig->flags = SIGNAL_STOP_STOPPED;
		sig->stop_report = sig->stop_signr;
		do_notify_parent_cldstop(t, CLD_STOPPED);
	}
}

/* Join (or start) a group stop, and stay stopped until SIGCONT or SIGKILL.
 * signr is the stop signal, or 0 when joining a stop another thread began. */
static void do_signal_stop(int signr)
{
	struct signal_struct *sig = current->signal;
	struct task_struct *t;

	if (!(current->jobctl & JOBCTL_STOP_PENDING)) {
		sig->stop_signr = signr;
		sig->group_stop_count = 1;
		sig->flags &= ~SIGNAL_STOP_CONTINUED;
		current->jobctl |= JOBCTL_STOP_PENDING;
		for_each_thread(sig, t) {
			if (t == current || t->exit_state || t->state == TASK_DEAD)
				continue;
			t->jobctl |= JOBCTL_STOP_PENDING;
			sig->group_stop_count++;
			if (t->ptrace & PT_SEIZED)
				ptrace_trap_notify(t);
			else
				signal_wake_up(t, false);
		}
	}
	/* A tracee's part in the stop is a trap its tracer sees (get_signal). */
	if (current->ptrace) {
		current->jobctl |= JOBCTL_TRAP_STOP;
		return;
	}
	task_participate_group_stop(current);
	set_current_state(TASK_STOPPED);
	schedule();
	recalc_sigpending();
}

/* The next signal to act on. Default actions are carried out here; a
 * handler is returned in ksig for handle_signal(). */
bool get_signal(struct ksignal *ksig)
{
	struct signal_struct *signal = current->signal;
	int signr;

	for (;;) {
		struct k_sigaction *ka;

		if (signal->flags & SIGNAL_GROUP_EXIT)
			do_exit(signal->group_exit_code);
		if (signal->group_exec_task)
			do_exit(0);	/* another thread is in execve (de_thread) */
		if (signal->flags & SIGNAL_CLD_MASK) {
			int why = signal->flags & SIGNAL_CLD_CONTINUED ? CLD_CONTINUED : CLD_STOPPED;

			signal->flags &= ~SIGNAL_CLD_MASK;
			do_notify_parent_cldstop(current, why);
			continue;
		}
		if (current->jobctl & JOBCTL_TRAP_MASK) {
			do_jobctl_trap();
			continue;
		}
		if (current->jobctl & JOBCTL_STOP_PENDING) {
			do_signal_stop(0);
			continue;
		}
		signr = dequeue_signal(&current->blocked, &ksig->info);
		if (!signr)
			return false;
		/* signal-delivery-stop: the tracer may cancel or change it */
		if (current->ptrace && signr != SIGKILL) {
			signr = ptrace_signal(signr, &ksig->info);
			if (!signr)
				continue;
		}
		ka = sig_action(current, signr);
		if (ka->handler == SIG_IGN)
			continue;
		if (ka->handler != SIG_DFL) {
			ksig->ka = *ka;
			ksig->sig = signr;
			if (ka->flags & SA_RESETHAND)
				ka->handler = SIG_DFL;
			return true;
		}
		if (sig_kernel_ignore(signr))
			continue;
		if (sig_kernel_stop(signr)) {
			/* Job control does nothing in an orphaned group:
			 * nobody would continue it. SIGSTOP always stops. */
			if (signr != SIGSTOP &&
			    will_become_orphaned_pgrp(current->signal->pgrp, NULL))
				continue;
			trace_with(TR_DELIVER,
				   &(struct trace_fields){ .other = current->tgid, .sig = signr,
							   .what = "stop" },
				   "%s -> stop", signal_name(signr));
			do_signal_stop(signr);
			continue;
		}
		/* Terminate, after a core dump for the signals whose default
		 * action is one (kernel/fs/coredump.c): the core bit of the
		 * exit status says it was written. */
		trace_with(TR_DELIVER,
			   &(struct trace_fields){ .other = current->tgid, .sig = signr,
						   .what = "terminate" },
			   "%s -> terminate", signal_name(signr));
		if (sig_kernel_coredump(signr) && do_coredump(&ksig->info))
			do_group_exit(signr | 0x80);
		do_group_exit(signr);
	}
}

/* exec: handlers reset to SIG_DFL, except ignored ones (flush_signal_handlers). */
void flush_signal_handlers(struct task_struct *t)
{
	int i;

	for (i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &t->sighand->action[i];

		if (ka->handler != SIG_IGN)
			ka->handler = SIG_DFL;
		ka->flags = 0;
		ka->restorer = NULL;
		ka->mask.sig = 0;
	}
}
