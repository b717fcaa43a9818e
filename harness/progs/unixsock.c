/*
 * unixsock CASE: AF_UNIX sockets (kernel/net/af_unix.c, kernel/net/socket.c),
 * through raw system calls so that each line shows what the kernel
 * returned. Every line is deterministic (no fd numbers, pids, inode
 * numbers or times; a timed wait prints "waited >= 80 ms yes" style facts),
 * so the output natively and under umk must be identical:
 * tests/unix_sockets.bats compares them.
 *
 *   types     socketpair of each type: data, message boundaries, fstat,
 *             SO_TYPE/SO_DOMAIN/SO_PROTOCOL, names, end of file, errors
 *   names     path names (bind, listen, connect, accept, the socket node),
 *             abstract names, autobind, datagrams to a name with the
 *             sender's address, the errors of each
 *   flags     MSG_PEEK, MSG_DONTWAIT, MSG_TRUNC, MSG_WAITALL, shutdown,
 *             EPIPE with and without SIGPIPE (MSG_NOSIGNAL)
 *   rights    SCM_RIGHTS: a pipe end to a forked child, MSG_CMSG_CLOEXEC,
 *             MSG_CTRUNC, files in flight freed with their socket
 *   creds     SO_PEERCRED (socketpair, accept, connect, unconnected),
 *             SO_PASSCRED with SCM_CREDENTIALS, autobind on send
 *   poll      poll and epoll readiness: data, room, hang-up, a listener's
 *             pending connection, a wake-up from another process
 *   backlog   a full backlog: non-blocking connect EAGAIN, a blocking one
 *             waits for accept
 *   timeo     SO_RCVTIMEO/SO_SNDTIMEO: set and read back, EDOM, EAGAIN at
 *             expiry, EINTR after a handler even with SA_RESTART
 *   waitall   MSG_WAITALL across a SA_RESTART handler: restarted, completes
 *   bulk      1 MiB through a stream socketpair to a child: blocking
 *             writer and reader wake each other
 *   proc      /proc/self/fd/N and /proc/net/unix
 *   oob       MSG_OOB on a stream (Linux's CONFIG_AF_UNIX_OOB): the urgent
 *             byte, the mark a read stops at, SIOCATMARK, POLLPRI, a
 *             second urgent byte, one passed unread, SO_OOBINLINE, peeks,
 *             SIGURG to the F_SETOWN owner, the errors
 *   gc        sockets in flight: one sent over itself, two sent over each
 *             other, a listener's unaccepted connection sent to it, then
 *             closed: the garbage collector, run by the next release of a
 *             socket, frees them (their inodes leave /proc/net/unix); one
 *             in flight but
 *             still reachable is not freed, and works once received
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define TYPE_NAME(t) ((t) == SOCK_STREAM ? "stream" : (t) == SOCK_DGRAM ? "dgram" : "seqpacket")

static const int types[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET };

/* A directory of our own for path names: under /tmp natively, umk's
 * tmpfs under umk. */
static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/unixsock.%d", (int)getpid());
	if (mkdir(dir, 0700))
		die("mkdir %s: %s", dir, strerror(errno));
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		die("%s failed", cmd);
}

static socklen_t path_addr(struct sockaddr_un *sa, const char *name)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/%s", dir, name);
	return offsetof(struct sockaddr_un, sun_path) + strlen(sa->sun_path) + 1;
}

/* An abstract name made unique by our pid (the host's are global). */
static socklen_t abstract_addr(struct sockaddr_un *sa, const char *name)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "umk-%d-%s", (int)getpid(), name);
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(sa->sun_path + 1);
}

static long xsocket(int type)
{
	long fd = rsys(SYS_socket, AF_UNIX, type, 0);

	if (fd < 0)
		die("socket: %s", errno_name(-fd));
	return fd;
}

static void xsocketpair(int type, int sv[2])
{
	long r = rsys(SYS_socketpair, AF_UNIX, type, 0, sv);

	if (r < 0)
		die("socketpair: %s", errno_name(-r));
}

static int getint(int fd, int opt)
{
	int v = -1;
	socklen_t len = sizeof(v);
	long r = rsys(SYS_getsockopt, fd, SOL_SOCKET, opt, &v, &len);

	return r < 0 ? (int)r : v;
}

static void setint(int fd, int opt, int v)
{
	long r = rsys(SYS_setsockopt, fd, SOL_SOCKET, opt, &v, sizeof(v));

	if (r < 0)
		die("setsockopt %d: %s", opt, errno_name(-r));
}

/* Print what recv gave: "= N 'bytes'" or the error. */
static long show_data(const char *call, long r, const char *buf)
{
	if (r < 0)
		return show(call, r);
	printf("%s = %ld '%.*s'\n", call, r, (int)(r > 64 ? 64 : r), buf);
	return r;
}

static void poll_show(const char *what, int fd, short events)
{
	struct pollfd p = { fd, events, 0 };
	long r = rsys(SYS_poll, &p, 1, 0);

	printf("poll(%s) = %ld revents", what, r);
	if (p.revents & POLLIN)
		printf(" IN");
	if (p.revents & POLLOUT)
		printf(" OUT");
	if (p.revents & POLLERR)
		printf(" ERR");
	if (p.revents & POLLHUP)
		printf(" HUP");
	if (p.revents & POLLRDHUP)
		printf(" RDHUP");
	printf("\n");
}

/* Wait until pid is asleep in the kernel (state S twice, 15 ms apart). */
static void wait_asleep(pid_t pid)
{
	int seen = 0;

	while (seen < 2) {
		usleep(15000);
		seen = proc_state(pid) == 'S' ? seen + 1 : 0;
	}
}

static void on_usr1(int sig)
{
}

static void handle_usr1(int flags)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

/* ---- types ---- */

