/*
 * harness/umk-trace/main.c: umk-trace, the renderer of umk's traces.
 *
 *   umk-trace chrome [FILE]     the Chrome trace-event format (a JSON array)
 *   umk-trace timeline [FILE]   the SVG timeline
 *
 * Reads the JSON lines of `umk --trace-format=json` from FILE, or stdin
 * without one (or with "-"), and writes the picture to stdout. umk itself
 * runs it for --trace-format=chrome and --timeline, feeding it through a
 * pipe (arch/render.c), so a saved trace redraws to exactly the same bytes.
 * A host program, built with musl like the harness's others, that runs on
 * the host, not under umk.
 *
 * Errors are one line on stderr naming the input, and an exit status
 * (umk-trace.h, docs/trace.md): 2 for an unknown command or an unreadable
 * FILE, 1 for a line that is not one of umk's JSON trace lines (it names
 * the line), 3 when stdout cannot be written. The Chrome trace streams: on
 * a bad line, what was written so far stays, and the status says it is
 * incomplete.
 */
#include "umk-trace.h"

#include <errno.h>

u64 trace_seq;


const char *trace_event_name(enum trace_event ev)
{
	return ev < TR_NR_EVENTS ? trace_event_names[ev] : "?";
}

/* Linux's numbers, as the kernel names them (kernel/signal/signal.c). */
const char *signal_name(int sig)
{
	static const char *const names[32] = {
		[1] = "SIGHUP", [2] = "SIGINT", [3] = "SIGQUIT", [4] = "SIGILL",
		[5] = "SIGTRAP", [6] = "SIGABRT", [7] = "SIGBUS", [8] = "SIGFPE",
		[9] = "SIGKILL", [10] = "SIGUSR1", [11] = "SIGSEGV", [12] = "SIGUSR2",
		[13] = "SIGPIPE", [14] = "SIGALRM", [15] = "SIGTERM", [16] = "SIGSTKFLT",
		[17] = "SIGCHLD", [18] = "SIGCONT", [19] = "SIGSTOP", [20] = "SIGTSTP",
		[21] = "SIGTTIN", [22] = "SIGTTOU", [23] = "SIGURG", [24] = "SIGXCPU",
		[25] = "SIGXFSZ", [26] = "SIGVTALRM", [27] = "SIGPROF", [28] = "SIGWINCH",
		[29] = "SIGIO", [30] = "SIGPWR", [31] = "SIGSYS",
	};
	static char rt[33][12];

	if (sig < 1 || sig > 64)
		return NULL;
	if (sig < 32)
		return names[sig];
	if (!rt[sig - 32][0])
		snprintf(rt[sig - 32], sizeof(rt[0]), "SIGRT%d", sig - 32);
	return rt[sig - 32];
}

/* System call names, learnt from the events that carry nr and syscall. */
#define MAX_NR 1024
static char *syscall_names[MAX_NR];

const char *syscall_name(long nr)
{
	static char buf[32];

	if (nr >= 0 && nr < MAX_NR && syscall_names[nr])
		return syscall_names[nr];
	snprintf(buf, sizeof(buf), "syscall_%ld", nr);
	return buf;
}

static void learn_syscall(long nr, const char *name)
{
	if (nr >= 0 && nr < MAX_NR && !syscall_names[nr] && name)
		syscall_names[nr] = strdup(name);
}

void *kmalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		fputs("umk-trace: out of memory\n", stderr);
		exit(EXIT_FAILURE);
	}
	return p;
}

void kfree(const void *p)
{
	free((void *)p);
}

void *kgrow(void *p, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? 2 * *cap : 64;

	if (n < *cap)
		return p;
	p = realloc(p, c * size);
	if (!p) {
		fputs("umk-trace: out of memory\n", stderr);
		exit(EXIT_FAILURE);
	}
	memset((char *)p + *cap * size, 0, (c - *cap) * size);
	*cap = c;
	return p;
}

/* ---- reading one JSON line ---- */

/* A flat JSON object, which is all umk writes: string, integer, boolean
 * and null values. A member's raw text is kept for the Chrome args. */
enum jtype { J_STR, J_INT, J_BOOL, J_NULL };

struct jmember {
	char key[32];
	enum jtype type;
	long long i;		/* J_INT, J_BOOL */
	char *s;		/* J_STR: decoded; bytes \u0000-\u00ff stand for */
	const char *raw;	/* "key":value in the line */
	size_t raw_len;
};

#define MAX_MEMBERS 32

struct jobject {
	struct jmember m[MAX_MEMBERS];
	int n;
};

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string at p (after its opening quote) into out (room for as many bytes
 * as the line has): returns what follows its closing quote, or NULL. umk
 * escapes each byte above 0x7e as \u00XX, so \u0000-\u00ff are bytes; a
 * higher code point (from another writer) is written as UTF-8. */
