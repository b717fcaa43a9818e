/* Open files and descriptor tables (include/linux/fs.h, fdtable.h).
 * umk has three kinds of file: the console (a host fd umk inherited: 0, 1
 * and 2; kernel/console.c), pipes (kernel/pipe.c) and host files opened
 * read-only (kernel/hostfs.c). The code that does not care which is split
 * as Linux's: file_table.c, file.c, read_write.c, iov_iter.c, fcntl.c,
 * ioctl.c. */
#ifndef UMK_FS_H
#define UMK_FS_H

#include <umk/sched.h>
#include <umk/types.h>
#include <umk/uapi/fcntl.h>
#include <umk/uapi/fs.h>
#include <umk/uapi/ioctls.h>
#include <umk/uapi/poll.h>
#include <umk/uapi/stat.h>

/* What a file without f_op->poll reports: always ready (vfs_poll). */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

/* poll(2)'s array element (include/uapi/asm-generic/poll.h) */
struct pollfd {
	int fd;
	short events;
	short revents;
};

/* readv/writev (include/uapi/linux/uio.h, include/linux/fs.h) */
struct iovec {
	void __user *iov_base;
	size_t iov_len;
};

#define UIO_MAXIOV 1024
#define MAX_RW_COUNT (0x7fffffffUL & ~(PAGE_SIZE - 1))	/* INT_MAX & PAGE_MASK */

/* A position in a list of user buffers (include/linux/uio.h): what a
 * read_iter fills or a write_iter drains. iov points into a kernel copy of
 * the user's iovec array; the buffers themselves are user memory. */
struct iov_iter {
	const struct iovec *iov;	/* current segment */
	unsigned long nr_segs;		/* segments left, *iov included */
	size_t iov_offset;		/* bytes already done in *iov */
	size_t count;			/* bytes left in all segments */
};

static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

void iov_iter_init(struct iov_iter *i, const struct iovec *iov, unsigned long nr_segs,
		   size_t count);
/* Copy to (from) the user buffers and advance. Returns the bytes copied,
 * short only when a user page faults. */
/* The next non-empty piece of the current segment, at most n bytes, at
 * *base: its length, 0 when the iterator is done. */
size_t iov_iter_piece(struct iov_iter *i, size_t n, char __user **base);
void iov_iter_advance(struct iov_iter *i, size_t n);
size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i);
/* Copy the program's array of nr_segs iovecs into *iovp (kmalloc'ed: the
 * caller frees it) and set up iter over it: 0, -EINVAL or -EFAULT. */
long import_iovec(const struct iovec __user *uvec, unsigned long nr_segs,
		  struct iovec **iovp, struct iov_iter *iter);
size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i);

struct file;
struct stat;

/* Each op returns bytes or -Exxx. A read or write that must wait sleeps
 * interruptibly and returns -ERESTARTSYS when a signal comes first (or
 * the bytes already moved, if any), as Linux's pipe code does. A file has
 * read or read_iter (or neither: -EINVAL), write or write_iter likewise;
 * call them through sys_read/sys_write, which check the fd's mode first. */
