/*
 * kernel/net/af_unix.c: AF_UNIX sockets in the kernel (Linux's
 * net/unix/af_unix.c, with the buffer accounting of net/core/sock.c; the
 * data path (sendmsg, recvmsg, poll, ioctl) is kernel/net/af_unix_msg.c,
 * the control messages kernel/net/scm.c, the collector of sockets in
 * flight kernel/net/garbage.c, the structures kernel/net/af_unix.h).
 * Interface: af_unix_init, which registers the family, and through it the
 * proto_ops of the three types; unix_proc_show for /proc/net/unix.
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
 * Files in flight (SCM_RIGHTS) are counted as they go into a message and
 * come out of it (unix_inflight, unix_notinflight); sockets that only
 * messages in flight keep alive, in a cycle, are freed by garbage.c's
 * unix_gc, which every release runs while files are in flight.
 *
 * MSG_OOB on a stream is Linux's CONFIG_AF_UNIX_OOB: one urgent byte, the
 * mark (oob_skb), read with MSG_OOB or inline (SO_OOBINLINE), SIOCATMARK,
 * POLLPRI.
 *
 * Departures from Linux: no SIGURG for an urgent byte (umk keeps no
 * F_SETOWN owner), no SO_PEEK_OFF, no SCM_PIDFD.
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

#include "af_unix.h"

#define UNIX_AUTOBIND_LEN (offsetof(struct sockaddr_un, sun_path) + 6)

static LIST_HEAD(unix_socket_list);

static const struct proto_ops unix_stream_ops;
static const struct proto_ops unix_dgram_ops;
static const struct proto_ops unix_seqpacket_ops;


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
	INIT_LIST_HEAD(&u->gc_link);
	init_waitqueue_head(&u->peer_wait);
	list_add_tail(&u->link, &unix_socket_list);
	return u;
}


static void unix_release_addr(struct unix_address *addr)
{
	if (addr && !--addr->refcnt)
		kfree(addr);
}

void sock_put(struct unix_sock *u)
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
void unix_wake(struct unix_sock *u, unsigned int events)
{
	if (u->sock)
		wake_up_poll(&u->sock->wq, events);
}

/* Data arrived (Linux's sk_data_ready, sock_def_readable). */
void unix_data_ready(struct unix_sock *u)
{
	unix_wake(u, POLLIN | POLLRDNORM | POLLRDBAND | POLLPRI);
	sock_wake_async(u->sock, SOCK_WAKE_WAITD, POLL_IN);
}

/* A shutdown, a connection or an error: everyone looks again. */
void unix_state_change(struct unix_sock *u)
{
	if (u->sock)
		wake_up(&u->sock->wq);
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

/* A message of size bytes from u, charged to it (Linux's
 * sock_alloc_send_pskb): waits while u's send buffer is full. NULL with
 * *err: -EPIPE after a shutdown, a pending error, -EAGAIN, or what
 * sock_wait returns for a signal. */
struct sk_buff *unix_alloc_skb(struct unix_sock *u, size_t size, bool noblock, int *err)
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

/* Take skb's files out of flight: the caller owns their references now
 * (Linux's unix_detach_fds). */
struct scm_fp_list *unix_detach_fds(struct sk_buff *skb)
{
	struct scm_fp_list *fpl = skb->fp;

	skb->fp = NULL;
	for (int i = 0; fpl && i < fpl->count; i++)
		unix_notinflight(fpl->fp[i]);
	return fpl;
}

static void unix_release_sock(struct unix_sock *u, bool embrion);

void kfree_skb(struct sk_buff *skb)
{
	struct unix_sock *sender = skb->sk;

	scm_fp_free(unix_detach_fds(skb));
	if (skb->embryo) {
		unix_release_sock(skb->embryo, true);
		sock_put(skb->embryo);
	}
	sender->wmem_alloc -= skb->truesize;
	unix_write_space(sender);
	sock_put(sender);
	kfree(skb);
}




void skb_unlink(struct unix_sock *u, struct sk_buff *skb)
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


void current_ucred(struct ucred *uc)
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
	u->oob_skb = NULL;
	wake_up(&u->peer_wait);
	if (skpair) {
		if (u->type == SOCK_STREAM || u->type == SOCK_SEQPACKET) {
			struct sk_buff *skb = skb_peek(u);

			/* an urgent byte read out of band is not unread data */
			if (skb && skb->consumed == skb->len)
				skb = skb_peek_next(u, skb);
			skpair->shutdown = SHUTDOWN_MASK;
			if (skb || embrion)
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
	/* u may have been the last outside reference to a cycle. */
	if (unix_tot_inflight)
		unix_gc();
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
int unix_validate_addr(const struct sockaddr_un *sunaddr, int addr_len)
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
struct unix_sock *unix_find_other(struct sockaddr_un *sunaddr, int addr_len, int type,
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
int unix_autobind(struct unix_sock *u)
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
void unix_copy_addr(struct msghdr *m, const struct unix_sock *sender)
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
int unix_wait_for_peer(struct unix_sock *other, s64 *timeo, s64 sock_timeo)
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
bool unix_may_send(const struct unix_sock *u, const struct unix_sock *other)
{
	return !other->peer || other->peer == u;
}

/* A datagram socket's peer changed from old: its unread messages go, and
 * a peer connected back to it learns of it (Linux's
 * unix_dgram_disconnected). */
void unix_dgram_disconnected(struct unix_sock *u, struct unix_sock *old)
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

static int unix_accept(struct socket *sock, struct socket *newsock, int flags)
{
	struct unix_sock *u = unix_sk(sock), *tsk;
	struct sk_buff *skb;
	s64 timeo;
	int err;

	if (sock->type != SOCK_STREAM && sock->type != SOCK_SEQPACKET)
		return -EOPNOTSUPP;
	if (u->state != TCP_LISTEN)
		return -EINVAL;
	/* A connection request is a message on the listener's queue (Linux's
	 * skb_recv_datagram); none after a shutdown is EINVAL. */
	timeo = sock_rcvtimeo(sock, flags & O_NONBLOCK);
	skb = unix_dgram_wait(sock, &timeo, &err);
	if (!skb)
		return err ? err : -EINVAL;
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
	case SO_OOBINLINE:
		u->oobinline = val != 0;
		return 0;
	case SO_DEBUG:
	case SO_REUSEADDR:
	case SO_DONTROUTE:
	case SO_BROADCAST:
	case SO_KEEPALIVE:
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
	case SO_OOBINLINE:
		val = u->oobinline;
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
