/*
 * kernel/net/af_inet_host.c: AF_INET and AF_INET6, TCP and UDP, through
 * the host, as gVisor's host networking does (where Linux has
 * net/ipv4/af_inet.c and a whole TCP/IP stack, umk has the host's).
 *
 * Each socket owns one host socket (arch/net.c), non-blocking, whose
 * readiness is an interrupt: host SIGIO, replayed as IRQ_NET, runs
 * inet_host_interrupt(), which polls the host sockets that have waiters
 * and wakes each socket's queue with wake_up_poll(wq, events ready). Every
 * call asks the host "now or EAGAIN"; a blocking one that gets EAGAIN
 * sleeps interruptibly on sock->wq, so umk decides every sleep, wake-up
 * and restart as net/ipv4 does:
 *  - a signal ends a wait with sock_intr_errno(): -ERESTARTSYS (restarted
 *    under SA_RESTART or when no handler runs), or -EINTR when the socket
 *    has a timeout in that direction, even for a stop and continue;
 *  - SO_RCVTIMEO and SO_SNDTIMEO are umk's (socket.c keeps them; the host
 *    socket has none): a wait that reaches one returns -EAGAIN, or the
 *    bytes moved so far;
 *  - a stream send sends everything, returning the bytes sent when a
 *    signal or the timeout ends it part way, as tcp_sendmsg does;
 *  - connect (__inet_stream_connect): a non-blocking one is -EINPROGRESS,
 *    then -EALREADY while in progress, then 0 once and -EISCONN after;
 *    a blocking one interrupted by a signal goes on in the background,
 *    and connect again waits for it (or, non-blocking, says -EALREADY).
 *    The host socket keeps that state machine; umk only waits.
 *
 * The host thread never waits in a host call. Data crosses through one
 * kernel buffer (inet_buf): the host never touches user memory.
 *
 * What wakes a sleeper: the host sends SIGIO when data or a connection
 * arrives, a connection completes or fails, or room comes free on a
 * socket that was found full (by a send that said EAGAIN, or a poll:
 * both arm it on the host). The host's SIGIO does not say which socket,
 * and shutdown by this side raises none: inet_host_interrupt polls every
 * host socket that has a waiter, and shutdown wakes the socket's queue
 * itself.
 * Departures from Linux: docs/linux-differences.md, "Sockets through the
 * host".
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/list.h>
#include <umk/net.h>
#include <umk/os.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/sched/signal.h>
#include <umk/timer.h>
#include <umk/uaccess.h>
#include <umk/uapi/eventpoll.h>
#include <umk/uapi/socket.h>

/* Linux's values (include/uapi/asm-generic/socket.h, include/uapi/linux/in.h,
 * tcp.h, sockios.h) that include/umk/uapi/socket.h does without. */
#define SO_ATTACH_FILTER 26
#define SO_DETACH_FILTER 27
#define SO_LOCK_FILTER 44
#define SO_ATTACH_BPF 50
#define SO_ATTACH_REUSEPORT_CBPF 51
#define SO_ATTACH_REUSEPORT_EBPF 52
#define IPPROTO_IP 0
#define IPPROTO_TCP 6
#define IPPROTO_IPV6 41
#define TCP_ZEROCOPY_RECEIVE 35
#define SIOCINQ 0x541B		/* FIONREAD */
#define SIOCOUTQ 0x5411		/* TIOCOUTQ */
#define SIOCOUTQNSD 0x894B

struct inet_host_sock {
	struct socket *sock;
	int fd;				/* the host socket */
	int family;
	struct list_head node;		/* on inet_socks */
};

/* Every socket of the family, for inet_host_interrupt. */
static LIST_HEAD(inet_socks);

/* The room of an address buffer. */
#define INET_ADDR_MAX ((int)sizeof(struct sockaddr_storage))

/* The bounce buffers between the host and user memory. Used only between
 * a host call and the copy next to it; neither sleeps, so no other task
 * uses them meanwhile. inet_buf is larger than any UDP datagram. */
