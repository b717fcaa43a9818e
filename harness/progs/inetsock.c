/*
 * inetsock CASE: TCP and UDP sockets on the loopback (AF_INET and
 * AF_INET6), and the socket restart rules of signal(7), for
 * tests/inet_sockets.bats. Under umk these are host sockets driven by
 * kernel/net/af_inet_host.c; natively, Linux's own. Each line is the same
 * in both places: no fd numbers, no port numbers (every port is chosen by
 * binding to port 0), no times, only "waited >= 150 ms yes" style facts.
 *
 *   tcp        a server and a forked client on 127.0.0.1: bind to port 0,
 *              getsockname, accept, getpeername, both ways, 4 MiB in one
 *              send and one MSG_WAITALL recv, shutdown and end of stream
 *   tcp6       the same exchange on ::1
 *   udp        sendto and recvfrom with the sender's address, a connected
 *              pair, MSG_TRUNC (flag out, and in: the real length), MSG_PEEK;
 *              control messages: IP_PKTINFO sent with sendmsg and received
 *              with recvmsg, MSG_CTRUNC when the buffer is too small
 *   nonblock   a non-blocking connect: EINPROGRESS, poll and epoll say
 *              writable, connect again 0 then EISCONN; non-blocking accept
 *              and recv EAGAIN; epoll EPOLLIN for a connection and for data
 *   refused    connect to a closed port: ECONNREFUSED, blocking or not
 *              (then SO_ERROR says it)
 *   rcvtimeo   SO_RCVTIMEO: recv and accept end with EAGAIN when it
 *              expires; a handler (even SA_RESTART) makes recv EINTR;
 *              getsockopt gives it back
 *   restart    without a timeout, recv interrupted by an SA_RESTART
 *              handler is restarted and gets the data sent later; without
 *              SA_RESTART it is EINTR
 *   stop       SIGSTOP and SIGCONT: a recv with SO_RCVTIMEO is EINTR; one
 *              without is restarted and gets the data
 *   connect    a connect that cannot complete (the listener's backlog is
 *              full): SO_SNDTIMEO gives EINPROGRESS, then EALREADY; one a
 *              handler interrupts is EINTR and goes on: EALREADY while in
 *              progress, 0 once accepted, then EISCONN; with SA_RESTART it
 *              is restarted and completes
 *   partial    sends that cannot all go: non-blocking returns the bytes
 *              that went, SO_SNDTIMEO and a handler end a blocking send
 *              with the bytes sent; a send after shutdown is EPIPE with
 *              SIGPIPE, or without it under MSG_NOSIGNAL
 *   linger     close with SO_LINGER {1, 5} and unsent data that a child
 *              reads from 300 ms on: close returns once it is read (natively)
 *              or at once (umk, which never waits in a host close), not
 *              after 5 s, and the child gets every byte, then the end
 *   options    TCP_NODELAY, SO_REUSEADDR, SO_KEEPALIVE, SO_LINGER,
 *              SO_BROADCAST, IP_TOS, IPV6_V6ONLY, SO_TYPE, SO_DOMAIN,
 *              SO_PROTOCOL, SO_ACCEPTCONN, FIONREAD
 *   families   socket() for AF_INET and AF_INET6: what the kernel says
 *              (umk --net=none: EAFNOSUPPORT)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

/* ---- helpers ---- */

/* The socket errnos, which harness.c's table leaves out. */
static const char *ename(int e)
{
	static const char *const names[] = {
		[ENOTSOCK] = "ENOTSOCK",	 [EDESTADDRREQ] = "EDESTADDRREQ",
		[EMSGSIZE] = "EMSGSIZE",	 [EPROTOTYPE] = "EPROTOTYPE",
		[ENOPROTOOPT] = "ENOPROTOOPT",	 [EPROTONOSUPPORT] = "EPROTONOSUPPORT",
		[ESOCKTNOSUPPORT] = "ESOCKTNOSUPPORT", [EAFNOSUPPORT] = "EAFNOSUPPORT",
		[EADDRINUSE] = "EADDRINUSE",	 [EADDRNOTAVAIL] = "EADDRNOTAVAIL",
		[ENETUNREACH] = "ENETUNREACH",	 [ECONNABORTED] = "ECONNABORTED",
		[ECONNRESET] = "ECONNRESET",	 [ENOBUFS] = "ENOBUFS",
		[EISCONN] = "EISCONN",		 [ENOTCONN] = "ENOTCONN",
		[ECONNREFUSED] = "ECONNREFUSED", [EALREADY] = "EALREADY",
		[EINPROGRESS] = "EINPROGRESS",
	};

	if (e > 0 && e < (int)(sizeof(names) / sizeof(names[0])) && names[e])
		return names[e];
	return errno_name(e);
}

