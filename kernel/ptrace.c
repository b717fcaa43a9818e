/*
 * kernel/ptrace.c: process tracing (Linux's kernel/ptrace.c, the ptrace
 * parts of kernel/signal.c, and arch/x86/kernel/ptrace.c).
 *
 * A tracer (task->parent) attaches to a tracee by PTRACE_TRACEME,
 * PTRACE_ATTACH or PTRACE_SEIZE; the tracee then stops in TASK_TRACED at
 * the points Linux defines (ptrace(2)), each through ptrace_stop(), which
 * leaves the stop's report in tracee->exit_code for the tracer's wait and
 * sleeps until a resuming request (CONT, SYSCALL, SINGLESTEP, SYSEMU,
 * SYSEMU_SINGLESTEP, DETACH, LISTEN's SIGCONT) or SIGKILL wakes it:
 *
 *   syscall-enter-stop   kernel/entry.c, before the call  (syscall_trace_enter)
 *   syscall-exit-stop    kernel/entry.c, after the call with its return value in
 *                        rax, -ERESTART* included, before exit_to_user_mode_loop
 *                        makes the restart decision (syscall_trace_exit)
 *   PTRACE_EVENT_*       fork (kernel_clone), exec (do_execve), exit (do_exit)
 *   signal-delivery-stop get_signal, for every dequeued signal but SIGKILL
 *                        (ptrace_signal): the tracer's resume decides the signal
 *   group-stop, PTRACE_EVENT_STOP   get_signal's jobctl traps (do_jobctl_trap)
 *   a single step        the SIGTRAP of the trap flag, or of a syscall's exit
 *                        (kernel/step.c); a handler's entry (handle_signal)
 *
 * The requests run in the tracer (sys_ptrace) on a tracee stopped in one of
 * them: its registers are its pt_regs, its memory is read and written
 * through its mm's files (access_process_vm). docs/design.md, "ptrace",
 * places the stops on the way from the system call to user mode.
 */
#include <umk/errno.h>
#include <umk/fpu.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/ptrace.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/uapi/ptrace.h>
#include <umk/uapi/sched.h>

#include <umk/sched/signal.h>

/* ptrace_message of a syscall stop (PTRACE_GET_SYSCALL_INFO reads it) */
#define PTRACE_EVENTMSG_SYSCALL_ENTRY 1
#define PTRACE_EVENTMSG_SYSCALL_EXIT 2

/* The eflags a tracer may change (arch/x86/kernel/ptrace.c, FLAG_MASK). */
#define FLAG_MASK 0x50dd5UL

static bool same_thread_group(struct task_struct *a, struct task_struct *b)
{
	return a && b && a->tgid == b->tgid;
}

/* ---- linking ---- */

static void __ptrace_link(struct task_struct *child, struct task_struct *tracer)
{
	list_add_tail(&child->ptrace_entry, &tracer->ptraced);
	child->parent = tracer;
}

/*
 * child is traced no more (Linux's __ptrace_unlink): if its process is
 * group-stopped it goes back to the stop (JOBCTL_STOP_PENDING), and a
 * tracee in a ptrace stop is woken to find out.
 */
void __ptrace_unlink(struct task_struct *child)
{
	struct signal_struct *sig = child->signal;

	child->ptrace = 0;
	child->parent = NULL;
	list_del_init(&child->ptrace_entry);
	child->jobctl &= ~(JOBCTL_TRAP_MASK | JOBCTL_LISTENING);
	if (child->exit_state || child->state == TASK_DEAD)
		return;		/* its kernel stack, and thread_info, may be gone */
	clear_ti_flag(task_thread_info(child), TIF_SYSCALL_TRACE);
	if ((sig->flags & SIGNAL_STOP_STOPPED) || sig->group_stop_count)
		child->jobctl |= JOBCTL_STOP_PENDING;
	if ((child->jobctl & JOBCTL_STOP_PENDING) || (child->state & __TASK_TRACED)) {
		set_ti_flag(task_thread_info(child), TIF_SIGPENDING);
		wake_up_state(child, __TASK_TRACED);
	}
}

/* ---- stops ---- */

/* Tell the tracer of a stop: SIGCHLD with CLD_TRAPPED or CLD_STOPPED
 * (unless it ignores SIGCHLD or has SA_NOCLDSTOP), and wake its wait
 * (do_notify_parent_cldstop for the ptracer). */
static void notify_tracer(struct task_struct *tsk, int why)
{
	struct task_struct *tracer = tsk->parent;
	struct k_sigaction *ka = sig_action(tracer, SIGCHLD);
	kernel_siginfo_t info;
	u64 utime, stime;

	memset(&info, 0, sizeof(info));
	info.si_signo = SIGCHLD;
	info.si_code = why;
	info._sigchld.pid = tsk->pid;
	info._sigchld.uid = tsk->cred.uid;
	info._sigchld.status = tsk->exit_code & 0x7f;
	task_cputime(tsk, &utime, &stime);
	info._sigchld.utime = (long)nsec_to_clock_t(utime);
	info._sigchld.stime = (long)nsec_to_clock_t(stime);
	if (ka->handler != SIG_IGN && !(ka->flags & SA_NOCLDSTOP))
		send_signal(SIGCHLD, &info, tracer, true);
	wake_up(&tracer->signal->wait_chldexit);
}

