/*
 * kernel/trace.c: the trace ring and its writers.
 *
 * Every event goes into trace_ring (gdb reads it: umk-trace) and, when umk
 * was started with --trace, is written at once to trace_fd in the chosen
 * form: text here, JSON lines and Chrome in kernel/trace_json.c. Events also
 * feed the lanes (kernel/lanes.c) when the Chrome trace or the timeline
 * needs spans, and the timeline (kernel/timeline.c) with --timeline.
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/timer.h>
#include <umk/trace.h>

struct trace_ring trace_ring;
int trace_fd = -1;
enum trace_format trace_format = TRACE_TEXT;

static const char *const event_names[TR_NR_EVENTS] = {
	[TR_ENTER] = "enter",	[TR_EXIT] = "exit",	[TR_SWITCH] = "switch",
	[TR_WAKEUP] = "wakeup",	[TR_TIMER] = "timer",	[TR_SIGNAL] = "signal",
	[TR_DELIVER] = "deliver", [TR_RESTART] = "restart", [TR_FAULT] = "fault",
	[TR_TASK] = "task",	[TR_NOSYS] = "nosys",
};

const char *trace_event_name(enum trace_event ev)
{
	return ev < TR_NR_EVENTS ? event_names[ev] : "?";
}

static struct trace_entry *trace_next(enum trace_event ev)
{
	struct trace_entry *e = &trace_ring.e[trace_ring.head++ & (TRACE_RING_SIZE - 1)];

	e->ts = ktime_since_boot();
	e->pid = current->pid;
	e->event = ev;
	e->f = (struct trace_fields){ 0 };
	return e;
}

static void trace_text_line(const struct trace_entry *e)
{
	char line[TRACE_MSG_LEN + 64];
	int n;

	n = snprintf(line, sizeof(line), "%llu.%06llu %d %s %s\n",
		     (unsigned long long)(e->ts / NSEC_PER_SEC),
		     (unsigned long long)(e->ts % NSEC_PER_SEC / 1000), e->pid,
		     event_names[e->event], e->msg);
	os_write(trace_fd, line, min((size_t)n, sizeof(line) - 1));
}

/* Hand a recorded event to whoever reads events as they happen. */
static void trace_emit(const struct trace_entry *e)
{
	if (lanes_enabled)
		lanes_event(e);
	if (timeline_fd >= 0)
		timeline_event(e);
	if (trace_fd < 0)
		return;
	switch (trace_format) {
	case TRACE_TEXT:
		trace_text_line(e);
		break;
	case TRACE_JSON:
		trace_json_line(e);
		break;
	case TRACE_CHROME:
		trace_chrome_event(e);
		break;
	}
}

void trace_syscall(enum trace_event ev, long nr, long ret, const unsigned long *args)
{
	struct trace_entry *e = trace_next(ev);

	e->f.nr = nr;
	e->f.ret = ret;
	e->msg[0] = '\0';
	if (args)
		memcpy(e->args, args, sizeof(e->args));
	trace_emit(e);
}

static void trace_vrecord(enum trace_event ev, const struct trace_fields *f, const char *fmt,
			  va_list ap)
{
	struct trace_entry *e = trace_next(ev);

	if (f)
		e->f = *f;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	trace_emit(e);
}

void trace(enum trace_event ev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_vrecord(ev, NULL, fmt, ap);
	va_end(ap);
}

void trace_with(enum trace_event ev, const struct trace_fields *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_vrecord(ev, f, fmt, ap);
	va_end(ap);
}

void trace_finish(void)
{
	u64 now = ktime_since_boot();

	if (lanes_enabled)
		lanes_finish(now);
	if (trace_fd >= 0 && trace_format == TRACE_CHROME)
		trace_chrome_finish();
	if (timeline_fd >= 0)
		timeline_write(now);
}

static const char *const errno_names[] = {
#define E(x) [x] = #x
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV),
	E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK),
	E(EPIPE), E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK),
	E(ENOSYS), E(ENOTEMPTY), E(ELOOP), E(ENOMSG), E(EIDRM), E(EOVERFLOW),
	E(ENOTSOCK), E(EOPNOTSUPP), E(ETIMEDOUT), E(ECANCELED),
	E(ERESTARTSYS), E(ERESTARTNOINTR), E(ERESTARTNOHAND), E(ENOIOCTLCMD),
	E(ERESTART_RESTARTBLOCK),
#undef E
};

const char *errno_name(long err)
{
	if (err <= 0 || err >= (long)ARRAY_SIZE(errno_names))
		return NULL;
	return errno_names[err];
}
