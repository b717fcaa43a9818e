/*
 * kernel/net/socket.c: the socket layer (Linux's net/socket.c, with the
 * SOL_SOCKET timeouts of net/core/sock.c and put_cmsg of net/core/scm.c).
 * Interface: the socket system calls, the socket files' operations, and
 * include/umk/net.h for the address families.
 *
 * A socket is a file (socket_file_ops) whose private_data is a struct
 * socket; the address family behind it (AF_UNIX: af_unix.c; AF_INET and
 * AF_INET6: af_inet_host.c) registers with sock_register at boot and fills
 * in sock->ops in its create(). Each call here finds the socket of an fd
 * (sockfd_lookup: EBADF, then ENOTSOCK, as Linux checks them), copies the
 * program's addresses, messages and options into the kernel and back, and
 * calls the family. A family not registered is EAFNOSUPPORT.
 *
 * The socket layer handles itself the SOL_SOCKET options that are about
 * the socket and not the family: SO_TYPE, SO_DOMAIN, SO_PROTOCOL and the
 * timeouts SO_RCVTIMEO and SO_SNDTIMEO (old and _NEW layouts), which the
 * families' sleeps read through sock_rcvtimeo/sock_sndtimeo and
 * sock_wait. Every other option goes to ops->setsockopt/getsockopt,
 * -ENOPROTOOPT from there when the family does not know it.
 *
 * Departure from Linux: the timeouts are kept in ns, not jiffies, so
 * getsockopt(SO_RCVTIMEO) gives back the value set to the microsecond.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/net.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>

#define SOCK_MAX 11				/* socket types are below it (include/linux/net.h) */

/* The registered families, by number; NULL: not in this kernel. */
static const struct net_proto_family *net_families[AF_MAX];

/* sockfs, where Linux's socket inodes live: an anonymous device. */
#define SOCKFS_DEV MKDEV(0, 0x08)

int sock_register(const struct net_proto_family *ops)
{
	if (ops->family < 0 || ops->family >= AF_MAX)
		panic("sock_register: family %d out of range", ops->family);
	if (net_families[ops->family])
		return -EEXIST;
	net_families[ops->family] = ops;
	return 0;
}

/* ---- sockets and their files ---- */

static const struct file_operations socket_file_ops;

struct socket *sock_alloc(void)
{
	static unsigned long last_ino;
	struct socket *sock = kmalloc(sizeof(*sock));

	sock->state = SS_UNCONNECTED;
	sock->ino = ++last_ino;
	init_waitqueue_head(&sock->wq);
	return sock;
}

/* The family lets go of its state first; nobody sleeps on sock->wq any
 * more (a sleeper holds a reference to the file), and the file's epoll
 * entries went with its last fput (eventpoll_release). */
void sock_release(struct socket *sock)
{
	if (sock->ops && sock->ops->release)
		sock->ops->release(sock);
	if (waitqueue_active(&sock->wq))
		panic("sock_release: socket %lu still has waiters", sock->ino);
	kfree(sock);
}

struct socket *sock_from_file(struct file *f)
{
	return f->f_op == &socket_file_ops ? f->private_data : NULL;
}

/* A file for sock, O_RDWR with flags' O_NONBLOCK; the file owns sock. */
static struct file *sock_alloc_file(struct socket *sock, int flags)
{
	struct file *f = alloc_file(&socket_file_ops, O_RDWR | (flags & O_NONBLOCK), sock);

	sock->file = f;
	return f;
}

/* Install sock's new file at the lowest free fd: the fd, or -EMFILE with
 * the socket released. */
static int sock_map_fd(struct socket *sock, int flags)
{
	struct file *f = sock_alloc_file(sock, flags);
	int fd = fd_install_lowest(current->files, f, 0, flags & O_CLOEXEC);

	if (fd < 0)
		fput(f);
	return fd;
}

/* The socket of fd with a reference to its file (fput(sock->file) when
 * done), or NULL with *err: -EBADF, or -ENOTSOCK for another file. */