static void case_types(void)
{
	char buf[64];
	struct sockaddr_un sa;
	socklen_t len;
	struct stat st;
	int sv[2], i;

	show("socket(AF_UNIX, 99)", rsys(SYS_socket, AF_UNIX, 99, 0));
	show("socket(AF_UNIX, SOCK_STREAM, 5)", rsys(SYS_socket, AF_UNIX, SOCK_STREAM, 5));
	show("socket(AF_UNIX, SOCK_STREAM|0x100000)",
	     rsys(SYS_socket, AF_UNIX, SOCK_STREAM | 0x100000, 0));
	show("socket(45, SOCK_STREAM)", rsys(SYS_socket, 45, SOCK_STREAM, 0));
	show("socket(-1, SOCK_STREAM)", rsys(SYS_socket, -1, SOCK_STREAM, 0));
	show("getsockname(stdin pipe)", rsys(SYS_getsockname, 1000, &sa, &len));
	{
		int p[2];

		if (pipe(p))
			die("pipe");
		len = sizeof(sa);
		show("getsockname(pipe)", rsys(SYS_getsockname, p[0], &sa, &len));
		close(p[0]);
		close(p[1]);
	}
	for (i = 0; i < 3; i++) {
		int t = types[i];

		printf("-- %s\n", TYPE_NAME(t));
		xsocketpair(t, sv);
		fstat(sv[0], &st);
		printf("S_ISSOCK %d mode %o\n", S_ISSOCK(st.st_mode), st.st_mode & 0777);
		printf("SO_TYPE %d SO_DOMAIN %d SO_PROTOCOL %d SO_ACCEPTCONN %d SO_ERROR %d\n",
		       getint(sv[0], SO_TYPE), getint(sv[0], SO_DOMAIN), getint(sv[0], SO_PROTOCOL),
		       getint(sv[0], SO_ACCEPTCONN), getint(sv[0], SO_ERROR));
		len = sizeof(sa);
		show("getsockname", rsys(SYS_getsockname, sv[0], &sa, &len));
		printf("len %d\n", (int)len);
		len = sizeof(sa);
		show("getpeername", rsys(SYS_getpeername, sv[0], &sa, &len));
		printf("len %d\n", (int)len);
		show("write abc", rsys(SYS_write, sv[0], "abc", 3));
		show("sendto def", rsys(SYS_sendto, sv[0], "def", 3, 0, NULL, 0));
		show("write ''", rsys(SYS_write, sv[0], "", 0));
		{
			int n = -1;

			ioctl(sv[1], FIONREAD, &n);
			printf("FIONREAD %d\n", n);
		}
		show_data("read 64", rsys(SYS_read, sv[1], buf, 64), buf);
		if (t != SOCK_STREAM) {
			show_data("read 64", rsys(SYS_read, sv[1], buf, 64), buf);
			show_data("read 64", rsys(SYS_read, sv[1], buf, 64), buf);
		}
		show("recv DONTWAIT (empty)", rsys(SYS_recvfrom, sv[1], buf, 64, MSG_DONTWAIT, 0, 0));
		show("sendto with a name", rsys(SYS_sendto, sv[0], "x", 1, 0, &sa, sizeof(sa.sun_family) + 3));
		close(sv[0]);
		if (t == SOCK_DGRAM) {
			show("write (peer closed)", rsys(SYS_write, sv[1], "x", 1));
			show("write (after)", rsys(SYS_write, sv[1], "x", 1));
		} else {
			show("read (peer closed)", rsys(SYS_read, sv[1], buf, 64));
		}
		close(sv[1]);
	}
	{
		long fd = xsocket(SOCK_STREAM);

		show("read(unconnected stream)", rsys(SYS_read, fd, buf, 1));
		show("write(unconnected stream)", rsys(SYS_write, fd, "x", 1));
		show("send(unconnected stream)", rsys(SYS_sendto, fd, "x", 1, MSG_NOSIGNAL, 0, 0));
		show("accept(unconnected stream)", rsys(SYS_accept, fd, 0, 0));
		show("shutdown(how 3)", rsys(SYS_shutdown, fd, 3));
		show("getsockopt(level 999)", rsys(SYS_getsockopt, fd, 999, SO_TYPE, buf, &len));
		close(fd);
		fd = xsocket(SOCK_DGRAM);
		show("listen(dgram)", rsys(SYS_listen, fd, 1));
		show("accept(dgram)", rsys(SYS_accept, fd, 0, 0));
		show("send(unconnected dgram)", rsys(SYS_sendto, fd, "x", 1, 0, 0, 0));
		close(fd);
		fd = xsocket(SOCK_SEQPACKET);
		show("send(unconnected seqpacket)", rsys(SYS_sendto, fd, "x", 1, 0, 0, 0));
		show("recv(unconnected seqpacket)", rsys(SYS_recvfrom, fd, buf, 1, 0, 0, 0));
		close(fd);
	}
	show("recv(closed fd)", rsys(SYS_recvfrom, 999, buf, 1, 0, 0, 0));
	show("socketpair(bad pointer)", rsys(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, 8));
	xsocketpair(SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, sv);
	printf("SOCK_NONBLOCK %d SOCK_CLOEXEC %d\n", !!(fcntl(sv[0], F_GETFL) & O_NONBLOCK),
	       !!(fcntl(sv[0], F_GETFD) & FD_CLOEXEC));
	show("read (nonblocking, empty)", rsys(SYS_read, sv[0], buf, 1));
	close(sv[0]);
	close(sv[1]);
}

/* ---- names ---- */

static void show_name(const char *what, int fd, int peer)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	const char *p = sa.sun_path;
	long r;

	memset(&sa, 0, sizeof(sa));	/* an abstract name has no NUL of its own */
	r = rsys(peer ? SYS_getpeername : SYS_getsockname, fd, &sa, &len);

	if (r < 0) {
		show(what, r);
		return;
	}
	if (len <= offsetof(struct sockaddr_un, sun_path))
		printf("%s: unnamed, len %d\n", what, (int)len);
	else if (p[0])
		printf("%s: path %s, len ok %d\n", what, strrchr(p, '/') + 1,
		       len == offsetof(struct sockaddr_un, sun_path) + strlen(p) + 1);
	else
		printf("%s: abstract, len ok %d\n", what,
		       len == offsetof(struct sockaddr_un, sun_path) + 1 + strlen(p + 1));
}

