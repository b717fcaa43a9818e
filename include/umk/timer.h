/* Kernel timers and clocks (include/linux/timer.h, hrtimer.h, time64.h).
 * Timers expire on CLOCK_MONOTONIC nanoseconds; they are kept ordered by
 * expiry (kernel/lib/timerqueue.c), and the one host timer is programmed for
 * the earliest, so there is
 * no periodic tick: an idle umk sleeps until the next expiry.
 *
 * The kernel's clock is the host's, or with --clock=virtual (clock_virtual)
 * a virtual one that stands still while any task can run and jumps to the
 * next timer's expiry when none can. The scheduler's time slice runs on
 * cpu_clock() instead (timer_setup_cpu): the host's CLOCK_MONOTONIC, or
 * under --clock=virtual a CPU time charged per system call (with a watchdog
 * on umk's own CPU time for a task that makes none), so a slice ends at the
 * same call in every run and never because the host or gdb paused umk. */
#ifndef UMK_TIMER_H
#define UMK_TIMER_H

#include <umk/list.h>
#include <umk/types.h>

#include <umk/uapi/time.h>

struct __kernel_timespec {
	s64 tv_sec;
	long tv_nsec;
};

struct __kernel_old_timeval {
	long tv_sec;
	long tv_usec;
};

/* timer_settime's and timerfd_settime's (include/uapi/linux/time_types.h) */
struct __kernel_itimerspec {
	struct __kernel_timespec it_interval;
	struct __kernel_timespec it_value;
};

struct timer_list {
	u64 expires;			/* CLOCK_MONOTONIC ns */
	/* It may run as late as expires + slack (Linux's hrtimer range,
	 * _softexpires to expires): the queue is in that order, and the host
	 * timer goes off at the first one's, for every timer whose expires
	 * has passed by then. 0 but for sleepers (hrtimer_sleeper_start). */
	u64 slack;
	u64 seq;			/* order among equal expiries */
	size_t index;			/* in its timerqueue, while pending */
	void (*function)(struct timer_list *);
	const char *name;		/* for the trace */
	bool pending;
	bool cpu;			/* expires on cpu_clock() */
};

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *), const char *name);
/* A timer whose expiry is on cpu_clock(), not the kernel's clock. */
void timer_setup_cpu(struct timer_list *t, void (*fn)(struct timer_list *), const char *name);
void mod_timer(struct timer_list *t, u64 expires);	/* (re)arm */
bool del_timer(struct timer_list *t);			/* true if it was pending */
void run_timers(void);		/* IRQ_TIMER: run what expired, reprogram */
/* The CPU is idle: under --clock=virtual, jump the clock to the next
 * timer's expiry and run it. false when there is nothing to jump to (or the
 * clock is the host's): then wait for a host interrupt. */
bool virtual_clock_advance(void);

/* A timer that wakes a task (Linux's hrtimer_sleeper): task is set to NULL
 * when it fires, which is how the sleeper tells expiry from other wakeups.
 * expires is CLOCK_MONOTONIC ns; one already past leaves task NULL at once.
 * It fires up to the current task's timer slack late (TIMER_SLACK_NS),
 * so that sleepers due close together wake in one timer interrupt.
 * hrtimer_sleeper_cancel must run before the sleeper goes out of scope. */
struct hrtimer_sleeper {
	struct timer_list timer;
	struct task_struct *task;
};
void hrtimer_sleeper_start(struct hrtimer_sleeper *sl, u64 expires, const char *name);
void hrtimer_sleeper_cancel(struct hrtimer_sleeper *sl);

/* Linux's default timer_slack_ns (init_task's, inherited by every task;
 * umk has no PR_SET_TIMERSLACK): how late a sleeper may wake. Real-time
 * tasks get none, as on Linux, and neither does --clock=virtual, which
 * has no interrupts to save and whose times must stay exact. */
#define TIMER_SLACK_NS 50000

u64 ktime_get(void);		/* CLOCK_MONOTONIC ns: the kernel's clock */
u64 cpu_clock(void);		/* ns on the clock of time slices (above) */
/* Under --clock=virtual, a task has used a whole slice of CPU: move the
 * virtual clock on by ns, so a program that spins until time passes sees
 * it pass. */
void virtual_clock_forward(u64 ns);
/* --clock=virtual's CPU time (kernel/time/time.c): a system call charges
 * it on entry; on return, a slice it made due runs. */
