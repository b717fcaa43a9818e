/*
 * kernel/hostfs.c: the host's files, read-only (after UML's hostfs).
 *
 * open and openat give a program read access to the host's files by their
 * host path, relative paths from umk's working directory; read, readv,
 * lseek and fstat work on them. umk has no file system of its own to write
 * to: an open for writing or creating fails with -EROFS, as on a read-only
 * mount. Directories open, but reading them fails as the host says.
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/limits.h>

#define MAX_LFS_FILESIZE INT64_MAX

struct hostfs_file {
	int hostfd;
	s64 pos;			/* f_pos */
};

static ssize_t hostfs_read(struct file *f, char __user *buf, size_t n)
{
	struct hostfs_file *hf = f->private_data;
	char chunk[4096];
	ssize_t done = 0;

	/* Through a kernel buffer: the host must never fault on user memory. */
	while ((size_t)done < n) {
		size_t want = min(n - done, sizeof(chunk));
		ssize_t r = os_pread(hf->hostfd, chunk, want, hf->pos);

		if (r < 0)
			return done ? done : r;
		if (!r)
			break;
		if (copy_to_user(buf + done, chunk, r))
			return done ? done : -EFAULT;
		hf->pos += r;
		done += r;
		if ((size_t)r < want)
			break;
	}
	return done;
}

static s64 hostfs_llseek(struct file *f, s64 offset, int whence)
{
	struct hostfs_file *hf = f->private_data;
	s64 base;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = hf->pos;
		break;
	case SEEK_END:
		base = os_file_size(hf->hostfd);
		if (base < 0)
			return base;
		break;
	default:
		return -EINVAL;
	}
	if (offset > MAX_LFS_FILESIZE - base || base + offset < 0)
		return -EINVAL;
	hf->pos = base + offset;
	return hf->pos;
}

static int hostfs_fstat(struct file *f, struct stat *st)
{
	struct hostfs_file *hf = f->private_data;

	return os_fstat(hf->hostfd, st);
}

static unsigned int hostfs_poll(struct file *f, struct wait_queue_head **wq)
{
	return POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM;	/* regular files never wait */
}

static void hostfs_release(struct file *f)
{
	struct hostfs_file *hf = f->private_data;

	os_close(hf->hostfd);
	kfree(hf);
}

static const struct file_operations hostfs_fops = {
	.name = "hostfs",
	.read = hostfs_read,
	.llseek = hostfs_llseek,
	.fstat = hostfs_fstat,
	.poll = hostfs_poll,
	.release = hostfs_release,
};

long sys_openat(int dfd, const char __user *filename, int flags, unsigned int mode)
{
	struct hostfs_file *hf;
	struct file *f;
	char *path;
	long ret;

	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)))
		return -EROFS;
	path = kmalloc(PATH_MAX);
	ret = strncpy_from_user(path, filename, PATH_MAX);
	if (ret >= 0 && !path[0])
		ret = -ENOENT;
	/* Only umk's working directory can be named by a descriptor. */
	if (ret >= 0 && path[0] != '/' && dfd != AT_FDCWD) {
		f = fget(dfd);
		ret = f ? -ENOTDIR : -EBADF;
		if (f)
			fput(f);
	}
	if (ret >= 0)
		ret = os_open_read(path);
	kfree(path);
	if (ret < 0)
		return ret;

	hf = kmalloc(sizeof(*hf));
	hf->hostfd = ret;
	f = alloc_file(&hostfs_fops, O_RDONLY | (flags & O_NONBLOCK), hf);
	ret = fd_install_lowest(current->files, f, 0, flags & O_CLOEXEC);
	if (ret < 0)
		fput(f);
	return ret;
}

long sys_open(const char __user *filename, int flags, unsigned int mode)
{
	return sys_openat(AT_FDCWD, filename, flags, mode);
}

long sys_lseek(unsigned int fd, s64 offset, unsigned int whence)
{
	struct file *f = fget(fd);
	s64 ret;

	if (!f)
		return -EBADF;
	ret = f->f_op->llseek ? f->f_op->llseek(f, offset, whence) : -ESPIPE;
	fput(f);
	return ret;
}

long sys_fstat(unsigned int fd, struct stat __user *statbuf)
{
	struct file *f = fget(fd);
	struct stat st;
	int ret;

	if (!f)
		return -EBADF;
	memset(&st, 0, sizeof(st));
	ret = f->f_op->fstat ? f->f_op->fstat(f, &st) : -EINVAL;
	fput(f);
	if (!ret && copy_to_user(statbuf, &st, sizeof(st)))
		ret = -EFAULT;
	return ret;
}