/*
 * Stop in TASK_TRACED with exit_code for the tracer's wait (status
 * exit_code << 8 | 0x7f) until it resumes us; return what it resumed us
 * with (the signal to deliver, or 0). Not traced, or SIGKILL pending: no
 * stop, exit_code comes back. A trap for a group stop (why CLD_STOPPED)
 * is this thread's part of it.
 */
static int ptrace_stop(int exit_code, int why, unsigned long message, kernel_siginfo_t *info)
{
	struct task_struct *t = current;

	if (!t->ptrace || sigismember(&t->pending.signal, SIGKILL)) {
		t->jobctl &= ~JOBCTL_TRAP_MASK;
		return exit_code;
	}
	set_current_state(TASK_TRACED);
	t->last_siginfo = info;
	t->exit_code = exit_code;
	t->ptrace_message = message;
	if (why == CLD_STOPPED && (t->jobctl & JOBCTL_STOP_PENDING))
		task_participate_group_stop(t);
	/* any trap clears a pending STOP trap; a STOP trap the NOTIFY one */
	t->jobctl &= ~JOBCTL_TRAP_STOP;
	if (info && info->si_code >> 8 == PTRACE_EVENT_STOP)
		t->jobctl &= ~JOBCTL_TRAP_NOTIFY;
	notify_tracer(t, why);
	schedule();

	exit_code = t->exit_code;
	t->jobctl &= ~JOBCTL_LISTENING;
	t->last_siginfo = NULL;
	t->ptrace_message = 0;
	t->exit_code = 0;
	recalc_sigpending();
	return exit_code;
}

static int ptrace_do_notify(int signr, int exit_code, int why, unsigned long message)
{
	kernel_siginfo_t info;

	memset(&info, 0, sizeof(info));
	info.si_signo = signr;
	info.si_code = exit_code;
	info._kill.pid = current->pid;
	info._kill.uid = current->cred.uid;
	return ptrace_stop(exit_code, why, message, &info);
}

int ptrace_notify(int exit_code, unsigned long message)
{
	return ptrace_do_notify(SIGTRAP, exit_code, CLD_TRAPPED, message);
}

void ptrace_event(int event, unsigned long message)
{
	if (current->ptrace & PT_EVENT_FLAG(event))
		ptrace_notify((event << 8) | SIGTRAP, message);
	else if (event == PTRACE_EVENT_EXEC &&
		 (current->ptrace & (PT_PTRACED | PT_SEIZED)) == PT_PTRACED)
		send_sig(SIGTRAP, current, 0);	/* the legacy exec SIGTRAP */
}

/* A syscall stop (include/linux/ptrace.h, ptrace_report_syscall): SIGTRAP,
 * | 0x80 with PTRACE_O_TRACESYSGOOD. A signal the tracer resumed with is
 * sent; true if the task is being killed. */
static bool ptrace_report_syscall(unsigned long message)
{
	int signr;

	if (!(current->ptrace & PT_PTRACED))
		return false;
	signr = ptrace_notify(SIGTRAP | ((current->ptrace & PT_TRACESYSGOOD) ? 0x80 : 0), message);
	if (signr)
		send_sig(signr, current, 1);
	return sigismember(&current->pending.signal, SIGKILL);
}

/*
 * syscall-enter-stop (kernel/entry/common.c, syscall_trace_enter). rax
 * reads -ENOSYS there, as on Linux, whose entry code puts it in pt_regs
 * before the call; the tracer may change orig_rax (the call to make; -1:
 * none, rax is then the result) and the arguments.
 */
long syscall_trace_enter(struct pt_regs *regs, long nr)
{
	/* PTRACE_SYSEMU's call is skipped whatever the tracer resumes with. */
	bool emu = test_ti_flag(current_thread_info(), TIF_SYSCALL_EMU);

	regs->ax = -ENOSYS;
	if (ptrace_report_syscall(PTRACE_EVENTMSG_SYSCALL_ENTRY) || emu)
		return -1;
	return current->orig_ax;
}

/* syscall-exit-stop: rax holds the call's result, an -ERESTART* code
 * included; the restart decision comes after, in exit_to_user_mode_loop.
 * A single step is reported here instead (report_single_step), but not
 * under PTRACE_SYSEMU_SINGLESTEP, whose entry stop was the report. */
void syscall_trace_exit(struct pt_regs *regs)
{
	unsigned long work = current_thread_info()->flags;

	if ((work & _TIF_SINGLESTEP) && !(work & _TIF_SYSCALL_EMU))
		user_single_step_report(regs);
	else if (work & _TIF_SYSCALL_TRACE)
		ptrace_report_syscall(PTRACE_EVENTMSG_SYSCALL_EXIT);
}

