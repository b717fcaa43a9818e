/*
 * kernel/time/itimer.c: alarm() and the interval timers (Linux's
 * kernel/time/itimer.c). One of each per process, kept across exec, not
 * inherited by fork. ITIMER_REAL counts CLOCK_MONOTONIC time on a kernel
 * timer; on expiry it sends SIGALRM to the process and re-arms itself with
 * its interval. ITIMER_PROF and ITIMER_VIRTUAL count the process's CPU
 * time: they are an expiry on that clock in signal->it[], which the
 * CPU-clock check of kernel/time/posix-cpu-timers.c watches, sending
 * SIGPROF and SIGVTALRM. ITIMER_PROF counts the process's user and system
 * time, ITIMER_VIRTUAL its user time only (kernel/sched/cputime.c).
 */
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>

#include <umk/sched/signal.h>

static void it_real_fn(struct timer_list *t)
{
	struct signal_struct *sig = container_of(t, struct signal_struct, real_timer);
	kernel_siginfo_t info;

	memset(&info, 0, sizeof(info));
	info.si_signo = SIGALRM;
	info.si_code = SI_KERNEL;	/* Linux sends it as SEND_SIG_PRIV */
	send_signal(SIGALRM, &info, sig->leader, true);
	if (sig->it_real_incr)
		mod_timer(&sig->real_timer, ktime_add_safe(t->expires, sig->it_real_incr));
}

void itimer_init(struct signal_struct *sig)
{
	timer_setup(&sig->real_timer, it_real_fn, "itimer_real");
	sig->it_real_incr = 0;
	memset(sig->it, 0, sizeof(sig->it));
}

static struct __kernel_old_timeval ns_to_timeval(s64 ns)
{
	struct __kernel_old_timeval tv = { ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) / 1000 };

	return tv;
}

/* Saturating, as Linux's timeval conversion: a huge time is "forever". */
static s64 timeval_to_ns(const struct __kernel_old_timeval *tv)
{
	if (tv->tv_sec >= KTIME_SEC_MAX)
		return KTIME_MAX;
	return tv->tv_sec * NSEC_PER_SEC + tv->tv_usec * 1000;
}

static void get_itimer_real(struct __kernel_old_itimerval *v)
{
	struct signal_struct *sig = current->signal;
	s64 left = 0;

	if (sig->real_timer.pending) {
		left = sig->real_timer.expires - ktime_get();
		/* Still pending but due: report the smallest non-zero time. */
		if (left <= 0)
			left = 1000;
	}
	v->it_value = ns_to_timeval(left);
	v->it_interval = ns_to_timeval(sig->it_real_incr);
}

static void set_itimer_real(const struct __kernel_old_itimerval *v)
{
	struct signal_struct *sig = current->signal;
	s64 value = timeval_to_ns(&v->it_value);

	del_timer(&sig->real_timer);
	sig->it_real_incr = timeval_to_ns(&v->it_interval);
	if (value)
		mod_timer(&sig->real_timer, ktime_add_safe(ktime_get(), value));
}

/* The clock of ITIMER_PROF or ITIMER_VIRTUAL now (thread_group_sample_cputime). */
static u64 cpu_itimer_now(int clock_id)
{
	if (clock_id == CPUCLOCK_VIRT)
		return process_user_time(current->signal);
	return process_cpu_time(current->signal);
}

/* ITIMER_PROF or ITIMER_VIRTUAL (get_cpu_itimer): the CPU time left, the
 * smallest non-zero time for one due but not yet fired. */
static void get_cpu_itimer(int clock_id, struct __kernel_old_itimerval *v)
{
	struct cpu_itimer *it = &current->signal->it[clock_id];
	u64 now = cpu_itimer_now(clock_id);
	s64 left = 0;

	if (it->expires)
		left = it->expires > now ? (s64)(it->expires - now) : 1000;
	v->it_value = ns_to_timeval(left);
	v->it_interval = ns_to_timeval((s64)it->incr);
}

/* set_cpu_itimer: the new expiry on the process's CPU clock, and the
 * CPU-time check armed again for it. */
static void set_cpu_itimer(int clock_id, const struct __kernel_old_itimerval *v)
{
	struct cpu_itimer *it = &current->signal->it[clock_id];
	s64 value = timeval_to_ns(&v->it_value);

	it->expires = value ? (u64)ktime_add_safe((s64)cpu_itimer_now(clock_id), value) : 0;
	it->incr = (u64)timeval_to_ns(&v->it_interval);
	posix_cpu_timers_arm(current);
}

static void get_itimer(int which, struct __kernel_old_itimerval *v)
{
	if (which == ITIMER_REAL)
		get_itimer_real(v);
	else
		get_cpu_itimer(which == ITIMER_PROF ? CPUCLOCK_PROF : CPUCLOCK_VIRT, v);
}

static bool timeval_valid(const struct __kernel_old_timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < 1000000;
}

long sys_getitimer(int which, struct __kernel_old_itimerval __user *value)
{
	struct __kernel_old_itimerval v;

	if (which != ITIMER_REAL && which != ITIMER_VIRTUAL && which != ITIMER_PROF)
		return -EINVAL;
	get_itimer(which, &v);
	return copy_to_user(value, &v, sizeof(v)) ? -EFAULT : 0;
}

long sys_setitimer(int which, struct __kernel_old_itimerval __user *value,
		   struct __kernel_old_itimerval __user *ovalue)
{
	struct __kernel_old_itimerval v, old;

	if (which != ITIMER_REAL && which != ITIMER_VIRTUAL && which != ITIMER_PROF)
		return -EINVAL;
	if (value) {
		if (copy_from_user(&v, value, sizeof(v)))
			return -EFAULT;
		if (!timeval_valid(&v.it_value) || !timeval_valid(&v.it_interval))
			return -EINVAL;
	} else {
		memset(&v, 0, sizeof(v));	/* Linux: NULL disarms */
	}
	get_itimer(which, &old);
	if (which == ITIMER_REAL)
		set_itimer_real(&v);
	else
		set_cpu_itimer(which == ITIMER_PROF ? CPUCLOCK_PROF : CPUCLOCK_VIRT, &v);
	if (ovalue && copy_to_user(ovalue, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* Returns the seconds left on the previous alarm, rounded to the nearest
 * second and never 0 for one still pending (alarm_setitimer). */
long sys_alarm(unsigned int seconds)
{
	struct __kernel_old_itimerval v = { .it_value = { seconds, 0 } }, old;

	get_itimer_real(&old);
	set_itimer_real(&v);
	if ((!old.it_value.tv_sec && old.it_value.tv_usec) || old.it_value.tv_usec >= 500000)
		old.it_value.tv_sec++;
	return old.it_value.tv_sec;
}
