/*
 * kernel/fs/file.c: descriptor tables, and close and dup (Linux's fs/file.c,
 * fs/open.c).
 *
 * A files_struct maps fds to struct file references and remembers which
 * close on exec. It is counted (count), shared by tasks created with
 * CLONE_FILES; dup_fd copies it for the others.
 *
 * Departure from Linux: no locks and no RCU. umk has one CPU and kernel code
 * is never preempted, so nothing runs between two statements here unless a
 * file operation sleeps; every system call therefore holds its own reference
 * across f_op calls, so a close() by another task while we sleep cannot free
 * the file under us.
 */
#include <umk/errno.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

static struct file *files_lookup_fd(struct files_struct *files, unsigned int fd)
{
	return fd < NR_OPEN_DEFAULT ? files->fd[fd] : NULL;
}

struct file *fget_raw(unsigned int fd)
{
	struct file *f = files_lookup_fd(current->files, fd);

	return f ? get_file(f) : NULL;
}

struct file *fget(unsigned int fd)
{
	struct file *f = files_lookup_fd(current->files, fd);

	return f && !(f->f_flags & O_PATH) ? get_file(f) : NULL;
}

int fget_of_kind(int fd, const struct file_operations *fops, struct file **fp)
{
	struct file *f = fget((unsigned int)fd);

	if (!f)
		return -EBADF;
	if (f->f_op != fops) {
		fput(f);
		return -EINVAL;
	}
	*fp = f;
	return 0;
}

bool get_close_on_exec(struct files_struct *files, unsigned int fd)
{
	return files->close_on_exec[fd / 64] & (1UL << (fd % 64));
}

void set_close_on_exec(struct files_struct *files, unsigned int fd, bool on)
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

	unsigned long end = min(rlimit(RLIMIT_NOFILE), (unsigned long)NR_OPEN_DEFAULT);

	for (fd = minfd < 0 ? 0 : minfd; (unsigned long)fd < end; fd++) {
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

/* Drop an fd's reference to f, the fd table id having held it: the POSIX
 * locks id holds on f's file go first, whichever fd of it this was
 * (Linux's filp_close with locks_remove_posix). */
static void filp_close(struct file *f, struct files_struct *id)
{
	locks_remove_posix(f, id);
	fput(f);
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
			filp_close(f, files);
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
				filp_close(f, files);
		}
	}
}

long sys_close(unsigned int fd)
{
	struct file *f = pick_file(current->files, fd);

	if (!f)
		return -EBADF;
	filp_close(f, current->files);
	return 0;
}

long sys_dup(unsigned int fildes)
{
	struct file *f = fget_raw(fildes);
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
		filp_close(tofree, files);
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
	if (newfd >= rlimit(RLIMIT_NOFILE))
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
