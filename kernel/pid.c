/*
 * kernel/pid.c: finding a task by its pid (Linux 2.6's pid_hash, before
 * the idr): a fixed table of chains, indexed by the pid's low bits.
 *
 * Pids are handed out in order (alloc_pid), so consecutive pids fill
 * consecutive buckets and the chains stay even: umk's thread limit
 * (MAX_THREADS, include/umk/sched.h) in consecutive pids makes chains of 3.
 * Finding a pid, adding and removing a task are O(1) whatever the number
 * of tasks: a wake-up's trace event and each clone look a pid up, which
 * walked every task before.
 *
 * A task is in the table exactly while it is on task_list (attach_pid
 * where it joins it, detach_pid where it leaves); find_task_by_pid skips
 * EXIT_DEAD ones, as the list walk it replaces did, so a dead thread's pid
 * may already belong to a new task beside it in the same chain. The idle
 * task is pid 0. No dependency but include/umk/list.h: tests/unit/pid.c
 * runs it against a list walk.
 */
#include <umk/sched.h>

#define PID_HASH_SIZE 4096	/* a power of 2 */

static struct list_head pid_hash[PID_HASH_SIZE];
static bool pid_hash_ready;

static struct list_head *pid_bucket(pid_t pid)
{
	unsigned int i;

	if (!pid_hash_ready) {
		for (i = 0; i < PID_HASH_SIZE; i++)
			INIT_LIST_HEAD(&pid_hash[i]);
		pid_hash_ready = true;
	}
	/* Negative pids (an exec'd leader's, see change_pid) hash too. */
	return &pid_hash[(unsigned int)pid & (PID_HASH_SIZE - 1)];
}

void attach_pid(struct task_struct *p)
{
	list_add_tail(&p->pid_chain, pid_bucket(p->pid));
}

/* May be called again on a detached task: nothing happens. */
void detach_pid(struct task_struct *p)
{
	list_del_init(&p->pid_chain);
}

void change_pid(struct task_struct *p, pid_t pid)
{
	bool attached = !list_empty(&p->pid_chain);

	detach_pid(p);
	p->pid = pid;
	if (attached)
		attach_pid(p);
}

struct task_struct *find_task_by_pid(pid_t pid)
{
	struct list_head *head = pid_bucket(pid);
	struct task_struct *p;

	list_for_each_entry(p, head, pid_chain) {
		if (p->pid == pid && p->exit_state != EXIT_DEAD)
			return p;
	}
	return NULL;
}
