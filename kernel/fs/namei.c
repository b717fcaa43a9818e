/*
 * kernel/fs/namei.c: path resolution and the calls that change names
 * (Linux's fs/namei.c): mkdir, rmdir, unlink, rename, symlink and link, in
 * their *at forms.
 *
 * A walk keeps a path (mount and dentry) and moves it one component at a
 * time: "." stays, ".." goes up (across a mount to its mount point, never
 * above the process's root), a name goes down through lookup_one (the
 * dentries in use first, then the file system) and then into whatever is
 * mounted there (follow_mount). A symlink met on the way, or at the end
 * when the caller follows it, is walked from its directory, at most
 * MAXSYMLINKS (40) times per resolution (ELOOP).
 *
 * The checks each call makes, and their order, are Linux's, so that each
 * bad name gets the errno Linux gives: a read-only mount is EROFS, but only
 * after EEXIST for a name that exists (mkdir, symlink, link); unlink and
 * rmdir say EROFS before looking.
 *
 * Permission is Linux's generic_permission with the caller's fsuid, fsgid
 * and groups against the inode's owner, group and mode, overridden by
 * CAP_DAC_OVERRIDE (anything but executing a file without an x bit) and
 * CAP_DAC_READ_SEARCH (reading a file, reading and searching a
 * directory). A walk needs search (x) permission on each directory it
 * looks a name up in (may_lookup); creating a name needs write and search
 * on the directory (may_create), removing one too, and in a sticky
 * directory ownership of the file or the directory, or CAP_FOWNER
 * (may_delete). docs/design.md, "Credentials, policies and groups".
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/fsnotify.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

struct nameidata {
	struct path path;		/* where the walk is (a reference) */
	struct path root;		/* the process's root (no reference) */
	int total_link_count;
};

int getname(const char __user *name, char **out, bool empty_ok)
{
	char *buf = kmalloc(PATH_MAX);
	long len = strncpy_from_user(buf, name, PATH_MAX);

	if (len >= 0 && !len && !empty_ok)
		len = -ENOENT;
	if (len < 0) {
		kfree(buf);
		return len;
	}
	*out = buf;
	return 0;
}

/* The mode bits that apply to current: the owner's, the group's, or the
 * others' (Linux's acl_permission_check, without ACLs). */
static int acl_permission_check(struct inode *inode, int mask)
{
	unsigned int mode = inode->i_mode;

	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (current->cred.fsuid == inode->i_uid)
		mode >>= 6;
	else if (in_group_p(inode->i_gid))
		mode >>= 3;
	return (mask & ~mode) ? -EACCES : 0;
}

int generic_permission(struct inode *inode, int mask)
{
	if (!acl_permission_check(inode, mask))
		return 0;
	if (S_ISDIR(inode->i_mode)) {
		/* reading and searching a directory, or anything */
		if (!(mask & MAY_WRITE) && capable(CAP_DAC_READ_SEARCH))
			return 0;
		return capable(CAP_DAC_OVERRIDE) ? 0 : -EACCES;
	}
	if (mask == MAY_READ && capable(CAP_DAC_READ_SEARCH))
		return 0;
	/* executing a file needs one x bit, even for CAP_DAC_OVERRIDE */
	if ((!(mask & MAY_EXEC) || (inode->i_mode & S_IXUGO)) && capable(CAP_DAC_OVERRIDE))
		return 0;
	return -EACCES;
}

int inode_permission(const struct path *path, int mask)
{
	struct inode *inode = path->dentry->d_inode;
	umode_t mode = inode->i_mode;

	if ((mask & MAY_WRITE) && mnt_is_readonly(path->mnt) &&
	    (S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode)))
		return -EROFS;
	return generic_permission(inode, mask);
}

/* Search permission on the directory a walk is in (may_lookup). */
static int may_lookup(struct nameidata *nd)
{
	return generic_permission(nd->path.dentry->d_inode, MAY_EXEC);
}

