/* The trace's events, as umk writes them out (docs/trace.md): an event's
 * name is the third field of a text line and the "event" of a JSON line.
 * One list for the kernel, which records them, and for the tools that read
 * saved traces (harness/umk-trace): TRACE_EVENT(NAME, "name", what). */
#ifndef UMK_UAPI_TRACE_EVENTS_H
#define UMK_UAPI_TRACE_EVENTS_H

#define TRACE_EVENTS(TRACE_EVENT)						\
	TRACE_EVENT(ENTER, "enter", "system call entry, arguments decoded")	\
	TRACE_EVENT(EXIT, "exit", "system call return: value or errno name")	\
	TRACE_EVENT(SWITCH, "switch", "context switch: prev -> next")		\
	TRACE_EVENT(WAKEUP, "wakeup", "a sleeping or stopped task made runnable") \
	TRACE_EVENT(TIMER, "timer", "a kernel timer expired")			\
	TRACE_EVENT(SIGNAL, "signal", "a signal generated")			\
	TRACE_EVENT(DELIVER, "deliver",						\
		    "a signal acted on (default action, handler), sigreturn")	\
	TRACE_EVENT(RESTART, "restart",						\
		    "the restart decision; restart_syscall's continuation")	\
	TRACE_EVENT(FAULT, "fault", "a user fault")				\
	TRACE_EVENT(TASK, "task", "task life: fork, exec, exit, reap")		\
	TRACE_EVENT(NOSYS, "nosys", "an unimplemented system call")

#define __TRACE_EVENT_ENUM(id, name, what) TR_##id,
#define __TRACE_EVENT_NAME(id, name, what) [TR_##id] = name,

enum trace_event {
	TRACE_EVENTS(__TRACE_EVENT_ENUM)
	TR_NR_EVENTS
};

/* trace_event_names[TR_SWITCH] is "switch". */
static const char *const trace_event_names[TR_NR_EVENTS] __attribute__((unused)) = {
	TRACE_EVENTS(__TRACE_EVENT_NAME)
};

#endif
