/*
 * kernel/fs/pipe.c: pipes and FIFOs, after Linux's fs/pipe.c. Interface:
 * sys_pipe, sys_pipe2, and pipefifo_fops, the file operations of both ends
 * of a pipe and of an open FIFO (reached through sys_read/sys_write/
 * sys_readv/sys_writev/sys_ioctl and f_op->poll; a FIFO's inode has them
 * as its i_fop, so dentry_open calls fifo_open).
 *
 * A pipe is a byte ring of a power of two pages (64 KiB, Linux's 16 pages,
 * unless fs.pipe-max-size or its maker's pipe pages say less:
 * alloc_pipe_info; F_SETPIPE_SZ resizes it, pipe_fcntl) with counts of
 * open read-end and write-end files and two wait queues. Readers get what
 * is there (up to what they asked), 0 at EOF once no writer is left, and
 * sleep otherwise. A write of at most PIPE_BUF bytes goes in whole or not
 * at all; a bigger one goes in piece by piece as room appears. A write with
 * no reader left raises SIGPIPE and fails with -EPIPE.
 *
 * Departure from Linux: one byte ring instead of a ring of page buffers,
 * so capacity is exactly its size in bytes whatever the write sizes, and
 * "full" for poll means less than PIPE_BUF bytes of room; the pages a
 * shrink must keep are those the bytes held fill, where Linux counts the
 * page buffers that hold them (two for a write that straddled a page).
 * O_DIRECT (packet mode) is accepted and kept in f_flags but ignored. No locks: kernel code
 * is not preempted, so only the sleeps in pipe_read/pipe_write let other
 * tasks in, and each loop re-checks the pipe after one.
 *
 * FIFOs (docs/design.md, "FIFOs and file locks"): a FIFO is a named inode
 * of tmpfs or hostfs whose open files share one pipe_inode_info, hung on
 * the inode (i_pipe) by the first open and freed by the last release, as
 * Linux's fifo_open and put_pipe_info. A FIFO in a host directory is a
 * pipe inside umk too: umk never opens the host's FIFO, so umk's programs
 * talk through it with each other, not with host programs.
 *
 * Wakeups: a reader sleeps on rd_wait until data or no writers; a writer
 * sleeps on wr_wait until room or no readers. wake_up wakes every sleeper,
 * each re-checks its condition, so an extra wakeup is harmless and none is
 * needed beyond: data written -> rd_wait, data read -> wr_wait, an end
 * closed -> both.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/limits.h>

#define PIPE_DEF_BUFFERS 16

/* fs.pipe-max-size (kernel/fs/proc_sysctl.c): the largest size
 * F_SETPIPE_SZ gives without CAP_SYS_RESOURCE, and the most a new pipe
 * gets; always round_pipe_size's. */
unsigned int pipe_max_size = 1048576;
/* fs.pipe-user-pages-hard and -soft: the pages of pipe rings one user's
 * pipes may hold, past which an unprivileged user's pipes cannot grow
 * and, past soft, start with 2 pages (past hard: none). 0: no limit. */
unsigned long pipe_user_pages_hard;
unsigned long pipe_user_pages_soft = PIPE_DEF_BUFFERS * NR_OPEN_DEFAULT;

#define PIPE_MIN_DEF_BUFFERS 2

/* The pages one user's pipes hold (Linux's user_struct's pipe_bufs):
 * a short list, by real uid. */
struct pipe_user {
	struct list_head list;
	uid_t uid;
	unsigned long pipe_bufs;
};
static LIST_HEAD(pipe_users);

