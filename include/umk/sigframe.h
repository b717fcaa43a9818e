/* The x86-64 signal frame a handler runs on (arch/x86/include/asm/
 * sigframe.h, include/uapi/asm-generic/ucontext.h): Linux's layout, so a
 * program can read siginfo and its ucontext exactly as on Linux. */
#ifndef UMK_SIGFRAME_H
#define UMK_SIGFRAME_H

#include <umk/ptrace.h>
#include <umk/signal.h>

#include <umk/uapi/ucontext.h>

struct ucontext {
	unsigned long uc_flags;
	struct ucontext __user *uc_link;
	stack_t uc_stack;
	struct pt_regs uc_mcontext;	/* struct sigcontext */
	sigset_t uc_sigmask;
};

struct rt_sigframe {
	char __user *pretcode;		/* sa_restorer: the handler returns here */
	struct ucontext uc;
	kernel_siginfo_t info;
	/* the FPU state follows, 64-byte aligned */
};

_Static_assert(sizeof(struct pt_regs) == 256, "struct sigcontext is 256 bytes");
_Static_assert(sizeof(struct ucontext) == 304, "struct ucontext is 304 bytes");

struct ksignal {
	struct k_sigaction ka;
	kernel_siginfo_t info;
	int sig;
};

#endif
