/*
 * pipepartial: a pipe write interrupted by a signal after some bytes went
 * in returns that count, with or without SA_RESTART (Linux's pipe_write);
 * one interrupted before any byte went in returns EINTR without SA_RESTART
 * and restarts with it. Nobody reads the pipe (until 200 ms in the last
 * case); another thread signals the writer at 100 ms.
 */
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static pid_t writer_tid;
static int read_end = -1;	/* >= 0: the signaller drains it at 200 ms */
static volatile int handled;
static char big[256 * 1024];

static void on_usr1(int sig)
{
	handled++;
}

static void *signaller(void *arg)
{
	struct timespec ts = { 0, 100 * 1000000L };
	static char sink[4096];

	rsys(SYS_nanosleep, &ts, NULL);
	rsys(SYS_tgkill, getpid(), writer_tid, SIGUSR1);
	if (read_end >= 0) {
		rsys(SYS_nanosleep, &ts, NULL);
		rsys(SYS_read, read_end, sink, sizeof(sink));
	}
	return NULL;
}

static void run(const char *what, int sa_flags, size_t prefill, size_t len, bool drain)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = sa_flags };
	char line[128];
	pthread_t t;
	int p[2];
	long ret;

	sigaction(SIGUSR1, &sa, NULL);
	pipe(p);
	if (prefill)
		rsys(SYS_write, p[1], big, prefill);
	handled = 0;
	writer_tid = rsys0(SYS_gettid);
	read_end = drain ? p[0] : -1;
	pthread_create(&t, NULL, signaller, NULL);
	ret = rsys(SYS_write, p[1], big, len);
	snprintf(line, sizeof(line), "%s: write(%zu) after %zu queued", what, len, prefill);
	show(line, ret);
	pthread_join(t, NULL);
	printf("%s: handler ran %d time(s)\n", what, handled);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	run("partial", 0, 0, sizeof(big), false);
	run("partial SA_RESTART", SA_RESTART, 0, sizeof(big), false);
	run("none written", 0, 65536, 100, false);
	/* The write restarts after the handler and sleeps again, until the
	 * signaller reads 4096 bytes at 200 ms and makes room. */
	run("none written SA_RESTART", SA_RESTART, 65536, 100, true);
	return 0;
}
