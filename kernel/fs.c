/*
 * kernel/fs.c: open files, descriptor tables and the file system calls that
 * do not care what a file is (Linux's fs/file.c, fs/file_table.c,
 * fs/read_write.c, fs/fcntl.c, fs/ioctl.c, lib/iov_iter.c).
 *
 * A struct file is counted (f_count): each fd slot that holds it and each
 * system call working on it (fget) own one reference; the last fput calls
 * f_op->release. A files_struct is counted too (count), shared by tasks
 * created with CLONE_FILES; dup_fd copies it for the others.
 *
 * Departure from Linux: no locks and no RCU. umk has one CPU and kernel code
 * is never preempted, so nothing runs between two statements here unless a
 * file operation sleeps; every system call therefore holds its own reference
 * across f_op calls, so a close() by another task while we sleep cannot free
 * the file under us.
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

/* ---- struct file ---- */

struct file *alloc_file(const struct file_operations *op, unsigned int flags, void *priv)
{
	struct file *f = kmalloc(sizeof(*f));

	f->f_op = op;
	f->f_count = 1;
	f->f_flags = flags;
	f->private_data = priv;
	return f;
}

static struct file *get_file(struct file *f)
{
	f->f_count++;
	return f;
}

void fput(struct file *f)
{
	if (f->f_count <= 0)
		panic("fput: file %p (%s) has f_count %d", (void *)f, f->f_op->name,
		      f->f_count);
	if (--f->f_count)
		return;
	if (f->f_op->release)
		f->f_op->release(f);
	kfree(f);
}

static struct file *files_lookup_fd(struct files_struct *files, unsigned int fd)
{
	return fd < NR_OPEN_DEFAULT ? files->fd[fd] : NULL;
}

struct file *fget(unsigned int fd)
{
	struct file *f = files_lookup_fd(current->files, fd);

	return f ? get_file(f) : NULL;
}

/* FMODE_READ / FMODE_WRITE, from the access mode as Linux derives them. */
static bool file_readable(const struct file *f)
{
	unsigned int acc = f->f_flags & O_ACCMODE;

	return acc == O_RDONLY || acc == O_RDWR;
}

static bool file_writable(const struct file *f)
{
	unsigned int acc = f->f_flags & O_ACCMODE;

	return acc == O_WRONLY || acc == O_RDWR;
}

/* ---- descriptor tables ---- */

static bool get_close_on_exec(struct files_struct *files, unsigned int fd)
{
	return files->close_on_exec[fd / 64] & (1UL << (fd % 64));
}

static void set_close_on_exec(struct files_struct *files, unsigned int fd, bool on)
{
	if (on)
		files->close_on_exec[fd / 64] |= 1UL << (fd % 64);
	else
		files->close_on_exec[fd / 64] &= ~(1UL << (fd % 64));
}

/* Put f (a reference the caller hands over) in the free slot fd. */
static void fd_install(struct files_struct *files, unsigned int fd, struct file *f, bool cloexec)
{
	if (files->fd[fd])
		panic("fd_install: fd %u is taken", fd);
	files->fd[fd] = f;
	set_close_on_exec(files, fd, cloexec);
}

int fd_install_lowest(struct files_struct *files, struct file *f, int minfd, bool cloexec)
{
	int fd;

	for (fd = minfd < 0 ? 0 : minfd; fd < NR_OPEN_DEFAULT; fd++) {
		if (!files->fd[fd]) {
			fd_install(files, fd, f, cloexec);
			return fd;
		}
	}
	return -EMFILE;
}

/* Empty slot fd and return what it held (the slot's reference), or NULL. */
static struct file *pick_file(struct files_struct *files, unsigned int fd)
{
	struct file *f = files_lookup_fd(files, fd);

	if (f) {
		files->fd[fd] = NULL;
		set_close_on_exec(files, fd, false);
	}
	return f;
}

static struct files_struct *alloc_files(void)
{
	struct files_struct *files = kmalloc(sizeof(*files));

	files->count = 1;
	return files;
}

struct files_struct *files_init_console(void)
{
	struct files_struct *files = alloc_files();
	int fd;

