/*
 * kernel/fs/stat.c: a file's attributes (Linux's fs/stat.c): stat, lstat,
 * fstat, newfstatat and statx, and readlink(at). Each file system fills a struct stat
 * (i_op->getattr, or generic_fillattr from the inode); statx converts it.
 * A file without a path (the console, a pipe) answers through f_op->fstat.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

int vfs_getattr(const struct path *path, struct stat *st)
{
	struct dentry *d = path->dentry;
	struct inode *inode = d->d_inode;

	if (inode->i_op && inode->i_op->getattr) {
		memset(st, 0, sizeof(*st));
		return inode->i_op->getattr(d, st);
	}
	generic_fillattr(inode, st);
	return 0;
}

int vfs_fstat(struct file *f, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	if (f->f_op->fstat)
		return f->f_op->fstat(f, st);
	if (f->f_path.dentry)
		return vfs_getattr(&f->f_path, st);
	return -EINVAL;
}

/* The attributes of name from dfd, with newfstatat's flags. */
static int vfs_statx(int dfd, const char __user *name, int flags, struct stat *st)
{
	struct path path;
	int err;

	err = user_path_at(dfd, name, (flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				   (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &path);
	if (err)
		return err;
	err = vfs_getattr(&path, st);
	path_put(&path);
	return err;
}

/* fstat of an fd, or of the file named "" with AT_EMPTY_PATH: Linux looks
 * at the fd itself, so a pipe or the console answers too. */
static int fstat_fd(unsigned int fd, struct stat *st)
{
	struct file *f = fget_raw(fd);
	int err;

	if (!f)
		return -EBADF;
	err = vfs_fstat(f, st);
	fput(f);
	return err;
}

/* Is name "" (AT_EMPTY_PATH on dfd itself)? -EFAULT if it cannot be read. */
static int empty_name(const char __user *name, bool *empty)
{
	char c;

	if (get_user(c, (char __user *)name))
		return -EFAULT;
	*empty = !c;
	return 0;
}

static long stat_at(int dfd, const char __user *name, int flags, struct stat *st)
{
	bool empty;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_EMPTY_PATH) && dfd != AT_FDCWD) {
		err = empty_name(name, &empty);
		if (err)
			return err;
		if (empty)
			return fstat_fd(dfd, st);
	}
	return vfs_statx(dfd, name, flags, st);
}

static long copy_stat(long err, const struct stat *st, struct stat __user *statbuf)
{
	if (!err && copy_to_user(statbuf, st, sizeof(*st)))
		err = -EFAULT;
	return err;
}

long sys_newfstatat(int dfd, const char __user *filename, struct stat __user *statbuf, int flag)
{
	struct stat st;

	if (flag & AT_STATX_SYNC_TYPE)
		return -EINVAL;		/* statx's flags only */
	return copy_stat(stat_at(dfd, filename, flag, &st), &st, statbuf);
}

long sys_stat(const char __user *filename, struct stat __user *statbuf)
{
	struct stat st;

	return copy_stat(vfs_statx(AT_FDCWD, filename, 0, &st), &st, statbuf);
}

long sys_lstat(const char __user *filename, struct stat __user *statbuf)
{
	struct stat st;

	return copy_stat(vfs_statx(AT_FDCWD, filename, AT_SYMLINK_NOFOLLOW, &st), &st, statbuf);
}

long sys_fstat(unsigned int fd, struct stat __user *statbuf)
{
	struct stat st;

	return copy_stat(fstat_fd(fd, &st), &st, statbuf);
}

long sys_statx(int dfd, const char __user *filename, unsigned int flags, unsigned int mask,
	       struct statx __user *buffer)
{
	struct statx tmp;
	struct stat st;
	long err;

	if (mask & STATX__RESERVED)
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	err = stat_at(dfd, filename, flags, &st);
	if (err)
		return err;
	memset(&tmp, 0, sizeof(tmp));
	tmp.stx_mask = STATX_BASIC_STATS;
	tmp.stx_blksize = st.st_blksize;
	tmp.stx_nlink = st.st_nlink;
	tmp.stx_uid = st.st_uid;
	tmp.stx_gid = st.st_gid;
	tmp.stx_mode = st.st_mode;
	tmp.stx_ino = st.st_ino;
	tmp.stx_size = st.st_size;
	tmp.stx_blocks = st.st_blocks;
	tmp.stx_atime.tv_sec = st.st_atime;
	tmp.stx_atime.tv_nsec = st.st_atime_nsec;
	tmp.stx_mtime.tv_sec = st.st_mtime;
	tmp.stx_mtime.tv_nsec = st.st_mtime_nsec;
	tmp.stx_ctime.tv_sec = st.st_ctime;
	tmp.stx_ctime.tv_nsec = st.st_ctime_nsec;
	/* new_decode_dev of the encoded numbers stat reports */
	tmp.stx_rdev_major = (st.st_rdev & 0xfff00) >> 8;
	tmp.stx_rdev_minor = (st.st_rdev & 0xff) | ((st.st_rdev >> 12) & 0xfff00);
	tmp.stx_dev_major = (st.st_dev & 0xfff00) >> 8;
	tmp.stx_dev_minor = (st.st_dev & 0xff) | ((st.st_dev >> 12) & 0xfff00);
	return copy_to_user(buffer, &tmp, sizeof(tmp)) ? -EFAULT : 0;
}

long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf, int bufsiz)
{
	struct path path;
	struct inode *inode;
	char *target;
	int err;

	if (bufsiz <= 0)
		return -EINVAL;
	err = user_path_at(dfd, pathname, LOOKUP_EMPTY, &path);
	if (err)
		return err;
	inode = path.dentry->d_inode;
	err = -EINVAL;
	if (S_ISLNK(inode->i_mode) && inode->i_op && inode->i_op->readlink) {
		target = kmalloc(PATH_MAX);
		err = inode->i_op->readlink(path.dentry, target);
		if (err > bufsiz)
			err = bufsiz;
		if (err > 0 && copy_to_user(buf, target, err))
			err = -EFAULT;
		kfree(target);
	}
	path_put(&path);
	return err;
}

long sys_readlink(const char __user *path, char __user *buf, int bufsiz)
{
	return sys_readlinkat(AT_FDCWD, path, buf, bufsiz);
}
