/* Files and file systems (include/linux/fs.h, dcache.h, mount.h, namei.h,
 * fs_struct.h, fdtable.h). docs/design.md, "Files and file systems".
 *
 * An open file (struct file) is the console (a host fd umk inherited: 0, 1
 * and 2; kernel/drivers/console.c), a pipe (kernel/fs/pipe.c), a file with no
 * name of its own (an anonymous inode's: epoll, eventfd, signalfd, timerfd in
 * kernel/fs/), or a file reached by a path: then it holds the path (mount
 * and dentry) and the inode, which belongs to one of umk's file systems:
 * hostfs (the host's files, kernel/fs/hostfs.c), tmpfs (kernel/fs/tmpfs.c),
 * the device nodes (kernel/drivers/devices.c) or proc (kernel/fs/proc.c).
 * Names are resolved by kernel/fs/namei.c over the dentries of
 * kernel/fs/dcache.c and the mounts of kernel/fs/namespace.c. The code that
 * does not care which kind of file it has is split as Linux's:
 * file_table.c, file.c, open.c, read_write.c, readdir.c, stat.c,
 * iov_iter.c, fcntl.c, ioctl.c. */
#ifndef UMK_FS_H
#define UMK_FS_H

#include <umk/fasync.h>
#include <umk/list.h>
#include <umk/sched.h>
#include <umk/types.h>
#include <umk/uapi/fcntl.h>
#include <umk/uapi/fs.h>
#include <umk/uapi/ioctls.h>
#include <umk/uapi/limits.h>
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
/* The same over kernel memory (Linux's struct kvec). */
struct kvec {
	void *iov_base;
	size_t iov_len;
};

#define UIO_MAXIOV 1024
#define MAX_RW_COUNT (0x7fffffffUL & ~(PAGE_SIZE - 1))	/* INT_MAX & PAGE_MASK */

/* A position in a list of buffers (include/linux/uio.h): what a read_iter
 * fills or a write_iter drains. Either user buffers (ITER_IOVEC: iov points
 * into a kernel copy of the user's iovec array; the buffers themselves are
 * user memory) or kernel ones (ITER_KVEC: sendfile's bounce buffer,
 * read_kernel). */
enum iter_type { ITER_IOVEC, ITER_KVEC };

struct iov_iter {
	enum iter_type iter_type;
	const struct iovec *iov;	/* current segment (a struct kvec for
					 * ITER_KVEC: the same layout) */
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
void iov_iter_kvec(struct iov_iter *i, const struct kvec *kvec, unsigned long nr_segs,
		   size_t count);
void iov_iter_advance(struct iov_iter *i, size_t n);
/* Copy to (from) the buffers and advance. Returns the bytes copied, short
 * only when a user page faults. */
size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i);
/* Copy the program's array of nr_segs iovecs into *iovp (kmalloc'ed: the
 * caller frees it) and set up iter over it: 0, -EINVAL or -EFAULT. */
long import_iovec(const struct iovec __user *uvec, unsigned long nr_segs,
		  struct iovec **iovp, struct iov_iter *iter);
size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i);


struct file;
struct inode;
struct dentry;
struct dir_context;
struct hostmem;
struct super_block;
struct vfsmount;
struct poll_table_struct;

typedef unsigned short umode_t;
typedef u64 dev_t;

/* struct stat as x86-64 Linux lays it out (144 bytes): also the kernel's
 * own record of a file's attributes (Linux's struct kstat), which stat,
 * fstat and statx copy out. */
struct stat {
	unsigned long st_dev, st_ino, st_nlink;
	unsigned int st_mode, st_uid, st_gid, __pad0;
	unsigned long st_rdev;
	long st_size, st_blksize, st_blocks;
	unsigned long st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	long __unused[3];
};

/* Linux's device numbers (include/linux/kdev_t.h): major 12 bits, minor 20
 * inside the kernel; new_encode_dev is what stat reports. */
#define MINORBITS 20
#define MKDEV(ma, mi) (((dev_t)(ma) << MINORBITS) | (mi))
#define MAJOR(dev) ((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev) ((unsigned int)((dev) & ((1U << MINORBITS) - 1)))
static inline unsigned long new_encode_dev(dev_t dev)
{
	unsigned int major = MAJOR(dev), minor = MINOR(dev);

	return (minor & 0xff) | (major << 8) | ((u64)(minor & ~0xffU) << 12);
}

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};
struct timespec64 current_time(void);	/* CLOCK_REALTIME, for inode times */

