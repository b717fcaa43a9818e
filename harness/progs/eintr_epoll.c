/*
 * eintr_epoll: an epoll_wait loop that exits on EINTR (umk-eintr's planted
 * bug, tests/umk_eintr.bats). It has no signal handler at all, yet a stop
 * and continue (^Z, fg) while epoll_wait sleeps makes it return EINTR, as
 * on Linux (signal(7): epoll_wait is never restarted), and this loop takes
 * that for an error. eintr_epoll_ok is its twin, which waits again.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct timespec ts = { 0, 20000000 };
	int fd[2], ep, n, status;
	char buf[16];
	pid_t pid;

	if (pipe(fd) || (ep = epoll_create1(0)) < 0)
		return 2;
	pid = fork();
	if (pid == 0) {
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		_exit(write(fd[1], "ping", 4) != 4);
	}
	ev.data.fd = fd[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, fd[0], &ev);
	for (;;) {
		n = epoll_wait(ep, &out, 1, 5000);
#ifdef EINTR_CORRECT
		if (n < 0 && errno == EINTR)
			continue;
#endif
		if (n < 0) {
			perror("epoll_wait");	/* the bug: EINTR is no error */
			return 1;
		}
		break;
	}
	n = n ? (int)read(fd[0], buf, sizeof(buf)) : 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("epoll: %d bytes\n", n);
	return 0;
}
