/*
 * harness/umk-trace/chrome.c: `umk-trace chrome`, the Chrome trace-event
 * format (the "JSON Array Format"), for Perfetto and chrome://tracing.
 *
 * A "X" span per lane state (lanes.c), an instant "i" event for each
 * signal, delivery, sigreturn, restart, fault and task event (a signal's on
 * its target's track, a continue's or a group kill's on the process's),
 * and at the end "M" events naming each track: process = tgid, thread =
 * pid, so every task has its own track. Written as the events come, one
 * array element a line; the array is closed at the end of the input.
 */
#include "umk-trace.h"

static bool started;

/* Open the array on the first element; separate the others with commas. */
static void begin(void)
{
	fputs(started ? ",\n" : "[\n", stdout);
	started = true;
}

/* A JSON string: quotes, backslashes and control characters escaped; bytes
 * above 0x7e as \u00XX, as the kernel writes them, so the output is ASCII. */
static void jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* Chrome's times are microseconds. */
static void ts(const char *key, u64 ns)
{
	printf(",\"%s\":%llu.%03llu", key, (unsigned long long)(ns / 1000),
	       (unsigned long long)(ns % 1000));
}

void chrome_span(const struct lane *l, u64 end)
{
	begin();
	printf("{\"name\":\"%s\",\"cat\":\"state\",\"ph\":\"X\"", lane_state_name(l->state));
	ts("ts", l->since);
	ts("dur", end - l->since);
	printf(",\"pid\":%d,\"tid\":%d", l->tgid, l->pid);
	if (l->state != LANE_RUNNING && l->syscall >= 0)
		printf(",\"args\":{\"syscall\":\"%s\"}", syscall_name(l->syscall));
	putchar('}');
}

/* The instant events, on the track of the task they concern: a signal on
 * its target's, the others on the task they happened in. Their args are
 * the event's own JSON fields, after "from". */
void chrome_event(const struct trace_entry *e)
{
	const char *what = e->f.what ? e->f.what : "", *cat;
	pid_t track = e->pid;
	struct lane *l;

	switch (e->event) {
	case TR_SIGNAL:
		cat = "signal";
		if (e->f.other > 0)
			track = e->f.other;
		break;
	case TR_DELIVER:
		cat = "deliver";
		/* a continue or group kill happens in the sender */
		if (!strcmp(what, "continue") || !strcmp(what, "terminate"))
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
	l = lane_find(track);
	begin();
	fputs("{\"name\":", stdout);
	jstr(e->msg);
	printf(",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\"", cat);
	ts("ts", e->ts);
	printf(",\"pid\":%d,\"tid\":%d", l ? l->tgid : track, track);
	printf(",\"args\":{\"from\":%d%s}}", e->pid, e->fields);
}

static void name_track(const char *what, pid_t pid, pid_t tid, const char *name)
{
	begin();
	printf("{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", what,
	       pid, tid);
	jstr(name);
	fputs("}}", stdout);
}

/* Name every track, then close the array. */
void chrome_finish(void)
{
	const struct lane *l;
	char name[96];
	size_t i;

	for (i = 0; (l = lane_at(i)); i++) {
		snprintf(name, sizeof(name), "%s %d", l->pid ? l->comm : "idle", l->pid);
		name_track("thread_name", l->tgid, l->pid, name);
		if (l->pid == l->tgid)
			name_track("process_name", l->tgid, l->pid, name);
	}
	fputs(started ? "\n]\n" : "[]\n", stdout);
}
