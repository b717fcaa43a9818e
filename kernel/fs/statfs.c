/*
 * kernel/fs/statfs.c: statfs and fstatfs (fs/statfs.c).
 *
 * hostfs asks the host about the host file system behind the path (its
 * magic, sizes and free space are the host's), read-only where umk shows
 * it read-only. umk's tmpfs answers as Linux's tmpfs with its default
 * size, half of the host's RAM: its free space is what the host has free,
 * up to that size, since a tmpfs file's pages are host memory. /proc has
 * no blocks. A pipe is on pipefs, a socket on sockfs, epoll, eventfd,
 * signalfd and timerfd on anon_inodefs, the console on devpts, as on Linux
 * with a terminal.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/os.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/statfs.h>

static void tmpfs_statfs(struct super_block *sb, struct statfs *buf)
{
	unsigned long totalram, freeram, totalswap, freeswap;

	buf->f_type = TMPFS_MAGIC;
	if (os_meminfo(&totalram, &freeram, &totalswap, &freeswap))
		totalram = freeram = 0;
	buf->f_blocks = totalram / 2 / PAGE_SIZE;
	buf->f_bfree = buf->f_bavail = min(buf->f_blocks, freeram / PAGE_SIZE);
	buf->f_files = totalram / 2 / PAGE_SIZE;
	buf->f_ffree = buf->f_files > sb->s_next_ino ? buf->f_files - sb->s_next_ino : 0;
}

/* Linux's vfs_statfs over a path (the dentry is on sb). */
static int vfs_statfs(const struct path *path, struct statfs *buf)
{
	struct super_block *sb = path->dentry->d_sb;
	int err = 0;

	memset(buf, 0, sizeof(*buf));
	buf->f_bsize = buf->f_frsize = PAGE_SIZE;
	buf->f_namelen = NAME_MAX;
	if (!strcmp(sb->s_type, "hostfs"))
		err = hostfs_statfs(path->dentry, buf);
	else if (!strcmp(sb->s_type, "proc"))
		buf->f_type = PROC_SUPER_MAGIC;
	else
		tmpfs_statfs(sb, buf);	/* tmpfs, devtmpfs */
	if (err)
		return err;
	buf->f_fsid.val[0] = (int)sb->s_dev;
	buf->f_fsid.val[1] = 0;
	buf->f_flags = ST_VALID | ((sb->s_flags & SB_RDONLY) ? ST_RDONLY : 0) |
		       (!strcmp(sb->s_type, "proc") ? ST_NOSUID | ST_NODEV | ST_NOEXEC : 0);
	return 0;
}

long sys_statfs(const char __user *pathname, struct statfs __user *ubuf)
{
	struct statfs buf;
	struct path path;
	int err = user_path_at(AT_FDCWD, pathname, LOOKUP_FOLLOW, &path);

	if (err)
		return err;
	err = vfs_statfs(&path, &buf);
	path_put(&path);
	if (!err && copy_to_user(ubuf, &buf, sizeof(buf)))
		err = -EFAULT;
	return err;
}

/* The file system of a file without a path of its own. */
static long nameless_fs_magic(struct file *f)
{
	if (!strcmp(f->f_op->name, "pipe"))
		return PIPEFS_MAGIC;
	if (!strcmp(f->f_op->name, "socket"))
		return SOCKFS_MAGIC;
	if (f->f_op->fstat == anon_inode_fstat)
		return ANON_INODE_FS_MAGIC;
	return DEVPTS_SUPER_MAGIC;	/* the console */
}

long sys_fstatfs(unsigned int fd, struct statfs __user *ubuf)
{
	struct file *f = fget(fd);
	struct statfs buf;
	int err = 0;

	if (!f)
		return -EBADF;
	if (f->f_path.dentry) {
		err = vfs_statfs(&f->f_path, &buf);
	} else {
		memset(&buf, 0, sizeof(buf));
		buf.f_type = nameless_fs_magic(f);
		buf.f_bsize = buf.f_frsize = PAGE_SIZE;
		buf.f_namelen = NAME_MAX;
		buf.f_flags = ST_VALID;
	}
	fput(f);
	if (!err && copy_to_user(ubuf, &buf, sizeof(buf)))
		err = -EFAULT;
	return err;
}
