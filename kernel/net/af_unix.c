/*
 * kernel/net/af_unix.c: AF_UNIX sockets in the kernel (Linux's
 * net/unix/af_unix.c, with the SCM parts of net/core/scm.c and the
 * buffer accounting of net/core/sock.c). Interface: af_unix_init, which
 * registers the family, and through it the proto_ops of the three types;
 * unix_proc_show for /proc/net/unix.
 *
 * A socket's state is a struct unix_sock (sock->sk), counted: its socket
 * holds one reference until release, a connected peer one, each message
 * one on its sender, each connection request on a listener's queue one on
 * its new socket. Messages (struct sk_buff, one allocation with its bytes)
 * go on the receiver's receive_queue; each is charged to its sender's
 * wmem_alloc until it is read or dropped, and a sender waits while
 * wmem_alloc has reached its sndbuf (SO_SNDBUF), as Linux's
 * sock_alloc_send_pskb. A datagram sender also waits while an unconnected
 * receiver holds more than max_dgram_qlen datagrams (on the receiver's
 * peer_wait), and a connect while the listener's queue holds more than its
 * backlog (on the listener's peer_wait).
 *
 * SOCK_STREAM: connect makes a new socket (an "embryo") connected to the
 * client and queues it on the listener as a request, which accept grafts
 * onto a new struct socket. Writes are cut in chunks of at most half the
 * send buffer; reads take bytes from as many messages as they need, but
 * stop after one that carried files, or where the senders' credentials
 * change (SO_PASSCRED). SOCK_SEQPACKET is SOCK_STREAM's connections with
 * SOCK_DGRAM's messages. Readiness: every change wakes the socket's own
 * queue (sock->wq) with what became true, which is where poll, select and
 * epoll wait: data in (POLLIN), room again (POLLOUT, when a message is
 * freed), a shutdown or the peer's close (every waiter).
 *
 * Names: a path name is a socket node made in umk's file system (tmpfs,
 * or a writable host directory: kernel/fs/hostfs.c), found again by its
 * device and inode numbers; an abstract name (sun_path[0] == 0) lives only
 * here. Both are looked up on the list of every socket, unix_socket_list.
 *
 * Departures from Linux: no garbage collector for sockets in flight: a
 * socket whose own fd sits, unread, in a queue that only it can reach
 * (passed over itself) is never freed; files in flight on a socket that is
 * closed are released with its queue, as on Linux. No MSG_OOB (umk is
 * built as Linux without CONFIG_AF_UNIX_OOB), no SO_PEEK_OFF, no SCM_PIDFD.
 * A datagram sender polling a full receiver is woken only when one of its
 * own datagrams is read (Linux relays every read through peer_wait).
 * Buffer accounting counts each message as its length plus a fixed
 * UNIX_SKB_OVERHEAD, not Linux's exact skb sizes, so how much fits before
 * a writer blocks is close to Linux's, not equal to it.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/list.h>
#include <umk/net.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/eventpoll.h>

/* The states Linux's af_unix uses (include/net/tcp_states.h). */
enum {
	TCP_ESTABLISHED = 1,
	TCP_CLOSE = 7,
	TCP_LISTEN = 10,
};

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

#define UNIX_AUTOBIND_LEN (offsetof(struct sockaddr_un, sun_path) + 6)

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
	bool peercred_set;
	struct ucred peercred;		/* SO_PEERCRED */
	/* Writers to this socket and connects to it wait here for room. */
	struct wait_queue_head peer_wait;
	struct list_head link;		/* on unix_socket_list until released */
	unsigned long ino;		/* its socket's inode number */
	/* The SOL_SOCKET options Linux keeps for any socket and that change
	 * nothing for AF_UNIX: SO_REUSEADDR, SO_KEEPALIVE..., by number. */
	int inert_opts[SO_PEEK_OFF + 1];
};

static LIST_HEAD(unix_socket_list);

static const struct proto_ops unix_stream_ops;
static const struct proto_ops unix_dgram_ops;
static const struct proto_ops unix_seqpacket_ops;

static struct unix_sock *unix_sk(struct socket *sock)
{
	return sock->sk;
}

/* ---- socket lifetimes ---- */

static struct unix_sock *unix_create1(int type)
{
	struct unix_sock *u = kmalloc(sizeof(*u));

	u->refcnt = 1;
	u->type = type;
	u->state = TCP_CLOSE;
	u->sndbuf = SYSCTL_WMEM_DEFAULT;
	u->rcvbuf = SYSCTL_WMEM_DEFAULT;
	u->max_ack_backlog = MAX_DGRAM_QLEN;
	INIT_LIST_HEAD(&u->receive_queue);
	init_waitqueue_head(&u->peer_wait);
	list_add_tail(&u->link, &unix_socket_list);
	return u;
}

static void sock_hold(struct unix_sock *u)
{
	u->refcnt++;
}

static void unix_release_addr(struct unix_address *addr)
{
	if (addr && !--addr->refcnt)
		kfree(addr);
}

static void sock_put(struct unix_sock *u)
{
	if (u->refcnt <= 0)
		panic("sock_put: unix socket %lu has refcnt %d", u->ino, u->refcnt);
	if (--u->refcnt)
		return;
	if (!u->dead || !list_empty(&u->receive_queue) || u->wmem_alloc)
		panic("sock_put: unix socket %lu freed alive (dead %d, qlen %d, wmem %zu)",
		      u->ino, u->dead, u->qlen, u->wmem_alloc);
	unix_release_addr(u->addr);
	kfree(u);
}

/* Wake the tasks and pollers on u's socket for events (none once it is
 * released or while it is an embryo: nothing waits there then). */
static void unix_wake(struct unix_sock *u, unsigned int events)
{
	if (u->sock)
		wake_up_poll(&u->sock->wq, events);
}

/* Data arrived (Linux's sk_data_ready, sock_def_readable). */
static void unix_data_ready(struct unix_sock *u)
{
	unix_wake(u, POLLIN | POLLRDNORM | POLLRDBAND | POLLPRI);
	sock_wake_async(u->sock, SOCK_WAKE_WAITD, POLL_IN);
}

/* A shutdown, a connection or an error: everyone looks again. */
static void unix_state_change(struct unix_sock *u)
{
	if (u->sock)
		wake_up(&u->sock->wq);
}

/* Linux's unix_writable: room in the send buffer, and not a listener. */
static bool unix_writable(const struct unix_sock *u)
{
	return u->state != TCP_LISTEN && (u->wmem_alloc << 2) <= (size_t)u->sndbuf;
}

/* Room in u's send buffer again (Linux's unix_write_space). */
static void unix_write_space(struct unix_sock *u)
{
	if (!unix_writable(u))
		return;
	unix_wake(u, POLLOUT | POLLWRNORM | POLLWRBAND);
	sock_wake_async(u->sock, SOCK_WAKE_SPACE, POLL_OUT);
}

/* ---- messages ---- */

static void scm_fp_free(struct scm_fp_list *fpl)
{
	int i;

	if (!fpl)
		return;
	for (i = 0; i < fpl->count; i++)
		fput(fpl->fp[i]);
	kfree(fpl);
}

