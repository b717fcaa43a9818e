/*
 * eintr_pipe: a pipe read not retried on EINTR (umk-eintr's planted bug,
 * tests/umk_eintr.bats). The parent catches SIGCHLD without SA_RESTART and
 * reads a line its child writes after 10 ms; a SIGCHLD while the read
 * sleeps makes it fail with EINTR, and this program gives up:
 * "read: Interrupted system call", exit 1. eintr_pipe_ok is its twin, which
 * retries. Every other call here is written correctly.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void on_chld(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_chld };	/* no SA_RESTART */
	struct timespec ts = { 0, 10000000 };
	char buf[64];
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	sigaction(SIGCHLD, &sa, NULL);
	if (pipe(fd))
		return 2;
	pid = fork();
	if (pid == 0) {
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		if (write(fd[1], "hello\n", 6) != 6)
			_exit(2);
		_exit(0);
	}
	close(fd[1]);
#ifdef EINTR_CORRECT
	while ((n = read(fd[0], buf, sizeof(buf))) < 0 && errno == EINTR)
		;
#else
	n = read(fd[0], buf, sizeof(buf));	/* the bug: EINTR is not retried */
#endif
	if (n < 0) {
		perror("read");
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("got %.*s", (int)n, buf);
	return 0;
}
