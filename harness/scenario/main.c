/*
 * harness/scenario/main.c: the scenario shell's main(). The controller
 * (the process started with the script) starts every task as a copy of
 * this program and runs its own timed actions; a task copy parses the same
 * script and runs its own part. scenario.h has the language.
 */
#include "scenario.h"

struct action actions[MAX_ACTIONS];
int nr_actions;
int controller[MAX_ACTIONS];	/* indices of the controller's actions */
int nr_controller;
struct task tasks[MAX_TASKS];
int nr_tasks;
long tolerance_ms = 10;
const char *script;
/* The script's text: read whole by the controller, given to tasks in argv. */
char script_text[MAX_SCRIPT + 1];

int64_t start_ns;		/* the scenario start, CLOCK_MONOTONIC */
const char *me = "";		/* this task's name: the line prefix */
int my_pipe = -1;

/* ---- main -------------------------------------------------------------- */

static int run_task(const char *name)
{
	int t = find_task(name);

	if (t < 0)
		die("--task %s: no such task in %s", name, script);
	me = tasks[t].name;
	run_actions(tasks[t].first, tasks[t].end);
	return 0;
}

static int run_controller(void)
{
	char r[32], w[48];

	start_ns = clock_ns(CLOCK_MONOTONIC);
	snprintf(start_arg, sizeof(start_arg), "%lld", (long long)start_ns);
	for (int t = 0; t < nr_tasks; t++) {
		int fds[2];

		if (tasks[t].spawned)
			continue;
		if (pipe2(fds, O_CLOEXEC))
			die("pipe2: %s", errno_name(errno));
		tasks[t].pipe_rd = fds[0];
		tasks[t].pipe_wr = fds[1];
		/* Only this task inherits its read end. */
		if (fcntl(fds[0], F_SETFD, 0))
			die("fcntl: %s", errno_name(errno));
		tasks[t].pid = start_task(t, fds[0]);
		close(fds[0]);
	}
	for (int i = 0; i < nr_controller; i++)
		run_action(&actions[controller[i]]);
	for (int t = 0; t < nr_tasks; t++) {
		int status;
		long ret;

		if (tasks[t].spawned || tasks[t].reaped)
			continue;
		ret = rsys(SYS_wait4, tasks[t].pid, &status, 0, NULL);
		if (ret < 0)
			emit("wait %s %s", tasks[t].name, ret_text(ret, r, sizeof(r)));
		else
			emit("wait %s = %s", tasks[t].name, wait_text(status, w, sizeof(w)));
	}
	return 0;
}

int main(int argc, char **argv)
{
	self_path = argv[0];
	if (argc == 7 && !strcmp(argv[1], "--task")) {
		script = argv[5];
		if (strlen(argv[6]) > MAX_SCRIPT)
			die("--task: script longer than %d bytes", MAX_SCRIPT);
		strcpy(script_text, argv[6]);
		parse_script(script_text);
		start_ns = strtoll(argv[3], NULL, 10);
		snprintf(start_arg, sizeof(start_arg), "%s", argv[3]);
		my_pipe = atoi(argv[4]);
		return run_task(argv[2]);
	}
	if (argc != 2 || (argv[1][0] == '-' && argv[1][1])) {
		fprintf(stderr, "usage: scenario SCRIPT|- (see harness/scenarios/README)\n");
		return EXIT_SCRIPT;
	}
	script = argv[1];
	read_script();
	if (!strcmp(script, "-"))
		script = "stdin";
	parse_script(script_text);
	return run_controller();
}
