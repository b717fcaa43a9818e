/*
 * kernel/entry.c: the generic entry and exit code (kernel/entry/common.c).
 *
 * arch/ calls one of the three entry points below on a trap from user mode,
 * with regs pointing at the user registers in the host frame. Every one of
 * them leaves through exit_to_user_mode_loop(): pending interrupts are
 * replayed, the task is preempted if its slice is over, and signals are
 * delivered with the restart decision. A breakpoint there sees every return
 * to user mode.
 */
#include <umk/entry.h>
#include <umk/fs.h>
#include <umk/mm.h>
#include <umk/net.h>
#include <umk/os.h>
#include <umk/rseq.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/tty.h>

#include <umk/sched/signal.h>

/* Interrupts recorded while the kernel ran (or that brought us in). */
void irq_replay(void)
{
	unsigned long pending = arch_take_pending_irqs();

	if (pending & (1UL << IRQ_TIMER))
		run_timers();
	if (pending & (1UL << IRQ_CONSOLE))
		console_interrupt();
	if (pending & (1UL << IRQ_HOSTSIG))
		host_signals_interrupt(arch_take_host_signals());
	if (pending & (1UL << IRQ_WINCH))
		tty_winch_interrupt();
	if (pending & (1UL << IRQ_NET))
		inet_host_interrupt();
}

void exit_to_user_mode_loop(struct pt_regs *regs)
{
	unsigned long work;

	for (;;) {
		irq_replay();
		work = current_thread_info()->flags;
		if (!(work & EXIT_TO_USER_MODE_WORK))
			break;
		if (work & _TIF_NEED_RESCHED)
			schedule();
		if (work & _TIF_SIGPENDING)
			arch_do_signal_or_restart(regs);
		if (work & _TIF_NOTIFY_RESUME) {
			clear_ti_flag(current_thread_info(), TIF_NOTIFY_RESUME);
			rseq_handle_notify_resume(0, regs);
		}
	}
	vtime_user_enter(current);
}

/* Linux's enter_from_user_mode: the task's user time stops, and its
 * registers are regs, in the host frame of the trap; orig_ax is the
 * system call's number, -1 for an interrupt or an exception. */
static void enter_from_user_mode(struct pt_regs *regs, long orig_ax)
{
	vtime_user_exit(current);
	current->regs = regs;
	current->orig_ax = orig_ax;
}

void do_syscall_64(struct pt_regs *regs, long nr)
{
	bool traced = current_thread_info()->flags & (_TIF_SYSCALL_TRACE | _TIF_SYSCALL_EMU);

	enter_from_user_mode(regs, nr);
	resume_syscall_entry();
	/* ptrace's syscall-enter-stop may change the call, or skip it (-1);
	 * PTRACE_SYSEMU always skips it. */
	if (traced)
		nr = syscall_trace_enter(regs, nr);
	if (!traced || nr != -1)
		regs->ax = invoke_syscall(regs, nr);
	/* syscall-exit-stop: the tracer sees rax before the restart decision;
	 * or a single step's report (kernel/step.c). */
	if (current_thread_info()->flags & (_TIF_SYSCALL_TRACE | _TIF_SINGLESTEP))
		syscall_trace_exit(regs);
	exit_to_user_mode_loop(regs);
}

void irqentry_exit_to_user(struct pt_regs *regs)
{
	enter_from_user_mode(regs, -1);
	exit_to_user_mode_loop(regs);
}

void exc_user_fault(struct pt_regs *regs, int signo, int code, unsigned long addr)
{
	enter_from_user_mode(regs, -1);
	/* A page fault (not a general protection fault's SI_KERNEL) */
	if (signo == SIGSEGV && (code == SEGV_MAPERR || code == SEGV_ACCERR) &&
	    !do_user_addr_fault(addr, &code)) {
		exit_to_user_mode_loop(regs);	/* the stack grew: run it again */
		return;
	}
	trace_with(TR_FAULT, &(struct trace_fields){ .sig = signo }, "%s addr=0x%lx", signal_name(signo), addr);
	force_sig_fault(signo, code, addr);
	exit_to_user_mode_loop(regs);
}

/* Linux's exc_debug_user: the host's SIGTRAP for a debug exception, whose
 * si_code says which (TRAP_TRACE: a single step, kernel/step.c). */
void exc_debug_user(struct pt_regs *regs, int si_code)
{
	enter_from_user_mode(regs, -1);
	trace_with(TR_FAULT, &(struct trace_fields){ .sig = SIGTRAP }, "SIGTRAP addr=0x%lx", regs->ip);
	send_sigtrap(regs, si_code);
	exit_to_user_mode_loop(regs);
}