struct pipe_inode_info {
	char *buf;			/* size bytes, a ring */
	unsigned int size;		/* a power of two pages (max_usage * PAGE_SIZE) */
	struct pipe_user *user;		/* who its pages are counted for, */
	unsigned long nr_accounted;	/* and how many */
	unsigned int head;		/* bytes ever written, mod 2^32 */
	unsigned int tail;		/* bytes ever read, mod 2^32 */
	int readers;			/* open read-end files */
	int writers;			/* open write-end files */
	int files;			/* open files of either end: freed at 0 */
	unsigned int r_counter;		/* opens for reading ever (fifo_open's */
	unsigned int w_counter;		/* wait_for_partner), for writing ever */
	struct wait_queue_head rd_wait;	/* readers: data, or no writers */
	struct wait_queue_head wr_wait;	/* writers: room, or no readers */
	struct fasync_struct *fasync_readers;	/* O_ASYNC files: SIGIO on data */
	struct fasync_struct *fasync_writers;	/* and on room */
	unsigned long ino;		/* its inode number on pipefs: "pipe:[ino]" */
	struct timespec64 ctime;	/* when it was made, for fstat */
};

/* pipefs, the file system pipes live on: an anonymous device of its own. */
#define PIPEFS_DEV MKDEV(0, 0x0c)

static size_t pipe_len(const struct pipe_inode_info *pipe)
{
	return pipe->head - pipe->tail;
}

static size_t pipe_room(const struct pipe_inode_info *pipe)
{
	return pipe->size - pipe_len(pipe);
}

static bool pipe_readable(const struct pipe_inode_info *pipe)
{
	return pipe_len(pipe) || !pipe->writers;
}

/* need: the room a waiting writer wants (its whole write if atomic). */
static bool pipe_writable(const struct pipe_inode_info *pipe, size_t need)
{
	return pipe_room(pipe) >= need || !pipe->readers;
}

static ssize_t pipe_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *f = iocb->ki_filp;
	struct pipe_inode_info *pipe = f->private_data;
	size_t total_len = iov_iter_count(to);
	bool consumed = false;
	ssize_t ret = 0;

	/* Null read succeeds. */
	if (!total_len)
		return 0;

	for (;;) {
		size_t avail = pipe_len(pipe);

		if (avail) {
			size_t off = pipe->tail & (pipe->size - 1);
			size_t chars = min(min(avail, pipe->size - off), total_len);

			/* A piece that faults stays in the pipe, as a page
			 * buffer that faults does in Linux. */
			if (copy_to_iter(pipe->buf + off, chars, to) < chars) {
				if (!ret)
					ret = -EFAULT;
				break;
			}
			pipe->tail += chars;
			ret += chars;
			total_len -= chars;
			consumed = true;
			if (!total_len)
				break;
			continue;	/* the rest may wrap to the ring's start */
		}
		if (!pipe->writers)
			break;		/* EOF, or what was read so far */
		if (ret)
			break;
		if (f->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		/* Nothing read yet, so nothing consumed: no writer to wake,
		 * but O_ASYNC writers hear of every read, as in Linux. */
		kill_fasync(&pipe->fasync_writers, SIGIO, POLL_OUT);
		if (wait_event_interruptible(pipe->rd_wait, pipe_readable(pipe)))
			return -ERESTARTSYS;
	}
	if (consumed)
		wake_up_poll(&pipe->wr_wait, POLLOUT | POLLWRNORM);
	kill_fasync(&pipe->fasync_writers, SIGIO, POLL_OUT);
	return ret;
}

static ssize_t pipe_write(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *f = iocb->ki_filp;
	struct pipe_inode_info *pipe = f->private_data;
	size_t total_len = iov_iter_count(from);
	bool atomic = total_len <= PIPE_BUF;
	bool wake_readers = false;
	ssize_t ret = 0;

	/* Null write succeeds, even with no reader. */
	if (!total_len)
		return 0;

	for (;;) {
		size_t room;

		if (!pipe->readers) {
			send_sig(SIGPIPE, current, 0);
			if (!ret)
				ret = -EPIPE;
			break;
		}
		room = pipe_room(pipe);
		if (room && (!atomic || room >= total_len)) {
			size_t off = pipe->head & (pipe->size - 1);
			size_t chars = min(min(room, pipe->size - off), total_len);

			if (copy_from_iter(pipe->buf + off, chars, from) < chars) {
				if (!ret)
					ret = -EFAULT;
				break;
			}
			pipe->head += chars;
			ret += chars;
			total_len -= chars;
			wake_readers = true;
			if (!total_len)
				break;
			continue;	/* room may wrap to the ring's start */
		}
		if (f->f_flags & O_NONBLOCK) {
			if (!ret)
				ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			if (!ret)
				ret = -ERESTARTSYS;
			break;
		}
		/* Readers must see what we wrote before we sleep for room. */
		if (wake_readers) {
			wake_up_poll(&pipe->rd_wait, POLLIN | POLLRDNORM);
			wake_readers = false;
		}
		kill_fasync(&pipe->fasync_readers, SIGIO, POLL_IN);
		/* A signal ends the wait; the loop sees it above, after one
		 * more look for room and readers, as Linux's pipe_write does. */
		wait_event_interruptible(pipe->wr_wait,
					 pipe_writable(pipe, atomic ? total_len : 1));
	}
	if (wake_readers)
		wake_up_poll(&pipe->rd_wait, POLLIN | POLLRDNORM);
	/* O_ASYNC readers hear of every write that got this far, as in Linux,
	 * even one that wrote nothing */
	kill_fasync(&pipe->fasync_readers, SIGIO, POLL_IN);
	return ret;
}