static const char *parse_string(const char *p, char *out, size_t room)
{
	size_t n = 0;
	unsigned cp;
	int i, h;

	for (; *p != '"'; p++) {
		if (!*p || (unsigned char)*p < 0x20 || n + 4 >= room)
			return NULL;
		if (*p != '\\') {
			out[n++] = *p;
			continue;
		}
		switch (*++p) {
		case '"': case '\\': case '/':
			out[n++] = *p;
			break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'u':
			for (cp = 0, i = 1; i <= 4; i++) {
				if ((h = hexval(p[i])) < 0)
					return NULL;
				cp = cp << 4 | h;
			}
			p += 4;
			if (cp == 0)
				return NULL;	/* would end the C string */
			if (cp < 0x100) {
				out[n++] = cp;
			} else if (cp < 0x800) {
				out[n++] = 0xc0 | cp >> 6;
				out[n++] = 0x80 | (cp & 0x3f);
			} else {
				out[n++] = 0xe0 | cp >> 12;
				out[n++] = 0x80 | (cp >> 6 & 0x3f);
				out[n++] = 0x80 | (cp & 0x3f);
			}
			break;
		default:
			return NULL;
		}
	}
	out[n] = '\0';
	return p + 1;
}

/* Parse line into o; the strings go into buf (as long as the line).
 * Returns false unless it is one flat object. */
static bool parse_object(const char *line, struct jobject *o, char *buf, size_t room)
{
	const char *p = skip_ws(line), *start;
	struct jmember *m;
	char *end;

	o->n = 0;
	if (*p++ != '{')
		return false;
	p = skip_ws(p);
	if (*p == '}')
		return *skip_ws(p + 1) == '\0';
	for (;;) {
		if (o->n == MAX_MEMBERS || *p != '"')
			return false;
		m = &o->m[o->n++];
		start = p;
		p = parse_string(p + 1, m->key, sizeof(m->key));
		if (!p)
			return false;
		p = skip_ws(p);
		if (*p++ != ':')
			return false;
		p = skip_ws(p);
		if (*p == '"') {
			m->type = J_STR;
			m->s = buf;
			p = parse_string(p + 1, buf, room);
			if (!p)
				return false;
			buf += strlen(buf) + 1;
			room -= strlen(m->s) + 1;
		} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
			m->type = J_INT;
			errno = 0;
			m->i = strtoll(p, &end, 10);
			if (errno || end == p || *end == '.' || *end == 'e' || *end == 'E')
				return false;
			p = end;
		} else if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
			m->type = J_BOOL;
			m->i = *p == 't';
			p += m->i ? 4 : 5;
		} else if (!strncmp(p, "null", 4)) {
			m->type = J_NULL;
			p += 4;
		} else {
			return false;
		}
		m->raw = start;
		m->raw_len = p - start;
		p = skip_ws(p);
		if (*p == '}')
			return *skip_ws(p + 1) == '\0';
		if (*p++ != ',')
			return false;
		p = skip_ws(p);
	}
}

static const struct jmember *member(const struct jobject *o, const char *key, enum jtype type)
{
	int i;

	for (i = 0; i < o->n; i++) {
		if (!strcmp(o->m[i].key, key))
			return o->m[i].type == type ? &o->m[i] : NULL;
	}
	return NULL;
}

static const char *get_str(const struct jobject *o, const char *key)
{
	const struct jmember *m = member(o, key, J_STR);

	return m ? m->s : NULL;
}

/* An integer or boolean field, or dflt. */
static long long get_int(const struct jobject *o, const char *key, long long dflt)
{
	const struct jmember *m = member(o, key, J_INT);

	if (!m)
		m = member(o, key, J_BOOL);
	return m ? m->i : dflt;
}

static const char *first_str(const struct jobject *o, const char *const *keys)
{
	const char *s = NULL;

	for (; *keys && !s; keys++)
		s = get_str(o, *keys);
	return s;
}

/* A line as an event: false unless it has umk's ts, pid, event and
 * details. fields gets the members after those four, for the Chrome args. */
