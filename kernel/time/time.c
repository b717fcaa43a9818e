/*
 * kernel/time/time.c: clocks, kernel timers and the sleeping time calls.
 *
 * Kernel timers expire on CLOCK_MONOTONIC (ktime_get) and sit in a queue
 * ordered by expiry (kernel/lib/timerqueue.c, O(log n) to arm or cancel); the
 * scheduler's slice timer runs on cpu_clock() and sits in a second one.
 * The host timer is programmed for the earliest (no periodic tick), and
 * left alone when a later one is armed (reprogram). A sleeper's timer may
 * fire up to its slack late (Linux's timer_slack_ns), so that one host
 * interrupt wakes every sleeper due within it.
 * run_timers() is the timer interrupt, replayed by irq_replay(): it runs
 * every timer that has expired, in order, before reprogramming once.
 *
 * nanosleep and clock_nanosleep follow kernel/time/hrtimer.c: a relative
 * sleep becomes an absolute expiry; if a signal interrupts it, the time left
 * is written to rmtp at once and the call returns -ERESTART_RESTARTBLOCK with
 * the expiry, clock and rmtp in current's restart_block, so restart_syscall
 * resumes the same sleep (hrtimer_nanosleep_restart). An absolute sleep
 * returns -ERESTARTNOHAND and leaves rmtp alone.
 *
 * --clock=virtual (docs/design.md, "Interrupts"): the kernel's clock stands still
 * while any task can run; when the CPU goes idle, cpu_idle() calls
 * virtual_clock_advance(), which jumps it to the next expiry. The same
 * program then sees the same times, and makes the same trace, run after run,
 * and a stop in gdb fires no timer. Virtual CLOCK_MONOTONIC starts at 0 at
 * boot and CLOCK_REALTIME at VIRTUAL_REALTIME_BOOT.
 */
#include <umk/errno.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/timerqueue.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/vdso.h>


bool clock_virtual;
static u64 virtual_now;			/* the virtual CLOCK_MONOTONIC */

/*
 * --clock=virtual's CPU time, on which time slices run (docs/design.md,
 * "Deterministic runs"): each system call charges VIRTUAL_SYSCALL_NS when it
 * enters, and a slice timer that this makes due runs when the call returns,
 * so preemption lands at the same call in every run. A task that computes
 * without system calls charges nothing; the host timer, on umk's own CPU
 * time, is then a watchdog: if VIRTUAL_WATCHDOG_NS of it pass without one
 * system call, the first slice is made due anyway (host-dependent, so such a
 * run is not repeatable, as docs/trace.md says).
 */
#define VIRTUAL_SYSCALL_NS (50 * NSEC_PER_USEC)
#define VIRTUAL_WATCHDOG_NS (50 * NSEC_PER_MSEC)
static u64 virtual_cpu;			/* ns charged by system calls */
static u64 watchdog_mark;		/* virtual_cpu when the watchdog was set */
static u64 watchdog_expires;		/* its host CPU time; 0: not set yet */

static struct timerqueue_head timer_queue;	/* on ktime_get() */
static struct timerqueue_head cpu_timer_queue;	/* on cpu_clock() */
static u64 boot_ns;

u64 cpu_clock(void)
{
	return clock_virtual ? virtual_cpu : (u64)os_clock_ns(CLOCK_MONOTONIC);
}

u64 ktime_get(void)
{
	return clock_virtual ? virtual_now : (u64)os_clock_ns(CLOCK_MONOTONIC);
}

u64 ktime_boot(void)
{
	static bool booted;

	if (!booted) {
		boot_ns = ktime_get();
		booted = true;
	}
	return boot_ns;
}

u64 ktime_since_boot(void)
{
	u64 boot = ktime_boot();

	return ktime_get() - boot;
}

bool clock_valid(int clockid)
{
	switch (clockid) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		return true;
	}
	return false;
}

/* CPU-time clocks are the task's (or process's) time on the CPU. */
static s64 cputime_ns(int clockid)
{
	struct task_struct *t;
	s64 sum = 0;

	if (clockid == CLOCK_THREAD_CPUTIME_ID)
		return task_sched_runtime(current);
	list_for_each_entry(t, &current->signal->thread_head, thread_node)
		sum += task_sched_runtime(t);
	return sum;
}

s64 clock_get_ns(int clockid)
{
	if (clockid == CLOCK_PROCESS_CPUTIME_ID || clockid == CLOCK_THREAD_CPUTIME_ID)
		return cputime_ns(clockid);
	if (!clock_valid(clockid))
		return -EINVAL;
	if (!clock_virtual)
		return os_clock_ns(clockid);
	if (clockid == CLOCK_REALTIME || clockid == CLOCK_REALTIME_COARSE)
		return VIRTUAL_REALTIME_BOOT + virtual_now;
	return virtual_now;
}