#define INET_BUF_SIZE (128 * 1024)
static char inet_buf[INET_BUF_SIZE];
#define INET_CONTROL_MAX 4096
static char inet_control[INET_CONTROL_MAX] __attribute__((aligned(8)));

/* Everything a socket can report, asked of the host. */
#define INET_POLL_EVENTS                                                                  \
	(POLLIN | POLLPRI | POLLOUT | POLLRDNORM | POLLRDBAND | POLLWRNORM | POLLWRBAND |    \
	 EPOLLRDHUP)

static inline struct inet_host_sock *inet_sk(struct socket *sock)
{
	return sock->sk;
}

/* The events ready on the host socket now (POLLERR and POLLHUP always). */
static __poll_t host_events(struct inet_host_sock *sk)
{
	struct os_pollfd p = { .fd = sk->fd, .events = INET_POLL_EVENTS };

	if (os_poll_many(&p, 1) < 0)
		return POLLERR;
	return (unsigned short)p.revents;
}

/* IRQ_NET: some host socket's readiness changed, which the host does not
 * say. Poll every one that has a waiter (a sleeping call, a poll, select
 * or epoll entry) in one host call and wake each with what is ready. */
void inet_host_interrupt(void)
{
	static struct os_pollfd *fds;
	static struct inet_host_sock **socks;
	static size_t fds_cap, socks_cap;
	struct inet_host_sock *sk;
	unsigned int n = 0, i;

	list_for_each_entry(sk, &inet_socks, node) {
		if (!waitqueue_active(&sk->sock->wq))
			continue;
		/* kgrow is arch/'s (the allocator): only when full. */
		if (n == fds_cap) {
			fds = kgrow(fds, n, &fds_cap, sizeof(*fds));
			socks = kgrow(socks, n, &socks_cap, sizeof(*socks));
		}
		fds[n] = (struct os_pollfd){ .fd = sk->fd, .events = INET_POLL_EVENTS };
		socks[n++] = sk;
	}
	if (!n || os_poll_many(fds, n) <= 0)
		return;
	/* A wake-up runs no task and frees no socket: socks stays valid. */
	for (i = 0; i < n; i++)
		if (fds[i].revents)
			wake_up_poll(&socks[i]->sock->wq, (unsigned short)fds[i].revents);
}

/* ---- waiting ---- */

/* A sleeper woken only by the events it waits for (and errors, hangups
 * and plain wake_up's "look again"), as Linux's receiver_wake_function. */
struct inet_waiter {
	struct wait_queue_entry wait;
	__poll_t events;
};

static int inet_wake_function(struct wait_queue_entry *w, unsigned int mode, void *key)
{
	struct inet_waiter *iw = container_of(w, struct inet_waiter, wait);

	if (!(key_to_poll(key) & (iw->events | POLLERR | POLLHUP)))
		return 0;
	return default_wake_function(w, mode, key);
}

/* Wait for one of events on the host socket, after the host said EAGAIN
 * (or EINPROGRESS, EALREADY), for at most *timeo ns (what is left of the
 * call's sock_rcvtimeo or sock_sndtimeo; 0: a non-blocking call). Returns
 * sock_wait's answer: 0 to look again (a wake-up is a hint: the host may
 * still say EAGAIN), -EAGAIN when no time is left, sock_intr_errno
 * (sock_timeo) when a signal is pending.
 *
 * No wake-up is lost without a poll here: the host's EAGAIN armed the
 * SIGIO of the change waited for (a full send sets SOCK_NOSPACE for it),
 * and a SIGIO that came since is still pending, because interrupts are
 * replayed only on the way to user mode or in the idle task, both after
 * the schedule() below, by when we are queued. */