static const char *result(long ret)
{
	static char buf[32];

	if (ret < 0 && ret > -4096)
		snprintf(buf, sizeof(buf), "-1 %s", ename((int)-ret));
	else
		snprintf(buf, sizeof(buf), "%ld", ret);
	return buf;
}

static void say(const char *what, long ret)
{
	printf("%s = %s\n", what, result(ret));
	fflush(stdout);
}

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	(void)sig;
	handled++;
}

static void handle(int sig, int flags)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		die("sigaction: %s", strerror(errno));
}

/* SIGALRM once, after ms milliseconds. */
static void alarm_ms(int ms)
{
	struct itimerval it = { .it_value = { ms / 1000, (ms % 1000) * 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int xsocket(int family, int type)
{
	long fd = rsys(SYS_socket, family, type, 0);

	if (fd < 0)
		die("socket(%d, %d): %s", family, type, errno_name((int)-fd));
	return (int)fd;
}

/* A socket bound to the family's loopback at a port the host chose. */
static int bound(int family, int type, struct sockaddr_storage *ss, socklen_t *len)
{
	int fd = xsocket(family, type);
	long r;

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		*len = sizeof(*a);
	}
	r = rsys(SYS_bind, fd, ss, *len);
	if (r)
		die("bind: %s", errno_name((int)-r));
	r = rsys(SYS_getsockname, fd, ss, len);
	if (r)
		die("getsockname: %s", errno_name((int)-r));
	return fd;
}

static int listener(int family, struct sockaddr_storage *ss, socklen_t *len, int backlog)
{
	int fd = bound(family, SOCK_STREAM, ss, len);

	if (rsys(SYS_listen, fd, backlog))
		die("listen");
	return fd;
}

static int port_of(const struct sockaddr_storage *ss)
{
	return ss->ss_family == AF_INET ? ntohs(((struct sockaddr_in *)ss)->sin_port)
					: ntohs(((struct sockaddr_in6 *)ss)->sin6_port);
}

static const char *addr_text(const struct sockaddr_storage *ss)
{
	static char buf[80];
	char a[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)ss)->sin_addr, a, sizeof(a));
	else
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)ss)->sin6_addr, a, sizeof(a));
	snprintf(buf, sizeof(buf), "%s %s", ss->ss_family == AF_INET ? "AF_INET" : "AF_INET6", a);
	return buf;
}

static int connected_to(const struct sockaddr_storage *ss, socklen_t len)
{
	int fd = xsocket(ss->ss_family, SOCK_STREAM);
	long r = rsys(SYS_connect, fd, ss, len);

	if (r)
		die("connect: %s", errno_name((int)-r));
	return fd;
}

static int accepted(int lfd)
{
	long fd = rsys(SYS_accept4, lfd, NULL, NULL, 0);

	if (fd < 0)
		die("accept: %s", errno_name((int)-fd));
	return (int)fd;
}

/* A connected pair over a listener, which is closed again. */
static void tcp_pair(int family, int *a, int *b)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int l = listener(family, &ss, &len, 1);

	*a = connected_to(&ss, len);
	*b = accepted(l);
	close(l);
}

static long recv_all(int fd, char *buf, long n)
{
	return rsys(SYS_recvfrom, fd, buf, n, MSG_WAITALL, NULL, NULL);
}

static unsigned long sum(const unsigned char *p, long n)
{
	unsigned long s = 0;
	long i;

	for (i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

static void set_timeo(int fd, int opt, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	if (setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv)))
		die("setsockopt timeout: %s", strerror(errno));
}

static void wait_child(pid_t pid)
{
	int st = wait_status(pid);

	if (!WIFEXITED(st) || WEXITSTATUS(st))
		printf("child: %s\n", status_text(st));
}

/* A child that sleeps ms and sends msg on fd, then exits. */
static pid_t send_later(int fd, int ms, const char *msg)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		sleep_ms(ms);
		if (send(fd, msg, strlen(msg), 0) != (ssize_t)strlen(msg))
			_exit(1);
		if (!strcmp(msg, "more"))
			shutdown(fd, SHUT_WR);	/* and the end of the stream */
		_exit(0);
	}
	return pid;
}

/* ---- cases ---- */

#define BIG (4 << 20)