/* Linux's pipe_poll. A pipe's read end is O_RDONLY, its write end
 * O_WRONLY; a FIFO opened O_RDWR is both. A FIFO reader that opened
 * O_NONBLOCK before any writer came sees no POLLHUP until one has
 * (f_pipe, set by fifo_open). */
static unsigned int pipe_poll(struct file *f, poll_table *pt)
{
	struct pipe_inode_info *pipe = f->private_data;
	unsigned int mask = 0;

	if (file_readable(f))
		poll_wait(f, &pipe->rd_wait, pt);
	if (file_writable(f))
		poll_wait(f, &pipe->wr_wait, pt);
	if (file_readable(f)) {
		if (pipe_len(pipe))
			mask |= POLLIN | POLLRDNORM;
		if (!pipe->writers && f->f_pipe != pipe->w_counter)
			mask |= POLLHUP;
	}
	if (file_writable(f)) {
		if (pipe_room(pipe) >= PIPE_BUF)
			mask |= POLLOUT | POLLWRNORM;
		if (!pipe->readers)
			mask |= POLLERR;
	}
	return mask;
}

static long pipe_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct pipe_inode_info *pipe = f->private_data;

	switch (cmd) {
	case FIONREAD:
		return put_user((int)pipe_len(pipe), (int __user *)arg);
	}
	return -ENOIOCTLCMD;
}

static struct pipe_user *get_pipe_user(uid_t uid)
{
	struct pipe_user *u;

	list_for_each_entry(u, &pipe_users, list)
		if (u->uid == uid)
			return u;
	u = kmalloc(sizeof(*u));
	u->uid = uid;
	list_add(&u->list, &pipe_users);
	return u;
}

/* The user's count moves from old pages to new: the new total. */
static unsigned long account_pipe_buffers(struct pipe_user *user, unsigned long old,
					  unsigned long new)
{
	user->pipe_bufs += new - old;
	return user->pipe_bufs;
}

static bool too_many_pipe_buffers_soft(unsigned long user_bufs)
{
	return pipe_user_pages_soft && user_bufs > pipe_user_pages_soft;
}

static bool too_many_pipe_buffers_hard(unsigned long user_bufs)
{
	return pipe_user_pages_hard && user_bufs > pipe_user_pages_hard;
}

static bool pipe_is_unprivileged_user(void)
{
	return !capable(CAP_SYS_RESOURCE) && !capable(CAP_SYS_ADMIN);
}

unsigned int round_pipe_size(unsigned int size)
{
	if (size > (1U << 31))
		return 0;
	if (size < PAGE_SIZE)	/* POSIX's minimum */
		return PAGE_SIZE;
	return 1U << (32 - __builtin_clz(size - 1));
}

/* F_SETPIPE_SZ (Linux's pipe_set_size and pipe_resize_ring): the new size,
 * or -EINVAL past 2 GiB, -EPERM to grow past fs.pipe-max-size without
 * CAP_SYS_RESOURCE or past the user's pages without it or CAP_SYS_ADMIN,
 * -EBUSY to shrink below the pages the bytes held fill. The bytes move to
 * the start of the new ring. */
