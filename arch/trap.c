/*
 * arch/trap.c: host signals as traps, interrupts and exceptions.
 *
 * One table maps each host signal umk uses to its entry stub (entry.S). The
 * handlers' contract:
 *  - SIGSYS comes only from a `syscall` in user mode (Syscall User Dispatch).
 *    The number and the return address are taken from siginfo, never from
 *    the frame: the host has already applied its own restart fix-up to rax
 *    and rip when rax looked like an -ERESTART code (docs/design.md, "Traps").
 *  - SIGALRM and SIGIO are interrupts. In kernel mode they are only recorded
 *    and replayed later (interrupts are always "off" in umk's kernel); from
 *    user mode they enter the kernel like any trap.
 *  - SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGTRAP in user mode become a
 *    signal to the task; a SIGTRAP that is no int3's is the debug exception
 *    of the trap flag a tracer set (kernel/step.c). In kernel mode a fault
 *    at an instruction listed in the exception table resumes at its fixup;
 *    any other is an oops.
 * Each handler leaves in the frame's cr2 slot the selector that __restore_rt
 * must set: BLOCK when going back to user mode, the old one otherwise.
 *
 * The handlers are __tls_free (host.h): they start with whatever FS base
 * the trap found, which may be the user's (arch/fsbase.c). What they call
 * in kernel/ touches no thread-local state; what they call in arch/ loads
 * the kernel's FS base first, oops() included.
 */
#include "host.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <umk/entry.h>
#include <umk/kernel.h>
#include <umk/os.h>
#include <umk/ptrace.h>

_Static_assert(offsetof(ucontext_t, uc_mcontext) == 40, "entry.S UC_MCONTEXT");
_Static_assert(offsetof(ucontext_t, uc_mcontext.gregs[REG_TRAPNO]) == 200, "entry.S UC_TRAPNO");
_Static_assert(offsetof(ucontext_t, uc_mcontext.gregs[REG_CR2]) == 216, "entry.S UC_CR2");
_Static_assert(offsetof(mcontext_t, gregs[REG_RIP]) == offsetof(struct pt_regs, ip), "pt_regs.ip");
_Static_assert(offsetof(mcontext_t, gregs[REG_RAX]) == offsetof(struct pt_regs, ax), "pt_regs.ax");
_Static_assert(offsetof(mcontext_t, gregs[REG_CSGSFS]) == offsetof(struct pt_regs, cs), "pt_regs.cs");
_Static_assert(offsetof(mcontext_t, fpregs) == offsetof(struct pt_regs, fpstate), "pt_regs.fpstate");

volatile uint8_t sud_selector = SYSCALL_DISPATCH_FILTER_ALLOW;

static inline __tls_free struct pt_regs *uc_regs(ucontext_t *uc)
{
	return (struct pt_regs *)&uc->uc_mcontext;
}

static inline void __tls_free set_return_selector(ucontext_t *uc, unsigned int sel)
{
	uc->uc_mcontext.gregs[REG_CR2] = sel;
}

void __tls_free handle_sigsys(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel)
{
	struct pt_regs *regs = uc_regs(uc);

	if (!trap_from_user(uc, oldsel) || si->si_code != SYS_USER_DISPATCH)
		oops("SIGSYS in kernel mode", sig, si, uc);
	regs->ip = (unsigned long)si->si_call_addr;
	do_syscall_64(regs, si->si_syscall);
	set_return_selector(uc, SYSCALL_DISPATCH_FILTER_BLOCK);
}

static void __tls_free interrupt(int irq, ucontext_t *uc, unsigned int oldsel)
{
	irq_record(irq);
	if (!trap_from_user(uc, oldsel)) {
		set_return_selector(uc, oldsel);
		return;
	}
	irqentry_exit_to_user(uc_regs(uc));
	set_return_selector(uc, SYSCALL_DISPATCH_FILTER_BLOCK);
}

