/*
 * kernel/ipc/mqueue.c: POSIX message queues (Linux's ipc/mqueue.c): mq_open,
 * mq_unlink, mq_timedsend, mq_timedreceive, mq_notify, mq_getsetattr.
 *
 * A queue has a name in one flat namespace (Linux's mqueue file system,
 * which umk does not mount: there is no /dev/mqueue) and lives while it
 * has its name or an open descriptor. A descriptor is a file: read gives
 * Linux's "QSIZE:... NOTIFY:... SIGNO:... NOTIFY_PID:..." line, poll says
 * POLLIN while there are messages and POLLOUT while there is room, through
 * the readiness interface (info->wait_q, include/umk/poll.h), so select
 * and epoll work on it. Like Linux's, every mq descriptor is
 * close-on-exec.
 *
 * Messages are kept by priority, highest first, in order of sending within
 * one. A send to a queue with a sleeping receiver hands the message over
 * (pipelined_send); a receive from a full queue with a sleeping sender
 * takes that sender's message in (pipelined_receive). Sleepers are served
 * in arrival order (Linux orders them by task priority first).
 *
 * Restarts: a signal ends the sleep with -ERESTARTSYS, as Linux's wq_sleep:
 * SA_RESTART restarts the call, and so does a stop. The timeout is an
 * absolute CLOCK_REALTIME time (ETIMEDOUT), checked against the kernel's
 * clock by its distance from CLOCK_MONOTONIC when the call starts.
 *
 * mq_notify: SIGEV_SIGNAL sends its signal (si_code SI_MESGQ, the sender's
 * pid and uid, sigev_value) to the registered process when a message
 * arrives in an empty queue that nobody waits on, SIGEV_NONE registers
 * without a signal; either is one-shot and one process's at a time
 * (EBUSY). SIGEV_THREAD needs a netlink socket, which umk does not have.
 *
 * Limits: /proc/sys/fs/mqueue's defaults (msg_default and msg_max 10,
 * msgsize_default and msgsize_max 8192, queues_max 256), the hard limits
 * for CAP_SYS_RESOURCE, and RLIMIT_MSGQUEUE per real uid counted as
 * Linux counts a queue's bytes (EMFILE past it).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/list.h>
#include <umk/poll.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>
#include <umk/uapi/fcntl.h>
#include <umk/uapi/siginfo.h>

#include <umk/sched/signal.h>

#include "util.h"

#define SI_MESGQ -3
#define NAME_MAX 255
/* what Linux charges a queue besides its messages' bytes: a struct msg_msg
 * and a priority node (posix_msg_tree_node) per message, 48 bytes each */
#define MQ_MSG_OVERHEAD 48
#define MQ_NODE_OVERHEAD 48

struct mq_msg {
	struct list_head m_list;
	unsigned int m_prio;
	size_t m_ts;
	char m_text[];
};

/* A sleeping sender or receiver (Linux's ext_wait_queue). */
struct ext_wait_queue {
	struct list_head list;
	struct task_struct *task;
	struct mq_msg *msg;	/* the sender's; the receiver's once READY */
	bool ready;
};

#define SEND 0
#define RECV 1

struct mqueue_inode_info {
	struct list_head list;		/* in mq_names while it has its name */
	char name[NAME_MAX + 1];
	bool linked;
	int count;			/* open files, and 1 for the name */
	uid_t uid, cuser;		/* owner; the real uid charged */
	gid_t gid;
	unsigned int mode;
	struct mq_attr attr;		/* mq_maxmsg, mq_msgsize, mq_curmsgs */
	unsigned long mq_bytes;		/* charged to cuser's RLIMIT_MSGQUEUE */
	struct list_head msgs;		/* by priority, then arrival */
	unsigned long qsize;		/* bytes of the messages */
	struct list_head e_wait_q[2];	/* sleeping senders, receivers */
	struct wait_queue_head wait_q;	/* pollers */
	pid_t notify_owner;		/* 0: none */
	struct sigevent notify;
	uid_t notify_uid;
};

