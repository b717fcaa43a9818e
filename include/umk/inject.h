/* --inject=CALL#N:SIG (kernel/inject.c): a signal umk itself delivers while
 * the Nth sleeping occurrence of a system call sleeps. */
#ifndef UMK_INJECT_H
#define UMK_INJECT_H

struct task_struct;

/* inject_setup(), from arch/boot.c, is in include/umk/entry.h. */

/* invoke_syscall: current enters and leaves system call nr. */
void inject_syscall_enter(long nr);
void inject_syscall_exit(void);

/* schedule(): prev leaves the CPU for the reason the trace gives ("sleep",
 * "stop"...); finish_task_switch(): the next task runs, the sleeper is off
 * the CPU and may be signalled. */
void inject_switch(struct task_struct *prev, const char *why);
void inject_finish_switch(void);

#endif
