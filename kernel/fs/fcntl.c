/*
 * kernel/fs/fcntl.c: fcntl (Linux's fs/fcntl.c): F_DUPFD, F_DUPFD_CLOEXEC,
 * F_GETFD/F_SETFD, F_GETFL/F_SETFL, and the record locks (F_GETLK,
 * F_SETLK, F_SETLKW and their F_OFD_ variants, kernel/fs/locks.c), a
 * pipe's size (F_SETPIPE_SZ, F_GETPIPE_SZ: kernel/fs/pipe.c); any other
 * command is EINVAL.
 */
#include <umk/errno.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_NOATIME)

static long f_dupfd(unsigned int from, struct file *f, bool cloexec)
{
	long ret;

	if (from >= rlimit(RLIMIT_NOFILE))
		return -EINVAL;
	ret = fd_install_lowest(current->files, get_file(f), from, cloexec);
	if (ret < 0)
		fput(f);
	return ret;
}

long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct files_struct *files = current->files;
	struct file *f = fget_raw(fd);
	unsigned int argi = (unsigned int)arg;
	long ret;

	if (!f)
		return -EBADF;
	/* An O_PATH file takes only the commands on the fd itself (Linux's
	 * check_fcntl_cmd). */
	if ((f->f_flags & O_PATH) && cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC &&
	    cmd != F_GETFD && cmd != F_SETFD && cmd != F_GETFL) {
		fput(f);
		return -EBADF;
	}
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
		/* O_NOATIME is for the file's owner (setfl) */
		ret = -EPERM;
		if ((argi & O_NOATIME) && !(f->f_flags & O_NOATIME) &&
		    (!f->f_inode || !inode_owner_or_capable(f->f_inode)))
			break;
		f->f_flags = (argi & SETFL_MASK) | (f->f_flags & ~SETFL_MASK);
		ret = 0;
		break;
	case F_GETLK:
	case F_OFD_GETLK:
		ret = fcntl_getlk(f, cmd, (struct flock __user *)arg);
		break;
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		ret = fcntl_setlk(fd, f, cmd, (struct flock __user *)arg);
		break;
	case F_SETPIPE_SZ:
	case F_GETPIPE_SZ:
		ret = pipe_fcntl(f, cmd, argi);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	fput(f);
	return ret;
}
