/*
 * kernel/fs/ioctl.c: ioctl (Linux's fs/ioctl.c): the commands every file has,
 * then the file's own, then ENOTTY.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

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
