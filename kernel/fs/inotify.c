/*
 * kernel/fs/inotify.c: inotify, after Linux's fs/notify/inotify/
 * inotify_user.c and the hooks of include/linux/fsnotify.h. Interface:
 * sys_inotify_init, sys_inotify_init1, sys_inotify_add_watch,
 * sys_inotify_rm_watch, the inotify file's operations, and the fsnotify_*
 * hooks the VFS calls where a file changes (include/umk/fsnotify.h).
 *
 * An inotify instance (a group) is an anonymous-inode file holding a queue
 * of events and its watches. A watch names an inode by a path it holds (so
 * the inode stays, even a hostfs one, whose inodes are per dentry) and
 * the events wanted (mask); its descriptor (wd) counts up from 1 per group.
 * Every watch of every group is also on one list, inotify_watches, which a
 * hook walks: an event on a dentry goes first to the watches of its
 * parent directory, with the dentry's name, then to those of its own
 * inode, without (Linux's fsnotify_parent, then the inode's marks), each
 * with IN_ISDIR when the subject is a directory. An event equal to the
 * last one queued (wd, mask, cookie, name) is merged into it, as Linux's
 * inotify_merge does. The queue holds at most MAX_QUEUED_EVENTS; the next
 * becomes one IN_Q_OVERFLOW (wd -1).
 *
 * read takes whole events while they fit (the first one not fitting is
 * -EINVAL), waits interruptibly for the first (-ERESTARTSYS: a read, so
 * SA_RESTART restarts it), and is -EAGAIN with O_NONBLOCK; poll says
 * POLLIN while events are queued; FIONREAD counts their bytes.
 *
 * What umk leaves out (docs/linux-differences.md): events come only from
 * changes made inside umk (a host program's change to a host file is not
 * seen); IN_DELETE_SELF and the watch's end come when the last link goes,
 * even while the file is open (Linux waits for its last close); IN_UNMOUNT
 * is never generated (no umount), and IN_EXCL_UNLINK changes nothing.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/fsnotify.h>
#include <umk/kernel.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

#define IN_NONBLOCK O_NONBLOCK
#define IN_CLOEXEC O_CLOEXEC
#define ALL_INOTIFY_BITS                                                                   \
	(IN_ALL_EVENTS | IN_UNMOUNT | IN_Q_OVERFLOW | IN_IGNORED | IN_ONLYDIR |           \
	 IN_DONT_FOLLOW | IN_EXCL_UNLINK | IN_MASK_CREATE | IN_MASK_ADD | IN_ISDIR |      \
	 IN_ONESHOT)
#define MAX_QUEUED_EVENTS 16384		/* /proc/sys/fs/inotify/max_queued_events */

/* struct inotify_event (include/uapi/linux/inotify.h), then len bytes of
 * name, NUL-padded. */
struct inotify_event {
	int wd;
	u32 mask;
	u32 cookie;
	u32 len;
};

struct inotify_group {
	struct list_head events;	/* struct inotify_kevent, oldest first */
	unsigned int q_len;		/* events queued */
	size_t q_bytes;			/* what reading them all would take */
	int last_wd;			/* the last wd given */
	struct wait_queue_head wait;	/* readers, pollers: events queued */
	bool overflowed;		/* an IN_Q_OVERFLOW is queued */
	struct fasync_struct *fsn_fa;	/* O_ASYNC files: SIGIO per event queued */
};

struct inotify_kevent {
	struct list_head list;
	struct inotify_event ev;	/* ev.len: the padded name's length */
	char name[];
};

struct inotify_watch {
	struct list_head list;		/* in inotify_watches */
	struct inotify_group *group;
	int wd;
	u32 mask;
	struct path path;		/* holds the watched inode */
};

static LIST_HEAD(inotify_watches);
static u32 fsnotify_cookie;		/* rename's pairing of MOVED_FROM/TO */

static const struct file_operations inotify_fops;

/* The bytes an event of name takes in a read (Linux's round_event_name_len
 * and the header). */
static size_t event_size(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	if (!len)
		return sizeof(struct inotify_event);
	return sizeof(struct inotify_event) + ALIGN(len + 1, sizeof(struct inotify_event));
}