int lookup_one(struct path *dir, const char *name, struct dentry **res)
{
	struct inode *inode = dir->dentry->d_inode;
	struct dentry *d;
	int err;

	if (d_unlinked(dir->dentry))
		return -ENOENT;		/* a removed directory (IS_DEADDIR) */
	d = d_lookup(dir->dentry, name);
	if (d) {
		*res = d;
		return 0;
	}
	d = d_alloc(dir->dentry, name);
	err = inode->i_op && inode->i_op->lookup ? inode->i_op->lookup(inode, d) : -ENOENT;
	if (err && err != -ENOENT) {
		dput(d);
		return err;
	}
	if (!err)
		d_rehash(d);
	*res = d;		/* negative when -ENOENT */
	return 0;
}

/* Where a walk starts: the root for an absolute name, else dfd (a
 * directory) or the cwd. */
static int path_init(struct nameidata *nd, int dfd, const char *name)
{
	struct fs_struct *fs = current->fs;
	struct file *f;

	nd->root = fs->root;
	nd->total_link_count = 0;
	if (name[0] == '/' || dfd == AT_FDCWD) {
		nd->path = name[0] == '/' ? fs->root : fs->pwd;
		path_get(&nd->path);
		return 0;
	}
	f = fget_raw(dfd);
	if (!f)
		return -EBADF;
	if (!f->f_path.dentry) {
		fput(f);
		return -ENOTDIR;	/* a pipe or the console */
	}
	nd->path = f->f_path;
	path_get(&nd->path);
	fput(f);
	if (*name && !S_ISDIR(nd->path.dentry->d_inode->i_mode)) {
		path_put(&nd->path);
		return -ENOTDIR;
	}
	return 0;
}

static void follow_dotdot(struct nameidata *nd)
{
	struct path *p = &nd->path;

	for (;;) {
		struct dentry *old = p->dentry;

		if (p->dentry == nd->root.dentry && p->mnt == nd->root.mnt)
			break;
		if (p->dentry != p->mnt->mnt_root) {
			p->dentry = dget(p->dentry->d_parent);
			dput(old);
			break;
		}
		if (p->mnt->mnt_parent == p->mnt)
			break;		/* the root of everything */
		p->dentry = dget(p->mnt->mnt_mountpoint);
		p->mnt = p->mnt->mnt_parent;
		dput(old);
	}
	follow_mount(p);
}

static int walk(struct nameidata *nd, const char *name, unsigned int flags,
		struct last_component *last);

/* nd->path is the directory holding the symlink link: walk its target
 * from there, following all the way; nd->path ends where the target does. */
static int follow_link(struct nameidata *nd, struct dentry *link)
{
	struct inode *inode = link->d_inode;
	char *target;
	int err;

	if (++nd->total_link_count > MAXSYMLINKS)
		return -ELOOP;
	if (inode->i_op && inode->i_op->get_link) {
		struct path to;

		err = inode->i_op->get_link(link, &to);
		if (err <= 0) {
			if (!err) {
				path_put(&nd->path);
				nd->path = to;
			}
			return err;
		}
	}
	if (!inode->i_op || !inode->i_op->readlink)
		return -EINVAL;
	target = kmalloc(PATH_MAX);
	err = inode->i_op->readlink(link, target);
	if (err >= 0 && !target[0])
		err = -ENOENT;
	if (err >= 0 && target[0] == '/') {
		path_put(&nd->path);
		nd->path = nd->root;
		path_get(&nd->path);
	}
	if (err >= 0)
		err = walk(nd, target, LOOKUP_FOLLOW, NULL);
	kfree(target);
	return err;
}

/* One component below nd->path: name is NAME_MAX bytes at most. With
 * follow, a symlink found is followed. */
static int walk_component(struct nameidata *nd, const char *name, bool follow)
{
	struct dentry *d;
	struct path next;
	int err;

	if (!strcmp(name, "."))
		return 0;
	if (!strcmp(name, "..")) {
		follow_dotdot(nd);
		return 0;
	}
	err = lookup_one(&nd->path, name, &d);
	if (err)
		return err;
	if (!d->d_inode) {
		dput(d);
		return -ENOENT;
	}
	next.mnt = nd->path.mnt;
	next.dentry = d;
	follow_mount(&next);
	if (follow && S_ISLNK(next.dentry->d_inode->i_mode)) {
		err = follow_link(nd, next.dentry);
		path_put(&next);
		return err;
	}
	path_put(&nd->path);
	nd->path = next;
	return 0;
}