static long pipe_set_size(struct pipe_inode_info *pipe, unsigned int arg)
{
	unsigned int size = round_pipe_size(arg);
	unsigned long nr_slots = size / PAGE_SIZE, user_bufs;
	size_t len = pipe_len(pipe);
	long err = 0;
	char *buf;

	if (!size)
		return -EINVAL;
	if (size > pipe->size && size > pipe_max_size && !capable(CAP_SYS_RESOURCE))
		return -EPERM;
	user_bufs = account_pipe_buffers(pipe->user, pipe->nr_accounted, nr_slots);
	if (size > pipe->size &&
	    (too_many_pipe_buffers_hard(user_bufs) || too_many_pipe_buffers_soft(user_bufs)) &&
	    pipe_is_unprivileged_user())
		err = -EPERM;
	else if (size < ALIGN(len, PAGE_SIZE))
		err = -EBUSY;
	if (err) {
		account_pipe_buffers(pipe->user, nr_slots, pipe->nr_accounted);
		return err;
	}
	pipe->nr_accounted = nr_slots;
	buf = kvmalloc(size);	/* up to 2 GiB: only the pages written are touched */
	for (size_t done = 0; done < len;) {
		size_t off = (pipe->tail + done) & (pipe->size - 1);
		size_t chars = min(len - done, pipe->size - off);

		memcpy(buf + done, pipe->buf + off, chars);
		done += chars;
	}
	kfree(pipe->buf);
	pipe->buf = buf;
	pipe->size = size;
	pipe->tail = 0;
	pipe->head = (unsigned int)len;
	/* a bigger ring may have room for a sleeping writer */
	wake_up_poll(&pipe->wr_wait, POLLOUT | POLLWRNORM);
	return size;
}

long pipe_fcntl(struct file *f, unsigned int cmd, unsigned int arg)
{
	struct pipe_inode_info *pipe = f->private_data;

	if (f->f_op != &pipefifo_fops || !pipe)
		return -EBADF;
	if (cmd == F_SETPIPE_SZ)
		return pipe_set_size(pipe, arg);
	return pipe->size;	/* F_GETPIPE_SZ */
}

/* O_ASYNC on or off (Linux's pipe_fasync): a read end on the readers'
 * list, a write end on the writers', a FIFO opened O_RDWR on both. */
static int pipe_fasync(int fd, struct file *f, int on)
{
	struct pipe_inode_info *pipe = f->private_data;
	int ret = 0;

	if (file_readable(f))
		ret = fasync_helper(fd, f, on, &pipe->fasync_readers);
	if (file_writable(f) && ret >= 0)
		ret = fasync_helper(fd, f, on, &pipe->fasync_writers);
	return ret;
}

static void free_pipe_info(struct pipe_inode_info *pipe)
{
	account_pipe_buffers(pipe->user, pipe->nr_accounted, 0);
	kfree(pipe->buf);
	kfree(pipe);
}

/* One open file of the pipe is gone; the last one frees it, and a FIFO's
 * inode forgets it (Linux's put_pipe_info): a FIFO's data do not outlive
 * its last open file. */
static void put_pipe_info(struct inode *inode, struct pipe_inode_info *pipe)
{
	if (--pipe->files)
		return;
	if (inode)
		inode->i_pipe = NULL;
	free_pipe_info(pipe);
}

/* The last reference to an open file of the pipe is gone. Precondition:
 * nobody sleeps on the pipe once its last file is gone (a sleeper holds a
 * reference to its file). */
static void pipe_release(struct file *f)
{
	struct pipe_inode_info *pipe = f->private_data;

	if (file_readable(f))
		pipe->readers--;
	if (file_writable(f))
		pipe->writers--;
	if (pipe->readers < 0 || pipe->writers < 0 || pipe->files <= 0)
		panic("pipe_release: pipe %p has %d readers, %d writers, %d files", (void *)pipe,
		      pipe->readers, pipe->writers, pipe->files);
	/* Readers now see EOF, writers SIGPIPE. */
	if (!pipe->readers != !pipe->writers) {
		wake_up(&pipe->rd_wait);
		wake_up(&pipe->wr_wait);
		kill_fasync(&pipe->fasync_readers, SIGIO, POLL_IN);
		kill_fasync(&pipe->fasync_writers, SIGIO, POLL_OUT);
	}
	put_pipe_info(f->f_inode, pipe);
}

