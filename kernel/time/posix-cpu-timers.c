/*
 * kernel/time/posix-cpu-timers.c: POSIX timers and clock_nanosleep on the
 * CPU-time clocks (Linux's kernel/time/posix-cpu-timers.c).
 *
 * CLOCK_THREAD_CPUTIME_ID is the creating thread's time on the CPU,
 * CLOCK_PROCESS_CPUTIME_ID its process's (the living threads', as umk's
 * clock_gettime counts it: docs/linux-differences.md). A timer armed on
 * either sits on its process's cpu_timers list, its expiry on that clock.
 *
 * Checking them: Linux looks at the running task's CPU timers at every
 * tick. umk has no tick; as for RLIMIT_CPU (kernel/resource.c), one kernel
 * timer is armed by schedule() for the task about to run
 * (posix_cpu_timers_arm), at the instant the first of its thread's or its
 * process's CPU timers would expire if it kept the CPU. Its function runs
 * with that task current, fires what is due and arms again. CPU time only
 * passes for a task on the CPU, so no other task's timer can come due
 * meanwhile. Under --clock=virtual the check runs on the virtual clock,
 * which a spinning task moves a slice at a time.
 *
 * Firing: a one-shot timer is spent (timer_gettime then reads zeros, as
 * Linux's); a periodic one waits for its signal's delivery to be re-armed
 * (posix-timers.c). A timer armed for a time already reached fires at once,
 * inside timer_settime. A thread's exit stops the timers on its clock:
 * timer_settime on them is then ESRCH.
 *
 * clock_nanosleep on CLOCK_PROCESS_CPUTIME_ID sleeps until the process's
 * other threads have used the time (a lone thread never wakes but for a
 * signal, as on Linux), with a timer of its own on the stack; interrupted,
 * it leaves posix_cpu_nsleep_restart in restart_block. The thread clock
 * cannot be slept on (EOPNOTSUPP, kernel/time/time.c).
 */
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>

#include <umk/sched/signal.h>

#include "posix-timers.h"

/* The CPU-time check, armed for the task on the CPU. */
static struct timer_list cpu_timers_timer;
static bool cpu_timers_timer_ready;

static bool thread_clock(const struct k_itimer *timr)
{
	return timr->it_clock == CLOCK_THREAD_CPUTIME_ID;
}

u64 process_cpu_time(struct signal_struct *sig)
{
	struct task_struct *t;
	u64 sum = 0;

	list_for_each_entry(t, &sig->thread_head, thread_node)
		sum += task_sched_runtime(t);
	return sum;
}

/* The timer's clock now (cpu_clock_sample, cpu_clock_sample_group), for a
 * timer whose thread, if it has one, still exists. */
static s64 cpu_clock_sample(const struct k_itimer *timr)
{
	if (thread_clock(timr))
		return task_sched_runtime(timr->it_cpu_task);
	return process_cpu_time(timr->it_signal);
}

/* Anything for the CPU-time check to watch in sig: a CPU-clock timer, or
 * ITIMER_PROF or ITIMER_VIRTUAL armed. */
static bool has_cpu_timers(struct signal_struct *sig)
{
	return !list_empty(&sig->cpu_timers) || sig->it[CPUCLOCK_PROF].expires ||
	       sig->it[CPUCLOCK_VIRT].expires;
}

static void posix_cpu_timers_fn(struct timer_list *t);

void posix_cpu_timers_arm(struct task_struct *next)
{
	struct signal_struct *sig;
	struct k_itimer *timr;
	s64 thread_now, process_now, left = KTIME_MAX;
	struct task_struct *t;
	bool any = false;

	if (!cpu_timers_timer_ready) {
		timer_setup(&cpu_timers_timer, posix_cpu_timers_fn, "posix_cpu_timers");
		cpu_timers_timer_ready = true;
	}
	if (!next || next == idle_task || !next->signal || !has_cpu_timers(next->signal)) {
		del_timer(&cpu_timers_timer);
		return;
	}
	sig = next->signal;
	/* next is current, or about to be with last_ran set and the task that
	 * left already charged: plain sums, as rlimit_cpu_arm's. */
	thread_now = next->sum_exec_ns + (ktime_get() - next->last_ran);
	process_now = thread_now;
	list_for_each_entry(t, &sig->thread_head, thread_node)
		if (t != next)
			process_now += t->sum_exec_ns;
	list_for_each_entry(timr, &sig->cpu_timers, cpu_list) {
		s64 now;

		if (thread_clock(timr) && timr->it_cpu_task != next)
			continue;
		now = thread_clock(timr) ? thread_now : process_now;
		left = min(left, timr->it_expires > now ? timr->it_expires - now : 0);
		any = true;
	}
	for (int i = CPUCLOCK_PROF; i <= CPUCLOCK_VIRT; i++) {
		s64 expires = (s64)sig->it[i].expires, now = process_now;

		if (!expires)
			continue;
		/* ITIMER_VIRTUAL's clock is the user time: when the task
		 * spends some of what is left in the kernel, the check comes
		 * early, finds nothing due and arms again. */
		if (i == CPUCLOCK_VIRT)
			now = (s64)process_user_time(sig);
		left = min(left, expires > now ? expires - now : 0);
		any = true;
	}
	if (any)
		mod_timer(&cpu_timers_timer, ktime_add_safe(ktime_get(), left));
	else
		del_timer(&cpu_timers_timer);
}

