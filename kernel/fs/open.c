/*
 * kernel/fs/open.c: opening files by name, and the calls on a name or an fd
 * that are not reads or writes (Linux's fs/open.c, fs/namei.c's
 * do_filp_open, fs/utimes.c, fs/sync.c): open, openat, creat, access,
 * faccessat(2), chdir, fchdir, chmod, fchmod(at), chown, fchown, lchown,
 * fchownat, truncate, ftruncate, utimensat, fsync, fdatasync. filp_open is the same open for the kernel
 * itself (exec).
 */
#include <umk/errno.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/fsnotify.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>

/* What an O_PATH file can do: nothing but name its path (fstat, fchdir,
 * the *at calls, /proc/PID/fd). */
static const struct file_operations path_fops = {
	.name = "path",
};

struct file *dentry_open(const struct path *path, unsigned int flags, int *err)
{
	struct inode *inode = path->dentry->d_inode;
	struct file *f = alloc_file_path(path, flags);

	if (flags & O_PATH) {
		f->f_op = &path_fops;
		return f;
	}
	f->f_op = inode->i_fop;
	if (!f->f_op) {
		f->f_op = &path_fops;
		fput(f);
		*err = -ENXIO;		/* a device umk has no driver for */
		return NULL;
	}
	/* a writer of a running program is ETXTBSY (do_dentry_open) */
	if (file_writable(f)) {
		*err = get_write_access(inode);
		if (*err) {
			f->f_op = &path_fops;
			fput(f);
			return NULL;
		}
		f->f_writer = true;
	} else if (file_readable(f)) {
		inode->i_readcount++;	/* i_readcount_inc */
		f->f_reader = true;
	}
	/* an open that conflicts with a lease waits for its break */
	*err = break_lease(inode, flags);
	if (!*err && f->f_op->open)
		*err = f->f_op->open(inode, f);
	if (*err) {
		f->f_op = &path_fops;	/* nothing to release */
		fput(f);
		return NULL;
	}
	fsnotify_open(f);
	return f;
}

