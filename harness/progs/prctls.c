/*
 * prctls: prctl's options beyond the name and the death signal, the same
 * natively and under umk (tests/syscalls.bats).
 *
 *   timer slack      PR_GET/SET_TIMERSLACK: 50 us by default, set, reset
 *                    with 0, inherited by a child as its default
 *   subreaper        PR_SET_CHILD_SUBREAPER: a grandchild orphaned by its
 *                    parent is adopted by the subreaper, not by pid 1
 *   no_new_privs     PR_SET/GET_NO_NEW_PRIVS: the argument rules, kept
 *                    across fork
 *   tid address      PR_GET_TID_ADDRESS: set_tid_address's pointer
 *   unknown options  EINVAL
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#ifndef PR_GET_TID_ADDRESS
#define PR_GET_TID_ADDRESS 40
#endif

static void timer_slack(void)
{
	int status;
	pid_t pid;

	show("prctl(PR_GET_TIMERSLACK)", rsys(SYS_prctl, PR_GET_TIMERSLACK, 0, 0, 0, 0));
	show("prctl(PR_SET_TIMERSLACK, 1000)", rsys(SYS_prctl, PR_SET_TIMERSLACK, 1000, 0, 0, 0));
	show("prctl(PR_GET_TIMERSLACK)", rsys(SYS_prctl, PR_GET_TIMERSLACK, 0, 0, 0, 0));
	pid = fork();
	if (pid == 0) {
		show("child: prctl(PR_GET_TIMERSLACK)", rsys(SYS_prctl, PR_GET_TIMERSLACK, 0, 0, 0, 0));
		show("child: prctl(PR_SET_TIMERSLACK, 7)", rsys(SYS_prctl, PR_SET_TIMERSLACK, 7, 0, 0, 0));
		show("child: prctl(PR_SET_TIMERSLACK, 0)", rsys(SYS_prctl, PR_SET_TIMERSLACK, 0, 0, 0, 0));
		show("child: prctl(PR_GET_TIMERSLACK), back to its default",
		     rsys(SYS_prctl, PR_GET_TIMERSLACK, 0, 0, 0, 0));
		_exit(0);
	}
	waitpid(pid, &status, 0);
	show("prctl(PR_SET_TIMERSLACK, 0)", rsys(SYS_prctl, PR_SET_TIMERSLACK, 0, 0, 0, 0));
	show("prctl(PR_GET_TIMERSLACK)", rsys(SYS_prctl, PR_GET_TIMERSLACK, 0, 0, 0, 0));
}

/* The subreaper forks a child that forks a grandchild and exits: whose
 * child is the grandchild then? */
static void subreaper(void)
{
	int p[2], status, flag = -1;
	pid_t sub = fork();

	if (sub == 0) {
		pid_t child;

		show("prctl(PR_SET_CHILD_SUBREAPER, 1)", rsys(SYS_prctl, PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0));
		rsys(SYS_prctl, PR_GET_CHILD_SUBREAPER, &flag, 0, 0, 0);
		printf("PR_GET_CHILD_SUBREAPER: %d\n", flag);
		if (pipe(p))
			die("pipe failed");
		child = fork();
		if (child == 0) {
			pid_t grandchild = fork();

			if (grandchild == 0) {
				char c;

				close(p[1]);
				/* wait until the child has exited and been reaped */
				if (read(p[0], &c, 1) != 1)
					_exit(3);
				printf("grandchild: its parent is %s\n",
				       getppid() == getpid() ? "itself" :
				       getppid() == 1 ? "pid 1" : "the subreaper");
				_exit(0);
			}
			_exit(0);
		}
		close(p[0]);
		waitpid(child, &status, 0);
		if (write(p[1], "x", 1) != 1)
			die("write failed");
		/* the subreaper reaps the adopted grandchild */
		printf("subreaper: wait() reaps the grandchild: %s\n",
		       wait(&status) > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "yes" : "no");
		_exit(0);
	}
	waitpid(sub, &status, 0);
}

static void no_new_privs(void)
{
	int status;
	pid_t pid;

	show("prctl(PR_GET_NO_NEW_PRIVS)", rsys(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	show("prctl(PR_SET_NO_NEW_PRIVS, 2)", rsys(SYS_prctl, PR_SET_NO_NEW_PRIVS, 2, 0, 0, 0));
	show("prctl(PR_SET_NO_NEW_PRIVS, 1, 1)", rsys(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 1, 0, 0));
	show("prctl(PR_SET_NO_NEW_PRIVS, 1)", rsys(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	show("prctl(PR_GET_NO_NEW_PRIVS)", rsys(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	show("prctl(PR_GET_NO_NEW_PRIVS, 1)", rsys(SYS_prctl, PR_GET_NO_NEW_PRIVS, 1, 0, 0, 0));
	pid = fork();
	if (pid == 0) {
		show("child: prctl(PR_GET_NO_NEW_PRIVS)", rsys(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

static int tid_word;

static void tid_address(void)
{
	unsigned long addr = 0;

	rsys(SYS_set_tid_address, &tid_word);
	show("prctl(PR_GET_TID_ADDRESS)", rsys(SYS_prctl, PR_GET_TID_ADDRESS, &addr, 0, 0, 0));
	printf("  the address set_tid_address gave: %s\n",
	       addr == (unsigned long)&tid_word ? "yes" : "no");
	show("prctl(PR_GET_TID_ADDRESS, bad pointer)",
	     rsys(SYS_prctl, PR_GET_TID_ADDRESS, 8, 0, 0, 0));
	show("prctl(9999)", rsys(SYS_prctl, 9999, 0, 0, 0, 0));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	timer_slack();
	subreaper();
	no_new_privs();
	tid_address();
	return 0;
}