static int inet_wait(struct inet_host_sock *sk, __poll_t events, s64 *timeo, s64 sock_timeo)
{
	struct inet_waiter iw = {
		.wait = { .task = current, .func = inet_wake_function,
			  .entry = LIST_HEAD_INIT(iw.wait.entry) },
		.events = events,
	};
	int ret;

	if (!*timeo)
		return -EAGAIN;
	prepare_to_wait(&sk->sock->wq, &iw.wait, TASK_INTERRUPTIBLE);
	ret = sock_wait(timeo, sock_timeo);
	finish_wait(&sk->sock->wq, &iw.wait);
	return ret;
}

/* ---- the operations ---- */

static const struct proto_ops inet_host_ops, inet6_host_ops;

static void inet_attach(struct socket *sock, int family, int fd)
{
	struct inet_host_sock *sk = kmalloc(sizeof(*sk));

	sk->sock = sock;
	sk->fd = fd;
	sk->family = family;
	list_add_tail(&sk->node, &inet_socks);
	sock->sk = sk;
	sock->ops = family == AF_INET6 ? &inet6_host_ops : &inet_host_ops;
}

/* SO_LINGER's struct linger (include/linux/socket.h). */
struct linger {
	int l_onoff, l_linger;
};

/* A host close with SO_LINGER on and a time to linger waits until the data
 * is sent or the time is over, whatever O_NONBLOCK says (inet_release):
 * that wait would stop umk. Such a socket is closed without lingering, its
 * data still sent in the background, as Linux does when the time runs out.
 * A zero time (an abortive close, RST) never waits and stays. */
static int inet_release(struct socket *sock)
{
	struct inet_host_sock *sk = inet_sk(sock);
	struct linger lg;
	int len = sizeof(lg);

	if (!sk)
		return 0;
	list_del_init(&sk->node);
	if (sock->type == SOCK_STREAM &&
	    !os_getsockopt(sk->fd, SOL_SOCKET, SO_LINGER, &lg, &len) && lg.l_onoff &&
	    lg.l_linger > 0) {
		lg = (struct linger){ 0, 0 };
		os_setsockopt(sk->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	}
	os_close(sk->fd);
	kfree(sk);
	sock->sk = NULL;
	return 0;
}

static int inet_bind(struct socket *sock, struct sockaddr *addr, int addrlen)
{
	return os_bind(inet_sk(sock)->fd, addr, addrlen);
}

static int inet_listen(struct socket *sock, int backlog)
{
	return os_listen(inet_sk(sock)->fd, backlog);
}

/* __inet_stream_connect's answers come from the host socket, which keeps
 * the state; umk waits where a blocking Linux connect would, and connects
 * again when the host says the connection is made or failed, which gives
 * its result. A wait that times out returns what the first attempt said
 * (-EINPROGRESS, or -EALREADY when it was in progress already), as Linux
 * does; one a signal ends leaves the connection going on. */
static int inet_connect(struct socket *sock, struct sockaddr *addr, int addrlen, int flags)
{
	struct inet_host_sock *sk = inet_sk(sock);
	s64 timeo = sock_sndtimeo(sock, flags & O_NONBLOCK);
	int err, r;

	err = os_connect(sk->fd, addr, addrlen);
	if (err == -EINPROGRESS || err == -EALREADY) {
		sock->state = SS_CONNECTING;
		for (;;) {
			r = inet_wait(sk, POLLOUT, &timeo, sock->sndtimeo_ns);
			if (r == -EAGAIN)
				break;		/* non-blocking, or timed out: err */
			if (r) {
				err = r;	/* a signal */
				break;
			}
			r = os_connect(sk->fd, addr, addrlen);
			if (r != -EALREADY) {
				err = r;
				break;
			}
		}
	}
	if (!err && addr->sa_family == AF_UNSPEC)
		sock->state = SS_UNCONNECTED;	/* a disconnect */
	else if (!err || err == -EISCONN)
		sock->state = SS_CONNECTED;
	else if (err != -EINPROGRESS && err != -EALREADY && err != -ERESTARTSYS && err != -EINTR)
		sock->state = SS_UNCONNECTED;
	return err;
}

/* inet_csk_accept: SO_RCVTIMEO bounds the wait. */
static int inet_accept(struct socket *sock, struct socket *newsock, int flags)
{
	struct inet_host_sock *sk = inet_sk(sock);
	s64 timeo = sock_rcvtimeo(sock, flags & O_NONBLOCK);
	int fd;

	for (;;) {
		fd = os_accept(sk->fd);
		if (fd != -EAGAIN)
			break;
		fd = inet_wait(sk, POLLIN, &timeo, sock->rcvtimeo_ns);
		if (fd)
			break;
	}
	if (fd < 0)
		return fd;
	inet_attach(newsock, sk->family, fd);
	newsock->state = SS_CONNECTED;
	return 0;
}

static int inet_getname(struct socket *sock, struct sockaddr *addr, int peer)
{
	int len = INET_ADDR_MAX;
	int err = os_getname(inet_sk(sock)->fd, addr, &len, peer);

	return err ? err : len;
}

static __poll_t inet_poll(struct file *f, struct socket *sock, poll_table *pt)
{
	poll_wait(f, &sock->wq, pt);
	return host_events(inet_sk(sock));
}

static int inet_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	int val, err;

	switch (cmd) {
	case SIOCINQ:
	case SIOCOUTQ:
	case SIOCOUTQNSD:
	case SIOCATMARK:
		err = os_sock_ioctl(inet_sk(sock)->fd, cmd, &val);
		if (err)
			return err;
		return put_user(val, (int __user *)arg);
	}
	return -ENOIOCTLCMD;
}