/* An I/O request's file and position (include/linux/fs.h): read_iter and
 * write_iter move the bytes at ki_pos and advance it; the caller decides
 * whether that was the file's f_pos (read, write) or a position of its own
 * (pread64, pwrite64, sendfile with an offset). */
struct kiocb {
	struct file *ki_filp;
	s64 ki_pos;
};

/* Each op returns bytes or -Exxx. A read or write that must wait sleeps
 * interruptibly and returns -ERESTARTSYS when a signal comes first (or
 * the bytes already moved, if any), as Linux's pipe code does. A file
 * without read_iter (write_iter) cannot be read (written): -EINVAL. Call
 * them through sys_read/sys_write, which check the fd's mode first. */
struct file_operations {
	const char *name;		/* "console", "pipe", "tmpfs"... (for the trace) */
	/* Called by dentry_open once f is set up (f_path, f_inode, f_flags):
	 * 0 or -errno, which fails the open. Optional. */
	int (*open)(struct inode *inode, struct file *f);
	/* One call over a list of buffers, so a pipe write of up to PIPE_BUF
	 * bytes stays atomic and a read never sleeps once it has data. */
	ssize_t (*read_iter)(struct kiocb *iocb, struct iov_iter *to);
	ssize_t (*write_iter)(struct kiocb *iocb, struct iov_iter *from);
	/* Ready events now, and poll_wait() on each queue a change of them
	 * wakes (include/umk/poll.h). */
	unsigned int (*poll)(struct file *f, struct poll_table_struct *pt);
	long (*ioctl)(struct file *f, unsigned int cmd, unsigned long arg);
	/* Optional: a file without llseek is not seekable (-ESPIPE from lseek,
	 * pread64, pwrite64). */
	s64 (*llseek)(struct file *f, s64 offset, int whence);
	/* A directory's entries from f_pos on (readdir.c's dir_context). */
	int (*iterate)(struct file *f, struct dir_context *ctx);
	int (*fsync)(struct file *f);
	/* /proc/PID/fdinfo/N's lines after the common ones, into buf (size
	 * bytes): the length written, as ksnprintf's (Linux's show_fdinfo). */
	int (*show_fdinfo)(struct file *f, char *buf, size_t size);
	/* fstat of a file without an inode (console, pipe). */
	int (*fstat)(struct file *f, struct stat *st);
	void (*release)(struct file *f);
	/* mmap of the file (kernel/mm/mm.c). Both optional; a file with neither
	 * cannot be mapped (-ENODEV). MAP_SHARED needs get_hostmem: the host
	 * memory holding the file's pages at their file offsets (a new
	 * reference; NULL with *err set on failure). MAP_PRIVATE copies the
	 * pages in with read_kernel (or from get_hostmem's object): read up
	 * to n bytes at off into the kernel buffer buf; bytes or -errno, short
	 * at end of file. */
	struct hostmem *(*get_hostmem)(struct file *f, int *err);
	ssize_t (*read_kernel)(struct file *f, void *buf, size_t n, s64 off);
	/* O_ASYNC on or off (include/umk/fasync.h): fasync_helper on the
	 * object's list; 0 or 1, or -errno. Without it O_ASYNC is ignored. */
	int (*fasync)(int fd, struct file *f, int on);
};

/* What getdents64 hands a directory's iterate (include/linux/fs.h): call
 * dir_emit for each entry from ctx->pos on, advancing ctx->pos past each
 * one that was taken; stop when dir_emit returns false (the buffer is
 * full). */
struct dir_context {
	bool (*actor)(struct dir_context *ctx, const char *name, int len, s64 next_pos,
		      u64 ino, unsigned int d_type);
	s64 pos;
};
static inline bool dir_emit(struct dir_context *ctx, const char *name, int len, u64 ino,
			    unsigned int d_type, s64 next_pos)
{
	return ctx->actor(ctx, name, len, next_pos, ino, d_type);
}