/* ---- kernel timers ---- */

/* The latest time the first timer may run: the host timer's next shot. */
static u64 first_expiry(struct timerqueue_head *head)
{
	struct timer_list *t = timerqueue_getnext(head);

	return t ? t->expires + t->slack : 0;
}

/* The one host timer runs on cpu_clock() (arch's time_init chose it): it
 * goes off at the earliest cpu timer, or kernel timer unless the kernel's
 * clock is virtual. 0 disarms. */
/* What the host timer is set for; 0 once it has fired (or never armed). */
static u64 expires_next;

static void virtual_watchdog(void);

static void reprogram(void)
{
	u64 next = first_expiry(&cpu_timer_queue);
	u64 kernel = clock_virtual ? 0 : first_expiry(&timer_queue);

	/* Virtual time's expiries are checked at each system call's return;
	 * the host timer is only the watchdog. */
	if (clock_virtual) {
		if (!watchdog_expires)
			virtual_watchdog();
		return;
	}
	if (kernel && (!next || kernel < next))
		next = kernel;
	/* A shot already set for no later than next fires first, and
	 * run_timers then sets the one after: leave it, as Linux's hrtimers
	 * reprogram only for an earlier expiry. So a time slice re-armed at
	 * every switch costs no host call; a shot left with nothing due fires
	 * once for nothing. */
	if (expires_next && (!next || expires_next <= next))
		return;
	if (next == expires_next)
		return;
	os_timer_set(next);
	expires_next = next;
}

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *), const char *name)
{
	t->index = 0;
	t->seq = 0;
	t->function = fn;
	t->name = name;
	t->pending = false;
	t->cpu = false;
	t->expires = 0;
	t->slack = 0;
}

void timer_setup_cpu(struct timer_list *t, void (*fn)(struct timer_list *), const char *name)
{
	timer_setup(t, fn, name);
	t->cpu = true;
}

static struct timerqueue_head *queue_of(struct timer_list *t)
{
	return t->cpu ? &cpu_timer_queue : &timer_queue;
}

bool del_timer(struct timer_list *t)
{
	bool was_first;

	if (!t->pending)
		return false;
	was_first = t->index == 0;
	timerqueue_del(queue_of(t), t);
	t->pending = false;
	if (was_first)
		reprogram();
	return true;
}

void mod_timer(struct timer_list *t, u64 expires)
{
	struct timerqueue_head *head = queue_of(t);

	del_timer(t);
	t->expires = expires;
	t->pending = true;
	timerqueue_add(head, t);
	if (timerqueue_getnext(head) == t)
		reprogram();
}

/* A timer's function may arm timers (itself too): one that expires by now
 * runs in the same batch, after those before it. Every timer whose expires
 * has passed runs, up to the first in the queue's order that is not due:
 * a sleeper runs anywhere in its range of slack, with the others due. */
static void run_expired(struct timerqueue_head *head, u64 now)
{
	struct timer_list *t;

	while ((t = timerqueue_getnext(head)) && t->expires <= now) {
		timerqueue_del(head, t);
		t->pending = false;
		trace_event(TR_TIMER, &(struct trace_fields){ .what = t->name });
		t->function(t);
	}
}

/* Under --clock=virtual, from run_timers: if the watchdog's host CPU time
 * has passed with no system call since it was set, the first slice is due
 * now. Then it is set again. */
static void virtual_watchdog(void)
{
	u64 host = os_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	struct timer_list *t = timerqueue_getnext(&cpu_timer_queue);

	if (watchdog_expires && host < watchdog_expires)
		return;
	if (watchdog_expires && virtual_cpu == watchdog_mark && t)
		virtual_cpu = max(virtual_cpu, t->expires);
	watchdog_mark = virtual_cpu;
	watchdog_expires = host + VIRTUAL_WATCHDOG_NS;
	os_timer_set(watchdog_expires);
}

void virtual_cpu_charge(void)
{
	if (clock_virtual)
		virtual_cpu += VIRTUAL_SYSCALL_NS;
}

void virtual_cpu_check(void)
{
	if (clock_virtual && first_expiry(&cpu_timer_queue) &&
	    first_expiry(&cpu_timer_queue) <= virtual_cpu)
		run_timers();
}

void run_timers(void)
{
	expires_next = 0;	/* it fired, or virtual time passed it: set anew */
	if (clock_virtual)
		virtual_watchdog();
	run_expired(&cpu_timer_queue, cpu_clock());
	run_expired(&timer_queue, ktime_get());
	reprogram();
}