static struct scm_fp_list *scm_fp_dup(const struct scm_fp_list *fpl)
{
	struct scm_fp_list *dup;
	int i;

	if (!fpl)
		return NULL;
	dup = kmalloc(sizeof(*dup));
	dup->count = fpl->count;
	for (i = 0; i < fpl->count; i++)
		dup->fp[i] = get_file(fpl->fp[i]);
	return dup;
}

/* A message of size bytes from u, charged to it (Linux's
 * sock_alloc_send_pskb): waits while u's send buffer is full. NULL with
 * *err: -EPIPE after a shutdown, a pending error, -EAGAIN, or what
 * sock_wait returns for a signal. */
static struct sk_buff *unix_alloc_skb(struct unix_sock *u, size_t size, bool noblock, int *err)
{
	struct socket *sock = u->sock;
	s64 timeo = sock_sndtimeo(sock, noblock);
	struct sk_buff *skb;
	DEFINE_WAIT(w);

	for (;;) {
		prepare_to_wait(&sock->wq, &w, TASK_INTERRUPTIBLE);
		if (u->sk_err) {
			*err = -u->sk_err;
			u->sk_err = 0;
			break;
		}
		*err = -EPIPE;
		if (u->shutdown & SEND_SHUTDOWN)
			break;
		*err = 0;
		if (u->wmem_alloc < (size_t)u->sndbuf)
			break;
		sock->flags |= SOCKWQ_ASYNC_NOSPACE;	/* room: SIGIO (unix_write_space) */
		*err = sock_wait(&timeo, sock->sndtimeo_ns);
		if (*err)
			break;
	}
	finish_wait(&sock->wq, &w);
	if (*err)
		return NULL;
	skb = kmalloc(sizeof(*skb) + size);
	skb->len = size;
	skb->truesize = size + UNIX_SKB_OVERHEAD;
	skb->sk = u;
	sock_hold(u);
	u->wmem_alloc += skb->truesize;
	return skb;
}

/* Drop a message: its files, its request's socket, and its charge on the
 * sender, who may now write again (Linux's sock_wfree). */
static void unix_release_sock(struct unix_sock *u, bool embrion);

static void kfree_skb(struct sk_buff *skb)
{
	struct unix_sock *sender = skb->sk;

	scm_fp_free(skb->fp);
	if (skb->embryo) {
		unix_release_sock(skb->embryo, true);
		sock_put(skb->embryo);
	}
	sender->wmem_alloc -= skb->truesize;
	unix_write_space(sender);
	sock_put(sender);
	kfree(skb);
}

static void skb_queue_tail(struct unix_sock *u, struct sk_buff *skb)
{
	list_add_tail(&skb->list, &u->receive_queue);
	u->qlen++;
}

static struct sk_buff *skb_peek(struct unix_sock *u)
{
	return list_empty(&u->receive_queue) ? NULL
					     : list_first_entry(&u->receive_queue, struct sk_buff, list);
}

static struct sk_buff *skb_peek_next(struct unix_sock *u, struct sk_buff *skb)
{
	return skb->list.next == &u->receive_queue ? NULL
						    : list_entry(skb->list.next, struct sk_buff, list);
}

static void skb_unlink(struct unix_sock *u, struct sk_buff *skb)
{
	list_del_init(&skb->list);
	u->qlen--;
}

static void skb_queue_purge(struct unix_sock *u)
{
	struct sk_buff *skb;

	while ((skb = skb_peek(u))) {
		skb_unlink(u, skb);
		kfree_skb(skb);
	}
}

/* Linux's unix_recvq_full: a listener's backlog, a datagram queue's limit. */
static bool unix_recvq_full(const struct unix_sock *u)
{
	return u->qlen > u->max_ack_backlog;
}

static void current_ucred(struct ucred *uc)
{
	uc->pid = current->tgid;
	uc->uid = current->cred.uid;
	uc->gid = current->cred.gid;
}

/* Linux's unix_release_sock: u is closed (embrion: an unaccepted
 * connection, closed with its listener). Its peer sees the end of the
 * connection (ECONNRESET if u still held unread data), its queue is
 * dropped with the files in flight on it. */
static void unix_release_sock(struct unix_sock *u, bool embrion)
{
	struct unix_sock *skpair;
	int state = u->state;

	list_del_init(&u->link);
	u->state = TCP_CLOSE;
	u->shutdown = SHUTDOWN_MASK;
	u->dead = true;
	skpair = u->peer;
	u->peer = NULL;
	wake_up(&u->peer_wait);
	if (skpair) {
		if (u->type == SOCK_STREAM || u->type == SOCK_SEQPACKET) {
			skpair->shutdown = SHUTDOWN_MASK;
			if (!list_empty(&u->receive_queue) || embrion)
				skpair->sk_err = ECONNRESET;
			unix_state_change(skpair);
			sock_wake_async(skpair->sock, SOCK_WAKE_WAITD, POLL_HUP);
		}
		sock_put(skpair);
	}
	sock_hold(u);		/* the queue may hold messages u sent itself */
	while (!list_empty(&u->receive_queue)) {
		struct sk_buff *skb = skb_peek(u);

		skb_unlink(u, skb);
		if (state != TCP_LISTEN && skb->embryo)
			panic("unix_release_sock: request on a non-listener %lu", u->ino);
		kfree_skb(skb);
	}
	if (u->path.dentry) {
		path_put(&u->path);
		u->path.dentry = NULL;
	}
	sock_put(u);
}

static int unix_release(struct socket *sock)
{
	struct unix_sock *u = unix_sk(sock);

	if (!u)
		return 0;
	u->sock = NULL;
	unix_release_sock(u, false);
	sock_put(u);		/* the socket's reference */
	sock->sk = NULL;
	return 0;
}

/* ---- names ---- */

/* Linux's unix_validate_addr. */
static int unix_validate_addr(const struct sockaddr_un *sunaddr, int addr_len)
{
	if (addr_len <= (int)offsetof(struct sockaddr_un, sun_path) ||
	    addr_len > (int)sizeof(*sunaddr))
		return -EINVAL;
	if (sunaddr->sun_family != AF_UNIX)
		return -EINVAL;
	return 0;
}

/* A path name ends at its first NUL, or at addr_len: its length with the
 * family and one NUL, which is what getsockname gives back (Linux's
 * unix_mkname_bsd). sunaddr has room past addr_len (a sockaddr_storage). */
static int unix_mkname_bsd(struct sockaddr_un *sunaddr, int addr_len)
{
	((char *)sunaddr)[addr_len] = 0;
	return strlen(sunaddr->sun_path) + offsetof(struct sockaddr_un, sun_path) + 1;
}

static struct unix_address *unix_create_addr(const struct sockaddr_un *sunaddr, int len)
{
	struct unix_address *addr = kmalloc(sizeof(*addr));

	addr->refcnt = 1;
	addr->len = len;
	memcpy(&addr->name, sunaddr, len);
	return addr;
}