	/* A host fd that is closed stays closed for the program too. */
	for (fd = 0; fd < 3; fd++)
		files->fd[fd] = console_file(fd);
	return files;
}

struct files_struct *dup_fd(struct files_struct *old)
{
	struct files_struct *files = alloc_files();
	int fd;

	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (old->fd[fd])
			files->fd[fd] = get_file(old->fd[fd]);
	memcpy(files->close_on_exec, old->close_on_exec, sizeof(files->close_on_exec));
	return files;
}

void put_files_struct(struct files_struct *files)
{
	int fd;

	if (files->count <= 0)
		panic("put_files_struct: %p has count %d", (void *)files, files->count);
	if (--files->count)
		return;
	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++) {
		struct file *f = pick_file(files, fd);

		if (f)
			fput(f);
	}
	kfree(files);
}

/* Precondition: files is not shared (exec unshares it first, as Linux's
 * unshare_files does), or the other sharers lose these fds too. */
void do_close_on_exec(struct files_struct *files)
{
	unsigned int fd;

	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++) {
		if (get_close_on_exec(files, fd)) {
			struct file *f = pick_file(files, fd);

			if (f)
				fput(f);
		}
	}
}

/* ---- iov_iter ---- */

void iov_iter_init(struct iov_iter *i, const struct iovec *iov, unsigned long nr_segs,
		   size_t count)
{
	i->iov = iov;
	i->nr_segs = nr_segs;
	i->iov_offset = 0;
	i->count = count;
}

/* The next non-empty piece of the current segment, at most n bytes; steps
 * over exhausted and empty segments. Returns its length (0 when done). */
static size_t iov_iter_piece(struct iov_iter *i, size_t n, char __user **base)
{
	while (i->count && i->iov_offset == i->iov->iov_len) {
		i->iov++;
		i->nr_segs--;
		i->iov_offset = 0;
	}
	if (!i->count)
		return 0;
	*base = (char __user *)i->iov->iov_base + i->iov_offset;
	return min(n, min(i->iov->iov_len - i->iov_offset, i->count));
}

static void iov_iter_advance(struct iov_iter *i, size_t n)
{
	i->iov_offset += n;
	i->count -= n;
}

size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i)
{
	size_t done = 0;

	while (done < n) {
		char __user *base;
		size_t len = iov_iter_piece(i, n - done, &base);
		size_t left;

		if (!len)
			break;
		left = copy_to_user(base, (const char *)src + done, len);
		iov_iter_advance(i, len - left);
		done += len - left;
		if (left)
			break;
	}
	return done;
}

size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i)
{
	size_t done = 0;

	while (done < n) {
		char __user *base;
		size_t len = iov_iter_piece(i, n - done, &base);
		size_t left;

		if (!len)
			break;
		left = copy_from_user((char *)dst + done, base, len);
		iov_iter_advance(i, len - left);
		done += len - left;
		if (left)
			break;
	}
	return done;
}

/* ---- read, write, readv, writev (fs/read_write.c) ---- */

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

/* Linux's import_iovec: copy the user's array into iov (kmalloc'ed, the
 * caller frees it) and check each buffer; the total is clamped to
 * MAX_RW_COUNT by shortening the segment that crosses it. */
static long import_iovec(const struct iovec __user *uvec, unsigned long nr_segs,
			 struct iovec **iovp, struct iov_iter *iter)
{
	struct iovec *iov;
	size_t total = 0;
	unsigned long seg;