static void cpu_timer_fire(struct k_itimer *timr)
{
	timr->it_status = POSIX_TIMER_DISARMED;
	if (timr->it_nanosleep) {
		wake_up_process(timr->it_process);
		timr->it_expires = 0;
		return;
	}
	posix_timer_queue_signal(timr);
	if (!timr->it_interval)
		timr->it_expires = 0;
}

/* ITIMER_PROF or ITIMER_VIRTUAL due (check_cpu_itimer): its signal to
 * the process, and the next expiry one interval on, or none. */
static void check_cpu_itimer(struct task_struct *tsk, struct cpu_itimer *it, u64 now, int signo)
{
	kernel_siginfo_t info;

	if (!it->expires || it->expires > now)
		return;
	it->expires = it->incr ? it->expires + it->incr : 0;
	memset(&info, 0, sizeof(info));
	info.si_signo = signo;
	info.si_code = SI_KERNEL;	/* Linux sends it as SEND_SIG_PRIV */
	send_signal(signo, &info, tsk, true);
}

/* run_posix_cpu_timers: the check came due, with the task it was armed for
 * current (schedule re-arms it at every switch). */
static void posix_cpu_timers_fn(struct timer_list *unused)
{
	struct task_struct *tsk = current;
	struct k_itimer *timr, *n;
	struct list_head firing;
	s64 thread_now, process_now = 0;
	struct task_struct *t;

	(void)unused;
	if (tsk == idle_task || tsk->exit_state || !tsk->signal)
		return;
	thread_now = task_sched_runtime(tsk);
	list_for_each_entry(t, &tsk->signal->thread_head, thread_node)
		process_now += task_sched_runtime(t);
	INIT_LIST_HEAD(&firing);
	list_for_each_entry_safe(timr, n, &tsk->signal->cpu_timers, cpu_list) {
		if (thread_clock(timr) && timr->it_cpu_task != tsk)
			continue;
		if (timr->it_expires <= (thread_clock(timr) ? thread_now : process_now))
			list_move_tail(&timr->cpu_list, &firing);
	}
	while (!list_empty(&firing)) {
		timr = list_first_entry(&firing, struct k_itimer, cpu_list);
		list_del_init(&timr->cpu_list);
		cpu_timer_fire(timr);
	}
	/* ITIMER_PROF on the process's user and system time, ITIMER_VIRTUAL
	 * on its user time (kernel/sched/cputime.c) */
	check_cpu_itimer(tsk, &tsk->signal->it[CPUCLOCK_PROF], (u64)process_now, SIGPROF);
	check_cpu_itimer(tsk, &tsk->signal->it[CPUCLOCK_VIRT], process_user_time(tsk->signal),
			 SIGVTALRM);
	posix_cpu_timers_arm(tsk);
}

/* arm_timer: onto its process's list, in order of expiry, and the check
 * re-armed if the process is current's. */
static void arm_timer(struct k_itimer *timr)
{
	struct list_head *head = &timr->it_signal->cpu_timers, *pos;

	timr->it_status = POSIX_TIMER_ARMED;
	for (pos = head->next; pos != head; pos = pos->next)
		if (list_entry(pos, struct k_itimer, cpu_list)->it_expires > timr->it_expires)
			break;
	list_add_tail(&timr->cpu_list, pos);
	if (current->signal == timr->it_signal)
		posix_cpu_timers_arm(current);
}

static int posix_cpu_timer_create(struct k_itimer *timr)
{
	timr->it_cpu_task = thread_clock(timr) ? current : NULL;
	return 0;
}

/* What is left at now: a periodic timer not armed (its signal waits, or
 * SIGEV_NONE) is moved past now first, counting overruns; one due says
 * 1 ns, an expired SIGEV_NONE one 0. */
static void __posix_cpu_timer_get(struct k_itimer *timr, struct itimerspec64 *itp, s64 now)
{
	u64 iv = timr->it_interval;

	if (iv && timr->it_status != POSIX_TIMER_ARMED)
		timr->it_overrun += posix_timer_forward(&timr->it_expires, now, iv);
	if (now < timr->it_expires)
		itp->it_value = timr->it_expires - now;
	else if (timr->it_sigev_notify != SIGEV_NONE)
		itp->it_value = 1;
}

static void posix_cpu_timer_get(struct k_itimer *timr, struct itimerspec64 *itp)
{
	if ((thread_clock(timr) && !timr->it_cpu_task) || !timr->it_expires)
		return;
	itp->it_interval = timr->it_interval;
	__posix_cpu_timer_get(timr, itp, cpu_clock_sample(timr));
}