/* signal-delivery-stop (kernel/signal.c, ptrace_signal): the tracer sees
 * signr and resumes with the signal to act on instead, 0 for none. */
int ptrace_signal(int signr, kernel_siginfo_t *info)
{
	signr = ptrace_stop(signr, CLD_TRAPPED, 0, info);
	if (!signr)
		return 0;
	/* Another signal than the one stopped for: it comes from the tracer. */
	if (signr != info->si_signo) {
		memset(info, 0, sizeof(*info));
		info->si_signo = signr;
		info->si_code = SI_USER;
		info->_kill.pid = current->parent ? current->parent->tgid : 0;
		info->_kill.uid = current->parent ? current->parent->cred.uid : 0;
	}
	/* A signal now blocked waits, queued again. */
	if (sigismember(&current->blocked, signr) ||
	    sigismember(&current->pending.signal, SIGKILL)) {
		send_signal(signr, info, current, false);
		return 0;
	}
	return signr;
}

/* get_signal's jobctl trap (kernel/signal.c, do_jobctl_trap): a group stop
 * as the tracer sees it, or for PTRACE_SEIZE a PTRACE_EVENT_STOP: with the
 * stop signal while the group is stopped, SIGTRAP otherwise
 * (PTRACE_INTERRUPT, SIGCONT's notification, a new child). */
void do_jobctl_trap(void)
{
	struct signal_struct *signal = current->signal;
	int signr = signal->stop_signr;

	if (current->ptrace & PT_SEIZED) {
		if (!signal->group_stop_count && !(signal->flags & SIGNAL_STOP_STOPPED))
			signr = SIGTRAP;
		ptrace_do_notify(signr, signr | (PTRACE_EVENT_STOP << 8), CLD_STOPPED, 0);
	} else {
		ptrace_stop(signr ? signr : SIGSTOP, CLD_STOPPED, 0, NULL);
	}
}

void ptrace_trap_notify(struct task_struct *t)
{
	t->jobctl |= JOBCTL_TRAP_NOTIFY;
	set_ti_flag(task_thread_info(t), TIF_SIGPENDING);
	if (t->jobctl & JOBCTL_LISTENING)
		wake_up_state(t, __TASK_TRACED);
	else
		wake_up_state(t, TASK_INTERRUPTIBLE);
}

/* ---- fork and exit ---- */

int ptrace_clone_event(unsigned long clone_flags, int exit_signal)
{
	int event;

	if (clone_flags & CLONE_UNTRACED)
		return 0;
	if (clone_flags & CLONE_VFORK)
		event = PTRACE_EVENT_VFORK;
	else if (exit_signal != SIGCHLD)
		event = PTRACE_EVENT_CLONE;
	else
		event = PTRACE_EVENT_FORK;
	return (current->ptrace & PT_EVENT_FLAG(event)) ? event : 0;
}

/* The child of a traced task, traced by the same tracer: it stops first
 * thing, with SIGSTOP, or a PTRACE_EVENT_STOP when seized. */
void ptrace_init_task(struct task_struct *child, bool ptrace)
{
	if (!ptrace || !current->ptrace)
		return;
	child->ptrace = current->ptrace;
	__ptrace_link(child, current->parent);
	if (child->ptrace & PT_SEIZED)
		child->jobctl |= JOBCTL_TRAP_STOP;
	else
		sigaddset(&child->pending.signal, SIGSTOP);
	set_ti_flag(task_thread_info(child), TIF_SIGPENDING);
}

/* Detach p, whose tracer is going away or detaching; a zombie whose exit
 * only the tracer had seen goes to its real parent. true: release it. */
static bool __ptrace_detach(struct task_struct *tracer, struct task_struct *p)
{
	__ptrace_unlink(p);
	if (p->exit_state != EXIT_ZOMBIE)
		return false;
	if (!thread_group_leader(p))
		return true;	/* a thread's zombie was for its tracer only */
	if (!list_empty(&p->signal->thread_head) || p->signal->zombie_threads)
		return false;
	if (!same_thread_group(p->real_parent, tracer))
		return do_notify_parent(p, p->exit_signal);
	return false;
}

void exit_ptrace(struct task_struct *tracer)
{
	struct task_struct *p, *n;

	list_for_each_entry_safe(p, n, &tracer->ptraced, ptrace_entry) {
		if (p->ptrace & PT_EXITKILL)
			send_sig(SIGKILL, p, 1);
		if (__ptrace_detach(tracer, p))
			release_task(p);
	}
}

/* ---- attaching ---- */

static int ptrace_traceme(void)
{
	struct task_struct *parent = current->real_parent;

	if (current->ptrace || !parent || parent == idle_task)
		return -EPERM;
	current->ptrace = PT_PTRACED;
	__ptrace_link(current, parent);
	return 0;
}

