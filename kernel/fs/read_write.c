/*
 * kernel/fs/read_write.c: read, write, readv, writev, pread64, pwrite64,
 * preadv, pwritev, preadv2, pwritev2, lseek and sendfile on any file
 * (Linux's fs/read_write.c). What a file
 * does with the bytes is its f_op's business: read_iter and write_iter at
 * a position (struct kiocb), which is the file's f_pos for read and write
 * on a seekable file (one with llseek), the caller's own for pread64,
 * pwrite64, sendfile with an offset and an AIO request (aio_rw, for
 * kernel/fs/aio.c).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/net.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

#define MAX_LFS_FILESIZE INT64_MAX

static bool can_rw(const struct file *f, bool write)
{
	return write ? f->f_op->write_iter != NULL : f->f_op->read_iter != NULL;
}

/* Why f cannot be read or written: a directory is read by getdents, and
 * every read of one is EISDIR (Linux's generic_read_dir); any other file
 * without the operation is EINVAL. */
static long cannot_rw(const struct file *f, bool write)
{
	return !write && f->f_inode && S_ISDIR(f->f_inode->i_mode) ? -EISDIR : -EINVAL;
}

/* One request at *pos (NULL: a stream, which has no position). */
static ssize_t do_iter_rw(struct file *f, struct iov_iter *iter, s64 *pos, bool write)
{
	struct kiocb iocb = { .ki_filp = f, .ki_pos = pos ? *pos : 0 };
	ssize_t ret = write ? f->f_op->write_iter(&iocb, iter) : f->f_op->read_iter(&iocb, iter);

	if (pos)
		*pos = iocb.ki_pos;
	return ret;
}

/* Where a read or write of f goes: its f_pos if it is seekable. */
static s64 *file_ppos(struct file *f)
{
	return f->f_op->llseek ? &f->f_pos : NULL;
}

/* The checks of Linux's vfs_read/vfs_write, in their order, then one
 * buffer through read_iter/write_iter. A count of 0 returns 0 once the fd
 * and the mode are known good. */
static ssize_t vfs_rw(struct file *f, char __user *buf, size_t count, s64 *pos, bool write)
{
	struct iovec iov;
	struct iov_iter iter;

	if (!(write ? file_writable(f) : file_readable(f)))
		return -EBADF;
	if (!can_rw(f, write))
		return cannot_rw(f, write);
	if (pos && *pos < 0)
		return -EINVAL;
	/* A socket's write of 0 bytes is sent (an empty datagram), as
	 * Linux's vfs_write does for every file. */
	if (!count && !(write && sock_from_file(f)))
		return 0;
	if (!access_ok(buf, count))
		return -EFAULT;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	iov.iov_base = buf;
	iov.iov_len = count;
	iov_iter_init(&iter, &iov, 1, count);
	return do_iter_rw(f, &iter, pos, write);
}

long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = vfs_rw(f, buf, count, file_ppos(f), false);
	fput(f);
	return ret;
}

long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = vfs_rw(f, (char __user *)buf, count, file_ppos(f), true);
	fput(f);
	return ret;
}

/* pread64 and pwrite64: at pos, which must be >= 0, on a seekable file. */
static long do_prw(unsigned int fd, char __user *buf, size_t count, s64 pos, bool write)
{
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	if (pos < 0)
		ret = -EINVAL;
	else if (!f->f_op->llseek)
		ret = -ESPIPE;
	else
		ret = vfs_rw(f, buf, count, &pos, write);
	fput(f);
	return ret;
}

long sys_pread64(unsigned int fd, char __user *buf, size_t count, s64 pos)
{
	return do_prw(fd, buf, count, pos, false);
}

long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count, s64 pos)
{
	return do_prw(fd, (char __user *)buf, count, pos, true);
}

/* preadv2 and pwritev2's flags (include/uapi/linux/fs.h) */
#define RWF_HIPRI	0x00000001
#define RWF_DSYNC	0x00000002
#define RWF_SYNC	0x00000004
#define RWF_NOWAIT	0x00000008
#define RWF_APPEND	0x00000010
#define RWF_NOAPPEND	0x00000020
#define RWF_ATOMIC	0x00000040
#define RWF_SUPPORTED	(RWF_HIPRI | RWF_DSYNC | RWF_SYNC | RWF_NOWAIT | RWF_APPEND | \
			 RWF_NOAPPEND | RWF_ATOMIC)

