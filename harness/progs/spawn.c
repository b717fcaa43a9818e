/* spawn: the ways a program makes a new task without fork,
 * each followed by the result the parent saw:
 *   posix_spawn of hello (found beside argv[0]), vfork + _exit, vfork +
 *   execve, clone(CLONE_VM|CLONE_VFORK|SIGCHLD) on a stack of our own, and
 *   four pthreads adding to a mutex-protected counter. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

static volatile int clone_touched;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static int clone_child(void *arg)
{
	clone_touched = *(int *)arg;	/* CLONE_VM: the parent sees this */
	return 7;
}

static void *adder(void *arg)
{
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return arg;
}

int main(int argc, char **argv)
{
	char hello[4096];
	pid_t pid;

	snprintf(hello, sizeof(hello), "%s/hello", dir_of(argv[0]));

	pid = spawn(hello, (char *[]){ hello, "from posix_spawn", NULL });
	printf("posix_spawn: %s\n", status_text(wait_status(pid)));

	fflush(stdout);
	pid = vfork();
	if (pid == 0)
		_exit(42);
	if (pid < 0)
		die("vfork failed");
	printf("vfork+_exit: %s\n", status_text(wait_status(pid)));

	fflush(stdout);
	pid = vfork();
	if (pid == 0) {
		execve(hello, (char *[]){ hello, "from vfork+execve", NULL }, environ);
		_exit(127);
	}
	if (pid < 0)
		die("vfork failed");
	printf("vfork+execve: %s\n", status_text(wait_status(pid)));

	static char stack[64 * 1024] __attribute__((aligned(16)));
	int value = 1;

	pid = clone(clone_child, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, &value);
	if (pid < 0)
		die("clone failed");
	printf("clone: %s, shared memory written: %s\n", status_text(wait_status(pid)),
	       clone_touched == 1 ? "yes" : "no");

	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, adder, NULL))
			die("pthread_create failed");
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("pthreads: counter %ld\n", counter);
	return 0;
}