static int pipe_fstat(struct file *f, struct stat *st)
{
	struct pipe_inode_info *pipe = f->private_data;

	if (f->f_path.dentry)		/* a FIFO: its inode's attributes */
		return vfs_getattr(&f->f_path, st);
	memset(st, 0, sizeof(*st));
	st->st_dev = new_encode_dev(PIPEFS_DEV);
	st->st_ino = pipe->ino;
	st->st_mode = S_IFIFO | 0600;
	st->st_nlink = 1;
	st->st_blksize = PAGE_SIZE;
	st->st_atime = st->st_mtime = st->st_ctime = pipe->ctime.tv_sec;
	st->st_atime_nsec = st->st_mtime_nsec = st->st_ctime_nsec = pipe->ctime.tv_nsec;
	return 0;
}

unsigned long pipe_ino(struct file *f)
{
	return ((struct pipe_inode_info *)f->private_data)->ino;
}

/* A new pipe has 16 pages, or fs.pipe-max-size when that is less and
 * its maker lacks CAP_SYS_RESOURCE; for an unprivileged maker whose pipes
 * hold more than fs.pipe-user-pages-soft, 2; past -hard, none: NULL
 * (Linux's alloc_pipe_info). Its pages count for its maker's real uid. */
static struct pipe_inode_info *alloc_pipe_info(void)
{
	static unsigned long last_ino;
	struct pipe_user *user = get_pipe_user(current->cred.uid);
	unsigned long pipe_bufs = PIPE_DEF_BUFFERS, user_bufs;
	struct pipe_inode_info *pipe;

	if (pipe_bufs * PAGE_SIZE > pipe_max_size && !capable(CAP_SYS_RESOURCE))
		pipe_bufs = pipe_max_size / PAGE_SIZE;
	user_bufs = account_pipe_buffers(user, 0, pipe_bufs);
	if (too_many_pipe_buffers_soft(user_bufs) && pipe_is_unprivileged_user()) {
		user_bufs = account_pipe_buffers(user, pipe_bufs, PIPE_MIN_DEF_BUFFERS);
		pipe_bufs = PIPE_MIN_DEF_BUFFERS;
	}
	if (too_many_pipe_buffers_hard(user_bufs) && pipe_is_unprivileged_user()) {
		account_pipe_buffers(user, pipe_bufs, 0);
		return NULL;
	}
	pipe = kmalloc(sizeof(*pipe));
	pipe->user = user;
	pipe->nr_accounted = pipe_bufs;
	pipe->size = (unsigned int)(pipe_bufs * PAGE_SIZE);
	pipe->buf = kvmalloc(pipe->size);
	pipe->ino = ++last_ino;
	pipe->ctime = current_time();
	init_waitqueue_head(&pipe->rd_wait);
	init_waitqueue_head(&pipe->wr_wait);
	return pipe;
}

/* A sleeping open of the other end wakes on rd_wait (Linux's
 * wake_up_partner). */
static void wake_up_partner(struct pipe_inode_info *pipe)
{
	wake_up(&pipe->rd_wait);
}

/* Sleep until *cnt moves (an open of the other end): 0, or -ERESTARTSYS
 * when a signal came first (Linux's wait_for_partner). */
static int wait_for_partner(struct pipe_inode_info *pipe, unsigned int *cnt)
{
	unsigned int cur = *cnt;

	(void)wait_event_interruptible(pipe->rd_wait, cur != *cnt);
	return cur == *cnt ? -ERESTARTSYS : 0;
}

/* Open of a FIFO (Linux's fifo_open): O_RDONLY waits for a writer unless
 * O_NONBLOCK, O_WRONLY waits for a reader or with O_NONBLOCK fails with
 * -ENXIO, O_RDWR never waits. A signal ends a wait with -ERESTARTSYS. */
