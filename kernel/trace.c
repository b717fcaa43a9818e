/*
 * kernel/trace.c: the trace ring and its text form.
 *
 * Every event goes into trace_ring (gdb reads it: umk-trace) and, when umk
 * was started with --trace, is written at once to trace_fd as one line:
 *	<seconds since boot> <pid> <event> <details>
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/timer.h>
#include <umk/trace.h>

struct trace_ring trace_ring;
int trace_fd = -1;

static const char *const event_names[TR_NR_EVENTS] = {
	[TR_ENTER] = "enter",	[TR_EXIT] = "exit",	[TR_SWITCH] = "switch",
	[TR_TIMER] = "timer",	[TR_SIGNAL] = "signal",	[TR_DELIVER] = "deliver",
	[TR_RESTART] = "restart", [TR_FAULT] = "fault", [TR_TASK] = "task",
	[TR_NOSYS] = "nosys",
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
	e->nr = -1;
	e->ret = 0;
	return e;
}

void trace_syscall(enum trace_event ev, long nr, long ret)
{
	struct trace_entry *e = trace_next(ev);

	e->nr = nr;
	e->ret = ret;
	e->msg[0] = '\0';
}

void trace(enum trace_event ev, const char *fmt, ...)
{
	struct trace_entry *e = trace_next(ev);
	char line[TRACE_MSG_LEN + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	if (trace_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%llu.%06llu %d %s %s\n",
		     (unsigned long long)(e->ts / NSEC_PER_SEC),
		     (unsigned long long)(e->ts % NSEC_PER_SEC / 1000), e->pid,
		     event_names[ev], e->msg);
	os_write(trace_fd, line, min((size_t)n, sizeof(line) - 1));
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