static int ptrace_attach(struct task_struct *task, long request, unsigned long addr,
			 unsigned long flags)
{
	bool seize = request == PTRACE_SEIZE;

	if (seize) {
		if (addr)
			return -EIO;
		if (flags & ~(unsigned long)PTRACE_O_MASK)
			return -EIO;
		if (flags & PTRACE_O_SUSPEND_SECCOMP)
			return -EPERM;	/* umk has no seccomp to suspend */
		flags = PT_PTRACED | PT_SEIZED | (flags << PT_OPT_FLAG_SHIFT);
	} else {
		flags = PT_PTRACED;
	}
	if (task == idle_task || same_thread_group(task, current))
		return -EPERM;
	if (!ptrace_may_access(task))	/* kernel/cred.c: Linux's defaults, no Yama */
		return -EPERM;
	if (task->exit_state || task->state == TASK_DEAD || task->ptrace)
		return -EPERM;
	task->ptrace = flags;
	__ptrace_link(task, current);
	if (!seize)
		send_sig(SIGSTOP, task, 1);
	/* A stopped task traps, to be in a ptrace stop the tracer can act on:
	 * woken from its group stop, it finds JOBCTL_TRAP_STOP. */
	if (task->state & __TASK_STOPPED) {
		task->jobctl |= JOBCTL_TRAP_STOP;
		set_ti_flag(task_thread_info(task), TIF_SIGPENDING);
		wake_up_state(task, __TASK_STOPPED);
	}
	return 0;
}

/* The requests but KILL and INTERRUPT need the tracee in a ptrace stop
 * (not LISTENING), traced by this thread: -ESRCH otherwise. */
static int ptrace_check_attach(struct task_struct *child, bool ignore_state)
{
	if (!child->ptrace || child->parent != current)
		return -ESRCH;
	if (ignore_state)
		return 0;
	if (child->exit_state || !(child->state & __TASK_TRACED) ||
	    (child->jobctl & JOBCTL_LISTENING))
		return -ESRCH;
	return 0;
}

/* ---- registers (arch/x86/kernel/ptrace.c) ---- */

/* The flags as the tracer sees them: without the TF it set itself
 * (kernel/step.c). */
static unsigned long get_flags(struct task_struct *t)
{
	unsigned long flags = t->regs->flags;

	if (test_ti_flag(task_thread_info(t), TIF_FORCED_TF))
		flags &= ~X86_EFLAGS_TF;
	return flags;
}

/* The flags a tracer writes: TF written becomes the program's own; TF
 * left out stays on while the tracer steps. */
static void set_flags(struct task_struct *t, unsigned long value)
{
	struct pt_regs *r = t->regs;

	if (value & X86_EFLAGS_TF)
		clear_ti_flag(task_thread_info(t), TIF_FORCED_TF);
	else if (test_ti_flag(task_thread_info(t), TIF_FORCED_TF))
		value |= X86_EFLAGS_TF;
	r->flags = (r->flags & ~FLAG_MASK) | (value & FLAG_MASK);
}

static void getregs(struct task_struct *t, struct user_regs_struct *u)
{
	const struct pt_regs *r = t->regs;

	*u = (struct user_regs_struct){
		.r15 = r->r15, .r14 = r->r14, .r13 = r->r13, .r12 = r->r12, .bp = r->bp,
		.bx = r->bx, .r11 = r->r11, .r10 = r->r10, .r9 = r->r9, .r8 = r->r8,
		.ax = r->ax, .cx = r->cx, .dx = r->dx, .si = r->si, .di = r->di,
		.orig_ax = (unsigned long)t->orig_ax, .ip = r->ip, .cs = 0x33,
		.flags = get_flags(t), .sp = r->sp, .ss = 0x2b, .fs_base = user_fs_base(r),
	};
}

/* A segment selector a tracer may load: null or of privilege level 3. */
static bool invalid_selector(unsigned long v)
{
	return v > 0xffff || (v && (v & 3) != 3);
}

/* Set t's registers from u, as Linux's putreg checks each: the flags a
 * program may change, a canonical user FS base. Departure: the segment
 * registers are umk's fixed ones (a valid selector is accepted and not
 * loaded), and gs_base stays 0. */
static int setregs(struct task_struct *t, const struct user_regs_struct *u)
{
	struct pt_regs *r = t->regs;

	if (u->fs_base >= TASK_SIZE || u->gs_base >= TASK_SIZE)
		return -EIO;
	if (invalid_selector(u->cs) || invalid_selector(u->ss) || invalid_selector(u->ds) ||
	    invalid_selector(u->es) || invalid_selector(u->fs) || invalid_selector(u->gs))
		return -EIO;
	r->r15 = u->r15; r->r14 = u->r14; r->r13 = u->r13; r->r12 = u->r12;
	r->bp = u->bp; r->bx = u->bx; r->r11 = u->r11; r->r10 = u->r10;
	r->r9 = u->r9; r->r8 = u->r8; r->ax = u->ax; r->cx = u->cx;
	r->dx = u->dx; r->si = u->si; r->di = u->di; r->ip = u->ip; r->sp = u->sp;
	set_flags(t, u->flags);
	t->orig_ax = (long)u->orig_ax;
	set_user_fs_base(r, u->fs_base);
	return 0;
}

