/*
 * kernel/sched/core.c: tasks and the scheduler.
 *
 * One CPU, preemptive. The runqueue holds the runnable tasks that are not
 * running; current is never on it, and the idle task (pid 0) never is: it
 * runs when the runqueue is empty. The runqueue is ordered by rank, as
 * Linux's rt and fair classes: SCHED_FIFO and SCHED_RR tasks first,
 * higher rt_priority first, then every SCHED_NORMAL, SCHED_BATCH and
 * SCHED_IDLE task; the first task runs next, and a task joins at the tail
 * of its rank. A waking task that outranks current preempts it, as any
 * waking normal task preempts a SCHED_IDLE one.
 *
 * The slice timer sets TIF_NEED_RESCHED, and the task is preempted on its
 * way back to user mode (umk's kernel itself is not preemptible, like
 * Linux without CONFIG_PREEMPT):
 *   - SCHED_NORMAL (BATCH, IDLE) tasks take turns while others wait, each
 *     for SCHED_SLICE_NS scaled by the weight of its nice value (Linux's
 *     sched_prio_to_weight: nice 0 runs 10 ms, nice 5 about 3.3 ms), so
 *     that CPU-bound tasks share the CPU in proportion to their weights.
 *     No turn is shorter than SCHED_MIN_SLICE_NS (Linux's base slice): a
 *     lighter task (nice 13 and up, SCHED_IDLE) runs that long but passes
 *     on the turns it has not earned, so that its share stays its weight's;
 *   - SCHED_FIFO runs until it sleeps, yields or a higher rank wakes; a
 *     preempted one keeps its place at the head of its rank;
 *   - SCHED_RR is FIFO with a RR_TIMESLICE (100 ms) quantum, after which
 *     it goes to the tail of its rank.
 *
 * A context switch saves prev's kernel context and resumes next's
 * (arch_switch_to). The task that resumes finishes the switch for the one
 * that left (finish_task_switch): a dead task's kernel stack can only be
 * freed once something else runs on another stack.
 *
 * The rest of kernel/sched/: task.c (the task list, the idle task, what
 * arch/ may know of a task), wait.c (wait queues), loadavg.c, syscalls.c.
 */
#include <umk/entry.h>
#include <umk/inject.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/rseq.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/uapi/sched.h>

#include "sched.h"

#define SCHED_SLICE_NS (10 * NSEC_PER_MSEC)
/* The shortest turn (Linux's sysctl_sched_base_slice on one CPU): a
 * process switch and the page faults after it cost tens of microseconds
 * on some hosts, and a turn shorter than that never reaches the task's
 * own instructions (docs/design.md, "Policies"). */
#define SCHED_MIN_SLICE_NS (750 * NSEC_PER_USEC)

/* The runqueue (kernel/sched/rt.c's rt_prio_array): one FIFO list per
 * rank, and a bit per rank that has tasks, so that joining, leaving and
 * picking cost O(1) whatever the number of runnable tasks. */
#define NR_RANKS 100	/* 0 for the normal tasks, 1..99 for rt_priority */
static struct {
	unsigned long bitmap[(NR_RANKS + 63) / 64];	/* bit r: queue[r] not empty */
	struct list_head queue[NR_RANKS];
	unsigned int nr;	/* tasks on all the lists */
} runqueue;
static struct task_struct *switch_prev;	/* the task that left, during a switch */
static struct timer_list slice_timer;
static u64 slice_ns;			/* the length slice_timer was armed for */

/* ---- the runqueue ---- */

/* The running task and those on the runqueue (the load average counts them). */
unsigned long nr_running(void)
{
	return runqueue.nr + (current != idle_task && current->state == TASK_RUNNING);
}

u64 task_sched_runtime(struct task_struct *t)
{
	return t->sum_exec_ns + (t == current ? ktime_get() - t->last_ran : 0);
}

/* Linux's sched_prio_to_weight, nice -20 to 19: each step is about 1.25x. */
static const int prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};
#define NICE_0_LOAD 1024
#define WEIGHT_IDLEPRIO 3	/* SCHED_IDLE, whatever its nice value */

/* A normal task's share of SCHED_SLICE_NS by its weight. */
static u64 weighted_slice(struct task_struct *p)
{
	int weight = p->policy == SCHED_IDLE ? WEIGHT_IDLEPRIO : prio_to_weight[p->nice + 20];

	return (u64)SCHED_SLICE_NS * weight / NICE_0_LOAD;
}

/* How long a normal task runs at its turn. */
u64 sched_normal_slice(struct task_struct *p)
{
	return max(weighted_slice(p), (u64)SCHED_MIN_SLICE_NS);
}