static LIST_HEAD(mq_names);
static int mq_queues_count;

/* RLIMIT_MSGQUEUE's count per real uid (Linux's ucounts). */
struct mq_user {
	struct list_head list;
	uid_t uid;
	unsigned long mq_bytes;
};
static LIST_HEAD(mq_users);

static struct mq_user *mq_user(uid_t uid)
{
	struct mq_user *u;

	list_for_each_entry(u, &mq_users, list)
		if (u->uid == uid)
			return u;
	u = kmalloc(sizeof(*u));
	u->uid = uid;
	list_add(&u->list, &mq_users);
	return u;
}

static const struct file_operations mqueue_file_operations;

static struct mqueue_inode_info *mq_lookup(const char *name)
{
	struct mqueue_inode_info *info;

	list_for_each_entry(info, &mq_names, list)
		if (!strcmp(info->name, name))
			return info;
	return NULL;
}

static void put_mqueue(struct mqueue_inode_info *info)
{
	struct mq_msg *m, *t;

	if (--info->count)
		return;
	if (!list_empty(&info->e_wait_q[SEND]) || !list_empty(&info->e_wait_q[RECV]) ||
	    waitqueue_active(&info->wait_q))
		panic("put_mqueue: queue %s still has waiters", info->name);
	list_for_each_entry_safe(m, t, &info->msgs, m_list)
		kfree(m);
	mq_user(info->cuser)->mq_bytes -= info->mq_bytes;
	mq_queues_count--;
	kfree(info);
}

/* Linux's generic_permission on the queue's mode for MAY_READ (4) and
 * MAY_WRITE (2), with CAP_DAC_OVERRIDE. */
static int mq_permission(struct mqueue_inode_info *info, int mask)
{
	unsigned int mode = info->mode;

	if (current->cred.fsuid == info->uid)
		mode >>= 6;
	else if (in_group_p(info->gid))
		mode >>= 3;
	if ((mask & ~mode & 7) && !capable(CAP_DAC_OVERRIDE))
		return -EACCES;
	return 0;
}

/* mqueue_get_inode's checks of the attributes and the charge. */
static struct mqueue_inode_info *mqueue_create(const char *name, unsigned int mode,
					       const struct mq_attr *attr, int *err)
{
	struct mqueue_inode_info *info;
	unsigned long mq_treesize, mq_bytes;
	long maxmsg = DFLT_MSG, msgsize = DFLT_MSGSIZE;
	struct mq_user *u;

	*err = -ENOSPC;
	if (mq_queues_count >= DFLT_QUEUESMAX && !capable(CAP_SYS_RESOURCE))
		return NULL;
	if (attr) {
		maxmsg = attr->mq_maxmsg;
		msgsize = attr->mq_msgsize;
	}
	*err = -EINVAL;
	if (maxmsg <= 0 || msgsize <= 0)
		return NULL;
	if (capable(CAP_SYS_RESOURCE)) {
		if (maxmsg > HARD_MSGMAX || msgsize > HARD_MSGSIZEMAX)
			return NULL;
	} else if (maxmsg > DFLT_MSGMAX || msgsize > DFLT_MSGSIZEMAX) {
		return NULL;
	}
	mq_treesize = maxmsg * MQ_MSG_OVERHEAD + min(maxmsg, (long)MQ_PRIO_MAX) * MQ_NODE_OVERHEAD;
	mq_bytes = maxmsg * msgsize + mq_treesize;
	u = mq_user(current->cred.uid);
	*err = -EMFILE;
	if (u->mq_bytes + mq_bytes < u->mq_bytes ||
	    u->mq_bytes + mq_bytes > rlimit(RLIMIT_MSGQUEUE))
		return NULL;
	u->mq_bytes += mq_bytes;

	info = kmalloc(sizeof(*info));
	memcpy(info->name, name, strlen(name) + 1);
	info->linked = true;
	info->count = 1;
	info->uid = current->cred.fsuid;
	info->gid = current->cred.fsgid;
	info->cuser = current->cred.uid;
	info->mode = mode & ~current->fs->umask & 07777;
	info->attr.mq_maxmsg = maxmsg;
	info->attr.mq_msgsize = msgsize;
	info->mq_bytes = mq_bytes;
	INIT_LIST_HEAD(&info->msgs);
	INIT_LIST_HEAD(&info->e_wait_q[SEND]);
	INIT_LIST_HEAD(&info->e_wait_q[RECV]);
	init_waitqueue_head(&info->wait_q);
	list_add_tail(&info->list, &mq_names);
	mq_queues_count++;
	*err = 0;
	return info;
}