static int peekuser(struct task_struct *t, unsigned long off, unsigned long __user *data)
{
	struct user_regs_struct u;
	unsigned long v = 0;

	if ((off & 7) || off >= USER_STRUCT_SIZE)
		return -EIO;
	if (off < USER_REGS_SIZE) {
		getregs(t, &u);
		memcpy(&v, (char *)&u + off, sizeof(v));
	}
	/* u_debugreg and the rest of struct user read as 0: umk has no debug
	 * registers to give a program (docs/linux-differences.md). */
	return put_user(v, data) ? -EFAULT : 0;
}

static int pokeuser(struct task_struct *t, unsigned long off, unsigned long v)
{
	struct user_regs_struct u;

	if ((off & 7) || off >= USER_STRUCT_SIZE)
		return -EIO;
	if (off < USER_REGS_SIZE) {
		getregs(t, &u);
		memcpy((char *)&u + off, &v, sizeof(v));
		return setregs(t, &u);
	}
	if (off >= USER_DEBUGREG_OFFSET && !v)
		return 0;	/* clearing a debug register: nothing to clear */
	return -EIO;
}

/* The legacy fxsave area of t's FPU state (struct user_i387_struct). */
static void getfpregs(struct task_struct *t, u8 *fx)
{
	memset(fx, 0, FXSAVE_SIZE);
	if (t->regs->fpstate) {
		memcpy(fx, t->regs->fpstate, FXSAVE_SIZE);
		return;
	}
	fx[0] = 0x7f, fx[1] = 0x03;		/* fcw 0x37f */
	fx[24] = 0x80, fx[25] = 0x1f;		/* mxcsr 0x1f80 */
}

static int setfpregs(struct task_struct *t, const u8 *fx)
{
	u8 *fp = t->regs->fpstate;
	u32 mxcsr, mask;

	if (!fp)
		return -EIO;
	memcpy(&mxcsr, fx + 24, 4);
	memcpy(&mask, fp + 28, 4);
	/* the host's xrstor would fault on a reserved MXCSR bit */
	mxcsr &= mask ? mask : 0xffbf;
	memcpy(fp, fx, 24);
	memcpy(fp + 24, &mxcsr, 4);
	memcpy(fp + 32, fx + 32, 416 - 32);	/* st0-7, xmm0-15; not the host's bytes after */
	return 0;
}

static int ptrace_regset(struct task_struct *t, long request, unsigned long type,
			 struct iovec __user *uiov)
{
	struct iovec kiov;
	union {
		struct user_regs_struct regs;
		u8 fx[FXSAVE_SIZE];
	} buf;
	size_t size;
	const void *src = &buf;
	int err = 0;

	if (copy_from_user(&kiov, uiov, sizeof(kiov)))
		return -EFAULT;
	switch (type) {
	case NT_PRSTATUS:
		size = sizeof(buf.regs);
		getregs(t, &buf.regs);
		break;
	case NT_PRFPREG:
		size = FXSAVE_SIZE;
		getfpregs(t, buf.fx);
		break;
	case NT_X86_XSTATE:
		if (!t->regs->fpstate || request == PTRACE_SETREGSET)
			return -ENODEV;
		size = fpstate_size(t->regs->fpstate);
		src = t->regs->fpstate;
		break;
	default:
		return -EINVAL;
	}
	if (kiov.iov_len < size)
		size = kiov.iov_len;
	if (request == PTRACE_GETREGSET) {
		if (copy_to_user(kiov.iov_base, src, size))
			return -EFAULT;
	} else {
		/* a partial set changes the first registers only */
		if (copy_from_user(&buf, kiov.iov_base, size))
			return -EFAULT;
		err = type == NT_PRSTATUS ? setregs(t, &buf.regs) : setfpregs(t, buf.fx);
	}
	kiov.iov_len = size;
	if (!err && put_user(kiov.iov_len, &uiov->iov_len))
		return -EFAULT;
	return err;
}

/* PTRACE_GET_SYSCALL_INFO: what the tracee's stop says of its system call
 * (ptrace_get_syscall_info); the size of the whole answer. */
