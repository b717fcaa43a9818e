/*
 * kernel/fs/timerfd.c: timerfd, a timer read as a file (Linux's
 * fs/timerfd.c). Interface: sys_timerfd_create, sys_timerfd_settime,
 * sys_timerfd_gettime, and the file's operations (read and poll through
 * f_op).
 *
 * A timerfd is a kernel timer (include/umk/timer.h) on the kernel's clock,
 * so it follows --clock=virtual as every sleep does. When it fires it
 * counts one expiration (ticks) and wakes the readers and pollers with
 * POLLIN; it is not re-armed there, even with an interval: the next read
 * (or timerfd_gettime) forwards it past now by whole intervals, counting
 * each as an expiration (Linux's hrtimer_forward), then re-arms it. So a
 * read returns the expirations since the last read, overruns included, as
 * a u64, and a short interval costs one timer interrupt per read, not one
 * per interval. A read waits while there is none (-ERESTARTSYS on a
 * signal, so SA_RESTART restarts it); POLLIN while there is one.
 * /proc/PID/fdinfo shows the clock, the ticks, the flags of the last
 * settime and the timer's value, as Linux's.
 *
 * Clocks: CLOCK_MONOTONIC, CLOCK_REALTIME and CLOCK_BOOTTIME, and their
 * _ALARM forms for a task with CAP_WAKE_ALARM (EPERM without, as Linux);
 * umk never suspends, so an alarm timer is its clock's plain timer. Every
 * expiry is kept as CLOCK_MONOTONIC ns (expires), converted once when the
 * timer is set: the realtime and boot clocks move with the monotonic one
 * in umk (nothing in umk sets them). It may be below 0, an absolute time
 * from before umk's monotonic clock began; the kernel timer then runs at
 * once.
 *
 * Departures from Linux: TFD_TIMER_CANCEL_ON_SET is accepted and never
 * cancels (umk has no clock_settime or settimeofday; Linux's
 * timerfd_clock_was_set, called when the realtime clock is set, is where
 * a read's ECANCELED would come from); an absolute CLOCK_REALTIME timer
 * does not follow a step of the host's clock under --clock=host; no
 * TFD_IOC_SET_TICKS (Linux's is for checkpoint and restore); lseek is
 * -ESPIPE (Linux's noop_llseek returns 0).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>
#include <umk/uapi/timerfd.h>

#define TFD_SHARED_FCNTL_FLAGS (TFD_CLOEXEC | TFD_NONBLOCK)
#define TFD_CREATE_FLAGS TFD_SHARED_FCNTL_FLAGS
#define TFD_SETTIME_FLAGS (TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
#define KTIME_MIN INT64_MIN

struct timerfd_ctx {
	struct timer_list tmr;		/* armed at expires (timerfd_start) */
	s64 expires;			/* the next expiry, CLOCK_MONOTONIC ns;
					 * 0 for a timer never set or disarmed */
	s64 tintv;			/* the interval, ns; 0: one shot */
	struct wait_queue_head wqh;	/* readers and pollers */
	u64 ticks;			/* expirations not yet read */
	int clockid;
	bool expired;			/* tmr fired and was not forwarded since */
	unsigned short settime_flags;	/* the last settime's TFD_SETTIME_FLAGS */
};

static bool isalarm(const struct timerfd_ctx *ctx)
{
	return ctx->clockid == CLOCK_REALTIME_ALARM || ctx->clockid == CLOCK_BOOTTIME_ALARM;
}

/* The clock an alarm timer runs on: umk never suspends. */
static int base_clock(int clockid)
{
	switch (clockid) {
	case CLOCK_REALTIME_ALARM:
		return CLOCK_REALTIME;
	case CLOCK_BOOTTIME_ALARM:
		return CLOCK_BOOTTIME;
	}
	return clockid;
}

/* a + b, saturating at the ends of s64 (ktime_add_safe, both ways). */
static s64 add_safe(s64 a, s64 b)
{
	s64 res;

	if (__builtin_add_overflow(a, b, &res))
		return b > 0 ? KTIME_MAX : KTIME_MIN;
	return res;
}

/* Arm tmr for expires; one at or below 0 runs at once (a kernel timer's
 * expiry of 0 would leave the host timer unarmed). */
static void timerfd_start(struct timerfd_ctx *ctx)
{
	mod_timer(&ctx->tmr, ctx->expires > 0 ? (u64)ctx->expires : 1);
}