/* A change of attributes (include/linux/fs.h): the ATTR_* bits say which. */
#define ATTR_MODE (1 << 0)
#define ATTR_UID (1 << 1)
#define ATTR_GID (1 << 2)
#define ATTR_SIZE (1 << 3)
#define ATTR_ATIME (1 << 4)
#define ATTR_MTIME (1 << 5)
#define ATTR_CTIME (1 << 6)
#define ATTR_ATIME_SET (1 << 7)		/* an explicit time, not "now" */
#define ATTR_MTIME_SET (1 << 8)
#define ATTR_KILL_SUID (1 << 11)	/* chown: drop S_ISUID (notify_change) */
#define ATTR_KILL_SGID (1 << 12)	/* and S_ISGID */
#define ATTR_TOUCH (1 << 17)		/* utimensat to "now": owner or write permission */
#define ATTR_TIMES_SET (1 << 16)	/* utimensat with times: owner only */
struct iattr {
	unsigned int ia_valid;
	umode_t ia_mode;
	uid_t ia_uid;
	gid_t ia_gid;
	s64 ia_size;
	struct timespec64 ia_atime, ia_mtime, ia_ctime;
};

/* A directory's operations on its entries (include/linux/fs.h). dir is the
 * parent's inode, dentry the entry: negative (d_inode NULL) for lookup and
 * the calls that create, positive for the others. Each returns 0 or
 * -errno; the VFS has already checked what does not depend on the file
 * system (the name exists or not, its type, a read-only mount). */
struct path;

struct inode_operations {
	/* Find dentry->d_name in dir: d_instantiate it, or -ENOENT. */
	int (*lookup)(struct inode *dir, struct dentry *dentry);
	/* A symlink's target, into buf (PATH_MAX bytes): its length or -errno. */
	int (*readlink)(struct dentry *dentry, char *buf);
	/* A magic link (/proc/PID/fd/N): set *path (a reference) to where it
	 * leads and return 0, or return 1 to follow its text instead
	 * (Linux's proc_get_link and nd_jump_link). Optional. */
	int (*get_link)(struct dentry *dentry, struct path *path);
	/* Fill st (optional: generic_fillattr from the inode otherwise). */
	int (*getattr)(struct dentry *dentry, struct stat *st);
	int (*setattr)(struct dentry *dentry, struct iattr *attr);
	int (*create)(struct inode *dir, struct dentry *dentry, umode_t mode);
	int (*mkdir)(struct inode *dir, struct dentry *dentry, umode_t mode);
	/* A node that is not a regular file or directory: mode has its type
	 * (S_IFSOCK for a bound AF_UNIX socket, kernel/net/af_unix.c). */
	int (*mknod)(struct inode *dir, struct dentry *dentry, umode_t mode, dev_t dev);
	int (*symlink)(struct inode *dir, struct dentry *dentry, const char *target);
	int (*link)(struct dentry *old, struct inode *dir, struct dentry *dentry);
	int (*unlink)(struct inode *dir, struct dentry *dentry);
	int (*rmdir)(struct inode *dir, struct dentry *dentry);
	/* The VFS has checked the types and made new_dentry negative unless it
	 * is to be replaced; the file system moves the entry, then the VFS
	 * moves the dentry (d_move). flags: 0 or RENAME_NOREPLACE. */
	int (*rename)(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		      struct dentry *new_dentry, unsigned int flags);
};

/* A file (include/linux/fs.h), as one file system knows it. Counted:
 * each dentry that names it holds a reference (i_count); the file
 * system's own data goes at the last iput (super_block's evict_inode). */
struct inode {
	int i_count;
	unsigned long i_ino;
	umode_t i_mode;
	uid_t i_uid;			/* owner and group (inode_init_owner) */
	gid_t i_gid;
	/* Writers (> 0: files open for writing) or, below 0, the programs
	 * running it, which forbid writers (ETXTBSY): Linux's i_writecount,
	 * moved by get_write_access and deny_write_access. */
	int i_writecount;
	int i_readcount;		/* files open read-only (leases) */
	unsigned int i_nlink;
	dev_t i_rdev;			/* a device node's device */
	s64 i_size;
	struct timespec64 i_atime, i_mtime, i_ctime;
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;	/* what dentry_open gives a file */
	struct super_block *i_sb;
	/* Per file system: */
	struct hostmem *i_mem;		/* tmpfs: a regular file's pages */
	char *i_link;			/* tmpfs: a symlink's target */
	s64 i_dir_offset;		/* tmpfs: a directory's next d_offset */
	void *i_private;		/* hostfs, proc: their own */
	/* A FIFO's pipe while it has open files (kernel/fs/pipe.c). */
	struct pipe_inode_info *i_pipe;
};

