/*
 * kernel/resource.c: resource limits (kernel/sys.c's getrlimit, setrlimit,
 * prlimit64 and do_prlimit; the RLIMIT_CPU part of
 * kernel/time/posix-cpu-timers.c).
 *
 * The limits live in signal_struct (include/umk/resource.h). pid 1 starts
 * with umk's own limits from the host, as a program started by a shell
 * inherits the shell's, except RLIMIT_NOFILE, which is clamped to umk's
 * fd table (NR_OPEN_MAX, umk's fs.nr_open).
 *
 * Privilege: raising a hard limit needs CAP_SYS_RESOURCE (root has it,
 * and may raise RLIMIT_NOFILE up to NR_OPEN_MAX), else -EPERM; prlimit64
 * on another process needs all its ids to be the caller's real ones, or
 * that capability (check_prlimit_permission).
 *
 * RLIMIT_CPU: one kernel timer, armed by schedule() for the process about
 * to run at the moment its CPU time (kernel/time/time.c's process clock) would
 * reach the next limit if it kept the CPU. On expiry: SIGKILL at the hard
 * limit; else SIGXCPU past the soft limit, which then grows by a second
 * (so the next SIGXCPU comes a second later), as Linux does.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/uaccess.h>

#include <umk/sched/signal.h>

/* Linux's INIT_RLIMITS, for a limit the host will not tell. */
static const struct rlimit init_rlimits[RLIM_NLIMITS] = {
	[RLIMIT_CPU] = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_FSIZE] = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_DATA] = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_STACK] = { 8UL << 20, RLIM_INFINITY },	/* _STK_LIM */
	[RLIMIT_CORE] = { 0, RLIM_INFINITY },
	[RLIMIT_RSS] = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_NPROC] = { 0, 0 },			/* set from threads-max */
	[RLIMIT_NOFILE] = { 1024, 4096 },		/* INR_OPEN_CUR, INR_OPEN_MAX */
	[RLIMIT_MEMLOCK] = { 8UL << 20, 8UL << 20 },
	[RLIMIT_AS] = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_LOCKS] = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_SIGPENDING] = { 0, 0 },			/* set from threads-max */
	[RLIMIT_MSGQUEUE] = { 819200, 819200 },		/* MQ_BYTES_MAX */
	[RLIMIT_NICE] = { 0, 0 },
	[RLIMIT_RTPRIO] = { 0, 0 },
	[RLIMIT_RTTIME] = { RLIM_INFINITY, RLIM_INFINITY },
};

void rlimit_init(struct rlimit *rlim)
{
	unsigned int i;

	for (i = 0; i < RLIM_NLIMITS; i++) {
		rlim[i] = init_rlimits[i];
		os_getrlimit(i, &rlim[i].rlim_cur, &rlim[i].rlim_max);
	}
	/* Linux's fork_init: max_threads / 2 */
	if (!rlim[RLIMIT_NPROC].rlim_max)
		rlim[RLIMIT_NPROC] = (struct rlimit){ MAX_THREADS / 2, MAX_THREADS / 2 };
	if (!rlim[RLIMIT_SIGPENDING].rlim_max)
		rlim[RLIMIT_SIGPENDING] = (struct rlimit){ MAX_THREADS / 2, MAX_THREADS / 2 };
	rlim[RLIMIT_NOFILE].rlim_cur = min(rlim[RLIMIT_NOFILE].rlim_cur, (unsigned long)NR_OPEN_MAX);
	rlim[RLIMIT_NOFILE].rlim_max = min(rlim[RLIMIT_NOFILE].rlim_max, (unsigned long)NR_OPEN_MAX);
}

/* ---- RLIMIT_CPU ---- */

static struct timer_list cpu_limit_timer;
static bool cpu_limit_timer_ready;

/* A limit in seconds as ns; KTIME_MAX for none (or one too far away). */
static s64 limit_ns(unsigned long sec)
{
	if (sec == RLIM_INFINITY || sec >= (unsigned long)KTIME_SEC_MAX)
		return KTIME_MAX;
	return (s64)sec * NSEC_PER_SEC;
}

/* The CPU time of current's process: its threads' time, and current's
 * since it went on the CPU (the process clock of kernel/time/time.c). */
static s64 process_cputime(void)
{
	return clock_get_ns(CLOCK_PROCESS_CPUTIME_ID);
}

static void cpu_limit_fn(struct timer_list *t)
{
	struct task_struct *tsk = current;
	struct signal_struct *sig;
	kernel_siginfo_t info;
	s64 now_cpu;

	if (tsk == idle_task || tsk->exit_state || !tsk->signal)
		return;
	sig = tsk->signal;
	now_cpu = process_cputime();
	memset(&info, 0, sizeof(info));
	info.si_code = SI_KERNEL;	/* Linux sends both as SEND_SIG_PRIV */
	if (now_cpu >= limit_ns(sig->rlim[RLIMIT_CPU].rlim_max)) {
		info.si_signo = SIGKILL;
		send_signal(SIGKILL, &info, sig->leader, true);
		return;
	}
	if (now_cpu >= limit_ns(sig->rlim[RLIMIT_CPU].rlim_cur)) {
		info.si_signo = SIGXCPU;
		send_signal(SIGXCPU, &info, sig->leader, true);
		sig->rlim[RLIMIT_CPU].rlim_cur++;
	}
	rlimit_cpu_arm(tsk);
}

