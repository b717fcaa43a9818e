/*
 * kernel/time/posix-timers.c: the POSIX timers of timer_create,
 * timer_settime, timer_gettime, timer_getoverrun and timer_delete (Linux's
 * kernel/time/posix-timers.c, and the timer half of kernel/signal.c's
 * posixtimer_* functions). The CPU-time clocks' timers are in
 * posix-cpu-timers.c; kernel/time/posix-timers.h has the k_itimer and its
 * lifetime.
 *
 * Clocks (posix_clocks[]): CLOCK_REALTIME, CLOCK_MONOTONIC and
 * CLOCK_BOOTTIME run on a kernel timer, whose expiry is CLOCK_MONOTONIC
 * (an absolute time on another clock is converted when it is set);
 * CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID on the CPU-time
 * check of posix-cpu-timers.c. The clocks umk reads but does not time are
 * EOPNOTSUPP, as on Linux, and so are the _ALARM ones, as on a Linux
 * without an RTC; any other id, CLOCK_TAI and the CPU clocks Linux makes
 * from a pid included (umk's clock_gettime has none of them), is EINVAL.
 *
 * Expiry (posix_timer_queue_signal) queues the timer's own sigqueue to the
 * process, or to one thread for SIGEV_THREAD_ID, once: an expiry while it
 * is queued only counts. A periodic timer stays unarmed until its signal
 * is dequeued: posixtimer_deliver_signal, called by dequeue_signal (a
 * handler's delivery, rt_sigtimedwait), re-arms it after now and reports
 * the intervals missed as si_overrun, which timer_getoverrun repeats.
 * A periodic timer whose signal is ignored waits on ignored_posix_timers
 * until a handler replaces SIG_IGN (posixtimer_sig_unignore), then its
 * signal is queued at once. Linux 6.13's model, sequence numbers included:
 * timer_settime and timer_delete make a queued signal stale, dropped when
 * dequeued.
 *
 * Timers belong to a process: fork does not copy them, exec and the last
 * thread's exit delete them (exit_itimers), a thread's exit stops the
 * SIGEV_THREAD_ID timers aimed at it (posix_timers_exit_thread). Each holds
 * a queued-signal slot of RLIMIT_SIGPENDING while it exists (EAGAIN past
 * it). Ids count up from 0 per process, across exec, as Linux's
 * next_posix_timer_id; a lookup walks the process's list (Linux hashes).
 */
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/uaccess.h>

#include <umk/sched/signal.h>

#include "posix-timers.h"

/* ---- lifetime ---- */

void posix_timers_init(struct signal_struct *sig)
{
	INIT_LIST_HEAD(&sig->posix_timers);
	INIT_LIST_HEAD(&sig->ignored_posix_timers);
	INIT_LIST_HEAD(&sig->cpu_timers);
}

static struct k_itimer *alloc_posix_timer(void)
{
	struct k_itimer *tmr = kmalloc(sizeof(*tmr));

	if (!posixtimer_init_sigqueue(&tmr->sigq)) {
		kfree(tmr);
		return NULL;
	}
	INIT_LIST_HEAD(&tmr->list);
	INIT_LIST_HEAD(&tmr->ignored_list);
	INIT_LIST_HEAD(&tmr->cpu_list);
	tmr->refcount = 1;
	return tmr;
}

static void posixtimer_putref(struct k_itimer *tmr)
{
	if (tmr->refcount <= 0)
		panic("posixtimer_putref: timer %d has refcount %d", tmr->it_id, tmr->refcount);
	if (--tmr->refcount)
		return;
	if (tmr->it_timer.pending || !list_empty(&tmr->cpu_list) || !list_empty(&tmr->sigq.list))
		panic("posixtimer_putref: timer %d freed while armed or queued", tmr->it_id);
	posixtimer_free_sigqueue(&tmr->sigq);
	kfree(tmr);
}

