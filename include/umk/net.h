/*
 * include/umk/net.h: the socket layer's interface between the socket calls
 * (kernel/net/socket.c, Linux's net/socket.c) and each address family
 * (kernel/net/af_unix.c for AF_UNIX, kernel/net/af_inet_host.c for
 * AF_INET and AF_INET6 through the host), as Linux's include/linux/net.h.
 *
 * A socket is a file (f_op: socket.c's socket_file_ops) whose private_data
 * is a struct socket; the family's create() fills in sock->ops and its own
 * state (sock->sk). socket.c copies addresses, messages and options
 * between the program and the kernel and calls sock->ops; a family never
 * sees a user pointer except through the msghdr's iov_iter and its
 * control buffer. Every wait a family does is on sock->wq, and every
 * change of readiness wakes it with wake_up_poll(), so poll, select and
 * epoll see sockets as they see pipes (include/umk/poll.h).
 */
#ifndef UMK_NET_H
#define UMK_NET_H

#include <umk/fs.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/uapi/socket.h>

/* Linux's values (include/linux/socket.h, include/linux/net.h). */
#define AF_UNSPEC	0
#define AF_UNIX		1
#define AF_INET		2
#define AF_INET6	10
#define AF_NETLINK	16
#define AF_MAX		46

#define SOCK_STREAM	1
#define SOCK_DGRAM	2
#define SOCK_RAW	3
#define SOCK_SEQPACKET	5
#define SOCK_TYPE_MASK	0xf
#define SOCK_CLOEXEC	02000000
#define SOCK_NONBLOCK	04000

typedef enum {
	SS_FREE = 0,		/* not allocated */
	SS_UNCONNECTED,		/* unconnected to any socket */
	SS_CONNECTING,		/* in process of connecting */
	SS_CONNECTED,		/* connected to socket */
	SS_DISCONNECTING	/* in process of disconnecting */
} socket_state;

/* A sock's state (include/net/tcp_states.h, as macros
 * for harness/gdb/umk/constants.py.in): AF_UNIX uses TCP_CLOSE,
 * TCP_LISTEN and TCP_ESTABLISHED; the gdb helpers name all of them, for
 * the host's TCP sockets too (harness/gdb/umk/sockets.py). */
#define TCP_ESTABLISHED		1
#define TCP_SYN_SENT		2
#define TCP_SYN_RECV		3
#define TCP_FIN_WAIT1		4
#define TCP_FIN_WAIT2		5
#define TCP_TIME_WAIT		6
#define TCP_CLOSE		7
#define TCP_CLOSE_WAIT		8
#define TCP_LAST_ACK		9
#define TCP_LISTEN		10
#define TCP_CLOSING		11
#define TCP_NEW_SYN_RECV	12

/* include/uapi/linux/sockios.h: at the urgent mark? (AF_UNIX stream, TCP) */
#define SIOCATMARK	0x8905

struct socket;
struct sockaddr;

/* A message in the kernel (include/linux/socket.h's msghdr): the name
 * copied in (sendmsg) or to copy out (recvmsg: msg_namelen set by the
 * family), the data as an iov_iter over the program's buffers, and the
 * control buffer. sendmsg's control is copied into kernel memory by
 * socket.c (msg_control_is_user false: a family reads it directly);
 * recvmsg's stays in user memory (msg_control_is_user true), where
 * put_cmsg writes. */
struct msghdr {
	void *msg_name;			/* kernel buffer, sizeof(struct sockaddr_storage) */
	int msg_namelen;
	struct iov_iter msg_iter;
	void __user *msg_control;
	size_t msg_controllen;		/* recvmsg: room left, as put_cmsg consumes it */
	unsigned int msg_flags;		/* recvmsg: flags returned (MSG_TRUNC...) */
	bool msg_control_is_user;
};

/* The family's operations on a socket (include/linux/net.h's proto_ops):
 * 0 / bytes or -errno, as the system call returns them. A blocking one
 * sleeps interruptibly on sock->wq and returns what Linux's returns when
 * a signal comes (-ERESTARTSYS, or sock_intr_errno()'s -EINTR when the
 * socket has a timeout). */
struct proto_ops {
	int family;
	int (*release)(struct socket *sock);
	int (*bind)(struct socket *sock, struct sockaddr *addr, int addrlen);
	int (*connect)(struct socket *sock, struct sockaddr *addr, int addrlen, int flags);
	int (*socketpair)(struct socket *a, struct socket *b);
	/* newsock is allocated by socket.c with sock's type and ops. */
	int (*accept)(struct socket *sock, struct socket *newsock, int flags);
	/* The address into addr: its length, or -errno. */
	int (*getname)(struct socket *sock, struct sockaddr *addr, int peer);
	__poll_t (*poll)(struct file *f, struct socket *sock, poll_table *pt);
	int (*ioctl)(struct socket *sock, unsigned int cmd, unsigned long arg);
	int (*listen)(struct socket *sock, int backlog);
	int (*shutdown)(struct socket *sock, int how);
	/* optval in kernel memory (socket.c copied it in / copies it out). */
	int (*setsockopt)(struct socket *sock, int level, int optname, const void *optval,
			  unsigned int optlen);
	int (*getsockopt)(struct socket *sock, int level, int optname, void *optval,
			  int *optlen);
	int (*sendmsg)(struct socket *sock, struct msghdr *m, size_t len, int flags);
	int (*recvmsg)(struct socket *sock, struct msghdr *m, size_t len, int flags);
	/* /proc/PID/fdinfo lines (optional). */
	int (*show_fdinfo)(struct socket *sock, char *buf, size_t size);
};

