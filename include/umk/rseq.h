/* Restartable sequences inside the kernel (include/linux/rseq.h); the
 * system call and the rules are in kernel/rseq.c. */
#ifndef UMK_RSEQ_H
#define UMK_RSEQ_H

#include <umk/types.h>

struct task_struct;
struct pt_regs;

/* schedule() switches t out: a critical section it was in must abort. */
void rseq_preempt(struct task_struct *t);
/* On the way back to user mode with TIF_NOTIFY_RESUME (sig 0), and from
 * handle_signal before the frame is built (sig: the signal delivered). */
void rseq_handle_notify_resume(int sig, struct pt_regs *regs);
void rseq_signal_deliver(int sig, struct pt_regs *regs);
/* exec drops the registration; clone keeps it without CLONE_VM only. */
void rseq_execve(struct task_struct *t);
void rseq_fork(struct task_struct *t, unsigned long clone_flags);

#endif