static long ptrace_get_syscall_info(struct task_struct *t, unsigned long size, void __user *data)
{
	struct pt_regs *r = t->regs;
	struct ptrace_syscall_info info;
	unsigned long actual = offsetof(struct ptrace_syscall_info, entry);

	memset(&info, 0, sizeof(info));
	info.op = PTRACE_SYSCALL_INFO_NONE;
	info.arch = AUDIT_ARCH_X86_64;
	info.instruction_pointer = r->ip;
	info.stack_pointer = r->sp;
	if (t->last_siginfo && t->last_siginfo->si_code == (SIGTRAP | 0x80)) {
		if (t->ptrace_message == PTRACE_EVENTMSG_SYSCALL_ENTRY) {
			info.op = PTRACE_SYSCALL_INFO_ENTRY;
			info.entry.nr = (unsigned long)t->orig_ax;
			info.entry.args[0] = r->di;
			info.entry.args[1] = r->si;
			info.entry.args[2] = r->dx;
			info.entry.args[3] = r->r10;
			info.entry.args[4] = r->r8;
			info.entry.args[5] = r->r9;
			actual = offsetof(struct ptrace_syscall_info, entry.args) + sizeof(info.entry.args);
		} else if (t->ptrace_message == PTRACE_EVENTMSG_SYSCALL_EXIT) {
			info.op = PTRACE_SYSCALL_INFO_EXIT;
			info.exit.rval = (long)r->ax;
			info.exit.is_error = r->ax >= (unsigned long)-4095;
			actual = offsetof(struct ptrace_syscall_info, exit.is_error) + 1;
		}
	}
	if (copy_to_user(data, &info, min(size, actual)))
		return -EFAULT;
	return (long)actual;
}

/* ---- the requests ---- */

/* PTRACE_GET_RSEQ_CONFIGURATION: the tracee's rseq area, its length and
 * signature (kernel/rseq.c), at most size bytes of them; the whole size. */
static long ptrace_get_rseq_configuration(struct task_struct *t, unsigned long size,
					  void __user *data)
{
	struct ptrace_rseq_configuration conf = {
		.rseq_abi_pointer = (u64)(unsigned long)t->rseq,
		.rseq_abi_size = t->rseq_len,
		.signature = t->rseq_sig,
	};

	if (copy_to_user(data, &conf, min(size, sizeof(conf))))
		return -EFAULT;
	return sizeof(conf);
}

/* PTRACE_PEEKSIGINFO: copies of the siginfos queued for the thread (or, with
 * PTRACE_PEEKSIGINFO_SHARED, its process), from the off'th on, at most nr:
 * how many were copied, 0 past the end. */
static long ptrace_peek_siginfo(struct task_struct *child, unsigned long addr, void __user *data)
{
	struct ptrace_peeksiginfo_args arg;
	struct sigpending *pending;
	struct sigqueue *q;
	unsigned long off;
	s32 i = 0;

	if (copy_from_user(&arg, (void __user *)addr, sizeof(arg)))
		return -EFAULT;
	if (arg.flags & ~(u32)PTRACE_PEEKSIGINFO_SHARED)
		return -EINVAL;
	if (arg.nr < 0)
		return -EINVAL;
	pending = (arg.flags & PTRACE_PEEKSIGINFO_SHARED) ? &child->signal->shared_pending
							   : &child->pending;
	off = arg.off;
	list_for_each_entry(q, &pending->list, list) {
		if (i == arg.nr)
			break;
		if (off) {
			off--;
			continue;
		}
		if (copy_to_user((kernel_siginfo_t __user *)data + i, &q->info, sizeof(q->info)))
			return i ? i : -EFAULT;
		i++;
	}
	return i;
}

/* CONT, SYSCALL, SINGLESTEP, SYSEMU, SYSEMU_SINGLESTEP: the stops the
 * tracee makes next, and the signal it resumes with. */
static int ptrace_resume(struct task_struct *child, long request, unsigned long data)
{
	struct thread_info *ti = task_thread_info(child);

	if (!valid_signal(data))
		return -EIO;
	if (request == PTRACE_SYSCALL)
		set_ti_flag(ti, TIF_SYSCALL_TRACE);
	else
		clear_ti_flag(ti, TIF_SYSCALL_TRACE);
	if (request == PTRACE_SYSEMU || request == PTRACE_SYSEMU_SINGLESTEP)
		set_ti_flag(ti, TIF_SYSCALL_EMU);
	else
		clear_ti_flag(ti, TIF_SYSCALL_EMU);
	if (request == PTRACE_SINGLESTEP || request == PTRACE_SYSEMU_SINGLESTEP)
		user_enable_single_step(child);
	else
		user_disable_single_step(child);
	child->exit_code = (int)data;
	wake_up_state(child, __TASK_TRACED);
	return 0;
}

static int ptrace_detach(struct task_struct *child, unsigned long data)
{
	if (!valid_signal(data))
		return -EIO;
	user_disable_single_step(child);	/* ptrace_disable */
	clear_ti_flag(task_thread_info(child), TIF_SYSCALL_EMU);
	child->exit_code = (int)data;
	if (__ptrace_detach(current, child))
		release_task(child);
	return 0;
}