/* A name in a directory (include/linux/dcache.h). A dentry holds a
 * reference to its parent and to its inode (NULL: a name being created).
 * The dentries in use form a tree under each super_block's root; a hashed
 * dentry is on its parent's d_subdirs list, where lookups find it. tmpfs
 * keeps each of its dentries there for as long as the name exists (an
 * extra reference, as Linux's d_make_persistent); the other file systems
 * keep one only while it is used (a cwd, an open file, a mount point, a
 * child's parent). */
struct dentry {
	int d_count;
	char d_name[NAME_MAX + 1];
	struct dentry *d_parent;	/* itself for a root */
	struct inode *d_inode;
	struct super_block *d_sb;
	struct list_head d_child;	/* in d_parent->d_subdirs, while hashed */
	struct list_head d_subdirs;	/* children, oldest first */
	bool d_hashed;			/* found by lookups (d_lookup) */
	int d_mounted;			/* mounts on this dentry */
	s64 d_offset;			/* tmpfs: its position for readdir */
};

#define SB_RDONLY 1
/* A mounted file system (include/linux/fs.h). */
struct super_block {
	dev_t s_dev;
	const char *s_type;		/* "hostfs", "tmpfs", "devtmpfs", "proc" */
	unsigned long s_flags;		/* SB_RDONLY */
	struct dentry *s_root;
	unsigned long s_next_ino;	/* tmpfs, devtmpfs: the next i_ino */
	void (*evict_inode)(struct inode *inode);	/* optional: the last iput */
	void *s_fs_info;		/* hostfs: the host directory it shows */
};

/* A mount (include/linux/mount.h): sb's root seen at mnt_mountpoint of
 * mnt_parent. The root mount is its own parent. */
struct vfsmount {
	struct list_head mnt_list;	/* every mount, in mount order */
	struct vfsmount *mnt_parent;
	struct dentry *mnt_mountpoint;
	struct dentry *mnt_root;
	struct super_block *mnt_sb;
};

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

/* A process's root, working directory and umask (include/linux/
 * fs_struct.h): shared by tasks cloned with CLONE_FS, copied for the
 * others (copy_fs), dropped at exit (exit_fs). */
struct fs_struct {
	int users;
	int umask;
	struct path root, pwd;
};

struct file {
	const struct file_operations *f_op;
	int f_count;
	unsigned int f_flags;		/* O_ACCMODE bits, O_NONBLOCK, O_APPEND... */
	s64 f_pos;			/* seekable files */
	struct path f_path;		/* NULL for the console and pipes */
	struct inode *f_inode;
	void *private_data;
	struct list_head f_ep;		/* the epitems watching it (eventpoll.c) */
	unsigned int f_pipe;		/* a FIFO reader's w_counter at open (pipe.c) */
	bool f_writer;			/* holds get_write_access on f_inode (FMODE_WRITER) */
	bool f_reader;			/* counted in f_inode's i_readcount */
	struct fown_struct f_owner;	/* who gets SIGIO (kernel/fs/fcntl.c) */
};

#define NR_OPEN_DEFAULT 1024		/* fd table size; RLIMIT_NOFILE's ceiling */

struct files_struct {
	int count;			/* shared under CLONE_FILES */
	struct file *fd[NR_OPEN_DEFAULT];
	unsigned long close_on_exec[NR_OPEN_DEFAULT / 64];
};

/* kernel/fs/file_table.c */
struct file *alloc_file(const struct file_operations *op, unsigned int flags, void *priv);
void fput(struct file *f);		/* -1 reference, release at 0 */
/* f's inode number: its inode's, a pipe's on pipefs, else 0. */
unsigned long file_ino(struct file *f);
/* kernel/fs/eventpoll.c: f's last reference is going; it leaves the
 * epolls that watch it. */