/* Every change of virtual_now goes through here: the vDSO reads a copy. */
static void set_virtual_now(u64 ns)
{
	virtual_now = ns;
	update_vsyscall(ns);
}

void virtual_clock_forward(u64 ns)
{
	if (clock_virtual)
		set_virtual_now(virtual_now + ns);
}

bool virtual_clock_advance(void)
{
	if (!clock_virtual || !timerqueue_getnext(&timer_queue))
		return false;
	set_virtual_now(max(virtual_now, first_expiry(&timer_queue)));
	run_timers();
	return true;
}

/* ---- sleeping until a time (hrtimer_sleeper) ---- */

static void hrtimer_wakeup(struct timer_list *timer)
{
	struct hrtimer_sleeper *sl = container_of(timer, struct hrtimer_sleeper, timer);
	struct task_struct *t = sl->task;

	sl->task = NULL;
	if (t)
		wake_up_process(t);
}

/* current's timer slack (PR_SET_TIMERSLACK; TIMER_SLACK_NS by default,
 * 0 for real-time tasks); none on the virtual clock, whose times are
 * exact. */
static u64 timer_slack(void)
{
	return clock_virtual ? 0 : current->timer_slack_ns;
}

void hrtimer_sleeper_start(struct hrtimer_sleeper *sl, u64 expires, const char *name)
{
	timer_setup(&sl->timer, hrtimer_wakeup, name);
	if (expires <= ktime_get()) {
		sl->task = NULL;
		return;
	}
	sl->task = current;
	sl->timer.slack = timer_slack();
	mod_timer(&sl->timer, expires);
}

void hrtimer_sleeper_cancel(struct hrtimer_sleeper *sl)
{
	del_timer(&sl->timer);
}

/* Expiry on clockid, as CLOCK_MONOTONIC: the kernel's timers run on it. */
static u64 to_monotonic(int clockid, s64 expires)
{
	s64 left;

	if (clockid == CLOCK_MONOTONIC)
		return expires;
	left = expires - clock_get_ns(clockid);
	return left > 0 ? ktime_add_safe(ktime_get(), left) : (s64)ktime_get();
}

/* Sleep until expires on clockid. Returns 0 when it passed, or the time
 * still left (> 0) when a signal came first. */
static s64 do_nanosleep(int clockid, s64 expires)
{
	struct hrtimer_sleeper sl;
	s64 left;

	hrtimer_sleeper_start(&sl, to_monotonic(clockid, expires), "nanosleep");
	do {
		set_current_state(TASK_INTERRUPTIBLE);
		if (sl.task)
			schedule();
	} while (sl.task && !signal_pending(current));
	set_current_state(TASK_RUNNING);
	hrtimer_sleeper_cancel(&sl);
	if (!sl.task)
		return 0;
	left = expires - clock_get_ns(clockid);
	return left > 0 ? left : 0;
}

static int nanosleep_copyout(struct __kernel_timespec __user *rmtp, s64 left)
{
	struct __kernel_timespec ts = ns_to_timespec(left);

	return copy_to_user(rmtp, &ts, sizeof(ts)) ? -EFAULT : -ERESTART_RESTARTBLOCK;
}

static long hrtimer_nanosleep_restart(struct restart_block *restart)
{
	s64 left = do_nanosleep(restart->nanosleep.clockid, restart->nanosleep.expires);

	if (!left)
		return 0;
	if (restart->nanosleep.rmtp)
		return nanosleep_copyout(restart->nanosleep.rmtp, left);
	return -ERESTART_RESTARTBLOCK;
}

static long hrtimer_nanosleep(s64 req, int flags, int clockid,
			      struct __kernel_timespec __user *rmtp)
{
	struct restart_block *restart = &current_thread_info()->restart_block;
	s64 expires = flags & TIMER_ABSTIME ? req : ktime_add_safe(clock_get_ns(clockid), req);
	s64 left;

	left = do_nanosleep(clockid, expires);
	if (!left)
		return 0;
	if (flags & TIMER_ABSTIME)
		return -ERESTARTNOHAND;
	set_restart_fn(restart, hrtimer_nanosleep_restart);
	restart->nanosleep.clockid = clockid;
	restart->nanosleep.expires = expires;
	restart->nanosleep.rmtp = rmtp;
	if (rmtp)
		return nanosleep_copyout(rmtp, left);
	return -ERESTART_RESTARTBLOCK;
}

int get_timespec64(struct __kernel_timespec *ts, const struct __kernel_timespec __user *uts)
{
	return copy_from_user(ts, uts, sizeof(*ts)) ? -EFAULT : 0;
}

struct __kernel_timespec ktime_get_ts64(void)
{
	return ns_to_timespec(ktime_get());
}

