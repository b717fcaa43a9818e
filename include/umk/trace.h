/* The kernel's trace: every event goes into a ring buffer (for gdb's
 * umk-trace) and, with --trace, is written out at once as one text line:
 *
 *     <seconds since boot> <pid> <event> <details>
 *
 * e.g. "0.001234 1 enter write(1, \"hi\\n\", 3)". The fields after the time
 * are stable, so tests can match them. */
#ifndef UMK_TRACE_H
#define UMK_TRACE_H

#include <umk/types.h>

enum trace_event {
	TR_ENTER,	/* system call entry, arguments decoded */
	TR_EXIT,	/* system call return: value or errno name */
	TR_SWITCH,	/* context switch: prev -> next */
	TR_TIMER,	/* a kernel timer expired */
	TR_SIGNAL,	/* a signal generated */
	TR_DELIVER,	/* a signal acted on (default action, handler) */
	TR_RESTART,	/* the restart decision */
	TR_FAULT,	/* a user fault */
	TR_TASK,	/* task life: fork, exec, exit, reap */
	TR_NOSYS,	/* an unimplemented system call */
	TR_NR_EVENTS
};

#define TRACE_MSG_LEN 200
#define TRACE_RING_SIZE 4096	/* entries; a power of two */

struct trace_entry {
	u64 ts;				/* ns since boot */
	pid_t pid;
	enum trace_event event;
	long nr, ret;			/* TR_ENTER/TR_EXIT: the call, its value */
	char msg[TRACE_MSG_LEN];	/* empty for a syscall event recorded
					 * without --trace (trace_syscall) */
};

struct trace_ring {
	u64 head;			/* entries written in all */
	struct trace_entry e[TRACE_RING_SIZE];
};

extern struct trace_ring trace_ring;
extern int trace_fd;			/* host fd for --trace, or -1 */

void trace(enum trace_event ev, const char *fmt, ...) __printf(2, 3);
/* A system call's entry or exit, in the ring only: no formatting, for the
 * hot path when nobody reads the trace as it goes. */
void trace_syscall(enum trace_event ev, long nr, long ret);
const char *trace_event_name(enum trace_event ev);

#endif