void posixtimer_sigqueue_putref(struct sigqueue *q)
{
	posixtimer_putref(container_of(q, struct k_itimer, sigq));
}

/* The timer id of current's process, or NULL (__lock_timer). */
static struct k_itimer *posix_timer_by_id(struct signal_struct *sig, int id)
{
	struct k_itimer *timr;

	if (id < 0)
		return NULL;
	list_for_each_entry(timr, &sig->posix_timers, list)
		if (timr->it_id == id)
			return timr;
	return NULL;
}

static struct k_itimer *lock_timer(int id)
{
	return posix_timer_by_id(current->signal, id);
}

/* The next free id of the process: taken even if the creation fails later,
 * as on Linux. */
static int posix_timer_add(struct signal_struct *sig)
{
	unsigned int cnt;

	for (cnt = 0; cnt <= INT32_MAX; cnt++) {
		int id = sig->next_posix_timer_id++ & INT32_MAX;

		if (!posix_timer_by_id(sig, id))
			return id;
	}
	return -EAGAIN;
}

static void posix_timer_cleanup_ignored(struct k_itimer *tmr)
{
	if (!list_empty(&tmr->ignored_list)) {
		list_del_init(&tmr->ignored_list);
		posixtimer_putref(tmr);
	}
}

/* Make the timer unreachable and disarm it: its queued signal, if any, is
 * stale from now on. The caller drops the owner's reference. */
static void posix_timer_delete(struct k_itimer *timer)
{
	timer->it_signal_seq++;
	list_del_init(&timer->list);
	timer->it_signal = NULL;
	posix_timer_cleanup_ignored(timer);
	timer->kclock->timer_del(timer);
	timer->it_status = POSIX_TIMER_DISARMED;
}

/* exec, and the last thread's exit: every timer of the process goes. */
void exit_itimers(struct signal_struct *sig)
{
	while (!list_empty(&sig->posix_timers)) {
		struct k_itimer *timer = list_first_entry(&sig->posix_timers, struct k_itimer, list);

		posix_timer_delete(timer);
		posixtimer_putref(timer);
	}
}

void posix_timers_exit_thread(struct task_struct *tsk)
{
	struct k_itimer *timr;

	list_for_each_entry(timr, &tsk->signal->posix_timers, list)
		if (timr->it_sig_task == tsk)
			timr->it_sig_task = NULL;
	posix_cpu_timers_exit(tsk);
}

/* ---- the signal ---- */

/* si_overrun and timer_getoverrun are ints: DELAYTIMER_MAX is INT_MAX. */
static int timer_overrun_to_int(struct k_itimer *timr)
{
	return timr->it_overrun_last > INT32_MAX ? INT32_MAX : (int)timr->it_overrun_last;
}

/* Whom the signal goes to: the SIGEV_THREAD_ID thread, or the process,
 * through current when it is one of its threads (posixtimer_get_target:
 * that wakes no other thread). The timer is valid. */
static struct task_struct *posixtimer_get_target(struct k_itimer *tmr)
{
	if (tmr->it_sigev_notify & SIGEV_THREAD_ID)
		return tmr->it_sig_task;
	if (current->signal == tmr->it_signal && !current->exit_state)
		return current;
	return tmr->it_signal->leader;
}

static bool posixtimer_to_process(struct k_itimer *tmr)
{
	return !(tmr->it_sigev_notify & SIGEV_THREAD_ID);
}

/* A periodic timer's signal that was ignored when sent, or flushed by
 * sigaction(SIG_IGN), waits for the handler to change; any other drops
 * the reference the queue held. */
void posixtimer_sig_ignore(struct sigqueue *q)
{
	struct k_itimer *tmr = container_of(q, struct k_itimer, sigq);

	if (tmr->it_signal && tmr->it_sig_periodic)
		list_add(&tmr->ignored_list, &tmr->it_signal->ignored_posix_timers);
	else
		posixtimer_putref(tmr);
}

