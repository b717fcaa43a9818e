/*
 * kernel/net/af_unix.h: AF_UNIX's structures, constants and inner
 * interfaces, shared by af_unix.c (sockets, names, connections),
 * af_unix_msg.c (sending, receiving, readiness), scm.c (control messages)
 * and garbage.c (the collector of sockets in flight). Linux keeps
 * them in include/net/af_unix.h and include/linux/skbuff.h.
 */
#ifndef KERNEL_NET_AF_UNIX_H
#define KERNEL_NET_AF_UNIX_H

#include <umk/fs.h>
#include <umk/list.h>
#include <umk/net.h>
#include <umk/sched.h>

/* sk_shutdown's bits (include/net/sock.h) */
#define RCV_SHUTDOWN 1
#define SEND_SHUTDOWN 2
#define SHUTDOWN_MASK 3

/* The sysctls' defaults: net.core.wmem_default and rmem_default (and
 * their _max), net.unix.max_dgram_qlen. */
#define SYSCTL_WMEM_DEFAULT 212992
#define SYSCTL_WMEM_MAX 212992
#define SYSCTL_RMEM_MAX 212992
#define SOCK_MIN_SNDBUF 4608
#define SOCK_MIN_RCVBUF 2304
#define MAX_DGRAM_QLEN 10
/* What one message costs its sender beyond its bytes (Linux's skb
 * truesize overhead, about). */
#define UNIX_SKB_OVERHEAD 768
/* The largest stream chunk (Linux's SKB_MAX_HEAD(0) + UNIX_SKB_FRAGS_SZ). */
#define UNIX_STREAM_CHUNK (32768 + 3776)

/* A bound name (Linux's unix_address): len bytes of name, sun_family
 * included (a path's terminating NUL too). Shared by a listener and the
 * sockets it accepts. */
struct unix_address {
	int refcnt;
	int len;
	struct sockaddr_un name;
};

/* The files of one SCM_RIGHTS message, a reference each. */
struct scm_fp_list {
	int count;
	struct file *fp[SCM_MAX_FD];
};

/* A message on a receive queue (Linux's sk_buff with its UNIXCB). */
struct sk_buff {
	struct list_head list;		/* in the receiver's receive_queue */
	struct unix_sock *sk;		/* the sender: charged truesize, a reference */
	size_t truesize;
	size_t len;			/* its bytes */
	size_t consumed;		/* stream: bytes already read */
	bool has_creds;
	struct ucred creds;		/* the sender's, when has_creds */
	struct scm_fp_list *fp;		/* files in flight, or NULL */
	struct unix_sock *embryo;	/* a listener's connection request */
	char data[];
};

struct unix_sock {
	int refcnt;
	struct socket *sock;		/* NULL while an embryo, and once released */
	int type;			/* SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET */
	int state;			/* TCP_CLOSE, TCP_LISTEN, TCP_ESTABLISHED */
	int shutdown;			/* RCV_SHUTDOWN | SEND_SHUTDOWN */
	int sk_err;			/* a pending error (SO_ERROR): ECONNRESET */
	bool dead;			/* released (Linux's SOCK_DEAD) */
	struct unix_sock *peer;		/* connected to (a reference), or NULL */
	struct unix_address *addr;	/* bound name (a reference), or NULL */
	/* A path name's node: held, and its device and inode numbers, by
	 * which connect finds the socket (path.dentry NULL: none). */
	struct path path;
	unsigned long path_dev, path_ino;
	struct list_head receive_queue;	/* of struct sk_buff, oldest first */
	int qlen;			/* messages on it */
	int max_ack_backlog;		/* listen's backlog, a datagram queue's limit */
	size_t wmem_alloc;		/* bytes of its messages not yet read */
	int sndbuf, rcvbuf;		/* SO_SNDBUF, SO_RCVBUF */
	bool passcred;			/* SO_PASSCRED */
	bool oobinline;			/* SO_OOBINLINE (Linux's SOCK_URGINLINE) */
	/* Stream: the message of one byte that a send with MSG_OOB queued
	 * last, the urgent mark, until it is read or passed; NULL: none. */
	struct sk_buff *oob_skb;
	bool peercred_set;
	struct ucred peercred;		/* SO_PEERCRED */
	/* Writers to this socket and connects to it wait here for room. */
	struct wait_queue_head peer_wait;
	struct list_head link;		/* on unix_socket_list until released */
	unsigned long ino;		/* its socket's inode number */
	/* The SOL_SOCKET options Linux keeps for any socket and that change
	 * nothing for AF_UNIX: SO_REUSEADDR, SO_KEEPALIVE..., by number. */
	int inert_opts[SO_PEEK_OFF + 1];
	/* The garbage collector's (garbage.c): how many times its file is in
	 * flight (in an SCM_RIGHTS message on a receive queue); while that is
	 * not 0, it is on gc_inflight_list, or on one of unix_gc's lists. */
	long inflight;
	struct list_head gc_link;
	bool gc_candidate;		/* every reference to its file is in flight */
	bool gc_maybe_cycle;		/* and none from outside the candidates yet */
};

