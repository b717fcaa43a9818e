/*
 * kernel/net/af_unix.h: AF_UNIX's structures, shared by af_unix.c (the
 * sockets) and garbage.c (the collector of sockets in flight). Linux keeps
 * them in include/net/af_unix.h and include/linux/skbuff.h.
 */
#ifndef KERNEL_NET_AF_UNIX_H
#define KERNEL_NET_AF_UNIX_H

#include <umk/fs.h>
#include <umk/list.h>
#include <umk/net.h>
#include <umk/sched.h>

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