/* The flags of a vectored call (kiocb_set_rw_flags): -EOPNOTSUPP for
 * unknown ones and for RWF_ATOMIC (untorn writes need O_DIRECT on a block
 * device), -EINVAL for RWF_APPEND with RWF_NOAPPEND. umk's kiocb has no
 * flags of its own: the others act on the file's flags for the length of
 * the call, which no other task can see, as a call that cannot wait does
 * not schedule: RWF_NOWAIT is O_NONBLOCK (a pipe or an eventfd answers
 * EAGAIN instead of waiting; a file's pages never wait), RWF_APPEND and
 * RWF_NOAPPEND set and clear O_APPEND on a seekable file. RWF_HIPRI asks
 * for polled I/O, which a file without it ignores; RWF_DSYNC and RWF_SYNC
 * make a write durable before it returns (the file's fsync). Returns the
 * flags to put back, or -errno. */
static long set_rw_flags(struct file *f, int flags, bool write)
{
	unsigned int old = f->f_flags;

	if (flags & ~RWF_SUPPORTED)
		return -EOPNOTSUPP;
	if ((flags & RWF_APPEND) && (flags & RWF_NOAPPEND))
		return -EINVAL;
	if (flags & RWF_ATOMIC)
		return -EOPNOTSUPP;
	if (flags & RWF_NOWAIT)
		f->f_flags |= O_NONBLOCK;
	if (write && f->f_op->llseek && (flags & RWF_APPEND))
		f->f_flags |= O_APPEND;
	if (write && f->f_op->llseek && (flags & RWF_NOAPPEND))
		f->f_flags &= ~O_APPEND;
	return old;
}

/* vfs_readv and vfs_writev: f's checks in Linux's order, then the
 * vector at *pos (NULL: the file's own position). fd is an unsigned long
 * in the ABI but an unsigned int to Linux's fdget. */
static long vfs_rwv(struct file *f, const struct iovec __user *vec, unsigned long vlen,
		    s64 *pos, int flags, bool write)
{
	struct iovec *iov;
	struct iov_iter iter;
	long ret, saved;

	if (!(write ? file_writable(f) : file_readable(f)))
		return -EBADF;
	if (!can_rw(f, write))
		return cannot_rw(f, write);
	ret = import_iovec(vec, vlen, &iov, &iter);
	if (ret < 0)
		return ret;
	saved = set_rw_flags(f, flags, write);
	if (saved < 0) {
		kfree(iov);
		return saved;
	}
	ret = 0;
	if (iov_iter_count(&iter))
		ret = do_iter_rw(f, &iter, pos ? pos : file_ppos(f), write);
	f->f_flags = (unsigned int)saved;
	if (ret > 0 && write && (flags & (RWF_DSYNC | RWF_SYNC)) && f->f_op->fsync) {
		int err = f->f_op->fsync(f);

		if (err)
			ret = err;
	}
	kfree(iov);
	return ret;
}

/*
 * One read or write of an AIO request (Linux's aio_read and aio_write,
 * fs/aio.c): the flags, the file's mode and operation, the buffer (an
 * iovec array of len entries when vectored) and the position, checked in
 * Linux's order, then the transfer, at once: buffered AIO is synchronous
 * on Linux too. A check that fails is io_submit's error (no event): the
 * return value, -errno. Past them the return is 0 and *res is the event's
 * result: the bytes moved or -errno, an interrupted wait -EINTR
 * (aio_rw_done: an event cannot be restarted).
 */
