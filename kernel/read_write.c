/*
 * kernel/read_write.c: read, write, readv and writev on any file (Linux's
 * fs/read_write.c). What a file does with the bytes is its f_op's business:
 * read_iter/write_iter when it has them, read/write otherwise.
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

/* Linux's do_loop_readv_writev, for a file without read_iter/write_iter. */
static ssize_t do_loop_readv_writev(struct file *f, struct iov_iter *iter, bool write)
{
	ssize_t ret = 0;

	while (iov_iter_count(iter)) {
		char __user *base;
		size_t len = iov_iter_piece(iter, iov_iter_count(iter), &base);
		ssize_t nr = write ? f->f_op->write(f, base, len) : f->f_op->read(f, base, len);

		if (nr < 0) {
			if (!ret)
				ret = nr;
			break;
		}
		ret += nr;
		if ((size_t)nr != len)
			break;
		iov_iter_advance(iter, nr);
	}
	return ret;
}

static ssize_t vfs_iter_rw(struct file *f, struct iov_iter *iter, bool write)
{
	if (write && f->f_op->write_iter)
		return f->f_op->write_iter(f, iter);
	if (!write && f->f_op->read_iter)
		return f->f_op->read_iter(f, iter);
	return do_loop_readv_writev(f, iter, write);
}

static bool can_rw(const struct file *f, bool write)
{
	if (write)
		return f->f_op->write || f->f_op->write_iter;
	return f->f_op->read || f->f_op->read_iter;
}

/* The checks of Linux's vfs_read/vfs_write, in their order, then one
 * buffer through read/write, or read_iter/write_iter when that is all the
 * file has. A count of 0 returns 0 once the fd and the mode are known good. */
static ssize_t vfs_rw(struct file *f, char __user *buf, size_t count, bool write)
{
	struct iovec iov;
	struct iov_iter iter;

	if (!(write ? file_writable(f) : file_readable(f)))
		return -EBADF;
	if (!can_rw(f, write))
		return -EINVAL;
	if (!count)
		return 0;
	if (!access_ok(buf, count))
		return -EFAULT;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	if (write && f->f_op->write)
		return f->f_op->write(f, buf, count);
	if (!write && f->f_op->read)
		return f->f_op->read(f, buf, count);
	iov.iov_base = buf;
	iov.iov_len = count;
	iov_iter_init(&iter, &iov, 1, count);
	return vfs_iter_rw(f, &iter, write);
}

long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = vfs_rw(f, buf, count, false);
	fput(f);
	return ret;
}

long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = vfs_rw(f, (char __user *)buf, count, true);
	fput(f);
	return ret;
}

/* fd is an unsigned long in the ABI but an unsigned int to Linux's fdget. */
static long do_readv_writev(unsigned long fd, const struct iovec __user *vec,
			    unsigned long vlen, bool write)
{
	struct file *f = fget((unsigned int)fd);
	struct iovec *iov;
	struct iov_iter iter;
	long ret;

	if (!f)
		return -EBADF;
	ret = -EBADF;
	if (!(write ? file_writable(f) : file_readable(f)))
		goto out;
	ret = -EINVAL;
	if (!can_rw(f, write))
		goto out;
	ret = import_iovec(vec, vlen, &iov, &iter);
	if (ret < 0)
		goto out;
	if (iov_iter_count(&iter))
		ret = vfs_iter_rw(f, &iter, write);
	kfree(iov);
out:
	fput(f);
	return ret;
}

long sys_readv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return do_readv_writev(fd, vec, vlen, false);
}

long sys_writev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return do_readv_writev(fd, vec, vlen, true);
}