/* A name from the program: getname's errors, then lookup_one_len's (a
 * name with a slash, ".", ".." are EACCES; longer than NAME_MAX,
 * ENAMETOOLONG). 0 or -errno. */
static int mq_getname(const char __user *u_name, char **out)
{
	char *name;
	int err = getname(u_name, &name, false);

	if (err)
		return err;
	err = -EACCES;
	if (strrchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		goto bad;
	err = -ENAMETOOLONG;
	if (strlen(name) > NAME_MAX)
		goto bad;
	*out = name;
	return 0;
bad:
	kfree(name);
	return err;
}

long sys_mq_open(const char __user *u_name, int oflag, unsigned int mode,
		 struct mq_attr __user *u_attr)
{
	struct mqueue_inode_info *info;
	struct mq_attr attr;
	struct file *f;
	char *name;
	int err, fd;

	if (u_attr && copy_from_user(&attr, u_attr, sizeof(attr)))
		return -EFAULT;
	err = mq_getname(u_name, &name);
	if (err)
		return err;
	info = mq_lookup(name);
	if (!info) {
		err = -ENOENT;
		if (!(oflag & O_CREAT))
			goto out;
		info = mqueue_create(name, mode, u_attr ? &attr : NULL, &err);
		if (!info)
			goto out;
	} else {
		static const int oflag2acc[O_ACCMODE] = { 4, 2, 4 | 2 };

		err = -EEXIST;
		if ((oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
			goto out;
		err = -EINVAL;
		if ((oflag & O_ACCMODE) == (O_RDWR | O_WRONLY))
			goto out;
		err = mq_permission(info, oflag2acc[oflag & O_ACCMODE]);
		if (err)
			goto out;
	}
	info->count++;
	/* dentry_open's flags: oflag without the open-time ones */
	f = alloc_file(&mqueue_file_operations,
		       (unsigned int)oflag & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC),
		       info);
	fd = fd_install_lowest(current->files, f, 0, true);
	if (fd < 0)
		fput(f);	/* the release puts the queue back */
	err = fd;
out:
	kfree(name);
	return err;
}

long sys_mq_unlink(const char __user *u_name)
{
	struct mqueue_inode_info *info;
	uid_t fsuid = current->cred.fsuid;
	char *name;
	int err;

	err = mq_getname(u_name, &name);
	if (err)
		return err;
	info = mq_lookup(name);
	kfree(name);
	if (!info)
		return -ENOENT;
	/* the mqueue root is 01777 and root's: a sticky directory (may_delete) */
	if (info->uid != fsuid && fsuid != 0 && !capable(CAP_FOWNER))
		return -EPERM;
	list_del_init(&info->list);
	info->linked = false;
	put_mqueue(info);
	return 0;
}

static struct mqueue_inode_info *mq_fget(int mqdes, struct file **fp)
{
	struct file *f = fget((unsigned int)mqdes);

	if (!f)
		return NULL;
	if (f->f_op != &mqueue_file_operations) {
		fput(f);
		return NULL;
	}
	*fp = f;
	return f->private_data;
}

/* Insert by priority, highest first, after those of the same one. */
static void msg_insert(struct mq_msg *msg, struct mqueue_inode_info *info)
{
	struct mq_msg *m;

	list_for_each_entry(m, &info->msgs, m_list) {
		if (m->m_prio < msg->m_prio) {
			__list_add(&msg->m_list, m->m_list.prev, &m->m_list);
			goto added;
		}
	}
	list_add_tail(&msg->m_list, &info->msgs);
added:
	info->attr.mq_curmsgs++;
	info->qsize += msg->m_ts;
}

static struct mq_msg *msg_get(struct mqueue_inode_info *info)
{
	struct mq_msg *msg = list_first_entry(&info->msgs, struct mq_msg, m_list);

	list_del_init(&msg->m_list);
	info->attr.mq_curmsgs--;
	info->qsize -= msg->m_ts;
	return msg;
}

static void remove_notification(struct mqueue_inode_info *info)
{
	info->notify_owner = 0;
}

/* A message went into an empty queue: the registered process is told, once
 * (Linux's __do_notify); pollers are woken in any case. */
static void __do_notify(struct mqueue_inode_info *info)
{
	if (info->notify_owner && info->attr.mq_curmsgs == 1) {
		struct task_struct *task = find_task_by_pid(info->notify_owner);

		if (info->notify.sigev_notify == SIGEV_SIGNAL && info->notify.sigev_signo && task &&
		    !task->exit_state) {
			kernel_siginfo_t si;

			memset(&si, 0, sizeof(si));
			si.si_signo = info->notify.sigev_signo;
			si.si_code = SI_MESGQ;
			si._kill.pid = current->tgid;
			si._kill.uid = current->cred.uid;
			si._kill.value = (long)info->notify.sigev_value.sival_ptr;
			send_signal(info->notify.sigev_signo, &si, task, true);
		}
		remove_notification(info);
	}
	wake_up(&info->wait_q);
}

/* Sleep on info's SEND or RECV list until a partner makes us ready (0),
 * the deadline passes (-ETIMEDOUT) or a signal comes (-ERESTARTSYS). */
static int wq_sleep(struct mqueue_inode_info *info, int sr, const s64 *expires,
		    struct ext_wait_queue *ewp)
{
	struct hrtimer_sleeper to;
	int retval;

	if (expires)
		hrtimer_sleeper_start(&to, *expires < 0 ? 0 : (u64)*expires, "mqueue");
	list_add_tail(&ewp->list, &info->e_wait_q[sr]);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!ewp->ready && (!expires || to.task) && !signal_pending(current))
			schedule();
		set_current_state(TASK_RUNNING);
		if (ewp->ready) {
			retval = 0;
			goto out;
		}
		if (signal_pending(current)) {
			retval = -ERESTARTSYS;
			break;
		}
		if (expires && !to.task) {
			retval = -ETIMEDOUT;
			break;
		}
	}
	list_del_init(&ewp->list);
out:
	if (expires)
		hrtimer_sleeper_cancel(&to);
	return retval;
}