/* sigaction replaced SIG_IGN for sig: the periodic timers that fired
 * meanwhile have their signal queued now, and re-arm when it is delivered. */
void posixtimer_sig_unignore(struct task_struct *tsk, int sig)
{
	struct k_itimer *tmr, *n;

	list_for_each_entry_safe(tmr, n, &tsk->signal->ignored_posix_timers, ignored_list) {
		struct task_struct *target;

		if (tmr->sigq.info.si_signo != sig)
			continue;
		list_del_init(&tmr->ignored_list);
		if (!list_empty(&tmr->sigq.list))
			panic("posixtimer_sig_unignore: timer %d ignored and queued", tmr->it_id);
		target = posixtimer_get_target(tmr);
		if (target)
			posixtimer_queue_sigqueue(&tmr->sigq, target, posixtimer_to_process(tmr));
		else
			posixtimer_putref(tmr);
	}
}

/* posixtimer_send_sigqueue: prepare_signal says whether sig is ignored
 * (and does job control); a signal already queued only counts. */
static void posixtimer_send_sigqueue(struct k_itimer *tmr)
{
	struct sigqueue *q = &tmr->sigq;
	int sig = q->info.si_signo;
	struct task_struct *t = posixtimer_get_target(tmr);

	if (!t)
		return;
	tmr->it_sigqueue_seq = tmr->it_signal_seq;
	tmr->it_sig_periodic = tmr->it_status == POSIX_TIMER_REQUEUE_PENDING;

	if (!prepare_signal(sig, t)) {
		trace_with(TR_SIGNAL,
			   &(struct trace_fields){ .other = t->pid, .sig = sig, .what = "ignored" },
			   "%s -> %d ignored", signal_name(sig), t->pid);
		/* Blocked when it was queued, ignored since: it stays, as a
		 * regular signal would. */
		if (!list_empty(&q->list))
			return;
		if (tmr->it_sig_periodic) {
			if (list_empty(&tmr->ignored_list)) {
				tmr->refcount++;
				posixtimer_sig_ignore(q);
			}
		} else if (!list_empty(&tmr->ignored_list)) {
			/* Periodic when it was ignored, one-shot now: the
			 * old signal goes. */
			list_del_init(&tmr->ignored_list);
			posixtimer_putref(tmr);
		}
		return;
	}
	if (!list_empty(&q->list))
		return;
	/* Off the ignored list (it was blocked since) keeps that reference. */
	if (list_empty(&tmr->ignored_list))
		tmr->refcount++;
	else
		list_del_init(&tmr->ignored_list);
	posixtimer_queue_sigqueue(q, t, posixtimer_to_process(tmr));
}

void posix_timer_queue_signal(struct k_itimer *timr)
{
	if (!timr->it_signal)
		return;
	timr->it_status = timr->it_interval ? POSIX_TIMER_REQUEUE_PENDING : POSIX_TIMER_DISARMED;
	posixtimer_send_sigqueue(timr);
}

/* dequeue_signal took the timer's signal into info: false drops it (the
 * timer was re-set or deleted since), true delivers it, a periodic timer
 * re-armed and info's si_overrun set. Drops the queue's reference. */
bool posixtimer_deliver_signal(kernel_siginfo_t *info, struct sigqueue *q)
{
	struct k_itimer *timr = container_of(q, struct k_itimer, sigq);
	bool ret = true;

	if (timr->it_signal_seq != timr->it_sigqueue_seq || !timr->it_signal) {
		ret = false;
	} else if (timr->it_interval && timr->it_status == POSIX_TIMER_REQUEUE_PENDING) {
		timr->kclock->timer_rearm(timr);
		timr->it_status = POSIX_TIMER_ARMED;
		timr->it_overrun_last = timr->it_overrun;
		timr->it_overrun = -1;
		++timr->it_signal_seq;
		info->_timer.overrun = timer_overrun_to_int(timr);
	}
	posixtimer_putref(timr);
	return ret;
}