static int posix_cpu_timer_set(struct k_itimer *timr, int flags, const struct itimerspec64 *new,
			       struct itimerspec64 *old)
{
	bool sigev_none = timr->it_sigev_notify == SIGEV_NONE;
	s64 old_expires = timr->it_expires, new_expires = new->it_value, now;

	if (thread_clock(timr) && !timr->it_cpu_task)
		return -ESRCH;
	list_del_init(&timr->cpu_list);
	timr->it_status = POSIX_TIMER_DISARMED;
	now = cpu_clock_sample(timr);
	if (old) {
		old->it_value = 0;
		if (old_expires)
			__posix_cpu_timer_get(timr, old, now);
	}
	if (new_expires && !(flags & TIMER_ABSTIME))
		new_expires = ktime_add_safe(new_expires, now);
	timr->it_expires = new_expires;
	if (!sigev_none && new_expires && now < new_expires)
		arm_timer(timr);
	posix_timer_set_common(timr, new);
	/* Already due: fire now, even if the thread never runs again. */
	if (!sigev_none && new_expires && now >= new_expires)
		cpu_timer_fire(timr);
	return 0;
}

static void posix_cpu_timer_del(struct k_itimer *timr)
{
	list_del_init(&timr->cpu_list);
	timr->it_status = POSIX_TIMER_DISARMED;
}

static void posix_cpu_timer_rearm(struct k_itimer *timr)
{
	if (thread_clock(timr) && !timr->it_cpu_task)
		return;
	timr->it_overrun += posix_timer_forward(&timr->it_expires, cpu_clock_sample(timr),
						timr->it_interval);
	arm_timer(timr);
}

const struct k_clock clock_posix_cpu = {
	.timer_create = posix_cpu_timer_create,
	.timer_set = posix_cpu_timer_set,
	.timer_get = posix_cpu_timer_get,
	.timer_del = posix_cpu_timer_del,
	.timer_rearm = posix_cpu_timer_rearm,
};

void posix_cpu_timers_exit(struct task_struct *tsk)
{
	struct k_itimer *timr;

	list_for_each_entry(timr, &tsk->signal->posix_timers, list) {
		if (timr->it_cpu_task != tsk)
			continue;
		list_del_init(&timr->cpu_list);
		timr->it_cpu_task = NULL;
	}
}

/* ---- clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID) ---- */

/* Sleep until the process clock reaches req (absolute) or has moved by req.
 * 0 when it did; else -ERESTART_RESTARTBLOCK with the expiry in restart
 * and the time left at rmtp, or -EFAULT if rmtp cannot be written. */
static long do_cpu_nanosleep(int flags, s64 req, struct restart_block *restart)
{
	const struct itimerspec64 it = { .it_value = req }, zero = { 0, 0 };
	struct itimerspec64 left = { 0, 0 };
	struct __kernel_timespec ts;
	struct k_itimer timer;
	s64 expires;

	memset(&timer, 0, sizeof(timer));
	INIT_LIST_HEAD(&timer.list);
	INIT_LIST_HEAD(&timer.ignored_list);
	INIT_LIST_HEAD(&timer.cpu_list);
	INIT_LIST_HEAD(&timer.sigq.list);
	timer.it_signal = current->signal;
	timer.it_clock = CLOCK_PROCESS_CPUTIME_ID;
	timer.kclock = &clock_posix_cpu;
	timer.it_overrun = -1;
	timer.it_nanosleep = true;
	timer.it_process = current;
	posix_cpu_timer_set(&timer, flags, &it, NULL);
	while (!signal_pending(current)) {
		if (!timer.it_expires) {
			posix_cpu_timer_del(&timer);
			return 0;
		}
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
	set_current_state(TASK_RUNNING);
	expires = timer.it_expires;
	posix_cpu_timer_set(&timer, 0, &zero, &left);
	posix_cpu_timer_del(&timer);
	if (!left.it_value)
		return 0;	/* it fired as the signal came */
	restart->nanosleep.expires = expires;
	if (restart->nanosleep.rmtp) {
		ts = ns_to_timespec(left.it_value);
		if (copy_to_user(restart->nanosleep.rmtp, &ts, sizeof(ts)))
			return -EFAULT;
	}
	return -ERESTART_RESTARTBLOCK;
}

static long posix_cpu_nsleep_restart(struct restart_block *restart)
{
	return do_cpu_nanosleep(TIMER_ABSTIME, restart->nanosleep.expires, restart);
}

long posix_cpu_nsleep(int flags, s64 req, struct __kernel_timespec __user *rmtp)
{
	struct restart_block *restart = &current_thread_info()->restart_block;
	long error;

	restart->nanosleep.rmtp = rmtp;
	error = do_cpu_nanosleep(flags, req, restart);
	if (error == -ERESTART_RESTARTBLOCK) {
		if (flags & TIMER_ABSTIME)
			return -ERESTARTNOHAND;
		restart->nanosleep.clockid = CLOCK_PROCESS_CPUTIME_ID;
		set_restart_fn(restart, posix_cpu_nsleep_restart);
	}
	return error;
}
