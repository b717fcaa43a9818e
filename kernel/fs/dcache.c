/*
 * kernel/fs/dcache.c: dentries, the names of files (Linux's fs/dcache.c), and
 * getcwd.
 *
 * A dentry is one name in one directory: its parent, its inode, and the
 * list of its own children that are in use. Lookups (kernel/fs/namei.c) first
 * look for a child on that list (d_lookup) and only then ask the file
 * system (i_op->lookup), which fills a new dentry (d_alloc, d_instantiate)
 * that the walk then puts on the list (d_rehash). A dentry lives while it
 * has references: each child, open file, cwd and mount point holds one;
 * tmpfs adds one for as long as its name exists, because there the
 * dentries are the directory (docs/design.md, "Files and file systems").
 *
 * Departure from Linux: no hash table, no LRU of unused dentries, no
 * negative dentries kept; a directory's children in use are a list,
 * searched by name. Without locks: kernel code is never preempted.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

static void d_set_name(struct dentry *d, const char *name)
{
	size_t len = strnlen(name, NAME_MAX + 1);

	if (len > NAME_MAX)
		panic("d_set_name: a name of more than %d bytes", NAME_MAX);
	memcpy(d->d_name, name, len);
	d->d_name[len] = '\0';
}

struct dentry *d_alloc(struct dentry *parent, const char *name)
{
	struct dentry *d = kmalloc(sizeof(*d));

	d->d_count = 1;
	d_set_name(d, name);
	d->d_parent = dget(parent);
	d->d_sb = parent->d_sb;
	INIT_LIST_HEAD(&d->d_child);
	INIT_LIST_HEAD(&d->d_subdirs);
	return d;
}

/* The root of sb: its own parent, always hashed. The caller's reference is
 * the super_block's (s_root). */
struct dentry *d_alloc_root(struct super_block *sb, struct inode *inode)
{
	struct dentry *d = kmalloc(sizeof(*d));

	d->d_count = 1;
	d->d_name[0] = '/';
	d->d_parent = d;
	d->d_sb = sb;
	d->d_inode = inode;
	d->d_hashed = true;
	INIT_LIST_HEAD(&d->d_child);
	INIT_LIST_HEAD(&d->d_subdirs);
	return d;
}

void d_instantiate(struct dentry *d, struct inode *inode)
{
	if (d->d_inode)
		panic("d_instantiate: %s already has inode %lu", d->d_name, d->d_inode->i_ino);
	d->d_inode = inode;
}

void d_rehash(struct dentry *d)
{
	if (d->d_hashed)
		return;
	list_add_tail(&d->d_child, &d->d_parent->d_subdirs);
	d->d_hashed = true;
}

void d_drop(struct dentry *d)
{
	if (!d->d_hashed || d->d_parent == d)
		return;
	list_del_init(&d->d_child);
	d->d_hashed = false;
}

struct dentry *d_lookup(struct dentry *parent, const char *name)
{
	struct dentry *d;

	list_for_each_entry(d, &parent->d_subdirs, d_child)
		if (!strcmp(d->d_name, name))
			return dget(d);
	return NULL;
}

/* At the last reference the dentry goes, and with it its references to
 * its inode and its parent (Linux's dentry_kill). */
void dput(struct dentry *d)
{
	while (d) {
		struct dentry *parent = d->d_parent;

		if (d->d_count <= 0)
			panic("dput: dentry %s has d_count %d", d->d_name, d->d_count);
		if (--d->d_count)
			return;
		if (parent == d)
			panic("dput: the root of %s lost its last reference", d->d_sb->s_type);
		if (!list_empty(&d->d_subdirs))
			panic("dput: dentry %s still has children", d->d_name);
		d_drop(d);
		if (d->d_inode)
			iput(d->d_inode);
		kfree(d);
		d = parent;
	}
}

void d_move(struct dentry *d, struct dentry *new_parent, const char *name)
{
	bool hashed = d->d_hashed;
	struct dentry *old_parent = d->d_parent;

	d_drop(d);
	d_set_name(d, name);
	d->d_parent = dget(new_parent);
	if (hashed)
		d_rehash(d);
	dput(old_parent);
}

bool d_unlinked(struct dentry *d)
{
	return !d->d_hashed;
}

/* Prepend name (len bytes) before *pos, which moves back; false when buf
 * (starting at start) has no room. */
static bool prepend(char **pos, const char *start, const char *name, size_t len)
{
	if ((size_t)(*pos - start) < len)
		return false;
	*pos -= len;
	memcpy(*pos, name, len);
	return true;
}

/* Linux's d_path over the mounts: from the dentry up to its mount's root,
 * then on from the mount point in the parent mount, until the process's
 * root. */
char *d_path(const struct path *p, char *buf, int n, int *err)
{
	const struct path *root = &current->fs->root;
	struct vfsmount *mnt = p->mnt;
	struct dentry *d = p->dentry;
	char *pos = buf + n;
	bool deleted = d_unlinked(d);

	*err = -ENAMETOOLONG;
	if (!prepend(&pos, buf, "", 1) ||
	    (deleted && !prepend(&pos, buf, " (deleted)", 10)))
		return NULL;
	while (!(d == root->dentry && mnt == root->mnt)) {
		if (d == mnt->mnt_root) {
			if (mnt->mnt_parent == mnt)
				break;		/* the global root */
			d = mnt->mnt_mountpoint;
			mnt = mnt->mnt_parent;
			continue;
		}
		if (!prepend(&pos, buf, d->d_name, strlen(d->d_name)) ||
		    !prepend(&pos, buf, "/", 1))
			return NULL;
		d = d->d_parent;
	}
	if (pos == buf + n - 1 - (deleted ? 10 : 0) && !prepend(&pos, buf, "/", 1))
		return NULL;
	*err = 0;
	return pos;
}

long sys_getcwd(char __user *buf, unsigned long size)
{
	char *page = kmalloc(PATH_MAX);
	struct path pwd = current->fs->pwd;
	char *cwd;
	long len;
	int err;

	if (d_unlinked(pwd.dentry)) {
		kfree(page);
		return -ENOENT;
	}
	cwd = d_path(&pwd, page, PATH_MAX, &err);
	if (!cwd) {
		kfree(page);
		return err;
	}
	len = page + PATH_MAX - cwd;
	if ((unsigned long)len > size)
		len = -ERANGE;
	else if (copy_to_user(buf, cwd, len))
		len = -EFAULT;
	kfree(page);
	return len;
}