static struct unix_sock *unix_find_abstract_byname(const struct sockaddr_un *sunaddr, int len,
						   int type)
{
	struct unix_sock *u;

	list_for_each_entry(u, &unix_socket_list, link)
		if (u->addr && u->type == type && u->addr->len == len &&
		    !u->addr->name.sun_path[0] && !memcmp(&u->addr->name, sunaddr, len))
			return u;
	return NULL;
}

/* The socket bound to the node dev:ino (the latest, should a host inode
 * number have been reused). */
static struct unix_sock *unix_find_socket_byinode(unsigned long dev, unsigned long ino)
{
	struct unix_sock *u, *found = NULL;

	list_for_each_entry(u, &unix_socket_list, link)
		if (u->path.dentry && u->path_dev == dev && u->path_ino == ino)
			found = u;
	return found;
}

/* Linux's unix_find_other: the socket a name names, with a reference. */
static struct unix_sock *unix_find_other(struct sockaddr_un *sunaddr, int addr_len, int type,
					 int *err)
{
	struct unix_sock *u;

	if (sunaddr->sun_path[0]) {
		struct path path;
		struct stat st;

		unix_mkname_bsd(sunaddr, addr_len);
		*err = kern_path_at(AT_FDCWD, sunaddr->sun_path, LOOKUP_FOLLOW, &path);
		if (*err)
			return NULL;
		*err = vfs_getattr(&path, &st);
		path_put(&path);
		if (*err)
			return NULL;
		*err = -ECONNREFUSED;
		if (!S_ISSOCK(st.st_mode))
			return NULL;
		u = unix_find_socket_byinode(st.st_dev, st.st_ino);
		if (!u)
			return NULL;
		if (u->type != type) {
			*err = -EPROTOTYPE;
			return NULL;
		}
	} else {
		u = unix_find_abstract_byname(sunaddr, addr_len, type);
		*err = -ECONNREFUSED;
		if (!u)
			return NULL;
	}
	sock_hold(u);
	*err = 0;
	return u;
}

/* Bind to "\0" and five hex digits no socket of this type uses (Linux's
 * unix_autobind). */
static int unix_autobind(struct unix_sock *u)
{
	static unsigned int ordernum = 0x1a2b3;
	struct sockaddr_un sunaddr = { .sun_family = AF_UNIX };
	unsigned int tries;

	if (u->addr)
		return 0;
	for (tries = 0; tries <= 0xFFFFF; tries++) {
		ordernum = (ordernum + 1) & 0xFFFFF;
		ksnprintf(sunaddr.sun_path + 1, 6, "%05x", ordernum);
		if (!unix_find_abstract_byname(&sunaddr, UNIX_AUTOBIND_LEN, u->type)) {
			u->addr = unix_create_addr(&sunaddr, UNIX_AUTOBIND_LEN);
			return 0;
		}
	}
	return -ENOSPC;
}

static int unix_bind_bsd(struct unix_sock *u, struct sockaddr_un *sunaddr, int addr_len)
{
	struct path path;
	struct stat st;
	int err;

	addr_len = unix_mkname_bsd(sunaddr, addr_len);
	if (u->addr) {
		/* Linux makes the node first: a name in use is EADDRINUSE. */
		err = kern_path_at(AT_FDCWD, sunaddr->sun_path, 0, &path);
		if (!err) {
			path_put(&path);
			return -EADDRINUSE;
		}
		return err == -ENOENT ? -EINVAL : err;
	}
	err = kern_mknod(sunaddr->sun_path, S_IFSOCK | 0777, &path);
	if (err)
		return err == -EEXIST ? -EADDRINUSE : err;
	err = vfs_getattr(&path, &st);
	if (err) {
		path_put(&path);
		return err;
	}
	u->path = path;
	u->path_dev = st.st_dev;
	u->path_ino = st.st_ino;
	u->addr = unix_create_addr(sunaddr, addr_len);
	return 0;
}

static int unix_bind_abstract(struct unix_sock *u, struct sockaddr_un *sunaddr, int addr_len)
{
	if (u->addr)
		return -EINVAL;
	if (unix_find_abstract_byname(sunaddr, addr_len, u->type))
		return -EADDRINUSE;
	u->addr = unix_create_addr(sunaddr, addr_len);
	return 0;
}

static int unix_bind(struct socket *sock, struct sockaddr *uaddr, int addr_len)
{
	struct sockaddr_un *sunaddr = (struct sockaddr_un *)uaddr;
	struct unix_sock *u = unix_sk(sock);
	int err;

	if (addr_len == (int)offsetof(struct sockaddr_un, sun_path) &&
	    sunaddr->sun_family == AF_UNIX)
		return unix_autobind(u);	/* 0 when already bound */
	err = unix_validate_addr(sunaddr, addr_len);
	if (err)
		return err;
	if (sunaddr->sun_path[0])
		return unix_bind_bsd(u, sunaddr, addr_len);
	return unix_bind_abstract(u, sunaddr, addr_len);
}

static int unix_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sockaddr_un *sunaddr = (struct sockaddr_un *)uaddr;
	struct unix_sock *u = unix_sk(sock);

	if (peer) {
		u = u->peer;
		if (!u)
			return -ENOTCONN;
	}
	if (!u->addr) {
		sunaddr->sun_family = AF_UNIX;
		sunaddr->sun_path[0] = 0;
		return offsetof(struct sockaddr_un, sun_path);
	}
	memcpy(sunaddr, &u->addr->name, u->addr->len);
	return u->addr->len;
}

/* recvmsg's name: the sender's address, if it has one. */
static void unix_copy_addr(struct msghdr *m, const struct unix_sock *sender)
{
	if (m->msg_name && sender->addr) {
		m->msg_namelen = sender->addr->len;
		memcpy(m->msg_name, &sender->addr->name, sender->addr->len);
	}
}

/* ---- connections ---- */

static void init_peercred(struct unix_sock *u)
{
	current_ucred(&u->peercred);
	u->peercred_set = true;
}

static int unix_listen(struct socket *sock, int backlog)
{
	struct unix_sock *u = unix_sk(sock);

	if (sock->type != SOCK_STREAM && sock->type != SOCK_SEQPACKET)
		return -EOPNOTSUPP;
	if (!u->addr)
		return -EINVAL;		/* no listens on an unbound socket */
	if (u->state != TCP_CLOSE && u->state != TCP_LISTEN)
		return -EINVAL;
	if (backlog > u->max_ack_backlog)
		wake_up(&u->peer_wait);
	u->max_ack_backlog = backlog;
	u->state = TCP_LISTEN;
	init_peercred(u);
	return 0;
}

/* Wait on other's peer_wait for room in its queue, once (Linux's
 * unix_wait_for_peer): 0 to look again, or sock_wait's error. */
static int unix_wait_for_peer(struct unix_sock *other, s64 *timeo, s64 sock_timeo)
{
	DEFINE_WAIT(w);
	int err = 0;

	prepare_to_wait(&other->peer_wait, &w, TASK_INTERRUPTIBLE);
	if (!other->dead && unix_recvq_full(other))
		err = sock_wait(timeo, sock_timeo);
	finish_wait(&other->peer_wait, &w);
	return err;
}

