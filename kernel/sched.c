/*
 * kernel/sched.c: tasks and the scheduler.
 *
 * One CPU, preemptive round robin. The runqueue holds the runnable tasks
 * that are not running; current is never on it, and the idle task (pid 0)
 * never is: it runs when the runqueue is empty. A task runs for at most
 * SCHED_SLICE_NS while others wait: the slice timer then sets
 * TIF_NEED_RESCHED, and the task is preempted on its way back to user mode
 * (umk's kernel itself is not preemptible, like Linux without
 * CONFIG_PREEMPT).
 *
 * A context switch saves prev's kernel context and resumes next's
 * (arch_switch_to). The task that resumes finishes the switch for the one
 * that left (finish_task_switch): a dead task's kernel stack can only be
 * freed once something else runs on another stack.
 */
#include <umk/arch.h>
#include <umk/entry.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>

#define SCHED_SLICE_NS (10 * NSEC_PER_MSEC)

LIST_HEAD(task_list);
struct task_struct *idle_task;
static LIST_HEAD(runqueue);
static struct task_struct *switch_prev;	/* the task that left, during a switch */
static struct timer_list slice_timer;
static bool booted;			/* running on kernel stacks */

/* ---- what arch/ may know of a task ---- */

struct task_struct *get_current(void)
{
	return booted ? current : NULL;
}

void *task_stack_base(struct task_struct *p)
{
	return p->stack;
}

struct arch_context **task_arch_context(struct task_struct *p)
{
	return &p->kctx;
}

pid_t task_pid_nr(struct task_struct *p)
{
	return p->pid;
}

const char *task_comm(struct task_struct *p)
{
	return p->comm;
}

/* ---- tasks ---- */

/* Set up thread_info at the base of a fresh kernel stack. */
void init_thread_info(struct task_struct *p, void *stack)
{
	struct thread_info *ti = stack;

	memset(ti, 0, sizeof(*ti));
	ti->task = p;
	set_restart_fn(&ti->restart_block, do_no_restart_syscall);
	ti->stack_end_magic = STACK_END_MAGIC;
	p->stack = ti;
}

/* The idle task, pid 0, runs on the stack arch/ booted on. */
struct task_struct *idle_task_init(void *stack)
{
	struct task_struct *p = kmalloc(sizeof(*p));

	init_thread_info(p, stack);
	p->state = TASK_RUNNING;
	p->pid = p->tgid = 0;
	strcpy_comm(p, "swapper");
	p->group_leader = p;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->thread_node);
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->pending.list);
	p->orig_ax = -1;
	list_add_tail(&p->tasks, &task_list);
	idle_task = p;
	booted = true;	/* arch/ switches to this stack next */
	return p;
}

void strcpy_comm(struct task_struct *p, const char *name)
{
	size_t n = strnlen(name, sizeof(p->comm) - 1);

	memcpy(p->comm, name, n);
	p->comm[n] = '\0';
}

struct task_struct *find_task_by_pid(pid_t pid)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks) {
		if (p->pid == pid && p->exit_state != EXIT_DEAD)
			return p;
	}
	return NULL;
}

const char *task_state_name(struct task_struct *t)
{
	if (t->exit_state == EXIT_ZOMBIE)
		return "zombie";
	if (t->exit_state == EXIT_DEAD || t->state == TASK_DEAD)
		return "dead";
	if (t->state & __TASK_STOPPED)
		return "stopped";
	if (t->state & TASK_INTERRUPTIBLE)
		return "sleeping";
	if (t->state & TASK_UNINTERRUPTIBLE)
		return "disk-sleep";
	if (t == current)
		return "running";
	return t == idle_task ? "idle" : "runnable";
}

/* A task list for people: `call ps()` from gdb. Takes no locks, changes
 * nothing. */
void ps(void)
{
	struct task_struct *p;
	char line[160];

	os_console_err("  PID  TGID  PPID STATE      CMD              SYSCALL\n");
	list_for_each_entry(p, &task_list, tasks) {
		snprintf(line, sizeof(line), "%5d %5d %5d %-10s %-16s %s\n", p->pid, p->tgid,
			 p->real_parent ? p->real_parent->tgid : 0, task_state_name(p), p->comm,
			 p->orig_ax >= 0 ? syscall_name(p->orig_ax) : "-");
		os_console_err(line);
	}
}

/* ---- the runqueue ---- */

static void enqueue_task(struct task_struct *p)
{
	if (p->on_rq || p == idle_task)
		return;
	list_add_tail(&p->run_list, &runqueue);
	p->on_rq = true;
}