/* An absolute CLOCK_REALTIME time from the program, as the kernel clock's
 * expiry: 0, -EFAULT or -EINVAL (prepare_timeout). */
static int prepare_timeout(const struct __kernel_timespec __user *u_abs_timeout, s64 *expires)
{
	struct __kernel_timespec ts;

	if (get_timespec64(&ts, u_abs_timeout))
		return -EFAULT;
	if (!timespec64_valid(&ts))
		return -EINVAL;
	*expires = timespec_to_ns(&ts) - (clock_get_ns(CLOCK_REALTIME) - (s64)ktime_get());
	return 0;
}

long sys_mq_timedsend(int mqdes, const char __user *u_msg_ptr, size_t msg_len,
		      unsigned int msg_prio, const struct __kernel_timespec __user *u_abs_timeout)
{
	struct mqueue_inode_info *info;
	struct ext_wait_queue wait = { .task = current };
	struct mq_msg *msg = NULL;
	s64 expires;
	struct file *f;
	long ret;

	if (u_abs_timeout) {
		ret = prepare_timeout(u_abs_timeout, &expires);
		if (ret)
			return ret;
	}
	if (msg_prio >= MQ_PRIO_MAX)
		return -EINVAL;
	info = mq_fget(mqdes, &f);
	if (!info)
		return -EBADF;
	ret = -EBADF;
	if (!file_writable(f))
		goto out;
	ret = -EMSGSIZE;
	if ((long)msg_len > info->attr.mq_msgsize)
		goto out;
	msg = kmalloc(sizeof(*msg) + msg_len);
	ret = -EFAULT;
	if (copy_from_user(msg->m_text, u_msg_ptr, msg_len))
		goto out;
	msg->m_ts = msg_len;
	msg->m_prio = msg_prio;

	if (info->attr.mq_curmsgs == info->attr.mq_maxmsg) {
		ret = -EAGAIN;
		if (f->f_flags & O_NONBLOCK)
			goto out;
		wait.msg = msg;
		ret = wq_sleep(info, SEND, u_abs_timeout ? &expires : NULL, &wait);
		if (!ret)
			msg = NULL;	/* a receiver took it in */
		goto out;
	}
	if (!list_empty(&info->e_wait_q[RECV])) {
		/* pipelined_send: straight to the first receiver */
		struct ext_wait_queue *receiver =
			list_first_entry(&info->e_wait_q[RECV], struct ext_wait_queue, list);

		list_del_init(&receiver->list);
		receiver->msg = msg;
		receiver->ready = true;
		wake_up_process(receiver->task);
	} else {
		msg_insert(msg, info);
		__do_notify(info);
	}
	msg = NULL;
	ret = 0;
out:
	kfree(msg);
	fput(f);
	return ret;
}