long aio_rw(struct file *f, void __user *buf, size_t len, bool vectored, s64 pos, int rwflags,
	    bool write, long *res)
{
	s64 *ppos = f->f_op->llseek ? &pos : NULL;
	struct iovec single, *iov = NULL;
	struct iov_iter iter;
	long ret, saved = set_rw_flags(f, rwflags, write);

	if (saved < 0)
		return saved;
	ret = -EBADF;
	if (!(write ? file_writable(f) : file_readable(f)))
		goto out;
	ret = -EINVAL;	/* no read_iter (write_iter), a directory's too */
	if (!can_rw(f, write))
		goto out;
	if (vectored) {
		ret = import_iovec(buf, len, &iov, &iter);
	} else {
		if (len > MAX_RW_COUNT)
			len = MAX_RW_COUNT;
		ret = access_ok(buf, len) ? 0 : -EFAULT;
		single.iov_base = buf;
		single.iov_len = len;
		iov_iter_init(&iter, &single, 1, len);
	}
	if (ret < 0)
		goto out;
	ret = -EINVAL;	/* rw_verify_area */
	if (ppos && pos < 0)
		goto out;
	ret = 0;
	*res = iov_iter_count(&iter) ? do_iter_rw(f, &iter, ppos, write) : 0;
	if (*res > 0 && write && (rwflags & (RWF_DSYNC | RWF_SYNC)) && f->f_op->fsync) {
		int err = f->f_op->fsync(f);

		if (err)
			*res = err;
	}
	if (*res == -ERESTARTSYS || *res == -ERESTARTNOINTR || *res == -ERESTARTNOHAND ||
	    *res == -ERESTART_RESTARTBLOCK)
		*res = -EINTR;
out:
	f->f_flags = (unsigned int)saved;
	kfree(iov);
	return ret;
}

static long do_readv_writev(unsigned long fd, const struct iovec __user *vec,
			    unsigned long vlen, int flags, bool write)
{
	struct file *f = fget((unsigned int)fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = vfs_rwv(f, vec, vlen, NULL, flags, write);
	fput(f);
	return ret;
}

long sys_readv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return do_readv_writev(fd, vec, vlen, 0, false);
}

long sys_writev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen)
{
	return do_readv_writev(fd, vec, vlen, 0, true);
}

/* preadv and pwritev (do_preadv, do_pwritev): at pos, which must be >= 0,
 * on a seekable file. On x86-64 the position is pos_l whole: the high
 * half is for 32-bit ABIs (pos_from_hilo). */
static long do_prwv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		    s64 pos, int flags, bool write)
{
	struct file *f;
	long ret;

	if (pos < 0)
		return -EINVAL;
	f = fget((unsigned int)fd);
	if (!f)
		return -EBADF;
	ret = f->f_op->llseek ? vfs_rwv(f, vec, vlen, &pos, flags, write) : -ESPIPE;
	fput(f);
	return ret;
}

long sys_preadv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		unsigned long pos_l, unsigned long pos_h)
{
	return do_prwv(fd, vec, vlen, (s64)pos_l, 0, false);
}

long sys_pwritev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		 unsigned long pos_l, unsigned long pos_h)
{
	return do_prwv(fd, vec, vlen, (s64)pos_l, 0, true);
}

/* preadv2 and pwritev2: a position of -1 is the file's own, as readv. */
long sys_preadv2(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		 unsigned long pos_l, unsigned long pos_h, int flags)
{
	if ((s64)pos_l == -1)
		return do_readv_writev(fd, vec, vlen, flags, false);
	return do_prwv(fd, vec, vlen, (s64)pos_l, flags, false);
}

long sys_pwritev2(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		  unsigned long pos_l, unsigned long pos_h, int flags)
{
	if ((s64)pos_l == -1)
		return do_readv_writev(fd, vec, vlen, flags, true);
	return do_prwv(fd, vec, vlen, (s64)pos_l, flags, true);
}

ssize_t simple_read_from_buffer(struct kiocb *iocb, struct iov_iter *to, const void *data,
				size_t len)
{
	size_t n, copied;

	if (iocb->ki_pos < 0 || (u64)iocb->ki_pos >= len)
		return 0;
	n = min(iov_iter_count(to), len - (size_t)iocb->ki_pos);
	copied = copy_to_iter((const char *)data + iocb->ki_pos, n, to);
	iocb->ki_pos += copied;
	return copied ? (ssize_t)copied : -EFAULT;
}

ssize_t kernel_read(struct file *f, void *buf, size_t n, s64 pos)
{
	struct kvec kv = { .iov_base = buf, .iov_len = n };
	struct iov_iter iter;

	if (!f->f_op->read_iter)
		return -EINVAL;
	iov_iter_kvec(&iter, &kv, 1, n);
	return do_iter_rw(f, &iter, &pos, false);
}

