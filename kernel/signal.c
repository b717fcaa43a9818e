/*
 * kernel/signal.c: signal generation, delivery and the restart decision
 * (kernel/signal.c and arch/x86/kernel/signal.c of Linux).
 *
 * Generation: send_signal() queues a signal on a task (thread-directed) or on
 * its thread group (process-directed), after prepare_signal() has applied
 * job control (a stop flushes pending SIGCONT and the reverse) and discarded
 * it if ignored. complete_signal() picks a thread to wake and turns a fatal
 * signal into a group exit at once.
 *
 * Delivery happens on the way back to user mode: exit_to_user_mode_loop()
 * calls arch_do_signal_or_restart(), which asks get_signal() for a signal to
 * act on. Default actions (ignore, stop, terminate) are carried out inside
 * get_signal(); a handler is returned to be run. Then comes the restart
 * decision, two switch statements as in Linux: one for "a handler will run",
 * one for "no handler".
 *
 * umk departs from Linux in two ways: pid 1 is an ordinary process (no
 * SIGNAL_UNKILLABLE: umk's exit status is how a user learns what killed it),
 * and all processes form one process group, so kill(0, sig) and
 * kill(-1, sig) reach every process.
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/sigframe.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/unistd.h>

#define SYNCHRONOUS_MASK                                                       \
	(sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | sigmask(SIGTRAP) | \
	 sigmask(SIGFPE) | sigmask(SIGSYS))
#define SIG_KERNEL_ONLY_MASK (sigmask(SIGKILL) | sigmask(SIGSTOP))
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
#define sig_kernel_only(sig) sig_in(sig, SIG_KERNEL_ONLY_MASK)
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
		snprintf(rt[sig], sizeof(rt[sig]), "SIGRT%d", sig - SIGRTMIN);
	return rt[sig];
}

static inline struct k_sigaction *sig_action(struct task_struct *t, int sig)
{
	return &t->sighand->action[sig - 1];
}

static bool valid_signal(unsigned long sig)
{
	return sig <= _NSIG;
}

/* ---- pending sets ---- */

static void flush_sigqueue_mask(unsigned long mask, struct sigpending *p)
{
	struct sigqueue *q, *n;

	if (!(p->signal.sig & mask))
		return;
	p->signal.sig &= ~mask;
	list_for_each_entry_safe(q, n, &p->list, list) {
		if (sigmask(q->info.si_signo) & mask) {
			list_del_init(&q->list);
			kfree(q);
		}
	}
}

void flush_sigqueue(struct sigpending *p)
{
	flush_sigqueue_mask(~0UL, p);
}

static bool has_pending_signals(const sigset_t *pending, const sigset_t *blocked)
{
	return pending->sig & ~blocked->sig;
}

static bool recalc_sigpending_tsk(struct task_struct *t)
{
	if ((t->jobctl & JOBCTL_STOP_PENDING) ||
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

static void signal_wake_up(struct task_struct *t, bool fatal)
{
	set_ti_flag(task_thread_info(t), TIF_SIGPENDING);
	wake_up_state(t, TASK_INTERRUPTIBLE | (fatal ? TASK_WAKEKILL : 0));
}

/* ---- generation ---- */

static bool sig_handler_ignored(void __user *handler, int sig)
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
	return sig_handler_ignored(sig_action(t, sig)->handler, sig);
}

#define for_each_thread(sig, t) list_for_each_entry(t, &(sig)->thread_head, thread_node)

void do_notify_parent_cldstop(struct task_struct *tsk, int why);

/* Job control at generation time. Returns false if sig is to be dropped. */
static bool prepare_signal(int sig, struct task_struct *p)
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
		}
		if (signal->flags & SIGNAL_STOP_STOPPED)
			why = SIGNAL_CLD_CONTINUED;
		else if (signal->group_stop_count)
			why = SIGNAL_CLD_STOPPED;
		if (why) {
			signal->flags = why | SIGNAL_STOP_CONTINUED;
			signal->group_stop_count = 0;
			trace(TR_DELIVER, "SIGCONT -> continue %d", p->tgid);
			if (why == SIGNAL_CLD_CONTINUED)
				do_notify_parent_cldstop(p->group_leader, CLD_CONTINUED);
		}
	}
	return !sig_ignored(p, sig);
}

