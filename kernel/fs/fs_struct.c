/*
 * kernel/fs/fs_struct.c: a process's root, working directory and umask
 * (Linux's fs/fs_struct.c, kernel/fork.c's copy_fs, kernel/sys.c's umask).
 *
 * Tasks cloned with CLONE_FS share one fs_struct (users counts them); the
 * others get a copy. Each path in it holds a reference to its dentry, so a
 * cwd that is removed stays valid (getcwd then says ENOENT).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uapi/sched.h>

struct fs_struct *copy_fs_struct(struct fs_struct *old)
{
	struct fs_struct *fs = kmalloc(sizeof(*fs));

	fs->users = 1;
	fs->umask = old->umask;
	fs->root = old->root;
	fs->pwd = old->pwd;
	path_get(&fs->root);
	path_get(&fs->pwd);
	return fs;
}

void copy_fs(unsigned long clone_flags, struct task_struct *p)
{
	struct fs_struct *fs = current->fs;

	if (clone_flags & CLONE_FS) {
		fs->users++;
		p->fs = fs;
	} else {
		p->fs = copy_fs_struct(fs);
	}
}

void exit_fs(struct task_struct *tsk)
{
	struct fs_struct *fs = tsk->fs;

	tsk->fs = NULL;
	if (!fs)
		return;
	if (fs->users <= 0)
		panic("exit_fs: pid %d's fs_struct has %d users", tsk->pid, fs->users);
	if (--fs->users)
		return;
	path_put(&fs->root);
	path_put(&fs->pwd);
	kfree(fs);
}

void set_fs_pwd(struct fs_struct *fs, const struct path *path)
{
	struct path old = fs->pwd;

	fs->pwd = *path;
	path_get(path);
	path_put(&old);
}

long sys_umask(int mask)
{
	struct fs_struct *fs = current->fs;
	int old = fs->umask;

	fs->umask = mask & S_IRWXUGO;
	return old;
}