	*iovp = NULL;
	if (nr_segs > UIO_MAXIOV)
		return -EINVAL;
	iov = kmalloc(nr_segs ? nr_segs * sizeof(*iov) : 1);
	if (nr_segs && copy_from_user(iov, uvec, nr_segs * sizeof(*iov))) {
		kfree(iov);
		return -EFAULT;
	}
	for (seg = 0; seg < nr_segs; seg++) {
		if ((ssize_t)iov[seg].iov_len < 0) {
			kfree(iov);
			return -EINVAL;
		}
	}
	for (seg = 0; seg < nr_segs; seg++) {
		size_t len = iov[seg].iov_len;

		if (len && !access_ok(iov[seg].iov_base, len)) {
			kfree(iov);
			return -EFAULT;
		}
		if (len > MAX_RW_COUNT - total) {
			len = MAX_RW_COUNT - total;
			iov[seg].iov_len = len;
		}
		total += len;
	}
	iov_iter_init(iter, iov, nr_segs, total);
	*iovp = iov;
	return 0;
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

/* ---- close, dup (fs/open.c, fs/file.c) ---- */

long sys_close(unsigned int fd)
{
	struct file *f = pick_file(current->files, fd);

	if (!f)
		return -EBADF;
	fput(f);
	return 0;
}

long sys_dup(unsigned int fildes)
{
	struct file *f = fget(fildes);
	long ret;

	if (!f)
		return -EBADF;
	ret = fd_install_lowest(current->files, f, 0, false);
	if (ret < 0)
		fput(f);
	return ret;
}

/* Linux's do_dup2: newfd may be open; it is closed after the switch. */
static long do_dup2(struct files_struct *files, struct file *f, unsigned int newfd, int flags)
{
	struct file *tofree = pick_file(files, newfd);

	fd_install(files, newfd, get_file(f), flags & O_CLOEXEC);
	if (tofree)
		fput(tofree);
	return newfd;
}

long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags)
{
	struct files_struct *files = current->files;
	struct file *f;

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd >= NR_OPEN_DEFAULT)
		return -EBADF;
	f = files_lookup_fd(files, oldfd);
	if (!f)
		return -EBADF;
	return do_dup2(files, f, newfd, flags);
}

long sys_dup2(unsigned int oldfd, unsigned int newfd)
{
	if (oldfd == newfd)
		return files_lookup_fd(current->files, oldfd) ? (long)oldfd : -EBADF;
	return sys_dup3(oldfd, newfd, 0);
}

/* ---- fcntl (fs/fcntl.c) ---- */

#define SETFL_MASK (O_APPEND | O_NONBLOCK)

static long f_dupfd(unsigned int from, struct file *f, bool cloexec)
{
	long ret;

	if (from >= NR_OPEN_DEFAULT)
		return -EINVAL;
	ret = fd_install_lowest(current->files, get_file(f), from, cloexec);
	if (ret < 0)
		fput(f);
	return ret;
}

long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct files_struct *files = current->files;
	struct file *f = fget(fd);
	unsigned int argi = (unsigned int)arg;
	long ret;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
		ret = f_dupfd(argi, f, false);
		break;
	case F_DUPFD_CLOEXEC:
		ret = f_dupfd(argi, f, true);
		break;
	case F_GETFD:
		ret = get_close_on_exec(files, fd) ? FD_CLOEXEC : 0;
		break;
	case F_SETFD:
		set_close_on_exec(files, fd, argi & FD_CLOEXEC);
		ret = 0;
		break;
	case F_GETFL:
		ret = f->f_flags;
		break;
	case F_SETFL:
		f->f_flags = (argi & SETFL_MASK) | (f->f_flags & ~SETFL_MASK);
		ret = 0;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	fput(f);
	return ret;
}

/* ---- ioctl (fs/ioctl.c) ---- */

/* The commands every file has (Linux's do_vfs_ioctl); -ENOIOCTLCMD for the
 * rest, which go to the file. */
static long do_vfs_ioctl(struct file *f, unsigned int fd, unsigned int cmd, unsigned long arg)
{
	int on;

	switch (cmd) {
	case FIOCLEX:
		set_close_on_exec(current->files, fd, true);
		return 0;
	case FIONCLEX:
		set_close_on_exec(current->files, fd, false);
		return 0;
	case FIONBIO:
		if (get_user(on, (int __user *)arg))
			return -EFAULT;
		if (on)
			f->f_flags |= O_NONBLOCK;
		else
			f->f_flags &= ~O_NONBLOCK;
		return 0;
	}
	return -ENOIOCTLCMD;
}

long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = do_vfs_ioctl(f, fd, cmd, arg);
	if (ret == -ENOIOCTLCMD)
		ret = f->f_op->ioctl ? f->f_op->ioctl(f, cmd, arg) : -ENOTTY;
	if (ret == -ENOIOCTLCMD)
		ret = -ENOTTY;
	fput(f);
	return ret;
}