struct socket {
	socket_state state;
	short type;			/* SOCK_STREAM... */
	unsigned long flags;		/* SOCKWQ_ASYNC_NOSPACE */
	struct fasync_struct *fasync_list;	/* O_ASYNC files (sock_fasync) */
	struct file *file;		/* the file whose private_data this is */
	const struct proto_ops *ops;
	void *sk;			/* the family's own state */
	struct wait_queue_head wq;	/* every wait on the socket, and poll's */
	/* SO_RCVTIMEO, SO_SNDTIMEO in jiffies-free nanoseconds; 0: none. */
	s64 rcvtimeo_ns, sndtimeo_ns;
	/* socket()'s protocol argument; create may set the one it chose
	 * (SO_PROTOCOL). */
	int protocol;
	unsigned long ino;		/* on sockfs: "socket:[ino]", fstat */
};

/* A family's entry (include/linux/net.h's net_proto_family): create sets
 * sock->ops and sock->sk for a new socket of sock->type, or returns
 * -errno (-ESOCKTNOSUPPORT, -EPROTONOSUPPORT...). */
struct net_proto_family {
	int family;
	int (*create)(struct socket *sock, int protocol, int kern);
};

/* Boot (kernel/init.c): each family registers with sock_register. */
void af_unix_init(void);	/* af_unix.c */
/* af_unix.c: /proc/net/unix's text into buf: its length. */
int unix_proc_show(char *buf, size_t size);

/* socket.c */
int sock_register(const struct net_proto_family *ops);
/* The socket of f, or NULL when f is not a socket. */
struct socket *sock_from_file(struct file *f);
/* A new socket of family's type, without a file yet (accept's newsock). */
struct socket *sock_alloc(void);
void sock_release(struct socket *sock);
/* Signal-driven I/O (Linux's sock_wake_async): how a family tells the
 * O_ASYNC files of sock: SOCK_WAKE_WAITD data or a hangup, SOCK_WAKE_SPACE
 * room, but only after a send found none (SOCKWQ_ASYNC_NOSPACE in
 * sock->flags, which this clears), SOCK_WAKE_IO always, SOCK_WAKE_URG
 * urgent data (SIGURG). band: POLL_IN, POLL_OUT, POLL_HUP... */
enum { SOCK_WAKE_IO, SOCK_WAKE_WAITD, SOCK_WAKE_SPACE, SOCK_WAKE_URG };
#define SOCKWQ_ASYNC_NOSPACE 0x1UL
void sock_wake_async(struct socket *sock, int how, int band);

/* What a blocking socket call returns when a signal interrupts it after
 * waiting with timeout timeo_ns (Linux's sock_intr_errno): -EINTR when the
 * socket has a timeout, else -ERESTARTSYS. */
static inline int sock_intr_errno(s64 timeo_ns)
{
	return timeo_ns ? -EINTR : -ERESTARTSYS;
}

/* kernel/net/af_inet_host.c: AF_INET and AF_INET6 through the host.
 * inet_host_init registers them unless networking is off (--net=none);
 * inet_host_interrupt is IRQ_NET, a host socket's readiness changed. */
void inet_host_init(bool enabled);
void inet_host_interrupt(void);

/* How long a call may still wait, in ns (Linux's sock_rcvtimeo and
 * sock_sndtimeo): 0 for a non-blocking call, MAX_SOCK_TIMEO for ever. */
#define MAX_SOCK_TIMEO INT64_MAX
static inline s64 sock_rcvtimeo(const struct socket *sock, bool noblock)
{
	if (noblock)
		return 0;
	return sock->rcvtimeo_ns ? sock->rcvtimeo_ns : MAX_SOCK_TIMEO;
}
static inline s64 sock_sndtimeo(const struct socket *sock, bool noblock)
{
	if (noblock)
		return 0;
	return sock->sndtimeo_ns ? sock->sndtimeo_ns : MAX_SOCK_TIMEO;
}

/* One sleep of a blocking socket call (Linux's sk_wait_event), for a loop
 * that has queued itself on a wait queue (prepare_to_wait) and found its
 * condition false:
 *
 *	DEFINE_WAIT(w);
 *	for (;;) {
 *		prepare_to_wait(&sock->wq, &w, TASK_INTERRUPTIBLE);
 *		if (cond)
 *			break;
 *		err = sock_wait(&timeo, sock->rcvtimeo_ns);
 *		if (err)
 *			break;
 *	}
 *	finish_wait(&sock->wq, &w);
 *
 * Returns -EAGAIN when *timeo is 0 (no time left, or a non-blocking
 * call), sock_intr_errno(sock_timeo) when a signal is pending (sock_timeo
 * is the socket's SO_RCVTIMEO or SO_SNDTIMEO), else sleeps until woken or
 * *timeo has passed, takes the time slept from *timeo and returns 0: the
 * caller looks at its condition again before a timeout is reported. */
int sock_wait(s64 *timeo, s64 sock_timeo);

/* recvmsg: append a control message (level, type, len bytes of data) to
 * m's user control buffer (Linux's put_cmsg): when it does not fit, as
 * much of it as does, and MSG_CTRUNC in m->msg_flags. 0 or -EFAULT. */
int put_cmsg(struct msghdr *m, int level, int type, int len, const void *data);

#endif