/* The timer interrupt (Linux's timerfd_tmrproc and timerfd_triggered). */
static void timerfd_tmrproc(struct timer_list *t)
{
	struct timerfd_ctx *ctx = container_of(t, struct timerfd_ctx, tmr);

	ctx->expired = true;
	ctx->ticks++;
	wake_up_poll(&ctx->wqh, POLLIN);
}

/*
 * Move the expiry of a timer that fired past now by whole intervals and
 * return how many (Linux's hrtimer_forward_now): the expirations up to now,
 * the one that fired included. 0 if the expiry is still ahead.
 * Precondition: tintv > 0.
 */
static u64 timerfd_forward_now(struct timerfd_ctx *ctx)
{
	s64 now = ktime_get();
	s64 delta = now - ctx->expires;
	u64 orun = 1;

	if (delta < 0)
		return 0;
	if (delta >= ctx->tintv) {
		orun = delta / ctx->tintv;
		ctx->expires = add_safe(ctx->expires, ctx->tintv * (s64)orun);
		if (ctx->expires > now)
			return orun;
		orun++;
	}
	ctx->expires = add_safe(ctx->expires, ctx->tintv);
	return orun;
}

/* An interval timer that fired: count its overruns and arm it again. */
static void timerfd_rearm(struct timerfd_ctx *ctx)
{
	ctx->ticks += timerfd_forward_now(ctx) - 1;
	timerfd_start(ctx);
}

static s64 timerfd_get_remaining(const struct timerfd_ctx *ctx)
{
	s64 remaining = ctx->expires - (s64)ktime_get();

	return remaining < 0 ? 0 : remaining;
}

/* Arm the timer with a new value (ABSTIME: a time on the timer's clock),
 * or disarm it for it_value 0 (Linux's timerfd_setup). */
static void timerfd_setup(struct timerfd_ctx *ctx, int flags,
			  const struct __kernel_itimerspec *ktmr)
{
	s64 texp = timespec_to_ns(&ktmr->it_value);

	ctx->expired = false;
	ctx->ticks = 0;
	ctx->tintv = timespec_to_ns(&ktmr->it_interval);
	ctx->expires = 0;
	if (texp) {
		s64 now = ktime_get();

		if (flags & TFD_TIMER_ABSTIME)
			ctx->expires = add_safe(texp, now - clock_get_ns(base_clock(ctx->clockid)));
		else
			ctx->expires = add_safe(now, texp);
		timerfd_start(ctx);
	}
	ctx->settime_flags = flags & TFD_SETTIME_FLAGS;
}

static void timerfd_release(struct file *f)
{
	struct timerfd_ctx *ctx = f->private_data;

	/* Sleepers and poll entries hold a reference to the file, and epoll
	 * leaves it before the release (eventpoll_release). */
	if (waitqueue_active(&ctx->wqh))
		panic("timerfd_release: timerfd %p still has waiters", (void *)ctx);
	del_timer(&ctx->tmr);
	kfree(ctx);
}

static unsigned int timerfd_poll(struct file *f, poll_table *pt)
{
	struct timerfd_ctx *ctx = f->private_data;

	poll_wait(f, &ctx->wqh, pt);
	return ctx->ticks ? POLLIN : 0;
}

static ssize_t timerfd_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *f = iocb->ki_filp;
	struct timerfd_ctx *ctx = f->private_data;
	ssize_t res;
	u64 ticks = 0;

	if (iov_iter_count(to) < sizeof(ticks))
		return -EINVAL;
	if (f->f_flags & O_NONBLOCK)
		res = -EAGAIN;
	else
		res = wait_event_interruptible(ctx->wqh, ctx->ticks);
	if (ctx->ticks) {
		if (ctx->expired && ctx->tintv)
			timerfd_rearm(ctx);
		ticks = ctx->ticks;
		ctx->expired = false;
		ctx->ticks = 0;
	}
	if (ticks) {
		res = copy_to_iter(&ticks, sizeof(ticks), to);
		if (!res)
			res = -EFAULT;
	}
	return res;
}

static int timerfd_show_fdinfo(struct file *f, char *buf, size_t size)
{
	struct timerfd_ctx *ctx = f->private_data;
	struct __kernel_timespec value = ns_to_timespec(timerfd_get_remaining(ctx));
	struct __kernel_timespec interval = ns_to_timespec(ctx->tintv);

	return ksnprintf(buf, size,
			 "clockid: %d\nticks: %llu\nsettime flags: 0%o\n"
			 "it_value: (%llu, %llu)\nit_interval: (%llu, %llu)\n",
			 ctx->clockid, (unsigned long long)ctx->ticks, ctx->settime_flags,
			 (unsigned long long)value.tv_sec, (unsigned long long)value.tv_nsec,
			 (unsigned long long)interval.tv_sec, (unsigned long long)interval.tv_nsec);
}