/* Walk name from nd->path. With last, stop before the last component and
 * describe it there; otherwise walk it too, following a final symlink
 * with LOOKUP_FOLLOW (or a trailing slash), and require a directory with
 * LOOKUP_DIRECTORY (or a trailing slash). */
static int walk(struct nameidata *nd, const char *name, unsigned int flags,
		struct last_component *last)
{
	char comp[NAME_MAX + 1];
	const char *p = name;
	bool slash = false;

	if (last) {
		last->type = *p == '/' ? LAST_ROOT : LAST_NORM;
		last->slash = false;
		last->name[0] = '\0';
	}
	for (;;) {
		const char *end;
		size_t len;
		bool is_last;
		int err;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = p;
		while (*end && *end != '/')
			end++;
		len = end - p;
		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(comp, p, len);
		comp[len] = '\0';
		slash = *end == '/';
		while (*end == '/')
			end++;
		is_last = !*end;
		p = end;
		if (!S_ISDIR(nd->path.dentry->d_inode->i_mode))
			return -ENOTDIR;
		err = may_lookup(nd);
		if (err)
			return err;
		if (is_last && last) {
			memcpy(last->name, comp, len + 1);
			last->slash = slash;
			last->type = !strcmp(comp, ".") ? LAST_DOT :
				     !strcmp(comp, "..") ? LAST_DOTDOT : LAST_NORM;
			return 0;
		}
		err = walk_component(nd, comp, !is_last || slash || (flags & LOOKUP_FOLLOW));
		if (err)
			return err;
	}
	if (last)
		return 0;	/* "/" or "": nothing after the start */
	if ((slash || (flags & LOOKUP_DIRECTORY)) && !S_ISDIR(nd->path.dentry->d_inode->i_mode))
		return -ENOTDIR;
	return 0;
}

int kern_path_at(int dfd, const char *name, unsigned int flags, struct path *path)
{
	struct nameidata nd;
	int err;

	if (!*name && !(flags & LOOKUP_EMPTY))
		return -ENOENT;
	err = path_init(&nd, dfd, name);
	if (err)
		return err;
	err = walk(&nd, name, flags, NULL);
	if (err) {
		path_put(&nd.path);
		return err;
	}
	*path = nd.path;
	return 0;
}

int user_path_at(int dfd, const char __user *name, unsigned int flags, struct path *path)
{
	char *kname;
	int err = getname(name, &kname, flags & LOOKUP_EMPTY);

	if (err)
		return err;
	err = kern_path_at(dfd, kname, flags, path);
	kfree(kname);
	return err;
}

int path_parentat_from(struct path *start, const char *name, struct path *parent,
		       struct last_component *last)
{
	struct nameidata nd = { .root = current->fs->root };
	int err;

	nd.path = name[0] == '/' ? nd.root : *start;
	path_get(&nd.path);
	path_put(start);
	err = walk(&nd, name, 0, last);
	if (err) {
		path_put(&nd.path);
		return err;
	}
	*parent = nd.path;
	return 0;
}

int path_parentat(int dfd, const char *name, struct path *parent, struct last_component *last)
{
	struct nameidata nd;
	int err = path_init(&nd, dfd, name);

	if (err)
		return err;
	err = walk(&nd, name, 0, last);
	if (err) {
		path_put(&nd.path);
		return err;
	}
	*parent = nd.path;
	return 0;
}

/* path_parentat of a user name: 0, or -errno with nothing held. */
static int user_path_parentat(int dfd, const char __user *uname, struct path *parent,
			      struct last_component *last)
{
	char *name;
	int err = getname(uname, &name, false);

	if (err)
		return err;
	err = path_parentat(dfd, name, parent, last);
	kfree(name);
	return err;
}

int may_create(struct inode *dir)
{
	if (!S_ISDIR(dir->i_mode))
		panic("may_create: inode %lu is not a directory", dir->i_ino);
	return generic_permission(dir, MAY_WRITE | MAY_EXEC);
}