static bool wants_signal(int sig, struct task_struct *p)
{
	if (sigismember(&p->blocked, sig))
		return false;
	if (p->exit_state || p->state == TASK_DEAD)
		return false;
	if (sig == SIGKILL)
		return true;
	return !(p->state & __TASK_STOPPED);
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

	/* A fatal signal kills the whole group at once, as Linux does. */
	if (sig_fatal(p, sig) && !(signal->flags & SIGNAL_GROUP_EXIT) &&
	    !sigismember(&t->real_blocked, sig) &&
	    (sig == SIGKILL || !sigismember(&t->blocked, sig))) {
		signal->flags = SIGNAL_GROUP_EXIT;
		signal->group_exit_code = sig;
		signal->group_stop_count = 0;
		trace(TR_DELIVER, "%s -> terminate %d", signal_name(sig), p->tgid);
		for_each_thread(signal, t) {
			t->jobctl &= ~JOBCTL_STOP_PENDING;
			sigaddset(&t->pending.signal, SIGKILL);
			signal_wake_up(t, true);
		}
		return;
	}
	signal_wake_up(t, sig == SIGKILL);
}

static int send_signal(int sig, kernel_siginfo_t *info, struct task_struct *t, bool group)
{
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->pending;
	struct sigqueue *q;

	if (!prepare_signal(sig, t)) {
		trace(TR_SIGNAL, "%s -> %d ignored", signal_name(sig), t->pid);
		return 0;
	}
	/* Standard signals coalesce; real-time signals queue. */
	if (sig < SIGRTMIN && sigismember(&pending->signal, sig))
		return 0;
	trace(TR_SIGNAL, "%s -> %d%s", signal_name(sig), group ? t->tgid : t->pid,
	      group ? "" : " (thread)");
	q = kmalloc(sizeof(*q));
	INIT_LIST_HEAD(&q->list);
	q->info = *info;
	list_add_tail(&q->list, &pending->list);
	sigaddset(&pending->signal, sig);
	complete_signal(sig, t, group);
	return 0;
}

static void fill_kill_info(kernel_siginfo_t *info, int sig, int code)
{
	memset(info, 0, sizeof(*info));
	info->si_signo = sig;
	info->si_code = code;
	if (code == SI_USER || code == SI_TKILL) {
		info->_kill.pid = current->tgid;
		info->_kill.uid = 0;
	}
}

int send_sig(int sig, struct task_struct *t, int priv)
{
	kernel_siginfo_t info;

	fill_kill_info(&info, sig, priv ? SI_KERNEL : SI_USER);
	return send_signal(sig, &info, t, false);
}

int send_sig_info(int sig, kernel_siginfo_t *info, struct task_struct *t, bool group)
{
	return send_signal(sig, info, t, group);
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

	memset(&info, 0, sizeof(info));
	info.si_signo = sig;
	info.si_code = code;
	info._sigchld.pid = tsk->tgid;
	info._sigchld.uid = 0;
	info._sigchld.status = status;
	info._sigchld.utime = tsk->sum_exec_ns / (NSEC_PER_SEC / 100);
	if (sig)
		send_signal(sig, &info, parent, true);
	wake_up(&parent->signal->wait_chldexit);
}

/* A thread group leader died: send its exit_signal to the parent. Returns
 * true if the parent does not want it (SIGCHLD ignored or SA_NOCLDWAIT),
 * so the caller reaps it itself. */
bool do_notify_parent(struct task_struct *tsk, int sig)
{
	struct task_struct *parent = tsk->real_parent;
	struct k_sigaction *ka = sig_action(parent, SIGCHLD);
	int code, status;
	bool autoreap = false;

	if (tsk->exit_code & 0x7f) {
		code = (tsk->exit_code & 0x80) ? CLD_DUMPED : CLD_KILLED;
		status = tsk->exit_code & 0x7f;
	} else {
		code = CLD_EXITED;
		status = (tsk->exit_code >> 8) & 0xff;
	}
	if (sig == SIGCHLD &&
	    (ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT))) {
		autoreap = true;
		if (ka->handler == SIG_IGN)
			sig = 0;
	}
	notify_parent(tsk, parent, sig, code, status);
	return autoreap;
}

