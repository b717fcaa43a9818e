/*
 * kernel/sched/task.c: the task list and the idle task (Linux's
 * init/init_task.c), thread_info on a new kernel stack, task names and
 * states for people (ps, /proc), and what arch/ may know of a task: arch/
 * cannot include the kernel's headers (their Linux types clash with the
 * host's), so it sees tasks through the accessors of include/umk/entry.h.
 */
#include <umk/entry.h>
#include <umk/kernel.h>
#include <umk/os.h>
#include <umk/restart_block.h>
#include <umk/sched.h>
#include <umk/syscalls.h>

LIST_HEAD(task_list);
struct task_struct *idle_task;
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
	INIT_LIST_HEAD(&p->pid_chain);
	p->orig_ax = -1;
	list_add_tail(&p->tasks, &task_list);
	attach_pid(p);
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

const char *task_state_name(struct task_struct *t)
{
	if (t->exit_state == EXIT_ZOMBIE)
		return "zombie";
	if (t->exit_state == EXIT_DEAD || t->state == TASK_DEAD)
		return "dead";
	if (t->state & __TASK_STOPPED)
		return "stopped";
	if (t->state & __TASK_TRACED)
		return "traced";
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
		ksnprintf(line, sizeof(line), "%5d %5d %5d %-10s %-16s %s\n", p->pid, p->tgid,
			 p->real_parent ? p->real_parent->tgid : 0, task_state_name(p), p->comm,
			 p->orig_ax >= 0 ? syscall_name(p->orig_ax) : "-");
		os_console_err(line);
	}
}
