/* sigchld: what a parent's SIGCHLD handler (SA_SIGINFO) learns about its
 * children: one that exits 3, one killed by SIGTERM, one stopped and
 * continued by the parent (then killed); the same with SA_NOCLDSTOP; and
 * SIGCHLD ignored, where children reap themselves and wait4 says ECHILD.
 * Children are copies of this program ("child exit3" or "child sleep").
 * SIGCHLD stays blocked except inside sigsuspend, so each notification is
 * printed in the order it came, after the action that caused it. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static volatile int got, code, status, from_child;
static pid_t expected;

static void on_sigchld(int sig, siginfo_t *si, void *uc)
{
	got++;
	code = si->si_code;
	status = si->si_status;
	from_child = si->si_pid == expected;
}

static const char *cld_name(int c)
{
	switch (c) {
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_DUMPED: return "CLD_DUMPED";
	case CLD_TRAPPED: return "CLD_TRAPPED";
	case CLD_STOPPED: return "CLD_STOPPED";
	case CLD_CONTINUED: return "CLD_CONTINUED";
	}
	return "?";
}

static sigset_t unblocked;

/* Wait for the next SIGCHLD and print it. */
static void expect_sigchld(void)
{
	got = 0;
	while (!got)
		sigsuspend(&unblocked);
	printf("  SIGCHLD %s si_status=%d (%s) from the child: %s\n", cld_name(code), status,
	       code == CLD_EXITED ? "exit code" : signal_name(status), from_child ? "yes" : "no");
}

/* Wait 100 ms with SIGCHLD unblocked: print any that came. */
static void expect_none(void)
{
	struct timespec ts = { 0, 100000000 };
	sigset_t old;

	got = 0;
	sigprocmask(SIG_SETMASK, &unblocked, &old);
	while (nanosleep(&ts, &ts))
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("  SIGCHLD in 100ms: %d\n", got);
}

static void install(int flags)
{
	struct sigaction sa = { .sa_sigaction = on_sigchld, .sa_flags = SA_SIGINFO | flags };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
}

static pid_t start(const char *self, const char *mode)
{
	expected = spawn(self, (char *[]){ (char *)self, "child", (char *)mode, NULL });
	return expected;
}

static void stop_and_continue(const char *self, int nocldstop)
{
	pid_t pid = start(self, "sleep");
	int st;

	printf("kill(child, SIGSTOP)\n");
	kill(pid, SIGSTOP);
	if (nocldstop) {
		expect_none();
		waitpid(pid, &st, WUNTRACED);
		printf("  waitpid(WUNTRACED): %s\n", WIFSTOPPED(st) ? signal_name(WSTOPSIG(st)) : status_text(st));
	} else {
		expect_sigchld();
	}
	printf("kill(child, SIGCONT)\n");
	kill(pid, SIGCONT);
	if (nocldstop) {
		expect_none();
		waitpid(pid, &st, WCONTINUED);
		printf("  waitpid(WCONTINUED): %s\n", WIFCONTINUED(st) ? "continued" : status_text(st));
	} else {
		expect_sigchld();
	}
	printf("kill(child, SIGKILL)\n");
	kill(pid, SIGKILL);
	expect_sigchld();
	printf("  wait: %s\n", status_text(wait_status(pid)));
}

int main(int argc, char **argv)
{
	const char *self = argv[0];
	sigset_t chld;
	pid_t pid;
	int st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "child") == 0) {
		if (strcmp(argv[2], "exit3") == 0)
			return 3;
		struct timespec ts = { 10, 0 };

		while (nanosleep(&ts, &ts))
			;
		return 0;
	}

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &unblocked);
	install(0);

	printf("child exits 3\n");
	pid = start(self, "exit3");
	expect_sigchld();
	printf("  wait: %s\n", status_text(wait_status(pid)));

	printf("child killed by SIGTERM\n");
	pid = start(self, "sleep");
	kill(pid, SIGTERM);
	expect_sigchld();
	printf("  wait: %s\n", status_text(wait_status(pid)));

	printf("child stopped and continued\n");
	stop_and_continue(self, 0);

	printf("the same with SA_NOCLDSTOP\n");
	install(SA_NOCLDSTOP);
	stop_and_continue(self, 1);

	printf("SIGCHLD ignored\n");
	signal(SIGCHLD, SIG_IGN);
	pid = start(self, "exit3");
	errno = 0;
	show("wait4(-1)", wait4(-1, &st, 0, NULL) < 0 ? -errno : 0);
	show("wait4(child)", wait4(pid, &st, WNOHANG, NULL) < 0 ? -errno : 0);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_SETMASK, &unblocked, NULL);
	return 0;
}