/* Shutting down raises no SIGIO on the host: wake our sleepers, who find
 * the end of the stream or -EPIPE when they look. */
static int inet_shutdown(struct socket *sock, int how)
{
	int err = os_shutdown(inet_sk(sock)->fd, how);

	if (!err)
		wake_up(&sock->wq);
	return err;
}

/* Options the host must not see: socket filters (programs for the host
 * kernel), the netfilter tables and TCP_ZEROCOPY_RECEIVE, whose values
 * hold user pointers the host would follow. */
static bool option_passes(int level, int optname)
{
	switch (level) {
	case SOL_SOCKET:
		return optname != SO_ATTACH_FILTER && optname != SO_DETACH_FILTER &&
		       optname != SO_LOCK_FILTER && optname != SO_ATTACH_BPF &&
		       optname != SO_ATTACH_REUSEPORT_CBPF && optname != SO_ATTACH_REUSEPORT_EBPF;
	case IPPROTO_IP:
		return optname < 64;	/* IPT_SO_*, ARPT_SO_*, IP_VS: 64 and up */
	case IPPROTO_IPV6:
		return optname < 64 || optname > 69;	/* IP6T_SO_* */
	case IPPROTO_TCP:
		return optname != TCP_ZEROCOPY_RECEIVE;
	}
	return true;
}

/* SO_RCVTIMEO, SO_SNDTIMEO, SO_TYPE, SO_DOMAIN and SO_PROTOCOL are
 * socket.c's; the others are the host socket's. */
static int inet_setsockopt(struct socket *sock, int level, int optname, const void *optval,
			   unsigned int optlen)
{
	if (!option_passes(level, optname))
		return -ENOPROTOOPT;
	return os_setsockopt(inet_sk(sock)->fd, level, optname, optval, optlen);
}

static int inet_getsockopt(struct socket *sock, int level, int optname, void *optval,
			   int *optlen)
{
	if (!option_passes(level, optname))
		return -ENOPROTOOPT;
	return os_getsockopt(inet_sk(sock)->fd, level, optname, optval, optlen);
}

/* The host's control messages (IP_PKTINFO, timestamps, IP_RECVERR...)
 * to the program, one put_cmsg each, which truncates as Linux does. */