static void exchange(int family)
{
	static unsigned char big[BIG], got[BIG];
	struct sockaddr_storage ss, peer;
	socklen_t len, plen = sizeof(peer);
	char buf[64];
	int l, c;
	long i, r;
	pid_t pid;

	l = listener(family, &ss, &len, 8);
	printf("listening on %s, port chosen: %s\n", addr_text(&ss), port_of(&ss) ? "yes" : "no");
	for (i = 0; i < BIG; i++)
		big[i] = (unsigned char)(i * 7 + i / 4096);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		int s = connected_to(&ss, len);

		close(l);
		if (send(s, "hello", 5, 0) != 5)
			_exit(1);
		r = recv(s, buf, sizeof(buf), 0);
		if (r != 5 || memcmp(buf, "world", 5))
			_exit(2);
		r = send(s, big, BIG, 0);
		if (r != BIG)
			_exit(3);
		shutdown(s, SHUT_WR);
		r = recv(s, buf, sizeof(buf), 0);
		if (r != 0)
			_exit(4);
		_exit(0);
	}
	c = accepted(l);
	say("getpeername", rsys(SYS_getpeername, c, &peer, &plen));
	printf("peer %s\n", addr_text(&peer));
	r = recv(c, buf, sizeof(buf), 0);
	printf("recv %ld: %.*s\n", r, (int)(r > 0 ? r : 0), buf);
	say("send world", rsys(SYS_sendto, c, "world", 5, 0, NULL, 0));
	r = recv_all(c, (char *)got, BIG);
	printf("recv MSG_WAITALL 4 MiB = %ld, same bytes %s\n", r,
	       r == BIG && sum(got, BIG) == sum(big, BIG) ? "yes" : "no");
	say("recv at the end of the stream", rsys(SYS_recvfrom, c, buf, sizeof(buf), 0, NULL, NULL));
	say("shutdown(SHUT_RDWR)", rsys(SYS_shutdown, c, SHUT_RDWR));
	wait_child(pid);
	close(c);
	close(l);
}

/* IP_PKTINFO both ways: a's datagram says its source address in a control
 * message; b is told where each datagram came in. */
static void pktinfo(int a, int b)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct in_pktinfo))];
		struct cmsghdr align;
	} out, in;
	struct in_pktinfo pi = { .ipi_spec_dst.s_addr = htonl(INADDR_LOOPBACK) };
	struct iovec iov = { "with pktinfo", 12 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = out.buf,
			     .msg_controllen = sizeof(out.buf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	char data[32];
	int one = 1;

	cm->cmsg_level = IPPROTO_IP;
	cm->cmsg_type = IP_PKTINFO;
	cm->cmsg_len = CMSG_LEN(sizeof(pi));
	memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
	say("setsockopt(IP_PKTINFO)", rsys(SYS_setsockopt, b, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one)));
	say("sendmsg with IP_PKTINFO", rsys(SYS_sendmsg, a, &mh, 0));
	iov = (struct iovec){ data, sizeof(data) };
	mh = (struct msghdr){ .msg_iov = &iov, .msg_iovlen = 1, .msg_control = in.buf,
			      .msg_controllen = sizeof(in.buf) };
	say("recvmsg", rsys(SYS_recvmsg, b, &mh, 0));
	cm = CMSG_FIRSTHDR(&mh);
	if (!cm || cm->cmsg_level != IPPROTO_IP || cm->cmsg_type != IP_PKTINFO) {
		printf("no IP_PKTINFO control message\n");
	} else {
		memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
		printf("IP_PKTINFO: controllen %zu, ifindex of lo %s, to %s\n", (size_t)mh.msg_controllen,
		       pi.ipi_ifindex > 0 ? "yes" : "no", inet_ntoa(pi.ipi_addr));
	}
	say("send", rsys(SYS_sendto, a, "again", 5, 0, NULL, 0));
	mh = (struct msghdr){ .msg_iov = &iov, .msg_iovlen = 1, .msg_control = in.buf,
			      .msg_controllen = sizeof(struct cmsghdr) + 4 };
	say("recvmsg, room for half the control message", rsys(SYS_recvmsg, b, &mh, 0));
	printf("MSG_CTRUNC %s, controllen %zu\n", mh.msg_flags & MSG_CTRUNC ? "yes" : "no",
	       (size_t)mh.msg_controllen);
}

static void case_udp(void)
{
	struct sockaddr_storage sa, sb, from;
	socklen_t la, lb, lf = sizeof(from);
	struct iovec iov;
	struct msghdr mh;
	char buf[64];
	int a = bound(AF_INET, SOCK_DGRAM, &sa, &la);
	int b = bound(AF_INET, SOCK_DGRAM, &sb, &lb);

	say("sendto b", rsys(SYS_sendto, a, "datagram one", 12, 0, &sb, lb));
	say("recvfrom", rsys(SYS_recvfrom, b, buf, sizeof(buf), 0, &from, &lf));
	printf("from %s, the sender's port: %s\n", addr_text(&from),
	       port_of(&from) == port_of(&sa) ? "yes" : "no");
	say("connect a to b", rsys(SYS_connect, a, &sb, lb));
	say("connect b to a", rsys(SYS_connect, b, &sa, la));
	say("send", rsys(SYS_sendto, a, "datagram two", 12, 0, NULL, 0));
	say("recv MSG_PEEK", rsys(SYS_recvfrom, b, buf, sizeof(buf), MSG_PEEK, NULL, NULL));
	iov = (struct iovec){ buf, 4 };
	mh = (struct msghdr){ .msg_iov = &iov, .msg_iovlen = 1 };
	say("recvmsg into 4 bytes", rsys(SYS_recvmsg, b, &mh, 0));
	printf("msg_flags MSG_TRUNC %s: %.4s\n", mh.msg_flags & MSG_TRUNC ? "yes" : "no", buf);
	say("send", rsys(SYS_sendto, a, "datagram three", 14, 0, NULL, 0));
	say("recv(MSG_TRUNC) into 4 bytes", rsys(SYS_recvfrom, b, buf, 4, MSG_TRUNC, NULL, NULL));
	say("recv MSG_DONTWAIT, nothing there",
	    rsys(SYS_recvfrom, b, buf, sizeof(buf), MSG_DONTWAIT, NULL, NULL));
	say("send from b", rsys(SYS_sendto, b, "back", 4, 0, NULL, 0));
	say("recv on a", rsys(SYS_recvfrom, a, buf, sizeof(buf), 0, NULL, NULL));
	pktinfo(a, b);
	close(a);
	close(b);
}