/* In a sticky directory, only the file's owner, the directory's, or
 * CAP_FOWNER may remove or replace a name (Linux's check_sticky). */
static bool check_sticky(struct inode *dir, struct inode *inode)
{
	uid_t fsuid = current->cred.fsuid;

	if (!(dir->i_mode & S_ISVTX))
		return false;
	if (inode->i_uid == fsuid || dir->i_uid == fsuid)
		return false;
	return !capable(CAP_FOWNER);
}

/* May current remove victim (positive) from dir? Linux's may_delete
 * without its type checks, which the callers make: write and search
 * permission on dir, then the sticky bit's rule. */
static int may_delete(struct inode *dir, struct dentry *victim)
{
	int err = generic_permission(dir, MAY_WRITE | MAY_EXEC);

	if (err)
		return err;
	return check_sticky(dir, victim->d_inode) ? -EPERM : 0;
}

/* The negative dentry for last in parent, the name a call is about to
 * create (the heart of Linux's filename_create): EEXIST comes before
 * EROFS, as there. On failure parent's reference is dropped. */
static int create_lookup(struct path *parent, const struct last_component *last, bool is_dir,
			 struct dentry **res)
{
	struct dentry *d;
	int err = -EEXIST;

	if (last->type != LAST_NORM)
		goto out;
	err = lookup_one(parent, last->name, &d);
	if (err)
		goto out;
	err = -EEXIST;
	if (d->d_inode)
		goto out_d;
	err = -ENOENT;
	if (last->slash && !is_dir)
		goto out_d;
	err = -EROFS;
	if (mnt_is_readonly(parent->mnt))
		goto out_d;
	*res = d;
	return 0;
out_d:
	dput(d);
out:
	path_put(parent);
	return err;
}

/* Linux's filename_create: the parent of a user's name to create and the
 * negative dentry for it. */
static int filename_create(int dfd, const char __user *uname, bool is_dir, struct path *parent,
			   struct dentry **res)
{
	struct last_component *last = kmalloc(sizeof(*last));
	int err = user_path_parentat(dfd, uname, parent, last);

	if (!err)
		err = create_lookup(parent, last, is_dir, res);
	kfree(last);
	return err;
}

/* A successful create puts the new dentry where lookups find it and
 * stamps the directory. */
static void done_create(struct inode *dir, struct dentry *d)
{
	d_rehash(d);
	dir->i_mtime = dir->i_ctime = current_time();
	fsnotify_create(d);
}

int kern_mknod(const char *name, umode_t mode, struct path *res)
{
	struct last_component *last = kmalloc(sizeof(*last));
	struct path parent;
	struct dentry *d;
	struct inode *dir;
	int err = path_parentat(AT_FDCWD, name, &parent, last);

	if (!err)
		err = create_lookup(&parent, last, false, &d);
	kfree(last);
	if (err)
		return err;
	dir = parent.dentry->d_inode;
	err = may_create(dir);
	if (!err)
		err = dir->i_op->mknod ? dir->i_op->mknod(dir, d, (mode & S_IFMT) |
					 (mode & S_IALLUGO & ~current->fs->umask), 0)
				       : -EPERM;
	if (err) {
		dput(d);
		path_put(&parent);
		return err;
	}
	done_create(dir, d);
	res->mnt = parent.mnt;
	res->dentry = d;	/* d's reference goes to *res */
	path_put(&parent);
	return 0;
}

/* Linux's may_mknod: the types mknod makes (0 is S_IFREG). */
static int may_mknod(umode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
	case 0:
		return 0;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
}

/* The user's dev_t, as stat shows it (Linux's new_decode_dev). */
static dev_t new_decode_dev(unsigned int dev)
{
	return MKDEV((dev & 0xfff00) >> 8, (dev & 0xff) | ((dev >> 12) & 0xfff00));
}

/* Linux's do_mknodat with vfs_create and vfs_mknod: a regular file through
 * the file system's create, the other types through its mknod; a device
 * node needs CAP_MKNOD. A FIFO made here opens through fifo_open
 * (kernel/fs/pipe.c), a socket node is what kern_mknod makes for bind. */
