/*
 * kernel/trace_json.c: the trace's machine-readable forms.
 *
 * --trace-format=json writes one JSON object per event and per line; every
 * object has ts (ns since boot), pid, event and details (the text form's
 * details), then the typed fields of its event (include/umk/trace.h), named
 * for what they mean: {"ts":102036000,"pid":3,"event":"restart",
 * "details":"...","nr":35,"syscall":"nanosleep","code":"ERESTART_RESTARTBLOCK",
 * "action":"EINTR","handler":"SIGUSR1"}. docs/trace.md lists them all.
 *
 * --trace-format=chrome writes the Chrome trace-event format, a JSON array
 * (the "JSON Array Format"): a "X" span per lane state (kernel/lanes.c), an
 * instant "i" event for each signal, delivery, sigreturn, restart, fault and
 * task event (a signal's on its target's track, a continue's or a group
 * kill's on the process's), and at exit "M" events naming each track: process = tgid,
 * thread = pid, so every task has its own track.
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/signal.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/unistd.h>

/* Room for the longest event: details of TRACE_MSG_LEN bytes, each escaped
 * to at most 6 ("\u00e9"), plus every other field (under 512 bytes: names
 * and numbers). Nothing is ever cut, so every line is well-formed JSON. */
#define JSON_LINE_LEN (6 * TRACE_MSG_LEN + 512)

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
	vsnprintf(j->b + j->n, sizeof(j->b) - j->n, fmt, ap);
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
		break;
	case TR_NR_EVENTS:
		break;
	}
}

static void jwrite(struct jbuf *j)
{
	os_write(trace_fd, j->b, j->n);
}

void trace_json_line(const struct trace_entry *e)
{
	struct jbuf j = { .n = 0 };

	jprintf(&j, "{\"ts\":%llu,\"pid\":%d,\"event\":\"%s\"", (unsigned long long)e->ts, e->pid,
		trace_event_name(e->event));
	jkey_str(&j, "details", e->msg);
	json_fields(&j, e);
	jraw(&j, "}\n");
	jwrite(&j);
}

/* ---- the Chrome trace-event format ---- */

static bool chrome_started;

/* Open the array on the first event; separate the others with commas. */
static void chrome_begin(struct jbuf *j)
{
	jraw(j, chrome_started ? ",\n" : "[\n");
	chrome_started = true;
}

static void chrome_end(struct jbuf *j)
{
	jraw(j, "}");
	jwrite(j);
}

/* Chrome's times are microseconds. */
static void chrome_ts(struct jbuf *j, const char *key, u64 ns)
{
	jprintf(j, ",\"%s\":%llu.%03llu", key, (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

static void chrome_track(struct jbuf *j, pid_t pid)
{
	struct lane *l = lane_find(pid);

	jprintf(j, ",\"pid\":%d,\"tid\":%d", l ? l->tgid : pid, pid);
}

void trace_chrome_span(const struct lane *l, u64 end)
{
	struct jbuf j = { .n = 0 };

	chrome_begin(&j);
	jprintf(&j, "{\"name\":\"%s\",\"cat\":\"state\",\"ph\":\"X\"", lane_state_name(l->state));
	chrome_ts(&j, "ts", l->since);
	chrome_ts(&j, "dur", end - l->since);
	jprintf(&j, ",\"pid\":%d,\"tid\":%d", l->tgid, l->pid);
	if (l->state != LANE_RUNNING && l->syscall >= 0)
		jprintf(&j, ",\"args\":{\"syscall\":\"%s\"}", syscall_name(l->syscall));
	chrome_end(&j);
}

/* The instant events, on the track of the task they concern: a signal on
 * its target's, the others on the task they happened in. */
void trace_chrome_event(const struct trace_entry *e)
{
	struct jbuf j = { .n = 0 };
	pid_t track = e->pid;
	const char *cat;

	switch (e->event) {
	case TR_SIGNAL:
		cat = "signal";
		if (e->f.other > 0)
			track = e->f.other;
		break;
	case TR_DELIVER:
		cat = "deliver";
		/* a continue or group kill happens in the sender */
		if (e->f.what && (!strcmp(e->f.what, "continue") || !strcmp(e->f.what, "terminate")))
			track = e->f.other;
		break;
	case TR_RESTART:
		cat = "restart";
		break;
	case TR_FAULT:
		cat = "fault";
		break;
	case TR_TASK:
		cat = "task";
		break;
	default:
		return;		/* system calls, switches, timers: in the spans */
	}
	chrome_begin(&j);
	jraw(&j, "{\"name\":");
	jstr(&j, e->msg);
	jprintf(&j, ",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\"", cat);
	chrome_ts(&j, "ts", e->ts);
	chrome_track(&j, track);
	jprintf(&j, ",\"args\":{\"from\":%d", e->pid);
	json_fields(&j, e);
	jraw(&j, "}");
	chrome_end(&j);
}

static void chrome_name(const char *what, pid_t pid, pid_t tid, const char *name)
{
	struct jbuf j = { .n = 0 };

	chrome_begin(&j);
	jprintf(&j, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
		what, pid, tid);
	jstr(&j, name);
	jraw(&j, "}");
	chrome_end(&j);
}

/* Name every track, then close the array. */
void trace_chrome_finish(void)
{
	const struct lane *l;
	char name[48];
	size_t i;

	for (i = 0; (l = lane_at(i)); i++) {
		snprintf(name, sizeof(name), "%s %d", l->pid ? l->comm : "idle", l->pid);
		chrome_name("thread_name", l->tgid, l->pid, name);
		if (l->pid == l->tgid)
			chrome_name("process_name", l->tgid, l->pid, name);
	}
	if (chrome_started)
		os_write(trace_fd, "\n]\n", 3);
	else
		os_write(trace_fd, "[]\n", 3);
}
