/*
 * kernel/trace/trace.c: the trace ring and its writers.
 *
 * Every event goes into trace_ring (gdb reads it: umk-trace) and is written
 * at once to each sink arch/ added at boot: text lines here, JSON lines in
 * kernel/trace/trace_json.c. The kernel only records: the Chrome trace and the
 * timeline are drawn from the JSON lines by harness/umk-trace/, outside it.
 *
 * A sink is umk's own output, as strace's is: a slow reader slows umk down
 * and a stopped one holds it (every task) until it reads again, so that the
 * trace is complete and in order. Never for good, though: a write error
 * (a full disk, a reader gone) and a host signal that comes while umk waits
 * for a sink (^C, a kill from the host, timeout's SIGTERM) each drop that
 * sink with one line on stderr, and the run goes on without it; the ring
 * keeps every event regardless.
 */
#include <umk/entry.h>
#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/timer.h>
#include <umk/trace.h>

struct trace_ring trace_ring;
/* Set up at boot from the boot options, before any event; never changed
 * after but to drop a failed one. */
static struct trace_sink {
	int fd;				/* a host fd; -1 once dropped */
	enum trace_format format;
	const char *name;		/* for the message that drops it */
} sinks[BOOT_MAX_TRACE_SINKS];
int trace_nr_sinks;

const char *trace_event_name(enum trace_event ev)
{
	return ev < TR_NR_EVENTS ? trace_event_names[ev] : "?";
}

void trace_add_sink(int fd, enum trace_format format, const char *name)
{
	if (trace_nr_sinks == BOOT_MAX_TRACE_SINKS)
		panic("trace_add_sink: more than %d sinks", BOOT_MAX_TRACE_SINKS);
	sinks[trace_nr_sinks++] = (struct trace_sink){ .fd = fd, .format = format, .name = name };
}

void trace_sink_write(int sink, const char *buf, size_t n)
{
	struct trace_sink *s = &sinks[sink];
	char msg[160];
	ssize_t r;

	if (s->fd < 0)
		return;
	r = os_write_wait(s->fd, buf, n);
	if (r >= 0)
		return;
	/* Dropped before the message: on stderr, the message may itself be
	 * what no longer goes through. */
	s->fd = -1;
	if (r == -EINTR)
		ksnprintf(msg, sizeof(msg), "umk: trace to %s: signalled while its reader was not "
			 "reading: the run goes on without it\n", s->name);
	else
		ksnprintf(msg, sizeof(msg), "umk: trace to %s: write failed (%s): the run goes on "
			 "without it\n", s->name, errno_name(-r) ? errno_name(-r) : "?");
	os_console_err_try(msg);
}

/* The ns since boot an event is stamped with: the kernel's clock when the
 * event is written out (or the clock is virtual, a variable), else the
 * cheaper trace clock (arch/), within a microsecond of it. */
static u64 trace_clock(void)
{
	if (clock_virtual || trace_writing())
		return ktime_since_boot();
	return os_trace_clock_ns() - ktime_boot();
}

static struct trace_entry *trace_next(enum trace_event ev)
{
	struct trace_entry *e = &trace_ring.e[trace_ring.head++ & (TRACE_RING_SIZE - 1)];

	e->ts = trace_clock();
	e->pid = current->pid;
	e->event = ev;
	e->f = (struct trace_fields){ 0 };
	e->task.known = false;
	return e;
}

static void trace_text_line(int sink, const struct trace_entry *e)
{
	char line[TRACE_MSG_LEN + 64];
	int n;

	n = ksnprintf(line, sizeof(line), "%llu.%06llu %d %s %s\n",
		     (unsigned long long)(e->ts / NSEC_PER_SEC),
		     (unsigned long long)(e->ts % NSEC_PER_SEC / 1000), e->pid,
		     trace_event_names[e->event], e->msg);
	trace_sink_write(sink, line, min((size_t)n, sizeof(line) - 1));
}

/* Write a recorded event to every sink. */
static void trace_emit(const struct trace_entry *e)
{
	int i;

	for (i = 0; i < trace_nr_sinks; i++) {
		if (sinks[i].fd < 0)
			continue;
		if (sinks[i].format == TRACE_JSON)
			trace_json_line(i, e);
		else
			trace_text_line(i, e);
	}
}

/* A task event's task, from the live task while it exists: a renderer
 * reading a saved trace has nothing else to name its lane by. */
static void trace_task_ids(struct trace_entry *e)
{
	struct task_struct *t = find_task_by_pid(e->f.other);

	e->task = (struct trace_task){ .known = t != NULL };
	if (!t)
		return;
	e->task.tgid = t->tgid;
	e->task.ppid = t->real_parent ? t->real_parent->tgid : 0;
	memcpy(e->task.comm, t->comm, sizeof(e->task.comm));
	e->task.comm[sizeof(e->task.comm) - 1] = '\0';
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

/* The text of an event that trace_event recorded without one: what
 * trace_with's format would have made of the same fields. harness/gdb's
 * umk-trace makes the same text from a ring entry. */
static void trace_fields_text(struct trace_entry *e)
{
	switch (e->event) {
	case TR_SWITCH:
		ksnprintf(e->msg, sizeof(e->msg), "%d -> %d (%s)", e->pid, e->f.other, e->f.what);
		break;
	case TR_WAKEUP:
		ksnprintf(e->msg, sizeof(e->msg), "%d", e->f.other);
		break;
	case TR_TIMER:
		ksnprintf(e->msg, sizeof(e->msg), "%s expired", e->f.what);
		break;
	default:
		panic("trace_event: %s has no text made from its fields", trace_event_name(e->event));
	}
}

void trace_event(enum trace_event ev, const struct trace_fields *f)
{
	struct trace_entry *e = trace_next(ev);

	e->f = *f;
	e->msg[0] = '\0';
	if (!trace_writing())
		return;
	trace_fields_text(e);
	trace_emit(e);
}

static void trace_vrecord(enum trace_event ev, const struct trace_fields *f, const char *fmt,
			  va_list ap)
{
	struct trace_entry *e = trace_next(ev);

	if (f)
		e->f = *f;
	if (ev == TR_TASK && e->f.what)
		trace_task_ids(e);
	kvsnprintf(e->msg, sizeof(e->msg), fmt, ap);
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
