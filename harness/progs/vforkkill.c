/*
 * vforkkill: a vfork parent killed while its child still runs. The parent
 * P waits for its vfork child C on a completion that lives on P's kernel
 * stack; C kills P with SIGKILL, waits until P is gone, then exits, which
 * completes the vfork. umk once completed it on P's freed stack and oopsed;
 * Linux's wait_for_vfork_done takes the completion back when killed.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static char stack[65536] __attribute__((aligned(16)));
static pid_t P;

static int c_fn(void *arg)
{
	struct timespec ts = { 0, 50 * 1000000L };

	rsys(SYS_kill, P, SIGKILL);
	rsys(SYS_nanosleep, &ts, NULL);		/* P dies meanwhile */
	rsys(SYS_exit, 0);			/* completes P's vfork */
	return 0;
}

static int p_fn(void *arg)
{
	P = rsys0(SYS_getpid);
	clone(c_fn, stack + sizeof(stack) / 2, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	for (;;)
		pause();
	return 0;
}

int main(void)
{
	struct timespec ts = { 0, 200 * 1000000L };
	pid_t p = clone(p_fn, stack + sizeof(stack), CLONE_VM | SIGCHLD, NULL);

	printf("P: %s\n", status_text(wait_status(p)));
	rsys(SYS_nanosleep, &ts, NULL);
	printf("the first task survived\n");
	return 0;
}