void do_notify_parent_cldstop(struct task_struct *tsk, int why)
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

static void collect_signal(int sig, struct sigpending *list, kernel_siginfo_t *info)
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
		kfree(first);
	} else {
		fill_kill_info(info, sig, SI_USER);
		info->_kill.pid = 0;
	}
}

int dequeue_signal(const sigset_t *mask, kernel_siginfo_t *info)
{
	struct task_struct *t = current;
	int sig = next_signal(&t->pending, mask);

	if (sig) {
		collect_signal(sig, &t->pending, info);
	} else {
		sig = next_signal(&t->signal->shared_pending, mask);
		if (sig)
			collect_signal(sig, &t->signal->shared_pending, info);
	}
	recalc_sigpending();
	return sig;
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
		for_each_thread(sig, t) {
			if (t == current || t->exit_state || t->state == TASK_DEAD)
				continue;
			t->jobctl |= JOBCTL_STOP_PENDING;
			sig->group_stop_count++;
			signal_wake_up(t, false);
		}
	}
	current->jobctl &= ~JOBCTL_STOP_PENDING;
	if (sig->group_stop_count > 0 && --sig->group_stop_count == 0) {
		sig->flags = SIGNAL_STOP_STOPPED | SIGNAL_CLD_STOPPED;
		do_notify_parent_cldstop(current, CLD_STOPPED);
	}
	set_current_state(TASK_STOPPED);
	schedule();
	recalc_sigpending();
}

/* The next signal to act on. Default actions are carried out here; a
 * handler is returned in ksig for handle_signal(). */
static bool get_signal(struct ksignal *ksig)
{
	struct signal_struct *signal = current->signal;
	int signr;

	for (;;) {
		struct k_sigaction *ka;

		if (signal->flags & SIGNAL_GROUP_EXIT)
			do_exit(signal->group_exit_code);
		if (current->jobctl & JOBCTL_STOP_PENDING) {
			do_signal_stop(0);
			continue;
		}
		signr = dequeue_signal(&current->blocked, &ksig->info);
		if (!signr)
			return false;
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
			trace(TR_DELIVER, "%s -> stop", signal_name(signr));
			do_signal_stop(signr);
			continue;
		}
		/* Terminate (and "dump core": umk writes no core file). */
		trace(TR_DELIVER, "%s -> terminate", signal_name(signr));
		do_group_exit(signr);
	}
}

/* The mask a handler's sigreturn must restore: the one a temporary mask
 * (sigsuspend, ppoll, pselect6) replaced, if any. */
static sigset_t *sigmask_to_save(void)
{
	if (test_ti_flag(current_thread_info(), TIF_RESTORE_SIGMASK))
		return &current->saved_sigmask;
	return &current->blocked;
}

/* Where the frame goes: below the red zone, or on the sigaltstack. */
static unsigned long get_sigframe_sp(struct ksignal *ksig, struct pt_regs *regs, size_t fpsize,
				     unsigned long *fp)
{
	struct task_struct *t = current;
	unsigned long sp = regs->sp - 128;
	bool on_stack = t->sas_ss_size && sp - t->sas_ss_sp < t->sas_ss_size;

	if ((ksig->ka.flags & SA_ONSTACK) && t->sas_ss_size && !on_stack) {
		sp = t->sas_ss_sp + t->sas_ss_size;
		if (t->sas_ss_flags & SS_AUTODISARM) {
			t->sas_ss_sp = 0;
			t->sas_ss_size = 0;
		}
	}
	sp = ALIGN_DOWN(sp - fpsize, 64);
	*fp = sp;
	sp -= sizeof(struct rt_sigframe);
	return ALIGN_DOWN(sp, 16) - 8;
}