static void case_names(void)
{
	struct sockaddr_un sa, sb, sc;
	socklen_t la, lb, len;
	struct stat st;
	char buf[64];
	long srv, cli, acc, fd;

	make_dir();
	/* A path name. */
	srv = xsocket(SOCK_STREAM);
	la = path_addr(&sa, "srv");
	show("listen(unbound)", rsys(SYS_listen, srv, 5));
	show("bind(path)", rsys(SYS_bind, srv, &sa, la));
	show("bind(again)", rsys(SYS_bind, srv, &sa, la));
	show("stat(path)", stat(sa.sun_path, &st) ? -errno : 0);
	printf("S_ISSOCK %d\n", S_ISSOCK(st.st_mode));
	show("open(socket node)", open(sa.sun_path, O_RDONLY) < 0 ? -errno : 0);
	fd = xsocket(SOCK_STREAM);
	show("bind(path in use)", rsys(SYS_bind, fd, &sa, la));
	show("connect(not listening)", rsys(SYS_connect, fd, &sa, la));
	close(fd);
	show_name("getsockname(srv)", srv, 0);
	show("listen", rsys(SYS_listen, srv, 5));
	printf("SO_ACCEPTCONN %d\n", getint(srv, SO_ACCEPTCONN));
	fcntl(srv, F_SETFL, O_NONBLOCK);
	show("accept(nonblocking, none)", rsys(SYS_accept, srv, 0, 0));
	fcntl(srv, F_SETFL, 0);
	cli = xsocket(SOCK_STREAM);
	show("connect(path)", rsys(SYS_connect, cli, &sa, la));
	show("connect(again)", rsys(SYS_connect, cli, &sa, la));
	show_name("getpeername(cli)", cli, 1);
	show_name("getsockname(cli)", cli, 0);
	show("write before accept", rsys(SYS_write, cli, "early", 5));
	len = sizeof(sb);
	acc = rsys(SYS_accept4, srv, &sb, &len, SOCK_CLOEXEC);
	show("accept4", acc < 0 ? acc : 0);
	printf("accepted peer len %d, FD_CLOEXEC %d\n", (int)len,
	       !!(fcntl(acc, F_GETFD) & FD_CLOEXEC));
	show_name("getsockname(accepted)", acc, 0);
	show_name("getpeername(accepted)", acc, 1);
	show_data("read(accepted)", rsys(SYS_read, acc, buf, 64), buf);
	show("connect(listener)", rsys(SYS_connect, srv, &sa, la));
	close(acc);
	close(cli);
	/* Errors of connect by path. */
	fd = xsocket(SOCK_STREAM);
	lb = path_addr(&sb, "nothing");
	show("connect(no such path)", rsys(SYS_connect, fd, &sb, lb));
	lb = path_addr(&sb, "file");
	close(open(sb.sun_path, O_CREAT | O_WRONLY, 0600));
	show("connect(regular file)", rsys(SYS_connect, fd, &sb, lb));
	show("connect(len 2)", rsys(SYS_connect, fd, &sb, 2));
	show("connect(len 200)", rsys(SYS_connect, fd, &sb, 200));
	sb.sun_family = AF_INET;
	show("connect(AF_INET family)", rsys(SYS_connect, fd, &sb, lb));
	close(fd);
	fd = xsocket(SOCK_DGRAM);
	lb = path_addr(&sb, "dg");
	show("bind(dgram path)", rsys(SYS_bind, fd, &sb, lb));
	cli = xsocket(SOCK_STREAM);
	show("connect(stream to dgram)", rsys(SYS_connect, cli, &sb, lb));
	close(cli);
	/* Datagrams to a path, and the sender's address. */
	cli = xsocket(SOCK_DGRAM);
	lb = path_addr(&sb, "dg");
	show("sendto(dgram path, unbound sender)", rsys(SYS_sendto, cli, "one", 3, 0, &sb, lb));
	len = sizeof(sc);
	show_data("recvfrom", rsys(SYS_recvfrom, fd, buf, 64, 0, &sc, &len), buf);
	printf("sender len %d\n", (int)len);
	lb = path_addr(&sc, "dgcli");
	show("bind(sender)", rsys(SYS_bind, cli, &sc, lb));
	lb = path_addr(&sb, "dg");
	show("sendto(dgram path, bound sender)", rsys(SYS_sendto, cli, "two", 3, 0, &sb, lb));
	len = sizeof(sc);
	show_data("recvfrom", rsys(SYS_recvfrom, fd, buf, 64, 0, &sc, &len), buf);
	printf("sender %s\n", strrchr(sc.sun_path, '/') + 1);
	close(cli);
	close(fd);
	show("sendto(closed dgram path)", rsys(SYS_sendto, xsocket(SOCK_DGRAM), "x", 1, 0, &sb, lb));
	/* Unlinked: the name is gone, the listener is not. */
	unlink(sa.sun_path);
	fd = xsocket(SOCK_STREAM);
	show("connect(unlinked path)", rsys(SYS_connect, fd, &sa, la));
	close(fd);
	close(srv);
	/* Abstract names. */
	srv = xsocket(SOCK_SEQPACKET);
	la = abstract_addr(&sa, "abs");
	show("bind(abstract)", rsys(SYS_bind, srv, &sa, la));
	show_name("getsockname(abstract)", srv, 0);
	fd = xsocket(SOCK_SEQPACKET);
	show("bind(abstract in use)", rsys(SYS_bind, fd, &sa, la));
	show("connect(abstract, not listening)", rsys(SYS_connect, fd, &sa, la));
	show("listen", rsys(SYS_listen, srv, 5));
	show("connect(abstract)", rsys(SYS_connect, fd, &sa, la));
	acc = rsys(SYS_accept, srv, 0, 0);
	show("accept", acc < 0 ? acc : 0);
	show("send", rsys(SYS_sendto, fd, "packet", 6, 0, 0, 0));
	show_data("recv", rsys(SYS_recvfrom, acc, buf, 64, 0, 0, 0), buf);
	close(acc);
	close(fd);
	close(srv);
	fd = xsocket(SOCK_SEQPACKET);
	show("connect(abstract, closed)", rsys(SYS_connect, fd, &sa, la));
	close(fd);
	/* Autobind. */
	fd = xsocket(SOCK_DGRAM);
	show("bind(family only)", rsys(SYS_bind, fd, &sa, sizeof(sa_family_t)));
	len = sizeof(sb);
	rsys(SYS_getsockname, fd, &sb, &len);
	printf("autobind: len %d, sun_path[0] %d, hex %d\n", (int)len, sb.sun_path[0],
	       (int)strspn(sb.sun_path + 1, "0123456789abcdef"));
	show("bind(family only, bound)", rsys(SYS_bind, fd, &sa, sizeof(sa_family_t)));
	close(fd);
	remove_dir();
}

/* ---- flags ---- */

