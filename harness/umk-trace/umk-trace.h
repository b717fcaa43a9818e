/* harness/umk-trace/umk-trace.h: what the files of umk-trace share: the
 * events read back from umk's JSON lines (main.c), the lanes (lanes.c) and
 * the two renderers, chrome.c and the timeline (timeline.h).
 *
 * umk-trace is a host program: it may use the C library and floating
 * point, which the kernel may not. */
#ifndef UMK_TRACE_H
#define UMK_TRACE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef uint64_t u64;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define __printf(a, b) __attribute__((format(printf, a, b)))

/* The status umk-trace exits with (docs/trace.md). */
#define EXIT_BAD_TRACE	1	/* the input is not a umk JSON-lines trace */
#define EXIT_USAGE	2	/* unknown command, an unreadable FILE */
#define EXIT_WRITE	3	/* the output could not be written */

/* Times past this are not umk's (146 years): with them, no sum of times
 * the layout makes can overflow. */
#define MAX_TS		(1ULL << 62)

/* The kernel's events, by their JSON "event" names: TR_ENTER..., and
 * trace_event_names[]. */
#include <umk/uapi/trace_events.h>

/* The typed fields the renderers read, gathered by meaning from an event's
 * JSON fields (docs/trace.md); a field the event lacks is 0 or NULL:
 *   other  switch: next; wakeup, task: task; signal: target; deliver:
 *          process (stop, continue, terminate), altstack 1/0 (handler)
 *   what   switch: reason; timer: timer; signal: scope; deliver, restart:
 *          action (a continuation: its name); task: kind
 *   ret    exit: ret; task: status; deliver (handler): frame
 *   sig    signo; nr: the system call's number */
struct trace_fields {
	long nr;
	long long ret;
	pid_t other;
	int sig;
	const char *what;
};

/* A task event's task: its comm, tgid and ppid when the kernel knew them. */
struct trace_task {
	bool known;
	pid_t tgid, ppid;
	char comm[64];
};

struct trace_entry {
	u64 ts;			/* ns since boot */
	u64 seq;		/* its place in the trace: 1 for the first line */
	pid_t pid;		/* the task it happened in */
	enum trace_event event;
	struct trace_fields f;
	struct trace_task task;
	const char *msg;	/* the details, as the kernel wrote them (bytes) */
	const char *fields;	/* its JSON fields after details, each ",\"k\":v" */
};

/* main.c */
extern u64 trace_seq;		/* the seq of the event being read */
const char *trace_event_name(enum trace_event ev);
/* The kernel's names (harness/lib's signal_name is the harness's own). */
#define signal_name umk_signal_name
const char *signal_name(int sig);	/* "SIGTERM", "SIGRT3", or NULL */
const char *syscall_name(long nr);	/* as the trace named it, or "syscall_NNN" */
void *kmalloc(size_t size);		/* zeroed; exits when out of memory */
void kfree(const void *p);
void *kgrow(void *p, size_t n, size_t *cap, size_t size);	/* room for element n */

/* lanes.c: what each task was doing over time, a lane per task. */
enum lane_state { LANE_NONE, LANE_RUNNING, LANE_RUNNABLE, LANE_SLEEPING, LANE_STOPPED,
		  LANE_DEAD };

struct lane {
	pid_t pid, tgid;
	pid_t ppid;		/* the parent process when the lane began */
	char comm[64];
	enum lane_state state;
	u64 since;		/* ns since boot the state began */
	u64 since_seq;		/* the event that began it */
	long syscall;		/* the call it sleeps or stops in, or -1 */
};

/* Called when a lane leaves a state it held since l->since. */
extern void (*lanes_span)(const struct lane *l, u64 end);
void lanes_event(const struct trace_entry *e);
void lanes_finish(u64 now);	/* close every lane's open span */
const char *lane_state_name(enum lane_state s);
struct lane *lane_find(pid_t pid);	/* the newest lane of pid, or NULL */
struct lane *lane_at(size_t i);		/* the i-th lane made, or NULL */

/* chrome.c: the Chrome trace-event format, to stdout. */
void chrome_span(const struct lane *l, u64 end);
void chrome_event(const struct trace_entry *e);
void chrome_finish(void);

/* timeline.c: the SVG timeline, to stdout at the end. */
void timeline_span(const struct lane *l, u64 end);
void timeline_event(const struct trace_entry *e);
void timeline_write(u64 end);

#endif
