/*
 * sockwait: sockets of every kind the gdb helper umk-sockets describes
 * (tests/gdb.bats), held open at a breakpoint. The same run natively
 * prints what the host's ss would list.
 *
 * fd 3   AF_UNIX SOCK_STREAM listener bound to the path /tmp/sockwait-PID,
 *        one connection not yet accepted
 * fd 4   its client, connected, 5 bytes ("hello") sent and not read
 * fd 5   AF_UNIX SOCK_DGRAM bound to the abstract name @sockwait-PID
 * fd 6/7 a SOCK_STREAM socketpair: fd 7 holds 3 bytes ("abc"), an
 *        SCM_RIGHTS message of 1 byte with fd 5 in flight, and an urgent
 *        byte ("!", MSG_OOB)
 * fd 8   AF_INET SOCK_STREAM listener on 127.0.0.1 (the port chosen by
 *        the kernel)
 * fd 9   its client, connected, 4 bytes ("ping") sent
 * fd 10  the accepted end, the 4 bytes unread
 *
 * It closes every fd above 2 first (a shell may leave some open), so that
 * the numbers are these. Then getppid() (the place for a breakpoint), and a line that prints the
 * listener's path, the TCP port, and exit 0. Without AF_INET (umk
 * --net=none) it stops after fd 7.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "harness.h"

static socklen_t unix_name(struct sockaddr_un *a, const char *fmt, int abstract)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path + abstract, sizeof(a->sun_path) - 1, fmt, (int)getpid());
	return offsetof(struct sockaddr_un, sun_path) + abstract + strlen(a->sun_path + abstract) +
	       !abstract;
}

static void send_fd(int over, int fd)
{
	char c = 'F';
	struct iovec iov = { &c, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u = { 0 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);

	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	if (sendmsg(over, &m, 0) != 1)
		die("sendmsg(SCM_RIGHTS): %s", errno_name(errno));
}

int main(void)
{
	struct sockaddr_un path, abstract;
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t plen = unix_name(&path, "/tmp/sockwait-%d", 0);
	socklen_t alen = unix_name(&abstract, "sockwait-%d", 1);
	socklen_t inlen = sizeof(in);
	int pair[2];

	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	if (socket(AF_UNIX, SOCK_STREAM, 0) != 3 || bind(3, (struct sockaddr *)&path, plen) ||
	    listen(3, 4))
		die("fd 3: %s", errno_name(errno));
	if (socket(AF_UNIX, SOCK_STREAM, 0) != 4 || connect(4, (struct sockaddr *)&path, plen) ||
	    write(4, "hello", 5) != 5)
		die("fd 4: %s", errno_name(errno));
	if (socket(AF_UNIX, SOCK_DGRAM, 0) != 5 || bind(5, (struct sockaddr *)&abstract, alen))
		die("fd 5: %s", errno_name(errno));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) || pair[0] != 6 || write(6, "abc", 3) != 3)
		die("fds 6, 7: %s", errno_name(errno));
	send_fd(6, 5);
	if (send(6, "!", 1, MSG_OOB) != 1)
		die("send(MSG_OOB): %s", errno_name(errno));
	if (socket(AF_INET, SOCK_STREAM, 0) == 8) {
		if (bind(8, (struct sockaddr *)&in, inlen) || listen(8, 4) ||
		    getsockname(8, (struct sockaddr *)&in, &inlen))
			die("fd 8: %s", errno_name(errno));
		if (socket(AF_INET, SOCK_STREAM, 0) != 9 || connect(9, (struct sockaddr *)&in, inlen) ||
		    write(9, "ping", 4) != 4)
			die("fd 9: %s", errno_name(errno));
		if (accept(8, NULL, NULL) != 10)
			die("fd 10: %s", errno_name(errno));
		usleep(20000);	/* the 4 bytes reach fd 10 */
	}
	getppid();
	printf("path %s, tcp port %d\n", path.sun_path, ntohs(in.sin_port));
	unlink(path.sun_path);
	return 0;
}
