/*
 * kernel/trace/trace_json.c: the trace's machine-readable form, JSON lines.
 *
 * --trace-format=json writes one JSON object per event and per line; every
 * object has ts (ns since boot), pid, event and details (the text form's
 * details), then the typed fields of its event (include/umk/trace.h), named
 * for what they mean: {"ts":102036000,"pid":3,"event":"restart",
 * "details":"...","nr":35,"syscall":"nanosleep","code":"ERESTART_RESTARTBLOCK",
 * "action":"EINTR","handler":"SIGUSR1"}. docs/trace.md lists them all.
 *
 * The lines say everything the renderers of harness/umk-trace/ draw from
 * (a task event's comm, tgid and ppid; a handler's frame and stack), so
 * that a saved trace alone redraws the Chrome trace and the timeline.
 * Each line is written with one write: under PIPE_BUF, so a renderer
 * reading a pipe never sees half a line, whatever ends umk.
 */
#include <umk/errno.h>
#include <umk/signal.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/unistd.h>

/* Room for the longest event: details of TRACE_MSG_LEN bytes, each escaped
 * to at most 6 ("\u00e9"), plus every other field (under 640 bytes: names,
 * numbers and a comm of 15 bytes escaped). Nothing is ever cut, so every
 * line is well-formed JSON. */
#define JSON_LINE_LEN (6 * TRACE_MSG_LEN + 640)

struct jbuf {
	char b[JSON_LINE_LEN];
	size_t n;
};

static void jraw(struct jbuf *j, const char *s)
{
	while (*s && j->n < sizeof(j->b) - 1)
		j->b[j->n++] = *s++;
	j->b[j->n] = '\0';
}

static void jprintf(struct jbuf *j, const char *fmt, ...) __printf(2, 3);
static void jprintf(struct jbuf *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(j->b + j->n, sizeof(j->b) - j->n, fmt, ap);
	va_end(ap);
	j->n += strlen(j->b + j->n);
}

/* A JSON string: quotes, backslashes and control characters escaped; bytes
 * above 0x7f as \u00XX, so the output is ASCII whatever a program wrote. */
static void jstr(struct jbuf *j, const char *s)
{
	jraw(j, "\"");
	for (; *s && j->n < sizeof(j->b) - 8; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			jprintf(j, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			jprintf(j, "\\u%04x", c);
		else
			j->b[j->n++] = c;
	}
	j->b[j->n] = '\0';
	jraw(j, "\"");
}

/* ,"key":"value", or ,"key":null for a NULL value */
static void jkey_str(struct jbuf *j, const char *key, const char *val)
{
	jprintf(j, ",\"%s\":", key);
	if (val)
		jstr(j, val);
	else
		jraw(j, "null");
}

static void jkey_long(struct jbuf *j, const char *key, long val)
{
	jprintf(j, ",\"%s\":%ld", key, val);
}

static void jkey_sig(struct jbuf *j, int sig)
{
	const char *name = signal_name(sig);

	if (name)
		jkey_str(j, "sig", name);
	jkey_long(j, "signo", sig);
}

static void jkey_syscall(struct jbuf *j, long nr)
{
	jkey_long(j, "nr", nr);
	jkey_str(j, "syscall", syscall_name(nr));
}

/* The typed fields of e, as the table in include/umk/trace.h gives them. */
static void json_fields(struct jbuf *j, const struct trace_entry *e)
{
	const struct trace_fields *f = &e->f;
	const char *err;

	switch (e->event) {
	case TR_ENTER:
	case TR_NOSYS:
		jkey_syscall(j, f->nr);
		break;
	case TR_EXIT:
		jkey_syscall(j, f->nr);
		jkey_long(j, "ret", f->ret);
		err = IS_ERR_VALUE(f->ret) ? errno_name(-f->ret) : NULL;
		if (err)
			jkey_str(j, "errno", err);
		break;
	case TR_SWITCH:
		jkey_long(j, "next", f->other);
		jkey_str(j, "reason", f->what);
		break;
	case TR_WAKEUP:
		jkey_long(j, "task", f->other);
		break;
	case TR_TIMER:
		jkey_str(j, "timer", f->what);
		break;
	case TR_SIGNAL:
		jkey_long(j, "target", f->other);
		jkey_sig(j, f->sig);
		jkey_str(j, "scope", f->what);
		break;
	case TR_DELIVER:
		if (f->sig)
			jkey_sig(j, f->sig);
		jkey_str(j, "action", f->what);
		if (f->what && (!strcmp(f->what, "stop") || !strcmp(f->what, "continue") ||
				!strcmp(f->what, "terminate")))
			jkey_long(j, "process", f->other);
		if (f->what && !strcmp(f->what, "handler")) {
			jprintf(j, ",\"frame\":%lu", (unsigned long)f->ret);
			jraw(j, f->other ? ",\"altstack\":true" : ",\"altstack\":false");
		}
		break;
	case TR_RESTART:
		jkey_syscall(j, f->nr);
		if (f->ret) {		/* the decision, on a -ERESTART* code */
			err = errno_name(-f->ret);
			jkey_str(j, "code", err ? err : "?");
			jkey_str(j, "action", f->what);
			jkey_str(j, "handler", f->sig ? signal_name(f->sig) : NULL);
		} else {		/* restart_syscall calling the continuation */
			jkey_str(j, "continuation", f->what);
		}
		break;
	case TR_FAULT:
		jkey_sig(j, f->sig);
		break;
	case TR_TASK:
		if (!f->what)
			break;
		jkey_long(j, "task", f->other);
		jkey_str(j, "kind", f->what);
		if (strcmp(f->what, "exit") == 0 || strcmp(f->what, "reap") == 0 ||
		    strcmp(f->what, "halt") == 0)
			jkey_long(j, "status", f->ret);
		if (e->task.known) {
			jkey_str(j, "comm", e->task.comm);
			jkey_long(j, "tgid", e->task.tgid);
			jkey_long(j, "ppid", e->task.ppid);
		}
		break;
	case TR_NR_EVENTS:
		break;
	}
}

void trace_json_line(int sink, const struct trace_entry *e)
{
	struct jbuf j = { .n = 0 };

	jprintf(&j, "{\"ts\":%llu,\"pid\":%d,\"event\":\"%s\"", (unsigned long long)e->ts, e->pid,
		trace_event_name(e->event));
	jkey_str(&j, "details", e->msg);
	json_fields(&j, e);
	jraw(&j, "}\n");
	trace_sink_write(sink, j.b, j.n);
}