static struct socket *sockfd_lookup(int fd, int *err)
{
	struct file *f = fget((unsigned int)fd);
	struct socket *sock;

	if (!f) {
		*err = -EBADF;
		return NULL;
	}
	sock = sock_from_file(f);
	if (!sock) {
		fput(f);
		*err = -ENOTSOCK;
	}
	return sock;
}

static int sock_sendmsg(struct socket *sock, struct msghdr *m, int flags)
{
	return sock->ops->sendmsg(sock, m, iov_iter_count(&m->msg_iter), flags);
}

static int sock_recvmsg(struct socket *sock, struct msghdr *m, int flags)
{
	return sock->ops->recvmsg(sock, m, iov_iter_count(&m->msg_iter), flags);
}

/* read(2) and readv(2) of a socket: recvmsg without a name or control. */
static ssize_t sock_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *f = iocb->ki_filp;
	struct socket *sock = f->private_data;
	struct msghdr m = { .msg_iter = *to };
	ssize_t ret;

	if (!iov_iter_count(to))	/* Match SYS5 behaviour */
		return 0;
	ret = sock_recvmsg(sock, &m, (f->f_flags & O_NONBLOCK) ? MSG_DONTWAIT : 0);
	*to = m.msg_iter;
	return ret;
}

static ssize_t sock_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *f = iocb->ki_filp;
	struct socket *sock = f->private_data;
	struct msghdr m = { .msg_iter = *from };
	ssize_t ret;

	ret = sock_sendmsg(sock, &m, (f->f_flags & O_NONBLOCK) ? MSG_DONTWAIT : 0);
	*from = m.msg_iter;
	return ret;
}

static unsigned int sock_poll(struct file *f, poll_table *pt)
{
	struct socket *sock = f->private_data;

	return sock->ops->poll ? sock->ops->poll(f, sock, pt) : 0;
}

/* FIONBIO and the fd's own commands are ioctl.c's; the owner's are here
 * (FIOSETOWN and SIOCSPGRP as F_SETOWN, FIOGETOWN and SIOCGPGRP as
 * F_GETOWN); FIONREAD (SIOCINQ) and SIOCOUTQ are the family's. */
static long sock_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct socket *sock = f->private_data;
	int pid;

	switch (cmd) {
	case FIOSETOWN:
	case SIOCSPGRP:
		if (get_user(pid, (int __user *)arg))
			return -EFAULT;
		return f_setown(f, pid, true);
	case FIOGETOWN:
	case SIOCGPGRP:
		return put_user((int)fcntl_owner(f, F_GETOWN, 0), (int __user *)arg);
	}
	return sock->ops->ioctl ? sock->ops->ioctl(sock, cmd, arg) : -ENOIOCTLCMD;
}

/* O_ASYNC on or off (Linux's sock_fasync). Every family's socket takes
 * it; AF_UNIX's signal (af_unix.c), the host's AF_INET ones do not. */
static int sock_fasync(int fd, struct file *f, int on)
{
	struct socket *sock = f->private_data;

	fasync_helper(fd, f, on, &sock->fasync_list);
	return 0;
}

void sock_wake_async(struct socket *sock, int how, int band)
{
	if (!sock || !sock->fasync_list)
		return;
	switch (how) {
	case SOCK_WAKE_SPACE:
		if (!(sock->flags & SOCKWQ_ASYNC_NOSPACE))
			return;
		sock->flags &= ~SOCKWQ_ASYNC_NOSPACE;
		kill_fasync(&sock->fasync_list, SIGIO, band);
		return;
	case SOCK_WAKE_URG:
		kill_fasync(&sock->fasync_list, SIGURG, band);
		return;
	default:
		kill_fasync(&sock->fasync_list, SIGIO, band);
	}
}