static const char *pollbits(int ev)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "%s%s%s%s%s", ev & POLLIN ? " POLLIN" : "",
		 ev & POLLOUT ? " POLLOUT" : "", ev & POLLERR ? " POLLERR" : "",
		 ev & POLLHUP ? " POLLHUP" : "", ev & POLLRDHUP ? " POLLRDHUP" : "");
	return buf[0] ? buf + 1 : "none";
}

static void case_nonblock(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	struct pollfd p;
	struct epoll_event ev, out;
	int l = listener(AF_INET, &ss, &len, 8);
	int c = xsocket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK), s, ep, ep2, err;
	socklen_t elen = sizeof(err);
	char buf[16];
	long r;

	ep = epoll_create1(0);
	ev = (struct epoll_event){ .events = EPOLLIN, .data.u64 = 1 };
	epoll_ctl(ep, EPOLL_CTL_ADD, l, &ev);
	fcntl(l, F_SETFL, O_NONBLOCK);
	say("accept on a non-blocking listener, nothing pending",
	    rsys(SYS_accept4, l, NULL, NULL, 0));
	fcntl(l, F_SETFL, 0);
	say("connect non-blocking", rsys(SYS_connect, c, &ss, len));
	ep2 = epoll_create1(0);
	ev = (struct epoll_event){ .events = EPOLLOUT, .data.u64 = 2 };
	epoll_ctl(ep2, EPOLL_CTL_ADD, c, &ev);
	r = epoll_wait(ep2, &out, 1, 5000);
	printf("epoll_wait = %ld: data %llu\n", r, (unsigned long long)out.data.u64);
	close(ep2);
	p = (struct pollfd){ .fd = c, .events = POLLOUT };
	r = poll(&p, 1, 5000);
	printf("poll = %ld: %s\n", r, pollbits(p.revents));
	getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &elen);
	printf("SO_ERROR = %s\n", err ? ename(err) : "0");
	say("connect again", rsys(SYS_connect, c, &ss, len));
	say("connect again", rsys(SYS_connect, c, &ss, len));
	r = epoll_wait(ep, &out, 1, 5000);
	printf("listener: epoll_wait = %ld: data %llu\n", r, (unsigned long long)out.data.u64);
	s = accepted(l);
	say("recv non-blocking, nothing there", rsys(SYS_recvfrom, c, buf, sizeof(buf), 0, NULL, NULL));
	ev = (struct epoll_event){ .events = EPOLLIN | EPOLLRDHUP, .data.u64 = 3 };
	epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev);
	say("epoll_wait, nothing there", epoll_wait(ep, &out, 1, 0));
	send(s, "x", 1, 0);
	r = epoll_wait(ep, &out, 1, 5000);
	printf("epoll_wait = %ld: data %llu%s%s\n", r, (unsigned long long)out.data.u64,
	       out.events & EPOLLIN ? " EPOLLIN" : "", out.events & EPOLLRDHUP ? " EPOLLRDHUP" : "");
	say("recv", rsys(SYS_recvfrom, c, buf, sizeof(buf), 0, NULL, NULL));
	shutdown(s, SHUT_WR);
	r = epoll_wait(ep, &out, 1, 5000);
	printf("after the peer's shutdown: epoll_wait = %ld: data %llu%s%s\n", r,
	       (unsigned long long)out.data.u64, out.events & EPOLLIN ? " EPOLLIN" : "",
	       out.events & EPOLLRDHUP ? " EPOLLRDHUP" : "");
	say("recv", rsys(SYS_recvfrom, c, buf, sizeof(buf), 0, NULL, NULL));
	close(ep);
	close(s);
	close(c);
	close(l);
}

/* A port nobody listens on: bound, then closed. */
static void closed_port(struct sockaddr_storage *ss, socklen_t *len)
{
	int fd = bound(AF_INET, SOCK_STREAM, ss, len);

	close(fd);
}