/* ---- the kernel-timer clocks: REALTIME, MONOTONIC, BOOTTIME ---- */

u64 posix_timer_forward(s64 *expires, s64 now, u64 interval)
{
	u64 delta, orun = 1;

	if (now < *expires)
		return 0;
	delta = (u64)now - (u64)*expires;
	if (delta >= interval) {
		orun = delta / interval;
		*expires += (s64)(orun * interval);	/* <= now: no overflow */
		if (*expires > now)
			return orun;
		orun++;
	}
	*expires = ktime_add_safe(*expires, interval);
	return orun;
}

static void posix_timer_fn(struct timer_list *t)
{
	posix_timer_queue_signal(container_of(t, struct k_itimer, it_timer));
}

/* An absolute time on timr's clock, as CLOCK_MONOTONIC (saturating). */
static s64 clock_to_monotonic(int clockid, s64 value)
{
	s64 offset;

	if (clockid == CLOCK_MONOTONIC)
		return value;
	offset = clock_get_ns(clockid) - (s64)ktime_get();
	if (offset < 0 && value > KTIME_MAX + offset)
		return KTIME_MAX;
	return value - offset;
}

static void common_hrtimer_start(struct k_itimer *timr)
{
	mod_timer(&timr->it_timer, timr->it_expires > 0 ? (u64)timr->it_expires : 0);
}

static int common_timer_create(struct k_itimer *timr)
{
	timer_setup(&timr->it_timer, posix_timer_fn, "posix_timer");
	return 0;
}

/* common_timer_get: a periodic timer whose signal waits, and a SIGEV_NONE
 * one (never armed), are moved past now first, counting overruns; a timer
 * due but not yet signalled says 1 ns, an expired SIGEV_NONE one 0. */
static void common_timer_get(struct k_itimer *timr, struct itimerspec64 *cur)
{
	bool sig_none = timr->it_sigev_notify == SIGEV_NONE;
	u64 iv = timr->it_interval;
	s64 now, remaining;

	if (iv)
		cur->it_interval = iv;
	else if (timr->it_status == POSIX_TIMER_DISARMED && !sig_none)
		return;
	now = ktime_get();
	if (iv && timr->it_status != POSIX_TIMER_ARMED)
		timr->it_overrun += posix_timer_forward(&timr->it_expires, now, iv);
	remaining = timr->it_expires - now;
	if (remaining <= 0) {
		if (!sig_none)
			cur->it_value = 1;
	} else {
		cur->it_value = remaining;
	}
}

void posix_timer_set_common(struct k_itimer *timr, const struct itimerspec64 *new)
{
	timr->it_interval = new->it_value ? (u64)new->it_interval : 0;
	timr->it_overrun_last = 0;
	timr->it_overrun = -1;
}

static int common_timer_set(struct k_itimer *timr, int flags, const struct itimerspec64 *new,
			    struct itimerspec64 *old)
{
	bool sigev_none = timr->it_sigev_notify == SIGEV_NONE;

	if (old)
		common_timer_get(timr, old);
	del_timer(&timr->it_timer);
	timr->it_status = POSIX_TIMER_DISARMED;
	posix_timer_set_common(timr, new);
	/* A zero value disarms (and leaves it_expires, which a SIGEV_NONE
	 * timer's timer_gettime still reads, as Linux's hrtimer keeps it). */
	if (!new->it_value)
		return 0;
	if (flags & TIMER_ABSTIME)
		timr->it_expires = clock_to_monotonic(timr->it_clock, new->it_value);
	else
		timr->it_expires = ktime_add_safe(ktime_get(), new->it_value);
	if (!sigev_none) {
		common_hrtimer_start(timr);
		timr->it_status = POSIX_TIMER_ARMED;
	}
	return 0;
}

