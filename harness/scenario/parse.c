/*
 * harness/scenario/parse.c: the scenario language's parser. A script
 * becomes tasks[] and actions[]; a mistake is one line on stderr,
 * "scenario: FILE:LINE: message", and exit status 2.
 */
#include "scenario.h"

/* ---- The parser -------------------------------------------------------- */

int cur_line;

static void syntax(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void syntax(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	if (cur_line)
		fprintf(stderr, "scenario: %s:%d: %s\n", script, cur_line, msg);
	else
		fprintf(stderr, "scenario: %s: %s\n", script, msg);
	exit(EXIT_SCRIPT);
}

/* "500ms" or "2s" -> milliseconds; -1 when malformed. */
static long parse_duration(const char *s)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	if (strcmp(end, "ms") == 0)
		return v;
	if (strcmp(end, "s") == 0)
		return v * 1000;
	return -1;
}

static long need_duration(const char *what, const char *s)
{
	long v = s ? parse_duration(s) : -1;

	if (v < 0)
		syntax("%s needs a duration like 500ms or 2s, got '%s'", what, s ? s : "nothing");
	return v;
}

static int parse_signal(const char *s)
{
	char name[32];

	snprintf(name, sizeof(name), "%s%s", strncmp(s, "SIG", 3) ? "SIG" : "", s);
	for (int sig = 1; sig <= 64; sig++)
		if (strcmp(signal_name(sig), name) == 0)
			return sig;
	return 0;
}

