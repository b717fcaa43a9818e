/*
 * gdbprog [thread]: a program for gdb to debug natively and under umk
 * (tests/ptrace.bats runs the host's gdb on it both ways and compares
 * what it prints): square() is the breakpoint, v the variable to print.
 * With "thread", square() runs in a second thread, which main joins.
 * Built -g like every harness program; nothing here depends on where it
 * is loaded.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static volatile int result;

static __attribute__((noinline)) int square(int x)
{
	volatile int v = x * x;

	result = v;
	return v;
}

static void *worker(void *arg)
{
	square((int)(long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	/* The thread's case prints nothing: gdb's "[LWP N exited]" would race
	 * with it on the same terminal. */
	if (argc == 2 && !strcmp(argv[1], "thread")) {
		if (pthread_create(&t, NULL, worker, (void *)7L) || pthread_join(t, NULL))
			return 1;
		return result == 49 ? 0 : 1;
	}
	square(3);
	printf("result %d\n", result);
	return 0;
}