void __tls_free handle_sigalrm(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel)
{
	interrupt(IRQ_TIMER, uc, oldsel);
}

/* SIGIO is the console's and the host sockets' (arch/net.c): the host
 * drops a SIGIO that comes while one is pending, so its siginfo cannot say
 * whose it was, and both devices look. */
void __tls_free handle_sigio(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel)
{
	irq_record(IRQ_NET);
	interrupt(IRQ_CONSOLE, uc, oldsel);
}

/* A signal sent to umk itself (^C on its terminal, a kill from the host)
 * is an interrupt too: the kernel passes it on to its processes, as a tty
 * does to its foreground process group. Linux's numbers are the host's. */
void __tls_free handle_hostsig(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel)
{
	irq_record_host_signal(sig);
	interrupt(IRQ_HOSTSIG, uc, oldsel);
}

/* The host terminal was resized: the console tty's TIOCSWINSZ
 * (kernel/drivers/tty_io.c). */
void __tls_free handle_sigwinch(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel)
{
	interrupt(IRQ_WINCH, uc, oldsel);
}

/* The exception table built by the EX_ENTRY macro in uaccess.S. */
struct exception_table_entry {
	int insn, fixup;	/* offsets from the fields themselves */
};
extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

static bool __tls_free fixup_exception(ucontext_t *uc)
{
	unsigned long ip = uc->uc_mcontext.gregs[REG_RIP];
	const struct exception_table_entry *e;

	for (e = __start___ex_table; e < __stop___ex_table; e++) {
		if ((unsigned long)&e->insn + e->insn == ip) {
			uc->uc_mcontext.gregs[REG_RIP] = (unsigned long)&e->fixup + e->fixup;
			return true;
		}
	}
	return false;
}

void __tls_free handle_fault(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel)
{
	if (!trap_from_user(uc, oldsel)) {
		if ((sig == SIGSEGV || sig == SIGBUS) && fixup_exception(uc)) {
			set_return_selector(uc, oldsel);
			return;
		}
		oops("kernel fault", sig, si, uc);
	}
	/* The host's SIGTRAP is a debug exception (#DB: a single step under
	 * TF, TRAP_TRACE; kernel/step.c) but for int3's, which is SI_KERNEL,
	 * as Linux's exc_debug_user and do_int3_user make them. */
	if (sig == SIGTRAP && si->si_code != SI_KERNEL)
		exc_debug_user(uc_regs(uc), si->si_code);
	else
		exc_user_fault(uc_regs(uc), sig, si->si_code, (unsigned long)si->si_addr);
	set_return_selector(uc, SYSCALL_DISPATCH_FILTER_BLOCK);
}

/* The host signals umk takes, and how (docs/design.md, "Traps"): the raw
 * rt_sigaction call, so that sa_restorer is our __restore_rt, on the
 * sigaltstack (the kernel stack of the task in user mode), with an empty
 * sa_mask: interrupt masking is umk's soft flag. The timer also restarts
 * host calls the kernel was making when it nested. The exceptions are
 * SA_NODEFER: the kernel goes on running in the context of a user fault
 * (the task dies there, and its exit writes clear_child_tid with
 * put_user), and a fault at a copy_to_user must reach fixup_exception even
 * then; with the signal blocked the host would kill umk instead. */
static const struct {
	void (*entry)(int, siginfo_t *, void *);
	unsigned long flags;
} host_signals[NSIG] = {
	[SIGSYS] = { entry_SIGSYS, 0 },
	[SIGALRM] = { entry_SIGALRM, SA_RESTART },
	[SIGIO] = { entry_SIGIO, SA_RESTART },
	[SIGINT] = { entry_hostsig, SA_RESTART },
	[SIGQUIT] = { entry_hostsig, SA_RESTART },
	[SIGTERM] = { entry_hostsig, SA_RESTART },
	[SIGHUP] = { entry_hostsig, SA_RESTART },
	[SIGWINCH] = { entry_SIGWINCH, SA_RESTART },
	[SIGSEGV] = { entry_fault, SA_NODEFER },
	[SIGBUS] = { entry_fault, SA_NODEFER },
	[SIGILL] = { entry_fault, SA_NODEFER },
	[SIGFPE] = { entry_fault, SA_NODEFER },
	[SIGTRAP] = { entry_fault, SA_NODEFER },
};

