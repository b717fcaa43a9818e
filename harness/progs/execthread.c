/*
 * execthread: execve in a process with several threads (fs/exec.c's
 * de_thread). The other threads die, and the new program runs as the
 * process's only thread, with its pid, whichever thread called execve.
 *   execthread leader   the main thread execs; another one was sleeping
 *   execthread thread   a second thread execs; the main one was sleeping
 * The new image is this program again: `execthread check PID` says whether
 * it kept the pid, is its own thread leader, and is alone.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static char *self, pidarg[16];

static void exec_check(void)
{
	char *argv[] = { self, "check", pidarg, NULL };

	rsys(SYS_execve, self, argv, NULL);
	die("execve failed");
}

static void *sleeper(void *arg)
{
	struct timespec ts = { 0, 200 * 1000000L };

	rsys(SYS_nanosleep, &ts, NULL);
	printf("an old thread woke up after execve: wrong\n");
	fflush(stdout);
	return NULL;
}

static void *execer(void *arg)
{
	exec_check();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	struct timespec ts = { 0, 300 * 1000000L };

	self = argv[0];
	if (argc > 2 && !strcmp(argv[1], "check")) {
		printf("pid kept: %s\n", atol(argv[2]) == rsys0(SYS_getpid) ? "yes" : "no");
		printf("thread leader: %s\n", rsys0(SYS_gettid) == rsys0(SYS_getpid) ? "yes" : "no");
		fflush(stdout);
		rsys(SYS_nanosleep, &ts, NULL);	/* an old thread would print now */
		printf("alone after 300 ms\n");
		return 0;
	}
	if (argc < 2)
		die("usage: execthread leader|thread");
	snprintf(pidarg, sizeof(pidarg), "%ld", rsys0(SYS_getpid));
	if (!strcmp(argv[1], "leader")) {
		pthread_create(&t, NULL, sleeper, NULL);
		exec_check();
	}
	pthread_create(&t, NULL, execer, NULL);
	sleeper(NULL);
	return 1;
}
