/* orphanpg: a stopped job whose group becomes orphaned gets SIGHUP and then
 * SIGCONT (POSIX; Linux's kill_orphaned_pgrp), and SIGTSTP no longer stops
 * it. B leads a new session; its child C makes a group of its own and stops
 * itself; B sees the stop (wait4 with WUNTRACED) and exits, leaving C's
 * group without a parent in its session. C reports through a pipe, which
 * the first process reads (C is no longer its child's child to wait for
 * once B is gone). Runs natively and under umk with the same output. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static char seen[64];

static void on_signal(int sig)
{
	strcat(seen, " ");
	strcat(seen, signal_name(sig));
}

static void child_c(int out)
{
	struct sigaction sa = { .sa_handler = on_signal };
	char line[160];
	int n;

	setpgid(0, 0);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCONT, &sa, NULL);
	raise(SIGSTOP);
	/* continued by the kernel: both handlers have run */
	n = snprintf(line, sizeof(line), "C continued, handled:%s\n", seen);
	if (write(out, line, n) != n)
		_exit(1);
	raise(SIGTSTP);		/* discarded in an orphaned group */
	n = snprintf(line, sizeof(line), "C not stopped by SIGTSTP: its group is orphaned\n");
	if (write(out, line, n) != n)
		_exit(1);
	_exit(0);
}

static void child_b(int out)
{
	pid_t c;
	int status;

	setsid();
	c = fork();
	if (c < 0)
		die("fork");
	if (c == 0)
		child_c(out);
	if (waitpid(c, &status, WUNTRACED) != c)
		die("waitpid");
	dprintf(out, "B saw C %s, exits\n",
		WIFSTOPPED(status) ? (WSTOPSIG(status) == SIGSTOP ? "stopped by SIGSTOP" : "stopped")
				   : status_text(status));
	_exit(0);
}

int main(void)
{
	struct pollfd pfd;
	char buf[512];
	int p[2], status;
	pid_t b;
	ssize_t n;

	if (pipe(p))
		die("pipe");
	fflush(stdout);
	b = fork();
	if (b < 0)
		die("fork");
	if (b == 0) {
		close(p[0]);
		child_b(p[1]);
	}
	close(p[1]);
	status = wait_status(b);
	printf("B %s\n", status_text(status));
	/* C's lines, until it closes its end; 10 s at most */
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	while (poll(&pfd, 1, 10000) == 1 && (n = read(p[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	return 0;
}