#define FP_XSTATE_MAGIC1 0x46505853U
static size_t fpstate_size(const void *fp)
{
	const u32 *sw = (const u32 *)((const char *)fp + 464);

	return fp ? (sw[0] == FP_XSTATE_MAGIC1 ? sw[1] : 512) : 0;
}

/* Build the rt_sigframe on the user stack (setup_rt_frame in
 * arch/x86/kernel/signal_64.c) and point regs at the handler. */
static int setup_rt_frame(struct ksignal *ksig, struct pt_regs *regs)
{
	struct task_struct *t = current;
	size_t fpsize = fpstate_size(regs->fpstate);
	unsigned long fp, frame_sp;
	struct rt_sigframe frame;
	stack_t old_ss = { (void __user *)t->sas_ss_sp, (int)t->sas_ss_flags, t->sas_ss_size };

	/* x86-64 has no default restorer: without SA_RESTORER it cannot return. */
	if (!(ksig->ka.flags & SA_RESTORER))
		return -EFAULT;
	frame_sp = get_sigframe_sp(ksig, regs, fpsize, &fp);

	memset(&frame, 0, sizeof(frame));
	frame.pretcode = ksig->ka.restorer;
	frame.info = ksig->info;
	frame.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS | (fpsize > 512 ? UC_FP_XSTATE : 0);
	if (!old_ss.ss_size)
		old_ss.ss_flags = SS_DISABLE;
	else if (frame_sp - t->sas_ss_sp < t->sas_ss_size)
		old_ss.ss_flags |= SS_ONSTACK;
	frame.uc.uc_stack = old_ss;
	frame.uc.uc_mcontext = *regs;
	frame.uc.uc_mcontext.trapno = 0;	/* umk's fs slot: not the user's */
	frame.uc.uc_mcontext.cr2 = 0;		/* umk's selector slot */
	frame.uc.uc_mcontext.err = 0;
	frame.uc.uc_mcontext.oldmask = sigmask_to_save()->sig;
	frame.uc.uc_mcontext.fpstate = fpsize ? (void *)fp : NULL;
	memset(frame.uc.uc_mcontext.reserved1, 0, sizeof(frame.uc.uc_mcontext.reserved1));
	frame.uc.uc_sigmask = *sigmask_to_save();

	if (copy_to_user((void __user *)frame_sp, &frame, sizeof(frame)))
		return -EFAULT;
	if (fpsize && copy_to_user((void __user *)fp, regs->fpstate, fpsize))
		return -EFAULT;

	regs->di = ksig->sig;
	regs->si = frame_sp + offsetof(struct rt_sigframe, info);
	regs->dx = frame_sp + offsetof(struct rt_sigframe, uc);
	regs->ax = 0;
	regs->sp = frame_sp;
	regs->ip = (unsigned long)ksig->ka.handler;
	regs->flags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	/* The handler starts with a fresh FPU, as on Linux: the host restores
	 * none when the frame has no FPU state. */
	regs->fpstate = NULL;
	trace(TR_DELIVER, "%s -> handler %#lx frame %#lx%s", signal_name(ksig->sig),
	      (unsigned long)ksig->ka.handler, frame_sp,
	      frame_sp >= t->sas_ss_sp && frame_sp - t->sas_ss_sp < old_ss.ss_size ? " (altstack)" : "");
	return 0;
}

static void set_current_blocked(sigset_t *newset)
{
	newset->sig &= ~SIG_KERNEL_ONLY_MASK;
	current->blocked = *newset;
	recalc_sigpending();
}

static const char *errname(long err)
{
	const char *n = errno_name(-err);

	return n ? n : "?";
}

static void trace_restart(struct pt_regs *regs, long err, const char *decision)
{
	trace(TR_RESTART, "%s %s -> %s", syscall_name(current->orig_ax), errname(err), decision);
}

