/* include/umk/entry.h: the host interface, upwards: what the kernel offers
 * arch/ (include/umk/os.h is the other direction). The entry points arch/
 * calls on a trap from user mode (kernel/entry.c, after Linux's
 * kernel/entry/common.c), each ending in exit_to_user_mode_loop(), the one
 * way back to user mode; what arch/ may know of a task; and what the
 * command line asks of the kernel at boot. */
#ifndef UMK_ENTRY_H
#define UMK_ENTRY_H

#include <umk/ptrace.h>
#include <umk/types.h>

struct task_struct;
struct arch_context;

/* ---- kernel/sched/task.c: what arch/ may know of a task ----
 * arch/ cannot include the kernel's headers (their Linux types clash with
 * the host's), so it sees tasks through these. */
struct task_struct *get_current(void);	/* NULL if not on a kernel stack */
void *task_stack_base(struct task_struct *p);
struct arch_context **task_arch_context(struct task_struct *p);
pid_t task_pid_nr(struct task_struct *p);
const char *task_comm(struct task_struct *p);
/* Make the idle task (pid 0) around the kernel stack at stack, for boot. */
struct task_struct *idle_task_init(void *stack);

/* A `syscall` instruction trapped: nr from the trap, regs->ip just after
 * the instruction. */
void do_syscall_64(struct pt_regs *regs, long nr);
/* A host interrupt arrived in user mode (already recorded as pending). */
void irqentry_exit_to_user(struct pt_regs *regs);
/* A user-mode CPU exception: send signo with si_code and si_addr. */
void exc_user_fault(struct pt_regs *regs, int signo, int code, unsigned long addr);
/* A debug exception in user mode (a single step: si_code TRAP_TRACE). */
void exc_debug_user(struct pt_regs *regs, int si_code);

void exit_to_user_mode_loop(struct pt_regs *regs);
void irq_replay(void);

/* What umk's command line asks of the kernel: arch/boot.c parses it and
 * hands it over whole to start_kernel(), as a boot loader hands Linux its
 * boot parameters. */
#define BOOT_MAX_TRACE_SINKS 3
#define BOOT_MAX_RW_DIRS 8
struct boot_options {
	char **argv;			/* pid 1's: argv[0] is the program */
	char **envp;
	const char *cwd;		/* umk's host working directory: pid 1's */
	int nr_rw_dirs;			/* --rw DIR: host directories, absolute,
					 * writable inside umk at the same path */
	const char *rw_dirs[BOOT_MAX_RW_DIRS];
	bool clock_virtual;		/* --clock=virtual */
	bool net_none;			/* --net=none: no AF_INET, AF_INET6 */
	int nr_trace_sinks;		/* where events are written as they happen */
	struct {
		int fd;			/* a host fd: --trace's file or stderr, or
					 * the pipe to a renderer arch/ started */
		bool json;		/* JSON lines; else text */
		const char *name;	/* the file, "stderr" or the renderer */
	} trace_sinks[BOOT_MAX_TRACE_SINKS];
};

/* kernel/init.c: runs on the idle task's stack once arch/ has booted.
 * Applies opts, then runs opts->argv[0] as pid 1. */
void start_kernel(const struct boot_options *opts) __noreturn;

/* kernel/inject.c: --inject=CALL#N:SIG, checked before boot; NULL, or what
 * is wrong with spec. */
const char *inject_setup(const char *spec);

/* Exit statuses of umk itself (documented in README.md) */
#define UMK_EXIT_USAGE 2
#define UMK_EXIT_FAILURE 125	/* host unsupported, or a kernel oops */
#define UMK_EXIT_NOEXEC 126	/* the program cannot be loaded */
#define UMK_EXIT_NOENT 127	/* the program was not found */

#endif