void eventpoll_release(struct file *f);

static inline struct file *get_file(struct file *f)	/* +1 reference */
{
	f->f_count++;
	return f;
}

/* FMODE_READ / FMODE_WRITE, from the access mode as Linux derives them
 * (an O_PATH file has neither). */
static inline bool file_readable(const struct file *f)
{
	unsigned int acc = f->f_flags & O_ACCMODE;

	return !(f->f_flags & O_PATH) && (acc == O_RDONLY || acc == O_RDWR);
}

static inline bool file_writable(const struct file *f)
{
	unsigned int acc = f->f_flags & O_ACCMODE;

	return !(f->f_flags & O_PATH) && (acc == O_WRONLY || acc == O_RDWR);
}

/* kernel/fs/file.c */
/* +1 reference, or NULL: fget refuses an O_PATH file (-EBADF for the
 * calls that use it), fget_raw takes any (fstat, fchdir, fcntl, dup, the
 * *at calls' dirfd), as Linux's fdget and fdget_raw. */
struct file *fget(unsigned int fd);
struct file *fget_raw(unsigned int fd);
/* The file at fd, a reference in *fp, if it is of the kind fops makes
 * (an eventfd, an inotify instance, a timerfd): 0, -EBADF for no file,
 * -EINVAL for another kind. */
int fget_of_kind(int fd, const struct file_operations *fops, struct file **fp);
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

/* kernel/drivers/console.c */
/* A console file over the host fd umk inherited (0, 1 or 2): O_RDWR when it
 * is a tty, else O_RDONLY for 0 and O_WRONLY for 1 and 2. NULL if the host
 * fd is not open. */
struct file *console_file(int hostfd);
void console_interrupt(void);	/* IRQ_CONSOLE: input arrived */
/* Make f (/dev/tty when dev_tty, /dev/console) a console file: the console
 * tty (kernel/drivers/tty_io.c), or without one a pass-through to the first of the
 * host's fds 0, 1, 2 that is a terminal: 0, or -ENXIO when none is. */
int console_open(struct file *f, bool dev_tty);
/* The host fd behind a console file. */
int console_hostfd(const struct file *f);
bool is_console_file(const struct file *f);
/* kernel/drivers/hostsig.c: IRQ_HOSTSIG, umk was sent the signals in sigs
 * (bit sig - 1) on the host. */
void host_signals_interrupt(unsigned long sigs);


/* kernel/fs/file_table.c: a file reached by path, with a reference to it
 * (dentry_open in kernel/fs/open.c calls f_op->open next). */
struct file *alloc_file_path(const struct path *path, unsigned int flags);

/* kernel/fs/dcache.c: dentries. */
struct dentry *d_alloc(struct dentry *parent, const char *name);	/* negative, unhashed */
struct dentry *d_alloc_root(struct super_block *sb, struct inode *inode);
static inline struct dentry *dget(struct dentry *d)
{
	d->d_count++;
	return d;
}
void dput(struct dentry *d);
void d_instantiate(struct dentry *d, struct inode *inode);	/* takes the caller's inode ref */
void d_rehash(struct dentry *d);	/* put d on its parent's list */
void d_drop(struct dentry *d);		/* take it off: lookups no longer find it */
struct dentry *d_lookup(struct dentry *parent, const char *name);	/* +1 reference */
/* Rename d to name under new_parent (rename's last step). */
void d_move(struct dentry *d, struct dentry *new_parent, const char *name);
bool d_unlinked(struct dentry *d);	/* no longer reachable by its name */
/* The path of p from the process's root into buf (of n bytes): its start
 * inside buf, or NULL with *err set (-ENAMETOOLONG). A path that was
 * unlinked gets " (deleted)" after it, as Linux's d_path. */
char *d_path(const struct path *p, char *buf, int n, int *err);
/* Mounts are never undone, so a path's reference is its dentry's. */
static inline void path_get(const struct path *p)
{
	dget(p->dentry);
}
static inline void path_put(const struct path *p)
{
	dput(p->dentry);
}