static void handle_signal(struct ksignal *ksig, struct pt_regs *regs)
{
	sigset_t blocked;

	/* Are we from a system call? Then the restart decision, "a handler
	 * will run" column. */
	if (current->orig_ax >= 0) {
		long err = regs->ax;

		switch (err) {
		case -ERESTART_RESTARTBLOCK:
		case -ERESTARTNOHAND:
			regs->ax = -EINTR;
			trace_restart(regs, err, "EINTR (handler)");
			break;
		case -ERESTARTSYS:
			if (!(ksig->ka.flags & SA_RESTART)) {
				regs->ax = -EINTR;
				trace_restart(regs, err, "EINTR (handler without SA_RESTART)");
				break;
			}
			regs->ax = current->orig_ax;
			regs->ip -= SYSCALL_INSN_LEN;
			trace_restart(regs, err, "restart after handler (SA_RESTART)");
			break;
		case -ERESTARTNOINTR:
			regs->ax = current->orig_ax;
			regs->ip -= SYSCALL_INSN_LEN;
			trace_restart(regs, err, "restart after handler");
			break;
		}
	}

	if (setup_rt_frame(ksig, regs)) {
		trace(TR_DELIVER, "%s -> cannot build the frame: SIGSEGV", signal_name(ksig->sig));
		force_sigsegv(ksig->sig);
		return;
	}
	/* The frame holds the mask sigreturn restores; the handler runs under
	 * the current (maybe temporary) one plus sa_mask (signal_delivered). */
	clear_ti_flag(current_thread_info(), TIF_RESTORE_SIGMASK);
	blocked.sig = current->blocked.sig | ksig->ka.mask.sig;
	if (!(ksig->ka.flags & SA_NODEFER))
		sigaddset(&blocked, ksig->sig);
	set_current_blocked(&blocked);
}

static void restore_saved_sigmask(void)
{
	if (test_ti_flag(current_thread_info(), TIF_RESTORE_SIGMASK)) {
		clear_ti_flag(current_thread_info(), TIF_RESTORE_SIGMASK);
		set_current_blocked(&current->saved_sigmask);
	}
}

int set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize)
{
	sigset_t kmask;

	if (!umask)
		return 0;
	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&kmask, umask, sizeof(kmask)))
		return -EFAULT;
	set_ti_flag(current_thread_info(), TIF_RESTORE_SIGMASK);
	current->saved_sigmask = current->blocked;
	set_current_blocked(&kmask);
	return 0;
}

/* An interrupted call keeps the temporary mask until the signal is acted
 * on (the handler must run under it); otherwise it goes now. */
void restore_saved_sigmask_unless(bool interrupted)
{
	if (!interrupted)
		restore_saved_sigmask();
}

/* Called on the way to user mode with TIF_SIGPENDING set. */
void arch_do_signal_or_restart(struct pt_regs *regs)
{
	struct ksignal ksig;

	if (get_signal(&ksig)) {
		handle_signal(&ksig, regs);
		return;
	}

	/* No handler will run: restart the system call, "no handler" column. */
	if (current->orig_ax >= 0) {
		long err = regs->ax;

		switch (err) {
		case -ERESTARTNOHAND:
		case -ERESTARTSYS:
		case -ERESTARTNOINTR:
			regs->ax = current->orig_ax;
			regs->ip -= SYSCALL_INSN_LEN;
			trace_restart(regs, err, "restart");
			break;
		case -ERESTART_RESTARTBLOCK:
			regs->ax = __NR_restart_syscall;
			regs->ip -= SYSCALL_INSN_LEN;
			trace_restart(regs, err, "restart_syscall");
			break;
		}
	}
	/* No handler to restore it: put back the mask sigsuspend replaced. */
	restore_saved_sigmask();
}

long do_no_restart_syscall(struct restart_block *param)
{
	return -EINTR;
}

long sys_restart_syscall(void)
{
	struct restart_block *restart = &current_thread_info()->restart_block;

	trace(TR_RESTART, "restart_syscall -> %s", restart->fn_name);
	return restart->fn(restart);
}

static bool on_sig_stack(unsigned long sp)
{
	struct task_struct *t = current;

	if (t->sas_ss_flags & SS_AUTODISARM)
		return false;
	return sp - t->sas_ss_sp < t->sas_ss_size;
}

