/* The kernel's trace: every event goes into a ring buffer (for gdb's
 * umk-trace) and, with --trace, is written out at once in one of three
 * forms (--trace-format):
 *
 *   text    one line per event: <seconds since boot> <pid> <event> <details>
 *           e.g. "0.001234 1 enter write(1, \"hi\\n\", 3)"; the fields after
 *           the time are stable, so tests can match them.
 *   json    one JSON object per line, the same event with typed fields.
 *   chrome  the Chrome trace-event format (Perfetto, chrome://tracing): one
 *           track per task with spans for running, runnable, sleeping and
 *           stopped, and instant events for signals, restarts, sigreturns.
 *
 * docs/trace.md documents every field. */
#ifndef UMK_TRACE_H
#define UMK_TRACE_H

#include <umk/types.h>

enum trace_event {
	TR_ENTER,	/* system call entry, arguments decoded */
	TR_EXIT,	/* system call return: value or errno name */
	TR_SWITCH,	/* context switch: prev -> next */
	TR_WAKEUP,	/* a sleeping or stopped task made runnable */
	TR_TIMER,	/* a kernel timer expired */
	TR_SIGNAL,	/* a signal generated */
	TR_DELIVER,	/* a signal acted on (default action, handler), sigreturn */
	TR_RESTART,	/* the restart decision; restart_syscall's continuation */
	TR_FAULT,	/* a user fault */
	TR_TASK,	/* task life: fork, exec, exit, reap */
	TR_NOSYS,	/* an unimplemented system call */
	TR_NR_EVENTS
};

/* The typed part of an event, for the machine-readable forms. Which fields
 * an event sets, and what they mean for it:
 *
 *   event     nr        ret      other       sig      what
 *   enter     call      -        -           -        -
 *   exit      call      value    -           -        -
 *   nosys     call      -        -           -        -
 *   switch    -         -        next pid    -        why prev left: "sleep",
 *                                                     "stop", "preempt", "yield",
 *                                                     "exit", "wakeup"
 *   wakeup    -         -        woken pid   -        -
 *   timer     -         -        -           -        the timer's name
 *   signal    -         -        target      signal   "thread", "process", "ignored",
 *                                  (-1: every           "host" (sent to umk)
 *                                  process)
 *   deliver   -         handler: handler:    signal   "handler", "stop", "terminate",
 *                       frame    1 on the             "continue", "sigreturn",
 *                       address  altstack;            "badframe", "noframe"
 *                                stop, continue,
 *                                terminate: the
 *                                process
 *   restart   call      code     -           signal   the action taken ("EINTR",
 *             (orig_ax)                      (0: no   "restart", "restart_syscall")
 *                                            handler) or the continuation's name
 *   fault     -         -        -           signal   -
 *   task      -         status   the task    -        "fork", "thread", "exec",
 *                                                     "exit", "reap", "halt";
 *                                                     NULL: a failed exec
 *
 * A field an event does not list is meaningless for it (zero) and is not
 * written out; a handler's frame address and altstack are not written out
 * either (they tell a nested handler from one a siglongjmp left). */
struct trace_fields {
	long nr;
	long ret;
	pid_t other;
	int sig;
	const char *what;	/* a string with static lifetime */
};

#define TRACE_MSG_LEN 200
#define TRACE_RING_SIZE 4096	/* entries; a power of two */

struct trace_entry {
	u64 ts;				/* ns since boot */
	pid_t pid;			/* the task the event happened in */
	enum trace_event event;
	struct trace_fields f;
	char msg[TRACE_MSG_LEN];	/* the text form's details; empty for a
					 * syscall recorded unformatted
					 * (trace_syscall) */
	unsigned long args[6];		/* an unformatted enter: the raw
					 * arguments (gdb's umk-trace) */
};

struct trace_ring {
	u64 head;			/* entries written in all */
	struct trace_entry e[TRACE_RING_SIZE];
};

enum trace_format { TRACE_TEXT, TRACE_JSON, TRACE_CHROME };

extern struct trace_ring trace_ring;
extern int trace_fd;			/* host fd for --trace, or -1 */
extern enum trace_format trace_format;

/* An event with no typed fields beyond pid and time. */
void trace(enum trace_event ev, const char *fmt, ...) __printf(2, 3);
/* An event with typed fields: trace_with(TR_SWITCH,
 *	&(struct trace_fields){ .other = next->pid, .what = "sleep" }, ...).
 * Only the fields the table above lists for the event are read. */
void trace_with(enum trace_event ev, const struct trace_fields *f, const char *fmt, ...)
	__printf(3, 4);
/* A system call's entry or exit, in the ring only: no formatting, for the
 * hot path when nobody reads the trace as it goes. args: an entry's six
 * raw arguments (NULL for an exit). */
void trace_syscall(enum trace_event ev, long nr, long ret, const unsigned long *args);
/* true when events are written out as they happen (arguments worth
 * decoding). */
static inline bool trace_writing(void)
{
	return trace_fd >= 0;
}
/* At umk's exit: close the Chrome trace's array, write the timeline. */
void trace_finish(void);
const char *trace_event_name(enum trace_event ev);

/* kernel/trace_json.c: the machine-readable forms. */
void trace_json_line(const struct trace_entry *e);
void trace_chrome_event(const struct trace_entry *e);
void trace_chrome_finish(void);

/* kernel/lanes.c: what each task was doing over time, for the Chrome
 * trace's spans and the timeline. A lane is one task. */
enum lane_state { LANE_NONE, LANE_RUNNING, LANE_RUNNABLE, LANE_SLEEPING, LANE_STOPPED,
		  LANE_DEAD };

struct lane {
	pid_t pid, tgid;
	pid_t ppid;		/* the parent process when the lane began */
	char comm[16];
	enum lane_state state;
	u64 since;		/* ns since boot the state began */
	u64 since_seq;		/* the event that began it: trace_ring.head then */
	long syscall;		/* the call it sleeps or stops in, or -1 */
};

extern bool lanes_enabled;	/* set when a consumer of spans is on */
void lanes_event(const struct trace_entry *e);
void lanes_finish(u64 now);	/* close every lane's open span */
const char *lane_state_name(enum lane_state s);
struct lane *lane_find(pid_t pid);	/* the newest lane of pid, or NULL */
struct lane *lane_at(size_t i);		/* the i-th lane made, or NULL */
/* Called when a lane leaves a state it held since l->since. */
void trace_chrome_span(const struct lane *l, u64 end);

/* kernel/timeline.c: --timeline FILE, an SVG picture of the run written at
 * umk's exit (one lane per task: states, signals, handlers, restarts). */
extern int timeline_fd;			/* host fd for --timeline, or -1 */
void timeline_event(const struct trace_entry *e);	/* every event */
void timeline_span(const struct lane *l, u64 end);	/* as a lane leaves a state */
void timeline_write(u64 end);		/* at exit, after lanes_finish */

#endif
