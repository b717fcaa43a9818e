/* pgrp: process groups and sessions, natively and under umk.
 *
 *   pgrp calls     setpgid, getpgid, getpgrp, setsid, getsid and their
 *                  errors; kill, wait4 and waitid on a group
 *   pgrp kill-all  kill(-1) as root and as another user (under umk only:
 *                  natively it would signal the host's processes)
 *
 * The program first makes itself a session leader (umk's pid 1 is one
 * already), so that groups and sessions relate the same way in both
 * places; pids are printed as relations. Children are CLONE_VM processes
 * on stacks of their own, so that they exist without exec (umk has no
 * fork); "sleep [FD]" is the program a vforked child execs (it writes a
 * byte to FD once it runs). */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static const char *yes(int c) { return c ? "yes" : "no"; }

#define NCHILD 4
static char stacks[NCHILD][65536] __attribute__((aligned(16)));
static volatile int usr2_count, child_handled;
static pid_t main_pid;

/* Children share our memory (CLONE_VM), so they count here too. */
static void on_usr2(int sig)
{
	usr2_count++;
	if (rsys0(SYS_getpid) != main_pid)
		child_handled = 1;
}

/* A child that waits for a signal: it dies of one with the default
 * action, or returns 3 once SIGUSR2's handler has run in it. SIGUSR2 is
 * taken only inside rt_sigsuspend, so none is missed before it waits. */
static int waiter(void *arg)
{
	unsigned long usr2 = 1UL << (SIGUSR2 - 1), none = 0;

	rsys(SYS_rt_sigprocmask, SIG_BLOCK, &usr2, NULL, 8);
	while (!child_handled)
		rsys(SYS_rt_sigsuspend, &none, 8);
	return 3;
}

/* A child that makes a session of its own, then waits. */
static int session_maker(void *arg)
{
	*(volatile long *)arg = rsys0(SYS_setsid);
	return waiter(NULL);
}

static pid_t start(int i, int (*fn)(void *), void *arg)
{
	pid_t pid = clone(fn, stacks[i] + sizeof(stacks[i]), CLONE_VM | SIGCHLD, arg);

	if (pid < 0)
		die("clone failed");
	return pid;
}

/* Wait for a child stopped in pause (natively, it may not be there yet). */
static void settle(void)
{
	usleep(20000);
}