static int control_out(struct msghdr *m, size_t n)
{
	size_t off = 0;

	while (off + sizeof(struct cmsghdr) <= n) {
		struct cmsghdr *cm = (struct cmsghdr *)(inet_control + off);
		int err;

		if (cm->cmsg_len < sizeof(*cm) || cm->cmsg_len > n - off)
			break;
		err = put_cmsg(m, cm->cmsg_level, cm->cmsg_type,
			       (int)(cm->cmsg_len - CMSG_LEN(0)), (char *)cm + CMSG_LEN(0));
		if (err)
			return err;
		off += CMSG_ALIGN(cm->cmsg_len);
	}
	return 0;
}

/* A send: a stream sends all of it, waiting for room, and returns the
 * bytes sent when a signal, the timeout or an error ends it part way
 * (tcp_sendmsg); a datagram goes whole or not at all. Each piece is copied
 * from a copy of the iterator, which is then advanced by what the host
 * took, so a short host send loses and repeats nothing. The control data
 * (in the kernel: socket.c copied it) goes with the first piece. */
static int inet_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags)
{
	struct inet_host_sock *sk = inet_sk(sock);
	s64 timeo = sock_sndtimeo(sock, flags & MSG_DONTWAIT);
	bool stream = sock->type == SOCK_STREAM;
	size_t done = 0, clen = m->msg_controllen;
	int ret = 0;

	if (!stream && len > INET_BUF_SIZE)
		return -EMSGSIZE;
	if (clen && m->msg_control_is_user)
		panic("inet_sendmsg: control data still in user memory");
	do {
		struct iov_iter peek = m->msg_iter;
		size_t chunk = min(len - done, (size_t)INET_BUF_SIZE);
		struct os_msg hm = {
			.name = m->msg_namelen ? m->msg_name : NULL,
			.namelen = m->msg_namelen,
			.buf = inet_buf,
			.len = chunk,
			.control = clen ? (void *)m->msg_control : NULL,
			.controllen = clen,
		};
		ssize_t r;

		if (copy_from_iter(inet_buf, chunk, &peek) != chunk) {
			ret = -EFAULT;
			break;
		}
		r = os_sendmsg(sk->fd, &hm, flags);
		if (r > 0 || (r == 0 && chunk == 0)) {
			iov_iter_advance(&m->msg_iter, r);
			done += r;
			clen = 0;
			if (done < len)
				continue;
			break;
		}
		if (r != -EAGAIN) {
			ret = r;
			if (r == -EPIPE && stream && !(flags & MSG_NOSIGNAL))
				send_sig(SIGPIPE, current, 0);
			break;
		}
		ret = inet_wait(sk, POLLOUT, &timeo, sock->sndtimeo_ns);
	} while (!ret);
	return done ? (int)done : ret;
}

/* A receive: what is there, waiting for something when there is nothing;
 * with MSG_WAITALL a stream waits for all of len, returning less only at
 * the end of the stream, an error, a signal or the timeout (tcp_recvmsg).
 * A datagram's length is the real one with MSG_TRUNC, as the host says. */