/* Linux's no_seek_end_llseek: SEEK_SET and SEEK_CUR to any position >= 0
 * (a directory's, /proc/PID/pagemap's). */
s64 no_seek_end_llseek(struct file *f, s64 offset, int whence)
{
	if (whence == SEEK_CUR)
		offset += f->f_pos;
	else if (whence != SEEK_SET)
		return -EINVAL;
	if (offset < 0)
		return -EINVAL;
	f->f_pos = offset;
	return offset;
}

/* Linux's generic_file_llseek_size for a file of size bytes: SEEK_DATA
 * and SEEK_HOLE see one extent of data, [0, size). */
s64 generic_file_llseek(struct file *f, s64 offset, int whence, s64 size)
{
	s64 base;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = f->f_pos;
		break;
	case SEEK_END:
		base = size;
		break;
	case SEEK_DATA:
		if (offset < 0 || offset >= size)
			return -ENXIO;
		base = 0;
		break;
	case SEEK_HOLE:
		if (offset < 0 || offset >= size)
			return -ENXIO;
		base = 0;
		offset = size;
		break;
	default:
		return -EINVAL;
	}
	if (offset > MAX_LFS_FILESIZE - base || base + offset < 0)
		return -EINVAL;
	f->f_pos = base + offset;
	return f->f_pos;
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

#define SENDFILE_CHUNK (64 * 1024)

/* Linux's do_sendfile over a kernel buffer (its splice pipe): read a chunk
 * of in at *pos, write it to out, until count bytes, the end of in, a
 * short write, or a signal (umk's kernel is not preempted: a 2 GiB copy
 * from /dev/zero would hold the CPU). Returns the bytes moved, or -errno
 * when none were. */
static ssize_t sendfile_copy(struct file *out, struct file *in, s64 *pos, size_t count)
{
	char *buf = kmalloc(SENDFILE_CHUNK);
	ssize_t done = 0;

	while ((size_t)done < count) {
		size_t want = min(count - done, (size_t)SENDFILE_CHUNK);
		struct kvec kv = { .iov_base = buf, .iov_len = want };
		struct iov_iter iter;
		ssize_t r, w;

		iov_iter_kvec(&iter, &kv, 1, want);
		r = do_iter_rw(in, &iter, pos, false);
		if (r <= 0) {
			if (!done)
				done = r;
			break;
		}
		kv.iov_len = r;
		iov_iter_kvec(&iter, &kv, 1, r);
		w = do_iter_rw(out, &iter, file_ppos(out), true);
		if (w < 0) {
			*pos -= r;
			if (!done)
				done = w;
			break;
		}
		done += w;
		if (w < r) {
			*pos -= r - w;
			break;
		}
		if (signal_pending(current))
			break;
	}
	kfree(buf);
	return done;
}

long sys_sendfile64(int out_fd, int in_fd, s64 __user *offset, size_t count)
{
	struct file *in = fget(in_fd), *out = NULL;
	s64 pos;
	long ret;

	ret = -EBADF;
	if (!in || !file_readable(in))
		goto out;
	if (offset) {
		ret = -EFAULT;
		if (get_user(pos, offset))
			goto out;
		ret = -ESPIPE;
		if (!in->f_op->llseek)
			goto out;
	} else {
		pos = in->f_pos;
	}
	ret = -EINVAL;
	if (pos < 0)
		goto out;
	count = min(count, (size_t)MAX_RW_COUNT);
	out = fget(out_fd);
	ret = -EBADF;
	if (!out || !file_writable(out))
		goto out;
	/* Linux reads through splice_read, which pipes lack; and it refuses
	 * an O_APPEND destination. */
	ret = -EINVAL;
	if (!in->f_op->llseek || !in->f_op->read_iter || !can_rw(out, true) ||
	    (out->f_flags & O_APPEND))
		goto out;
	ret = count ? sendfile_copy(out, in, &pos, count) : 0;
	if (offset) {
		if (put_user(pos, offset))
			ret = -EFAULT;
	} else {
		in->f_pos = pos;
	}
out:
	if (out)
		fput(out);
	if (in)
		fput(in);
	return ret;
}