struct __kernel_timespec timespec64_add_safe(struct __kernel_timespec lhs,
					     struct __kernel_timespec rhs)
{
	struct __kernel_timespec res;

	res.tv_sec = (s64)((u64)lhs.tv_sec + (u64)rhs.tv_sec);
	res.tv_nsec = lhs.tv_nsec + rhs.tv_nsec;
	if (res.tv_nsec >= NSEC_PER_SEC) {
		res.tv_sec++;
		res.tv_nsec -= NSEC_PER_SEC;
	}
	if (res.tv_sec < lhs.tv_sec || res.tv_sec < rhs.tv_sec) {
		res.tv_sec = TIME64_MAX;
		res.tv_nsec = 0;
	}
	return res;
}

/* A valid timespec from a program, as ns (nanosleep, clock_nanosleep). */
static int get_timespec(s64 *ns, const struct __kernel_timespec __user *uts)
{
	struct __kernel_timespec ts;

	if (get_timespec64(&ts, uts))
		return -EFAULT;
	if (!timespec64_valid(&ts))
		return -EINVAL;
	*ns = timespec_to_ns(&ts);
	return 0;
}

long sys_nanosleep(struct __kernel_timespec __user *rqtp, struct __kernel_timespec __user *rmtp)
{
	s64 req;
	int err = get_timespec(&req, rqtp);

	if (err)
		return err;
	set_restart_fn(&current_thread_info()->restart_block, do_no_restart_syscall);
	return hrtimer_nanosleep(req, 0, CLOCK_MONOTONIC, rmtp);
}

long sys_clock_nanosleep(int which_clock, int flags, const struct __kernel_timespec __user *rqtp,
			 struct __kernel_timespec __user *rmtp)
{
	s64 req;
	int err;

	/* Linux's k_clock table: the process's CPU clock can be slept on
	 * (kernel/time/posix-cpu-timers.c), the thread's cannot, nor the
	 * clocks umk reads but cannot time (EOPNOTSUPP, before rqtp is read). */
	if (which_clock != CLOCK_REALTIME && which_clock != CLOCK_MONOTONIC &&
	    which_clock != CLOCK_BOOTTIME && which_clock != CLOCK_PROCESS_CPUTIME_ID) {
		if (which_clock == CLOCK_THREAD_CPUTIME_ID)
			return -EOPNOTSUPP;
		return clock_valid(which_clock) ? -EOPNOTSUPP : -EINVAL;
	}
	err = get_timespec(&req, rqtp);
	if (err)
		return err;
	set_restart_fn(&current_thread_info()->restart_block, do_no_restart_syscall);
	if (flags & TIMER_ABSTIME)
		rmtp = NULL;
	if (which_clock == CLOCK_PROCESS_CPUTIME_ID)
		return posix_cpu_nsleep(flags, req, rmtp);
	return hrtimer_nanosleep(req, flags, which_clock, rmtp);
}

long sys_clock_gettime(int which_clock, struct __kernel_timespec __user *tp)
{
	s64 ns = clock_get_ns(which_clock);
	struct __kernel_timespec ts;

	if (ns < 0)
		return ns;
	ts = ns_to_timespec(ns);
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

s64 clock_res_ns(int clockid)
{
	if (clockid == CLOCK_PROCESS_CPUTIME_ID || clockid == CLOCK_THREAD_CPUTIME_ID)
		return 1;
	if (!clock_valid(clockid))
		return -EINVAL;
	return os_clock_res_ns(clockid);
}

long sys_clock_getres(int which_clock, struct __kernel_timespec __user *tp)
{
	s64 ns = clock_res_ns(which_clock);
	struct __kernel_timespec ts;

	if (ns < 0)
		return ns;
	if (!tp)
		return 0;
	ts = ns_to_timespec(ns);
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long sys_gettimeofday(struct __kernel_old_timeval __user *tv, void __user *tz)
{
	s64 ns = clock_get_ns(CLOCK_REALTIME);
	struct __kernel_old_timeval v = { ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) / 1000 };
	int zone[2] = { 0, 0 };		/* struct timezone: UTC, no DST */

	if (tv && copy_to_user(tv, &v, sizeof(v)))
		return -EFAULT;
	if (tz && copy_to_user(tz, zone, sizeof(zone)))
		return -EFAULT;
	return 0;
}

/* The seconds of CLOCK_REALTIME, also stored at tloc when it is not NULL. */
long sys_time(long __user *tloc)
{
	long t = clock_get_ns(CLOCK_REALTIME) / NSEC_PER_SEC;

	if (tloc && put_user(t, tloc))
		return -EFAULT;
	return t;
}
