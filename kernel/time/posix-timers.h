/* kernel/time/posix-timers.h: what posix-timers.c and posix-cpu-timers.c
 * share (Linux's include/linux/posix-timers.h and kernel/time/posix-timers.h).
 *
 * A k_itimer is one timer of timer_create, owned by its process
 * (it_signal) and found by its id on that process's posix_timers list.
 * Its signal is a sigqueue of its own (sigq, SIGQUEUE_PREALLOC), queued at
 * most once at a time: an expiry while it is queued only counts. A
 * periodic timer is not re-armed when it expires but when its signal is
 * dequeued (posixtimer_deliver_signal), which counts the intervals missed
 * meanwhile as the overrun. That is Linux 6.13's model, its signal sequence
 * numbers included: a timer re-set or deleted since its signal was queued
 * has that signal dropped when it is dequeued.
 *
 * Lifetime: one reference for the owner, dropped by timer_delete, exec and
 * exit; one more while sigq is queued or on ignored_posix_timers. The last
 * one frees the timer (posixtimer_putref), so a deleted timer's signal still
 * queued stays valid memory until it is dequeued or flushed.
 */
#ifndef KERNEL_TIME_POSIX_TIMERS_H
#define KERNEL_TIME_POSIX_TIMERS_H

#include <umk/sched.h>
#include <umk/timer.h>

/* k_itimer.it_status */
#define POSIX_TIMER_DISARMED 0
#define POSIX_TIMER_ARMED 1
#define POSIX_TIMER_REQUEUE_PENDING 2	/* periodic, its signal queued: re-armed at delivery */

struct itimerspec64 {
	s64 it_interval;		/* ns */
	s64 it_value;			/* ns */
};

struct k_itimer;

/* A clock's timer operations (Linux's struct k_clock). A clock umk reads
 * but cannot time (CLOCK_MONOTONIC_RAW, the coarse ones) has none:
 * timer_create on it is EOPNOTSUPP. */
struct k_clock {
	int (*timer_create)(struct k_itimer *timr);
	/* Arm (value > 0) or disarm; old, when not NULL, gets what was left. */
	int (*timer_set)(struct k_itimer *timr, int flags, const struct itimerspec64 *new,
			 struct itimerspec64 *old);
	void (*timer_get)(struct k_itimer *timr, struct itimerspec64 *cur);
	void (*timer_del)(struct k_itimer *timr);
	/* A periodic timer's signal was dequeued: count the missed intervals
	 * into it_overrun and arm it for the next one after now. */
	void (*timer_rearm)(struct k_itimer *timr);
};

struct k_itimer {
	struct list_head list;		/* in it_signal->posix_timers */
	struct list_head ignored_list;	/* in ignored_posix_timers, while its
					 * periodic signal waits for SIG_IGN to go */
	struct list_head cpu_list;	/* CPU clocks: in cpu_timers while armed */
	struct signal_struct *it_signal; /* the owner; NULL once deleted */
	int refcount;			/* see the top of this file */
	int it_id;			/* timer_t: 0..INT_MAX, per process */
	int it_clock;			/* CLOCK_* as created */
	const struct k_clock *kclock;
	int it_sigev_notify;		/* SIGEV_*; SIGEV_THREAD_ID: to it_sig_task */
	int it_status;			/* POSIX_TIMER_* */
	bool it_sig_periodic;		/* its signal was sent by a periodic expiry */
	bool it_nanosleep;		/* clock_nanosleep's own: expiry wakes it_process */
	s64 it_overrun;			/* missed intervals since the signal, -1 based */
	s64 it_overrun_last;		/* what the last delivered signal reported */
	u64 it_interval;		/* ns; 0: one-shot */
	/* Bumped by timer_settime, timer_delete and each re-arm; a queued
	 * signal whose it_sigqueue_seq is not it_signal_seq is stale. */
	unsigned int it_signal_seq, it_sigqueue_seq;
	/* SIGEV_THREAD_ID's thread: NULL for a process-directed timer, and
	 * once that thread has exited (then nothing is sent). */
	struct task_struct *it_sig_task;
	/* CLOCK_THREAD_CPUTIME_ID's thread, NULL once it has exited;
	 * it_process: the sleeper a nanosleep timer wakes. */
	struct task_struct *it_cpu_task, *it_process;
	/* When it expires: CLOCK_MONOTONIC ns for the clocks of kernel timers
	 * (may be negative: an absolute CLOCK_REALTIME time before boot), the
	 * CPU clock's ns for the CPU clocks (0: disarmed). */
	s64 it_expires;
	struct timer_list it_timer;	/* REALTIME, MONOTONIC, BOOTTIME */
	struct sigqueue sigq;		/* its signal, SIGQUEUE_PREALLOC */
};

/* posix-timers.c */
/* The timer expired: queue its signal (posix_timer_queue_signal). */
void posix_timer_queue_signal(struct k_itimer *timr);
/* The new setting's interval (none when it disarms) and a fresh overrun
 * count (posix_timer_set_common). */
void posix_timer_set_common(struct k_itimer *timr, const struct itimerspec64 *new);
/* Move *expires past now by whole intervals (hrtimer_forward,
 * bump_cpu_timer): how many, 0 when it is still ahead. */
u64 posix_timer_forward(s64 *expires, s64 now, u64 interval);

/* posix-cpu-timers.c */
extern const struct k_clock clock_posix_cpu;
/* tsk is leaving: the timers on its thread clock stop (posix_cpu_timers_exit). */
void posix_cpu_timers_exit(struct task_struct *tsk);

#endif
