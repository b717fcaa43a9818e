/*
 * evwait: two tasks asleep on the event loop's files, for the trace and
 * the gdb helpers (tests/trace.bats, tests/gdb.bats), with the same output
 * natively and under umk.
 *
 * fd 3 is a timerfd on CLOCK_MONOTONIC that expires once, 200 ms on; fd 4
 * an eventfd at 0; fd 5 a signalfd for SIGUSR1 (blocked); fd 6 an epoll
 * watching all three. Child 1 waits in epoll_wait(6), child 2 in a read of
 * the timerfd; the parent, 50 ms on, while both sleep and the timer is
 * armed, calls getppid (a place for a breakpoint), then waits for both.
 * The timer wakes both children: epoll_wait returns the timerfd ready, the
 * read one expiration.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

int main(void)
{
	struct itimerspec its = { .it_value = { 0, 200 * 1000 * 1000 } };
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	struct epoll_event ev;
	sigset_t usr1;
	int tfd, efd, sfd, epfd, i;
	pid_t pid[2];

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	efd = eventfd(0, 0);
	sfd = signalfd(-1, &usr1, 0);
	epfd = epoll_create1(0);
	if (tfd != 3 || efd != 4 || sfd != 5 || epfd != 6)
		die("fds %d %d %d %d, not 3 4 5 6", tfd, efd, sfd, epfd);
	for (i = 3; i <= 5; i++) {
		ev.events = EPOLLIN;
		ev.data.fd = i;
		if (epoll_ctl(epfd, EPOLL_CTL_ADD, i, &ev))
			die("epoll_ctl ADD %d failed", i);
	}
	if (timerfd_settime(tfd, 0, &its, NULL))
		die("timerfd_settime failed");
	pid[0] = fork();
	if (pid[0] == 0) {
		int n = epoll_wait(epfd, &ev, 1, -1);

		printf("epoll_wait = %d, fd %d ready\n", n, n == 1 ? ev.data.fd : -1);
		_exit(0);
	}
	pid[1] = fork();
	if (pid[1] == 0) {
		uint64_t ticks = 0;
		ssize_t n = read(tfd, &ticks, sizeof(ticks));

		/* after the epoll child's line, whichever ran first */
		nanosleep(&nap, NULL);
		printf("read(timerfd) = %zd, %llu expiration\n", n, (unsigned long long)ticks);
		_exit(0);
	}
	nanosleep(&nap, NULL);
	getppid();
	for (i = 0; i < 2; i++)
		if (waitpid(pid[i], NULL, 0) != pid[i])
			die("waitpid failed");
	return 0;
}