/* As sockfs shows a socket: mode 0777, an inode of its own. */
static int sock_fstat(struct file *f, struct stat *st)
{
	struct socket *sock = f->private_data;

	memset(st, 0, sizeof(*st));
	st->st_dev = new_encode_dev(SOCKFS_DEV);
	st->st_ino = sock->ino;
	st->st_mode = S_IFSOCK | 0777;
	st->st_nlink = 1;
	st->st_uid = current->cred.fsuid;
	st->st_gid = current->cred.fsgid;
	st->st_blksize = PAGE_SIZE;
	return 0;
}

static int sock_show_fdinfo(struct file *f, char *buf, size_t size)
{
	struct socket *sock = f->private_data;

	return sock->ops->show_fdinfo ? sock->ops->show_fdinfo(sock, buf, size) : 0;
}

static void sock_close(struct file *f)
{
	sock_release(f->private_data);
}

static const struct file_operations socket_file_ops = {
	.name = "socket",
	.read_iter = sock_read_iter,
	.write_iter = sock_write_iter,
	.poll = sock_poll,
	.ioctl = sock_ioctl,
	.fstat = sock_fstat,
	.show_fdinfo = sock_show_fdinfo,
	.release = sock_close,
	.fasync = sock_fasync,
};

/* ---- what the families share ---- */

int sock_wait(s64 *timeo, s64 sock_timeo)
{
	struct hrtimer_sleeper to;
	u64 start;

	if (!*timeo)
		return -EAGAIN;
	if (signal_pending(current))
		return sock_intr_errno(sock_timeo);
	if (*timeo == MAX_SOCK_TIMEO) {
		schedule();
		return 0;
	}
	start = ktime_get();
	hrtimer_sleeper_start(&to, ktime_add_safe(start, *timeo), "socket");
	if (to.task)
		schedule();
	hrtimer_sleeper_cancel(&to);
	if (!to.task)
		*timeo = 0;
	else
		*timeo = max(*timeo - (s64)(ktime_get() - start), (s64)0);
	return 0;
}

int put_cmsg(struct msghdr *m, int level, int type, int len, const void *data)
{
	struct cmsghdr cm;
	size_t cmlen = CMSG_LEN(len);

	if (!m->msg_control || !m->msg_control_is_user)
		return 0;		/* nowhere to put it (read(2), recv(2)) */
	if (m->msg_controllen < sizeof(cm)) {
		m->msg_flags |= MSG_CTRUNC;
		return 0;
	}
	if (m->msg_controllen < cmlen) {
		m->msg_flags |= MSG_CTRUNC;
		cmlen = m->msg_controllen;
	}
	cm.cmsg_level = level;
	cm.cmsg_type = type;
	cm.cmsg_len = cmlen;
	if (copy_to_user(m->msg_control, &cm, sizeof(cm)) ||
	    copy_to_user((char __user *)m->msg_control + sizeof(cm), data, cmlen - sizeof(cm)))
		return -EFAULT;
	cmlen = min(CMSG_SPACE(len), m->msg_controllen);
	m->msg_control = (char __user *)m->msg_control + cmlen;
	m->msg_controllen -= cmlen;
	return 0;
}

/* ---- addresses ---- */

/* Linux's move_addr_to_kernel: 0, -EINVAL or -EFAULT. */
static int move_addr_to_kernel(void __user *uaddr, int ulen, struct sockaddr_storage *kaddr)
{
	if (ulen < 0 || ulen > (int)sizeof(struct sockaddr_storage))
		return -EINVAL;
	if (ulen == 0)
		return 0;
	if (copy_from_user(kaddr, uaddr, ulen))
		return -EFAULT;
	return 0;
}

/* Linux's move_addr_to_user: as much of the klen bytes at kaddr as the
 * program has room for (*ulen), and klen into *ulen. */
static int move_addr_to_user(const void *kaddr, int klen, void __user *uaddr, int __user *ulen)
{
	int len;

	if (get_user(len, ulen))
		return -EFAULT;
	if (len > klen)
		len = klen;
	if (len < 0)
		return -EINVAL;
	if (len && copy_to_user(uaddr, kaddr, len))
		return -EFAULT;
	return put_user(klen, ulen) ? -EFAULT : 0;
}