void rlimit_cpu_arm(struct task_struct *next)
{
	struct signal_struct *sig;
	s64 next_ns, used;

	if (!cpu_limit_timer_ready) {
		timer_setup(&cpu_limit_timer, cpu_limit_fn, "rlimit_cpu");
		cpu_limit_timer_ready = true;
	}
	if (!next || next == idle_task || !next->signal) {
		del_timer(&cpu_limit_timer);
		return;
	}
	sig = next->signal;
	next_ns = min(limit_ns(sig->rlim[RLIMIT_CPU].rlim_cur),
		      limit_ns(sig->rlim[RLIMIT_CPU].rlim_max));
	if (next_ns == KTIME_MAX) {
		del_timer(&cpu_limit_timer);
		return;
	}
	/* next is current, or about to be with last_ran set: either way the
	 * sum below is its process's time so far. */
	used = next->sum_exec_ns + (ktime_get() - next->last_ran);
	{
		struct task_struct *t;

		list_for_each_entry(t, &sig->thread_head, thread_node)
			if (t != next)
				used += t->sum_exec_ns;
	}
	mod_timer(&cpu_limit_timer, ktime_get() + (next_ns > used ? next_ns - used : 0));
}

/* ---- the system calls ---- */

static int check_prlimit_permission(struct task_struct *task)
{
	const struct cred *c = &current->cred, *tc = &task->cred;

	if (task == current)
		return 0;
	if (c->uid == tc->euid && c->uid == tc->suid && c->uid == tc->uid &&
	    c->gid == tc->egid && c->gid == tc->sgid && c->gid == tc->gid)
		return 0;
	return capable(CAP_SYS_RESOURCE) ? 0 : -EPERM;
}

int do_prlimit(struct task_struct *tsk, unsigned int resource, const struct rlimit *new_rlim,
	       struct rlimit *old_rlim)
{
	struct rlimit *rlim;

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (new_rlim) {
		if (new_rlim->rlim_cur > new_rlim->rlim_max)
			return -EINVAL;
		if (resource == RLIMIT_NOFILE && new_rlim->rlim_max > NR_OPEN_MAX)
			return -EPERM;
	}
	rlim = &tsk->signal->rlim[resource];
	if (new_rlim && new_rlim->rlim_max > rlim->rlim_max && !capable(CAP_SYS_RESOURCE))
		return -EPERM;
	if (old_rlim)
		*old_rlim = *rlim;
	if (new_rlim) {
		*rlim = *new_rlim;
		if (resource == RLIMIT_CPU && tsk->signal == current->signal)
			rlimit_cpu_arm(current);
	}
	return 0;
}

long sys_getrlimit(unsigned int resource, struct rlimit __user *rlim)
{
	struct rlimit value;
	int ret = do_prlimit(current, resource, NULL, &value);

	if (!ret && copy_to_user(rlim, &value, sizeof(value)))
		ret = -EFAULT;
	return ret;
}

long sys_setrlimit(unsigned int resource, struct rlimit __user *rlim)
{
	struct rlimit new_rlim;

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (copy_from_user(&new_rlim, rlim, sizeof(new_rlim)))
		return -EFAULT;
	return do_prlimit(current, resource, &new_rlim, NULL);
}

long sys_prlimit64(pid_t pid, unsigned int resource, const struct rlimit64 __user *new_rlim,
		   struct rlimit64 __user *old_rlim)
{
	struct rlimit64 old64, new64;
	struct rlimit old, new;
	struct task_struct *tsk;
	int ret;

	if (new_rlim) {
		if (copy_from_user(&new64, new_rlim, sizeof(new64)))
			return -EFAULT;
		new.rlim_cur = new64.rlim_cur;
		new.rlim_max = new64.rlim_max;
	}
	tsk = pid ? find_task_by_pid(pid) : current;
	if (!tsk || tsk->exit_state)
		return -ESRCH;
	ret = check_prlimit_permission(tsk);
	if (ret)
		return ret;
	ret = do_prlimit(tsk, resource, new_rlim ? &new : NULL, old_rlim ? &old : NULL);
	if (!ret && old_rlim) {
		old64.rlim_cur = old.rlim_cur;
		old64.rlim_max = old.rlim_max;
		if (copy_to_user(old_rlim, &old64, sizeof(old64)))
			ret = -EFAULT;
	}
	return ret;
}