static bool to_event(const struct jobject *o, struct trace_entry *e, char *fields)
{
	static const char *const what_keys[] = { "reason", "timer", "scope", "action",
						 "continuation", "kind", NULL };
	static const char *const other_keys[] = { "next", "task", "target", "process",
						  "altstack", NULL };
	const struct jmember *ts = member(o, "ts", J_INT), *pid = member(o, "pid", J_INT);
	const char *ev = get_str(o, "event"), *comm;
	const char *const *k;
	int i;

	if (!ts || ts->i < 0 || (u64)ts->i >= MAX_TS || !pid || !ev || !get_str(o, "details"))
		return false;
	for (i = 0; i < TR_NR_EVENTS && strcmp(ev, trace_event_names[i]); i++)
		;
	if (i == TR_NR_EVENTS)
		return false;
	*e = (struct trace_entry){ .ts = ts->i, .seq = trace_seq, .pid = pid->i, .event = i,
				   .msg = get_str(o, "details"), .fields = fields };
	e->f.nr = get_int(o, "nr", -1);
	e->f.sig = get_int(o, "signo", 0);
	e->f.ret = get_int(o, "ret", get_int(o, "status", get_int(o, "frame", 0)));
	e->f.what = first_str(o, what_keys);
	for (k = other_keys; *k; k++) {
		if (member(o, *k, J_INT) || member(o, *k, J_BOOL)) {
			e->f.other = get_int(o, *k, 0);
			break;
		}
	}
	learn_syscall(e->f.nr, get_str(o, "syscall"));
	comm = get_str(o, "comm");
	if (e->event == TR_TASK && comm) {
		e->task.known = true;
		e->task.tgid = get_int(o, "tgid", e->f.other);
		e->task.ppid = get_int(o, "ppid", 0);
		snprintf(e->task.comm, sizeof(e->task.comm), "%s", comm);
	}
	fields[0] = '\0';
	for (i = 0; i < o->n; i++) {
		const char *key = o->m[i].key;

		if (!strcmp(key, "ts") || !strcmp(key, "pid") || !strcmp(key, "event") ||
		    !strcmp(key, "details"))
			continue;
		strcat(fields, ",");
		strncat(fields, o->m[i].raw, o->m[i].raw_len);
	}
	return true;
}

/* ---- the commands ---- */

static void usage(FILE *f)
{
	fputs("usage: umk-trace chrome [FILE]     draw the Chrome trace-event format\n"
	      "       umk-trace timeline [FILE]   draw the SVG timeline\n"
	      "Reads umk's JSON-lines trace (umk --trace=FILE --trace-format=json)\n"
	      "from FILE, or stdin, and writes to stdout. Exit status: 0 done,\n"
	      "1 the input is not a umk JSON trace, 2 usage error or unreadable\n"
	      "FILE, 3 stdout could not be written.\n", f);
}

static __attribute__((noreturn)) void usage_error(const char *fmt, const char *arg)
{
	fputs("umk-trace: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (try 'umk-trace --help')\n", stderr);
	exit(EXIT_USAGE);
}

int main(int argc, char **argv)
{
	const char *cmd = argv[1], *name = "<stdin>";
	bool chrome;
	FILE *in = stdin;
	char *line = NULL, *buf = NULL, *fields = NULL;
	size_t cap = 0, room = 0;
	ssize_t len;
	struct jobject o;
	struct trace_entry e;
	u64 end = 0;

	if (cmd && (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))) {
		usage(stdout);
		return 0;
	}
	if (!cmd)
		usage_error("%sno command: chrome or timeline", "");
	if (strcmp(cmd, "chrome") && strcmp(cmd, "timeline"))
		usage_error("unknown command '%s': chrome or timeline", cmd);
	if (argc > 3)
		usage_error("too many arguments after '%s'", argv[2]);
	chrome = !strcmp(cmd, "chrome");
	if (argc == 3 && strcmp(argv[2], "-")) {
		name = argv[2];
		in = fopen(name, "r");
		if (!in) {
			fprintf(stderr, "umk-trace: %s: %s\n", name, strerror(errno));
			return EXIT_USAGE;
		}
	}
	lanes_span = chrome ? chrome_span : timeline_span;
	while ((len = getline(&line, &cap, in)) > 0) {
		trace_seq++;
		if ((size_t)len + 1 > room) {
			room = len + 1;
			buf = realloc(buf, room);
			fields = realloc(fields, room + 2);
			if (!buf || !fields) {
				fputs("umk-trace: out of memory\n", stderr);
				return EXIT_FAILURE;
			}
		}
		if (strlen(line) != (size_t)len || !parse_object(line, &o, buf, room) ||
		    !to_event(&o, &e, fields)) {
			fprintf(stderr, "umk-trace: %s:%llu: not a line of umk's JSON trace "
				"(umk --trace-format=json)\n", name, (unsigned long long)trace_seq);
			return EXIT_BAD_TRACE;
		}
		/* The kernel's clock never goes back: a line that says it did
		 * is drawn at the time before it. */
		e.ts = end = max(end, e.ts);
		lanes_event(&e);
		if (chrome)
			chrome_event(&e);
		else
			timeline_event(&e);
	}
	if (ferror(in)) {
		fprintf(stderr, "umk-trace: %s: %s\n", name, strerror(errno));
		return EXIT_USAGE;
	}
	lanes_finish(end);
	if (chrome)
		chrome_finish();
	else
		timeline_write(end);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "umk-trace: writing stdout: %s\n", strerror(errno));
		return EXIT_WRITE;
	}
	return 0;
}