static int inet_recvmsg(struct socket *sock, struct msghdr *m, size_t len, int flags)
{
	struct inet_host_sock *sk = inet_sk(sock);
	s64 timeo = sock_rcvtimeo(sock, flags & MSG_DONTWAIT);
	bool stream = sock->type == SOCK_STREAM;
	bool waitall = stream && (flags & (MSG_WAITALL | MSG_PEEK)) == MSG_WAITALL;
	size_t done = 0;
	int ret = 0;

	for (;;) {
		size_t chunk = min(len - done, (size_t)INET_BUF_SIZE);
		struct os_msg hm = {
			.name = done ? NULL : m->msg_name,
			.namelen = m->msg_name && !done ? INET_ADDR_MAX : 0,
			.buf = inet_buf,
			.len = chunk,
			.control = m->msg_control && !done ? inet_control : NULL,
			.controllen = m->msg_control && !done ? INET_CONTROL_MAX : 0,
		};
		ssize_t r = os_recvmsg(sk->fd, &hm, flags);
		size_t copy;

		if (r >= 0) {
			copy = min((size_t)r, chunk);
			if (copy_to_iter(inet_buf, copy, &m->msg_iter) != copy) {
				ret = -EFAULT;
				break;
			}
			if (!done) {
				if (m->msg_name)
					m->msg_namelen = hm.namelen;
				m->msg_flags |= hm.flags & (MSG_TRUNC | MSG_CTRUNC | MSG_OOB | MSG_EOR |
							     MSG_ERRQUEUE);
				ret = control_out(m, hm.controllen);
				if (ret)
					break;
			}
			done += stream ? copy : (size_t)r;
			if (!stream || !r || (flags & MSG_PEEK) || done == len)
				break;
			/* More than one host read fills a large buffer. */
			if (!waitall && (copy < chunk || !(host_events(sk) & POLLIN)))
				break;
			continue;
		}
		if (r != -EAGAIN) {
			ret = r;
			break;
		}
		if (done && !waitall)
			break;
		ret = inet_wait(sk, POLLIN, &timeo, sock->rcvtimeo_ns);
		if (ret)
			break;
	}
	return done ? (int)done : ret;
}

static int inet_show_fdinfo(struct socket *sock, char *buf, size_t size)
{
	return ksnprintf(buf, size, "host_fd:\t%d\n", inet_sk(sock)->fd);
}

#define INET_HOST_OPS(fam)                                                               \
	{                                                                                \
		.family = fam,                                                           \
		.release = inet_release,                                                 \
		.bind = inet_bind,                                                       \
		.connect = inet_connect,                                                 \
		.accept = inet_accept,                                                   \
		.getname = inet_getname,                                                 \
		.poll = inet_poll,                                                       \
		.ioctl = inet_ioctl,                                                     \
		.listen = inet_listen,                                                   \
		.shutdown = inet_shutdown,                                               \
		.setsockopt = inet_setsockopt,                                           \
		.getsockopt = inet_getsockopt,                                           \
		.sendmsg = inet_sendmsg,                                                 \
		.recvmsg = inet_recvmsg,                                                 \
		.show_fdinfo = inet_show_fdinfo,                                         \
	}

static const struct proto_ops inet_host_ops = INET_HOST_OPS(AF_INET);
static const struct proto_ops inet6_host_ops = INET_HOST_OPS(AF_INET6);

/* inet_create: TCP and UDP (and what else the host gives for SOCK_STREAM
 * and SOCK_DGRAM: ICMP echo sockets), the protocol checked by the host. */
static int inet_host_create(struct socket *sock, int protocol, int family)
{
	int fd, len;

	if (sock->type != SOCK_STREAM && sock->type != SOCK_DGRAM)
		return -ESOCKTNOSUPPORT;
	fd = os_socket(family, sock->type, protocol);
	if (fd < 0)
		return fd;
	inet_attach(sock, family, fd);
	sock->state = SS_UNCONNECTED;
	/* SO_PROTOCOL: the protocol the host chose for 0 (IPPROTO_TCP...). */
	len = sizeof(sock->protocol);
	if (os_getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &sock->protocol, &len))
		sock->protocol = protocol;
	return 0;
}

static int inet4_create(struct socket *sock, int protocol, int kern)
{
	return inet_host_create(sock, protocol, AF_INET);
}

static int inet6_create(struct socket *sock, int protocol, int kern)
{
	return inet_host_create(sock, protocol, AF_INET6);
}

static const struct net_proto_family inet_family_ops = {
	.family = AF_INET,
	.create = inet4_create,
};

static const struct net_proto_family inet6_family_ops = {
	.family = AF_INET6,
	.create = inet6_create,
};

/* start_kernel: the families, unless --net=none left them out (then
 * socket() answers EAFNOSUPPORT for them, as Linux without IPv4 does). */
void inet_host_init(bool enabled)
{
	if (!enabled)
		return;
	sock_register(&inet_family_ops);
	sock_register(&inet6_family_ops);
}