static const struct file_operations timerfd_fops = {
	.name = "timerfd",
	.read_iter = timerfd_read,
	.poll = timerfd_poll,
	.show_fdinfo = timerfd_show_fdinfo,
	.fstat = anon_inode_fstat,
	.release = timerfd_release,
};

/* The timerfd behind ufd, with a reference: 0, -EBADF, or -EINVAL for
 * another kind of file. */
static int timerfd_fget(int ufd, struct file **fp)
{
	return fget_of_kind(ufd, &timerfd_fops, fp);
}

long sys_timerfd_create(int clockid, int flags)
{
	struct timerfd_ctx *ctx;

	if ((flags & ~TFD_CREATE_FLAGS) ||
	    (clockid != CLOCK_MONOTONIC && clockid != CLOCK_REALTIME &&
	     clockid != CLOCK_REALTIME_ALARM && clockid != CLOCK_BOOTTIME &&
	     clockid != CLOCK_BOOTTIME_ALARM))
		return -EINVAL;
	if ((clockid == CLOCK_REALTIME_ALARM || clockid == CLOCK_BOOTTIME_ALARM) &&
	    !capable(CAP_WAKE_ALARM))
		return -EPERM;
	ctx = kmalloc(sizeof(*ctx));
	init_waitqueue_head(&ctx->wqh);
	ctx->clockid = clockid;
	timer_setup(&ctx->tmr, timerfd_tmrproc, "timerfd");
	return anon_inode_getfd(&timerfd_fops, ctx, flags);
}

static int do_timerfd_settime(int ufd, int flags, const struct __kernel_itimerspec *new,
			      struct __kernel_itimerspec *old)
{
	struct timerfd_ctx *ctx;
	struct file *f;
	int ret;

	if ((flags & ~TFD_SETTIME_FLAGS) || !timespec64_valid(&new->it_interval) ||
	    !timespec64_valid(&new->it_value))
		return -EINVAL;
	ret = timerfd_fget(ufd, &f);
	if (ret)
		return ret;
	ctx = f->private_data;
	if (isalarm(ctx) && !capable(CAP_WAKE_ALARM)) {
		fput(f);
		return -EPERM;
	}
	del_timer(&ctx->tmr);
	/* A periodic timer that fired is forwarded first, so that the old
	 * value says when it would have fired next; its ticks are dropped
	 * by the setup. */
	if (ctx->expired && ctx->tintv)
		timerfd_forward_now(ctx);
	old->it_value = ns_to_timespec(timerfd_get_remaining(ctx));
	old->it_interval = ns_to_timespec(ctx->tintv);
	timerfd_setup(ctx, flags, new);
	fput(f);
	return 0;
}

long sys_timerfd_settime(int ufd, int flags, const struct __kernel_itimerspec __user *utmr,
			 struct __kernel_itimerspec __user *otmr)
{
	struct __kernel_itimerspec new, old;
	int ret;

	if (copy_from_user(&new, utmr, sizeof(new)))
		return -EFAULT;
	ret = do_timerfd_settime(ufd, flags, &new, &old);
	if (ret)
		return ret;
	if (otmr && copy_to_user(otmr, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_timerfd_gettime(int ufd, struct __kernel_itimerspec __user *otmr)
{
	struct __kernel_itimerspec kotmr;
	struct timerfd_ctx *ctx;
	struct file *f;
	int ret = timerfd_fget(ufd, &f);

	if (ret)
		return ret;
	ctx = f->private_data;
	/* A periodic timer whose expiry has passed but whose kernel timer has
	 * not run yet (the timer slack, an interrupt not yet taken) fires
	 * here, as the interrupt would have: Linux's hrtimer runs on time,
	 * and its remaining time is never shown as 0 for a periodic timer. */
	if (!ctx->expired && ctx->tintv && ctx->expires && ctx->expires <= (s64)ktime_get() &&
	    del_timer(&ctx->tmr))
		timerfd_tmrproc(&ctx->tmr);
	if (ctx->expired && ctx->tintv) {
		timerfd_rearm(ctx);
		ctx->expired = false;
	}
	kotmr.it_value = ns_to_timespec(timerfd_get_remaining(ctx));
	kotmr.it_interval = ns_to_timespec(ctx->tintv);
	fput(f);
	return copy_to_user(otmr, &kotmr, sizeof(kotmr)) ? -EFAULT : 0;
}