static int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp)
{
	struct task_struct *t = current;

	if (oss) {
		oss->ss_sp = (void __user *)t->sas_ss_sp;
		oss->ss_size = t->sas_ss_size;
		oss->ss_flags = (t->sas_ss_size ? 0 : SS_DISABLE) | t->sas_ss_flags |
				(on_sig_stack(sp) ? SS_ONSTACK : 0);
		if (!t->sas_ss_size)
			oss->ss_flags = SS_DISABLE | (t->sas_ss_flags & SS_AUTODISARM);
	}
	if (ss) {
		unsigned int flags = ss->ss_flags & ~SS_AUTODISARM;

		if (on_sig_stack(sp))
			return -EPERM;
		if (flags != SS_DISABLE && flags != SS_ONSTACK && flags != 0)
			return -EINVAL;
		if (flags == SS_DISABLE) {
			t->sas_ss_sp = 0;
			t->sas_ss_size = 0;
			t->sas_ss_flags = SS_DISABLE;
		} else {
			if (ss->ss_size < 2048)	/* MINSIGSTKSZ */
				return -ENOMEM;
			t->sas_ss_sp = (unsigned long)ss->ss_sp;
			t->sas_ss_size = ss->ss_size;
			t->sas_ss_flags = ss->ss_flags & SS_AUTODISARM;
		}
	}
	return 0;
}

