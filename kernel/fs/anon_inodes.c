/*
 * kernel/fs/anon_inodes.c: files with no name of their own (Linux's
 * fs/anon_inodes.c): epoll, eventfd, signalfd, timerfd. Interface:
 * anon_inode_getfd makes one and installs it; anon_inode_fstat is such a
 * file's f_op->fstat.
 *
 * Linux gives them all one inode on anon_inodefs: fstat shows the same
 * device and inode number for each, mode 0600 with no file type, one link;
 * /proc/PID/fd names them "anon_inode:[NAME]" (file_path_name in
 * kernel/fs/proc.c, from f_op->name). umk has no anon_inodefs inode: the
 * numbers below stand for it. Departure: its times are umk's boot time
 * (Linux: when anon_inodefs was mounted, at the host's boot).
 */
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/timer.h>

/* anon_inodefs: an anonymous device of its own (pipefs is 0x0c), and its
 * one inode. */
#define ANON_INODE_DEV MKDEV(0, 0x0d)
#define ANON_INODE_INO 1

int anon_inode_fstat(struct file *f, struct stat *st)
{
	s64 boot = clock_get_ns(CLOCK_REALTIME) - (s64)ktime_since_boot();

	memset(st, 0, sizeof(*st));
	st->st_dev = new_encode_dev(ANON_INODE_DEV);
	st->st_ino = ANON_INODE_INO;
	st->st_mode = 0600;		/* S_IRUSR | S_IWUSR, no file type */
	st->st_nlink = 1;
	st->st_blksize = PAGE_SIZE;
	st->st_atime = st->st_mtime = st->st_ctime = boot / NSEC_PER_SEC;
	st->st_atime_nsec = st->st_mtime_nsec = st->st_ctime_nsec = boot % NSEC_PER_SEC;
	return 0;
}

int anon_inode_getfd(const struct file_operations *fops, void *priv, int flags)
{
	struct file *f = alloc_file(fops, O_RDWR | (flags & O_NONBLOCK), priv);
	int fd = fd_install_lowest(current->files, f, 0, flags & O_CLOEXEC);

	if (fd < 0)
		fput(f);	/* f_op->release frees priv */
	return fd;
}