static void common_timer_del(struct k_itimer *timr)
{
	del_timer(&timr->it_timer);
	timr->it_status = POSIX_TIMER_DISARMED;
}

static void common_hrtimer_rearm(struct k_itimer *timr)
{
	timr->it_overrun += posix_timer_forward(&timr->it_expires, ktime_get(), timr->it_interval);
	common_hrtimer_start(timr);
}

static const struct k_clock clock_hrtimer = {
	.timer_create = common_timer_create,
	.timer_set = common_timer_set,
	.timer_get = common_timer_get,
	.timer_del = common_timer_del,
	.timer_rearm = common_hrtimer_rearm,
};

/* Read by clock_gettime, but no timers: EOPNOTSUPP. */
static const struct k_clock clock_read_only = { 0 };

/* The _ALARM clocks time through the RTC, which umk has not: Linux's
 * alarm_timer_create without an RTC device (the id is taken by then). */
static int alarm_timer_create(struct k_itimer *timr)
{
	(void)timr;
	return -EOPNOTSUPP;
}

static const struct k_clock alarm_clock = { .timer_create = alarm_timer_create };

static const struct k_clock *const posix_clocks[] = {
	[CLOCK_REALTIME] = &clock_hrtimer,
	[CLOCK_MONOTONIC] = &clock_hrtimer,
	[CLOCK_PROCESS_CPUTIME_ID] = &clock_posix_cpu,
	[CLOCK_THREAD_CPUTIME_ID] = &clock_posix_cpu,
	[CLOCK_MONOTONIC_RAW] = &clock_read_only,
	[CLOCK_REALTIME_COARSE] = &clock_read_only,
	[CLOCK_MONOTONIC_COARSE] = &clock_read_only,
	[CLOCK_BOOTTIME] = &clock_hrtimer,
	[CLOCK_REALTIME_ALARM] = &alarm_clock,
	[CLOCK_BOOTTIME_ALARM] = &alarm_clock,
};

static const struct k_clock *clockid_to_kclock(int id)
{
	if (id < 0 || (unsigned int)id >= ARRAY_SIZE(posix_clocks))
		return NULL;
	return posix_clocks[id];
}

/* ---- the system calls ---- */

/* good_sigevent: *thread is SIGEV_THREAD_ID's thread, NULL if it has
 * already exited (Linux would queue to the zombie, which never takes it). */
static bool good_sigevent(const struct sigevent *event, struct task_struct **thread)
{
	struct task_struct *t;

	*thread = NULL;
	switch (event->sigev_notify) {
	case SIGEV_SIGNAL | SIGEV_THREAD_ID:
		t = find_task_by_pid(event->sigev_notify_thread_id);
		if (!t || t->signal != current->signal)
			return false;
		if (!t->exit_state)
			*thread = t;
		/* fall through */
	case SIGEV_SIGNAL:
	case SIGEV_THREAD:
		if (event->sigev_signo <= 0 || event->sigev_signo > SIGRTMAX)
			return false;
		/* fall through */
	case SIGEV_NONE:
		return true;
	default:
		return false;
	}
}

/* do_timer_create, in Linux's order: the clock, a timer (RLIMIT_SIGPENDING),
 * its id, the sigevent, the id copied out, the clock's own check. Once the
 * id is taken a failure does not give it back. */