int do_truncate(struct dentry *dentry, s64 length)
{
	struct inode *inode = dentry->d_inode;
	struct iattr attr = { .ia_valid = ATTR_SIZE | ATTR_MTIME, .ia_size = length };
	umode_t mode = inode->i_mode;
	int err = inode_newsize_ok(length);

	if (err)
		return err;
	/* a writer without CAP_FSETID drops the set-id bits (dentry_needs_remove_privs) */
	if (!capable(CAP_FSETID)) {
		if (mode & S_ISUID)
			attr.ia_valid |= ATTR_KILL_SUID;
		if ((mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
			attr.ia_valid |= ATTR_KILL_SGID;
	}
	attr.ia_mtime = current_time();
	err = notify_change(dentry, &attr);
	if (!err)
		fsnotify_change(dentry, true);
	return err;
}

/* truncate(2) by name (fs/open.c's vfs_truncate): write permission, and
 * no program running from the file. */
int vfs_truncate(const struct path *path, s64 length)
{
	struct inode *inode = path->dentry->d_inode;
	int err;

	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	err = inode_permission(path, MAY_WRITE);
	if (err)
		return err;
	err = get_write_access(inode);
	if (err)
		return err;
	err = break_lease(inode, O_WRONLY);	/* no lease holder sees it shrink */
	if (!err)
		err = do_truncate(path->dentry, length);
	put_write_access(inode);
	return err;
}

/* Create the regular file d names in parent (Linux's lookup_open). */
static int open_create_file(struct path *parent, struct dentry *d, struct last_component *last,
			    umode_t mode)
{
	struct inode *dir = parent->dentry->d_inode;
	int err;

	if (last->slash)
		return -EISDIR;
	if (mnt_is_readonly(parent->mnt))
		return -EROFS;
	err = may_create(dir);	/* may_o_create */
	if (err)
		return err;
	if (!dir->i_op->create)
		return -EACCES;
	err = dir->i_op->create(dir, d, S_IFREG | (mode & S_IALLUGO & ~current->fs->umask));
	if (err)
		return err;
	d_rehash(d);
	dir->i_mtime = dir->i_ctime = current_time();
	fsnotify_create(d);
	return 0;
}

/* The last component of an open with O_CREAT (Linux's open_last_lookups),
 * in parent (a reference this takes over): the existing file, or a new
 * regular file (*created). A symlink is followed, unless O_NOFOLLOW or
 * O_EXCL, and a dangling one creates its target, as Linux does. */
static int open_last(struct path *parent, struct last_component *last, int flags, umode_t mode,
		     struct path *res, bool *created, int links)
{
	struct dentry *d;
	char *target;
	int err = -EISDIR;

	if (last->type != LAST_NORM)
		goto out;
	err = lookup_one(parent, last->name, &d);
	if (err)
		goto out;
	if (!d->d_inode) {
		err = open_create_file(parent, d, last, mode);
		if (err) {
			dput(d);
			goto out;
		}
		res->mnt = parent->mnt;
		res->dentry = d;
		*created = true;
		goto out;
	}
	if (flags & O_EXCL) {
		dput(d);
		err = -EEXIST;
		goto out;
	}
	res->mnt = parent->mnt;
	res->dentry = d;
	follow_mount(res);
	if (!S_ISLNK(res->dentry->d_inode->i_mode) || (flags & O_NOFOLLOW))
		goto out;	/* err is 0 */
	/* The symlink's target, from the symlink's directory. */
	err = -ELOOP;
	target = NULL;
	if (++links <= MAXSYMLINKS && res->dentry->d_inode->i_op->readlink) {
		target = kmalloc(PATH_MAX);
		err = res->dentry->d_inode->i_op->readlink(res->dentry, target);
		if (err >= 0 && !target[0])
			err = -ENOENT;
	}
	path_put(res);
	if (err < 0) {
		kfree(target);
		goto out;
	}
	err = path_parentat_from(parent, target, parent, last);	/* takes parent over */
	kfree(target);
	if (err)
		return err;
	return open_last(parent, last, flags, mode, res, created, links);
out:
	path_put(parent);
	return err;
}

static int open_create(int dfd, const char *name, int flags, umode_t mode, struct path *res,
		       bool *created)
{
	struct last_component *last = kmalloc(sizeof(*last));
	struct path parent;
	int err = path_parentat(dfd, name, &parent, last);

	*created = false;
	if (!err)
		err = open_last(&parent, last, flags, mode, res, created, 0);
	kfree(last);
	return err;
}

/* Linux's may_open for an existing file opened with acc_mode (MAY_READ,
 * MAY_WRITE: the access mode, and O_TRUNC's write) and flags. */
static int may_open(const struct path *path, int acc_mode, int flags)
{
	struct inode *inode = path->dentry->d_inode;
	int err;

	if (S_ISDIR(inode->i_mode) && (acc_mode & MAY_WRITE))
		return -EISDIR;
	err = inode_permission(path, acc_mode);
	if (err)
		return err;
	/* O_NOATIME is for the owner (it hides reads from the owner) */
	if ((flags & O_NOATIME) && !inode_owner_or_capable(inode))
		return -EPERM;
	return 0;
}

/* Linux's do_filp_open with build_open_flags, do_open and may_open. */
static struct file *do_filp_open(int dfd, const char *name, int flags, umode_t mode, int *err)
{
	int acc = flags & O_ACCMODE;
	struct path path;
	struct inode *inode;
	struct file *f;
	bool created = false;

	if (flags & __O_TMPFILE) {
		*err = -EOPNOTSUPP;	/* not in umk (docs/linux-differences.md) */
		return NULL;
	}
	if (flags & O_PATH)
		flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	if (acc == 3 && !(flags & O_PATH)) {
		*err = -EINVAL;
		return NULL;
	}
	if (flags & O_CREAT)
		*err = open_create(dfd, name, flags, mode, &path, &created);
	else
		*err = kern_path_at(dfd, name, (flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				    (flags & O_DIRECTORY ? LOOKUP_DIRECTORY : 0), &path);
	if (*err)
		return NULL;
	inode = path.dentry->d_inode;
	*err = 0;
	if ((flags & O_CREAT) && S_ISDIR(inode->i_mode))
		*err = -EISDIR;
	else if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		*err = -ENOTDIR;
	else if (S_ISLNK(inode->i_mode) && !(flags & O_PATH))
		*err = -ELOOP;		/* O_NOFOLLOW met a symlink */
	else if (!(flags & O_PATH))
		*err = may_open(&path, created ? 0 : flags & __FMODE_EXEC ? MAY_EXEC :
					 (acc == O_RDONLY ? MAY_READ : acc == O_WRONLY ? MAY_WRITE :
					  MAY_READ | MAY_WRITE) | (flags & O_TRUNC ? MAY_WRITE : 0),
				 flags);
	if (*err) {
		path_put(&path);
		return NULL;
	}
	/* What F_GETFL shows: Linux keeps these, and adds O_LARGEFILE on
	 * 64-bit (force_o_largefile). */
	f = dentry_open(&path, (flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC |
					  __FMODE_EXEC)) |
				       (flags & O_PATH ? 0 : O_LARGEFILE), err);
	/* O_TRUNC after the open, which said ETXTBSY first (handle_truncate) */
	if (f && (flags & O_TRUNC) && !created && S_ISREG(inode->i_mode)) {
		*err = get_write_access(inode);
		if (!*err) {
			*err = do_truncate(path.dentry, 0);
			put_write_access(inode);
		}
		if (*err) {
			fput(f);
			f = NULL;
		}
	}
	path_put(&path);
	return f;
}

struct file *filp_open(const char *path, int flags, umode_t mode, int *err)
{
	if (!*path) {
		*err = -ENOENT;
		return NULL;
	}
	return do_filp_open(AT_FDCWD, path, flags, mode, err);
}

long sys_openat(int dfd, const char __user *filename, int flags, umode_t mode)
{
	struct file *f;
	char *name;
	int err = getname(filename, &name, false);

	if (err)
		return err;
	f = do_filp_open(dfd, name, flags & ~__FMODE_EXEC, mode, &err);
	kfree(name);
	if (!f)
		return err;
	err = fd_install_lowest(current->files, f, 0, flags & O_CLOEXEC);
	if (err < 0)
		fput(f);
	return err;
}

long sys_open(const char __user *filename, int flags, umode_t mode)
{
	return sys_openat(AT_FDCWD, filename, flags, mode);
}

long sys_creat(const char __user *pathname, umode_t mode)
{
	return sys_openat(AT_FDCWD, pathname, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

/* access(2) asks with the real ids (Linux's access_override_creds): the
 * fs ids become the real ones, and the capabilities those of the real
 * uid, all for root and none for anyone else; AT_EACCESS keeps the
 * effective ones. */
long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags)
{
	struct cred saved = current->cred;
	struct path path;
	int err;

	if (mode & ~S_IRWXO)
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!(flags & AT_EACCESS)) {
		struct cred *c = &current->cred;

		c->fsuid = c->uid;
		c->fsgid = c->gid;
		c->cap_effective = c->uid == 0 ? c->cap_permitted : 0;
	}
	err = user_path_at(dfd, filename, (flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				   (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &path);
	if (!err) {
		/* R_OK, W_OK and X_OK are MAY_READ, MAY_WRITE and MAY_EXEC */
		err = inode_permission(&path, mode);
		path_put(&path);
	}
	current->cred = saved;
	return err;
}

long sys_faccessat(int dfd, const char __user *filename, int mode)
{
	return sys_faccessat2(dfd, filename, mode, 0);
}

long sys_access(const char __user *filename, int mode)
{
	return sys_faccessat2(AT_FDCWD, filename, mode, 0);
}

long sys_chdir(const char __user *filename)
{
	struct path path;
	int err = user_path_at(AT_FDCWD, filename, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &path);

	if (err)
		return err;
	err = inode_permission(&path, MAY_EXEC);
	if (!err)
		set_fs_pwd(current->fs, &path);
	path_put(&path);
	return err;
}

long sys_fchdir(unsigned int fd)
{
	struct file *f = fget_raw(fd);
	int err = -ENOTDIR;

	if (!f)
		return -EBADF;
	if (f->f_path.dentry && S_ISDIR(f->f_inode->i_mode)) {
		err = inode_permission(&f->f_path, MAY_EXEC);
		if (!err)
			set_fs_pwd(current->fs, &f->f_path);
	}
	fput(f);
	return err;
}

static int chmod_common(const struct path *path, umode_t mode)
{
	struct iattr attr = { .ia_valid = ATTR_MODE, .ia_mode = mode };

	int err;

	if (mnt_is_readonly(path->mnt))
		return -EROFS;
	err = notify_change(path->dentry, &attr);
	if (!err)
		fsnotify_change(path->dentry, false);
	return err;
}

long sys_fchmodat(int dfd, const char __user *filename, umode_t mode)
{
	struct path path;
	int err = user_path_at(dfd, filename, LOOKUP_FOLLOW, &path);

	if (err)
		return err;
	err = chmod_common(&path, mode);
	path_put(&path);
	return err;
}

long sys_chmod(const char __user *filename, umode_t mode)
{
	return sys_fchmodat(AT_FDCWD, filename, mode);
}

long sys_fchmod(unsigned int fd, umode_t mode)
{
	struct file *f = fget(fd);
	int err;

	if (!f)
		return -EBADF;
	if (!f->f_path.dentry)
		err = -EINVAL;	/* a pipe or the console: umk keeps no mode for them */
	else
		err = chmod_common(&f->f_path, mode);
	fput(f);
	return err;
}

/* Linux's chown_common: user and group, -1 for "unchanged"; a non-directory
 * loses S_ISUID, and S_ISGID as setattr_should_drop_sgid says. */
static int chown_common(const struct path *path, uid_t user, gid_t group)
{
	struct inode *inode = path->dentry->d_inode;
	struct iattr attr = { .ia_valid = 0 };

	if (mnt_is_readonly(path->mnt))
		return -EROFS;
	if (user != (uid_t)-1) {
		attr.ia_valid |= ATTR_UID;
		attr.ia_uid = user;
	}
	if (group != (gid_t)-1) {
		attr.ia_valid |= ATTR_GID;
		attr.ia_gid = group;
	}
	if (!S_ISDIR(inode->i_mode))
		attr.ia_valid |= ATTR_KILL_SUID | setattr_should_drop_sgid(inode);
	return notify_change(path->dentry, &attr);
}

long sys_fchownat(int dfd, const char __user *filename, uid_t user, gid_t group, int flag)
{
	struct path path;
	int err;

	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(dfd, filename, (flag & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				   (flag & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &path);
	if (err)
		return err;
	err = chown_common(&path, user, group);
	path_put(&path);
	return err;
}

long sys_chown(const char __user *filename, uid_t user, gid_t group)
{
	return sys_fchownat(AT_FDCWD, filename, user, group, 0);
}

long sys_lchown(const char __user *filename, uid_t user, gid_t group)
{
	return sys_fchownat(AT_FDCWD, filename, user, group, AT_SYMLINK_NOFOLLOW);
}

long sys_fchown(unsigned int fd, uid_t user, gid_t group)
{
	struct file *f = fget(fd);
	int err;

	if (!f)
		return -EBADF;
	if (!f->f_path.dentry)
		err = -EINVAL;	/* a pipe or the console: umk keeps no owner for them */
	else
		err = chown_common(&f->f_path, user, group);
	fput(f);
	return err;
}

long sys_truncate(const char __user *path, long length)
{
	struct path p;
	int err;

	if (length < 0)
		return -EINVAL;
	err = user_path_at(AT_FDCWD, path, LOOKUP_FOLLOW, &p);
	if (err)
		return err;
	err = vfs_truncate(&p, length);
	path_put(&p);
	return err;
}

long sys_ftruncate(unsigned int fd, long length)
{
	struct file *f = fget(fd);
	int err;

	if (!f)
		return -EBADF;
	err = -EINVAL;
	/* the fd's write access is the permission (do_ftruncate) */
	if (length >= 0 && f->f_path.dentry && S_ISREG(f->f_inode->i_mode) && file_writable(f))
		err = do_truncate(f->f_path.dentry, length);
	fput(f);
	return err;
}

/* A utimensat time: now, left alone (UTIME_OMIT), or as given. */
static int utime_arg(const struct __kernel_timespec *t, struct timespec64 *res, bool *omit)
{
	*omit = false;
	if (!t || t->tv_nsec == UTIME_NOW) {
		*res = current_time();
		return 0;
	}
	if (t->tv_nsec == UTIME_OMIT) {
		*omit = true;
		return 0;
	}
	if (t->tv_nsec < 0 || t->tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	res->tv_sec = t->tv_sec;
	res->tv_nsec = t->tv_nsec;
	return 0;
}

long sys_utimensat(int dfd, const char __user *filename,
		   const struct __kernel_timespec __user *utimes, int flags)
{
	struct __kernel_timespec t[2];
	struct iattr attr = { .ia_valid = 0 };
	struct path path;
	bool omit;
	int err;

	if (utimes && copy_from_user(t, utimes, sizeof(t)))
		return -EFAULT;
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = utime_arg(utimes ? &t[0] : NULL, &attr.ia_atime, &omit);
	if (err)
		return err;
	attr.ia_valid |= omit ? 0 : ATTR_ATIME;
	err = utime_arg(utimes ? &t[1] : NULL, &attr.ia_mtime, &omit);
	if (err)
		return err;
	attr.ia_valid |= omit ? 0 : ATTR_MTIME;
	/* "now" for both is for the owner or a writer; any explicit time, or
	 * one left alone, for the owner only (vfs_utimes) */
	if (!utimes || (t[0].tv_nsec == UTIME_NOW && t[1].tv_nsec == UTIME_NOW)) {
		attr.ia_valid |= ATTR_TOUCH;
	} else {
		attr.ia_valid |= ATTR_TIMES_SET;
		if (t[0].tv_nsec != UTIME_NOW && t[0].tv_nsec != UTIME_OMIT)
			attr.ia_valid |= ATTR_ATIME_SET;
		if (t[1].tv_nsec != UTIME_NOW && t[1].tv_nsec != UTIME_OMIT)
			attr.ia_valid |= ATTR_MTIME_SET;
	}
	if (!filename) {	/* futimens: dfd itself */
		struct file *f = fget(dfd);

		if (!f)
			return -EBADF;
		err = f->f_path.dentry ? 0 : -EINVAL;
		if (!err) {
			path = f->f_path;
			path_get(&path);
		}
		fput(f);
	} else {
		err = user_path_at(dfd, filename, (flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
					   (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &path);
	}
	if (err)
		return err;
	if (!(attr.ia_valid & (ATTR_ATIME | ATTR_MTIME)))
		err = 0;	/* both UTIME_OMIT: nothing to do */
	else if (mnt_is_readonly(path.mnt))
		err = -EROFS;
	else
		err = notify_change(path.dentry, &attr);
	if (!err && attr.ia_valid)
		fsnotify_change(path.dentry, false);
	path_put(&path);
	return err;
}

/* fsync and fdatasync: a file without fsync cannot be synced (-EINVAL),
 * as Linux's vfs_fsync_range. */
long sys_fsync(unsigned int fd)
{
	struct file *f = fget(fd);
	long err;

	if (!f)
		return -EBADF;
	err = f->f_op->fsync ? f->f_op->fsync(f) : -EINVAL;
	fput(f);
	return err;
}

long sys_fdatasync(unsigned int fd)
{
	return sys_fsync(fd);
}
