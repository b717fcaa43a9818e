/*
 * kernel/sched/syscalls.c: the scheduling system calls
 * (kernel/sched/syscalls.c, and getpriority/setpriority of kernel/sys.c):
 * policies and priorities, nice values, CPU affinity.
 *
 * kernel/sched/core.c's scheduler honours what these set (its header says
 * how). A task's policy, rt_priority and nice are its own: a pid names a
 * thread, as on Linux, and a C library's pthread_setschedparam passes the
 * thread's tid. Without CAP_SYS_NICE a task may only touch tasks of its
 * own user, lower its nice value only as far as RLIMIT_NICE allows (EACCES
 * from setpriority, EPERM from sched_setscheduler), and take a real-time
 * policy or priority only up to RLIMIT_RTPRIO.
 *
 * umk has one CPU: every affinity mask is {0}, and a mask without CPU 0 is
 * EINVAL.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>
#include <umk/uapi/resource.h>
#include <umk/uapi/sched.h>

#define MAX_RT_PRIO 100
#define MIN_NICE -20
#define MAX_NICE 19
#define SETPARAM_POLICY -1	/* sched_setparam: keep the policy */

/* A task by pid, 0 for the caller (find_process_by_pid). */
static struct task_struct *find_process_by_pid(pid_t pid)
{
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;

	return p == idle_task ? NULL : p;
}

static bool valid_policy(int policy)
{
	return policy == SCHED_NORMAL || policy == SCHED_BATCH || policy == SCHED_IDLE ||
	       rt_policy(policy) || policy == SCHED_DEADLINE;
}

/* [19, -20] as the rlimit-style [1, 40] RLIMIT_NICE is counted in. */
static long nice_to_rlimit(int nice)
{
	return MAX_NICE - nice + 1;
}

static bool is_nice_reduction(struct task_struct *p, int nice)
{
	return (unsigned long)nice_to_rlimit(nice) <= task_rlimit(p, RLIMIT_NICE);
}

static bool can_nice(struct task_struct *p, int nice)
{
	return is_nice_reduction(p, nice) || capable(CAP_SYS_NICE);
}

/* What a task without CAP_SYS_NICE may not do (user_check_sched_setscheduler). */
static int user_check_sched_setscheduler(struct task_struct *p, int policy,
					 unsigned int prio, bool reset_on_fork)
{
	unsigned long rlim_rtprio = task_rlimit(p, RLIMIT_RTPRIO);

	if (capable(CAP_SYS_NICE))
		return 0;
	if (rt_policy(policy)) {
		if (policy != p->policy && !rlim_rtprio)
			return -EPERM;
		if (prio > p->rt_priority && prio > rlim_rtprio)
			return -EPERM;
	}
	if (policy == SCHED_DEADLINE)
		return -EPERM;
	if (p->policy == SCHED_IDLE && policy != SCHED_IDLE && !is_nice_reduction(p, p->nice))
		return -EPERM;
	if (!check_same_owner(p))
		return -EPERM;
	if (p->sched_reset_on_fork && !reset_on_fork)
		return -EPERM;
	return 0;
}

/* Linux's _sched_setscheduler and __sched_setscheduler for the legacy
 * calls: the nice value stays. SCHED_DEADLINE is a valid policy but
 * these calls cannot give its parameters: EINVAL. */
static long do_sched_setscheduler(pid_t pid, int policy, struct sched_param __user *param)
{
	struct sched_param lp;
	struct task_struct *p;
	bool reset_on_fork;
	unsigned int prio;
	long ret;

	if (!param || pid < 0)
		return -EINVAL;
	if (copy_from_user(&lp, param, sizeof(lp)))
		return -EFAULT;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (policy == SETPARAM_POLICY) {
		policy = p->policy;
		reset_on_fork = p->sched_reset_on_fork;
	} else {
		reset_on_fork = policy & SCHED_RESET_ON_FORK;
		policy &= ~SCHED_RESET_ON_FORK;
		if (!valid_policy(policy))
			return -EINVAL;
	}
	prio = (unsigned int)lp.sched_priority;
	if (prio > MAX_RT_PRIO - 1)
		return -EINVAL;
	if (policy == SCHED_DEADLINE || rt_policy(policy) != (prio != 0))
		return -EINVAL;
	ret = user_check_sched_setscheduler(p, policy, prio, reset_on_fork);
	if (ret)
		return ret;
	p->sched_reset_on_fork = reset_on_fork;
	if (policy != p->policy || (rt_policy(policy) && prio != p->rt_priority))
		sched_setattr(p, policy, prio, p->nice);
	return 0;
}

long sys_sched_setscheduler(pid_t pid, int policy, struct sched_param __user *param)
{
	if (policy < 0)
		return -EINVAL;
	return do_sched_setscheduler(pid, policy, param);
}

long sys_sched_setparam(pid_t pid, struct sched_param __user *param)
{
	return do_sched_setscheduler(pid, SETPARAM_POLICY, param);
}

long sys_sched_getscheduler(pid_t pid)
{
	struct task_struct *p;

	if (pid < 0)
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	return p->policy | (p->sched_reset_on_fork ? SCHED_RESET_ON_FORK : 0);
}