static bool parse_name(const char *s)
{
	if (!*s || strlen(s) >= NAME_LEN)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

/* Fill a's arguments from words[0..n) as desc->args says. */
static void parse_args(struct action *a, char **w, int n)
{
	const struct action_desc *d = a->desc;
	int i = 0;

	for (const char *k = d->args; *k; k++) {
		const char *s = i < n ? w[i] : NULL;

		switch (*k) {
		case 'D':
			a->ms = need_duration(d->name, s);
			i++;
			break;
		case 'S':
			if (!s || !(a->sig = parse_signal(s)))
				syntax("%s needs a signal like SIGUSR1, got '%s' (usage: %s)", d->name,
				       s ? s : "nothing", d->usage);
			i++;
			break;
		case 'L':
			for (; i < n; i++) {
				int sig = parse_signal(w[i]);

				if (!sig)
					syntax("%s: '%s' is not a signal (usage: %s)", d->name, w[i], d->usage);
				a->sigs |= 1ULL << (sig - 1);
			}
			break;
		case 't':
			if (!s) {
				a->task = ANY;
				break;
			}
			/* fall through */
		case 'T':
		case 'K':
			if (!s || !parse_name(s))
				syntax("%s needs a task name, got '%s' (usage: %s)", d->name,
				       s ? s : "nothing", d->usage);
			snprintf(a->task_name, sizeof(a->task_name), "%s", s);
			a->task = -1;
			i++;
			break;
		case 'C':
			if (!s)
				syntax("%s needs a clock (usage: %s)", d->name, d->usage);
			if (!strncmp(s, "CLOCK_", 6))
				s += 6;
			if (!strcmp(s, "MONOTONIC"))
				a->clock = CLOCK_MONOTONIC;
			else if (!strcmp(s, "REALTIME"))
				a->clock = CLOCK_REALTIME;
			else if (!strcmp(s, "BOOTTIME"))
				a->clock = CLOCK_BOOTTIME;
			else
				syntax("unknown clock '%s' (usage: %s)", s, d->usage);
			i++;
			break;
		case 'M':
			if (!s || (strcmp(s, "abs") && strcmp(s, "rel")))
				syntax("%s needs abs or rel, got '%s'", d->name, s ? s : "nothing");
			a->abs = !strcmp(s, "abs");
			i++;
			break;
		case 'N': {
			char *end;

			if (!s || (a->num = strtol(s, &end, 10), *end) || end == s)
				syntax("%s needs a number, got '%s'", d->name, s ? s : "nothing");
			i++;
			break;
		}
		case 'X': {
			size_t o = 0;

			if (!s)
				syntax("%s needs a text (usage: %s)", d->name, d->usage);
			for (; i < n; i++)
				o += snprintf(a->text + o, o < TEXT_LEN ? TEXT_LEN - o : 0, "%s%s",
					      o ? " " : "", w[i]);
			break;
		}
		case 'O':
			for (; i < n; i++) {
				const struct option *o = d->options;

				while (o->word && strcmp(o->word, w[i]))
					o++;
				if (!o->word)
					syntax("%s: unknown option '%s' (usage: %s)", d->name, w[i], d->usage);
				a->opts |= o->bit;
			}
			break;
		}
	}
	if (i < n)
		syntax("%s: unexpected '%s' (usage: %s)", d->name, w[i], d->usage);
}

int find_task(const char *name)
{
	for (int t = 0; t < nr_tasks; t++)
		if (!strcmp(tasks[t].name, name))
			return t;
	return -1;
}

/* Task names are resolved once the whole script is read. */
static void resolve(struct action *a, int owner)
{
	const struct action_desc *d = a->desc;

	cur_line = a->line;
	if (a->desc == &action_table[A_READ] && tasks[owner].spawned)
		syntax("read: task %s has no pipe (it is spawned by a task)", tasks[owner].name);
	if (!strchr(d->args, 'T') && !strchr(d->args, 'K') && !(strchr(d->args, 't') && a->task != ANY))
		return;
	if (owner >= 0 && !strcmp(a->task_name, "self") && strchr(d->args, 'K')) {
		a->task = SELF;
		return;
	}
	if ((a->task = find_task(a->task_name)) < 0)
		syntax("unknown task '%s'", a->task_name);
	if (owner < 0 && tasks[a->task].spawned)
		syntax("task %s is spawned by a task: the controller cannot reach it", a->task_name);
	if (owner >= 0 && !tasks[a->task].spawned)
		syntax("%s %s: a task can only reach the tasks it spawns", d->name, a->task_name);
}


void read_script(void)
{
	int fd = strcmp(script, "-") ? open(script, O_RDONLY | O_CLOEXEC) : 0;
	size_t len = 0;
	ssize_t r;

	if (fd < 0)
		syntax("cannot open: %s", errno_name(errno));
	while ((r = read(fd, script_text + len, sizeof(script_text) - len)) > 0)
		if ((len += r) == sizeof(script_text))
			syntax("longer than %d bytes", MAX_SCRIPT);
	if (r < 0)
		syntax("cannot read: %s", errno_name(errno));
	if (memchr(script_text, 0, len))
		syntax("a NUL byte: not a script");
	if (fd)
		close(fd);
}

void parse_script(const char *text)
{
	char buf[1024];
	/* Open blocks: a task, then handler bodies (action indices). */
	int stack[MAX_DEPTH], depth = 0, task = -1;

	for (const char *next; *text; text = next) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char *w[32], *p;
		int n = 0;

		next = text + len + (nl ? 1 : 0);
		cur_line++;
		if (len >= sizeof(buf))
			syntax("line longer than %zu bytes", sizeof(buf) - 1);
		memcpy(buf, text, len);
		buf[len] = 0;
		if ((p = strchr(buf, '#')))
			*p = 0;
		for (p = strtok(buf, " \t\r"); p && n < 32; p = strtok(NULL, " \t\r"))
			w[n++] = p;
		if (!n)
			continue;
		if (!strcmp(w[0], "tolerance")) {
			if (depth || n != 2)
				syntax("usage: tolerance DURATION, outside tasks");
			if ((tolerance_ms = need_duration("tolerance", w[1])) <= 0)
				syntax("tolerance must be at least 1ms");
			continue;
		}
		if (!strcmp(w[0], "task")) {
			if (depth)
				syntax("task inside a block: close it with 'end' first");
			if (n < 2 || n > 3 || !parse_name(w[1]) || !strcmp(w[1], "self") ||
			    (n == 3 && strcmp(w[2], "spawned")))
				syntax("usage: task NAME [spawned]");
			if (find_task(w[1]) >= 0)
				syntax("task %s is defined twice", w[1]);
			if (nr_tasks == MAX_TASKS)
				syntax("more than %d tasks", MAX_TASKS);
			task = nr_tasks++;
			snprintf(tasks[task].name, NAME_LEN, "%s", w[1]);
			tasks[task].line = cur_line;
			tasks[task].spawned = n == 3;
			tasks[task].first = nr_actions;
			tasks[task].pipe_rd = tasks[task].pipe_wr = -1;
			stack[depth++] = -1;
			continue;
		}
		if (!strcmp(w[0], "end")) {
			if (n != 1 || !depth)
				syntax(n != 1 ? "usage: end" : "'end' without a task or handler to close");
			if (stack[--depth] >= 0)
				actions[stack[depth]].body_end = nr_actions;
			else
				tasks[task].end = nr_actions;
			continue;
		}

		struct action *a = &actions[nr_actions];
		int first = 0;

		if (nr_actions == MAX_ACTIONS)
			syntax("more than %d actions", MAX_ACTIONS);
		a->line = cur_line;
		a->at_ms = -1;
		if (!strcmp(w[0], "at")) {
			a->at_ms = need_duration("at", n > 1 ? w[1] : NULL);
			first = 2;
			if (n == 2)
				syntax("at %s: an action must follow", w[1]);
		}
		for (int k = 0; k < NR_ACTION_KINDS; k++)
			if (!strcmp(action_table[k].name, w[first]))
				a->desc = &action_table[k];
		if (!a->desc)
			syntax("unknown action '%s'", w[first]);
		if (!(a->desc->where & (depth ? IN_TASK : IN_CONTROLLER)))
			syntax("'%s' is a %s action", w[first], depth ? "controller" : "task");
		parse_args(a, w + first + 1, n - first - 1);
		if ((a->opts & H_PRINT) && (a->opts & H_COUNT) && a->desc == &action_table[A_HANDLER])
			syntax("handler: print or count, not both");
		nr_actions++;
		if (!depth)
			controller[nr_controller++] = a - actions;
		if (a->desc == &action_table[A_HANDLER] && (a->opts & H_DO)) {
			if (depth == MAX_DEPTH)
				syntax("handlers nested too deep");
			stack[depth++] = a - actions;
		}
	}
	if (depth) {
		int open = stack[depth - 1];

		cur_line = open >= 0 ? actions[open].line : tasks[task].line;
		syntax("'%s' has no 'end'", open >= 0 ? "handler ... do" : "task");
	}
	for (int t = 0; t < nr_tasks; t++)
		for (int i = tasks[t].first; i < tasks[t].end; i++)
			resolve(&actions[i], t);
	for (int i = 0; i < nr_controller; i++)
		resolve(&actions[controller[i]], -1);
	cur_line = 0;
}
