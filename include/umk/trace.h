/* The kernel's trace: every event goes into a ring buffer (for gdb's
 * umk-trace) and is written out at once to each sink arch/ set up at boot,
 * in one of two forms:
 *
 *   text    one line per event: <seconds since boot> <pid> <event> <details>
 *           e.g. "0.001234 1 enter write(1, \"hi\\n\", 3)"; the fields after
 *           the time are stable, so tests can match them.
 *   json    one JSON object per line, the same event with typed fields:
 *           everything a renderer needs, so a saved trace alone suffices.
 *
 * The kernel draws nothing: the Chrome trace and the timeline are rendered
 * from the JSON lines by a hosted tool (harness/umk-trace/), which
 * --trace-format=chrome and --timeline start at boot and feed through a
 * pipe. docs/trace.md documents every field. */
#ifndef UMK_TRACE_H
#define UMK_TRACE_H

#include <umk/types.h>
#include <umk/uapi/trace_events.h>


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
 * written out. A task event also carries the task's comm, tgid and ppid
 * (struct trace_task), taken when it is recorded. */
struct trace_fields {
	long nr;
	long ret;
	pid_t other;
	int sig;
	const char *what;	/* a string with static lifetime */
};

/* Room for the longest details, a clone3 of a glibc thread (about 230
 * bytes); an entry is 384 bytes with 200 as with 256. */
#define TRACE_MSG_LEN 256
#define TRACE_RING_SIZE 4096	/* entries; a power of two */

/* Who a task event's task is, as perf's COMM and FORK records say it:
 * filled by the trace itself from the live task, if it still exists. */
struct trace_task {
	bool known;			/* false: the task was already gone */
	pid_t tgid, ppid;		/* ppid: the parent process's tgid, or 0 */
	char comm[16];
};

/* What every event writes comes first, in the entry's first two cache
 * lines: the ring is larger than the CPU's caches, and each event the
 * kernel records without text touches only those. */
struct trace_entry {
	u64 ts;				/* ns since boot */
	pid_t pid;			/* the task the event happened in */
	enum trace_event event;
	struct trace_fields f;
	unsigned long args[6];		/* an unformatted enter: the raw
					 * arguments (gdb's umk-trace) */
	struct trace_task task;		/* TR_TASK with a kind only */
	char msg[TRACE_MSG_LEN];	/* the text form's details; empty for
					 * an event recorded without text
					 * (trace_syscall, trace_event) */
} __attribute__((aligned(64)));

struct trace_ring {
	u64 head;			/* entries written in all */
	struct trace_entry e[TRACE_RING_SIZE];
};

enum trace_format { TRACE_TEXT, TRACE_JSON };

extern struct trace_ring trace_ring;

/* At boot, from start_kernel's boot options, for each place events are
 * written as they happen (--trace's file or stderr, the pipe to each
 * renderer arch/ starts): write every event to host fd in format. name
 * (kept, not copied) says which in the one line that drops the sink after
 * a failed write (kernel/trace/trace.c). */
void trace_add_sink(int fd, enum trace_format format, const char *name);
/* Write one formatted event to sink number sink (trace_add_sink's order),
 * waiting while it is full; a failure drops the sink. */
void trace_sink_write(int sink, const char *buf, size_t n);

/* An event with no typed fields beyond pid and time. */
void trace(enum trace_event ev, const char *fmt, ...) __printf(2, 3);
/* An event with typed fields: trace_with(TR_SWITCH,
 *	&(struct trace_fields){ .other = next->pid, .what = "sleep" }, ...).
 * Only the fields the table above lists for the event are read. */
void trace_with(enum trace_event ev, const struct trace_fields *f, const char *fmt, ...)
	__printf(3, 4);
/* A switch, a wake-up or a timer's expiry, the events of every sleep:
 * recorded with its fields only, the text made from them (trace_fields_text)
 * only when the trace is written out, and by gdb's umk-trace. */
void trace_event(enum trace_event ev, const struct trace_fields *f);
/* A system call's entry or exit, in the ring only: no formatting, for the
 * hot path when nobody reads the trace as it goes. args: an entry's six
 * raw arguments (NULL for an exit). */
void trace_syscall(enum trace_event ev, long nr, long ret, const unsigned long *args);
/* kernel/trace/trace_syscalls.c: a system call's entry (fmt: its arguments'
 * format letters) and exit, decoded when the trace is written out. */
struct pt_regs;
void trace_sys_enter(long nr, const char *fmt, const struct pt_regs *regs);
void trace_sys_exit(long nr, long ret);
extern int trace_nr_sinks;	/* trace_add_sink's calls */
/* true when events are written out as they happen (arguments worth
 * decoding). */
static inline bool trace_writing(void)
{
	return trace_nr_sinks > 0;
}
const char *trace_event_name(enum trace_event ev);

/* kernel/trace/trace_json.c: one event as a JSON line, written to sink. */
void trace_json_line(int sink, const struct trace_entry *e);

#endif
