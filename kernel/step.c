/*
 * kernel/step.c: single-stepping a traced task (Linux's
 * arch/x86/kernel/step.c and send_sigtrap of arch/x86/kernel/ptrace.c).
 *
 * PTRACE_SINGLESTEP sets the trap flag (EFLAGS.TF) in the tracee's user
 * registers, its pt_regs in the host frame of its trap. umk's return to user
 * mode is the host's sigreturn, which loads TF with the rest: the host CPU
 * runs one user instruction and raises a debug exception, which the host
 * delivers to umk as SIGTRAP with si_code TRAP_TRACE and si_addr the next ip.
 * arch/trap.c takes it as exc_debug_user (kernel/entry.c), which sends the
 * task that same SIGTRAP, as Linux's exc_debug_user does; its
 * signal-delivery-stop is the step's stop.
 *
 * A `syscall` instruction is no user instruction the CPU finishes: it traps
 * into umk (SIGSYS), so the step is reported on the way out of the call
 * (syscall_trace_exit: SIGTRAP, TRAP_BRKPT, as Linux's
 * user_single_step_report), before any instruction after it runs. A
 * handler a stepped task enters is a stop of its own (handle_signal,
 * kernel/signal/signal_deliver.c), with TF off.
 *
 * TIF_FORCED_TF records that the tracer, not the program, set TF: the
 * tracer's view of the flags hides it (ptrace's getregs), and only then is
 * it cleared when the stepping ends.
 */
#include <umk/mm.h>
#include <umk/ptrace.h>
#include <umk/sched.h>
#include <umk/uapi/siginfo.h>

#include <umk/sched/signal.h>

/* Whether the instruction at regs->ip loads the flags (popf, iret), past
 * its prefixes: its TF is then the program's own (is_setting_trap_flag). */
static bool is_setting_trap_flag(struct task_struct *child, struct pt_regs *regs)
{
	unsigned char opcode[15];
	size_t i, copied;

	copied = access_process_vm(child, regs->ip, opcode, sizeof(opcode));
	for (i = 0; i < copied; i++) {
		switch (opcode[i]) {
		case 0x9d: case 0xcf:		/* popf, iret */
			return true;
		case 0x66: case 0x67:		/* operand and address size */
		case 0x26: case 0x2e: case 0x36: case 0x3e:
		case 0x64: case 0x65:		/* segment overrides */
		case 0xf0: case 0xf2: case 0xf3:	/* lock, repeats */
		case 0x40 ... 0x4f:		/* REX */
			continue;
		default:
			return false;
		}
	}
	return false;
}

void user_enable_single_step(struct task_struct *child)
{
	struct pt_regs *regs = child->regs;
	unsigned long oflags = regs->flags;

	set_ti_flag(task_thread_info(child), TIF_SINGLESTEP);
	regs->flags |= X86_EFLAGS_TF;
	/* A popf or iret about to run sets TF its own way: not forced. */
	if (is_setting_trap_flag(child, regs)) {
		clear_ti_flag(task_thread_info(child), TIF_FORCED_TF);
		return;
	}
	/* The program had TF on already: it stays its own. */
	if (oflags & X86_EFLAGS_TF)
		return;
	set_ti_flag(task_thread_info(child), TIF_FORCED_TF);
}

void user_disable_single_step(struct task_struct *child)
{
	clear_ti_flag(task_thread_info(child), TIF_SINGLESTEP);
	/* TF is cleared only if the tracer set it. */
	if (test_ti_flag(task_thread_info(child), TIF_FORCED_TF)) {
		clear_ti_flag(task_thread_info(child), TIF_FORCED_TF);
		child->regs->flags &= ~X86_EFLAGS_TF;
	}
}

/* The SIGTRAP of a debug exception (send_sigtrap): si_addr is the user ip. */
void send_sigtrap(struct pt_regs *regs, int si_code)
{
	force_sig_fault(SIGTRAP, si_code, regs->ip);
}

/* A step over a system call, reported at its exit. */
void user_single_step_report(struct pt_regs *regs)
{
	send_sigtrap(regs, TRAP_BRKPT);
}
