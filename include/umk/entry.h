/* The kernel's entry points, called by arch/ on a trap from user mode
 * (kernel/entry.c, after Linux's kernel/entry/common.c). Each ends in
 * exit_to_user_mode_loop(): the one way back to user mode. */
#ifndef UMK_ENTRY_H
#define UMK_ENTRY_H

#include <umk/ptrace.h>

/* A `syscall` instruction trapped: nr from the trap, regs->ip just after
 * the instruction. */
void do_syscall_64(struct pt_regs *regs, long nr);
/* A host interrupt arrived in user mode (already recorded as pending). */
void irqentry_exit_to_user(struct pt_regs *regs);
/* A user-mode CPU exception: send signo with si_code and si_addr. */
void exc_user_fault(struct pt_regs *regs, int signo, int code, unsigned long addr);

void exit_to_user_mode_loop(struct pt_regs *regs);
void irq_replay(void);

/* kernel/init.c: runs on the idle task's stack once arch/ has booted.
 * Runs argv[0] as pid 1 with envp. */
void start_kernel(char **argv, char **envp) __noreturn;

/* kernel/time.c: --clock=virtual. Set before start_kernel, never after. */
extern bool clock_virtual;

/* Exit statuses of umk itself (documented in README.md) */
#define UMK_EXIT_USAGE 2
#define UMK_EXIT_FAILURE 125	/* host unsupported, or a kernel oops */
#define UMK_EXIT_NOEXEC 126	/* the program cannot be loaded */
#define UMK_EXIT_NOENT 127	/* the program was not found */

#endif