struct file_operations {
	const char *name;		/* "console", "pipe", "hostfs" (for the trace) */
	ssize_t (*read)(struct file *f, char __user *buf, size_t n);
	ssize_t (*write)(struct file *f, const char __user *buf, size_t n);
	/* The same over a list of buffers, for readv/writev (Linux's read_iter/
	 * write_iter): one call, so a pipe write of up to PIPE_BUF bytes stays
	 * atomic and a read never sleeps once it has data. Optional: without
	 * them sys_readv/sys_writev call read/write per buffer. */
	ssize_t (*read_iter)(struct file *f, struct iov_iter *to);
	ssize_t (*write_iter)(struct file *f, struct iov_iter *from);
	/* Ready events now; if wq is not NULL, also the queue to wait on. */
	unsigned int (*poll)(struct file *f, struct wait_queue_head **wq);
	long (*ioctl)(struct file *f, unsigned int cmd, unsigned long arg);
	/* Optional: a file without llseek is not seekable (-ESPIPE). */
	s64 (*llseek)(struct file *f, s64 offset, int whence);
	int (*fstat)(struct file *f, struct stat *st);
	void (*release)(struct file *f);
	/* mmap of the file (kernel/mm.c). Both optional; a file with neither
	 * cannot be mapped (-ENODEV). MAP_SHARED needs get_hostmem: the host
	 * memory holding the file's pages at their file offsets (a new
	 * reference; NULL with *err set on failure). MAP_PRIVATE copies the
	 * pages in with read_kernel (or from get_hostmem's object): read up
	 * to n bytes at off into the kernel buffer buf; bytes or -errno, short
	 * at end of file. */
	struct hostmem *(*get_hostmem)(struct file *f, int *err);
	ssize_t (*read_kernel)(struct file *f, void *buf, size_t n, s64 off);
};

/* struct stat as x86-64 Linux lays it out (144 bytes). */
struct stat {
	unsigned long st_dev, st_ino, st_nlink;
	unsigned int st_mode, st_uid, st_gid, __pad0;
	unsigned long st_rdev;
	long st_size, st_blksize, st_blocks;
	unsigned long st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	long __unused[3];
};

struct file {
	const struct file_operations *f_op;
	int f_count;
	unsigned int f_flags;		/* O_ACCMODE bits, O_NONBLOCK, O_APPEND */
	void *private_data;
};

#define NR_OPEN_DEFAULT 1024		/* fd table size; RLIMIT_NOFILE's ceiling */

struct files_struct {
	int count;			/* shared under CLONE_FILES */
	struct file *fd[NR_OPEN_DEFAULT];
	unsigned long close_on_exec[NR_OPEN_DEFAULT / 64];
};

/* kernel/file_table.c */
struct file *alloc_file(const struct file_operations *op, unsigned int flags, void *priv);
void fput(struct file *f);		/* -1 reference, release at 0 */

static inline struct file *get_file(struct file *f)	/* +1 reference */
{
	f->f_count++;
	return f;
}

/* FMODE_READ / FMODE_WRITE, from the access mode as Linux derives them. */
static inline bool file_readable(const struct file *f)
{
	unsigned int acc = f->f_flags & O_ACCMODE;

	return acc == O_RDONLY || acc == O_RDWR;
}

static inline bool file_writable(const struct file *f)
{
	unsigned int acc = f->f_flags & O_ACCMODE;

	return acc == O_WRONLY || acc == O_RDWR;
}

/* kernel/file.c */
struct file *fget(unsigned int fd);	/* +1 reference, or NULL */
bool get_close_on_exec(struct files_struct *files, unsigned int fd);
void set_close_on_exec(struct files_struct *files, unsigned int fd, bool on);
/* Install f at the lowest free fd >= minfd below the soft RLIMIT_NOFILE;
 * returns fd or -EMFILE. Takes
 * over the caller's reference on success; on -EMFILE the caller keeps it. */
int fd_install_lowest(struct files_struct *files, struct file *f, int minfd, bool cloexec);

struct files_struct *files_init_console(void);	/* pid 1: fds 0, 1, 2 */
struct files_struct *dup_fd(struct files_struct *old);	/* fork without CLONE_FILES */
void put_files_struct(struct files_struct *files);
void do_close_on_exec(struct files_struct *files);

/* kernel/console.c */
/* A console file over the host fd umk inherited (0, 1 or 2): O_RDWR when it
 * is a tty, else O_RDONLY for 0 and O_WRONLY for 1 and 2. NULL if the host
 * fd is not open. */
struct file *console_file(int hostfd);
void console_interrupt(void);	/* IRQ_CONSOLE: input arrived */
/* IRQ_HOSTSIG: umk was sent the signals in sigs (bit sig - 1). */
void host_signals_interrupt(unsigned long sigs);

#endif