static int ptrace_setoptions(struct task_struct *child, unsigned long data)
{
	if (data & ~(unsigned long)PTRACE_O_MASK)
		return -EINVAL;
	if (data & PTRACE_O_SUSPEND_SECCOMP)
		return -EPERM;
	child->ptrace &= ~((unsigned int)PTRACE_O_MASK << PT_OPT_FLAG_SHIFT);
	child->ptrace |= (unsigned int)data << PT_OPT_FLAG_SHIFT;
	return 0;
}

static long ptrace_request(struct task_struct *child, long request, unsigned long addr,
			   unsigned long data)
{
	void __user *datavp = (void __user *)data;
	struct user_regs_struct regs;
	u8 fx[FXSAVE_SIZE];
	unsigned long word;
	sigset_t set;
	int err;

	switch (request) {
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
		if (access_process_vm(child, addr, &word, sizeof(word)) != sizeof(word))
			return -EIO;
		return put_user(word, (unsigned long __user *)datavp) ? -EFAULT : 0;
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
		word = data;
		if (access_process_vm_write(child, addr, &word, sizeof(word)) != sizeof(word))
			return -EIO;
		return 0;
	case PTRACE_PEEKUSR:
		return peekuser(child, addr, datavp);
	case PTRACE_POKEUSR:
		return pokeuser(child, addr, data);
	case PTRACE_GETREGS:
		getregs(child, &regs);
		return copy_to_user(datavp, &regs, sizeof(regs)) ? -EFAULT : 0;
	case PTRACE_SETREGS:
		if (copy_from_user(&regs, datavp, sizeof(regs)))
			return -EFAULT;
		return setregs(child, &regs);
	case PTRACE_GETFPREGS:
		getfpregs(child, fx);
		return copy_to_user(datavp, fx, sizeof(fx)) ? -EFAULT : 0;
	case PTRACE_SETFPREGS:
		if (copy_from_user(fx, datavp, sizeof(fx)))
			return -EFAULT;
		return setfpregs(child, fx);
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		return ptrace_regset(child, request, addr, datavp);
	case PTRACE_GETSIGINFO:
		if (!child->last_siginfo)
			return -EINVAL;
		return copy_to_user(datavp, child->last_siginfo, sizeof(kernel_siginfo_t)) ? -EFAULT : 0;
	case PTRACE_SETSIGINFO:
		if (!child->last_siginfo)
			return -EINVAL;
		return copy_from_user(child->last_siginfo, datavp, sizeof(kernel_siginfo_t)) ? -EFAULT
											    : 0;
	case PTRACE_GETSIGMASK:
		if (addr != sizeof(sigset_t))
			return -EINVAL;
		return copy_to_user(datavp, &child->blocked, sizeof(sigset_t)) ? -EFAULT : 0;
	case PTRACE_SETSIGMASK:
		if (addr != sizeof(sigset_t))
			return -EINVAL;
		if (copy_from_user(&set, datavp, sizeof(set)))
			return -EFAULT;
		set.sig &= ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
		child->blocked = set;
		return 0;
	case PTRACE_GETEVENTMSG:
		return put_user(child->ptrace_message, (unsigned long __user *)datavp) ? -EFAULT : 0;
	case PTRACE_SETOPTIONS:
		return ptrace_setoptions(child, data);
	case PTRACE_GET_SYSCALL_INFO:
		return ptrace_get_syscall_info(child, addr, datavp);
	case PTRACE_INTERRUPT:
		if (!(child->ptrace & PT_SEIZED))
			return -EIO;
		child->jobctl |= JOBCTL_TRAP_STOP;
		set_ti_flag(task_thread_info(child), TIF_SIGPENDING);
		wake_up_state(child, (child->jobctl & JOBCTL_LISTENING) ? __TASK_TRACED
									 : TASK_INTERRUPTIBLE);
		return 0;
	case PTRACE_LISTEN:
		if (!(child->ptrace & PT_SEIZED) || !child->last_siginfo ||
		    child->last_siginfo->si_code >> 8 != PTRACE_EVENT_STOP)
			return -EIO;
		child->jobctl |= JOBCTL_LISTENING;
		/* a SIGCONT came already: re-trap at once */
		if (child->jobctl & JOBCTL_TRAP_NOTIFY) {
			set_ti_flag(task_thread_info(child), TIF_SIGPENDING);
			wake_up_state(child, __TASK_TRACED);
		}
		return 0;
	case PTRACE_DETACH:
		return ptrace_detach(child, data);
	case PTRACE_PEEKSIGINFO:
		return ptrace_peek_siginfo(child, addr, datavp);
	case PTRACE_GET_RSEQ_CONFIGURATION:
		return ptrace_get_rseq_configuration(child, addr, datavp);
	case PTRACE_ARCH_PRCTL:		/* the option in data, its argument in addr */
		return do_arch_prctl_64(child, (int)data, addr);
	case PTRACE_CONT:
	case PTRACE_SYSCALL:
	case PTRACE_SINGLESTEP:
	case PTRACE_SYSEMU:
	case PTRACE_SYSEMU_SINGLESTEP:
		return ptrace_resume(child, request, data);
	case PTRACE_KILL:
		send_sig(SIGKILL, child, 1);
		return 0;
	}
	err = -EIO;
	return err;
}