static void calls(const char *self)
{
	struct sigaction sa = { .sa_handler = on_usr2 };
	pid_t me = getpid(), a, b, c, d, e, x;
	int ready[2];
	char fd[16];
	volatile long c_sid = 0;
	siginfo_t si;
	int status;

	if (rsys(SYS_getsid, 0) != me && rsys0(SYS_setsid) != me)
		die("cannot make a session");
	printf("session leader: pgid == pid: %s, sid == pid: %s, getpgrp == getpgid(0): %s\n",
	       yes(rsys(SYS_getpgid, 0) == me), yes(rsys(SYS_getsid, 0) == me),
	       yes(rsys0(SYS_getpgrp) == rsys(SYS_getpgid, 0)));
	show("setsid() as a session leader", rsys0(SYS_setsid));
	show("setpgid(0, 0) as a session leader", rsys(SYS_setpgid, 0, 0));
	show("setpgid(0, -1)", rsys(SYS_setpgid, 0, -1));
	show("setpgid(99999, 0)", rsys(SYS_setpgid, 99999, 0));
	show("getpgid(99999)", rsys(SYS_getpgid, 99999));
	show("getsid(99999)", rsys(SYS_getsid, 99999));

	/* a and b: a group of their own in our session */
	a = start(0, waiter, NULL);
	b = start(1, waiter, NULL);
	printf("a child starts in our group and session: %s\n",
	       yes(rsys(SYS_getpgid, a) == me && rsys(SYS_getsid, a) == me));
	show("setpgid(a, 77777) (no such group)", rsys(SYS_setpgid, a, 77777));
	show("setpgid(a, a)", rsys(SYS_setpgid, a, a));
	show("setpgid(b, a)", rsys(SYS_setpgid, b, a));
	printf("getpgid(a) == a: %s, getpgid(b) == a: %s, getsid(b) == ours: %s\n",
	       yes(rsys(SYS_getpgid, a) == a), yes(rsys(SYS_getpgid, b) == a),
	       yes(rsys(SYS_getsid, b) == me));
	settle();
	show("kill(-a, SIGTERM)", rsys(SYS_kill, -a, SIGTERM));
	settle();
	show("kill(-a, 0) while its zombies wait", rsys(SYS_kill, -a, 0));
	show("waitid(P_PGID, a)", rsys(SYS_waitid, P_PGID, a, &si, WEXITED, NULL));
	printf("  %s\n", si.si_code == CLD_KILLED ? signal_name(si.si_status) : "?");
	show("wait4(-a)", rsys(SYS_wait4, -a, &status, 0, NULL) > 0 ? 1 : -1);
	printf("  %s\n", status_text(status));
	show("wait4(-a) with none left", rsys(SYS_wait4, -a, &status, 0, NULL));
	show("kill(-a, 0) once reaped", rsys(SYS_kill, -a, 0));
	show("kill(-77777, SIGTERM)", rsys(SYS_kill, -77777, SIGTERM));

	/* c: a session of its own */
	c = start(2, session_maker, (void *)&c_sid);
	while (!c_sid)
		settle();
	printf("setsid() in a child returns its pid: %s, getsid(c) == c: %s, getpgid(c) == c: %s\n",
	       yes(c_sid == c), yes(rsys(SYS_getsid, c) == c), yes(rsys(SYS_getpgid, c) == c));
	show("setpgid(c, c) (another session's leader)", rsys(SYS_setpgid, c, c));
	x = start(0, waiter, NULL);
	show("setpgid(x, c) (a group of another session)", rsys(SYS_setpgid, x, c));
	show("setpgid(x, 0)", rsys(SYS_setpgid, x, 0));
	rsys(SYS_kill, c, SIGTERM);
	rsys(SYS_kill, x, SIGTERM);
	printf("c: %s\n", status_text(wait_status(c)));
	printf("x: %s\n", status_text(wait_status(x)));

	/* d: exec'd. vfork returns once d's exec has its new memory, which
	 * on Linux is before the exec is over (PF_FORKNOEXEC is cleared
	 * later): setpgid then still gets 0 when the parent runs first, as
	 * it can on another CPU. So d says when its new program runs. */
	fflush(stdout);
	if (pipe(ready))
		die("pipe failed");
	snprintf(fd, sizeof(fd), "%d", ready[1]);
	d = vfork();
	if (d == 0) {
		execl(self, self, "sleep", fd, (char *)NULL);
		_exit(127);
	}
	close(ready[1]);
	if (read(ready[0], fd, 1) != 1)
		die("d did not start its program");
	close(ready[0]);
	show("setpgid(d, d) after d exec'd", rsys(SYS_setpgid, d, d));
	rsys(SYS_kill, d, SIGTERM);
	printf("d: %s\n", status_text(wait_status(d)));

	/* e: in our group; kill(0) reaches it and us */
	sigaction(SIGUSR2, &sa, NULL);
	e = start(3, waiter, NULL);
	settle();
	show("kill(0, SIGUSR2)", rsys(SYS_kill, 0, SIGUSR2));
	show("wait4(0) (our group)", rsys(SYS_wait4, 0, &status, 0, NULL) == e ? 1 : -1);
	printf("  %s, SIGUSR2 handled %d times\n", status_text(status), usr2_count);
	show("wait4(0) with none left", rsys(SYS_wait4, 0, &status, 0, NULL));
	show("waitid(P_PGID, 0) with none left", rsys(SYS_waitid, P_PGID, 0, &si, WEXITED, NULL));
}

/* kill(-1): pid 1 and the caller are spared, everyone else is signalled
 * if the caller may; -ESRCH when there is nobody. */
static int dropped_killer(void *arg)
{
	rsys(SYS_setresuid, 54321, 54321, 54321);
	*(long *)arg = rsys(SYS_kill, -1, SIGTERM);
	return 0;
}

static void kill_all(void)
{
	pid_t a, b, k;
	long ret = 0;

	show("kill(-1, SIGTERM) with no other process", rsys(SYS_kill, -1, SIGTERM));
	a = start(0, waiter, NULL);
	b = start(1, waiter, NULL);
	k = start(2, dropped_killer, &ret);
	printf("k: %s\n", status_text(wait_status(k)));
	printf("kill(-1, SIGTERM) by another user, every target root's = %ld\n", ret);
	show("kill(a, 0): a lives", rsys(SYS_kill, a, 0));
	show("kill(-1, SIGTERM) as root", rsys(SYS_kill, -1, SIGTERM));
	printf("a: %s\n", status_text(wait_status(a)));
	printf("b: %s\n", status_text(wait_status(b)));
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	main_pid = getpid();
	if (!strcmp(what, "sleep")) {
		/* pgrp sleep [FD]: say on FD that the program runs, then wait */
		if (argc > 2 && write(atoi(argv[2]), "x", 1) == 1)
			close(atoi(argv[2]));
		return waiter(NULL);
	}
	if (!strcmp(what, "calls"))
		calls(argv[0]);
	else if (!strcmp(what, "kill-all"))
		kill_all();
	else
		die("usage: pgrp calls|kill-all");
	return 0;
}
