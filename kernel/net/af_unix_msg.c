/*
 * kernel/net/af_unix_msg.c: AF_UNIX's data path (Linux's net/unix/af_unix.c,
 * its sendmsg, recvmsg, poll and ioctl): datagrams and SOCK_SEQPACKET's
 * messages, streams with their urgent byte (MSG_OOB), the control data a
 * message carries (credentials, files: kernel/net/scm.c parses them) and
 * readiness. Interface: the proto_ops functions af_unix.c's tables name
 * (kernel/net/af_unix.h). Sockets, names and connections are af_unix.c's.
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

/* ---- control messages (the parsing: kernel/net/scm.c) ---- */

/* The credentials a message carries: the ones given, else the sender's
 * when either end asks for them (Linux's maybe_add_creds). */
static void unix_scm_to_skb(struct scm_cookie *scm, struct sk_buff *skb, bool send_fds)
{
	if (scm->has_creds) {
		skb->has_creds = true;
		skb->creds = scm->creds;
	}
	if (send_fds && scm->fp) {
		skb->fp = scm->fp;
		scm->fp = NULL;
		for (int i = 0; i < skb->fp->count; i++)
			unix_inflight(skb->fp->fp[i]);
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

int unix_dgram_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags)
{
	struct sockaddr_un *sunaddr = m->msg_name;
	struct unix_sock *u = unix_sk(sock), *other = NULL;
	struct scm_cookie scm;
	struct sk_buff *skb;
	s64 timeo;
	int err;

	wait_for_unix_gc();
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

struct sk_buff *unix_dgram_wait(struct socket *sock, s64 *timeo, int *err)
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

int unix_dgram_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags)
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
		scm.fp = unix_detach_fds(skb);
	}
	scm_recv(sock, m, &scm, flags);
	err = (flags & MSG_TRUNC) ? (int)skb->len : (int)size;
out:
	if (!(flags & MSG_PEEK))
		kfree_skb(skb);
	return err;
}

int unix_seqpacket_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags)
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

int unix_seqpacket_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags)
{
	if (unix_sk(sock)->state != TCP_ESTABLISHED)
		return -ENOTCONN;
	return unix_dgram_recvmsg(sock, m, size, flags);
}

/* ---- streams ---- */

/* MSG_OOB's last byte: a message of its own on the peer's queue, which
 * becomes the peer's urgent mark (oob_skb), replacing an earlier one
 * (which stays on the queue as ordinary data); SIGURG to the peer file's
 * owner (F_SETOWN), and to its O_ASYNC files' owners that set a signal
 * (Linux's queue_oob and sk_send_sigurg). */
static int queue_oob(struct unix_sock *u, struct msghdr *m, struct scm_cookie *scm, bool fds_sent,
		     int flags)
{
	struct unix_sock *other;
	struct sk_buff *skb;
	int err;

	skb = unix_alloc_skb(u, 1, flags & MSG_DONTWAIT, &err);
	if (!skb)
		return err;
	unix_scm_to_skb(scm, skb, !fds_sent);
	if (copy_from_iter(skb->data, 1, &m->msg_iter) != 1) {
		kfree_skb(skb);
		return -EFAULT;
	}
	other = u->peer;
	if (!other || other->dead || (other->shutdown & RCV_SHUTDOWN)) {
		kfree_skb(skb);
		return -EPIPE;
	}
	maybe_add_creds(skb, u, other);
	other->oob_skb = skb;
	skb_queue_tail(other, skb);
	if (other->sock && other->sock->file && send_sigurg(&other->sock->file->f_owner))
		sock_wake_async(other->sock, SOCK_WAKE_URG, POLL_PRI);
	unix_data_ready(other);
	return 0;
}