long sys_sched_getparam(pid_t pid, struct sched_param __user *param)
{
	struct sched_param lp = { 0 };
	struct task_struct *p;

	if (!param || pid < 0)
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (rt_policy(p->policy))
		lp.sched_priority = (int)p->rt_priority;
	return copy_to_user(param, &lp, sizeof(lp)) ? -EFAULT : 0;
}

long sys_sched_get_priority_max(int policy)
{
	if (rt_policy(policy))
		return MAX_RT_PRIO - 1;
	if (policy == SCHED_DEADLINE || policy == SCHED_NORMAL || policy == SCHED_BATCH ||
	    policy == SCHED_IDLE)
		return 0;
	return -EINVAL;
}

long sys_sched_get_priority_min(int policy)
{
	if (rt_policy(policy))
		return 1;
	if (policy == SCHED_DEADLINE || policy == SCHED_NORMAL || policy == SCHED_BATCH ||
	    policy == SCHED_IDLE)
		return 0;
	return -EINVAL;
}

/* SCHED_RR's quantum, 0 for SCHED_FIFO; a SCHED_NORMAL task's slice, as
 * umk's round robin gives it (Linux: EEVDF's slice, when others run). */
long sys_sched_rr_get_interval(pid_t pid, struct __kernel_timespec __user *interval)
{
	struct __kernel_timespec ts;
	struct task_struct *p;
	u64 ns = 0;

	if (pid < 0)
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (p->policy == SCHED_RR)
		ns = RR_TIMESLICE;
	else if (!rt_policy(p->policy))
		ns = sched_normal_slice(p);
	ts.tv_sec = ns / NSEC_PER_SEC;
	ts.tv_nsec = ns % NSEC_PER_SEC;
	return copy_to_user(interval, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/* ---- affinity: one CPU ---- */

#define CPUMASK_SIZE sizeof(unsigned long)	/* umk's cpumask_size() */

long sys_sched_setaffinity(pid_t pid, unsigned int len, unsigned long __user *user_mask_ptr)
{
	unsigned long mask = 0;
	struct task_struct *p;

	if (len > CPUMASK_SIZE)
		len = CPUMASK_SIZE;
	if (copy_from_user(&mask, user_mask_ptr, len))
		return -EFAULT;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (!check_same_owner(p) && !capable(CAP_SYS_NICE))
		return -EPERM;
	if (!(mask & 1))
		return -EINVAL;		/* no CPU umk has */
	return 0;
}

long sys_sched_getaffinity(pid_t pid, unsigned int len, unsigned long __user *user_mask_ptr)
{
	unsigned long mask = 1;		/* CPU 0 */
	unsigned int retlen = min(len, (unsigned int)CPUMASK_SIZE);
	struct task_struct *p;

	if (len * 8 < 1)
		return -EINVAL;
	if (len & (sizeof(unsigned long) - 1))
		return -EINVAL;
	p = find_process_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (copy_to_user(user_mask_ptr, &mask, retlen))
		return -EFAULT;
	return retlen;
}

/* ---- nice values (kernel/sys.c) ---- */

/* Whether the task p is one that who names for which (PRIO_PROCESS: a
 * thread id; PRIO_PGRP: the threads of a group's processes; PRIO_USER:
 * the tasks whose real uid is who). who 0 is the caller's own. */
static bool prio_target(struct task_struct *p, int which, int who)
{
	if (p == idle_task || p->exit_state == EXIT_DEAD)
		return false;
	switch (which) {
	case PRIO_PROCESS:
		return p->pid == (who ? who : current->pid);
	case PRIO_PGRP:
		return p->signal->pgrp == (who ? who : current->signal->pgrp);
	default:
		return p->cred.uid == (who ? (uid_t)who : current->cred.uid);
	}
}

/* Linux's set_one_prio: error is -ESRCH until a task was found. */
static int set_one_prio(struct task_struct *p, int niceval, int error)
{
	const struct cred *c = &current->cred;

	if (p->cred.uid != c->euid && p->cred.euid != c->euid && !capable(CAP_SYS_NICE))
		return -EPERM;
	if (niceval < p->nice && !can_nice(p, niceval))
		return -EACCES;
	sched_setattr(p, p->policy, p->rt_priority, niceval);
	return error == -ESRCH ? 0 : error;
}

long sys_setpriority(int which, int who, int niceval)
{
	struct task_struct *p;
	int error = -ESRCH;

	if (which > PRIO_USER || which < PRIO_PROCESS)
		return -EINVAL;
	niceval = max(MIN_NICE, min(niceval, MAX_NICE));
	list_for_each_entry(p, &task_list, tasks) {
		if (prio_target(p, which, who))
			error = set_one_prio(p, niceval, error);
	}
	return error;
}

/* The highest 20 - nice of the tasks named (so never negative: the C
 * library turns it back into a nice value); -ESRCH for none. */
long sys_getpriority(int which, int who)
{
	struct task_struct *p;
	long retval = -ESRCH;

	if (which > PRIO_USER || which < PRIO_PROCESS)
		return -EINVAL;
	list_for_each_entry(p, &task_list, tasks) {
		if (prio_target(p, which, who) && nice_to_rlimit(p->nice) > retval)
			retval = nice_to_rlimit(p->nice);
	}
	return retval;
}
