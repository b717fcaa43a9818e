/* struct pt_regs: the user registers saved at a kernel entry.
 *
 * Departure from Linux: umk's pt_regs is not pushed by entry code; it is the
 * host's struct sigcontext inside the host signal frame of the user-to-kernel
 * trap, on the task's kernel stack. The layout is therefore Linux's x86-64
 * sigcontext (arch/x86/include/uapi/asm/sigcontext.h), with pt_regs' names.
 * orig_ax is not in the frame: it lives in the task (task->orig_ax).
 * Two fields the host's sigreturn ignores carry entry state for arch/:
 * trapno holds the interrupted FS base and cr2 the SUD selector to return
 * with. */
#ifndef UMK_PTRACE_H
#define UMK_PTRACE_H

#include <umk/types.h>

struct pt_regs {
	unsigned long r8, r9, r10, r11, r12, r13, r14, r15;
	unsigned long di, si, bp, bx, dx, ax, cx, sp, ip, flags;
	u16 cs, gs, fs, ss;
	unsigned long err;
	unsigned long trapno;	/* arch/: the user's FS base */
	unsigned long oldmask;
	unsigned long cr2;	/* arch/: SUD selector for the return */
	void *fpstate;		/* host xsave area, or NULL */
	unsigned long reserved1[8];
};

#define X86_EFLAGS_TF 0x100UL
#define X86_EFLAGS_IF 0x200UL
#define X86_EFLAGS_DF 0x400UL
#define X86_EFLAGS_RF 0x10000UL

/* The length of the `syscall` instruction: rewinding ip by it restarts. */
#define SYSCALL_INSN_LEN 2

static inline unsigned long user_fs_base(const struct pt_regs *regs)
{
	return regs->trapno;
}

static inline void set_user_fs_base(struct pt_regs *regs, unsigned long fs)
{
	regs->trapno = fs;
}

/* ---- ptrace (kernel/ptrace.c, Linux's include/linux/ptrace.h) ----
 * task->ptrace: PT_PTRACED while traced, PT_SEIZED if by PTRACE_SEIZE,
 * and the PTRACE_O_* options shifted by PT_OPT_FLAG_SHIFT. The requests
 * and the user ABI are in include/umk/uapi/ptrace.h. */
#define PT_PTRACED 0x00000001
#define PT_SEIZED 0x00010000
#define PT_OPT_FLAG_SHIFT 3
#define PT_EVENT_FLAG(event) (1 << (PT_OPT_FLAG_SHIFT + (event)))
#define PT_TRACESYSGOOD PT_EVENT_FLAG(0)
#define PT_EXITKILL (0x00100000 << PT_OPT_FLAG_SHIFT)

struct task_struct;
struct kernel_siginfo;

/* Single-stepping (kernel/step.c): TF in child's user registers, on and
 * off; the SIGTRAP of a debug exception with si_code; a step over a
 * system call, reported at its exit. */
void user_enable_single_step(struct task_struct *child);
void user_disable_single_step(struct task_struct *child);
void send_sigtrap(struct pt_regs *regs, int si_code);
void user_single_step_report(struct pt_regs *regs);

/* The stops on the system-call path (kernel/entry.c): the entry stop
 * returns the number to run, -1 to skip the call. */
long syscall_trace_enter(struct pt_regs *regs, long nr);
void syscall_trace_exit(struct pt_regs *regs);
/* A PTRACE_EVENT_* stop of current, if its tracer asked for it; exec's
 * legacy SIGTRAP without PTRACE_O_TRACEEXEC. */
void ptrace_event(int event, unsigned long message);
/* A stop with exit_code (SIGTRAP | event << 8) for the tracer, SIGTRAP its
 * siginfo's signal: what the tracer resumed with. */
int ptrace_notify(int exit_code, unsigned long message);
/* signal-delivery-stop (get_signal): the signal to act on, 0 for none. */
int ptrace_signal(int signr, struct kernel_siginfo *info);
/* get_signal's JOBCTL_TRAP_STOP/NOTIFY: group-stop and PTRACE_EVENT_STOP. */
void do_jobctl_trap(void);
/* SIGCONT reached a seized tracee: it re-traps (PTRACE_LISTEN's wake-up). */
void ptrace_trap_notify(struct task_struct *t);
/* fork: a child of a traced task that is traced too (CLONE_PTRACE or an
 * event the tracer asked for). */
void ptrace_init_task(struct task_struct *child, bool ptrace);
/* Which PTRACE_EVENT_* kernel_clone should report for these clone flags,
 * 0 if the tracer did not ask for it. */
int ptrace_clone_event(unsigned long clone_flags, int exit_signal);
/* exit: a tracer's tracees are detached (or killed, PTRACE_O_EXITKILL);
 * a tracee leaves its tracer's list. */
void exit_ptrace(struct task_struct *tracer);
void __ptrace_unlink(struct task_struct *child);

#endif
