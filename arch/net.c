/*
 * arch/net.c: host sockets, for kernel/net/af_inet_host.c (AF_INET and
 * AF_INET6 through the host, as gVisor's host networking does).
 *
 * Every host socket made here is non-blocking and close-on-exec, and has
 * O_ASYNC set with umk as its owner: when it becomes readable, writable
 * after being full, connected, or fails, the host sends umk SIGIO, which is
 * the interrupt IRQ_NET (arch/trap.c records it with IRQ_CONSOLE: one host
 * signal, two devices). So no call here ever blocks umk's host thread; the
 * kernel decides every sleep and wake-up itself, and asks the host only
 * "do it now or say EAGAIN" (MSG_DONTWAIT on every send and receive).
 *
 * Addresses and options cross the wall as they are: the kernel uses Linux's
 * uapi layouts (sockaddr_in, sockaddr_in6, struct linger, ints), which are
 * the host's on x86-64. Errors come back as -errno with Linux's values.
 * The host ignores SIGPIPE for umk (arch/trap.c), so a send on a closed
 * connection is -EPIPE here; raising SIGPIPE for the task is the kernel's.
 */
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <umk/os.h>

_Static_assert(sizeof(struct pollfd) == sizeof(struct os_pollfd), "struct os_pollfd");
_Static_assert(offsetof(struct pollfd, revents) == offsetof(struct os_pollfd, revents),
	       "struct os_pollfd revents");

/* The flags a program may give a send or receive that mean the same to
 * the host: MSG_OOB, MSG_PEEK, MSG_DONTROUTE, MSG_TRUNC, MSG_EOR,
 * MSG_CONFIRM, MSG_NOSIGNAL, MSG_MORE, MSG_ERRQUEUE. MSG_WAITALL and
 * MSG_DONTWAIT are the kernel's (it waits, the host never does);
 * MSG_CMSG_CLOEXEC has no meaning without SCM_RIGHTS. */
#define HOST_MSG_FLAGS                                                                   \
	(MSG_OOB | MSG_PEEK | MSG_DONTROUTE | MSG_TRUNC | MSG_EOR | MSG_CONFIRM |          \
	 MSG_NOSIGNAL | MSG_MORE | MSG_ERRQUEUE)

/* The calls a socket's traffic makes (send, receive, poll, accept,
 * connect) are __tls_free and raw host calls (host.h): no glibc, no errno,
 * so that without FSGSBASE they cost no switch to glibc's FS base and back
 * (docs/design.md, "The FS base"); each is one host call per try. */
static inline __tls_free long host_call(long nr, unsigned long a1, unsigned long a2,
					unsigned long a3, unsigned long a4)
{
	long r;

	do
		r = host_syscall4(nr, a1, a2, a3, a4);
	while (r == -EINTR);
	return r;
}

/* fd's readiness raises SIGIO for umk; fd is non-blocking. */
static __tls_free int async_owner(int fd)
{
	long fl = host_call(SYS_fcntl, fd, F_GETFL, 0, 0), r;

	if (fl < 0)
		return (int)fl;
	r = host_call(SYS_fcntl, fd, F_SETOWN, host_syscall2(SYS_getpid, 0, 0), 0);
	if (!r)
		r = host_call(SYS_fcntl, fd, F_SETFL, fl | O_ASYNC | O_NONBLOCK, 0);
	return (int)r;
}

/* A new host socket, or one accept gave (fd, or -errno): set up, or
 * closed on failure. */
static __tls_free int host_socket_ready(long fd)
{
	int err;

	if (fd < 0)
		return (int)fd;
	err = async_owner((int)fd);
	if (err) {
		host_syscall2(SYS_close, fd, 0);
		return err;
	}
	return (int)fd;
}

int os_socket(int family, int type, int protocol)
{
	return host_socket_ready(
		host_call(SYS_socket, family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol, 0));
}

int __tls_free os_accept(int fd)
{
	return host_socket_ready(host_call(SYS_accept4, fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC));
}

int os_bind(int fd, const void *addr, int len)
{
	return bind(fd, addr, (socklen_t)len) ? -errno : 0;
}

int os_listen(int fd, int backlog)
{
	return listen(fd, backlog) ? -errno : 0;
}

/* On a non-blocking socket the host never waits: -EINPROGRESS the first
 * time, -EALREADY while in progress, then 0 (once) or the error, as
 * Linux's __inet_stream_connect answers the same calls. */
int __tls_free os_connect(int fd, const void *addr, int len)
{
	return (int)host_call(SYS_connect, fd, (unsigned long)addr, len, 0);
}

int os_getname(int fd, void *addr, int *len, bool peer)
{
	socklen_t l = (socklen_t)*len;
	int r = peer ? getpeername(fd, addr, &l) : getsockname(fd, addr, &l);

	if (r)
		return -errno;
	*len = (int)l;
	return 0;
}

int os_shutdown(int fd, int how)
{
	return shutdown(fd, how) ? -errno : 0;
}

int os_setsockopt(int fd, int level, int name, const void *val, unsigned int len)
{
	return setsockopt(fd, level, name, val, len) ? -errno : 0;
}

int os_getsockopt(int fd, int level, int name, void *val, int *len)
{
	socklen_t l = (socklen_t)*len;

	if (getsockopt(fd, level, name, val, &l))
		return -errno;
	*len = (int)l;
	return 0;
}

/* One host sendmsg or recvmsg of m's one buffer, never waiting. */
static __tls_free ssize_t host_msg(int fd, struct os_msg *m, int flags, bool out)
{
	struct iovec iov = { .iov_base = m->buf, .iov_len = m->len };
	struct msghdr h = {
		.msg_name = m->name,
		.msg_namelen = (socklen_t)m->namelen,
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = m->control,
		.msg_controllen = m->controllen,
	};
	long r;

	flags = (flags & HOST_MSG_FLAGS) | MSG_DONTWAIT;
	r = host_call(out ? SYS_sendmsg : SYS_recvmsg, fd, (unsigned long)&h, flags, 0);
	if (r >= 0 && !out) {
		m->namelen = (int)h.msg_namelen;
		m->controllen = h.msg_controllen;
		m->flags = h.msg_flags;
	}
	return r;
}

ssize_t __tls_free os_sendmsg(int fd, struct os_msg *m, int flags)
{
	return host_msg(fd, m, flags, true);
}

ssize_t __tls_free os_recvmsg(int fd, struct os_msg *m, int flags)
{
	return host_msg(fd, m, flags, false);
}

int __tls_free os_poll_many(struct os_pollfd *fds, unsigned int n)
{
	return (int)host_call(SYS_poll, (unsigned long)fds, n, 0, 0);
}

int os_sock_ioctl(int fd, unsigned int cmd, int *val)
{
	return ioctl(fd, cmd, val) ? -errno : 0;
}
