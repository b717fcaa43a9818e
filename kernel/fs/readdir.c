/*
 * kernel/fs/readdir.c: getdents64 (Linux's fs/readdir.c). The directory's
 * f_op->iterate calls dir_emit for each entry from f_pos on; filldir64
 * writes each as a struct linux_dirent64 into the program's buffer until
 * it is full. f_pos then says where the next call starts.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

struct getdents_callback64 {
	struct dir_context ctx;
	char __user *dirent;		/* where the next record goes */
	int count;			/* room left */
	int error;
};

static bool filldir64(struct dir_context *ctx, const char *name, int namlen, s64 next_pos,
		      u64 ino, unsigned int d_type)
{
	struct getdents_callback64 *buf = container_of(ctx, struct getdents_callback64, ctx);
	int reclen = ALIGN(offsetof(struct linux_dirent64, d_name) + namlen + 1, sizeof(u64));
	char rec[ALIGN(offsetof(struct linux_dirent64, d_name) + NAME_MAX + 1, sizeof(u64))];
	struct linux_dirent64 *d = (struct linux_dirent64 *)rec;

	if (reclen > buf->count) {
		buf->error = -EINVAL;	/* only reported if nothing fit */
		return false;
	}
	memset(rec, 0, reclen);
	d->d_ino = ino;
	d->d_off = next_pos;
	d->d_reclen = reclen;
	d->d_type = d_type;
	memcpy(d->d_name, name, namlen);
	if (copy_to_user(buf->dirent, rec, reclen)) {
		buf->error = -EFAULT;
		return false;
	}
	buf->dirent += reclen;
	buf->count -= reclen;
	ctx->pos = next_pos;
	return true;
}

long sys_getdents64(unsigned int fd, struct linux_dirent64 __user *dirent, unsigned int count)
{
	struct getdents_callback64 buf = {
		.ctx.actor = filldir64,
		.dirent = (char __user *)dirent,
		.count = (int)min(count, (unsigned int)INT32_MAX),
	};
	struct file *f = fget(fd);
	long err;

	if (!f)
		return -EBADF;
	err = -ENOTDIR;
	if (!f->f_op->iterate)
		goto out;
	if (!access_ok(dirent, count)) {
		err = -EFAULT;
		goto out;
	}
	buf.ctx.pos = f->f_pos;
	err = f->f_op->iterate(f, &buf.ctx);
	f->f_pos = buf.ctx.pos;
	if (buf.count != (int)min(count, (unsigned int)INT32_MAX))
		err = min(count, (unsigned int)INT32_MAX) - buf.count;
	else if (!err)
		err = buf.error;
out:
	fput(f);
	return err;
}