struct kernel_sigaction {
	void *handler;
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

void trap_init(void)
{
	struct kernel_sigaction ka;
	int sig;

	for (sig = 1; sig < NSIG; sig++) {
		if (!host_signals[sig].entry)
			continue;
		ka = (struct kernel_sigaction){
			.handler = (void *)host_signals[sig].entry,
			.flags = SA_SIGINFO | SA_ONSTACK | SA_RESTORER | host_signals[sig].flags,
			.restorer = __restore_rt,
			.mask = 0,
		};
		if (syscall(SYS_rt_sigaction, sig, &ka, NULL, sizeof(ka.mask)))
			panic("trap_init: rt_sigaction(%d) failed", sig);
	}
	/* A console write to a closed pipe must give -EPIPE, not kill umk. */
	signal(SIGPIPE, SIG_IGN);
}

/* Turn on Syscall User Dispatch: from now on a `syscall` outside
 * [kentry_start, kentry_end) traps whenever sud_selector is BLOCK. */
void sud_enable(void)
{
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, (unsigned long)kentry_start,
		  (unsigned long)(kentry_end - kentry_start), &sud_selector))
		panic("sud_enable: prctl(PR_SET_SYSCALL_USER_DISPATCH) failed");
}

/* addr and its symbol; a return address is looked up one byte back, as
 * gdb does, so a call to a noreturn function names its caller. */
static void print_symbol(char *buf, size_t n, unsigned long addr, bool is_return)
{
	Dl_info info;

	if (dladdr((void *)(addr - is_return), &info) && info.dli_sname)
		snprintf(buf, n, "0x%lx %s+0x%lx", addr, info.dli_sname,
			 addr - (unsigned long)info.dli_saddr);
	else
		snprintf(buf, n, "0x%lx", addr);
}

/* A kernel-mode fault nobody expected: say everything, then stop umk. The
 * backtrace follows the frame pointers from the faulting context. */
void oops(const char *what, int sig, const siginfo_t *si, const ucontext_t *uc)
{
	const greg_t *g = uc->uc_mcontext.gregs;
	struct task_struct *t = get_current();
	unsigned long lo = t ? (unsigned long)task_stack_base(t) : 0;
	unsigned long *fp = (unsigned long *)g[REG_RBP];
	char sym[160];
	int depth;

	print_symbol(sym, sizeof(sym), g[REG_RIP], false);
	fprintf(stderr, "umk: oops: %s: %s (%d) at address %p\n", what, strsignal(sig), sig,
		si->si_addr);
	fprintf(stderr, "umk: oops: ip %s sp %#llx task %d (%s)\n", sym,
		(unsigned long long)g[REG_RSP], t ? task_pid_nr(t) : -1, t ? task_comm(t) : "?");
	fprintf(stderr, "umk: oops: backtrace:\n");
	for (depth = 0; fp && depth < 32; depth++) {
		unsigned long ret;

		if ((unsigned long)fp & 7 || (unsigned long)fp < lo ||
		    (unsigned long)fp >= lo + THREAD_SIZE - 16)
			break;
		ret = fp[1];
		if (!ret)
			break;
		print_symbol(sym, sizeof(sym), ret, true);
		fprintf(stderr, "umk: oops:   %s\n", sym);
		if ((unsigned long *)fp[0] <= fp)
			break;
		fp = (unsigned long *)fp[0];
	}
	os_exit(UMK_EXIT_FAILURE);
}