static long do_timer_create(int which_clock, const struct sigevent *event,
			    int __user *created_timer_id)
{
	const struct k_clock *kc = clockid_to_kclock(which_clock);
	struct signal_struct *sig = current->signal;
	struct k_itimer *timr;
	long error;
	int id;

	if (!kc)
		return -EINVAL;
	if (!kc->timer_create)
		return -EOPNOTSUPP;
	timr = alloc_posix_timer();
	if (!timr)
		return -EAGAIN;
	id = posix_timer_add(sig);
	if (id < 0) {
		posixtimer_putref(timr);
		return id;
	}
	timr->it_id = id;
	timr->it_clock = which_clock;
	timr->kclock = kc;
	timr->it_overrun = -1;
	if (event) {
		if (!good_sigevent(event, &timr->it_sig_task)) {
			error = -EINVAL;
			goto out;
		}
		timr->it_sigev_notify = event->sigev_notify;
		timr->sigq.info.si_signo = event->sigev_signo;
		timr->sigq.info._timer.sigval = event->sigev_value;
	} else {
		timr->it_sigev_notify = SIGEV_SIGNAL;
		timr->sigq.info.si_signo = SIGALRM;
		timr->sigq.info._timer.sigval.sival_int = id;
	}
	timr->sigq.info.si_code = SI_TIMER;
	timr->sigq.info._timer.tid = id;
	if (copy_to_user(created_timer_id, &id, sizeof(id))) {
		error = -EFAULT;
		goto out;
	}
	error = kc->timer_create(timr);
	if (error)
		goto out;
	timr->it_signal = sig;
	list_add(&timr->list, &sig->posix_timers);
	return 0;
out:
	posixtimer_putref(timr);
	return error;
}

long sys_timer_create(int which_clock, struct sigevent __user *timer_event_spec,
		      int __user *created_timer_id)
{
	struct sigevent event;

	if (timer_event_spec) {
		if (copy_from_user(&event, timer_event_spec, sizeof(event)))
			return -EFAULT;
		return do_timer_create(which_clock, &event, created_timer_id);
	}
	return do_timer_create(which_clock, NULL, created_timer_id);
}

static void put_itimerspec(struct __kernel_itimerspec *u, const struct itimerspec64 *k)
{
	u->it_interval = ns_to_timespec(k->it_interval);
	u->it_value = ns_to_timespec(k->it_value);
}

long sys_timer_gettime(int timer_id, struct __kernel_itimerspec __user *setting)
{
	struct k_itimer *timr = lock_timer(timer_id);
	struct itimerspec64 cur = { 0, 0 };
	struct __kernel_itimerspec u;

	if (!timr)
		return -EINVAL;
	timr->kclock->timer_get(timr, &cur);
	put_itimerspec(&u, &cur);
	return copy_to_user(setting, &u, sizeof(u)) ? -EFAULT : 0;
}

/* The overrun the last delivered signal reported (0 before any). */
long sys_timer_getoverrun(int timer_id)
{
	struct k_itimer *timr = lock_timer(timer_id);

	return timr ? timer_overrun_to_int(timr) : -EINVAL;
}

long sys_timer_settime(int timer_id, int flags, const struct __kernel_itimerspec __user *new_setting,
		       struct __kernel_itimerspec __user *old_setting)
{
	struct itimerspec64 new, old = { 0, 0 };
	struct __kernel_itimerspec u;
	struct k_itimer *timr;
	long error;

	if (!new_setting)
		return -EINVAL;
	if (copy_from_user(&u, new_setting, sizeof(u)))
		return -EFAULT;
	if (!timespec64_valid(&u.it_interval) || !timespec64_valid(&u.it_value))
		return -EINVAL;
	new.it_interval = timespec_to_ns(&u.it_interval);
	new.it_value = timespec_to_ns(&u.it_value);
	timr = lock_timer(timer_id);
	if (!timr)
		return -EINVAL;
	old.it_interval = timr->it_interval;
	/* A signal queued by the old setting is stale from now on. */
	timr->it_signal_seq++;
	error = timr->kclock->timer_set(timr, flags, &new, old_setting ? &old : NULL);
	if (!error && old_setting) {
		put_itimerspec(&u, &old);
		if (copy_to_user(old_setting, &u, sizeof(u)))
			error = -EFAULT;
	}
	return error;
}

long sys_timer_delete(int timer_id)
{
	struct k_itimer *timr = lock_timer(timer_id);

	if (!timr)
		return -EINVAL;
	posix_timer_delete(timr);
	posixtimer_putref(timr);
	return 0;
}
