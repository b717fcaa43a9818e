/*
 * harness/umk-trace/lanes.c: what each task was doing over time.
 *
 * The Chrome trace and the timeline draw one lane per task, made of spans:
 * running, runnable (waiting for the CPU), sleeping, stopped. The lanes
 * follow the trace's own events, so a span begins and ends exactly where the
 * text trace shows it: switch (prev leaves for the reason given, next runs),
 * wakeup (a sleeper or stopped task becomes runnable), fork and thread (a new
 * task's lane begins; its wakeup makes it runnable). A span is handed to
 * lanes_span, the renderer's, when it ends. A lane is named by the comm,
 * tgid and ppid its task events carry (fork, thread, exec); until one comes
 * it is "?", its own process, with no parent.
 *
 * The idle task (pid 0) has a lane too: its running spans are the CPU idle.
 */
#include "umk-trace.h"

void (*lanes_span)(const struct lane *l, u64 end);

static struct lane *lanes;	/* by first appearance */
static size_t nr_lanes, lanes_cap;

const char *lane_state_name(enum lane_state s)
{
	static const char *const names[] = {
		[LANE_NONE] = "none",	      [LANE_RUNNING] = "running",
		[LANE_RUNNABLE] = "runnable", [LANE_SLEEPING] = "sleeping",
		[LANE_STOPPED] = "stopped",   [LANE_DEAD] = "dead",
	};

	return s <= LANE_DEAD ? names[s] : "?";
}

struct lane *lane_find(pid_t pid)
{
	size_t i;

	/* From the newest: a pid is only reused after its lane is dead. */
	for (i = nr_lanes; i-- > 0;) {
		if (lanes[i].pid == pid)
			return &lanes[i];
	}
	return NULL;
}

struct lane *lane_at(size_t i)
{
	return i < nr_lanes ? &lanes[i] : NULL;
}

/* pid's lane, made on its first event. */
static struct lane *lane_get(pid_t pid)
{
	struct lane *l = lane_find(pid);

	if (l && l->state != LANE_DEAD)
		return l;
	lanes = kgrow(lanes, nr_lanes, &lanes_cap, sizeof(*lanes));
	l = &lanes[nr_lanes++];
	l->pid = pid;
	l->tgid = pid;
	l->ppid = 0;
	snprintf(l->comm, sizeof(l->comm), "?");
	l->state = LANE_NONE;
	l->since = 0;
	l->since_seq = 0;
	l->syscall = -1;
	return l;
}

static void lane_set(struct lane *l, enum lane_state s, u64 ts)
{
	if (l->state == s)
		return;
	if (l->state != LANE_NONE && l->state != LANE_DEAD)
		lanes_span(l, ts);
	l->state = s;
	l->since = ts;
	l->since_seq = trace_seq;
}

static enum lane_state switched_out(pid_t pid, const char *why)
{
	if (!why)
		why = "";
	if (pid == 0)
		return LANE_NONE;	/* idle is only ever running or not */
	if (!strcmp(why, "sleep"))
		return LANE_SLEEPING;
	if (!strcmp(why, "stop"))
		return LANE_STOPPED;
	if (!strcmp(why, "exit"))
		return LANE_DEAD;
	return LANE_RUNNABLE;	/* preempt, yield */
}

void lanes_event(const struct trace_entry *e)
{
	struct lane *l;

	switch (e->event) {
	case TR_ENTER:
		lane_get(e->pid)->syscall = e->f.nr;
		break;
	case TR_EXIT:
		lane_get(e->pid)->syscall = -1;
		break;
	case TR_SWITCH:
		lane_set(lane_get(e->pid), switched_out(e->pid, e->f.what), e->ts);
		lane_set(lane_get(e->f.other), LANE_RUNNING, e->ts);
		break;
	case TR_WAKEUP:
		l = lane_get(e->f.other);
		if (l->state != LANE_RUNNING)
			lane_set(l, LANE_RUNNABLE, e->ts);
		break;
	case TR_TASK:
		if (!e->f.what || (strcmp(e->f.what, "fork") && strcmp(e->f.what, "thread") &&
				   strcmp(e->f.what, "exec")))
			break;
		l = lane_get(e->f.other);
		if (e->task.known) {
			l->tgid = e->task.tgid;
			l->ppid = e->task.ppid;
			snprintf(l->comm, sizeof(l->comm), "%s", e->task.comm);
		}
		break;
	default:
		break;
	}
}

void lanes_finish(u64 now)
{
	size_t i;

	for (i = 0; i < nr_lanes; i++)
		lane_set(&lanes[i], LANE_DEAD, now);
}