static void case_refused(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	struct pollfd p;
	int c, err;
	socklen_t elen = sizeof(err);
	long r;

	closed_port(&ss, &len);
	c = xsocket(AF_INET, SOCK_STREAM);
	say("connect to a closed port", rsys(SYS_connect, c, &ss, len));
	say("connect again", rsys(SYS_connect, c, &ss, len));
	close(c);
	c = xsocket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
	r = rsys(SYS_connect, c, &ss, len);
	/* Linux may find the refusal at once on the loopback, or after. */
	printf("connect non-blocking = %s\n",
	       r == -EINPROGRESS || r == -ECONNREFUSED ? "EINPROGRESS or ECONNREFUSED" : result(r));
	if (r == -EINPROGRESS) {
		p = (struct pollfd){ .fd = c, .events = POLLOUT };
		poll(&p, 1, 5000);
		getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &elen);
	} else {
		err = ECONNREFUSED;
	}
	printf("the error: %s\n", ename(err));
	close(c);
}

static void case_rcvtimeo(void)
{
	struct sockaddr_storage ss;
	socklen_t len, tlen;
	struct timeval tv;
	char buf[16];
	double t0;
	long r;
	int a, b, l;

	tcp_pair(AF_INET, &a, &b);
	set_timeo(a, SO_RCVTIMEO, 200);
	tlen = sizeof(tv);
	getsockopt(a, SOL_SOCKET, SO_RCVTIMEO, &tv, &tlen);
	printf("SO_RCVTIMEO = %ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
	t0 = now_ms();
	r = rsys(SYS_recvfrom, a, buf, sizeof(buf), 0, NULL, NULL);
	printf("recv = %s, waited >= 190 ms %s\n", result(r), now_ms() - t0 >= 190 ? "yes" : "no");
	handle(SIGALRM, SA_RESTART);
	handled = 0;
	alarm_ms(50);
	t0 = now_ms();
	r = rsys(SYS_recvfrom, a, buf, sizeof(buf), 0, NULL, NULL);
	printf("recv, SA_RESTART handler at 50 ms = %s, handler ran %d, before the timeout %s\n",
	       result(r), handled, now_ms() - t0 < 190 ? "yes" : "no");
	l = listener(AF_INET, &ss, &len, 1);
	set_timeo(l, SO_RCVTIMEO, 100);
	t0 = now_ms();
	r = rsys(SYS_accept4, l, NULL, NULL, 0);
	printf("accept = %s, waited >= 90 ms %s\n", result(r), now_ms() - t0 >= 90 ? "yes" : "no");
	set_timeo(a, SO_RCVTIMEO, 0);
	tlen = sizeof(tv);
	getsockopt(a, SOL_SOCKET, SO_RCVTIMEO, &tv, &tlen);
	printf("SO_RCVTIMEO = %ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
	close(l);
	close(a);
	close(b);
}

static void case_restart(void)
{
	char buf[16];
	long r;
	int a, b;
	pid_t pid;

	tcp_pair(AF_INET, &a, &b);
	handle(SIGALRM, SA_RESTART);
	handled = 0;
	pid = send_later(b, 500, "later");
	alarm_ms(100);
	r = rsys(SYS_recvfrom, a, buf, sizeof(buf), 0, NULL, NULL);
	printf("recv, SA_RESTART handler at 100 ms, data at 500 ms = %s, handler ran %d: %.*s\n",
	       result(r), handled, (int)(r > 0 ? r : 0), buf);
	wait_child(pid);
	handle(SIGALRM, 0);
	handled = 0;
	alarm_ms(100);
	r = rsys(SYS_recvfrom, a, buf, sizeof(buf), 0, NULL, NULL);
	printf("recv, handler without SA_RESTART = %s, handler ran %d\n", result(r), handled);
	/* MSG_WAITALL across a signal: what came before it is returned. */
	handle(SIGALRM, SA_RESTART);
	handled = 0;
	pid = send_later(a, 100, "back");
	alarm_ms(500);
	r = rsys(SYS_recvfrom, b, buf, sizeof(buf), MSG_WAITALL, NULL, NULL);
	printf("recv MSG_WAITALL 16, 4 bytes at 100 ms, SA_RESTART handler at 500 ms = %s, "
	       "handler ran %d\n", result(r), handled);
	wait_child(pid);
	/* Restarted before any data, then 4 bytes and the end of the stream. */
	handled = 0;
	pid = send_later(a, 500, "more");
	alarm_ms(100);
	r = rsys(SYS_recvfrom, b, buf, sizeof(buf), MSG_WAITALL, NULL, NULL);
	printf("recv MSG_WAITALL 16, SA_RESTART handler at 100 ms, 4 bytes and the end at "
	       "500 ms = %s, handler ran %d\n", result(r), handled);
	wait_child(pid);
	close(a);
	close(b);
}

/* A child that stops and continues its parent. */
static pid_t stop_cont_later(int ms)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		sleep_ms(ms);
		kill(parent, SIGSTOP);
		sleep_ms(100);
		kill(parent, SIGCONT);
		_exit(0);
	}
	return pid;
}