/* scm.c: sendmsg's control messages, parsed (Linux's scm_cookie). */
struct scm_cookie {
	struct scm_fp_list *fp;
	bool has_creds;
	struct ucred creds;
};

/* The control messages of m (in kernel memory) into scm: 0, or -EINVAL,
 * -EBADF, -EPERM with nothing held. */
int scm_send(struct msghdr *m, struct scm_cookie *scm);
/* fpl's files into the receiver's fd table and an SCM_RIGHTS message;
 * frees fpl. */
int scm_detach_fds(struct msghdr *m, struct scm_fp_list *fpl, int flags);
struct scm_fp_list *scm_fp_dup(const struct scm_fp_list *fpl);
void scm_fp_free(struct scm_fp_list *fpl);

/* af_unix.c: take skb off u's receive queue; drop a message: its files,
 * its request's socket, and its charge on the sender, who may now write
 * again (Linux's sock_wfree). */
void skb_unlink(struct unix_sock *u, struct sk_buff *skb);
void kfree_skb(struct sk_buff *skb);

static inline struct unix_sock *unix_sk(struct socket *sock)
{
	return sock->sk;
}

static inline void sock_hold(struct unix_sock *u)
{
	u->refcnt++;
}

/* Linux's unix_writable: room in the send buffer, and not a listener. */
static inline bool unix_writable(const struct unix_sock *u)
{
	return u->state != TCP_LISTEN && (u->wmem_alloc << 2) <= (size_t)u->sndbuf;
}

static inline void skb_queue_tail(struct unix_sock *u, struct sk_buff *skb)
{
	list_add_tail(&skb->list, &u->receive_queue);
	u->qlen++;
}

static inline struct sk_buff *skb_peek(struct unix_sock *u)
{
	return list_empty(&u->receive_queue) ? NULL
					     : list_first_entry(&u->receive_queue, struct sk_buff, list);
}

static inline struct sk_buff *skb_peek_next(struct unix_sock *u, struct sk_buff *skb)
{
	return skb->list.next == &u->receive_queue ? NULL
						    : list_entry(skb->list.next, struct sk_buff, list);
}

/* Linux's unix_recvq_full: a listener's backlog, a datagram queue's limit. */
static inline bool unix_recvq_full(const struct unix_sock *u)
{
	return u->qlen > u->max_ack_backlog;
}

/* af_unix.c, for af_unix_msg.c: described where they are defined. */
int unix_validate_addr(const struct sockaddr_un *sunaddr, int addr_len);
void sock_put(struct unix_sock *u);
void unix_wake(struct unix_sock *u, unsigned int events);
void unix_data_ready(struct unix_sock *u);
void unix_state_change(struct unix_sock *u);
struct sk_buff *unix_alloc_skb(struct unix_sock *u, size_t size, bool noblock, int *err);
void current_ucred(struct ucred *uc);
void unix_copy_addr(struct msghdr *m, const struct unix_sock *sender);
int unix_autobind(struct unix_sock *u);
bool unix_may_send(const struct unix_sock *u, const struct unix_sock *other);
void unix_dgram_disconnected(struct unix_sock *u, struct unix_sock *old);
int unix_wait_for_peer(struct unix_sock *other, s64 *timeo, s64 sock_timeo);
struct unix_sock *unix_find_other(struct sockaddr_un *sunaddr, int addr_len, int type,
				  int *err);
struct scm_fp_list *unix_detach_fds(struct sk_buff *skb);

/* af_unix_msg.c: the proto_ops of sending, receiving and readiness. */
int unix_dgram_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags);
int unix_dgram_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags);
/* Wait for a message on sock's queue (Linux's __skb_wait_for_more_packets
 * in a loop, as skb_recv_datagram): the first one, or NULL with *err
 * (0 at end of file or after a shutdown). A datagram's receive and
 * accept, whose connection requests are messages. */
struct sk_buff *unix_dgram_wait(struct socket *sock, s64 *timeo, int *err);
int unix_seqpacket_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags);
int unix_seqpacket_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags);
int unix_stream_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags);
int unix_stream_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags);
__poll_t unix_poll(struct file *f, struct socket *sock, poll_table *pt);
__poll_t unix_dgram_poll(struct file *f, struct socket *sock, poll_table *pt);
int unix_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg);

/* garbage.c: the collector of sockets in flight (Linux's net/unix/garbage.c).
 * unix_get_socket: the unix_sock of an AF_UNIX socket's file, else NULL.
 * unix_inflight and unix_notinflight count f as put in flight (attached to
 * a message) and taken out of it (received, or its message dropped).
 * unix_gc frees the sockets only messages in flight keep alive, and whose
 * messages are reachable only from such sockets; wait_for_unix_gc runs it
 * when a send finds very many files in flight. */
struct unix_sock *unix_get_socket(struct file *f);
void unix_inflight(struct file *f);
void unix_notinflight(struct file *f);
extern long unix_tot_inflight;
void unix_gc(void);
void wait_for_unix_gc(void);

#endif