static struct task_struct *pick_next_task(void)
{
	struct task_struct *p;

	if (list_empty(&runqueue))
		return idle_task;
	p = list_first_entry(&runqueue, struct task_struct, run_list);
	list_del_init(&p->run_list);
	p->on_rq = false;
	return p;
}

void resched_curr(void)
{
	set_ti_flag(current_thread_info(), TIF_NEED_RESCHED);
}

static void slice_expired(struct timer_list *t)
{
	virtual_clock_forward(SCHED_SLICE_NS);
	resched_curr();
}

/* Arm the slice of the task about to run when others wait for the CPU, or
 * always under --clock=virtual, where only a slice moves time while a task
 * spins. */
static void start_slice(struct task_struct *next)
{
	if (next != idle_task && (clock_virtual || !list_empty(&runqueue)))
		mod_timer(&slice_timer, cpu_clock() + SCHED_SLICE_NS);
	else
		del_timer(&slice_timer);
}

bool wake_up_state(struct task_struct *p, long state)
{
	if (!(p->state & state))
		return false;
	p->state = TASK_RUNNING;
	if (p == current)
		return true;
	trace_with(TR_WAKEUP, &(struct trace_fields){ .other = p->pid }, "%d", p->pid);
	enqueue_task(p);
	if (current == idle_task)
		resched_curr();
	else if (!slice_timer.pending)
		start_slice(current);
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
	timer_setup_cpu(&slice_timer, slice_expired, "sched_slice");
	idle_task->last_ran = ktime_get();	/* it runs from boot: its CPU time starts here */
}

static void finish_task_switch(struct task_struct *prev)
{
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
	u64 now;

	if (prev->stack->stack_end_magic != STACK_END_MAGIC)
		panic("schedule: kernel stack overflow in pid %d (%s)", prev->pid, prev->comm);
	clear_ti_flag(prev->stack, TIF_NEED_RESCHED);
	/* A signal that came before we slept cancels an interruptible sleep. */
	if ((prev->state & TASK_INTERRUPTIBLE) && signal_pending(prev))
		prev->state = TASK_RUNNING;
	if ((prev->state & TASK_WAKEKILL) && sigismember(&prev->pending.signal, SIGKILL))
		prev->state = TASK_RUNNING;
	if (prev->state == TASK_RUNNING)
		enqueue_task(prev);
	next = pick_next_task();
	prev->sched_yield = false;
	start_slice(next);
	if (next == prev) {
		rlimit_cpu_arm(next);
		return;
	}

	now = ktime_get();
	prev->sum_exec_ns += now - prev->last_ran;
	next->last_ran = now;
	rlimit_cpu_arm(next);
	if (prev->state == TASK_RUNNING)
		prev->nivcsw++;
	else
		prev->nvcsw++;
	why = switch_reason(prev);
	trace_with(TR_SWITCH, &(struct trace_fields){ .other = next->pid, .what = why },
		   "%d -> %d (%s)", prev->pid, next->pid, why);

	switch_prev = prev;
	arch_switch_to(prev, next);
	/* Back on prev's stack: switch_prev is whoever switched to us. */
	finish_task_switch(switch_prev);
}

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
		if (!list_empty(&runqueue)) {
			schedule();
			continue;
		}
		if (virtual_clock_advance())
			continue;
		arch_idle();
	}
}

/* ---- wait queues and completions (include/linux/wait.h) ---- */

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, long state)
{
	w->task = current;
	if (list_empty(&w->entry))
		list_add_tail(&w->entry, &wq->head);
	set_current_state(state);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	set_current_state(TASK_RUNNING);
	if (!list_empty(&w->entry))
		list_del_init(&w->entry);
}

void wake_up(struct wait_queue_head *wq)
{
	struct wait_queue_entry *w;

	list_for_each_entry(w, &wq->head, entry)
		wake_up_state(w->task, TASK_NORMAL);
}

void init_completion(struct completion *c)
{
	c->done = false;
	init_waitqueue_head(&c->wait);
}

void complete(struct completion *c)
{
	c->done = true;
	wake_up(&c->wait);
}

int wait_for_completion_killable(struct completion *c)
{
	DEFINE_WAIT(w);
	int ret = 0;

	for (;;) {
		prepare_to_wait(&c->wait, &w, TASK_KILLABLE);
		if (c->done)
			break;
		if (sigismember(&current->pending.signal, SIGKILL)) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	finish_wait(&c->wait, &w);
	return ret;
}