long sys_mknodat(int dfd, const char __user *filename, umode_t mode, unsigned int dev)
{
	struct path parent;
	struct dentry *d;
	struct inode *dir;
	int err = may_mknod(mode);

	if (err)
		return err;
	err = filename_create(dfd, filename, false, &parent, &d);
	if (err)
		return err;
	dir = parent.dentry->d_inode;
	mode = (mode & S_IFMT) | (mode & S_IALLUGO & ~current->fs->umask);
	err = may_create(dir);
	if (err)
		goto out;
	switch (mode & S_IFMT) {
	case 0:
	case S_IFREG:
		err = dir->i_op->create ? dir->i_op->create(dir, d, S_IFREG | mode) : -EACCES;
		break;
	case S_IFCHR:
	case S_IFBLK:
		err = -EPERM;
		if (capable(CAP_MKNOD) && dir->i_op->mknod)
			err = dir->i_op->mknod(dir, d, mode, new_decode_dev(dev));
		break;
	default:	/* S_IFIFO, S_IFSOCK */
		err = dir->i_op->mknod ? dir->i_op->mknod(dir, d, mode, 0) : -EPERM;
		break;
	}
	if (!err)
		done_create(dir, d);
out:
	dput(d);
	path_put(&parent);
	return err;
}

long sys_mknod(const char __user *filename, umode_t mode, unsigned int dev)
{
	return sys_mknodat(AT_FDCWD, filename, mode, dev);
}

long sys_mkdirat(int dfd, const char __user *pathname, umode_t mode)
{
	struct path parent;
	struct dentry *d;
	struct inode *dir;
	int err = filename_create(dfd, pathname, true, &parent, &d);

	if (err)
		return err;
	dir = parent.dentry->d_inode;
	err = may_create(dir);
	if (!err)
		err = dir->i_op->mkdir ? dir->i_op->mkdir(dir, d, (mode & (S_IRWXUGO | S_ISVTX)) &
							  ~current->fs->umask)
				       : -EPERM;
	if (!err)
		done_create(dir, d);
	dput(d);
	path_put(&parent);
	return err;
}

long sys_mkdir(const char __user *pathname, umode_t mode)
{
	return sys_mkdirat(AT_FDCWD, pathname, mode);
}

long sys_symlinkat(const char __user *oldname, int newdfd, const char __user *newname)
{
	struct path parent;
	struct dentry *d;
	struct inode *dir;
	char *target;
	int err = getname(oldname, &target, false);

	if (err)
		return err;
	err = filename_create(newdfd, newname, false, &parent, &d);
	if (err) {
		kfree(target);
		return err;
	}
	dir = parent.dentry->d_inode;
	err = may_create(dir);
	if (!err)
		err = dir->i_op->symlink ? dir->i_op->symlink(dir, d, target) : -EPERM;
	if (!err)
		done_create(dir, d);
	dput(d);
	path_put(&parent);
	kfree(target);
	return err;
}

long sys_symlink(const char __user *oldname, const char __user *newname)
{
	return sys_symlinkat(oldname, AT_FDCWD, newname);
}

/* fs.protected_hardlinks (1, Linux's default): a link to a file needs its
 * ownership, or read and write permission on it, or CAP_FOWNER; and a
 * link to a set-uid file, or a set-gid group-executable one, ownership
 * (Linux's may_linkat and safe_hardlink_source). */
static int may_linkat(struct inode *inode)
{
	umode_t mode = inode->i_mode;

	if (inode_owner_or_capable(inode))
		return 0;
	if (S_ISREG(mode) && !(mode & S_ISUID) &&
	    (mode & (S_ISGID | S_IXGRP)) != (S_ISGID | S_IXGRP) &&
	    !generic_permission(inode, MAY_READ | MAY_WRITE))
		return 0;
	return -EPERM;
}

