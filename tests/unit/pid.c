/*
 * tests/unit/pid.c: kernel/pid.c against a walk of every task, as
 * find_task_by_pid was. Random attaches (the next pid, as alloc_pid hands
 * them out, wrapping so that chains mix old and new pids), detaches (twice
 * sometimes: the second must do nothing), pid changes (exec's: a thread
 * takes its leader's pid, the leader a negative one), and deaths (an
 * EXIT_DEAD task stays attached but is not found, and its pid may be
 * handed out again beside it). After every step, the pids around the one
 * touched and a random one must be found exactly where the walk finds
 * them; at the end, every pid in use. Then MAX_THREADS tasks at once.
 * Prints one line and exits 0, or names the first difference and exits 1.
 */
#include <umk/sched.h>

/* The C library's, declared by hand: its headers' sigset_t would clash
 * with the kernel's, which task_struct needs. */
int printf(const char *fmt, ...);
int rand(void);
void srand(unsigned int seed);

#define NR 1000
#define STEPS 50000
#define PID_WRAP 8000		/* pids run 1..PID_WRAP-1, then again */

static struct task_struct tasks[NR];
static bool attached[NR];	/* the reference: on task_list */

/* find_task_by_pid as it was: the first live task with pid on the list. */
static struct task_struct *ref_find(pid_t pid)
{
	for (int i = 0; i < NR; i++)
		if (attached[i] && tasks[i].pid == pid && tasks[i].exit_state != EXIT_DEAD)
			return &tasks[i];
	return NULL;
}

static int check(long step, const char *what, pid_t pid)
{
	struct task_struct *got = find_task_by_pid(pid), *want = ref_find(pid);

	if (got == want)
		return 0;
	printf("step %ld (%s): pid %d finds task %ld, the walk finds %ld\n", step, what, pid,
	       got ? (long)(got - tasks) : -1L, want ? (long)(want - tasks) : -1L);
	return 1;
}

static pid_t last_pid;

/* alloc_pid: the next pid no live attached task has. */
static pid_t next_pid(void)
{
	do {
		if (++last_pid >= PID_WRAP)
			last_pid = 1;
	} while (ref_find(last_pid));
	return last_pid;
}

/* A slot that is not attached, or -1. */
static int free_slot(void)
{
	int i = rand() % NR;

	for (int n = 0; n < NR; n++, i = (i + 1) % NR)
		if (!attached[i])
			return i;
	return -1;
}

static int big(void)
{
	static struct task_struct many[MAX_THREADS];
	pid_t pid;
	int i;

	for (i = 0; i < MAX_THREADS; i++) {
		INIT_LIST_HEAD(&many[i].pid_chain);
		many[i].pid = 100000 + i;
		attach_pid(&many[i]);
	}
	for (i = 0; i < MAX_THREADS; i++) {
		pid = 100000 + i;
		if (find_task_by_pid(pid) != &many[i])
			return printf("%d tasks: pid %d not found\n", MAX_THREADS, pid), 1;
	}
	for (i = 0; i < MAX_THREADS; i++)
		detach_pid(&many[i]);
	for (i = 0; i < MAX_THREADS; i++)
		if (find_task_by_pid(100000 + i))
			return printf("%d tasks: pid %d found after its detach\n", MAX_THREADS,
				      100000 + i), 1;
	return 0;
}

int main(void)
{
	long step, attaches = 0, detaches = 0, changes = 0, deaths = 0;

	for (int i = 0; i < NR; i++)
		INIT_LIST_HEAD(&tasks[i].pid_chain);
	srand(4242);
	for (step = 0; step < STEPS; step++) {
		int i = rand() % NR, op = rand() % 10, j;
		pid_t pid = 0;

		if (op < 4 && (j = free_slot()) >= 0) {
			tasks[j].pid = next_pid();
			tasks[j].exit_state = 0;
			attach_pid(&tasks[j]);
			attached[j] = true;
			pid = tasks[j].pid;
			attaches++;
		} else if (op < 7) {
			pid = tasks[i].pid;
			detach_pid(&tasks[i]);
			if (op == 6)
				detach_pid(&tasks[i]);
			attached[i] = false;
			detaches++;
		} else if (op < 9 && attached[i] && tasks[i].exit_state != EXIT_DEAD) {
			/* exec from a thread: i takes leader j's pid; j is released */
			j = rand() % NR;
			if (j == i || !attached[j] || tasks[j].exit_state == EXIT_DEAD)
				continue;
			pid = tasks[j].pid;
			change_pid(&tasks[i], pid);
			change_pid(&tasks[j], -pid);
			if (check(step, "exec, before the leader's release", -pid))
				return 1;
			detach_pid(&tasks[j]);
			attached[j] = false;
			changes++;
		} else if (attached[i]) {
			tasks[i].exit_state = EXIT_DEAD;
			pid = tasks[i].pid;
			deaths++;
		}
		for (pid_t p = pid - 1; p <= pid + 1; p++)
			if (check(step, "around", p))
				return 1;
		if (check(step, "random", rand() % PID_WRAP))
			return 1;
		/* a pid that shares a chain with pid, if the table is 4096 long */
		if (check(step, "same chain", pid + 4096))
			return 1;
	}
	for (pid_t p = -PID_WRAP; p < PID_WRAP; p++)
		if (check(step, "end", p))
			return 1;
	if (big())
		return 1;
	printf("pid: %ld attaches, %ld detaches, %ld pid changes, %ld deaths match the walk; "
	       "%d tasks at once found\n", attaches, detaches, changes, deaths, MAX_THREADS);
	return 0;
}