long sys_ptrace(long request, long pid, unsigned long addr, unsigned long data)
{
	struct task_struct *child;
	long ret;

	if (request == PTRACE_TRACEME)
		return ptrace_traceme();
	child = find_task_by_pid((pid_t)pid);
	if (!child || child == idle_task || pid <= 0)
		return -ESRCH;
	if (request == PTRACE_ATTACH || request == PTRACE_SEIZE)
		return ptrace_attach(child, request, addr, data);
	ret = ptrace_check_attach(child, request == PTRACE_KILL || request == PTRACE_INTERRUPT);
	if (ret)
		return ret;
	return ptrace_request(child, request, addr, data);
}

/* ---- process_vm_readv, process_vm_writev (mm/process_vm_access.c) ---- */

static long copy_iovecs_in(struct iovec **out, const struct iovec __user *uvec, unsigned long n,
			   size_t *total)
{
	struct iovec *v;
	unsigned long i;

	*total = 0;
	*out = NULL;
	if (n > UIO_MAXIOV)
		return -EINVAL;
	if (!n)
		return 0;
	v = kmalloc(n * sizeof(*v));
	if (copy_from_user(v, uvec, n * sizeof(*v))) {
		kfree(v);
		return -EFAULT;
	}
	for (i = 0; i < n; i++) {
		if ((ssize_t)v[i].iov_len < 0 || *total + v[i].iov_len < *total) {
			kfree(v);
			return -EINVAL;
		}
		*total += v[i].iov_len;
	}
	*out = v;
	return 0;
}

/*
 * Copy between current's local iovecs and task's remote ones, in order,
 * through a kernel buffer. As Linux: the bytes copied; an inaccessible
 * remote range ends the copy there (-EFAULT if nothing was copied); a bad
 * local buffer is -EFAULT.
 */
static long process_vm_rw(pid_t pid, const struct iovec __user *lvec, unsigned long liovcnt,
			  const struct iovec __user *rvec, unsigned long riovcnt, unsigned long flags,
			  bool write)
{
	struct iovec *l = NULL, *r = NULL;
	size_t ltotal, rtotal, done = 0, li = 0, loff = 0, ri, chunk;
	struct task_struct *task;
	char *buf = NULL;
	long err;

	if (flags)
		return -EINVAL;
	err = copy_iovecs_in(&l, lvec, liovcnt, &ltotal);
	if (!err)
		err = copy_iovecs_in(&r, rvec, riovcnt, &rtotal);
	if (err)
		goto out;
	if (!ltotal)
		goto out;
	task = find_task_by_pid(pid);
	if (!task || task == idle_task) {
		err = -ESRCH;
		goto out;
	}
	if (!task->mm || !ptrace_may_access(task)) {
		err = -EPERM;
		goto out;
	}
	buf = kmalloc(PAGE_SIZE);
	for (ri = 0; ri < riovcnt && li < liovcnt; ri++) {
		unsigned long raddr = (unsigned long)r[ri].iov_base;
		size_t rleft = r[ri].iov_len;

		while (rleft && li < liovcnt) {
			size_t n, got;

			if (loff == l[li].iov_len) {
				li++, loff = 0;
				continue;
			}
			chunk = min(rleft, l[li].iov_len - loff);
			n = min(chunk, (size_t)PAGE_SIZE);
			if (write) {
				if (copy_from_user(buf, (char __user *)l[li].iov_base + loff, n)) {
					err = -EFAULT;
					goto out;
				}
				got = access_process_vm_write(task, raddr, buf, n);
			} else {
				got = access_process_vm(task, raddr, buf, n);
				if (got && copy_to_user((char __user *)l[li].iov_base + loff, buf, got)) {
					err = -EFAULT;
					goto out;
				}
			}
			done += got;
			if (got < n)
				goto out;
			raddr += n;
			rleft -= n;
			loff += n;
		}
	}
out:
	kfree(buf);
	kfree(l);
	kfree(r);
	if (err)
		return done ? (long)done : err;
	if (!done && ltotal && rtotal)
		return -EFAULT;
	return (long)done;
}

long sys_process_vm_readv(pid_t pid, const struct iovec __user *lvec, unsigned long liovcnt,
			  const struct iovec __user *rvec, unsigned long riovcnt, unsigned long flags)
{
	return process_vm_rw(pid, lvec, liovcnt, rvec, riovcnt, flags, false);
}

long sys_process_vm_writev(pid_t pid, const struct iovec __user *lvec, unsigned long liovcnt,
			   const struct iovec __user *rvec, unsigned long riovcnt, unsigned long flags)
{
	return process_vm_rw(pid, lvec, liovcnt, rvec, riovcnt, flags, true);
}