static int unix_stream_connect(struct socket *sock, struct sockaddr *uaddr, int addr_len,
			       int flags)
{
	struct sockaddr_un *sunaddr = (struct sockaddr_un *)uaddr;
	struct unix_sock *u = unix_sk(sock), *other, *newu;
	s64 timeo = sock_sndtimeo(sock, flags & O_NONBLOCK);
	struct sk_buff *skb;
	int err;

	err = unix_validate_addr(sunaddr, addr_len);
	if (err)
		return err;
	if (u->passcred && !u->addr) {
		err = unix_autobind(u);
		if (err)
			return err;
	}
	for (;;) {
		other = unix_find_other(sunaddr, addr_len, sock->type, &err);
		if (!other)
			return err;
		err = -ECONNREFUSED;
		if (other->state != TCP_LISTEN || other->dead)
			goto out;
		if (!unix_recvq_full(other))
			break;
		err = -EAGAIN;
		if (!timeo)
			goto out;
		/* On a timeout, one more look, then -EAGAIN above. */
		err = unix_wait_for_peer(other, &timeo, sock->sndtimeo_ns);
		if (err && err != -EAGAIN)
			goto out;
		sock_put(other);
	}
	switch (u->state) {
	case TCP_ESTABLISHED:
		err = -EISCONN;
		goto out;
	case TCP_LISTEN:
		err = -EINVAL;
		goto out;
	}
	/* The new socket accept will give the server: connected to us. */
	newu = unix_create1(u->type);
	newu->state = TCP_ESTABLISHED;
	newu->passcred = false;
	init_peercred(newu);
	newu->addr = other->addr;
	newu->addr->refcnt++;
	newu->peer = u;
	sock_hold(u);
	/* We see the listener's credentials; the request carries newu. */
	u->peercred = other->peercred;
	u->peercred_set = other->peercred_set;
	u->peer = newu;
	sock_hold(newu);
	u->state = TCP_ESTABLISHED;
	sock->state = SS_CONNECTED;
	skb = kmalloc(sizeof(*skb));
	skb->sk = u;
	sock_hold(u);
	skb->truesize = UNIX_SKB_OVERHEAD;
	u->wmem_alloc += skb->truesize;
	skb->embryo = newu;	/* the creation reference goes to the request */
	skb_queue_tail(other, skb);
	unix_data_ready(other);
	err = 0;
out:
	sock_put(other);
	return err;
}

/* Linux's unix_may_send: other takes datagrams from anyone, or is
 * connected to u. */
static bool unix_may_send(const struct unix_sock *u, const struct unix_sock *other)
{
	return !other->peer || other->peer == u;
}

/* A datagram socket's peer changed from old: its unread messages go, and
 * a peer connected back to it learns of it (Linux's
 * unix_dgram_disconnected). */
static void unix_dgram_disconnected(struct unix_sock *u, struct unix_sock *old)
{
	if (list_empty(&u->receive_queue))
		return;
	skb_queue_purge(u);
	wake_up(&u->peer_wait);
	if (!old->dead && old->peer == u) {
		old->sk_err = ECONNRESET;
		unix_state_change(old);
	}
}

static int unix_dgram_connect(struct socket *sock, struct sockaddr *addr, int alen, int flags)
{
	struct sockaddr_un *sunaddr = (struct sockaddr_un *)addr;
	struct unix_sock *u = unix_sk(sock), *other = NULL, *old;
	int err;

	if (alen < (int)sizeof(sa_family_t))
		return -EINVAL;
	if (addr->sa_family != AF_UNSPEC) {
		err = unix_validate_addr(sunaddr, alen);
		if (err)
			return err;
		if (u->passcred && !u->addr) {
			err = unix_autobind(u);
			if (err)
				return err;
		}
		other = unix_find_other(sunaddr, alen, sock->type, &err);
		if (!other)
			return err;
		if (!unix_may_send(u, other)) {
			sock_put(other);
			return -EPERM;
		}
		u->state = TCP_ESTABLISHED;
		other->state = TCP_ESTABLISHED;
	}
	old = u->peer;
	u->peer = other;	/* other's reference goes to u */
	if (!other)
		u->state = TCP_CLOSE;
	if (old) {
		if (other != old)
			unix_dgram_disconnected(u, old);
		sock_put(old);
	}
	return 0;
}

static int unix_socketpair(struct socket *socka, struct socket *sockb)
{
	struct unix_sock *ska = unix_sk(socka), *skb = unix_sk(sockb);

	sock_hold(ska);
	sock_hold(skb);
	ska->peer = skb;
	skb->peer = ska;
	init_peercred(ska);
	init_peercred(skb);
	ska->state = TCP_ESTABLISHED;
	skb->state = TCP_ESTABLISHED;
	socka->state = SS_CONNECTED;
	sockb->state = SS_CONNECTED;
	return 0;
}

/* Wait for a connection request on u's queue (Linux's skb_recv_datagram
 * as unix_accept uses it). */
static struct sk_buff *unix_wait_request(struct socket *sock, bool noblock, int *err)
{
	struct unix_sock *u = unix_sk(sock);
	s64 timeo = sock_rcvtimeo(sock, noblock);
	struct sk_buff *skb = NULL;
	DEFINE_WAIT(w);

	*err = 0;
	for (;;) {
		prepare_to_wait(&sock->wq, &w, TASK_INTERRUPTIBLE);
		skb = skb_peek(u);
		if (skb)
			break;
		if (u->sk_err) {
			*err = -u->sk_err;
			u->sk_err = 0;
			break;
		}
		if (u->shutdown & RCV_SHUTDOWN) {
			*err = -EINVAL;	/* as Linux: a listener shut down */
			break;
		}
		*err = sock_wait(&timeo, sock->rcvtimeo_ns);
		if (*err)
			break;
	}
	finish_wait(&sock->wq, &w);
	return skb;
}

static int unix_accept(struct socket *sock, struct socket *newsock, int flags)
{
	struct unix_sock *u = unix_sk(sock), *tsk;
	struct sk_buff *skb;
	int err;

	if (sock->type != SOCK_STREAM && sock->type != SOCK_SEQPACKET)
		return -EOPNOTSUPP;
	if (u->state != TCP_LISTEN)
		return -EINVAL;
	skb = unix_wait_request(sock, flags & O_NONBLOCK, &err);
	if (!skb)
		return err;
	skb_unlink(u, skb);
	tsk = skb->embryo;
	skb->embryo = NULL;	/* its reference is the new socket's now */
	kfree_skb(skb);
	wake_up(&u->peer_wait);	/* room for a waiting connect */
	tsk->passcred = u->passcred;
	tsk->sock = newsock;
	tsk->ino = newsock->ino;
	newsock->sk = tsk;
	newsock->state = SS_CONNECTED;
	return 0;
}

