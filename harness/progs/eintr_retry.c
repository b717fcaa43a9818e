/*
 * eintr_retry: a program that retries everything (umk-eintr must report
 * nothing for it, tests/umk_eintr.bats). It catches SIGCHLD without
 * SA_RESTART and SIGUSR1 with it, and makes each kind of blocking call the
 * planted bugs get wrong, right: a nanosleep resumed with the time left, a
 * pipe read and an epoll_wait retried on EINTR, a write finished after a
 * short count, a waitpid retried.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TOTAL 100000

static char buf[TOTAL];

static void on_sig(int sig)
{
	(void)sig;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(void)
{
	struct sigaction chld = { .sa_handler = on_sig };
	struct sigaction usr1 = { .sa_handler = on_sig, .sa_flags = SA_RESTART };
	struct epoll_event ev = { .events = EPOLLIN }, out;
	int fd[2], ep, status, n;
	size_t done = 0;
	long got = 0;
	ssize_t r;
	pid_t pid;

	sigaction(SIGCHLD, &chld, NULL);
	sigaction(SIGUSR1, &usr1, NULL);
	if (pipe(fd) || (ep = epoll_create1(0)) < 0)
		return 2;
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		sleep_ms(10);
		while (done < TOTAL) {
			r = write(fd[1], buf + done, TOTAL - done);
			if (r < 0 && errno != EINTR)
				_exit(2);
			if (r > 0)
				done += r;
		}
		_exit(0);
	}
	close(fd[1]);
	ev.data.fd = fd[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, fd[0], &ev);
	while ((n = epoll_wait(ep, &out, 1, 5000)) < 0 && errno == EINTR)
		;
	while ((r = read(fd[0], buf, 8192)) != 0) {
		if (r < 0 && errno != EINTR)
			return 1;
		if (r > 0)
			got += r;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sleep_ms(20);
	printf("retry: epoll %d, read %ld bytes, child %d\n", n, got, WEXITSTATUS(status));
	return 0;
}