static int fifo_open(struct inode *inode, struct file *f)
{
	struct pipe_inode_info *pipe = inode->i_pipe;

	f->f_pipe = 0;
	if (!pipe) {
		pipe = alloc_pipe_info();
		if (!pipe)
			return -ENOMEM;
		inode->i_pipe = pipe;
	}
	pipe->files++;
	f->private_data = pipe;

	switch (f->f_flags & O_ACCMODE) {
	case O_RDONLY:
		pipe->r_counter++;
		if (pipe->readers++ == 0)
			wake_up_partner(pipe);
		if (!pipe->writers) {
			if (f->f_flags & O_NONBLOCK) {
				/* suppress POLLHUP until we have seen a writer */
				f->f_pipe = pipe->w_counter;
			} else if (wait_for_partner(pipe, &pipe->w_counter)) {
				if (!--pipe->readers)
					wake_up(&pipe->wr_wait);
				goto err_restart;
			}
		}
		return 0;
	case O_WRONLY:
		if ((f->f_flags & O_NONBLOCK) && !pipe->readers) {
			put_pipe_info(inode, pipe);
			return -ENXIO;
		}
		pipe->w_counter++;
		if (!pipe->writers++)
			wake_up_partner(pipe);
		if (!pipe->readers && wait_for_partner(pipe, &pipe->r_counter)) {
			if (!--pipe->writers)
				wake_up(&pipe->rd_wait);
			goto err_restart;
		}
		return 0;
	default:	/* O_RDWR: the process can at least talk to itself */
		pipe->readers++;
		pipe->writers++;
		pipe->r_counter++;
		pipe->w_counter++;
		if (pipe->readers == 1 || pipe->writers == 1)
			wake_up_partner(pipe);
		return 0;
	}
err_restart:
	put_pipe_info(inode, pipe);
	return -ERESTARTSYS;
}

const struct file_operations pipefifo_fops = {
	.name = "pipe",
	.open = fifo_open,
	.read_iter = pipe_read,
	.write_iter = pipe_write,
	.poll = pipe_poll,
	.ioctl = pipe_ioctl,
	.fstat = pipe_fstat,
	.release = pipe_release,
	.fasync = pipe_fasync,
};

/* res[0] the read end, res[1] the write end; one reference each. 0, or
 * -ENFILE past the user's hard limit of pipe pages. */
static int create_pipe_files(struct file **res, int flags)
{
	struct pipe_inode_info *pipe = alloc_pipe_info();

	if (!pipe)
		return -ENFILE;
	pipe->readers = pipe->writers = 1;
	pipe->r_counter = pipe->w_counter = 1;
	pipe->files = 2;
	res[0] = alloc_file(&pipefifo_fops, O_RDONLY | (flags & O_NONBLOCK), pipe);
	res[1] = alloc_file(&pipefifo_fops, O_WRONLY | (flags & (O_NONBLOCK | O_DIRECT)), pipe);
	return 0;
}

/*
 * Linux reserves both fds, copies them out, and installs the files only if
 * that worked. umk installs first and takes the fds back on failure: no
 * other task runs in between, so none can see them.
 */
static long do_pipe2(int __user *fildes, int flags)
{
	struct files_struct *files = current->files;
	bool cloexec = flags & O_CLOEXEC;
	struct file *res[2];
	int fd[2], err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
		return -EINVAL;
	err = create_pipe_files(res, flags);
	if (err)
		return err;
	fd[0] = fd_install_lowest(files, res[0], 0, cloexec);
	if (fd[0] < 0) {
		fput(res[0]);
		fput(res[1]);
		return fd[0];
	}
	fd[1] = fd_install_lowest(files, res[1], 0, cloexec);
	if (fd[1] < 0) {
		fput(res[1]);
		sys_close(fd[0]);
		return fd[1];
	}
	if (copy_to_user(fildes, fd, sizeof(fd))) {
		sys_close(fd[0]);
		sys_close(fd[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe2(int __user *fildes, int flags)
{
	return do_pipe2(fildes, flags);
}

long sys_pipe(int __user *fildes)
{
	return do_pipe2(fildes, 0);
}