int unix_stream_sendmsg(struct socket *sock, struct msghdr *m, size_t len, int flags)
{
	struct unix_sock *u = unix_sk(sock), *other;
	struct scm_cookie scm;
	struct sk_buff *skb;
	bool fds_sent = false;
	size_t sent = 0;
	int err;

	wait_for_unix_gc();
	err = scm_send(m, &scm);
	if (err)
		return err;
	err = -EOPNOTSUPP;
	if (flags & MSG_OOB) {
		if (!len)
			goto out_err;
		len--;		/* the last byte goes on its own: queue_oob */
	}
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
	if (flags & MSG_OOB) {
		err = queue_oob(u, m, &scm, fds_sent, flags);
		if (err == -EPIPE)
			goto pipe_err;
		if (err)
			goto out_err;
		sent++;
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
static size_t unix_skb_len(const struct sk_buff *skb)
{
	return skb->len - skb->consumed;
}

/* recv(MSG_OOB): the urgent byte, which stays on the queue, read (Linux's
 * unix_stream_recv_urg). -EINVAL when there is none or it is read inline
 * (SO_OOBINLINE). */
static int unix_stream_recv_urg(struct unix_sock *u, struct msghdr *m, int flags)
{
	struct sk_buff *oob_skb = u->oob_skb;

	if (u->oobinline || !oob_skb)
		return -EINVAL;
	if (!(flags & MSG_PEEK)) {
		u->oob_skb = NULL;
		/* an urgent byte read before, left where the mark was */
		if (oob_skb->list.prev != &u->receive_queue) {
			struct sk_buff *prev = list_entry(oob_skb->list.prev, struct sk_buff, list);

			if (!unix_skb_len(prev)) {
				skb_unlink(u, prev);
				kfree_skb(prev);
			}
		}
	}
	if (copy_to_iter(oob_skb->data + oob_skb->consumed, 1, &m->msg_iter) != 1)
		return -EFAULT;
	if (!(flags & MSG_PEEK))
		oob_skb->consumed++;
	m->msg_flags |= MSG_OOB;
	return 1;
}

/* An ordinary read meets skb: the one to read from, or NULL to stop there
 * (Linux's manage_oob). An urgent byte already read out of band is passed
 * (dropped unless peeking); a read stops at the mark once it has bytes;
 * at the mark with none, the urgent byte not read out of band is dropped
 * (read as data with SO_OOBINLINE). *last is where a peek goes on from. */
static struct sk_buff *manage_oob(struct unix_sock *u, struct sk_buff *skb,
				  struct sk_buff **last, int flags, size_t copied)
{
	if (unix_skb_len(skb) && skb != u->oob_skb)
		return skb;
	if (!unix_skb_len(skb)) {
		struct sk_buff *read_skb = skb;

		if (copied && (!u->oob_skb || skb == u->oob_skb))
			return NULL;
		skb = skb_peek_next(u, skb);
		if (flags & MSG_PEEK) {
			*last = read_skb;
		} else {
			skb_unlink(u, read_skb);
			kfree_skb(read_skb);
			*last = skb;
		}
		if (!skb)
			return NULL;
	}
	if (skb != u->oob_skb)
		return skb;
	if (copied)
		return NULL;
	if (!(flags & MSG_PEEK)) {
		u->oob_skb = NULL;
		if (!u->oobinline) {
			skb_unlink(u, skb);
			kfree_skb(skb);
			skb = skb_peek(u);
			*last = skb;
		}
	} else if (!u->oobinline) {
		*last = skb;
		skb = skb_peek_next(u, skb);
	}
	return skb;
}

int unix_stream_recvmsg(struct socket *sock, struct msghdr *m, size_t size, int flags)
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
		return unix_stream_recv_urg(u, m, flags);
	do {
		size_t chunk, skip;

		/* Peeking goes on past the messages already looked at. */
		skb = (flags & MSG_PEEK) && last ? skb_peek_next(u, last) : skb_peek(u);
		if (skb) {
			skb = manage_oob(u, skb, &last, flags, copied);
			if (!skb && (copied || !size))
				break;
		}
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
			if ((flags & MSG_PEEK) && copied)
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
			if (skb->fp)
				scm.fp = unix_detach_fds(skb);
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
__poll_t unix_poll(struct file *f, struct socket *sock, poll_table *pt)
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
	if (u->oob_skb)
		mask |= POLLPRI;
	if (u->state == TCP_CLOSE)
		mask |= POLLHUP;
	if (unix_writable(u))
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

/* Linux's unix_dgram_poll, for SOCK_DGRAM and SOCK_SEQPACKET. */
__poll_t unix_dgram_poll(struct file *f, struct socket *sock, poll_table *pt)
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

int unix_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
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
				amount += unix_skb_len(skb);
		} else {
			skb = skb_peek(u);
			if (skb)
				amount = skb->len;
		}
		break;
	case SIOCATMARK:	/* Linux's: the next byte read is the urgent one */
		if (u->type != SOCK_STREAM)
			return -EOPNOTSUPP;
		skb = skb_peek(u);
		if (skb) {
			struct sk_buff *next = skb_peek_next(u, skb);

			amount = skb == u->oob_skb ||
				 (!unix_skb_len(skb) && (!u->oob_skb || next == u->oob_skb));
		}
		break;
	default:
		return -ENOIOCTLCMD;
	}
	return put_user((int)amount, (int __user *)arg);
}