static int unix_shutdown(struct socket *sock, int mode)
{
	struct unix_sock *u = unix_sk(sock), *other;

	if (mode < SHUT_RD || mode > SHUT_RDWR)
		return -EINVAL;
	++mode;			/* SHUT_RD -> RCV_SHUTDOWN... */
	u->shutdown |= mode;
	other = u->peer;
	unix_state_change(u);
	if (other && (u->type == SOCK_STREAM || u->type == SOCK_SEQPACKET)) {
		int peer_mode = 0;

		if (mode & RCV_SHUTDOWN)
			peer_mode |= SEND_SHUTDOWN;
		if (mode & SEND_SHUTDOWN)
			peer_mode |= RCV_SHUTDOWN;
		other->shutdown |= peer_mode;
		unix_state_change(other);
		if (peer_mode == SHUTDOWN_MASK)
			sock_wake_async(other->sock, SOCK_WAKE_WAITD, POLL_HUP);
		else if (peer_mode & RCV_SHUTDOWN)
			sock_wake_async(other->sock, SOCK_WAKE_WAITD, POLL_IN);
	}
	return 0;
}

/* ---- control messages (net/core/scm.c) ---- */

struct scm_cookie {
	struct scm_fp_list *fp;
	bool has_creds;
	struct ucred creds;
};

/* Linux's scm_check_creds: one's own ids, or the capability. */
static int scm_check_creds(const struct ucred *uc)
{
	const struct cred *c = &current->cred;

	if ((uc->pid == (u32)current->tgid || capable(CAP_SYS_ADMIN)) &&
	    (uc->uid == c->uid || uc->uid == c->euid || uc->uid == c->suid ||
	     capable(CAP_SETUID)) &&
	    (uc->gid == c->gid || uc->gid == c->egid || uc->gid == c->sgid ||
	     capable(CAP_SETGID)))
		return 0;
	return -EPERM;
}

/* SCM_RIGHTS's fds: a reference to each file (Linux's scm_fp_copy). */
static int scm_fp_copy(const struct cmsghdr *cmsg, struct scm_fp_list **fplp)
{
	const int *fdp = (const int *)((const char *)cmsg + CMSG_ALIGN(sizeof(*cmsg)));
	int num = (cmsg->cmsg_len - sizeof(*cmsg)) / sizeof(int);
	struct scm_fp_list *fpl = *fplp;
	int i;

	if (num <= 0)
		return 0;
	if (num > SCM_MAX_FD)
		return -EINVAL;
	if (!fpl)
		fpl = *fplp = kmalloc(sizeof(*fpl));
	if (fpl->count + num > SCM_MAX_FD)
		return -EINVAL;
	for (i = 0; i < num; i++) {
		struct file *f = fdp[i] < 0 ? NULL : fget_raw(fdp[i]);

		if (!f)
			return -EBADF;
		fpl->fp[fpl->count++] = f;
	}
	return 0;
}

/* sendmsg's control messages, in kernel memory (Linux's __scm_send). */
static int scm_send(struct msghdr *m, struct scm_cookie *scm)
{
	const char *ctl = (const char *)m->msg_control;
	size_t size = m->msg_controllen, off = 0;
	int err;

	memset(scm, 0, sizeof(*scm));
	if (!ctl || size < sizeof(struct cmsghdr))
		return 0;
	while (off + sizeof(struct cmsghdr) <= size) {
		const struct cmsghdr *cmsg = (const struct cmsghdr *)(ctl + off);

		err = -EINVAL;
		if (cmsg->cmsg_len < sizeof(*cmsg) || cmsg->cmsg_len > size - off)
			goto error;
		if (cmsg->cmsg_level == SOL_SOCKET) {
			switch (cmsg->cmsg_type) {
			case SCM_RIGHTS:
				err = scm_fp_copy(cmsg, &scm->fp);
				if (err)
					goto error;
				break;
			case SCM_CREDENTIALS:
				if (cmsg->cmsg_len != CMSG_LEN(sizeof(struct ucred)))
					goto error;
				memcpy(&scm->creds, (const char *)cmsg + CMSG_ALIGN(sizeof(*cmsg)),
				       sizeof(scm->creds));
				err = scm_check_creds(&scm->creds);
				if (err)
					goto error;
				scm->has_creds = true;
				break;
			default:
				goto error;
			}
		}
		off += CMSG_ALIGN(cmsg->cmsg_len);
	}
	return 0;
error:
	scm_fp_free(scm->fp);
	scm->fp = NULL;
	return err;
}

/* The credentials a message carries: the ones given, else the sender's
 * when either end asks for them (Linux's maybe_add_creds). */
static void unix_scm_to_skb(struct scm_cookie *scm, struct sk_buff *skb, bool send_fds)
{
	if (scm->has_creds) {
		skb->has_creds = true;
		skb->creds = scm->creds;
	}
	if (send_fds) {
		skb->fp = scm->fp;
		scm->fp = NULL;
	}
}

static void maybe_add_creds(struct sk_buff *skb, const struct unix_sock *u,
			    const struct unix_sock *other)
{
	if (skb->has_creds)
		return;
	if (u->passcred || other->passcred || !other->sock) {
		skb->has_creds = true;
		current_ucred(&skb->creds);
	}
}

/* Install the files of fpl in the receiver, as many as fit in its control
 * buffer, in one SCM_RIGHTS message (Linux's scm_detach_fds); the rest
 * are dropped with MSG_CTRUNC. */
static int scm_detach_fds(struct msghdr *m, struct scm_fp_list *fpl, int flags)
{
	int fdmax = 0, fds[SCM_MAX_FD], i, err = 0;

	if (m->msg_control_is_user && m->msg_control && m->msg_controllen > sizeof(struct cmsghdr))
		fdmax = (m->msg_controllen - sizeof(struct cmsghdr)) / sizeof(int);
	for (i = 0; i < fpl->count && i < fdmax; i++) {
		int fd = fd_install_lowest(current->files, fpl->fp[i], 0,
					   flags & MSG_CMSG_CLOEXEC);

		if (fd < 0) {
			err = fd;
			break;
		}
		fds[i] = fd;
		fpl->fp[i] = NULL;	/* the fd has the reference now */
	}
	if (i > 0)
		err = put_cmsg(m, SOL_SOCKET, SCM_RIGHTS, i * sizeof(int), fds) ?: err;
	if (i < fpl->count)
		m->msg_flags |= MSG_CTRUNC;
	for (; i < fpl->count; i++)
		fput(fpl->fp[i]);
	kfree(fpl);
	return err == -EMFILE ? 0 : err;
}

/* recvmsg's control messages: credentials, then files (Linux's scm_recv). */
static void scm_recv(struct socket *sock, struct msghdr *m, struct scm_cookie *scm, int flags)
{
	if (unix_sk(sock)->passcred) {
		struct ucred uc = { 0, 65534, 65534 };	/* none: the overflow ids */

		if (scm->has_creds)
			uc = scm->creds;
		put_cmsg(m, SOL_SOCKET, SCM_CREDENTIALS, sizeof(uc), &uc);
	}
	if (scm->fp) {
		scm_detach_fds(m, scm->fp, flags);
		scm->fp = NULL;
	}
}

/* ---- datagrams (and SOCK_SEQPACKET's messages) ---- */