/* ---- the system calls ---- */

static int sock_create(int family, int type, int protocol, struct socket **res)
{
	const struct net_proto_family *pf;
	struct socket *sock;
	int err;

	if (family < 0 || family >= AF_MAX)
		return -EAFNOSUPPORT;
	if (type < 0 || type >= SOCK_MAX)
		return -EINVAL;
	pf = net_families[family];
	if (!pf)
		return -EAFNOSUPPORT;
	sock = sock_alloc();
	sock->type = type;
	sock->protocol = protocol;
	err = pf->create(sock, protocol, 0);
	if (err) {
		sock->ops = NULL;	/* nothing of the family's to release */
		sock_release(sock);
		return err;
	}
	*res = sock;
	return 0;
}

long sys_socket(int family, int type, int protocol)
{
	int flags = type & ~SOCK_TYPE_MASK;
	struct socket *sock;
	int err;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	err = sock_create(family, type & SOCK_TYPE_MASK, protocol, &sock);
	if (err)
		return err;
	return sock_map_fd(sock, flags);
}

long sys_socketpair(int family, int type, int protocol, int __user *usockvec)
{
	int flags = type & ~SOCK_TYPE_MASK;
	struct socket *sock1, *sock2;
	int fd[2], err;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	type &= SOCK_TYPE_MASK;
	err = sock_create(family, type, protocol, &sock1);
	if (err)
		return err;
	err = sock_create(family, type, protocol, &sock2);
	if (err) {
		sock_release(sock1);
		return err;
	}
	err = sock1->ops->socketpair ? sock1->ops->socketpair(sock1, sock2) : -EOPNOTSUPP;
	if (err) {
		sock_release(sock2);
		sock_release(sock1);
		return err;
	}
	/* As pipe2: install both, take them back if the copy-out fails. */
	fd[0] = sock_map_fd(sock1, flags);
	if (fd[0] < 0) {
		sock_release(sock2);
		return fd[0];
	}
	fd[1] = sock_map_fd(sock2, flags);
	if (fd[1] < 0) {
		sys_close(fd[0]);
		return fd[1];
	}
	if (copy_to_user(usockvec, fd, sizeof(fd))) {
		sys_close(fd[0]);
		sys_close(fd[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_bind(int fd, void __user *umyaddr, int addrlen)
{
	struct sockaddr_storage address;
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = move_addr_to_kernel(umyaddr, addrlen, &address);
	if (!err)
		err = sock->ops->bind ? sock->ops->bind(sock, (struct sockaddr *)&address, addrlen)
				      : -EOPNOTSUPP;
	fput(sock->file);
	return err;
}

long sys_listen(int fd, int backlog)
{
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	if ((unsigned int)backlog > SOMAXCONN)
		backlog = SOMAXCONN;
	err = sock->ops->listen ? sock->ops->listen(sock, backlog) : -EOPNOTSUPP;
	fput(sock->file);
	return err;
}

long sys_accept4(int fd, void __user *upeer_sockaddr, int __user *upeer_addrlen, int flags)
{
	struct sockaddr_storage address;
	struct socket *sock, *newsock;
	struct file *newfile;
	int err, len, newfd;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = -EOPNOTSUPP;
	if (!sock->ops->accept)
		goto out;
	newsock = sock_alloc();
	newsock->type = sock->type;
	newsock->protocol = sock->protocol;
	newsock->ops = sock->ops;
	err = sock->ops->accept(sock, newsock, sock->file->f_flags);
	if (err) {
		newsock->ops = NULL;
		sock_release(newsock);
		goto out;
	}
	newfile = sock_alloc_file(newsock, flags);
	if (upeer_sockaddr) {
		len = newsock->ops->getname(newsock, (struct sockaddr *)&address, 2);
		if (len < 0) {
			err = -ECONNABORTED;
			fput(newfile);
			goto out;
		}
		err = move_addr_to_user(&address, len, upeer_sockaddr, upeer_addrlen);
		if (err) {
			fput(newfile);
			goto out;
		}
	}
	newfd = fd_install_lowest(current->files, newfile, 0, flags & O_CLOEXEC);
	if (newfd < 0)
		fput(newfile);
	err = newfd;
out:
	fput(sock->file);
	return err;
}

long sys_accept(int fd, void __user *addr, int __user *addrlen)
{
	return sys_accept4(fd, addr, addrlen, 0);
}

long sys_connect(int fd, void __user *uservaddr, int addrlen)
{
	struct sockaddr_storage address;
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = move_addr_to_kernel(uservaddr, addrlen, &address);
	if (!err)
		err = sock->ops->connect(sock, (struct sockaddr *)&address, addrlen,
					 sock->file->f_flags);
	fput(sock->file);
	return err;
}

static long do_getname(int fd, void __user *usockaddr, int __user *usockaddr_len, int peer)
{
	struct sockaddr_storage address;
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = sock->ops->getname(sock, (struct sockaddr *)&address, peer);
	if (err >= 0)
		err = move_addr_to_user(&address, err, usockaddr, usockaddr_len);
	fput(sock->file);
	return err;
}

long sys_getsockname(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	return do_getname(fd, usockaddr, usockaddr_len, 0);
}

long sys_getpeername(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	return do_getname(fd, usockaddr, usockaddr_len, 1);
}

long sys_sendto(int fd, void __user *buff, size_t len, unsigned int flags, void __user *addr,
		int addrlen)
{
	struct sockaddr_storage address;
	struct iovec iov = { buff, min(len, (size_t)MAX_RW_COUNT) };
	struct msghdr m = { 0 };
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	iov_iter_init(&m.msg_iter, &iov, 1, iov.iov_len);
	if (addr) {
		err = move_addr_to_kernel(addr, addrlen, &address);
		if (err)
			goto out;
		m.msg_name = &address;
		m.msg_namelen = addrlen;
	}
	if (sock->file->f_flags & O_NONBLOCK)
		flags |= MSG_DONTWAIT;
	err = sock_sendmsg(sock, &m, flags);
out:
	fput(sock->file);
	return err;
}

long sys_recvfrom(int fd, void __user *ubuf, size_t size, unsigned int flags,
		  void __user *addr, int __user *addr_len)
{
	struct sockaddr_storage address;
	struct iovec iov = { ubuf, min(size, (size_t)MAX_RW_COUNT) };
	struct msghdr m = { .msg_name = addr ? &address : NULL };
	struct socket *sock;
	int err, err2;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	iov_iter_init(&m.msg_iter, &iov, 1, iov.iov_len);
	if (sock->file->f_flags & O_NONBLOCK)
		flags |= MSG_DONTWAIT;
	err = sock_recvmsg(sock, &m, flags);
	if (err >= 0 && addr) {
		err2 = move_addr_to_user(&address, m.msg_namelen, addr, addr_len);
		if (err2 < 0)
			err = err2;
	}
	fput(sock->file);
	return err;
}

/* A user msghdr copied in: its name buffer, iovec (*iov: kfree it) and
 * control pointer (Linux's copy_msghdr_from_user). */
static int copy_msghdr_from_user(struct msghdr *kmsg, struct user_msghdr __user *umsg,
				 struct sockaddr_storage *address, void __user **uaddr,
				 struct iovec **iov)
{
	struct user_msghdr msg;
	int err;

	if (copy_from_user(&msg, umsg, sizeof(msg)))
		return -EFAULT;
	memset(kmsg, 0, sizeof(*kmsg));
	kmsg->msg_control = msg.msg_control;
	kmsg->msg_controllen = msg.msg_controllen;
	kmsg->msg_flags = msg.msg_flags;
	kmsg->msg_control_is_user = true;
	if (!msg.msg_name)
		msg.msg_namelen = 0;
	if (msg.msg_namelen < 0)
		return -EINVAL;
	if (msg.msg_namelen > (int)sizeof(struct sockaddr_storage))
		msg.msg_namelen = sizeof(struct sockaddr_storage);
	kmsg->msg_namelen = msg.msg_namelen;
	if (uaddr) {		/* recvmsg: the name goes back there */
		*uaddr = msg.msg_name;
		kmsg->msg_name = msg.msg_name ? address : NULL;
	} else if (msg.msg_name && msg.msg_namelen) {
		err = move_addr_to_kernel(msg.msg_name, msg.msg_namelen, address);
		if (err)
			return err;
		kmsg->msg_name = address;
	}
	if (msg.msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	return import_iovec(msg.msg_iov, msg.msg_iovlen, iov, &kmsg->msg_iter);
}

static long ___sys_sendmsg(struct socket *sock, struct user_msghdr __user *umsg,
			   unsigned int flags)
{
	struct sockaddr_storage address;
	struct iovec *iov = NULL;
	struct msghdr m;
	void *ctl = NULL;
	long err;

	err = copy_msghdr_from_user(&m, umsg, &address, NULL, &iov);
	if (err)
		goto out;
	err = -ENOBUFS;
	if (m.msg_controllen > INT32_MAX)
		goto out;
	if (m.msg_controllen) {
		/* The family reads the control messages in kernel memory. */
		ctl = kmalloc(m.msg_controllen);
		err = -EFAULT;
		if (copy_from_user(ctl, m.msg_control, m.msg_controllen))
			goto out;
	}
	m.msg_control = (void __user *)ctl;
	m.msg_control_is_user = false;
	if (sock->file->f_flags & O_NONBLOCK)
		flags |= MSG_DONTWAIT;
	err = sock_sendmsg(sock, &m, flags);
out:
	kfree(ctl);
	kfree(iov);
	return err;
}

static long ___sys_recvmsg(struct socket *sock, struct user_msghdr __user *umsg,
			   unsigned int flags)
{
	struct sockaddr_storage address;
	struct iovec *iov = NULL;
	void __user *uaddr, __user *cmsg_start;
	struct msghdr m;
	long err, len;

	err = copy_msghdr_from_user(&m, umsg, &address, &uaddr, &iov);
	if (err)
		goto out;
	cmsg_start = m.msg_control;
	m.msg_flags = 0;
	m.msg_namelen = 0;
	if (sock->file->f_flags & O_NONBLOCK)
		flags |= MSG_DONTWAIT;
	err = sock_recvmsg(sock, &m, flags);
	if (err < 0)
		goto out;
	len = err;
	if (uaddr) {
		err = move_addr_to_user(&address, m.msg_namelen, uaddr, &umsg->msg_namelen);
		if (err)
			goto out;
	}
	err = -EFAULT;
	if (put_user(m.msg_flags, &umsg->msg_flags))
		goto out;
	if (put_user((size_t)((char __user *)m.msg_control - (char __user *)cmsg_start),
		     &umsg->msg_controllen))
		goto out;
	err = len;
out:
	kfree(iov);
	return err;
}

long sys_sendmsg(int fd, void __user *msg, unsigned int flags)
{
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = ___sys_sendmsg(sock, msg, flags);
	fput(sock->file);
	return err;
}

long sys_recvmsg(int fd, void __user *msg, unsigned int flags)
{
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = ___sys_recvmsg(sock, msg, flags);
	fput(sock->file);
	return err;
}

/* Linux's __sys_sendmmsg: the messages sent, or the first one's error. */
long sys_sendmmsg(int fd, void __user *mmsg, unsigned int vlen, unsigned int flags)
{
	struct mmsghdr __user *entry = mmsg;
	struct socket *sock;
	unsigned int datagrams = 0;
	long err;
	int lerr;

	sock = sockfd_lookup(fd, &lerr);
	if (!sock)
		return lerr;
	if (vlen > UIO_MAXIOV)
		vlen = UIO_MAXIOV;
	err = 0;
	while (datagrams < vlen) {
		err = ___sys_sendmsg(sock, &entry->msg_hdr, flags);
		if (err < 0)
			break;
		if (put_user((unsigned int)err, &entry->msg_len)) {
			err = -EFAULT;
			break;
		}
		entry++;
		datagrams++;
	}
	fput(sock->file);
	return datagrams ? (long)datagrams : err;
}

/* Linux's do_recvmmsg: MSG_WAITFORONE makes every receive after the first
 * non-blocking; the timeout is checked after each message, and what is
 * left of it written back. */
long sys_recvmmsg(int fd, void __user *mmsg, unsigned int vlen, unsigned int flags,
		  void __user *timeout)
{
	struct mmsghdr __user *entry = mmsg;
	struct __kernel_timespec ts;
	struct socket *sock;
	unsigned int datagrams = 0;
	u64 end = 0;
	long err;
	int lerr;

	if (timeout) {
		if (get_timespec64(&ts, timeout))
			return -EFAULT;
		if (!timespec64_valid(&ts))
			return -EINVAL;
		end = ktime_add_safe(ktime_get(), timespec_to_ns(&ts));
	}
	sock = sockfd_lookup(fd, &lerr);
	if (!sock)
		return lerr;
	if (vlen > UIO_MAXIOV)
		vlen = UIO_MAXIOV;
	err = 0;
	while (datagrams < vlen) {
		err = ___sys_recvmsg(sock, &entry->msg_hdr, flags & ~MSG_WAITFORONE);
		if (err < 0)
			break;
		if (put_user((unsigned int)err, &entry->msg_len)) {
			err = -EFAULT;
			break;
		}
		entry++;
		datagrams++;
		if (flags & MSG_WAITFORONE)
			flags |= MSG_DONTWAIT;
		if (timeout && ktime_get() >= end)
			break;
	}
	fput(sock->file);
	if (timeout) {
		s64 left = (s64)(end - ktime_get());

		ts = ns_to_timespec(left > 0 ? left : 0);
		if (copy_to_user(timeout, &ts, sizeof(ts)))
			return -EFAULT;
	}
	if (!datagrams)
		return err;
	return datagrams;
}

long sys_shutdown(int fd, int how)
{
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = sock->ops->shutdown ? sock->ops->shutdown(sock, how) : -EOPNOTSUPP;
	fput(sock->file);
	return err;
}

/* ---- options ---- */

/* SO_RCVTIMEO and SO_SNDTIMEO (net/core/sock.c's sock_set_timeout): both
 * layouts are two 64-bit fields on x86-64. 0 is no timeout; a negative
 * one is as good as none to wait (Linux keeps 0 jiffies: 1 ns here). */
static int sock_set_timeout(s64 *timeo_p, const void *optval, unsigned int optlen)
{
	struct __kernel_sock_timeval tv;

	if (optlen < sizeof(tv))
		return -EINVAL;
	memcpy(&tv, optval, sizeof(tv));
	if (tv.tv_usec < 0 || tv.tv_usec >= NSEC_PER_SEC / NSEC_PER_USEC)
		return -EDOM;
	if (tv.tv_sec < 0) {
		*timeo_p = 1;
		return 0;
	}
	if (tv.tv_sec >= KTIME_SEC_MAX - 1)
		*timeo_p = 0;
	else
		*timeo_p = tv.tv_sec * NSEC_PER_SEC + tv.tv_usec * NSEC_PER_USEC;
	return 0;
}

/* The options the socket layer answers itself; -ENOPROTOOPT for the rest. */
static int sock_setsockopt(struct socket *sock, int optname, const void *optval,
			   unsigned int optlen)
{
	switch (optname) {
	case SO_RCVTIMEO_OLD:
	case SO_RCVTIMEO_NEW:
		return sock_set_timeout(&sock->rcvtimeo_ns, optval, optlen);
	case SO_SNDTIMEO_OLD:
	case SO_SNDTIMEO_NEW:
		return sock_set_timeout(&sock->sndtimeo_ns, optval, optlen);
	case SO_TYPE:
	case SO_DOMAIN:
	case SO_PROTOCOL:
	case SO_ACCEPTCONN:
		return -ENOPROTOOPT;	/* read-only */
	}
	return -ENOPROTOOPT;
}

/* Into v (room for 16 bytes): the value's length, or -ENOPROTOOPT. */
static int sock_getsockopt(struct socket *sock, int optname, void *v)
{
	struct __kernel_sock_timeval tv;
	s64 timeo;

	switch (optname) {
	case SO_TYPE:
		*(int *)v = sock->type;
		return sizeof(int);
	case SO_DOMAIN:
		*(int *)v = sock->ops->family;
		return sizeof(int);
	case SO_PROTOCOL:
		*(int *)v = sock->protocol;
		return sizeof(int);
	case SO_RCVTIMEO_OLD:
	case SO_RCVTIMEO_NEW:
	case SO_SNDTIMEO_OLD:
	case SO_SNDTIMEO_NEW:
		timeo = (optname == SO_RCVTIMEO_OLD || optname == SO_RCVTIMEO_NEW)
				? sock->rcvtimeo_ns : sock->sndtimeo_ns;
		tv.tv_sec = timeo / NSEC_PER_SEC;
		tv.tv_usec = (timeo % NSEC_PER_SEC) / NSEC_PER_USEC;
		memcpy(v, &tv, sizeof(tv));
		return sizeof(tv);
	}
	return -ENOPROTOOPT;
}

#define SOCKOPT_MAX 65536	/* the longest option value copied in */

long sys_setsockopt(int fd, int level, int optname, char __user *optval, int optlen)
{
	struct socket *sock;
	void *kval = NULL;
	int err;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = -EINVAL;
	if (optlen < 0 || optlen > SOCKOPT_MAX)
		goto out;
	kval = kmalloc(optlen ? optlen : 1);
	err = -EFAULT;
	if (optlen && copy_from_user(kval, optval, optlen))
		goto out;
	err = -ENOPROTOOPT;
	if (level == SOL_SOCKET)
		err = sock_setsockopt(sock, optname, kval, optlen);
	if (err == -ENOPROTOOPT && sock->ops->setsockopt)
		err = sock->ops->setsockopt(sock, level, optname, kval, optlen);
	if (err == -ENOPROTOOPT && level != SOL_SOCKET && !sock->ops->setsockopt)
		err = -EOPNOTSUPP;
out:
	kfree(kval);
	fput(sock->file);
	return err;
}

long sys_getsockopt(int fd, int level, int optname, char __user *optval, int __user *optlen)
{
	char kval[256];
	struct socket *sock;
	int err, len, lv;

	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = -EFAULT;
	if (get_user(len, optlen))
		goto out;
	err = -EINVAL;
	if (len < 0)
		goto out;
	memset(kval, 0, sizeof(kval));
	lv = -ENOPROTOOPT;
	if (level == SOL_SOCKET)
		lv = sock_getsockopt(sock, optname, kval);
	if (lv == -ENOPROTOOPT && sock->ops->getsockopt) {
		/* The family writes its value and says its length. */
		lv = min(len, (int)sizeof(kval));
		err = sock->ops->getsockopt(sock, level, optname, kval, &lv);
		if (err)
			goto out;
	} else if (lv < 0) {
		err = level == SOL_SOCKET ? -ENOPROTOOPT : -EOPNOTSUPP;
		goto out;
	}
	if (len > lv)
		len = lv;
	err = -EFAULT;
	if (copy_to_user(optval, kval, len) || put_user(len, optlen))
		goto out;
	err = 0;
out:
	fput(sock->file);
	return err;
}