static void queue_event(struct inotify_group *group, int wd, u32 mask, u32 cookie,
			const char *name)
{
	size_t size = event_size(name);
	struct inotify_kevent *e;

	if (!list_empty(&group->events)) {
		struct inotify_kevent *last =
			list_entry(group->events.prev, struct inotify_kevent, list);

		if (last->ev.wd == wd && last->ev.mask == mask && last->ev.cookie == cookie &&
		    !strcmp(last->name, name ? name : ""))
			return;		/* inotify_merge */
	}
	if (group->q_len >= MAX_QUEUED_EVENTS) {
		if (group->overflowed)
			return;
		group->overflowed = true;
		wd = -1;
		mask = IN_Q_OVERFLOW;
		cookie = 0;
		name = NULL;
		size = sizeof(struct inotify_event);
	}
	e = kmalloc(sizeof(*e) + (size - sizeof(struct inotify_event)) + 1);
	e->ev.wd = wd;
	e->ev.mask = mask;
	e->ev.cookie = cookie;
	e->ev.len = size - sizeof(struct inotify_event);
	if (name)
		memcpy(e->name, name, strlen(name));	/* kmalloc zeroed the padding */
	list_add_tail(&e->list, &group->events);
	group->q_len++;
	group->q_bytes += size;
	wake_up_poll(&group->wait, POLLIN | POLLRDNORM);
	kill_fasync(&group->fsn_fa, SIGIO, POLL_IN);
}

static void free_watch(struct inotify_watch *w)
{
	list_del_init(&w->list);
	path_put(&w->path);
	kfree(w);
}

/* The watch goes: IN_IGNORED tells the reader (Linux's
 * inotify_freeing_mark). */
static void remove_watch(struct inotify_watch *w)
{
	queue_event(w->group, w->wd, IN_IGNORED, 0, NULL);
	free_watch(w);
}

/* Send mask about inode to the watches on it, with name when they watch
 * it as the directory the name is in. */
static void send_to_watches(struct inode *inode, u32 mask, u32 cookie, const char *name)
{
	struct inotify_watch *w, *tmp;

	list_for_each_entry_safe(w, tmp, &inotify_watches, list) {
		if (w->path.dentry->d_inode != inode || !(w->mask & mask & IN_ALL_EVENTS))
			continue;
		queue_event(w->group, w->wd, mask & (IN_ALL_EVENTS | IN_ISDIR), cookie, name);
		if (w->mask & IN_ONESHOT)
			remove_watch(w);
	}
}

static u32 isdir(const struct dentry *d)
{
	return d->d_inode && S_ISDIR(d->d_inode->i_mode) ? IN_ISDIR : 0;
}

/* mask happened to d: its directory's watches hear it by d's name, then
 * its own inode's (Linux's fsnotify_parent and fsnotify). */
static void fsnotify_dentry(struct dentry *d, u32 mask)
{
	if (list_empty(&inotify_watches) || !d || !d->d_inode)
		return;
	mask |= isdir(d);
	if (d->d_parent != d)
		send_to_watches(d->d_parent->d_inode, mask, 0, d->d_name);
	send_to_watches(d->d_inode, mask, 0, NULL);
}

void fsnotify_create(struct dentry *d)
{
	if (list_empty(&inotify_watches))
		return;
	send_to_watches(d->d_parent->d_inode, IN_CREATE | isdir(d), 0, d->d_name);
}

unsigned int fsnotify_nlink(struct dentry *d)
{
	struct stat st;
	struct path p = { .dentry = d };

	if (list_empty(&inotify_watches) || vfs_getattr(&p, &st))
		return 0;
	return st.st_nlink;
}

/* Linux's vfs_unlink and vfs_rmdir: an unlink changes the victim's link
 * count (IN_ATTRIB, fsnotify_link_count); when its last link goes (a
 * directory's at once) its watches hear IN_DELETE_SELF and go, with
 * IN_IGNORED (fsnotify_inoderemove; Linux waits for the inode's last
 * reference: an open file delays it); then the directory hears
 * IN_DELETE (d_delete_notify). */
void fsnotify_remove(struct dentry *d, bool rmdir, unsigned int nlink)
{
	struct inode *inode = d->d_inode;
	struct inotify_watch *w, *tmp;
	u32 dir = isdir(d);

	if (list_empty(&inotify_watches))
		return;
	if (!rmdir)
		send_to_watches(inode, IN_ATTRIB, 0, NULL);
	if (rmdir || nlink <= 1) {
		send_to_watches(inode, IN_DELETE_SELF | dir, 0, NULL);
		list_for_each_entry_safe(w, tmp, &inotify_watches, list)
			if (w->path.dentry->d_inode == inode)
				remove_watch(w);
	}
	send_to_watches(d->d_parent->d_inode, IN_DELETE | dir, 0, d->d_name);
}