static void case_flags(void)
{
	struct msghdr mh;
	struct iovec iov;
	char buf[64];
	int sv[2], status;
	pid_t pid;

	xsocketpair(SOCK_STREAM, sv);
	rsys(SYS_write, sv[0], "hello", 5);
	show_data("recv PEEK 3", rsys(SYS_recvfrom, sv[1], buf, 3, MSG_PEEK, 0, 0), buf);
	show_data("recv PEEK 64", rsys(SYS_recvfrom, sv[1], buf, 64, MSG_PEEK, 0, 0), buf);
	show_data("recv 2", rsys(SYS_recvfrom, sv[1], buf, 2, 0, 0, 0), buf);
	rsys(SYS_write, sv[0], "world", 5);
	show_data("recv PEEK 64 (two writes)", rsys(SYS_recvfrom, sv[1], buf, 64, MSG_PEEK, 0, 0), buf);
	show_data("recv 64", rsys(SYS_recvfrom, sv[1], buf, 64, 0, 0, 0), buf);
	show("recv DONTWAIT", rsys(SYS_recvfrom, sv[1], buf, 64, MSG_DONTWAIT, 0, 0));
	show("recv OOB", rsys(SYS_recvfrom, sv[1], buf, 64, MSG_OOB, 0, 0));
	/* MSG_WAITALL gathers two writes 50 ms apart. */
	pid = fork();
	if (!pid) {
		rsys(SYS_write, sv[0], "part1", 5);
		usleep(50000);
		rsys(SYS_write, sv[0], "part2", 5);
		_exit(0);
	}
	show_data("recv WAITALL 10", rsys(SYS_recvfrom, sv[1], buf, 10, MSG_WAITALL, 0, 0), buf);
	wait_status(pid);
	/* Shutdown. */
	show("shutdown(SHUT_WR)", rsys(SYS_shutdown, sv[0], SHUT_WR));
	show("read(peer shut down writing)", rsys(SYS_read, sv[1], buf, 64));
	show("write(after SHUT_WR), NOSIGNAL", rsys(SYS_sendto, sv[0], "x", 1, MSG_NOSIGNAL, 0, 0));
	show("write(other way)", rsys(SYS_write, sv[1], "back", 4));
	show_data("read(other way)", rsys(SYS_read, sv[0], buf, 64), buf);
	show("shutdown(SHUT_RD)", rsys(SYS_shutdown, sv[0], SHUT_RD));
	show("read(after SHUT_RD)", rsys(SYS_read, sv[0], buf, 64));
	show("write(to a reader shut down)", rsys(SYS_sendto, sv[1], "x", 1, MSG_NOSIGNAL, 0, 0));
	close(sv[0]);
	close(sv[1]);
	/* EPIPE and SIGPIPE. */
	xsocketpair(SOCK_STREAM, sv);
	close(sv[1]);
	show("send NOSIGNAL (peer closed)", rsys(SYS_sendto, sv[0], "x", 1, MSG_NOSIGNAL, 0, 0));
	signal(SIGPIPE, SIG_IGN);
	show("write, SIGPIPE ignored", rsys(SYS_write, sv[0], "x", 1));
	signal(SIGPIPE, SIG_DFL);
	pid = fork();
	if (!pid) {
		rsys(SYS_write, sv[0], "x", 1);
		_exit(0);
	}
	status = wait_status(pid);
	printf("write, SIGPIPE default: child %s\n", status_text(status));
	close(sv[0]);
	/* ECONNRESET: the peer closed with data unread. */
	xsocketpair(SOCK_STREAM, sv);
	rsys(SYS_write, sv[0], "unread", 6);
	rsys(SYS_write, sv[1], "for 0", 5);
	close(sv[1]);
	show_data("read(peer closed with unread data)", rsys(SYS_read, sv[0], buf, 64), buf);
	show("read(then)", rsys(SYS_read, sv[0], buf, 64));
	show("read(then)", rsys(SYS_read, sv[0], buf, 64));
	close(sv[0]);
	/* MSG_TRUNC: datagrams and packets. */
	for (int i = 1; i < 3; i++) {
		xsocketpair(types[i], sv);
		printf("-- %s\n", TYPE_NAME(types[i]));
		rsys(SYS_write, sv[0], "truncated", 9);
		rsys(SYS_write, sv[0], "truncated", 9);
		rsys(SYS_write, sv[0], "abc", 3);
		show_data("recv 4", rsys(SYS_recvfrom, sv[1], buf, 4, 0, 0, 0), buf);
		show_data("recv 4 TRUNC", rsys(SYS_recvfrom, sv[1], buf, 4, MSG_TRUNC, 0, 0), buf);
		memset(&mh, 0, sizeof(mh));
		iov.iov_base = buf;
		iov.iov_len = 2;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		show_data("recvmsg 2", rsys(SYS_recvmsg, sv[1], &mh, 0), buf);
		printf("msg_flags MSG_TRUNC %d\n", !!(mh.msg_flags & MSG_TRUNC));
		close(sv[0]);
		close(sv[1]);
	}
}

/* ---- rights ---- */

static long send_fds(int sock, const int *fds, int n, const char *data)
{
	char cbuf[CMSG_SPACE(sizeof(int) * 8)];
	struct iovec iov = { (void *)data, strlen(data) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			     .msg_controllen = CMSG_SPACE(sizeof(int) * n) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

	memset(cbuf, 0, sizeof(cbuf));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	return rsys(SYS_sendmsg, sock, &mh, 0);
}

/* Receive with a control buffer of room bytes; the fds into fds (at most
 * 8), their number returned through *nfds. */
static long recv_fds(int sock, size_t room, int flags, int *fds, int *nfds, char *buf,
		     int *msg_flags)
{
	char cbuf[256];
	struct iovec iov = { buf, 64 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			     .msg_controllen = room };
	struct cmsghdr *c;
	long r = rsys(SYS_recvmsg, sock, &mh, flags);

	*nfds = 0;
	if (r < 0)
		return r;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			*nfds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			memcpy(fds, CMSG_DATA(c), *nfds * sizeof(int));
		}
	*msg_flags = mh.msg_flags;
	return r;
}

static void case_rights(void)
{
	int sv[2], p[2], fds[8], n, mf;
	char buf[64];
	pid_t pid;

	/* A pipe's write end to a child, which writes into it. */
	xsocketpair(SOCK_STREAM, sv);
	if (pipe(p))
		die("pipe");
	pid = fork();
	if (!pid) {
		close(sv[0]);
		close(p[0]);
		close(p[1]);
		long r = recv_fds(sv[1], 256, 0, fds, &n, buf, &mf);

		if (r == 1 && n == 1)
			rsys(SYS_write, fds[0], "hello through a passed fd", 25);
		_exit(r == 1 && n == 1 ? 0 : 1);
	}
	show("sendmsg(SCM_RIGHTS pipe write end)", send_fds(sv[0], &p[1], 1, "f"));
	close(p[1]);
	printf("child (received 1 fd and wrote into it): %s\n", status_text(wait_status(pid)));
	show_data("read(pipe)", rsys(SYS_read, p[0], buf, 64), buf);
	show("read(pipe, writer gone everywhere)", rsys(SYS_read, p[0], buf, 64));
	close(p[0]);
	/* MSG_CMSG_CLOEXEC, and two fds in one message. */
	if (pipe(p))
		die("pipe");
	show("sendmsg(2 fds)", send_fds(sv[0], p, 2, "g"));
	show("recvmsg(CMSG_CLOEXEC)", recv_fds(sv[1], 256, MSG_CMSG_CLOEXEC, fds, &n, buf, &mf));
	printf("%d fds, FD_CLOEXEC %d %d, same pipe %d\n", n, !!(fcntl(fds[0], F_GETFD) & FD_CLOEXEC),
	       !!(fcntl(fds[1], F_GETFD) & FD_CLOEXEC),
	       rsys(SYS_write, fds[1], "z", 1) == 1 && rsys(SYS_read, p[0], buf, 1) == 1);
	close(fds[0]);
	close(fds[1]);
	/* MSG_CTRUNC: room for one of two; the other is closed. */
	show("sendmsg(2 fds)", send_fds(sv[0], p, 2, "h"));
	close(p[1]);
	show("recvmsg(room for 1)", recv_fds(sv[1], CMSG_LEN(sizeof(int)), 0, fds, &n, buf, &mf));
	printf("%d fd, MSG_CTRUNC %d\n", n, !!(mf & MSG_CTRUNC));
	close(fds[0]);		/* p[0]'s twin: the write end was the one dropped */
	show("read(pipe: dropped write end closed)", rsys(SYS_read, p[0], buf, 1));
	close(p[0]);
	/* Peek gives copies. */
	if (pipe(p))
		die("pipe");
	send_fds(sv[0], &p[1], 1, "i");
	show("recvmsg(PEEK)", recv_fds(sv[1], 256, MSG_PEEK, fds, &n, buf, &mf));
	printf("peeked %d fd\n", n);
	close(fds[0]);
	show("recvmsg", recv_fds(sv[1], 256, 0, fds, &n, buf, &mf));
	printf("received %d fd\n", n);
	close(fds[0]);
	/* In flight when both ends close: the file is released. */
	send_fds(sv[0], &p[1], 1, "j");
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
	show("read(pipe: write end was in flight, sockets closed)", rsys(SYS_read, p[0], buf, 1));
	close(p[0]);
	/* Errors. */
	xsocketpair(SOCK_DGRAM, sv);
	n = 999;
	show("sendmsg(SCM_RIGHTS bad fd)", send_fds(sv[0], &n, 1, "k"));
	{
		char cbuf[CMSG_SPACE(4)] = { 0 };
		struct iovec iov = { "x", 1 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = 77;
		c->cmsg_len = CMSG_LEN(4);
		show("sendmsg(cmsg type 77)", rsys(SYS_sendmsg, sv[0], &mh, 0));
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = 4;
		show("sendmsg(cmsg_len 4)", rsys(SYS_sendmsg, sv[0], &mh, 0));
	}
	close(sv[0]);
	close(sv[1]);
}

/* ---- creds ---- */

static void show_peercred(const char *what, int fd, pid_t expect)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);
	long r = rsys(SYS_getsockopt, fd, SOL_SOCKET, SO_PEERCRED, &uc, &len);

	if (r < 0) {
		show(what, r);
		return;
	}
	if (expect < 0)
		printf("%s: pid %d uid %d gid %d\n", what, uc.pid, (int)uc.uid, (int)uc.gid);
	else
		printf("%s: pid ok %d, uid ok %d, gid ok %d\n", what, uc.pid == expect,
		       uc.uid == getuid(), uc.gid == getgid());
}

