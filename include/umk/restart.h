/* The restart decision (arch/x86/kernel/signal.c: handle_signal and
 * arch_do_signal_or_restart), as a pure function of the code the system call
 * returned, whether a handler will run, its sa_flags and, for umk's
 * SA_RESUME, whether the call can be resumed over the handler. kernel/signal/restart.c
 * has the switch statements; kernel/signal/signal_deliver.c applies the result to
 * pt_regs, and kernel/signal/resume.c keeps the continuations SA_RESUME saves. */
#ifndef UMK_RESTART_H
#define UMK_RESTART_H

#include <umk/types.h>

enum restart_action {
	RESTART_NONE,		/* not a restart code: leave rax as it is */
	RESTART_EINTR,		/* rax = -EINTR */
	RESTART_SYSCALL,	/* rip -= 2, rax = orig_rax: the same call again */
	RESTART_RESTARTBLOCK,	/* rip -= 2, rax = __NR_restart_syscall */
	RESTART_RESUME,		/* SA_RESUME: the handler runs, then restart_syscall
				 * runs the continuation saved for its frame */
	RESTART_RESUME_CALL,	/* SA_RESUME: the handler runs, then the same call
				 * again (it wrote back the time left) */
};

/* What SA_RESUME can do for the interrupted call (kernel/signal/resume.c asks). */
enum resume_ctx {
	RESUME_NO,		/* the call does not take part: Linux's table */
	RESUME_ROOM,		/* it does, and a continuation can be saved */
	RESUME_FULL,		/* it does, but RESUME_DEPTH are saved already */
};

enum restart_action restart_decision(long ret, bool handler, unsigned long sa_flags,
				     enum resume_ctx rc);
const char *restart_action_name(enum restart_action a);

#endif
