/* arch/net.c outside umk: the host sockets af_inet_host.c is built on.
 * Checks that every host socket is non-blocking, close-on-exec and raises
 * SIGIO for this process (O_ASYNC, F_SETOWN), that no call ever waits
 * (accept, recv and a full send say EAGAIN; connect EINPROGRESS, then 0
 * once, then EISCONN), and that SIGIO comes for each change the kernel
 * sleeps on: a connection to accept, a connect completed, data, room after
 * a full send, a refused connect. A guard alarm turns a call that waits
 * into a failure. Prints "host_socket: N checks" and exits 0, or names
 * the first failed check and exits 1. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <umk/kernel.h>
#include <umk/os.h>

/* What arch/net.o needs of the rest of umk. */
void __cyg_profile_func_enter(void *fn, void *site) {}
void __cyg_profile_func_exit(void *fn, void *site) {}

static int checks;

static void check(const char *what, int ok)
{
	checks++;
	if (!ok) {
		printf("host_socket: FAILED: %s\n", what);
		exit(1);
	}
}

static void guard(int sig)
{
	(void)sig;
	static const char msg[] = "host_socket: FAILED: a host call waited\n";
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

/* A SIGIO within 2 s (SIGIO is blocked: taken with sigtimedwait). */
static int sigio_came(void)
{
	struct timespec ts = { 2, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	return sigtimedwait(&set, NULL, &ts) == SIGIO;
}

/* Drop SIGIOs already pending. */
static void sigio_flush(void)
{
	struct timespec ts = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	while (sigtimedwait(&set, NULL, &ts) == SIGIO)
		;
}

static int set_up(int fd)
{
	int fl = fcntl(fd, F_GETFL), fdfl = fcntl(fd, F_GETFD);

	return fl >= 0 && (fl & O_NONBLOCK) && (fl & O_ASYNC) && (fdfl & FD_CLOEXEC) &&
	       fcntl(fd, F_GETOWN) == getpid();
}

static int poll_now(int fd)
{
	struct os_pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

	return os_poll_many(&p, 1) < 0 ? -1 : p.revents;
}

int main(void)
{
	static char big[1 << 20];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in peer;
	char buf[64];
	struct os_msg m;
	sigset_t set;
	int l, c, s, len, one = 1, v;
	long sent, r;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, guard);
	alarm(20);

	l = os_socket(AF_INET, SOCK_STREAM, 0);
	check("os_socket", l >= 0);
	check("the socket is non-blocking, close-on-exec, O_ASYNC, owned by us", set_up(l));
	check("os_bind to port 0", os_bind(l, &a, sizeof(a)) == 0);
	len = sizeof(a);
	check("os_getname", os_getname(l, &a, &len, false) == 0 && len == sizeof(a) && a.sin_port);
	check("os_listen", os_listen(l, 4) == 0);
	check("os_accept with nothing pending is -EAGAIN", os_accept(l) == -EAGAIN);

	c = os_socket(AF_INET, SOCK_STREAM, 0);
	sigio_flush();
	check("os_connect is -EINPROGRESS", os_connect(c, &a, sizeof(a)) == -EINPROGRESS);
	check("SIGIO for the connection", sigio_came());
	s = os_accept(l);
	check("os_accept", s >= 0);
	check("the accepted socket is set up as os_socket's", set_up(s));
	check("the connect completed", poll_now(c) & POLLOUT);
	check("os_connect again is 0", os_connect(c, &a, sizeof(a)) == 0);
	check("and then -EISCONN", os_connect(c, &a, sizeof(a)) == -EISCONN);
	len = sizeof(peer);
	check("os_getname(peer)", os_getname(s, &peer, &len, true) == 0 &&
					  peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	check("os_setsockopt(TCP_NODELAY)",
	      os_setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) == 0);
	len = sizeof(v);
	v = 0;
	check("os_getsockopt(TCP_NODELAY)",
	      os_getsockopt(c, IPPROTO_TCP, TCP_NODELAY, &v, &len) == 0 && v == 1);

	memset(&m, 0, sizeof(m));
	m.buf = buf;
	m.len = sizeof(buf);
	check("os_recvmsg with nothing there is -EAGAIN", os_recvmsg(s, &m, 0) == -EAGAIN);
	sigio_flush();
	m = (struct os_msg){ .buf = "ping", .len = 4 };
	check("os_sendmsg", os_sendmsg(c, &m, 0) == 4);
	check("SIGIO for the data", sigio_came());
	check("os_poll_many says POLLIN", poll_now(s) & POLLIN);
	m = (struct os_msg){ .buf = buf, .len = sizeof(buf) };
	check("os_recvmsg", os_recvmsg(s, &m, 0) == 4 && !memcmp(buf, "ping", 4));

	/* Fill the connection: every send returns at once, the last EAGAIN. */
	sent = 0;
	for (;;) {
		m = (struct os_msg){ .buf = big, .len = sizeof(big) };
		r = os_sendmsg(c, &m, 0);
		if (r < 0)
			break;
		sent += r;
	}
	check("a full send is -EAGAIN", r == -EAGAIN && sent > 0);
	check("os_poll_many says no POLLOUT", !(poll_now(c) & POLLOUT));
	sigio_flush();
	while (sent > 0) {
		m = (struct os_msg){ .buf = big, .len = sizeof(big) };
		r = os_recvmsg(s, &m, 0);
		if (r <= 0)
			break;
		sent -= r;
	}
	check("the receiver took it all", sent == 0);
	check("SIGIO for the room", sigio_came());
	check("os_poll_many says POLLOUT", poll_now(c) & POLLOUT);

	check("os_shutdown(SHUT_WR)", os_shutdown(c, SHUT_WR) == 0);
	m = (struct os_msg){ .buf = "x", .len = 1 };
	check("a send after shutdown is -EPIPE", os_sendmsg(c, &m, 0) == -EPIPE);
	m = (struct os_msg){ .buf = buf, .len = sizeof(buf) };
	check("the peer reads the end of the stream", os_recvmsg(s, &m, 0) == 0);
	close(s);
	close(c);

	/* A refused connect: SIGIO, then the error from connect. */
	close(l);
	c = os_socket(AF_INET, SOCK_STREAM, 0);
	sigio_flush();
	r = os_connect(c, &a, sizeof(a));
	if (r == -EINPROGRESS) {
		check("SIGIO for the refusal", sigio_came());
		r = os_connect(c, &a, sizeof(a));
	}
	check("a connect to a closed port is -ECONNREFUSED", r == -ECONNREFUSED);
	close(c);

	/* Datagrams: the sender's address, MSG_TRUNC in the flags out. */
	c = os_socket(AF_INET, SOCK_DGRAM, 0);
	s = os_socket(AF_INET, SOCK_DGRAM, 0);
	check("a datagram socket is set up too", c >= 0 && set_up(c));
	a.sin_port = 0;
	len = sizeof(a);
	check("os_bind a datagram socket", os_bind(s, &a, sizeof(a)) == 0 &&
						   os_getname(s, &a, &len, false) == 0);
	sigio_flush();
	m = (struct os_msg){ .buf = "datagram", .len = 8, .name = &a, .namelen = sizeof(a) };
	check("os_sendmsg to an address", os_sendmsg(c, &m, 0) == 8);
	check("SIGIO for the datagram", sigio_came());
	memset(&peer, 0, sizeof(peer));
	m = (struct os_msg){ .buf = buf, .len = 4, .name = &peer, .namelen = sizeof(peer) };
	check("os_recvmsg of a datagram into 4 bytes", os_recvmsg(s, &m, 0) == 4);
	check("its address", m.namelen == sizeof(peer) && peer.sin_family == AF_INET &&
				     peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK) && peer.sin_port);
	check("MSG_TRUNC in its flags", m.flags & MSG_TRUNC);
	close(c);
	close(s);
	check("os_socket's errors are -errno", os_socket(AF_INET, SOCK_STREAM, IPPROTO_UDP) ==
						       -EPROTONOSUPPORT);
	printf("host_socket: %d checks\n", checks);
	return 0;
}