static int unix_dgram_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags)
{
	struct sockaddr_un *sunaddr = m->msg_name;
	struct unix_sock *u = unix_sk(sock), *other = NULL;
	struct scm_cookie scm;
	struct sk_buff *skb;
	s64 timeo;
	int err;

	err = scm_send(m, &scm);
	if (err)
		return err;
	err = -EOPNOTSUPP;
	if (flags & MSG_OOB)
		goto out;
	if (m->msg_namelen) {
		err = unix_validate_addr(sunaddr, m->msg_namelen);
		if (err)
			goto out;
	} else {
		sunaddr = NULL;
		err = -ENOTCONN;
		other = u->peer;
		if (!other)
			goto out;
		sock_hold(other);
	}
	if (u->passcred && !u->addr) {
		err = unix_autobind(u);
		if (err)
			goto out;
	}
	err = -EMSGSIZE;
	if (len > (size_t)u->sndbuf - 32)
		goto out;
	skb = unix_alloc_skb(u, len, flags & MSG_DONTWAIT, &err);
	if (!skb)
		goto out;
	unix_scm_to_skb(&scm, skb, true);
	if (copy_from_iter(skb->data, len, &m->msg_iter) != len) {
		err = -EFAULT;
		goto out_free;
	}
	timeo = sock_sndtimeo(sock, flags & MSG_DONTWAIT);
	for (;;) {
		if (!other) {
			err = -ECONNRESET;
			if (!sunaddr)
				goto out_free;
			other = unix_find_other(sunaddr, m->msg_namelen, sock->type, &err);
			if (!other)
				goto out_free;
		}
		err = -EPERM;
		if (!unix_may_send(u, other))
			goto out_free;
		if (other->dead) {
			/* Linux: a dead peer is dropped; sending to it is refused. */
			err = 0;
			if (sock->type == SOCK_SEQPACKET) {
				err = -EPIPE;
			} else if (u->peer == other) {
				u->peer = NULL;
				u->state = TCP_CLOSE;
				unix_dgram_disconnected(u, other);
				sock_put(other);	/* u's reference */
				err = -ECONNREFUSED;
			}
			sock_put(other);
			other = NULL;
			if (err)
				goto out_free;
			continue;
		}
		err = -EPIPE;
		if (other->shutdown & RCV_SHUTDOWN)
			goto out_free;
		if (other != u && other->peer != u && unix_recvq_full(other)) {
			err = -EAGAIN;
			if (!timeo)
				goto out_free;
			err = unix_wait_for_peer(other, &timeo, sock->sndtimeo_ns);
			if (err && err != -EAGAIN)
				goto out_free;
			continue;
		}
		break;
	}
	maybe_add_creds(skb, u, other);
	skb_queue_tail(other, skb);
	unix_data_ready(other);
	sock_put(other);
	return len;
out_free:
	kfree_skb(skb);
out:
	if (other)
		sock_put(other);
	scm_fp_free(scm.fp);
	return err;
}

/* Wait for a message on u's queue (Linux's __skb_wait_for_more_packets
 * in a loop): the first one, or NULL with *err (0 at end of file). */
static struct sk_buff *unix_dgram_wait(struct socket *sock, s64 *timeo, int *err)
{
	struct unix_sock *u = unix_sk(sock);
	struct sk_buff *skb;
	DEFINE_WAIT(w);

	*err = 0;
	for (;;) {
		prepare_to_wait(&sock->wq, &w, TASK_INTERRUPTIBLE);
		skb = skb_peek(u);
		if (skb)
			break;
		if (u->sk_err) {
			*err = -u->sk_err;
			u->sk_err = 0;
			break;
		}
		if (u->shutdown & RCV_SHUTDOWN)
			break;
		/* A connection-based socket that lost its peer: end of file. */
		if (u->type == SOCK_SEQPACKET && u->state == TCP_CLOSE)
			break;
		*err = sock_wait(timeo, sock->rcvtimeo_ns);
		if (*err)
			break;
	}
	finish_wait(&sock->wq, &w);
	return skb;
}

static int unix_dgram_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags)
{
	struct unix_sock *u = unix_sk(sock);
	s64 timeo = sock_rcvtimeo(sock, flags & MSG_DONTWAIT);
	struct scm_cookie scm = { 0 };
	struct sk_buff *skb;
	int err;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	skb = unix_dgram_wait(sock, &timeo, &err);
	if (!skb)
		return err;
	if (!(flags & MSG_PEEK)) {
		skb_unlink(u, skb);
		wake_up(&u->peer_wait);	/* room for a waiting sender */
	}
	unix_copy_addr(m, skb->sk);
	if (size > skb->len)
		size = skb->len;
	else if (size < skb->len)
		m->msg_flags |= MSG_TRUNC;
	if (copy_to_iter(skb->data, size, &m->msg_iter) != size) {
		err = -EFAULT;
		goto out;
	}
	scm.has_creds = skb->has_creds;
	scm.creds = skb->creds;
	if (flags & MSG_PEEK) {
		scm.fp = scm_fp_dup(skb->fp);
	} else {
		scm.fp = skb->fp;
		skb->fp = NULL;
	}
	scm_recv(sock, m, &scm, flags);
	err = (flags & MSG_TRUNC) ? (int)skb->len : (int)size;
out:
	if (!(flags & MSG_PEEK))
		kfree_skb(skb);
	return err;
}

static int unix_seqpacket_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags)
{
	struct unix_sock *u = unix_sk(sock);

	if (u->sk_err) {
		int err = -u->sk_err;

		u->sk_err = 0;
		return err;
	}
	if (u->state != TCP_ESTABLISHED)
		return -ENOTCONN;
	m->msg_namelen = 0;
	return unix_dgram_sendmsg(sock, m, len, flags);
}

static int unix_seqpacket_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags)
{
	if (unix_sk(sock)->state != TCP_ESTABLISHED)
		return -ENOTCONN;
	return unix_dgram_recvmsg(sock, m, size, flags);
}

/* ---- streams ---- */

