/* Resource limits inside the kernel (include/linux/sched/signal.h's
 * rlimit helpers, kernel/sys.c's do_prlimit). The limits live in
 * signal_struct: the threads of a process share them, clone without
 * CLONE_THREAD copies them, exec keeps them. */
#ifndef UMK_RESOURCE_H
#define UMK_RESOURCE_H

#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/uapi/resource.h>

/* umk's sysctl fs.nr_open: the fd table's fixed size. RLIMIT_NOFILE may
 * not be raised past it (EPERM, as Linux past nr_open). */
#define NR_OPEN_MAX NR_OPEN_DEFAULT

static inline unsigned long task_rlimit(struct task_struct *t, unsigned int res)
{
	return t->signal->rlim[res].rlim_cur;
}

static inline unsigned long task_rlimit_max(struct task_struct *t, unsigned int res)
{
	return t->signal->rlim[res].rlim_max;
}

static inline unsigned long rlimit(unsigned int res)
{
	return task_rlimit(current, res);
}

/* kernel/resource.c */
/* The limits pid 1 starts with: the host's, as umk got them (boot). */
void rlimit_init(struct rlimit *rlim);
/* RLIMIT_CPU: (re)arm the CPU-time check for the task about to run (NULL
 * or the idle task: none); schedule() calls it at every pick, with
 * next->last_ran already set when next is new on the CPU. */
void rlimit_cpu_arm(struct task_struct *next);
/* Validate and apply a new limit and/or read the old one (Linux's
 * do_prlimit): -EINVAL, -EPERM, or 0. */
int do_prlimit(struct task_struct *tsk, unsigned int resource, const struct rlimit *new_rlim,
	       struct rlimit *old_rlim);

/* kernel/sys.c: resource usage (Linux's getrusage and its accounting) */
/* What p used, for who = RUSAGE_SELF, _CHILDREN, _BOTH or _THREAD. */
void getrusage_task(struct task_struct *p, int who, struct rusage *r);
/* tsk is exiting: its CPU time and switches go to its process's total. */
void account_exit(struct task_struct *tsk);
/* parent reaps child, a whole dead process: the child's totals and those
 * of the children it reaped go to the parent's children totals. */
void account_reaped_child(struct task_struct *parent, struct task_struct *child);

#endif