/* kernel/fs/inode.c: inodes. */
struct inode *new_inode(struct super_block *sb);	/* one reference, zeroed */
static inline struct inode *ihold(struct inode *inode)
{
	inode->i_count++;
	return inode;
}
void iput(struct inode *inode);
/* A new inode's owner (Linux's inode_init_owner): current's fsuid, and
 * its fsgid or, under a set-group-id directory dir, dir's group (a new
 * directory there keeps S_ISGID; a new file loses it unless its creator is
 * in the group or has CAP_FSETID). dir is NULL for a file system's root. */
void inode_init_owner(struct inode *inode, const struct inode *dir, umode_t mode);
/* Change attributes (chmod, chown, truncate, utimensat): the checks of
 * Linux's setattr_prepare and notify_change (who may change what, the
 * set-id bits a chown drops), then the file system's setattr, or the
 * inode's fields for one without (simple_setattr). The caller has checked
 * the mount is writable. */
int notify_change(struct dentry *dentry, struct iattr *attr);
void setattr_copy(struct inode *inode, const struct iattr *attr);	/* all but the size */
/* ATTR_KILL_SGID when a chown must drop inode's S_ISGID, else 0. */
int setattr_should_drop_sgid(const struct inode *inode);
/* Is current the owner of inode, or does it have CAP_FOWNER? */
bool inode_owner_or_capable(const struct inode *inode);
/* Writers and running programs (i_writecount): get_write_access for a
 * file opened for writing or truncated by name (-ETXTBSY while a program
 * runs from it), deny_write_access for a program exec loads (-ETXTBSY while
 * it is open for writing); put_write_access and allow_write_access undo
 * them. Regular files only: the others always succeed. */
int get_write_access(struct inode *inode);
void put_write_access(struct inode *inode);
int deny_write_access(struct inode *inode);
void allow_write_access(struct inode *inode);
/* stat's view of an inode's fields (Linux's generic_fillattr). */
void generic_fillattr(struct inode *inode, struct stat *st);
/* Is [0, size) a size the current process may give a file? Past
 * RLIMIT_FSIZE: SIGXFSZ and -EFBIG (Linux's inode_newsize_ok). */
int inode_newsize_ok(s64 size);

/* kernel/fs/namespace.c: the mounts. */
extern struct vfsmount *root_mnt;
struct super_block *alloc_super(const char *type, unsigned long flags);
/* Mount node, a dentry of sb (its root, or one device node), over the
 * absolute path dir, when dir exists. */
void mount_node(struct super_block *sb, struct dentry *node, const char *dir);
/* If path is a mount point, move it to the root of what is mounted there
 * (the last mount on it), and so on: Linux's follow_mount. */
void follow_mount(struct path *path);
/* The mount on (mnt, dentry), or NULL. */
struct vfsmount *lookup_mnt(struct vfsmount *mnt, struct dentry *dentry);
static inline bool mnt_is_readonly(const struct vfsmount *mnt)
{
	return mnt->mnt_sb->s_flags & SB_RDONLY;
}
/* kernel/fs/proc_task_mmu.c: /proc/PID/pagemap's file (the inode's
 * i_private is the pid, as every /proc/PID file's). */
extern const struct file_operations proc_pagemap_operations;
/* /proc/mounts: "SOURCE MOUNTPOINT TYPE ro|rw 0 0" lines into buf (n
 * bytes), in mount order; SOURCE is a hostfs mount's host directory. */
void mounts_text(char *buf, size_t n);
/* Boot: the mounts of docs/design.md ("Files and file systems"): the
 * host's / read-only, each rw_dirs[i] of --rw writable, /tmp and /dev/shm
 * as tmpfs, the device nodes, /proc; then pid 1's fs_struct, in cwd (the
 * host's working directory) if it can be reached. */
void vfs_init(const char *const *rw_dirs, int nr_rw_dirs, const char *cwd);
/* Show the host directory dir (absolute) at the same path, read-only or
 * not: what --rw DIR does, at boot. */
void vfs_mount_host_dir(const char *dir, bool rdonly);

