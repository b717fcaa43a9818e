/* The restart decision (arch/x86/kernel/signal.c: handle_signal and
 * arch_do_signal_or_restart), as a pure function of the code the system call
 * returned, whether a handler will run, and its sa_flags. kernel/restart.c
 * has the two switch statements; kernel/signal_deliver.c applies the result
 * to pt_regs. */
#ifndef UMK_RESTART_H
#define UMK_RESTART_H

#include <umk/types.h>

enum restart_action {
	RESTART_NONE,		/* not a restart code: leave rax as it is */
	RESTART_EINTR,		/* rax = -EINTR */
	RESTART_SYSCALL,	/* rip -= 2, rax = orig_rax: the same call again */
	RESTART_RESTARTBLOCK,	/* rip -= 2, rax = __NR_restart_syscall */
};

enum restart_action restart_decision(long ret, bool handler, unsigned long sa_flags);
const char *restart_action_name(enum restart_action a);

#endif