static void case_creds(void)
{
	struct sockaddr_un sa;
	struct ucred uc;
	char buf[64], cbuf[256];
	int sv[2], ready[2];
	long srv, cli, acc;
	socklen_t la;
	pid_t pid;

	xsocketpair(SOCK_STREAM, sv);
	show_peercred("socketpair", sv[0], getpid());
	close(sv[0]);
	close(sv[1]);
	cli = xsocket(SOCK_STREAM);
	show_peercred("unconnected", cli, -1);
	close(cli);
	make_dir();
	srv = xsocket(SOCK_STREAM);
	la = path_addr(&sa, "cred");
	rsys(SYS_bind, srv, &sa, la);
	rsys(SYS_listen, srv, 5);
	show_peercred("listener (its own)", srv, getpid());
	if (pipe(ready))
		die("pipe");
	pid = fork();
	if (!pid) {
		close(srv);
		cli = xsocket(SOCK_STREAM);
		rsys(SYS_connect, cli, &sa, la);
		show_peercred("child's connected socket (the listener)", cli, getppid());
		fflush(stdout);
		rsys(SYS_write, ready[1], "r", 1);
		rsys(SYS_read, cli, buf, 1);	/* until the parent closes */
		_exit(0);
	}
	rsys(SYS_read, ready[0], buf, 1);
	acc = rsys(SYS_accept, srv, 0, 0);
	show_peercred("accepted (the child)", acc, pid);
	close(acc);
	wait_status(pid);
	close(srv);
	/* SO_PASSCRED: SCM_CREDENTIALS of the sender. */
	xsocketpair(SOCK_DGRAM, sv);
	setint(sv[1], SO_PASSCRED, 1);
	printf("SO_PASSCRED %d\n", getint(sv[1], SO_PASSCRED));
	pid = fork();
	if (!pid) {
		rsys(SYS_write, sv[0], "c", 1);
		_exit(0);
	}
	wait_status(pid);
	{
		struct iovec iov = { buf, 64 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c;

		show("recvmsg", rsys(SYS_recvmsg, sv[1], &mh, 0));
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			memcpy(&uc, CMSG_DATA(c), sizeof(uc));
			printf("cmsg level %d type %d len %d: pid ok %d uid ok %d\n", c->cmsg_level,
			       c->cmsg_type, (int)c->cmsg_len, uc.pid == pid,
			       uc.uid == getuid());
		}
	}
	close(sv[0]);
	close(sv[1]);
	/* An unbound datagram sender with SO_PASSCRED is autobound. */
	srv = xsocket(SOCK_DGRAM);
	la = path_addr(&sa, "dgcred");
	rsys(SYS_bind, srv, &sa, la);
	cli = xsocket(SOCK_DGRAM);
	setint(cli, SO_PASSCRED, 1);
	show("sendto(SO_PASSCRED, unbound)", rsys(SYS_sendto, cli, "a", 1, 0, &sa, la));
	{
		struct sockaddr_un from;
		socklen_t len = sizeof(from);

		rsys(SYS_recvfrom, srv, buf, 64, 0, &from, &len);
		printf("sender autobound: len %d abstract %d\n", (int)len, from.sun_path[0] == 0);
	}
	close(cli);
	close(srv);
	remove_dir();
}

/* ---- poll ---- */

static void case_poll(void)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP }, out[4];
	struct sockaddr_un sa;
	char buf[4096];
	int sv[2], ep;
	long srv, cli, n, total = 0;
	pid_t pid;

	xsocketpair(SOCK_STREAM, sv);
	poll_show("fresh pair", sv[1], POLLIN | POLLOUT | POLLRDHUP);
	rsys(SYS_write, sv[0], "x", 1);
	poll_show("data", sv[1], POLLIN | POLLOUT | POLLRDHUP);
	rsys(SYS_read, sv[1], buf, 1);
	rsys(SYS_shutdown, sv[0], SHUT_WR);
	poll_show("peer SHUT_WR", sv[1], POLLIN | POLLOUT | POLLRDHUP);
	close(sv[0]);
	poll_show("peer closed", sv[1], POLLIN | POLLOUT | POLLRDHUP);
	close(sv[1]);
	/* Full: no POLLOUT until the reader drains. */
	xsocketpair(SOCK_STREAM | SOCK_NONBLOCK, sv);
	memset(buf, 'f', sizeof(buf));
	while ((n = rsys(SYS_write, sv[0], buf, sizeof(buf))) > 0)
		total += n;
	show("write until full", n);
	printf("filled more than 64 KiB %d\n", total > 65536);
	poll_show("writer, full", sv[0], POLLOUT);
	while (rsys(SYS_read, sv[1], buf, sizeof(buf)) > 0)
		;
	poll_show("writer, drained", sv[0], POLLOUT);
	close(sv[0]);
	close(sv[1]);
	/* A fresh unconnected stream socket, a listener. */
	srv = xsocket(SOCK_STREAM);
	poll_show("unconnected stream", srv, POLLIN | POLLOUT);
	make_dir();
	rsys(SYS_bind, srv, &sa, path_addr(&sa, "poll"));
	rsys(SYS_listen, srv, 5);
	poll_show("listener", srv, POLLIN | POLLOUT);
	cli = xsocket(SOCK_STREAM);
	rsys(SYS_connect, cli, &sa, path_addr(&sa, "poll"));
	poll_show("listener, connection pending", srv, POLLIN | POLLOUT);
	poll_show("connected client", cli, POLLIN | POLLOUT);
	close(cli);
	close(srv);
	remove_dir();
	/* Datagrams. */
	xsocketpair(SOCK_DGRAM, sv);
	poll_show("dgram pair", sv[0], POLLIN | POLLOUT);
	close(sv[1]);
	poll_show("dgram, peer closed", sv[0], POLLIN | POLLOUT);
	close(sv[0]);
	xsocketpair(SOCK_SEQPACKET, sv);
	close(sv[1]);
	poll_show("seqpacket, peer closed", sv[0], POLLIN | POLLOUT | POLLRDHUP);
	close(sv[0]);
	/* epoll: woken by another process's write, then by its close. */
	xsocketpair(SOCK_STREAM, sv);
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, sv[1], &ev);
	show("epoll_wait(nothing, 0)", rsys(SYS_epoll_wait, ep, out, 4, 0));
	pid = fork();
	if (!pid) {
		usleep(30000);
		rsys(SYS_write, sv[0], "e", 1);
		usleep(30000);
		_exit(0);
	}
	close(sv[0]);
	n = rsys(SYS_epoll_wait, ep, out, 4, 5000);
	printf("epoll_wait = %ld events IN %d RDHUP %d\n", n, !!(out[0].events & EPOLLIN),
	       !!(out[0].events & EPOLLRDHUP));
	rsys(SYS_read, sv[1], buf, 1);
	n = rsys(SYS_epoll_wait, ep, out, 4, 5000);
	printf("epoll_wait = %ld events IN %d RDHUP %d HUP %d\n", n, !!(out[0].events & EPOLLIN),
	       !!(out[0].events & EPOLLRDHUP), !!(out[0].events & EPOLLHUP));
	wait_status(pid);
	close(sv[1]);
	close(ep);
}

