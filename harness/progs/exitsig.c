/*
 * exitsig: clone() takes any exit signal in its low byte, even one above
 * 64. Linux never sends an invalid one to the parent (do_notify_parent);
 * umk once sent "signal 100", reading past its handler table, and killed
 * the parent with it.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static char stack[65536] __attribute__((aligned(16)));
static volatile int got;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	got = si->si_signo;
}

static int child(void *arg)
{
	rsys(SYS_exit, 3);
	return 0;
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	int sig, st = 0;
	pid_t pid, r;

	for (sig = 32; sig <= 64; sig++)
		sigaction(sig, &sa, NULL);
	pid = clone(child, stack + sizeof(stack), CLONE_VM | 100, NULL);
	r = waitpid(pid, &st, __WALL);
	printf("waitpid: %s, %s\n", r == pid ? "the child" : "error", status_text(st));
	printf("signals received: %d\n", got);
	return 0;
}
