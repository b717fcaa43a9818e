/*
 * kernel/signal/signal_deliver.c: acting on a signal on the way to user mode, and
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
#include <umk/errno.h>
#include <umk/fpu.h>
#include <umk/restart.h>
#include <umk/resume.h>
#include <umk/rseq.h>
#include <umk/sched.h>
#include <umk/sigframe.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/unistd.h>

#include <umk/sched/signal.h>

/* The mask a handler's sigreturn must restore: the one a temporary mask
 * (sigsuspend, ppoll, pselect6) replaced, if any. */
static sigset_t *sigmask_to_save(void)
{
	if (test_ti_flag(current_thread_info(), TIF_RESTORE_SIGMASK))
		return &current->saved_sigmask;
	return &current->blocked;
}

/* Is sp on the sigaltstack? Never, with SS_AUTODISARM: the stack was
 * disarmed when the handler was entered on it (include/linux/sched/signal.h). */
static bool on_sig_stack(unsigned long sp)
{
	struct task_struct *t = current;

	if (t->sas_ss_flags & SS_AUTODISARM)
		return false;
	return sp > t->sas_ss_sp && sp - t->sas_ss_sp <= t->sas_ss_size;
}

static int sas_ss_flags(unsigned long sp)
{
	if (!current->sas_ss_size)
		return SS_DISABLE;
	return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

static void sas_ss_reset(struct task_struct *t)
{
	t->sas_ss_sp = 0;
	t->sas_ss_size = 0;
	t->sas_ss_flags = SS_DISABLE;
}

/* Where the frame goes: below the red zone, or on the sigaltstack. */
static unsigned long get_sigframe_sp(struct ksignal *ksig, struct pt_regs *regs, size_t fpsize,
				     unsigned long *fp)
{
	struct task_struct *t = current;
	unsigned long sp = regs->sp - 128;

	if ((ksig->ka.flags & SA_ONSTACK) && sas_ss_flags(sp) == 0)
		sp = t->sas_ss_sp + t->sas_ss_size;
	sp = ALIGN_DOWN(sp - fpsize, 64);
	*fp = sp;
	sp -= sizeof(struct rt_sigframe);
	return ALIGN_DOWN(sp, 16) - 8;
}

/*
 * A program's FPU state, copied over the host frame's by rt_sigreturn, must
 * be one the host's own sigreturn accepts: umk would die, not the task, if
 * its xrstor faulted. Check what XRSTOR would fault on, as Linux's
 * __fpu_restore_sig finds by trying: the layout the host described (sw),
 * MXCSR's reserved bits, and the xsave header (no unknown features, the
 * standard format, reserved bytes zero). Departure from Linux: a legacy
 * fxsave-only frame is refused rather than restored in part.
 */
static bool fpstate_valid(const void *fp, const struct fpx_sw_bytes *host)
{
	const struct fpx_sw_bytes *sw = fpx_sw(fp);
	const u8 *b = fp;
	u32 mxcsr, mxcsr_mask, magic2;
	u64 xstate_bv, xcomp_bv;
	size_t i;

	memcpy(&mxcsr, b + 24, 4);
	memcpy(&mxcsr_mask, b + 28, 4);
	if (mxcsr & ~(mxcsr_mask ? mxcsr_mask : 0xffbf))
		return false;
	if (host->magic1 != FP_XSTATE_MAGIC1)
		return true;		/* the host uses plain fxsave frames */
	if (memcmp(sw, host, sizeof(*sw)))
		return false;
	memcpy(&magic2, b + host->xstate_size, 4);
	memcpy(&xstate_bv, b + FXSAVE_SIZE, 8);
	memcpy(&xcomp_bv, b + FXSAVE_SIZE + 8, 8);
	if (magic2 != FP_XSTATE_MAGIC2 || (xstate_bv & ~host->xfeatures) || xcomp_bv)
		return false;
	for (i = FXSAVE_SIZE + 16; i < FXSAVE_SIZE + 64; i++)
		if (b[i])
			return false;
	return true;
}

/* Build the rt_sigframe on the user stack (setup_rt_frame in
 * arch/x86/kernel/signal_64.c) and point regs at the handler. */
static int setup_rt_frame(struct ksignal *ksig, struct pt_regs *regs, u64 resume_seq,
			  unsigned long *framep)
{
	struct task_struct *t = current;
	size_t fpsize = fpstate_size(regs->fpstate);
	unsigned long fp, frame_sp;
	struct rt_sigframe frame;
	stack_t old_ss = { (void __user *)t->sas_ss_sp, (int)t->sas_ss_flags, t->sas_ss_size };
	bool on_altstack;

	/* x86-64 has no default restorer: without SA_RESTORER it cannot return. */
	if (!(ksig->ka.flags & SA_RESTORER))
		return -EFAULT;
	frame_sp = get_sigframe_sp(ksig, regs, fpsize, &fp);

	memset(&frame, 0, sizeof(frame));
	frame.pretcode = ksig->ka.restorer;
	frame.info = ksig->info;
	frame.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS | (fpsize > 512 ? UC_FP_XSTATE : 0);
	/* The task's own altstack settings (__save_altstack). */
	frame.uc.uc_stack = old_ss;
	on_altstack = old_ss.ss_size && frame_sp > t->sas_ss_sp &&
		      frame_sp - t->sas_ss_sp <= old_ss.ss_size;
	frame.uc.uc_mcontext = *regs;
	frame.uc.uc_mcontext.trapno = 0;	/* umk's fs slot: not the user's */
	frame.uc.uc_mcontext.cr2 = 0;		/* umk's selector slot */
	frame.uc.uc_mcontext.err = 0;
	frame.uc.uc_mcontext.oldmask = sigmask_to_save()->sig;
	frame.uc.uc_mcontext.fpstate = fpsize ? (void *)fp : NULL;
	memset(frame.uc.uc_mcontext.reserved1, 0, sizeof(frame.uc.uc_mcontext.reserved1));
	/* SA_RESUME: the seq sigreturn compares (kernel/signal/resume.c); else 0. */
	frame.uc.uc_mcontext.reserved1[RESUME_SEQ_SLOT] = resume_seq;
	frame.uc.uc_sigmask = *sigmask_to_save();

	if (copy_to_user((void __user *)frame_sp, &frame, sizeof(frame)))
		return -EFAULT;
	if (fpsize && copy_to_user((void __user *)fp, regs->fpstate, fpsize))
		return -EFAULT;
	/* Delivered: only now is an SS_AUTODISARM stack disarmed. */
	if (t->sas_ss_flags & SS_AUTODISARM)
		sas_ss_reset(t);

	*framep = frame_sp;
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
	trace_with(TR_DELIVER,
		   &(struct trace_fields){ .sig = ksig->sig, .what = "handler", .ret = frame_sp,
					   .other = on_altstack },
		   "%s -> handler %#lx frame %#lx%s", signal_name(ksig->sig),
		   (unsigned long)ksig->ka.handler, frame_sp, on_altstack ? " (altstack)" : "");
	return 0;
}

void set_current_blocked(sigset_t *newset)
{
	newset->sig &= ~SIG_KERNEL_ONLY_MASK;
	current->blocked = *newset;
	recalc_sigpending();
}

/* What the restart line says about the delivery. */
static const char *delivery_text(const struct k_sigaction *ka, enum resume_ctx rc)
{
	if (!ka)
		return "no handler";
	if (rc == RESUME_ROOM)
		return "handler, SA_RESUME";
	if (rc == RESUME_FULL)
		return "handler, SA_RESUME: depth limit reached";
	return ka->flags & SA_RESTART ? "handler, SA_RESTART" : "handler";
}

/* Apply the restart decision to a task that entered by a system call
 * (orig_ax >= 0); ksig is the signal whose handler is about to run, or NULL.
 * Returns the action taken; for the two resume actions the caller saves
 * the continuation (kernel/signal/resume.c) once the frame is built. */
static enum restart_action syscall_restart(struct pt_regs *regs, const struct ksignal *ksig)
{
	const struct k_sigaction *ka = ksig ? &ksig->ka : NULL;
	enum resume_ctx rc = RESUME_NO;
	long ret = regs->ax;
	enum restart_action a;
	const char *err;

	if (current->orig_ax < 0)
		return RESTART_NONE;
	if (ka && (ka->flags & SA_RESUME) && (ret == -ERESTART_RESTARTBLOCK || ret == -ERESTARTNOHAND))
		rc = resume_ctx(current->orig_ax, regs->sp);
	a = restart_decision(ret, ka != NULL, ka ? ka->flags : 0, rc);
	switch (a) {
	case RESTART_NONE:
		return a;
	case RESTART_EINTR:
		regs->ax = -EINTR;
		break;
	case RESTART_SYSCALL:
	case RESTART_RESUME_CALL:
		regs->ax = current->orig_ax;
		regs->ip -= SYSCALL_INSN_LEN;
		break;
	case RESTART_RESTARTBLOCK:
	case RESTART_RESUME:
		regs->ax = __NR_restart_syscall;
		regs->ip -= SYSCALL_INSN_LEN;
		break;
	}
	err = errno_name(-ret);
	trace_with(TR_RESTART,
		   &(struct trace_fields){ .nr = current->orig_ax, .ret = ret,
					   .sig = ksig ? ksig->sig : 0, .what = restart_action_name(a) },
		   "%s %s -> %s (%s)", syscall_name(current->orig_ax), err ? err : "?",
		   restart_action_name(a), delivery_text(ka, rc));
	return a;
}

/*
 * SA_RESUME: fill *e with the continuation to keep for the handler about to
 * run, if any: the call just interrupted (decision "resume" or
 * "resume_call"), or a continuation sigreturn reinstalled whose
 * restart_syscall this signal came before (whatever this handler's flags:
 * the continuation was promised by an earlier one).
 */
static bool resume_wanted(struct resume_entry *e, const struct pt_regs *regs,
			  enum restart_action a)
{
	long nr;

	if (a == RESTART_RESUME || a == RESTART_RESUME_CALL) {
		resume_save(e, regs, current->orig_ax, a == RESTART_RESUME);
		return true;
	}
	if (!resume_armed(regs))
		return false;
	nr = resume_armed_nr();
	if (resume_ctx(nr, regs->sp) != RESUME_ROOM) {
		trace_with(TR_RESTART, &(struct trace_fields){ .nr = nr, .what = "dropped" },
			   "%s continuation dropped: a handler came before its restart_syscall, "
			   "no room to save it again", syscall_name(nr));
		return false;
	}
	resume_save(e, regs, nr, true);
	trace_with(TR_RESTART, &(struct trace_fields){ .nr = nr, .what = "saved" },
		   "%s continuation saved again: a handler came before its restart_syscall",
		   syscall_name(nr));
	return true;
}

static void handle_signal(struct ksignal *ksig, struct pt_regs *regs)
{
	struct resume_entry re;
	unsigned long frame;
	sigset_t blocked;
	bool resume, stepping;

	resume = resume_wanted(&re, regs, syscall_restart(regs, ksig));
	rseq_signal_deliver(ksig->sig, regs);
	/* A single-stepped task stops at its handler's first instruction
	 * instead, TF off in the frame (kernel/step.c). */
	stepping = test_ti_flag(current_thread_info(), TIF_SINGLESTEP);
	if (stepping)
		user_disable_single_step(current);
	if (setup_rt_frame(ksig, regs, resume ? re.seq : 0, &frame)) {
		trace_with(TR_DELIVER, &(struct trace_fields){ .sig = ksig->sig, .what = "noframe" },
			   "%s -> cannot build the frame: SIGSEGV", signal_name(ksig->sig));
		force_sigsegv(ksig->sig);
		return;
	}
	if (resume)
		resume_push(&re, frame);
	/* The frame holds the mask sigreturn restores; the handler runs under
	 * the current (maybe temporary) one plus sa_mask (signal_delivered). */
	clear_ti_flag(current_thread_info(), TIF_RESTORE_SIGMASK);
	blocked.sig = current->blocked.sig | ksig->ka.mask.sig;
	if (!(ksig->ka.flags & SA_NODEFER))
		sigaddset(&blocked, ksig->sig);
	set_current_blocked(&blocked);
	if (stepping)
		ptrace_notify(SIGTRAP, 0);
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

	trace_with(TR_RESTART, &(struct trace_fields){ .nr = __NR_restart_syscall, .what = restart->fn_name },
		   "restart_syscall -> %s", restart->fn_name);
	return restart->fn(restart);
}

#define SS_FLAG_BITS SS_AUTODISARM

/* As Linux's do_sigaltstack (kernel/signal.c): EPERM while running on the stack;
 * asking for what is already set is no change. */
static int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp)
{
	struct task_struct *t = current;

	if (oss) {
		memset(oss, 0, sizeof(*oss));
		oss->ss_sp = (void __user *)t->sas_ss_sp;
		oss->ss_size = t->sas_ss_size;
		oss->ss_flags = sas_ss_flags(sp) | (t->sas_ss_flags & SS_FLAG_BITS);
	}
	if (ss) {
		unsigned long ss_sp = (unsigned long)ss->ss_sp;
		size_t ss_size = ss->ss_size;
		unsigned int ss_flags = ss->ss_flags;
		unsigned int ss_mode = ss_flags & ~SS_FLAG_BITS;

		if (on_sig_stack(sp))
			return -EPERM;
		if (ss_mode != SS_DISABLE && ss_mode != SS_ONSTACK && ss_mode != 0)
			return -EINVAL;
		if (t->sas_ss_sp == ss_sp && t->sas_ss_size == ss_size && t->sas_ss_flags == ss_flags)
			return 0;
		if (ss_mode == SS_DISABLE) {
			ss_size = 0;
			ss_sp = 0;
		} else if (ss_size < MINSIGSTKSZ) {
			return -ENOMEM;
		}
		t->sas_ss_sp = ss_sp;
		t->sas_ss_size = ss_size;
		t->sas_ss_flags = ss_flags;
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
	struct fpx_sw_bytes host_sw;
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
		regs->fpstate = NULL;		/* a fresh FPU, as Linux gives */
	} else if (regs->fpstate) {
		/* Over the host frame's own area, checked before the host
		 * restores it; on failure the host gets none at all. */
		host_sw = *fpx_sw(regs->fpstate);
		if (copy_from_user(regs->fpstate, sc->fpstate, fpsize) ||
		    !fpstate_valid(regs->fpstate, &host_sw)) {
			regs->fpstate = NULL;
			goto badframe;
		}
	}
	sys_sigaltstack_restore(&uc.uc_stack);

	/* A restored rax must never be taken for a restart code. */
	current->orig_ax = -1;
	set_restart_fn(&current_thread_info()->restart_block, do_no_restart_syscall);
	trace_with(TR_DELIVER, &(struct trace_fields){ .what = "sigreturn" }, "sigreturn -> ip %#lx",
		   regs->ip);
	/* SA_RESUME: reinstall this frame's continuation, if it has one. */
	resume_sigreturn((unsigned long)frame, sc, sc->reserved1[RESUME_SEQ_SLOT]);
	return regs->ax;

badframe:
	trace_with(TR_DELIVER, &(struct trace_fields){ .what = "badframe" }, "sigreturn: bad frame -> SIGSEGV");
	/* signal_fault: a plain forced SIGSEGV; a handler of the program's
	 * may still run if it is neither blocked nor ignored. */
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	return 0;
}