/* ---- backlog ---- */

static void case_backlog(void)
{
	struct sockaddr_un sa;
	socklen_t la;
	long srv, fds[8], r;
	int i, ok = 0, status;
	pid_t pid;

	make_dir();
	srv = xsocket(SOCK_STREAM);
	la = path_addr(&sa, "bl");
	rsys(SYS_bind, srv, &sa, la);
	show("listen(backlog 1)", rsys(SYS_listen, srv, 1));
	for (i = 0; i < 8; i++) {
		fds[i] = xsocket(SOCK_STREAM | SOCK_NONBLOCK);
		r = rsys(SYS_connect, fds[i], &sa, la);
		if (r < 0) {
			printf("connect %d = -1 %s\n", i + 1, errno_name(-r));
			break;
		}
		ok++;
	}
	printf("connects before the backlog was full: %d\n", ok);
	/* A blocking connect waits until accept makes room. */
	pid = fork();
	if (!pid) {
		long c = xsocket(SOCK_STREAM);

		r = rsys(SYS_connect, c, &sa, la);
		_exit(r == 0 ? 0 : 1);	/* 0: the connect succeeded */
	}
	wait_asleep(pid);
	printf("child asleep in connect\n");
	fflush(stdout);
	r = rsys(SYS_accept, srv, 0, 0);
	show("accept", r < 0 ? r : 0);
	status = wait_status(pid);
	printf("child %s\n", status_text(status));
	for (i = 0; i <= ok && i < 8; i++)
		close(fds[i]);
	close(srv);
	/* A listener shut down for reading has no connection to wait for. */
	srv = xsocket(SOCK_STREAM);
	rsys(SYS_listen, srv, 1);	/* autobind */
	show("shutdown(listener, SHUT_RD)", rsys(SYS_shutdown, srv, SHUT_RD));
	show("accept(shut down listener)", rsys(SYS_accept, srv, 0, 0));
	close(srv);
	remove_dir();
}

/* ---- timeo ---- */