long sys_mq_timedreceive(int mqdes, char __user *u_msg_ptr, size_t msg_len,
			 unsigned int __user *u_msg_prio,
			 const struct __kernel_timespec __user *u_abs_timeout)
{
	struct mqueue_inode_info *info;
	struct ext_wait_queue wait = { .task = current };
	struct mq_msg *msg = NULL;
	s64 expires;
	struct file *f;
	long ret;

	if (u_abs_timeout) {
		ret = prepare_timeout(u_abs_timeout, &expires);
		if (ret)
			return ret;
	}
	info = mq_fget(mqdes, &f);
	if (!info)
		return -EBADF;
	ret = -EBADF;
	if (!file_readable(f))
		goto out;
	ret = -EMSGSIZE;
	if ((long)msg_len < info->attr.mq_msgsize)
		goto out;
	if (info->attr.mq_curmsgs == 0) {
		ret = -EAGAIN;
		if (f->f_flags & O_NONBLOCK)
			goto out;
		ret = wq_sleep(info, RECV, u_abs_timeout ? &expires : NULL, &wait);
		msg = wait.msg;
	} else {
		msg = msg_get(info);
		/* pipelined_receive: room now for the first sleeping sender */
		if (!list_empty(&info->e_wait_q[SEND])) {
			struct ext_wait_queue *sender =
				list_first_entry(&info->e_wait_q[SEND], struct ext_wait_queue, list);

			list_del_init(&sender->list);
			msg_insert(sender->msg, info);
			sender->ready = true;
			wake_up_process(sender->task);
		} else {
			wake_up(&info->wait_q);
		}
		ret = 0;
	}
	if (!ret) {
		ret = (long)msg->m_ts;
		if ((u_msg_prio && put_user(msg->m_prio, u_msg_prio)) ||
		    copy_to_user(u_msg_ptr, msg->m_text, msg->m_ts))
			ret = -EFAULT;
	}
out:
	kfree(msg);
	fput(f);
	return ret;
}

long sys_mq_notify(int mqdes, const struct sigevent __user *u_notification)
{
	struct mqueue_inode_info *info;
	struct sigevent n;
	struct file *f;
	long ret = 0;

	if (u_notification) {
		if (copy_from_user(&n, u_notification, sizeof(n)))
			return -EFAULT;
		if (n.sigev_notify != SIGEV_NONE && n.sigev_notify != SIGEV_SIGNAL &&
		    n.sigev_notify != SIGEV_THREAD)
			return -EINVAL;
		if (n.sigev_notify == SIGEV_SIGNAL && !valid_signal((unsigned long)n.sigev_signo))
			return -EINVAL;
		if (n.sigev_notify == SIGEV_THREAD) {
			char cookie[NOTIFY_COOKIE_LEN];
			struct file *sock;

			if (copy_from_user(cookie, n.sigev_value.sival_ptr, sizeof(cookie)))
				return -EFAULT;
			/* netlink_getsockbyfd: no netlink socket exists in umk */
			sock = fget((unsigned int)n.sigev_signo);
			if (!sock)
				return -EBADF;
			fput(sock);
			return -ECONNREFUSED;
		}
	}
	info = mq_fget(mqdes, &f);
	if (!info)
		return -EBADF;
	if (!u_notification) {
		if (info->notify_owner == current->tgid)
			remove_notification(info);
	} else if (info->notify_owner) {
		ret = -EBUSY;
	} else {
		info->notify = n;
		info->notify_owner = current->tgid;
	}
	fput(f);
	return ret;
}