static void case_stop(void)
{
	char buf[16];
	long r;
	int a, b;
	pid_t pid, sender;

	tcp_pair(AF_INET, &a, &b);
	set_timeo(a, SO_RCVTIMEO, 3000);
	pid = stop_cont_later(100);
	r = rsys(SYS_recvfrom, a, buf, sizeof(buf), 0, NULL, NULL);
	printf("recv with SO_RCVTIMEO, stopped and continued = %s\n", result(r));
	wait_child(pid);
	set_timeo(a, SO_RCVTIMEO, 0);
	pid = stop_cont_later(100);
	sender = send_later(b, 700, "after");
	r = rsys(SYS_recvfrom, a, buf, sizeof(buf), 0, NULL, NULL);
	printf("recv without a timeout, stopped and continued = %s: %.*s\n", result(r),
	       (int)(r > 0 ? r : 0), buf);
	wait_child(pid);
	wait_child(sender);
	close(a);
	close(b);
}

/* The listener's backlog (0: one connection) is full: a connect's SYN is
 * dropped, and the connect stays in progress until the first connection
 * is accepted and the SYN is sent again (after a second). */
static void case_connect(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	struct pollfd p;
	double t0;
	long r;
	int l, first, c, s;
	pid_t pid;

	l = listener(AF_INET, &ss, &len, 0);
	first = connected_to(&ss, len);

	c = xsocket(AF_INET, SOCK_STREAM);
	set_timeo(c, SO_SNDTIMEO, 200);
	t0 = now_ms();
	r = rsys(SYS_connect, c, &ss, len);
	printf("connect with SO_SNDTIMEO, backlog full = %s, waited >= 190 ms %s\n", result(r),
	       now_ms() - t0 >= 190 ? "yes" : "no");
	say("connect again, times out again", rsys(SYS_connect, c, &ss, len));
	close(c);

	c = xsocket(AF_INET, SOCK_STREAM);
	handle(SIGALRM, 0);
	handled = 0;
	alarm_ms(150);
	r = rsys(SYS_connect, c, &ss, len);
	printf("connect, handler without SA_RESTART = %s, handler ran %d\n", result(r), handled);
	fcntl(c, F_SETFL, O_NONBLOCK);
	say("connect again, non-blocking", rsys(SYS_connect, c, &ss, len));
	s = accepted(l);
	p = (struct pollfd){ .fd = c, .events = POLLOUT };
	r = poll(&p, 1, 8000);
	printf("poll = %ld: %s\n", r, pollbits(p.revents));
	say("connect again", rsys(SYS_connect, c, &ss, len));
	say("connect again", rsys(SYS_connect, c, &ss, len));
	close(s);
	close(c);
	close(first);
	s = accepted(l);	/* c's connection */
	close(s);

	/* The queue is empty again: fill it, then a blocking connect that an
	 * SA_RESTART handler interrupts, while a child accepts later. */
	first = connected_to(&ss, len);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		sleep_ms(300);
		close(accepted(l));
		close(accepted(l));
		_exit(0);
	}
	c = xsocket(AF_INET, SOCK_STREAM);
	handle(SIGALRM, SA_RESTART);
	handled = 0;
	alarm_ms(100);
	r = rsys(SYS_connect, c, &ss, len);
	printf("connect, SA_RESTART handler, accepted later = %s, handler ran %d\n", result(r),
	       handled);
	say("connect again", rsys(SYS_connect, c, &ss, len));
	wait_child(pid);
	close(c);
	close(first);
	close(l);
}

