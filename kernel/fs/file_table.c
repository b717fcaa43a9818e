/*
 * kernel/fs/file_table.c: struct file, the open file (Linux's fs/file_table.c).
 *
 * A struct file is counted (f_count): each fd slot that holds it and each
 * system call working on it (fget) own one reference; the last fput calls
 * f_op->release, then drops the file's path.
 */
#include <umk/errno.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/fsnotify.h>
#include <umk/kernel.h>
#include <umk/net.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

struct file *alloc_file(const struct file_operations *op, unsigned int flags, void *priv)
{
	struct file *f = kmalloc(sizeof(*f));

	f->f_op = op;
	f->f_count = 1;
	f->f_flags = flags;
	f->private_data = priv;
	INIT_LIST_HEAD(&f->f_ep);
	return f;
}

struct file *alloc_file_path(const struct path *path, unsigned int flags)
{
	struct file *f = alloc_file(NULL, flags, NULL);

	f->f_path = *path;
	path_get(path);
	f->f_inode = path->dentry->d_inode;
	return f;
}

void fput(struct file *f)
{
	if (f->f_count <= 0)
		panic("fput: file %p (%s) has f_count %d", (void *)f, f->f_op ? f->f_op->name : "?",
		      f->f_count);
	if (--f->f_count)
		return;
	if (!list_empty(&f->f_ep))
		eventpoll_release(f);
	if ((f->f_flags & O_ASYNC) && f->f_op->fasync)
		f->f_op->fasync(-1, f, 0);	/* off its object's fasync list */
	fsnotify_close(f);
	locks_remove_file(f);	/* its flock and OFD locks */
	if (f->f_op->release)
		f->f_op->release(f);
	if (f->f_writer)
		put_write_access(f->f_inode);
	if (f->f_reader)
		f->f_inode->i_readcount--;
	if (f->f_path.dentry)
		path_put(&f->f_path);
	kfree(f);
}

unsigned long file_ino(struct file *f)
{
	if (f->f_inode)
		return f->f_inode->i_ino;
	if (!strcmp(f->f_op->name, "pipe"))
		return pipe_ino(f);
	if (sock_from_file(f))
		return sock_from_file(f)->ino;
	return 0;
}
