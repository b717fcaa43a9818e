/*
 * kernel/sched/cputime.c: a task's CPU time split into user and system
 * time (Linux's kernel/sched/cputime.c, in the way of its
 * CONFIG_VIRT_CPU_ACCOUNTING_GEN: stamps at the boundaries instead of a
 * sample at each tick).
 *
 * sum_exec_ns is all of a task's time on the CPU (schedule(),
 * kernel/sched/core.c). Of it, stime_ns is the time it spent in umk's
 * kernel: from its entry (a system call, a fault, an interrupt that found
 * it in user mode: kernel/entry.c calls vtime_user_exit) or from the
 * instant it went back on the CPU inside the kernel (vtime_task_switch),
 * to its return to user mode (vtime_user_enter) or the instant it left the
 * CPU. vtime_start is the start of the stretch in progress. The rest,
 * sum_exec_ns - stime_ns, is its user time. Both stamps are on ktime_get(),
 * the clock sum_exec_ns is kept on, so that the system time never exceeds
 * the whole. Under --clock=virtual nothing is stamped and all CPU time is
 * user time: that clock stands still in user mode and moves inside the
 * kernel (a spinning task's slice is added when the slice timer takes it
 * off the CPU, kernel/sched/core.c), so stamps would make it system time.
 *
 * Kernel code only ever runs for the current task, and in the kernel:
 * the current task's system time so far is its stime_ns and the stretch
 * since vtime_start; any other task's is its stime_ns.
 */
#include <umk/sched.h>
#include <umk/timer.h>

#include <umk/sched/signal.h>

void vtime_user_exit(struct task_struct *tsk)
{
	if (!clock_virtual)
		tsk->vtime_start = ktime_get();
}

void vtime_user_enter(struct task_struct *tsk)
{
	if (!clock_virtual)
		tsk->stime_ns += ktime_get() - tsk->vtime_start;
}

void vtime_task_switch(struct task_struct *prev, struct task_struct *next, u64 now)
{
	if (clock_virtual)
		return;
	prev->stime_ns += now - prev->vtime_start;
	next->vtime_start = now;
}

void task_cputime(struct task_struct *t, u64 *utime, u64 *stime)
{
	u64 sum = task_sched_runtime(t);
	u64 sys = t->stime_ns;

	if (t == current && !clock_virtual)
		sys += ktime_get() - t->vtime_start;

	/* The two readings of the clock were a moment apart. */
	*stime = min(sys, sum);
	*utime = sum - *stime;
}

void thread_group_cputime(struct signal_struct *sig, u64 *utime, u64 *stime)
{
	struct task_struct *t;

	*utime = sig->dead_exec_ns - sig->dead_stime_ns;
	*stime = sig->dead_stime_ns;
	list_for_each_entry(t, &sig->thread_head, thread_node) {
		u64 u, s;

		task_cputime(t, &u, &s);
		*utime += u;
		*stime += s;
	}
}

u64 process_user_time(struct signal_struct *sig)
{
	struct task_struct *t;
	u64 sum = 0;

	list_for_each_entry(t, &sig->thread_head, thread_node) {
		u64 u, s;

		task_cputime(t, &u, &s);
		sum += u;
	}
	return sum;
}

u64 nsec_to_clock_t(u64 ns)
{
	return ns / (NSEC_PER_SEC / USER_HZ);
}