/* kernel/fs/namei.c: path resolution. */
#define LOOKUP_FOLLOW 0x0001		/* follow a symlink at the end */
#define LOOKUP_DIRECTORY 0x0002		/* the end must be a directory */
#define LOOKUP_EMPTY 0x4000		/* "" names dfd itself (AT_EMPTY_PATH) */
/* Resolve name (a kernel string) from dfd (AT_FDCWD: the cwd) into *path,
 * with a reference: 0 or -errno. */
int kern_path_at(int dfd, const char *name, unsigned int flags, struct path *path);
/* The same from a user string (strncpy_from_user first). */
int user_path_at(int dfd, const char __user *name, unsigned int flags, struct path *path);
/* Copy a user path into a new PATH_MAX buffer (kfree it): 0, -EFAULT,
 * -ENAMETOOLONG, or -ENOENT for "" unless empty_ok. */
int getname(const char __user *name, char **out, bool empty_ok);
/* A name's last component (Linux's qstr and LAST_* of the nameidata):
 * whether the name ended in a plain component, ".", ".." or was "/", and
 * whether slashes followed it ("dir/"). */
enum last_type { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };
struct last_component {
	enum last_type type;
	bool slash;
	char name[NAME_MAX + 1];
};
/* Resolve name up to its last component: *parent (a reference) and last. */
int path_parentat(int dfd, const char *name, struct path *parent, struct last_component *last);
/* The same from start (whose reference this takes over, even on failure;
 * start and parent may be the same). */
int path_parentat_from(struct path *start, const char *name, struct path *parent,
		       struct last_component *last);
#define MAXSYMLINKS 40			/* links followed in one resolution */
/* Create name (a kernel string, from the cwd) as a node of mode's type
 * through the file system's mknod, the umask applied (Linux's vfs_mknod,
 * as af_unix's bind does it): its path in *res (a reference), or -errno:
 * -EEXIST when the name exists, -EPERM when the file system cannot. */
int kern_mknod(const char *name, umode_t mode, struct path *res);
/* The negative or positive dentry for name in dir (+1 reference). */
int lookup_one(struct path *dir, const char *name, struct dentry **res);
/* May current (its fsuid, fsgid, groups and capabilities) do mask to
 * path's inode? Linux's inode_permission: -EROFS for a write on a
 * read-only mount, then generic_permission's mode bits with
 * CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH: 0 or -EACCES. */
int inode_permission(const struct path *path, int mask);
/* May current make a name in the directory dir (write and search
 * permission: Linux's may_create after its EEXIST)? 0 or -EACCES. */
int may_create(struct inode *dir);
/* generic_permission alone, on an inode. */
int generic_permission(struct inode *inode, int mask);
#define MAY_EXEC 0x1
#define MAY_WRITE 0x2
#define MAY_READ 0x4

/* kernel/fs/open.c */
/* filp_open's flag for exec's own opens (Linux's __FMODE_EXEC): the file
 * needs execute permission, not read. open(2) ignores it. */
#define __FMODE_EXEC 0x20
/* Open path (a reference of its own is taken) with open(2)'s flags. */
struct file *dentry_open(const struct path *path, unsigned int flags, int *err);
/* open(2) of a kernel path, relative to the current task's cwd, for the
 * kernel itself (exec): the file, or NULL with *err = -errno. */
struct file *filp_open(const char *path, int flags, umode_t mode, int *err);
int vfs_truncate(const struct path *path, s64 length);
/* Set the size of dentry's regular file, whose permission the caller
 * has checked (Linux's do_truncate): 0 or -errno. */
int do_truncate(struct dentry *dentry, s64 length);

/* kernel/fs/stat.c */
int vfs_getattr(const struct path *path, struct stat *st);
int vfs_fstat(struct file *f, struct stat *st);	/* 0 or -errno */

/* kernel/fs/read_write.c */
s64 generic_file_llseek(struct file *f, s64 offset, int whence, s64 size);
s64 no_seek_end_llseek(struct file *f, s64 offset, int whence);
/* read_iter of f at pos into the kernel buffer buf: bytes or -errno
 * (the read_kernel of files that have read_iter). */
ssize_t kernel_read(struct file *f, void *buf, size_t n, s64 pos);
/* An AIO request's read or write of f (kernel/fs/aio.c): -errno when a
 * check fails (io_submit's error), else 0 with the event's result in *res. */