void fsnotify_move(struct dentry *old_parent, const char *old_name, struct dentry *new_parent,
		   const char *new_name, struct dentry *moved)
{
	u32 dir, cookie;

	if (list_empty(&inotify_watches))
		return;
	dir = isdir(moved);
	cookie = ++fsnotify_cookie;
	send_to_watches(old_parent->d_inode, IN_MOVED_FROM | dir, cookie, old_name);
	send_to_watches(new_parent->d_inode, IN_MOVED_TO | dir, cookie, new_name);
	send_to_watches(moved->d_inode, IN_MOVE_SELF | dir, 0, NULL);
}

void fsnotify_change(struct dentry *d, bool size)
{
	fsnotify_dentry(d, size ? IN_MODIFY : IN_ATTRIB);
}

void fsnotify_open(struct file *f)
{
	if (!(f->f_flags & O_PATH))
		fsnotify_dentry(f->f_path.dentry, IN_OPEN);
}

/* A file that never opened (an O_PATH one, or one whose f_op->open failed:
 * dentry_open gives both open.c's "path" operations) closes silently. */
void fsnotify_close(struct file *f)
{
	if (f->f_path.dentry && strcmp(f->f_op->name, "path"))
		fsnotify_dentry(f->f_path.dentry,
				file_writable(f) ? IN_CLOSE_WRITE : IN_CLOSE_NOWRITE);
}

void fsnotify_modify(struct file *f)
{
	fsnotify_dentry(f->f_path.dentry, IN_MODIFY);
}

void fsnotify_access(struct file *f)
{
	fsnotify_dentry(f->f_path.dentry, IN_ACCESS);
}

/* ---- the inotify file ---- */

static ssize_t inotify_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *f = iocb->ki_filp;
	struct inotify_group *group = f->private_data;
	ssize_t done = 0;

	for (;;) {
		struct inotify_kevent *e;
		size_t size;

		if (!list_empty(&group->events)) {
			e = list_first_entry(&group->events, struct inotify_kevent, list);
			size = sizeof(e->ev) + e->ev.len;
			if (size > iov_iter_count(to))
				return done ? done : -EINVAL;
			if (copy_to_iter(&e->ev, sizeof(e->ev), to) < sizeof(e->ev) ||
			    copy_to_iter(e->name, e->ev.len, to) < e->ev.len)
				return -EFAULT;	/* the event is lost, as in Linux */
			list_del_init(&e->list);
			group->q_len--;
			group->q_bytes -= size;
			if (e->ev.mask == IN_Q_OVERFLOW)
				group->overflowed = false;
			kfree(e);
			done += size;
			continue;
		}
		if (done)
			return done;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(group->wait, !list_empty(&group->events)))
			return -ERESTARTSYS;
	}
}

static unsigned int inotify_poll(struct file *f, poll_table *pt)
{
	struct inotify_group *group = f->private_data;

	poll_wait(f, &group->wait, pt);
	return list_empty(&group->events) ? 0 : POLLIN | POLLRDNORM;
}

static long inotify_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct inotify_group *group = f->private_data;

	if (cmd == FIONREAD)
		return put_user((int)group->q_bytes, (int __user *)arg);
	return -ENOIOCTLCMD;
}

/* /proc/PID/fdinfo: a line per watch (Linux's inotify_fdinfo: sdev is
 * the kernel's dev_t), without the file handle Linux adds (umk has no
 * exportfs). */
static int inotify_show_fdinfo(struct file *f, char *buf, size_t size)
{
	struct inotify_group *group = f->private_data;
	struct inotify_watch *w;
	size_t len = 0;

	list_for_each_entry(w, &inotify_watches, list) {
		struct inode *inode = w->path.dentry->d_inode;

		if (w->group != group || len + 1 >= size)
			continue;
		len += ksnprintf(buf + len, size - len,
				 "inotify wd:%x ino:%lx sdev:%lx mask:%x ignored_mask:0\n", w->wd,
				 inode->i_ino, (unsigned long)inode->i_sb->s_dev,
				 w->mask & IN_ALL_EVENTS);
	}
	return min(len, size ? size - 1 : 0);
}