static void case_timeo(void)
{
	struct timeval tv = { 0, 100000 }, got;
	socklen_t len = sizeof(got);
	char buf[4096];
	int sv[2];
	double t0;
	long r;
	pid_t pid;

	xsocketpair(SOCK_STREAM, sv);
	show("setsockopt(SO_RCVTIMEO 100 ms)",
	     rsys(SYS_setsockopt, sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	rsys(SYS_getsockopt, sv[0], SOL_SOCKET, SO_RCVTIMEO, &got, &len);
	printf("SO_RCVTIMEO = {%ld, %ld} len %d\n", (long)got.tv_sec, (long)got.tv_usec, (int)len);
	tv.tv_usec = 1000000;
	show("setsockopt(SO_RCVTIMEO usec 1000000)",
	     rsys(SYS_setsockopt, sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	show("setsockopt(SO_RCVTIMEO short)",
	     rsys(SYS_setsockopt, sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, 4));
	t0 = now_ms();
	show("recv (timeout)", rsys(SYS_recvfrom, sv[0], buf, 1, 0, 0, 0));
	printf("waited >= 90 ms %s\n", now_ms() - t0 >= 90 ? "yes" : "no");
	/* A handler with SA_RESTART: still EINTR, the socket has a timeout. */
	tv.tv_sec = 5;
	tv.tv_usec = 0;
	rsys(SYS_setsockopt, sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	handle_usr1(SA_RESTART);
	pid = fork();
	if (!pid) {
		wait_asleep(getppid());
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	show("recv (SO_RCVTIMEO 5 s, SA_RESTART handler)", rsys(SYS_recvfrom, sv[0], buf, 1, 0, 0, 0));
	wait_status(pid);
	/* SO_SNDTIMEO on a full socket. */
	tv.tv_sec = 0;
	tv.tv_usec = 100000;
	rsys(SYS_setsockopt, sv[0], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	memset(buf, 's', sizeof(buf));
	while ((r = rsys(SYS_sendto, sv[0], buf, sizeof(buf), MSG_DONTWAIT, 0, 0)) > 0)
		;
	show("send until full", r);
	t0 = now_ms();
	show("send (SO_SNDTIMEO 100 ms, full)", rsys(SYS_write, sv[0], buf, sizeof(buf)));
	printf("waited >= 90 ms %s\n", now_ms() - t0 >= 90 ? "yes" : "no");
	close(sv[0]);
	close(sv[1]);
	signal(SIGUSR1, SIG_DFL);
}

/* ---- waitall ---- */

static void case_waitall(void)
{
	char buf[64];
	int sv[2];
	pid_t pid;

	xsocketpair(SOCK_STREAM, sv);
	handle_usr1(SA_RESTART);
	pid = fork();
	if (!pid) {
		wait_asleep(getppid());
		kill(getppid(), SIGUSR1);
		usleep(20000);
		wait_asleep(getppid());
		rsys(SYS_write, sv[1], "01234", 5);
		usleep(20000);
		rsys(SYS_write, sv[1], "56789", 5);
		_exit(0);
	}
	show_data("recv WAITALL 10 (SA_RESTART handler first)",
		  rsys(SYS_recvfrom, sv[0], buf, 10, MSG_WAITALL, 0, 0), buf);
	wait_status(pid);
	close(sv[0]);
	close(sv[1]);
	signal(SIGUSR1, SIG_DFL);
}

/* ---- bulk ---- */

static void case_bulk(void)
{
	static char buf[65536];
	unsigned long sum = 0, want = 0;
	long r, total = 0;
	int sv[2], status, i;
	pid_t pid;

	xsocketpair(SOCK_STREAM, sv);
	pid = fork();
	if (!pid) {
		close(sv[0]);
		while ((r = rsys(SYS_read, sv[1], buf, 1000)) > 0)
			for (i = 0; i < r; i++)
				sum += (unsigned char)buf[i];
		rsys(SYS_write, sv[1], &sum, sizeof(sum));
		_exit(0);
	}
	for (i = 0; i < (int)sizeof(buf); i++) {
		buf[i] = (char)(i * 7);
		want += (unsigned char)buf[i];
	}
	want *= 16;
	for (i = 0; i < 16; i++) {
		r = rsys(SYS_write, sv[0], buf, sizeof(buf));
		total += r;
	}
	rsys(SYS_shutdown, sv[0], SHUT_WR);
	rsys(SYS_read, sv[0], &sum, sizeof(sum));
	status = wait_status(pid);
	printf("wrote %ld, sum ok %d, child %s\n", total, sum == want, status_text(status));
	close(sv[0]);
	close(sv[1]);
}

/* ---- proc ---- */

static void case_proc(void)
{
	struct sockaddr_un sa;
	char link[64], path[64], line[512];
	long fd, r;
	int found = 0, header = 0;
	FILE *f;

	fd = xsocket(SOCK_STREAM);
	snprintf(path, sizeof(path), "/proc/self/fd/%ld", fd);
	r = readlink(path, link, sizeof(link) - 1);
	link[r > 0 ? r : 0] = 0;
	printf("fd link starts with socket:[ %d\n", !strncmp(link, "socket:[", 8));
	rsys(SYS_bind, fd, &sa, abstract_addr(&sa, "proc"));
	rsys(SYS_listen, fd, 3);
	f = fopen("/proc/net/unix", "r");
	if (!f)
		die("/proc/net/unix: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[64];

		if (!strncmp(line, "Num       RefCount Protocol Flags    Type St Inode Path", 55))
			header = 1;
		snprintf(name, sizeof(name), " @umk-%d-proc\n", (int)getpid());
		if (strstr(line, name)) {
			found = 1;
			printf("line: flags %.8s type %.4s st %.2s\n", line + 36, line + 45, line + 50);
		}
	}
	fclose(f);
	printf("header %d, our socket listed %d\n", header, found);
	close(fd);
}

/* ---- oob ---- */

/* recvmsg of up to n bytes with flags: the bytes, and whether msg_flags
 * says MSG_OOB. */
static void recv_oob(const char *what, int fd, size_t n, int flags)
{
	char buf[64] = "";
	struct iovec iov = { buf, n };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	long r = rsys(SYS_recvmsg, fd, &m, flags);

	if (r >= 0)
		printf("%s = %ld '%.*s'%s\n", what, r, (int)r, buf,
		       m.msg_flags & MSG_OOB ? " MSG_OOB" : "");
	else
		show(what, r);
}

static void show_mark(int fd)
{
	int at = -1;
	long r = rsys(SYS_ioctl, fd, SIOCATMARK, &at);

	if (r < 0)
		show("SIOCATMARK", r);
	else
		printf("SIOCATMARK %d\n", at);
}

static volatile sig_atomic_t sigurgs;

static void on_sigurg(int sig)
{
	(void)sig;
	sigurgs++;
}

static void case_oob(void)
{
	struct pollfd p;
	int sv[2], v, avail;
	socklen_t len = sizeof(v);

	xsocketpair(SOCK_STREAM, sv);
	show("send(hello, MSG_OOB)", rsys(SYS_sendto, sv[0], "hello", 5, MSG_OOB, 0, 0));
	p = (struct pollfd){ sv[1], POLLIN | POLLPRI, 0 };
	rsys(SYS_poll, &p, 1, 0);
	printf("poll: POLLIN %d POLLPRI %d\n", !!(p.revents & POLLIN), !!(p.revents & POLLPRI));
	rsys(SYS_ioctl, sv[1], FIONREAD, &avail);
	printf("FIONREAD %d\n", avail);
	show_mark(sv[1]);
	recv_oob("recv 64 (stops at the mark)", sv[1], 64, 0);
	show_mark(sv[1]);
	recv_oob("recv OOB|PEEK", sv[1], 64, MSG_OOB | MSG_PEEK);
	recv_oob("recv OOB", sv[1], 64, MSG_OOB);
	show_mark(sv[1]);
	recv_oob("recv OOB (again)", sv[1], 64, MSG_OOB);
	p = (struct pollfd){ sv[1], POLLIN | POLLPRI, 0 };
	rsys(SYS_poll, &p, 1, 0);
	printf("poll: POLLIN %d POLLPRI %d\n", !!(p.revents & POLLIN), !!(p.revents & POLLPRI));
	recv_oob("recv DONTWAIT", sv[1], 64, MSG_DONTWAIT);

	/* An urgent byte not read out of band is passed over. */
	show("send(ab, MSG_OOB)", rsys(SYS_sendto, sv[0], "ab", 2, MSG_OOB, 0, 0));
	show("send(cd)", rsys(SYS_sendto, sv[0], "cd", 2, 0, 0, 0));
	recv_oob("recv 64", sv[1], 64, 0);
	recv_oob("recv PEEK 64 (at the mark)", sv[1], 64, MSG_PEEK);
	recv_oob("recv 64 (at the mark)", sv[1], 64, 0);
	recv_oob("recv OOB (passed)", sv[1], 64, MSG_OOB);

	/* A second urgent byte moves the mark; the first is data. */
	show("send(x, MSG_OOB)", rsys(SYS_sendto, sv[0], "x", 1, MSG_OOB, 0, 0));
	show("send(y, MSG_OOB)", rsys(SYS_sendto, sv[0], "y", 1, MSG_OOB, 0, 0));
	recv_oob("recv OOB", sv[1], 64, MSG_OOB);
	recv_oob("recv 64", sv[1], 64, 0);
	recv_oob("recv DONTWAIT", sv[1], 64, MSG_DONTWAIT);

	/* SO_OOBINLINE: the urgent byte is read as data, the mark stays. */
	v = 1;
	show("setsockopt(SO_OOBINLINE, 1)", rsys(SYS_setsockopt, sv[1], SOL_SOCKET, SO_OOBINLINE,
						 &v, sizeof(v)));
	v = -1;
	rsys(SYS_getsockopt, sv[1], SOL_SOCKET, SO_OOBINLINE, &v, &len);
	printf("SO_OOBINLINE %d\n", v);
	show("send(12, MSG_OOB)", rsys(SYS_sendto, sv[0], "12", 2, MSG_OOB, 0, 0));
	recv_oob("recv OOB (inline)", sv[1], 64, MSG_OOB);
	recv_oob("recv 64", sv[1], 64, 0);
	show_mark(sv[1]);
	recv_oob("recv 64", sv[1], 64, 0);
	show_mark(sv[1]);

	/* SIGURG to the receiver's owner, with or without O_ASYNC. */
	signal(SIGURG, on_sigurg);
	show("send(u, MSG_OOB) without an owner", rsys(SYS_sendto, sv[0], "u", 1, MSG_OOB, 0, 0));
	printf("SIGURG %d\n", sigurgs);
	show("fcntl(F_SETOWN, getpid())", rsys(SYS_fcntl, sv[1], F_SETOWN, getpid()));
	show("send(v, MSG_OOB)", rsys(SYS_sendto, sv[0], "v", 1, MSG_OOB, 0, 0));
	printf("SIGURG %d\n", sigurgs);
	show("send(w) without MSG_OOB", rsys(SYS_sendto, sv[0], "w", 1, 0, 0, 0));
	printf("SIGURG %d\n", sigurgs);
	signal(SIGURG, SIG_DFL);

	/* The errors. */
	show("send(nothing, MSG_OOB)", rsys(SYS_sendto, sv[0], "", 0, MSG_OOB, 0, 0));
	close(sv[0]);
	close(sv[1]);
	xsocketpair(SOCK_DGRAM, sv);
	show("send(dgram, MSG_OOB)", rsys(SYS_sendto, sv[0], "d", 1, MSG_OOB, 0, 0));
	show_mark(sv[1]);
	close(sv[0]);
	close(sv[1]);
	xsocketpair(SOCK_SEQPACKET, sv);
	show("send(seqpacket, MSG_OOB)", rsys(SYS_sendto, sv[0], "s", 1, MSG_OOB, 0, 0));
	close(sv[0]);
	close(sv[1]);
}

/* ---- gc ---- */

static unsigned long ino_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		die("fstat: %s", strerror(errno));
	return st.st_ino;
}

/* How many of the n inodes /proc/net/unix still lists. */
static int listed(const unsigned long *inos, int n)
{
	char line[512];
	int count = 0;
	FILE *f = fopen("/proc/net/unix", "r");

	if (!f)
		die("/proc/net/unix: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long ino;

		/* Num RefCount Protocol Flags Type St Inode [Path] */
		if (sscanf(line, "%*s %*s %*s %*s %*s %*s %lu", &ino) != 1)
			continue;
		for (int i = 0; i < n; i++)
			count += ino == inos[i];
	}
	fclose(f);
	return count;
}

/* The count once the garbage collector has run. Linux runs it when an
 * AF_UNIX socket is released while files are in flight, not when an fd is
 * closed and its file lives on (in flight): the release of a socket made
 * for the purpose runs it; at once under umk and Linux up to 6.9, from a
 * work queue on Linux 6.10+, hence the wait of up to 2 s. */
static int listed_after_gc(const unsigned long *inos, int n)
{
	int count;

	close(xsocket(SOCK_DGRAM));
	count = listed(inos, n);

	for (int i = 0; i < 200 && count; i++) {
		usleep(10000);
		count = listed(inos, n);
	}
	return count;
}

static void case_gc(void)
{
	unsigned long inos[4];
	int a[2], b[2], fds[8], n, mf;
	struct sockaddr_un sa;
	char buf[64];
	long l, c;

	/* One end sent over the other, into its own receive queue. */
	xsocketpair(SOCK_STREAM, a);
	inos[0] = ino_of(a[0]);
	inos[1] = ino_of(a[1]);
	show("sendmsg(a[1] over a[0], into a[1]'s queue)", send_fds(a[0], &a[1], 1, "s"));
	close(a[0]);
	close(a[1]);
	printf("sent over itself, closed: %d of 2 listed after gc\n", listed_after_gc(inos, 2));

	/* Two pairs, each one's reading end in flight on the other's. */
	xsocketpair(SOCK_STREAM, a);
	xsocketpair(SOCK_DGRAM, b);
	inos[0] = ino_of(a[0]);
	inos[1] = ino_of(a[1]);
	inos[2] = ino_of(b[0]);
	inos[3] = ino_of(b[1]);
	show("sendmsg(b[1] over a[0])", send_fds(a[0], &b[1], 1, "x"));
	show("sendmsg(a[1] over b[0])", send_fds(b[0], &a[1], 1, "y"));
	close(a[0]);
	close(b[0]);
	close(a[1]);
	printf("a cycle of two, one end each closed: %d of 4 listed\n", listed(inos, 4));
	close(b[1]);
	printf("a cycle of two, all closed: %d of 4 listed after gc\n", listed_after_gc(inos, 4));

	/* A listener sent to its own unaccepted connection's client: the
	 * message waits on the embryo's queue. */
	l = xsocket(SOCK_STREAM);
	rsys(SYS_bind, l, &sa, abstract_addr(&sa, "gc"));
	rsys(SYS_listen, l, 1);
	c = xsocket(SOCK_STREAM);
	show("connect", rsys(SYS_connect, c, &sa, abstract_addr(&sa, "gc")));
	inos[0] = ino_of(l);
	inos[1] = ino_of(c);
	fds[0] = l;
	show("sendmsg(listener over its connection)", send_fds(c, fds, 1, "l"));
	close(l);
	close(c);
	printf("listener in flight to itself: %d of 2 listed after gc\n",
	       listed_after_gc(inos, 2));

	/* In flight but reachable: not garbage. */
	xsocketpair(SOCK_STREAM, a);
	xsocketpair(SOCK_STREAM, b);
	inos[0] = ino_of(b[0]);
	show("sendmsg(b[0] over a[0])", send_fds(a[0], &b[0], 1, "r"));
	close(b[0]);
	close(a[0]);
	printf("in flight, its receiver open: %d of 1 listed\n", listed(inos, 1));
	show("recvmsg", recv_fds(a[1], 256, 0, fds, &n, buf, &mf));
	show("write(b[1])", rsys(SYS_write, b[1], "alive", 5));
	show_data("read(received b[0])", rsys(SYS_read, fds[0], buf, 64), buf);
	close(fds[0]);
	close(a[1]);
	close(b[1]);
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(c, "types"))
		case_types();
	else if (!strcmp(c, "names"))
		case_names();
	else if (!strcmp(c, "flags"))
		case_flags();
	else if (!strcmp(c, "rights"))
		case_rights();
	else if (!strcmp(c, "creds"))
		case_creds();
	else if (!strcmp(c, "poll"))
		case_poll();
	else if (!strcmp(c, "backlog"))
		case_backlog();
	else if (!strcmp(c, "timeo"))
		case_timeo();
	else if (!strcmp(c, "waitall"))
		case_waitall();
	else if (!strcmp(c, "bulk"))
		case_bulk();
	else if (!strcmp(c, "proc"))
		case_proc();
	else if (!strcmp(c, "oob"))
		case_oob();
	else if (!strcmp(c, "gc"))
		case_gc();
	else
		die("usage: unixsock types|names|flags|rights|creds|poll|backlog|timeo|waitall|"
		    "bulk|proc|oob|gc");
	return 0;
}