long aio_rw(struct file *f, void __user *buf, size_t len, bool vectored, s64 pos, int rwflags,
	    bool write, long *res);
/* A read of the len bytes at data, from iocb's position (Linux's
 * simple_read_from_buffer): bytes copied, 0 at the end, -EFAULT. */
ssize_t simple_read_from_buffer(struct kiocb *iocb, struct iov_iter *to, const void *data,
				size_t len);

/* kernel/fs/fs_struct.c */
struct fs_struct *copy_fs_struct(struct fs_struct *old);
/* copy_process: share current's fs_struct (CLONE_FS) or copy it. */
void copy_fs(unsigned long clone_flags, struct task_struct *p);
void exit_fs(struct task_struct *tsk);		/* do_exit */
void set_fs_pwd(struct fs_struct *fs, const struct path *path);

/* kernel/fs/tmpfs.c */
struct super_block *tmpfs_fill_super(void);
/* kernel/fs/hostfs.c: the host directory dir, read-only or not. */
struct super_block *hostfs_fill_super(const char *dir, bool rdonly);
/* The host's statfs of the file system behind d (kernel/fs/statfs.c fills
 * the rest): 0 or -errno. */
struct statfs;
int hostfs_statfs(struct dentry *d, struct statfs *buf);
/* kernel/drivers/devices.c: mount each device node over the host's /dev/NAME. */
void devices_mount(void);
/* kernel/fs/proc.c */
struct super_block *proc_fill_super(void);
/* kernel/fs/proc_sysctl.c: /proc/sys's root directory. */
struct inode *proc_sys_root_inode(struct super_block *sb);
/* The name /proc/PID/fd shows for f: a path, "pipe:[N]", "/dev/pts/N",
 * "anon_inode:[eventfd]". */
void file_path_name(struct file *f, char *buf, size_t n);

/* kernel/fs/pipe.c: the inode number of the pipe behind f (for fstat and
 * /proc/PID/fd). */
unsigned long pipe_ino(struct file *f);
/* F_SETPIPE_SZ and F_GETPIPE_SZ on f: the pipe's size in bytes, or
 * -EBADF when f is no pipe or FIFO, -EINVAL, -EPERM, -EBUSY. */
long pipe_fcntl(struct file *f, unsigned int cmd, unsigned int arg);
/* size rounded up to a power of two pages (at least one), or 0 past 2 GiB. */
unsigned int round_pipe_size(unsigned int size);
extern unsigned int pipe_max_size;	/* fs.pipe-max-size */
extern unsigned long pipe_user_pages_hard, pipe_user_pages_soft;	/* fs.pipe-user-pages-* */
/* A pipe's ends, and a FIFO's i_fop: open is fifo_open. */
extern const struct file_operations pipefifo_fops;
/* kernel/fs/namespace.c: mnt's place in the mount table, from 1 (what
 * /proc/PID/fdinfo calls mnt_id). */
int mnt_id(const struct vfsmount *mnt);

/* kernel/fs/anon_inodes.c: fstat of a file with no name of its own
 * (eventfd, signalfd, timerfd), as Linux shows anon_inodefs' one inode. */
int anon_inode_fstat(struct file *f, struct stat *st);
/* A new such file over priv, opened O_RDWR with flags' O_NONBLOCK, at the
 * lowest free fd (O_CLOEXEC in flags: close-on-exec): the fd, or -EMFILE
 * with the file released (its f_op->release frees priv). */
int anon_inode_getfd(const struct file_operations *fops, void *priv, int flags);

/* kernel/fs/aio.c: fs.aio-nr and fs.aio-max-nr (/proc/sys, proc_sysctl.c) */
extern unsigned long aio_nr, aio_max_nr;

/* kernel/fs/eventfd.c, for AIO's IOCB_FLAG_RESFD (kernel/fs/aio.c): the
 * eventfd open at fd, a reference for the caller, in *fp (Linux's
 * eventfd_ctx_fdget): 0, -EBADF for no file, -EINVAL for another kind. */
int eventfd_fget(int fd, struct file **fp);
/* Add 1 to the eventfd's count, at most up to ULLONG_MAX, and wake its
 * readers and pollers (Linux's eventfd_signal): never waits. */
void eventfd_signal(struct file *f);

#endif