/* Whether normal task p, at the head of the runqueue, passes its turn on:
 * one whose weighted slice is shorter than SCHED_MIN_SLICE_NS earns that
 * much at each turn and runs once it has earned a whole one, so that it
 * runs SCHED_MIN_SLICE_NS once in SCHED_MIN_SLICE_NS / weighted turns
 * (SCHED_IDLE: about once in 26), as Linux's fair class gives a light task the
 * same slice as any other, less often. */
static bool passes_turn(struct task_struct *p)
{
	u64 slice = weighted_slice(p);

	if (slice >= SCHED_MIN_SLICE_NS)
		return false;
	p->slice_credit += slice;
	if (p->slice_credit < SCHED_MIN_SLICE_NS)
		return true;
	p->slice_credit -= SCHED_MIN_SLICE_NS;
	return false;
}

/* Higher runs first: 1..99 for real-time tasks, 0 for the others. */
static int task_rank(struct task_struct *p)
{
	return rt_policy(p->policy) ? (int)p->rt_priority : 0;
}

static bool rq_empty(void)
{
	return runqueue.nr == 0;
}

/* The highest rank with a task waiting; the runqueue is not empty. */
static int rq_top_rank(void)
{
	int i;

	for (i = ARRAY_SIZE(runqueue.bitmap) - 1; i >= 0; i--) {
		if (runqueue.bitmap[i])
			return i * 64 + 63 - __builtin_clzl(runqueue.bitmap[i]);
	}
	panic("rq_top_rank: %u tasks queued but no rank has any", runqueue.nr);
}

/* Put p at the tail of its rank, or at its head. */
static void enqueue_task(struct task_struct *p, bool head)
{
	int r = task_rank(p);

	if (p->on_rq || p == idle_task)
		return;
	if (head)
		list_add(&p->run_list, &runqueue.queue[r]);
	else
		list_add_tail(&p->run_list, &runqueue.queue[r]);
	runqueue.bitmap[r / 64] |= 1UL << (r % 64);
	runqueue.nr++;
	p->on_rq = true;
}

/* Take p off the runqueue. Its rank is the one it was queued with: a
 * policy change dequeues first (sched_setattr). */
static void dequeue_task(struct task_struct *p)
{
	int r = task_rank(p);

	if (!p->on_rq)
		return;
	list_del_init(&p->run_list);
	if (list_empty(&runqueue.queue[r]))
		runqueue.bitmap[r / 64] &= ~(1UL << (r % 64));
	runqueue.nr--;
	p->on_rq = false;
}

/* The head of the highest rank. Among the normal tasks, a light one that
 * passes its turn goes to the tail, once around the rank at most: the
 * last one asked runs even when it passes (it is alone, or all are light). */
static struct task_struct *pick_next_task(void)
{
	struct list_head *queue;
	struct task_struct *p;
	unsigned int asked;
	int rank;

	if (rq_empty())
		return idle_task;
	rank = rq_top_rank();
	queue = &runqueue.queue[rank];
	p = list_first_entry(queue, struct task_struct, run_list);
	for (asked = 1; rank == 0 && asked < runqueue.nr && passes_turn(p); asked++) {
		list_move_tail(&p->run_list, queue);
		p = list_first_entry(queue, struct task_struct, run_list);
	}
	dequeue_task(p);
	return p;
}

/* Whether the best waiting task outranks p. */
static bool waiting_outranks(struct task_struct *p)
{
	return !rq_empty() && rq_top_rank() > task_rank(p);
}

void resched_curr(void)
{
	set_ti_flag(current_thread_info(), TIF_NEED_RESCHED);
}

/* An RR task's quantum is over when its slice timer fires. */
static void slice_expired(struct timer_list *t)
{
	if (current->policy == SCHED_RR)
		current->rt_time_slice = 0;
	virtual_clock_forward(slice_ns);
	resched_curr();
}

/* How long next may run before the slice timer asks for a switch. */
static u64 task_slice(struct task_struct *next)
{
	if (next->policy == SCHED_RR) {
		if (!next->rt_time_slice)
			next->rt_time_slice = RR_TIMESLICE;
		return next->rt_time_slice;
	}
	if (next->policy == SCHED_FIFO)
		return SCHED_SLICE_NS;	/* only to move the virtual clock */
	return sched_normal_slice(next);
}

/* Arm the slice of the task about to run when others wait for the CPU, or
 * always under --clock=virtual, where only a slice moves time while a task
 * spins. A FIFO task has no slice: under --clock=virtual its timer only
 * moves the clock, and it keeps the CPU (schedule() requeues it first). */
