/*
 * kernel/signal_deliver.c: acting on a signal on the way to user mode, and
 * the restart decision (arch/x86/kernel/signal.c, signal_64.c of Linux).
 *
 * arch_do_signal_or_restart() runs from exit_to_user_mode_loop() when
 * TIF_SIGPENDING is set. If get_signal() returns a handler, the system call
 * the task was in is finished by restart_decision()'s "a handler will run"
 * column, and an rt_sigframe is built on the user stack (or the sigaltstack)
 * with Linux's layout; the handler returns through sa_restorer into
 * rt_sigreturn. Otherwise the call is restarted by its "no handler" column:
 * rip goes back over the `syscall` instruction, with rax = the call's number,
 * or 219 (restart_syscall) for -ERESTART_RESTARTBLOCK, which then runs the
 * continuation left in current_thread_info()->restart_block.
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/restart.h>
#include <umk/sched.h>
#include <umk/sigframe.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/unistd.h>

#include "signal.h"

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

void set_current_blocked(sigset_t *newset)
{
	newset->sig &= ~SIG_KERNEL_ONLY_MASK;
	current->blocked = *newset;
	recalc_sigpending();
}

/* Apply the restart decision to a task that entered by a system call
 * (orig_ax >= 0); ka is the handler about to run, or NULL. */
static void syscall_restart(struct pt_regs *regs, const struct k_sigaction *ka)
{
	long ret = regs->ax;
	enum restart_action a;
	const char *err;

	if (current->orig_ax < 0)
		return;
	a = restart_decision(ret, ka != NULL, ka ? ka->flags : 0);
	switch (a) {
	case RESTART_NONE:
		return;
	case RESTART_EINTR:
		regs->ax = -EINTR;
		break;
	case RESTART_SYSCALL:
		regs->ax = current->orig_ax;
		regs->ip -= SYSCALL_INSN_LEN;
		break;
	case RESTART_RESTARTBLOCK:
		regs->ax = __NR_restart_syscall;
		regs->ip -= SYSCALL_INSN_LEN;
		break;
	}
	err = errno_name(-ret);
	trace(TR_RESTART, "%s %s -> %s (%s)", syscall_name(current->orig_ax), err ? err : "?",
	      restart_action_name(a),
	      !ka ? "no handler" : ka->flags & SA_RESTART ? "handler, SA_RESTART" : "handler");
}

static void handle_signal(struct ksignal *ksig, struct pt_regs *regs)
{
	sigset_t blocked;

	syscall_restart(regs, &ksig->ka);
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

	/* No handler will run: restart the system call. */
	syscall_restart(regs, NULL);
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
