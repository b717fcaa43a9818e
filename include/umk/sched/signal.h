/* include/umk/sched/signal.h: what the signal files of kernel/signal/ share (signal.c:
 * generation and dequeueing; signal_deliver.c: frames, sigreturn and the
 * restart decision; signal_calls.c: the system calls). */
#ifndef UMK_SCHED_SIGNAL_H
#define UMK_SCHED_SIGNAL_H

#include <umk/sched.h>
#include <umk/sigframe.h>
#include <umk/uapi/poll.h>

#define SIG_KERNEL_ONLY_MASK (sigmask(SIGKILL) | sigmask(SIGSTOP))
#define sig_kernel_only(sig) ((sig) < SIGRTMIN && (sigmask(sig) & SIG_KERNEL_ONLY_MASK))
#define for_each_thread(sig, t) list_for_each_entry(t, &(sig)->thread_head, thread_node)

static inline struct k_sigaction *sig_action(struct task_struct *t, int sig)
{
	return &t->sighand->action[sig - 1];
}

static inline bool valid_signal(unsigned long sig)
{
	return sig <= _NSIG;
}

/* signal.c */
bool sig_handler_ignored(void __user *handler, int sig);
void flush_sigqueue(struct sigpending *p);
bool do_notify_parent(struct task_struct *tsk, int sig);
void flush_sigqueue_mask(unsigned long mask, struct sigpending *p);
int send_signal(int sig, kernel_siginfo_t *info, struct task_struct *t, bool group);
bool prepare_signal(int sig, struct task_struct *p);
/* A POSIX timer's signal (kernel/time/posix-timers.c): its sigqueue is
 * made and freed with the timer, counted in RLIMIT_SIGPENDING meanwhile
 * (false past it); queued once prepare_signal let it through. */
bool posixtimer_init_sigqueue(struct sigqueue *q);
void posixtimer_free_sigqueue(struct sigqueue *q);
void posixtimer_queue_sigqueue(struct sigqueue *q, struct task_struct *t, bool group);
void fill_kill_info(kernel_siginfo_t *info, int sig, int code);
int dequeue_signal(const sigset_t *mask, kernel_siginfo_t *info);
bool get_signal(struct ksignal *ksig);
/* kernel/fs/coredump.c: write the core file of the current process, dying
 * of the signal of info, if its RLIMIT_CORE and core_pattern allow: true
 * when it was written. core_pattern is kernel.core_pattern ("core"). */
bool do_coredump(const kernel_siginfo_t *info);
extern char core_pattern[128];
/* kernel.core_uses_pid (kernel/fs/proc_sysctl.c) */
bool core_uses_pid(void);
void force_sigsegv(int sig);
void force_sig_fault(int sig, int code, unsigned long addr);
void recalc_sigpending(void);
void signal_wake_up(struct task_struct *t, bool fatal);

/* signal_calls.c: may current send sig to t? 0 or -EPERM (Linux's
 * check_kill_permission, for a signal from user space). */
int check_kill_permission(int sig, struct task_struct *t);
int kill_pgrp(pid_t pgrp, int sig, int priv);

/* exit.c: a group none of whose members has a parent in another group of
 * the same session (will_become_orphaned_pgrp), ignoring ignored_task. */
bool will_become_orphaned_pgrp(pid_t pgrp, struct task_struct *ignored_task);

/* signal_deliver.c */
void set_current_blocked(sigset_t *newset);
void arch_do_signal_or_restart(struct pt_regs *regs);

/* kernel/fs/signalfd.c (Linux's include/linux/signalfd.h). sig has just
 * become pending for t: wake the signalfd readers and pollers of t's
 * handlers (send_signal calls it). */
static inline void signalfd_notify(struct task_struct *t, int sig)
{
	if (waitqueue_active(&t->sighand->signalfd_wqh))
		wake_up_poll(&t->sighand->signalfd_wqh, POLLIN);
}
/* The last task using sighand is gone: take what still waits off its queue
 * (do_exit, before sighand is freed). */
void signalfd_cleanup(struct sighand_struct *sighand);


#endif