static int unix_stream_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags)
{
	struct unix_sock *u = unix_sk(sock), *other;
	struct scm_cookie scm;
	struct sk_buff *skb;
	bool fds_sent = false;
	size_t sent = 0;
	int err;

	err = scm_send(m, &scm);
	if (err)
		return err;
	err = -EOPNOTSUPP;
	if (flags & MSG_OOB)
		goto out_err;
	if (m->msg_namelen) {
		err = u->state == TCP_ESTABLISHED ? -EISCONN : -EOPNOTSUPP;
		goto out_err;
	}
	other = u->peer;
	err = -ENOTCONN;
	if (!other)
		goto out_err;
	if (u->shutdown & SEND_SHUTDOWN)
		goto pipe_err;
	while (sent < len) {
		size_t size = len - sent;

		/* Keep two messages in the pipe so it schedules better. */
		size = min(size, (size_t)(u->sndbuf / 2 - 64));
		size = min(size, (size_t)UNIX_STREAM_CHUNK);
		skb = unix_alloc_skb(u, size, flags & MSG_DONTWAIT, &err);
		if (!skb)
			goto out_err;
		unix_scm_to_skb(&scm, skb, !fds_sent);
		fds_sent = true;
		if (copy_from_iter(skb->data, size, &m->msg_iter) != size) {
			kfree_skb(skb);
			err = -EFAULT;
			goto out_err;
		}
		/* The peer may have gone while we slept for room. */
		other = u->peer;
		if (!other || other->dead || (other->shutdown & RCV_SHUTDOWN)) {
			kfree_skb(skb);
			goto pipe_err;
		}
		maybe_add_creds(skb, u, other);
		skb_queue_tail(other, skb);
		unix_data_ready(other);
		sent += size;
	}
	scm_fp_free(scm.fp);
	return sent;
pipe_err:
	if (sent == 0 && !(flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	err = -EPIPE;
out_err:
	scm_fp_free(scm.fp);
	return sent ? (int)sent : err;
}

static bool same_creds(const struct sk_buff *skb, const struct scm_cookie *scm)
{
	return skb->has_creds == scm->has_creds &&
	       !memcmp(&skb->creds, &scm->creds, sizeof(scm->creds));
}

/* Wait for data on a stream (Linux's unix_stream_data_wait), once:
 * 0 to look again, or sock_wait's error. */
static int unix_stream_data_wait(struct socket *sock, s64 *timeo)
{
	struct unix_sock *u = unix_sk(sock);
	DEFINE_WAIT(w);
	int err = 0;

	prepare_to_wait(&sock->wq, &w, TASK_INTERRUPTIBLE);
	if (list_empty(&u->receive_queue) && !u->sk_err && !(u->shutdown & RCV_SHUTDOWN))
		err = sock_wait(timeo, sock->rcvtimeo_ns);
	finish_wait(&sock->wq, &w);
	return err;
}

/* Linux's unix_stream_read_generic. */
static int unix_stream_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags)
{
	struct unix_sock *u = unix_sk(sock);
	s64 timeo = sock_rcvtimeo(sock, flags & MSG_DONTWAIT);
	size_t target = (flags & MSG_WAITALL) ? size : min(size, (size_t)1);
	struct scm_cookie scm = { 0 };
	bool check_creds = false, named = false;
	struct sk_buff *skb, *last = NULL;
	size_t copied = 0;
	int err = 0;

	if (u->state != TCP_ESTABLISHED)
		return -EINVAL;
	if (flags & MSG_OOB)
		return -EINVAL;	/* Linux's with CONFIG_AF_UNIX_OOB: no urgent byte */
	do {
		size_t chunk, skip;

		/* Peeking goes on past the messages already looked at. */
		skb = (flags & MSG_PEEK) && last ? skb_peek_next(u, last) : skb_peek(u);
		if (!skb) {
			if (copied >= target)
				break;
			if (u->sk_err) {
				err = -u->sk_err;
				u->sk_err = 0;
				break;
			}
			if (u->shutdown & RCV_SHUTDOWN)
				break;
			if (!timeo) {
				err = -EAGAIN;
				break;
			}
			if ((flags & MSG_PEEK) && last)
				break;	/* what was peeked is what there is */
			err = unix_stream_data_wait(sock, &timeo);
			if (err)
				break;
			continue;
		}
		if (check_creds) {
			if (!same_creds(skb, &scm))
				break;	/* never glue messages from different writers */
		} else if (u->passcred) {
			scm.has_creds = skb->has_creds;
			scm.creds = skb->creds;
			check_creds = true;
		}
		if (!named) {
			unix_copy_addr(m, skb->sk);
			named = true;
		}
		skip = skb->consumed;
		chunk = min(skb->len - skip, size);
		if (copy_to_iter(skb->data + skip, chunk, &m->msg_iter) != chunk) {
			err = -EFAULT;
			break;
		}
		copied += chunk;
		size -= chunk;
		if (!(flags & MSG_PEEK)) {
			skb->consumed += chunk;
			if (skb->fp) {
				scm.fp = skb->fp;
				skb->fp = NULL;
			}
			if (skb->consumed < skb->len)
				break;
			skb_unlink(u, skb);
			kfree_skb(skb);
			if (scm.fp)
				break;
		} else {
			if (skb->fp) {
				scm.fp = scm_fp_dup(skb->fp);
				break;
			}
			last = skb;
		}
	} while (size);
	if (copied || scm.fp)
		scm_recv(sock, m, &scm, flags);
	return copied ? (int)copied : err;
}

/* ---- readiness ---- */

/* Linux's unix_poll, for SOCK_STREAM. */
static __poll_t unix_poll(struct file *f, struct socket *sock, poll_table *pt)
{
	struct unix_sock *u = unix_sk(sock);
	__poll_t mask = 0;

	poll_wait(f, &sock->wq, pt);
	if (u->sk_err)
		mask |= POLLERR;
	if (u->shutdown == SHUTDOWN_MASK)
		mask |= POLLHUP;
	if (u->shutdown & RCV_SHUTDOWN)
		mask |= EPOLLRDHUP | POLLIN | POLLRDNORM;
	if (!list_empty(&u->receive_queue))
		mask |= POLLIN | POLLRDNORM;
	if (u->state == TCP_CLOSE)
		mask |= POLLHUP;
	if (unix_writable(u))
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

/* Linux's unix_dgram_poll, for SOCK_DGRAM and SOCK_SEQPACKET. */
static __poll_t unix_dgram_poll(struct file *f, struct socket *sock, poll_table *pt)
{
	struct unix_sock *u = unix_sk(sock), *other;
	__poll_t mask = 0;
	bool writable;

	poll_wait(f, &sock->wq, pt);
	if (u->sk_err)
		mask |= POLLERR;
	if (u->shutdown & RCV_SHUTDOWN)
		mask |= EPOLLRDHUP | POLLIN | POLLRDNORM;
	if (u->shutdown == SHUTDOWN_MASK)
		mask |= POLLHUP;
	if (!list_empty(&u->receive_queue))
		mask |= POLLIN | POLLRDNORM;
	if (u->type == SOCK_SEQPACKET && u->state == TCP_CLOSE)
		mask |= POLLHUP;
	writable = unix_writable(u);
	other = u->peer;
	if (writable && other && other->peer != u && unix_recvq_full(other))
		writable = false;
	if (writable)
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

static int unix_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct unix_sock *u = unix_sk(sock);
	struct sk_buff *skb;
	long amount = 0;

	switch (cmd) {
	case TIOCOUTQ:		/* SIOCOUTQ */
		amount = u->wmem_alloc;
		break;
	case FIONREAD:		/* SIOCINQ */
		if (u->state == TCP_LISTEN)
			return -EINVAL;
		if (u->type == SOCK_STREAM || u->type == SOCK_SEQPACKET) {
			list_for_each_entry(skb, &u->receive_queue, list)
				amount += skb->len - skb->consumed;
		} else {
			skb = skb_peek(u);
			if (skb)
				amount = skb->len;
		}
		break;
	default:
		return -ENOIOCTLCMD;
	}
	return put_user((int)amount, (int __user *)arg);
}

/* ---- options ---- */

static int unix_setsockopt(struct socket *sock, int level, int optname, const void *optval,
			   unsigned int optlen)
{
	struct unix_sock *u = unix_sk(sock);
	int val;

	if (level != SOL_SOCKET)
		return -EOPNOTSUPP;
	if (optlen < sizeof(int))
		return -EINVAL;
	memcpy(&val, optval, sizeof(val));
	switch (optname) {
	case SO_SNDBUF:
	case SO_SNDBUFFORCE:
		val = min(val, SYSCTL_WMEM_MAX);
		u->sndbuf = max(val * 2, SOCK_MIN_SNDBUF);
		unix_write_space(u);	/* room may have appeared */
		return 0;
	case SO_RCVBUF:
	case SO_RCVBUFFORCE:
		val = min(val, SYSCTL_RMEM_MAX);
		u->rcvbuf = max(val * 2, SOCK_MIN_RCVBUF);
		return 0;
	case SO_PASSCRED:
		u->passcred = val != 0;
		return 0;
	case SO_DEBUG:
	case SO_REUSEADDR:
	case SO_DONTROUTE:
	case SO_BROADCAST:
	case SO_KEEPALIVE:
	case SO_OOBINLINE:
	case SO_PRIORITY:
	case SO_REUSEPORT:
		u->inert_opts[optname] = optname == SO_PRIORITY ? val : val != 0;
		return 0;
	case SO_RCVLOWAT:
		u->inert_opts[optname] = val < 0 ? INT32_MAX : val;
		return 0;
	}
	return -ENOPROTOOPT;
}

static int unix_getsockopt(struct socket *sock, int level, int optname, void *optval,
			   int *optlen)
{
	struct unix_sock *u = unix_sk(sock);
	int val;

	if (level != SOL_SOCKET)
		return -EOPNOTSUPP;
	switch (optname) {
	case SO_PEERCRED: {
		struct ucred uc = { 0, (u32)-1, (u32)-1 };

		if (u->peercred_set)
			uc = u->peercred;
		memcpy(optval, &uc, min((size_t)*optlen, sizeof(uc)));
		*optlen = sizeof(uc);
		return 0;
	}
	case SO_ERROR:
		val = u->sk_err;
		u->sk_err = 0;
		break;
	case SO_SNDBUF:
		val = u->sndbuf;
		break;
	case SO_RCVBUF:
		val = u->rcvbuf;
		break;
	case SO_PASSCRED:
		val = u->passcred;
		break;
	case SO_ACCEPTCONN:
		val = u->state == TCP_LISTEN;
		break;
	case SO_RCVLOWAT:
		val = u->inert_opts[optname] ? u->inert_opts[optname] : 1;
		break;
	case SO_DEBUG:
	case SO_REUSEADDR:
	case SO_DONTROUTE:
	case SO_BROADCAST:
	case SO_KEEPALIVE:
	case SO_OOBINLINE:
	case SO_PRIORITY:
	case SO_REUSEPORT:
		val = u->inert_opts[optname];
		break;
	default:
		return -ENOPROTOOPT;
	}
	memcpy(optval, &val, min((size_t)*optlen, sizeof(val)));
	*optlen = sizeof(val);
	return 0;
}

/* ---- the family ---- */

static const struct proto_ops unix_stream_ops = {
	.family = AF_UNIX,
	.release = unix_release,
	.bind = unix_bind,
	.connect = unix_stream_connect,
	.socketpair = unix_socketpair,
	.accept = unix_accept,
	.getname = unix_getname,
	.poll = unix_poll,
	.ioctl = unix_ioctl,
	.listen = unix_listen,
	.shutdown = unix_shutdown,
	.setsockopt = unix_setsockopt,
	.getsockopt = unix_getsockopt,
	.sendmsg = unix_stream_sendmsg,
	.recvmsg = unix_stream_recvmsg,
};

static const struct proto_ops unix_dgram_ops = {
	.family = AF_UNIX,
	.release = unix_release,
	.bind = unix_bind,
	.connect = unix_dgram_connect,
	.socketpair = unix_socketpair,
	.getname = unix_getname,
	.poll = unix_dgram_poll,
	.ioctl = unix_ioctl,
	.shutdown = unix_shutdown,
	.setsockopt = unix_setsockopt,
	.getsockopt = unix_getsockopt,
	.sendmsg = unix_dgram_sendmsg,
	.recvmsg = unix_dgram_recvmsg,
};

static const struct proto_ops unix_seqpacket_ops = {
	.family = AF_UNIX,
	.release = unix_release,
	.bind = unix_bind,
	.connect = unix_stream_connect,
	.socketpair = unix_socketpair,
	.accept = unix_accept,
	.getname = unix_getname,
	.poll = unix_dgram_poll,
	.ioctl = unix_ioctl,
	.listen = unix_listen,
	.shutdown = unix_shutdown,
	.setsockopt = unix_setsockopt,
	.getsockopt = unix_getsockopt,
	.sendmsg = unix_seqpacket_sendmsg,
	.recvmsg = unix_seqpacket_recvmsg,
};

static int unix_create(struct socket *sock, int protocol, int kern)
{
	struct unix_sock *u;

	if (protocol && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	sock->state = SS_UNCONNECTED;
	switch (sock->type) {
	case SOCK_STREAM:
		sock->ops = &unix_stream_ops;
		break;
	case SOCK_RAW:		/* believed to be SOCK_DGRAM, as Linux does */
		sock->type = SOCK_DGRAM;
		/* fallthrough */
	case SOCK_DGRAM:
		sock->ops = &unix_dgram_ops;
		break;
	case SOCK_SEQPACKET:
		sock->ops = &unix_seqpacket_ops;
		break;
	default:
		return -ESOCKTNOSUPPORT;
	}
	u = unix_create1(sock->type);
	u->sock = sock;
	u->ino = sock->ino;
	sock->sk = u;
	sock->protocol = 0;
	return 0;
}

static const struct net_proto_family unix_family_ops = {
	.family = AF_UNIX,
	.create = unix_create,
};

void af_unix_init(void)
{
	sock_register(&unix_family_ops);
}

/* /proc/net/unix (Linux's unix_seq_show): one line per socket. The first
 * column, the kernel address in Linux, is 0 here, as Linux shows it to a
 * reader without CAP_SYSLOG under kptr_restrict. */
int unix_proc_show(char *buf, size_t size)
{
	struct unix_sock *u;
	size_t n;

	n = ksnprintf(buf, size, "Num       RefCount Protocol Flags    Type St Inode Path\n");
	list_for_each_entry(u, &unix_socket_list, link) {
		int st = u->sock ? u->sock->state
				 : (u->state == TCP_ESTABLISHED ? SS_CONNECTED : SS_UNCONNECTED);

		if (n >= size)
			break;
		n += ksnprintf(buf + n, size - n, "%016x: %08X %08X %08X %04X %02X %5lu",
			       0, u->refcnt, 0, u->state == TCP_LISTEN ? (1 << 16) : 0, u->type,
			       st, u->ino);
		if (n < size && u->addr) {
			int i, len = u->addr->len - offsetof(struct sockaddr_un, sun_path);
			const char *p = u->addr->name.sun_path;

			n += ksnprintf(buf + n, size - n, " %c", p[0] ? p[0] : '@');
			if (p[0])
				len--;	/* the terminating NUL */
			for (i = 1; i < len && n < size; i++)
				n += ksnprintf(buf + n, size - n, "%c", p[i] ? p[i] : '@');
		}
		if (n < size)
			n += ksnprintf(buf + n, size - n, "\n");
	}
	return min(n, size);
}