static void case_partial(void)
{
	static char big[16 << 20];
	int a, b, sndbuf = 65536;
	double t0;
	long r;

	tcp_pair(AF_INET, &a, &b);
	setsockopt(a, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	r = rsys(SYS_sendto, a, big, sizeof(big), MSG_DONTWAIT, NULL, 0);
	printf("send 16 MiB, MSG_DONTWAIT: some but not all %s\n",
	       r > 0 && r < (long)sizeof(big) ? "yes" : result(r));
	r = rsys(SYS_sendto, a, big, sizeof(big), MSG_DONTWAIT, NULL, 0);
	printf("send again, MSG_DONTWAIT: EAGAIN, or less than all %s\n",
	       r == -EAGAIN || (r > 0 && r < (long)sizeof(big)) ? "yes" : result(r));
	close(a);
	close(b);

	tcp_pair(AF_INET, &a, &b);
	set_timeo(a, SO_SNDTIMEO, 200);
	t0 = now_ms();
	r = rsys(SYS_sendto, a, big, sizeof(big), 0, NULL, 0);
	printf("send 16 MiB, SO_SNDTIMEO: some but not all %s, waited >= 190 ms %s\n",
	       r > 0 && r < (long)sizeof(big) ? "yes" : result(r), now_ms() - t0 >= 190 ? "yes" : "no");
	r = rsys(SYS_sendto, a, big, sizeof(big), 0, NULL, 0);
	printf("send again, SO_SNDTIMEO: EAGAIN, or less than all %s\n",
	       r == -EAGAIN || (r > 0 && r < (long)sizeof(big)) ? "yes" : result(r));
	close(a);
	close(b);

	tcp_pair(AF_INET, &a, &b);
	handle(SIGALRM, SA_RESTART);
	handled = 0;
	alarm_ms(100);
	r = rsys(SYS_sendto, a, big, sizeof(big), 0, NULL, 0);
	printf("send 16 MiB, SA_RESTART handler: some but not all %s, handler ran %d\n",
	       r > 0 && r < (long)sizeof(big) ? "yes" : result(r), handled);
	close(a);
	close(b);

	tcp_pair(AF_INET, &a, &b);
	handle(SIGPIPE, 0);
	handled = 0;
	shutdown(a, SHUT_WR);
	r = rsys(SYS_sendto, a, "x", 1, 0, NULL, 0);
	printf("send after shutdown = %s, SIGPIPE %d\n", result(r), handled);
	handled = 0;
	r = rsys(SYS_sendto, a, "x", 1, MSG_NOSIGNAL, NULL, 0);
	printf("send after shutdown, MSG_NOSIGNAL = %s, SIGPIPE %d\n", result(r), handled);
	close(a);
	close(b);
}

static void case_linger(void)
{
	static char big[4 << 20];
	struct linger lg = { 1, 5 };
	long sent = 0, r, set;
	double t0, took;
	int a, b, ready[2];
	char c;
	pid_t pid;

	tcp_pair(AF_INET, &a, &b);
	if (pipe(ready))
		die("pipe");
	while ((r = rsys(SYS_sendto, a, big, sizeof(big), MSG_DONTWAIT, NULL, 0)) > 0)
		sent += r;
	printf("filled the connection: %s\n", sent > 0 && r == -EAGAIN ? "yes" : result(r));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		long got = 0;

		close(a);	/* so that the parent's close is the last */
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		sleep_ms(300);
		while ((r = recv(b, big, sizeof(big), 0)) > 0)
			got += r;
		printf("the peer got every byte %s, then %s\n", got == sent ? "yes" : "no",
		       r == 0 ? "the end" : result(-errno));
		_exit(0);
	}
	close(b);
	if (read(ready[0], &c, 1) != 1)
		die("the child did not start");
	set = rsys(SYS_setsockopt, a, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	t0 = now_ms();
	r = rsys(SYS_close, a);
	took = now_ms() - t0;
	/* The child's line first: natively close may return before or after
	 * the child has read everything. */
	wait_child(pid);
	say("set SO_LINGER {1, 5}", set);
	say("close", r);
	printf("close returned within 2 s %s\n", took < 2000 ? "yes" : "no");
}

static void show_opt(int fd, int level, int opt, const char *name)
{
	int v = -1;
	socklen_t l = sizeof(v);
	long r = rsys(SYS_getsockopt, fd, level, opt, &v, &l);

	if (r)
		say(name, r);
	else
		printf("%s = %d\n", name, v);
}

static void set_opt(int fd, int level, int opt, int v, const char *name)
{
	char what[64];

	snprintf(what, sizeof(what), "set %s %d", name, v);
	say(what, rsys(SYS_setsockopt, fd, level, opt, &v, sizeof(v)));
}

static void case_options(void)
{
	struct sockaddr_storage ss;
	socklen_t len, ll;
	struct linger lg = { 1, 5 };
	int t = xsocket(AF_INET, SOCK_STREAM), u = xsocket(AF_INET, SOCK_DGRAM);
	int t6 = xsocket(AF_INET6, SOCK_STREAM), l, a, b, n;

	show_opt(t, SOL_SOCKET, SO_TYPE, "SO_TYPE tcp");
	show_opt(u, SOL_SOCKET, SO_TYPE, "SO_TYPE udp");
	show_opt(t, SOL_SOCKET, SO_DOMAIN, "SO_DOMAIN tcp");
	show_opt(t6, SOL_SOCKET, SO_DOMAIN, "SO_DOMAIN tcp6");
	show_opt(t, SOL_SOCKET, SO_PROTOCOL, "SO_PROTOCOL tcp");
	show_opt(u, SOL_SOCKET, SO_PROTOCOL, "SO_PROTOCOL udp");
	show_opt(t, IPPROTO_TCP, TCP_NODELAY, "TCP_NODELAY");
	set_opt(t, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
	show_opt(t, IPPROTO_TCP, TCP_NODELAY, "TCP_NODELAY");
	set_opt(t, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
	show_opt(t, SOL_SOCKET, SO_REUSEADDR, "SO_REUSEADDR");
	set_opt(t, SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT");
	show_opt(t, SOL_SOCKET, SO_REUSEPORT, "SO_REUSEPORT");
	set_opt(t, SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE");
	show_opt(t, SOL_SOCKET, SO_KEEPALIVE, "SO_KEEPALIVE");
	set_opt(t, IPPROTO_TCP, TCP_KEEPIDLE, 77, "TCP_KEEPIDLE");
	show_opt(t, IPPROTO_TCP, TCP_KEEPIDLE, "TCP_KEEPIDLE");
	set_opt(u, SOL_SOCKET, SO_BROADCAST, 1, "SO_BROADCAST");
	show_opt(u, SOL_SOCKET, SO_BROADCAST, "SO_BROADCAST");
	set_opt(t, IPPROTO_IP, IP_TOS, 0x10, "IP_TOS");
	show_opt(t, IPPROTO_IP, IP_TOS, "IP_TOS");
	set_opt(t6, IPPROTO_IPV6, IPV6_V6ONLY, 1, "IPV6_V6ONLY");
	show_opt(t6, IPPROTO_IPV6, IPV6_V6ONLY, "IPV6_V6ONLY");
	say("set SO_LINGER {1, 5}", rsys(SYS_setsockopt, t, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	lg = (struct linger){ 0, 0 };
	ll = sizeof(lg);
	rsys(SYS_getsockopt, t, SOL_SOCKET, SO_LINGER, &lg, &ll);
	printf("SO_LINGER = {%d, %d} len %d\n", lg.l_onoff, lg.l_linger, (int)ll);
	show_opt(t, SOL_SOCKET, SO_ERROR, "SO_ERROR");
	say("setsockopt(SO_TYPE)", rsys(SYS_setsockopt, t, SOL_SOCKET, SO_TYPE, &n, sizeof(n)));
	say("setsockopt(level 6, option 9999)",
	    rsys(SYS_setsockopt, t, IPPROTO_TCP, 9999, &n, sizeof(n)));
	l = listener(AF_INET, &ss, &len, 1);
	show_opt(l, SOL_SOCKET, SO_ACCEPTCONN, "SO_ACCEPTCONN listener");
	show_opt(t, SOL_SOCKET, SO_ACCEPTCONN, "SO_ACCEPTCONN unconnected");
	close(l);
	tcp_pair(AF_INET, &a, &b);
	send(b, "12345", 5, 0);
	n = -1;
	for (l = 0; l < 500 && n != 5; l++) {
		ioctl(a, FIONREAD, &n);
		if (n != 5)
			sleep_ms(1);
	}
	printf("FIONREAD = %d\n", n);
	close(a);
	close(b);
	close(t);
	close(t6);
	close(u);
}

static void case_families(void)
{
	long r;

	r = rsys(SYS_socket, AF_INET, SOCK_STREAM, 0);
	say("socket(AF_INET, SOCK_STREAM)", r < 0 ? r : 0);
	r = rsys(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	say("socket(AF_INET, SOCK_DGRAM)", r < 0 ? r : 0);
	r = rsys(SYS_socket, AF_INET6, SOCK_STREAM, 0);
	say("socket(AF_INET6, SOCK_STREAM)", r < 0 ? r : 0);
	r = rsys(SYS_socket, AF_INET, SOCK_SEQPACKET, 0);
	say("socket(AF_INET, SOCK_SEQPACKET)", r < 0 ? r : 0);
	r = rsys(SYS_socket, AF_INET, SOCK_STREAM, IPPROTO_UDP);
	say("socket(AF_INET, SOCK_STREAM, IPPROTO_UDP)", r < 0 ? r : 0);
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(c, "tcp"))
		exchange(AF_INET);
	else if (!strcmp(c, "tcp6"))
		exchange(AF_INET6);
	else if (!strcmp(c, "udp"))
		case_udp();
	else if (!strcmp(c, "nonblock"))
		case_nonblock();
	else if (!strcmp(c, "refused"))
		case_refused();
	else if (!strcmp(c, "rcvtimeo"))
		case_rcvtimeo();
	else if (!strcmp(c, "restart"))
		case_restart();
	else if (!strcmp(c, "stop"))
		case_stop();
	else if (!strcmp(c, "connect"))
		case_connect();
	else if (!strcmp(c, "partial"))
		case_partial();
	else if (!strcmp(c, "linger"))
		case_linger();
	else if (!strcmp(c, "options"))
		case_options();
	else if (!strcmp(c, "families"))
		case_families();
	else
		die("usage: inetsock tcp|tcp6|udp|nonblock|refused|rcvtimeo|restart|stop|"
		    "connect|partial|linger|options|families");
	return 0;
}