long sys_mq_getsetattr(int mqdes, const struct mq_attr __user *u_mqstat,
		       struct mq_attr __user *u_omqstat)
{
	struct mqueue_inode_info *info;
	struct mq_attr mqstat, omqstat;
	struct file *f;

	if (u_mqstat && copy_from_user(&mqstat, u_mqstat, sizeof(mqstat)))
		return -EFAULT;
	if (u_mqstat && (mqstat.mq_flags & ~O_NONBLOCK))
		return -EINVAL;
	info = mq_fget(mqdes, &f);
	if (!info)
		return -EBADF;
	omqstat = info->attr;
	omqstat.mq_flags = f->f_flags & O_NONBLOCK;
	if (u_mqstat) {
		if (mqstat.mq_flags & O_NONBLOCK)
			f->f_flags |= O_NONBLOCK;
		else
			f->f_flags &= ~O_NONBLOCK;
	}
	fput(f);
	if (u_omqstat && copy_to_user(u_omqstat, &omqstat, sizeof(omqstat)))
		return -EFAULT;
	return 0;
}

static ssize_t mqueue_read_file(struct kiocb *iocb, struct iov_iter *to)
{
	struct mqueue_inode_info *info = iocb->ki_filp->private_data;
	bool sig = info->notify_owner && info->notify.sigev_notify == SIGEV_SIGNAL;
	char buffer[80];
	size_t len, n;

	len = (size_t)ksnprintf(buffer, sizeof(buffer),
				"QSIZE:%-10lu NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%d\n", info->qsize,
				info->notify_owner ? info->notify.sigev_notify : 0,
				sig ? info->notify.sigev_signo : 0, info->notify_owner);
	if (iocb->ki_pos < 0 || (size_t)iocb->ki_pos >= len)
		return 0;
	n = copy_to_iter(buffer + iocb->ki_pos, len - (size_t)iocb->ki_pos, to);
	if (!n)
		return -EFAULT;
	iocb->ki_pos += (s64)n;
	return (ssize_t)n;
}

static unsigned int mqueue_poll_file(struct file *f, poll_table *pt)
{
	struct mqueue_inode_info *info = f->private_data;
	unsigned int events = 0;

	poll_wait(f, &info->wait_q, pt);
	if (info->attr.mq_curmsgs)
		events |= POLLIN | POLLRDNORM;
	if (info->attr.mq_curmsgs < info->attr.mq_maxmsg)
		events |= POLLOUT | POLLWRNORM;
	return events;
}

static s64 mqueue_llseek(struct file *f, s64 offset, int whence)
{
	return generic_file_llseek(f, offset, whence, 80);
}

/* Linux removes the notification when its owner closes any descriptor of
 * the queue (mqueue_flush_file); umk's files have no flush, so only the
 * last close of this file does. */
static void mqueue_release(struct file *f)
{
	struct mqueue_inode_info *info = f->private_data;

	if (info->notify_owner == current->tgid)
		remove_notification(info);
	put_mqueue(info);
}

static const struct file_operations mqueue_file_operations = {
	.name = "mqueue",
	.read_iter = mqueue_read_file,
	.poll = mqueue_poll_file,
	.llseek = mqueue_llseek,
	.fstat = anon_inode_fstat,
	.release = mqueue_release,
};
