/*
 * eintr_write: a write loop that ignores a short write after a signal
 * (umk-eintr's planted bug, tests/umk_eintr.bats). The parent writes 200000
 * bytes to a pipe its child drains; it catches SIGCHLD with SA_RESTART, but
 * a pipe write that has written some bytes when a handled signal comes
 * returns that short count rather than restart, and this program takes any
 * positive count for the whole buffer. The child prints what it got.
 * eintr_write_ok is its twin, which writes the rest.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOTAL 200000

static char buf[TOTAL];

static void on_chld(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_chld, .sa_flags = SA_RESTART };
	size_t done = 0;
	long got = 0;
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	sigaction(SIGCHLD, &sa, NULL);
	if (pipe(fd))
		return 2;
	pid = fork();
	if (pid == 0) {
		close(fd[1]);
		while ((n = read(fd[0], buf, 4096)) != 0) {
			if (n < 0 && errno != EINTR)
				_exit(2);
			if (n > 0)
				got += n;
		}
		printf("child got %ld bytes\n", got);
		_exit(0);
	}
	close(fd[0]);
	while (done < TOTAL) {
		n = write(fd[1], buf + done, TOTAL - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return 1;
#ifdef EINTR_CORRECT
		done += n;
#else
		done = TOTAL;	/* the bug: a short write is taken for all of it */
#endif
	}
	close(fd[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return 0;
}
