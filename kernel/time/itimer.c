/*
 * kernel/time/itimer.c: alarm() and the ITIMER_REAL interval timer
 * (kernel/time/itimer.c). One per process, kept across exec; on expiry it
 * sends SIGALRM to the process and re-arms itself with its interval.
 *
 * umk keeps no per-process CPU-time accounting for ITIMER_VIRTUAL and
 * ITIMER_PROF: asking for those gives -EINVAL.
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

static bool timeval_valid(const struct __kernel_old_timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < 1000000;
}

long sys_getitimer(int which, struct __kernel_old_itimerval __user *value)
{
	struct __kernel_old_itimerval v;

	if (which != ITIMER_REAL)
		return -EINVAL;
	get_itimer_real(&v);
	return copy_to_user(value, &v, sizeof(v)) ? -EFAULT : 0;
}

long sys_setitimer(int which, struct __kernel_old_itimerval __user *value,
		   struct __kernel_old_itimerval __user *ovalue)
{
	struct __kernel_old_itimerval v, old;

	if (which != ITIMER_REAL)
		return -EINVAL;
	if (value) {
		if (copy_from_user(&v, value, sizeof(v)))
			return -EFAULT;
		if (!timeval_valid(&v.it_value) || !timeval_valid(&v.it_interval))
			return -EINVAL;
	} else {
		memset(&v, 0, sizeof(v));	/* Linux: NULL disarms */
	}
	get_itimer_real(&old);
	set_itimer_real(&v);
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