static void inotify_release(struct file *f)
{
	struct inotify_group *group = f->private_data;
	struct inotify_watch *w, *tmp;
	struct inotify_kevent *e, *etmp;

	list_for_each_entry_safe(w, tmp, &inotify_watches, list)
		if (w->group == group)
			free_watch(w);
	list_for_each_entry_safe(e, etmp, &group->events, list)
		kfree(e);
	kfree(group);
}

/* O_ASYNC on or off (Linux's fsnotify_fasync). */
static int inotify_fasync(int fd, struct file *f, int on)
{
	struct inotify_group *group = f->private_data;

	return fasync_helper(fd, f, on, &group->fsn_fa) >= 0 ? 0 : -EIO;
}

static const struct file_operations inotify_fops = {
	.name = "inotify",
	.read_iter = inotify_read,
	.poll = inotify_poll,
	.ioctl = inotify_ioctl,
	.show_fdinfo = inotify_show_fdinfo,
	.fstat = anon_inode_fstat,
	.release = inotify_release,
	.fasync = inotify_fasync,
};

long sys_inotify_init1(int flags)
{
	struct inotify_group *group;

	if (flags & ~(IN_CLOEXEC | IN_NONBLOCK))
		return -EINVAL;
	group = kmalloc(sizeof(*group));
	INIT_LIST_HEAD(&group->events);
	init_waitqueue_head(&group->wait);
	return anon_inode_getfd(&inotify_fops, group, flags);
}

long sys_inotify_init(void)
{
	return sys_inotify_init1(0);
}

/* The group behind fd, with a reference to its file in *fp: 0, -EBADF, or
 * -EINVAL when fd is not an inotify instance. */
static int inotify_fget(int fd, struct file **fp)
{
	return fget_of_kind(fd, &inotify_fops, fp);
}

/* Linux's inotify_add_watch with inotify_update_watch: a new watch, or
 * the existing one on that inode with its mask replaced (IN_MASK_ADD:
 * added to; IN_MASK_CREATE: -EEXIST). Returns the wd. */
long sys_inotify_add_watch(int fd, const char __user *pathname, u32 mask)
{
	struct inotify_group *group;
	struct inotify_watch *w;
	struct path path;
	struct file *f;
	long ret;

	if (mask & ~ALL_INOTIFY_BITS)
		return -EINVAL;
	if (!(mask & ALL_INOTIFY_BITS))
		return -EINVAL;
	f = fget(fd);
	if (!f)
		return -EBADF;
	ret = -EINVAL;
	if ((mask & IN_MASK_ADD) && (mask & IN_MASK_CREATE))
		goto out;
	if (f->f_op != &inotify_fops)
		goto out;
	ret = user_path_at(AT_FDCWD, pathname, (mask & IN_DONT_FOLLOW ? 0 : LOOKUP_FOLLOW) |
						  (mask & IN_ONLYDIR ? LOOKUP_DIRECTORY : 0), &path);
	if (ret)
		goto out;
	group = f->private_data;
	list_for_each_entry(w, &inotify_watches, list) {
		if (w->group != group || w->path.dentry->d_inode != path.dentry->d_inode)
			continue;
		path_put(&path);
		if (mask & IN_MASK_CREATE) {
			ret = -EEXIST;
			goto out;
		}
		w->mask = (mask & IN_MASK_ADD ? w->mask : 0) | (mask & ~IN_MASK_ADD);
		ret = w->wd;
		goto out;
	}
	w = kmalloc(sizeof(*w));
	w->group = group;
	w->wd = ++group->last_wd;
	w->mask = mask & ~(IN_MASK_ADD | IN_MASK_CREATE);
	w->path = path;		/* the lookup's reference */
	list_add_tail(&w->list, &inotify_watches);
	ret = w->wd;
out:
	fput(f);
	return ret;
}

long sys_inotify_rm_watch(int fd, int wd)
{
	struct inotify_watch *w;
	struct file *f;
	int err = inotify_fget(fd, &f);

	if (err)
		return err;
	err = -EINVAL;
	list_for_each_entry(w, &inotify_watches, list) {
		if (w->group == f->private_data && w->wd == wd) {
			remove_watch(w);
			err = 0;
			break;
		}
	}
	fput(f);
	return err;
}