void virtual_cpu_charge(void);
void virtual_cpu_check(void);
/* For the trace: ktime_get()'s reading when umk started, and the ns since. */
u64 ktime_boot(void);
u64 ktime_since_boot(void);
/* --clock=virtual (kernel/time/time.c): set by start_kernel, never after. */
extern bool clock_virtual;
/* Nanoseconds on clockid, or -EINVAL for a clock umk does not have. */
s64 clock_get_ns(int clockid);
/* clock_getres in ns, or -EINVAL for a clock umk does not have. */
s64 clock_res_ns(int clockid);
/* The clocks clock_get_ns reads from the host (or the virtual clock):
 * not the CPU-time ones. */
bool clock_valid(int clockid);

/* 2026-01-01 00:00:00 UTC: where virtual CLOCK_REALTIME starts. */
#define VIRTUAL_REALTIME_BOOT (1767225600LL * NSEC_PER_SEC)

#define KTIME_MAX INT64_MAX
#define TIME64_MAX INT64_MAX
#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)

static inline bool timespec64_valid(const struct __kernel_timespec *ts)
{
	return ts->tv_sec >= 0 && (unsigned long)ts->tv_nsec < NSEC_PER_SEC;
}

/* A valid timespec from a program as ns, saturating at KTIME_MAX rather
 * than wrapping (timespec64_to_ktime): a huge timeout is "forever". */
static inline s64 timespec_to_ns(const struct __kernel_timespec *ts)
{
	if (ts->tv_sec >= KTIME_SEC_MAX)
		return KTIME_MAX;
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

/* a + b for ns values >= 0, saturating (ktime_add_safe). */
static inline s64 ktime_add_safe(s64 a, s64 b)
{
	return a > KTIME_MAX - b ? KTIME_MAX : a + b;
}

static inline struct __kernel_timespec ns_to_timespec(s64 ns)
{
	struct __kernel_timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return ts;
}

/* kernel/time/time.c, after Linux's kernel/time/time.c and timekeeping.c */

/* Copy a program's timespec: 0, or -EFAULT if it cannot be read. Whether
 * it is valid is the caller's to check (timespec64_valid): ppoll and
 * pselect6 answer EINVAL for other reasons too. */
int get_timespec64(struct __kernel_timespec *ts, const struct __kernel_timespec __user *uts);
/* CLOCK_MONOTONIC now, as a timespec. */
struct __kernel_timespec ktime_get_ts64(void);
/* lhs + rhs, both valid; saturates at TIME64_MAX. */
struct __kernel_timespec timespec64_add_safe(struct __kernel_timespec lhs,
					     struct __kernel_timespec rhs);

/* kernel/time/posix-timers.c, posix-cpu-timers.c: POSIX timers (Linux's
 * include/linux/posix-timers.h). */
struct kernel_siginfo;
struct sigqueue;
struct signal_struct;
struct task_struct;
/* A new process has none (fork does not copy them). */
void posix_timers_init(struct signal_struct *sig);
/* Delete every timer of the process: exec, and its last thread's exit. */
void exit_itimers(struct signal_struct *sig);
/* tsk is exiting: timers signalling it (SIGEV_THREAD_ID) or on its CPU
 * clock stop. */
void posix_timers_exit_thread(struct task_struct *tsk);
/* dequeue_signal took a timer's signal (SIGQUEUE_PREALLOC, SI_TIMER) into
 * info: false to drop it as stale, true to deliver it, a periodic timer
 * re-armed and si_overrun set. */
bool posixtimer_deliver_signal(struct kernel_siginfo *info, struct sigqueue *q);
/* A timer's queued signal is flushed: the queue's reference goes... */
void posixtimer_sigqueue_putref(struct sigqueue *q);
/* ...or, flushed because it became ignored, a periodic timer's waits for a
 * handler (posixtimer_sig_unignore, from sigaction replacing SIG_IGN). */
void posixtimer_sig_ignore(struct sigqueue *q);
void posixtimer_sig_unignore(struct task_struct *tsk, int sig);
/* schedule(): arm the check of next's CPU-clock timers (NULL or the idle
 * task: none). */
void posix_cpu_timers_arm(struct task_struct *next);
/* signal_struct's it[] (Linux's CPUCLOCK_PROF, CPUCLOCK_VIRT). */
#define CPUCLOCK_PROF 0
#define CPUCLOCK_VIRT 1
/* The process's CPU time: its living threads' (cpu_clock_sample_group). */
u64 process_cpu_time(struct signal_struct *sig);
/* clock_nanosleep on CLOCK_PROCESS_CPUTIME_ID, req valid (ns, relative or
 * TIMER_ABSTIME); rmtp NULL for an absolute sleep. */
long posix_cpu_nsleep(int flags, s64 req, struct __kernel_timespec __user *rmtp);

#endif