long sys_linkat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname,
		int flags)
{
	struct path old, parent;
	struct dentry *d;
	struct inode *dir;
	int err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(olddfd, oldname,
			   (flags & AT_SYMLINK_FOLLOW ? LOOKUP_FOLLOW : 0) |
			   (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &old);
	if (err)
		return err;
	err = filename_create(newdfd, newname, false, &parent, &d);
	if (err)
		goto out;
	dir = parent.dentry->d_inode;
	err = -EXDEV;
	if (old.mnt != parent.mnt)
		goto out_d;
	err = may_linkat(old.dentry->d_inode);
	if (!err)
		err = may_create(dir);
	if (err)
		goto out_d;
	err = -EPERM;
	if (S_ISDIR(old.dentry->d_inode->i_mode) || !dir->i_op->link)
		goto out_d;
	err = dir->i_op->link(old.dentry, dir, d);
	if (!err)
		done_create(dir, d);
out_d:
	dput(d);
	path_put(&parent);
out:
	path_put(&old);
	return err;
}

long sys_link(const char __user *oldname, const char __user *newname)
{
	return sys_linkat(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

/* The parent of a name to remove, and its positive dentry; the checks of
 * Linux's do_rmdir/do_unlinkat before the file system's. */
static int lookup_victim(int dfd, const char __user *uname, bool rmdir, struct path *parent,
			 struct dentry **res)
{
	struct last_component *last = kmalloc(sizeof(*last));
	struct dentry *d;
	int err = user_path_parentat(dfd, uname, parent, last);

	if (err)
		goto out_free;
	if (last->type != LAST_NORM) {
		err = !rmdir ? -EISDIR : last->type == LAST_DOT ? -EINVAL :
		      last->type == LAST_DOTDOT ? -ENOTEMPTY : -EBUSY;
		goto out;
	}
	err = -EROFS;
	if (mnt_is_readonly(parent->mnt))
		goto out;
	err = lookup_one(parent, last->name, &d);
	if (err)
		goto out;
	err = -ENOENT;
	if (!d->d_inode)
		goto out_d;
	/* unlink of "file/" or of a directory fails by type before any
	 * permission check (do_unlinkat's "slashes"); the rest after it */
	err = 0;
	if (!rmdir && (last->slash || S_ISDIR(d->d_inode->i_mode)))
		err = S_ISDIR(d->d_inode->i_mode) ? -EISDIR : -ENOTDIR;
	if (!err)
		err = may_delete(parent->dentry->d_inode, d);
	if (!err && rmdir && !S_ISDIR(d->d_inode->i_mode))
		err = -ENOTDIR;
	if (!err && d->d_mounted)
		err = -EBUSY;
	if (err)
		goto out_d;
	*res = d;
	kfree(last);
	return 0;
out_d:
	dput(d);
out:
	path_put(parent);
out_free:
	kfree(last);
	return err;
}

static long do_remove(int dfd, const char __user *pathname, bool rmdir)
{
	struct path parent;
	struct dentry *d;
	struct inode *dir;
	int err = lookup_victim(dfd, pathname, rmdir, &parent, &d);
	int (*op)(struct inode *, struct dentry *);
	unsigned int nlink;

	if (err)
		return err;
	dir = parent.dentry->d_inode;
	op = rmdir ? dir->i_op->rmdir : dir->i_op->unlink;
	nlink = fsnotify_nlink(d);
	err = op ? op(dir, d) : -EPERM;
	if (!err) {
		fsnotify_remove(d, rmdir, nlink);
		d_drop(d);
		dir->i_mtime = dir->i_ctime = current_time();
	}
	dput(d);
	path_put(&parent);
	return err;
}

long sys_rmdir(const char __user *pathname)
{
	return do_remove(AT_FDCWD, pathname, true);
}

long sys_unlink(const char __user *pathname)
{
	return do_remove(AT_FDCWD, pathname, false);
}

long sys_unlinkat(int dfd, const char __user *pathname, int flag)
{
	if (flag & ~AT_REMOVEDIR)
		return -EINVAL;
	return do_remove(dfd, pathname, flag & AT_REMOVEDIR);
}

/* Is d a (or the) ancestor of child, within one file system? */
static bool is_ancestor(struct dentry *d, struct dentry *child)
{
	for (;;) {
		if (child == d)
			return true;
		if (child->d_parent == child)
			return false;
		child = child->d_parent;
	}
}

struct rename_data {
	struct path old_parent, new_parent;
	struct last_component old_last, new_last;
	struct dentry *old, *new;
};

/* Linux's do_renameat2 and vfs_rename, with their checks in their order. */
static int do_rename(struct rename_data *r, unsigned int flags)
{
	struct inode *old_dir = r->old_parent.dentry->d_inode;
	struct inode *new_dir = r->new_parent.dentry->d_inode;
	bool is_dir;
	int err;

	if (r->old_parent.mnt != r->new_parent.mnt)
		return -EXDEV;
	if (r->old_last.type != LAST_NORM)
		return -EBUSY;
	if (r->new_last.type != LAST_NORM)
		return flags & RENAME_NOREPLACE ? -EEXIST : -EBUSY;
	if (mnt_is_readonly(r->old_parent.mnt))
		return -EROFS;
	err = lookup_one(&r->old_parent, r->old_last.name, &r->old);
	if (err)
		return err;
	if (!r->old->d_inode)
		return -ENOENT;
	is_dir = S_ISDIR(r->old->d_inode->i_mode);
	if (!is_dir && (r->old_last.slash || r->new_last.slash))
		return -ENOTDIR;
	if (is_ancestor(r->old, r->new_parent.dentry))
		return -EINVAL;
	err = lookup_one(&r->new_parent, r->new_last.name, &r->new);
	if (err)
		return err;
	if ((flags & RENAME_NOREPLACE) && r->new->d_inode)
		return -EEXIST;
	if (is_ancestor(r->new, r->old_parent.dentry))
		return -ENOTEMPTY;
	if (r->old->d_inode == r->new->d_inode)
		return 0;
	/* vfs_rename: the old name is removed, the new one created or
	 * replaced, and a directory moved elsewhere has its ".." rewritten */
	err = may_delete(old_dir, r->old);
	if (!err)
		err = r->new->d_inode ? may_delete(new_dir, r->new) : may_create(new_dir);
	if (!err && is_dir && old_dir != new_dir)
		err = generic_permission(r->old->d_inode, MAY_WRITE);
	if (err)
		return err;
	if (r->new->d_inode) {
		bool new_is_dir = S_ISDIR(r->new->d_inode->i_mode);

		if (is_dir && !new_is_dir)
			return -ENOTDIR;
		if (!is_dir && new_is_dir)
			return -EISDIR;
	}
	if (r->old->d_mounted || r->new->d_mounted)
		return -EBUSY;
	if (!old_dir->i_op->rename)
		return -EPERM;
	err = old_dir->i_op->rename(old_dir, r->old, new_dir, r->new, flags);
	if (err)
		return err;
	if (r->new->d_inode)
		d_drop(r->new);
	d_move(r->old, r->new_parent.dentry, r->new_last.name);
	old_dir->i_mtime = old_dir->i_ctime = new_dir->i_mtime = new_dir->i_ctime = current_time();
	fsnotify_move(r->old_parent.dentry, r->old_last.name, r->new_parent.dentry,
		      r->new_last.name, r->old);
	return 0;
}

long sys_renameat2(int olddfd, const char __user *oldname, int newdfd,
		   const char __user *newname, unsigned int flags)
{
	struct rename_data *r;
	int err;

	/* RENAME_EXCHANGE and RENAME_WHITEOUT: not in umk (docs/linux-differences.md). */
	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	r = kmalloc(sizeof(*r));
	err = user_path_parentat(olddfd, oldname, &r->old_parent, &r->old_last);
	if (err)
		goto out;
	err = user_path_parentat(newdfd, newname, &r->new_parent, &r->new_last);
	if (!err) {
		err = do_rename(r, flags);
		if (r->new)
			dput(r->new);
		if (r->old)
			dput(r->old);
		path_put(&r->new_parent);
	}
	path_put(&r->old_parent);
out:
	kfree(r);
	return err;
}

long sys_renameat(int olddfd, const char __user *oldname, int newdfd,
		  const char __user *newname)
{
	return sys_renameat2(olddfd, oldname, newdfd, newname, 0);
}

long sys_rename(const char __user *oldname, const char __user *newname)
{
	return sys_renameat2(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}