long sys_sigaltstack(const stack_t __user *uss, stack_t __user *uoss)
{
	stack_t new, old;
	int err;

	if (uss && copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	err = do_sigaltstack(uss ? &new : NULL, &old, current->regs->sp);
	if (!err && uoss && copy_to_user(uoss, &old, sizeof(old)))
		err = -EFAULT;
	return err;
}

/* rt_sigreturn: the altstack as the frame saved it; errors are ignored, as
 * Linux's restore_altstack does. */
static void sys_sigaltstack_restore(const stack_t *ss)
{
	do_sigaltstack(ss, NULL, current->regs->sp);
}

long sys_rt_sigreturn(void)
{
	struct pt_regs *regs = current->regs;
	struct rt_sigframe __user *frame = (struct rt_sigframe __user *)(regs->sp - sizeof(long));
	struct ucontext uc;
	struct pt_regs *sc = &uc.uc_mcontext;
	size_t fpsize = fpstate_size(regs->fpstate);
	sigset_t set;

	if (copy_from_user(&uc, &frame->uc, sizeof(uc)))
		goto badframe;
	set = uc.uc_sigmask;
	set_current_blocked(&set);

	regs->r8 = sc->r8; regs->r9 = sc->r9; regs->r10 = sc->r10; regs->r11 = sc->r11;
	regs->r12 = sc->r12; regs->r13 = sc->r13; regs->r14 = sc->r14; regs->r15 = sc->r15;
	regs->di = sc->di; regs->si = sc->si; regs->bp = sc->bp; regs->bx = sc->bx;
	regs->dx = sc->dx; regs->ax = sc->ax; regs->cx = sc->cx; regs->sp = sc->sp;
	regs->ip = sc->ip;
	/* Only the flags a program may change (FIX_EFLAGS). */
	regs->flags = (regs->flags & ~0x50dd5UL) | (sc->flags & 0x50dd5UL);
	if (!sc->fpstate) {
		regs->fpstate = NULL;
	} else if (regs->fpstate) {
		if (fpstate_size((const void *)sc->fpstate) != fpsize &&
		    fpstate_size(regs->fpstate) != fpsize)
			goto badframe;
		if (copy_from_user(regs->fpstate, sc->fpstate, fpsize))
			goto badframe;
	}
	sys_sigaltstack_restore(&uc.uc_stack);

	/* A restored rax must never be taken for a restart code. */
	current->orig_ax = -1;
	set_restart_fn(&current_thread_info()->restart_block, do_no_restart_syscall);
	trace(TR_DELIVER, "sigreturn -> ip %#lx", regs->ip);
	return regs->ax;

badframe:
	trace(TR_DELIVER, "sigreturn: bad frame -> SIGSEGV");
	force_sigsegv(SIGSEGV);
	return 0;
}

/* ---- system calls ---- */

static int kill_proc(pid_t tgid, int sig, kernel_siginfo_t *info)
{
	struct task_struct *p = find_task_by_pid(tgid);

	if (!p || p->tgid != tgid || p == idle_task)
		return -ESRCH;
	if (!sig)
		return 0;
	if (p->exit_state && list_empty(&p->signal->thread_head))
		return 0;	/* a zombie: nothing to do */
	return send_signal(sig, info, p, true);
}

long sys_kill(pid_t pid, int sig)
{
	kernel_siginfo_t info;
	struct task_struct *p;
	int ret = -ESRCH;

	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	fill_kill_info(&info, sig, SI_USER);
	if (pid > 0)
		return kill_proc(pid, sig, &info);
	if (pid < -1 && -pid != 1)
		return -ESRCH;	/* umk's only process group is 1 */
	/* 0, -1, -1 (pgrp 1): every process; -1 spares pid 1 and the caller. */
	list_for_each_entry(p, &task_list, tasks) {
		if (!thread_group_leader(p) || p == idle_task || p->exit_state)
			continue;
		if (pid == -1 && (p->tgid == 1 || p->tgid == current->tgid))
			continue;
		ret = 0;
		if (sig)
			send_signal(sig, &info, p, true);
	}
	return ret;
}

static long do_tkill(pid_t tgid, pid_t pid, int sig)
{
	kernel_siginfo_t info;
	struct task_struct *p = find_task_by_pid(pid);

	if (!p || p == idle_task || (tgid > 0 && p->tgid != tgid) || p->exit_state)
		return -ESRCH;
	if (!sig)
		return 0;
	fill_kill_info(&info, sig, SI_TKILL);
	return send_signal(sig, &info, p, false);
}

long sys_tgkill(pid_t tgid, pid_t pid, int sig)
{
	if (pid <= 0 || tgid <= 0)
		return -EINVAL;
	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	return do_tkill(tgid, pid, sig);
}

long sys_tkill(pid_t pid, int sig)
{
	if (pid <= 0)
		return -EINVAL;
	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	return do_tkill(0, pid, sig);
}

long sys_rt_sigprocmask(int how, sigset_t __user *nset, sigset_t __user *oset, size_t sigsetsize)
{
	sigset_t old = current->blocked, new;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (nset) {
		if (copy_from_user(&new, nset, sizeof(new)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			new.sig |= old.sig;
			break;
		case SIG_UNBLOCK:
			new.sig = old.sig & ~new.sig;
			break;
		case SIG_SETMASK:
			break;
		default:
			return -EINVAL;
		}
		set_current_blocked(&new);
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

#define UAPI_SA_FLAGS                                                          \
	(SA_NOCLDSTOP | SA_NOCLDWAIT | SA_SIGINFO | SA_ONSTACK | SA_RESTART |   \
	 SA_NODEFER | SA_RESETHAND | SA_EXPOSE_TAGBITS | SA_RESTORER)

long sys_rt_sigaction(int sig, const struct k_sigaction __user *act,
		      struct k_sigaction __user *oact, size_t sigsetsize)
{
	struct k_sigaction new, old;
	struct k_sigaction *k;
	struct task_struct *t;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (sig < 1 || sig > _NSIG || (act && sig_kernel_only(sig)))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	k = sig_action(current, sig);
	old = *k;
	if (act) {
		new.flags &= UAPI_SA_FLAGS;
		new.mask.sig &= ~SIG_KERNEL_ONLY_MASK;
		*k = new;
		/* POSIX: setting a pending signal to be ignored discards it. */
		if (sig_handler_ignored(new.handler, sig)) {
			flush_sigqueue_mask(sigmask(sig), &current->signal->shared_pending);
			for_each_thread(current->signal, t)
				flush_sigqueue_mask(sigmask(sig), &t->pending);
			recalc_sigpending();
		}
	}
	if (oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
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
