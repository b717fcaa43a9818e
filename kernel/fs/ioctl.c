/*
 * kernel/fs/ioctl.c: ioctl (Linux's fs/ioctl.c): the commands every file has,
 * then the file's own, then ENOTTY.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

/* FIOASYNC: O_ASYNC on or off through the file's fasync (Linux's
 * ioctl_fioasync); -ENOTTY for a file without one. */
static int ioctl_fioasync(unsigned int fd, struct file *f, int __user *argp)
{
	int on, err = 0;

	if (get_user(on, argp))
		return -EFAULT;
	if ((on ? O_ASYNC : 0) != (f->f_flags & O_ASYNC))
		err = f->f_op->fasync ? f->f_op->fasync((int)fd, f, on) : -ENOTTY;
	return err < 0 ? err : 0;
}

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
	case FIOASYNC:
		return ioctl_fioasync(fd, f, (int __user *)arg);
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