static void start_slice(struct task_struct *next, u64 cpu_now)
{
	bool others = !rq_empty() && next->policy != SCHED_FIFO;

	if (next != idle_task && (clock_virtual || others)) {
		slice_ns = task_slice(next);
		mod_timer(&slice_timer, cpu_now + slice_ns);
	} else {
		del_timer(&slice_timer);
	}
}

/* An RR task leaving the CPU before its quantum is over keeps what is
 * left of it for its next turn (Linux's rt.time_slice). */
static void stop_slice(struct task_struct *prev, u64 now)
{
	if (prev->policy != SCHED_RR || !prev->rt_time_slice || !slice_timer.pending)
		return;
	prev->rt_time_slice = slice_timer.expires > now ? slice_timer.expires - now : 0;
	if (!prev->rt_time_slice)
		prev->rt_time_slice = 1;	/* spent, but not by the timer: rotate next time */
}

/* Where a task that was running and still can goes back in the runqueue:
 * a real-time task preempted by a higher rank (or, FIFO, a slice timer
 * that only moved the virtual clock) keeps the head of its rank; one that
 * yields, an RR task whose quantum is spent and every other task queue at
 * the tail. */
static bool requeue_at_head(struct task_struct *prev)
{
	if (!rt_policy(prev->policy) || prev->sched_yield)
		return false;
	if (prev->policy == SCHED_RR && !prev->rt_time_slice) {
		prev->rt_time_slice = RR_TIMESLICE;
		return false;
	}
	return true;
}

void sched_fork(struct task_struct *p, struct task_struct *parent)
{
	p->policy = parent->policy;
	p->rt_priority = parent->rt_priority;
	p->nice = parent->nice;
	p->rt_time_slice = RR_TIMESLICE;
	p->slice_credit = 0;
	/* the parent's slack is the child's, and its default (copy_process) */
	p->timer_slack_ns = p->default_timer_slack_ns = parent->timer_slack_ns;
	if (parent->sched_reset_on_fork) {
		if (rt_policy(p->policy)) {
			p->policy = SCHED_NORMAL;
			p->rt_priority = 0;
		}
		if (p->nice < 0)
			p->nice = 0;
	}
	if (!rt_policy(p->policy) && !p->timer_slack_ns)
		p->timer_slack_ns = p->default_timer_slack_ns = TIMER_SLACK_NS;
}

void sched_setattr(struct task_struct *p, int policy, unsigned int rt_priority, int nice)
{
	int old_rank = task_rank(p);
	bool queued = p->on_rq;

	dequeue_task(p);
	p->policy = policy;
	p->rt_priority = rt_priority;
	p->nice = nice;
	/* real-time tasks sleep without slack (__setscheduler_params) */
	if (rt_policy(policy))
		p->timer_slack_ns = 0;
	else if (!p->timer_slack_ns)
		p->timer_slack_ns = p->default_timer_slack_ns;
	if (policy == SCHED_RR && !p->rt_time_slice)
		p->rt_time_slice = RR_TIMESLICE;
	/* As Linux: a task whose rank fell goes to the head of its new one. */
	if (queued)
		enqueue_task(p, task_rank(p) < old_rank);
	if (p == current ? waiting_outranks(current) : queued && task_rank(p) > task_rank(current))
		resched_curr();
	/* current's slice follows its new policy; p's may now be due */
	if (p == current || !slice_timer.pending)
		start_slice(current, cpu_clock());
}

/* A SCHED_IDLE current gives way at once to any other normal task that
 * wakes (Linux's check_preempt_wakeup_fair: "idle tasks are by definition
 * preempted by non-idle tasks"), rather than at the end of its turn. */
static bool preempts_idle_policy(struct task_struct *p)
{
	return current->policy == SCHED_IDLE && p->policy != SCHED_IDLE;
}

bool wake_up_state(struct task_struct *p, long state)
{
	if (!(p->state & state))
		return false;
	p->state = TASK_RUNNING;
	if (p == current)
		return true;
	trace_event(TR_WAKEUP, &(struct trace_fields){ .other = p->pid });
	enqueue_task(p, false);
	if (current == idle_task || task_rank(p) > task_rank(current) || preempts_idle_policy(p))
		resched_curr();
	else if (!slice_timer.pending)
		start_slice(current, cpu_clock());
	return true;
}

/* A task from copy_process: runnable for the first time. */
void wake_up_new_task(struct task_struct *p)
{
	p->state = TASK_UNINTERRUPTIBLE;
	wake_up_state(p, TASK_UNINTERRUPTIBLE);
}

void wake_up_process(struct task_struct *p)
{
	wake_up_state(p, TASK_NORMAL);
}

void set_current_state(long state)
{
	current->state = state;
}

void sched_init(void)
{
	int r;

	for (r = 0; r < NR_RANKS; r++)
		INIT_LIST_HEAD(&runqueue.queue[r]);
	timer_setup_cpu(&slice_timer, slice_expired, "sched_slice");
	idle_task->last_ran = ktime_get();	/* it runs from boot: its CPU time starts here */
}

static void finish_task_switch(struct task_struct *prev)
{
	inject_finish_switch();	/* --inject's signal, once its sleeper is off the CPU */
	if (prev->state == TASK_DEAD) {
		arch_free_context(prev);
		arch_free_kstack(prev->stack);
		prev->stack = NULL;
		if (prev->exit_state == EXIT_DEAD)
			release_task(prev);
	}
}

/* First thing a new kernel context does: finish the switch that started it. */
void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev ? prev : switch_prev);
}

static const char *switch_reason(struct task_struct *prev)
{
	if (prev->state == TASK_DEAD)
		return "exit";
	if (prev->state & __TASK_STOPPED)
		return "stop";
	if (prev->state != TASK_RUNNING)
		return "sleep";
	if (prev == idle_task)
		return "wakeup";
	return prev->sched_yield ? "yield" : "preempt";
}

/*
 * Give the CPU to the next runnable task. prev keeps it only if it is still
 * runnable and nobody else is. Called with current->state set to what prev
 * should become: TASK_RUNNING (preempted, yielding), a sleep state (after
 * prepare_to_wait or set_current_state), __TASK_STOPPED or TASK_DEAD.
 */
void schedule(void)
{
	struct task_struct *prev = current, *next;
	const char *why;
	/* One reading of each clock for the whole switch: on the host clock
	 * cpu_clock() and ktime_get() are the same (kernel/time/time.c). */
	u64 now = ktime_get(), cpu_now = clock_virtual ? cpu_clock() : now;

	if (prev->stack->stack_end_magic != STACK_END_MAGIC)
		panic("schedule: kernel stack overflow in pid %d (%s)", prev->pid, prev->comm);
	clear_ti_flag(prev->stack, TIF_NEED_RESCHED);
	/* A signal that came before we slept cancels an interruptible sleep. */
	if ((prev->state & TASK_INTERRUPTIBLE) && signal_pending(prev))
		prev->state = TASK_RUNNING;
	if ((prev->state & TASK_WAKEKILL) && sigismember(&prev->pending.signal, SIGKILL))
		prev->state = TASK_RUNNING;
	stop_slice(prev, cpu_now);
	if (prev->state == TASK_RUNNING)
		enqueue_task(prev, requeue_at_head(prev));
	calc_global_load(now);
	next = pick_next_task();
	prev->sched_yield = false;
	if (next == prev) {
		start_slice(next, cpu_now);
		rlimit_cpu_arm(next);
		posix_cpu_timers_arm(next);
		return;
	}

	prev->sum_exec_ns += now - prev->last_ran;
	next->last_ran = now;
	vtime_task_switch(prev, next, now);
	rlimit_cpu_arm(next);
	posix_cpu_timers_arm(next);
	if (prev->state == TASK_RUNNING)
		prev->nivcsw++;
	else
		prev->nvcsw++;
	why = switch_reason(prev);
	trace_event(TR_SWITCH, &(struct trace_fields){ .other = next->pid, .what = why });
	inject_switch(prev, why);

	rseq_preempt(prev);
	/* The next task's address space into the user window; a task without
	 * one (the idle task) leaves whatever is there, as Linux's lazy TLB.
	 * The slice starts once next can run: remapping the window costs up
	 * to a few hundred microseconds on some hosts, which are not next's
	 * turn (docs/design.md, "Policies"). */
	if (next->mm && switch_mm(next->mm))
		cpu_now = cpu_clock();
	start_slice(next, cpu_now);
	switch_prev = prev;
	arch_switch_to(prev, next);
	/* Back on prev's stack: switch_prev is whoever switched to us. */
	finish_task_switch(switch_prev);
}

/* To the tail of its rank: a real-time task yields only to its equals. */
long sys_sched_yield(void)
{
	current->sched_yield = true;
	schedule();
	return 0;
}

/* The idle task: replay interrupts, run whatever became runnable, else
 * sleep on the host until the next interrupt. */
void cpu_idle(void)
{
	for (;;) {
		irq_replay();
		if (!rq_empty()) {
			schedule();
			continue;
		}
		if (virtual_clock_advance())
			continue;
		arch_idle();
	}
}
