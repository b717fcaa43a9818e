/*
 * kernel/fs/tmpfs.c: umk's own file system in memory, mounted at /tmp and
 * /dev/shm (Linux's mm/shmem.c, with fs/libfs.c's simple_* directory
 * code). Gone when umk exits.
 *
 * A directory's entries are its dentries: each name created here keeps
 * its dentry (and so its inode) alive with an extra reference until it is
 * unlinked, as Linux's tmpfs does, so lookup never has to find anything
 * new (-ENOENT). Each entry gets a readdir position (d_offset) from its
 * directory when it is made, so a directory read in pieces goes on where
 * it stopped even if entries come and go meanwhile (Linux's
 * simple_offset).
 *
 * A regular file's bytes live in a host memory file (struct hostmem: a
 * memfd, made at the first write or truncate), whose size is kept equal to
 * i_size; the same object is what mmap maps for MAP_SHARED (get_hostmem).
 * Sizes as Linux reports them: a directory's grows by BOGO_DIRENT_SIZE per
 * entry, a symlink's is its target's length, st_blocks is the host's
 * count for the memory file. A new file belongs to its creator's fsuid and
 * fsgid, or the directory's group under S_ISGID (inode_init_owner); the
 * root, mode 1777, to root.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/fsnotify.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/uaccess.h>

#define BOGO_DIRENT_SIZE 20
#define MAX_LFS_FILESIZE INT64_MAX
#define FIRST_DIR_OFFSET 2		/* after "." (0) and ".." (1) */

static const struct inode_operations tmpfs_dir_inode_operations;
static const struct inode_operations tmpfs_inode_operations;
static const struct inode_operations tmpfs_symlink_inode_operations;
static const struct file_operations tmpfs_file_operations;
static const struct file_operations tmpfs_dir_operations;

/* Host memory's bounce buffer: used only between one host call and the
 * copy next to it, neither of which sleeps. */
static char tmpfs_buf[16 * PAGE_SIZE];

/* A new inode of mode in dir, owned as inode_init_owner says (root for
 * the root, dir NULL). */
static struct inode *tmpfs_get_inode(struct super_block *sb, const struct inode *dir,
				     umode_t mode)
{
	struct inode *inode = new_inode(sb);

	inode->i_ino = sb->s_next_ino++;
	inode->i_mode = mode;
	if (dir)
		inode_init_owner(inode, dir, mode);
	switch (mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &tmpfs_inode_operations;
		inode->i_fop = &tmpfs_file_operations;
		break;
	case S_IFDIR:
		inode->i_op = &tmpfs_dir_inode_operations;
		inode->i_fop = &tmpfs_dir_operations;
		inode->i_nlink = 2;
		inode->i_size = 2 * BOGO_DIRENT_SIZE;
		inode->i_dir_offset = FIRST_DIR_OFFSET;
		break;
	case S_IFLNK:
		inode->i_op = &tmpfs_symlink_inode_operations;
		break;
	case S_IFIFO:
		inode->i_fop = &pipefifo_fops;	/* Linux's init_special_inode */
		break;
	}
	return inode;
}

static void tmpfs_evict_inode(struct inode *inode)
{
	hostmem_put(inode->i_mem);
	kfree(inode->i_link);
}

/* The memory file of a regular file, made on first need at i_size. */
static int tmpfs_get_mem(struct inode *inode)
{
	int err;

	if (inode->i_mem)
		return 0;
	inode->i_mem = hostmem_create("tmpfs");
	if (!inode->i_mem)
		return -ENOSPC;
	err = os_ftruncate(inode->i_mem->fd, inode->i_size);
	if (err) {
		hostmem_put(inode->i_mem);
		inode->i_mem = NULL;
	}
	return err;
}

/* ---- directories ---- */

/* A new name in dir for inode (the caller's reference goes to d): pinned
 * until unlinked, at the end of dir's readdir order. */
static void tmpfs_add_entry(struct inode *dir, struct dentry *d, struct inode *inode)
{
	d_instantiate(d, inode);
	dget(d);
	d->d_offset = dir->i_dir_offset++;
	dir->i_size += BOGO_DIRENT_SIZE;
}

static int tmpfs_lookup(struct inode *dir, struct dentry *dentry)
{
	return -ENOENT;		/* every name that exists has its dentry */
}

static int tmpfs_create(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	tmpfs_add_entry(dir, dentry, tmpfs_get_inode(dir->i_sb, dir, S_IFREG | (mode & S_IALLUGO)));
	return 0;
}

static int tmpfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	tmpfs_add_entry(dir, dentry, tmpfs_get_inode(dir->i_sb, dir, S_IFDIR | (mode & S_IALLUGO)));
	dir->i_nlink++;
	return 0;
}

/* A socket (or FIFO) node: an inode with its type and no contents. */
static int tmpfs_mknod(struct inode *dir, struct dentry *dentry, umode_t mode, dev_t dev)
{
	struct inode *inode = tmpfs_get_inode(dir->i_sb, dir, mode);

	inode->i_op = &tmpfs_inode_operations;
	inode->i_rdev = dev;
	tmpfs_add_entry(dir, dentry, inode);
	return 0;
}

static int tmpfs_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	struct inode *inode = tmpfs_get_inode(dir->i_sb, dir, S_IFLNK | 0777);
	size_t len = strlen(target);

	inode->i_link = kmalloc(len + 1);
	memcpy(inode->i_link, target, len + 1);
	inode->i_size = len;
	tmpfs_add_entry(dir, dentry, inode);
	return 0;
}

static int tmpfs_link(struct dentry *old, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = old->d_inode;

	inode->i_nlink++;
	inode->i_ctime = current_time();
	tmpfs_add_entry(dir, dentry, ihold(inode));
	return 0;
}

/* Take a name away: the caller's dentry reference is all that is left of
 * it, and the inode lives on while it is open. */
static int tmpfs_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;

	inode->i_nlink--;
	inode->i_ctime = current_time();
	dir->i_size -= BOGO_DIRENT_SIZE;
	dput(dentry);		/* the pin of tmpfs_add_entry */
	return 0;
}

static int tmpfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (!list_empty(&dentry->d_subdirs))
		return -ENOTEMPTY;
	dentry->d_inode->i_nlink = 1;	/* its own "." goes with it */
	dir->i_nlink--;
	return tmpfs_unlink(dir, dentry);
}

/* Linux's shmem_rename2 for flags 0 and RENAME_NOREPLACE. */
static int tmpfs_rename(struct inode *old_dir, struct dentry *old, struct inode *new_dir,
			struct dentry *new, unsigned int flags)
{
	bool they_are_dirs = S_ISDIR(old->d_inode->i_mode);

	if (new->d_inode && !list_empty(&new->d_subdirs))
		return -ENOTEMPTY;
	if (new->d_inode) {
		tmpfs_unlink(new_dir, new);
		if (they_are_dirs) {
			new->d_inode->i_nlink--;
			old_dir->i_nlink--;
		}
	} else if (they_are_dirs) {
		old_dir->i_nlink--;
		new_dir->i_nlink++;
	}
	old_dir->i_size -= BOGO_DIRENT_SIZE;
	new_dir->i_size += BOGO_DIRENT_SIZE;
	old->d_offset = new_dir->i_dir_offset++;
	old->d_inode->i_ctime = current_time();
	return 0;
}

static unsigned int dt_type(umode_t mode)
{
	return (mode >> 12) & 15;
}

/* ".", "..", then the entries from ctx->pos on, oldest first. */
static int tmpfs_readdir(struct file *f, struct dir_context *ctx)
{
	struct dentry *dir = f->f_path.dentry, *d;

	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, dir->d_inode->i_ino, DT_DIR, 1))
		return 0;
	if (ctx->pos == 1 && !dir_emit(ctx, "..", 2, dir->d_parent->d_inode->i_ino, DT_DIR,
				       FIRST_DIR_OFFSET))
		return 0;
	list_for_each_entry(d, &dir->d_subdirs, d_child) {
		if (d->d_offset < ctx->pos || !d->d_inode)
			continue;
		if (!dir_emit(ctx, d->d_name, strlen(d->d_name), d->d_inode->i_ino,
			      dt_type(d->d_inode->i_mode), d->d_offset + 1))
			return 0;
	}
	return 0;
}

/* ---- regular files ---- */

static ssize_t tmpfs_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = iocb->ki_filp->f_inode;
	ssize_t done = 0;

	while (iov_iter_count(to) && iocb->ki_pos < inode->i_size) {
		size_t n = min(min(iov_iter_count(to), sizeof(tmpfs_buf)),
			       (size_t)(inode->i_size - iocb->ki_pos));
		ssize_t r = n, copied;

		if (inode->i_mem)
			r = os_pread(inode->i_mem->fd, tmpfs_buf, n, iocb->ki_pos);
		else
			memset(tmpfs_buf, 0, n);	/* only holes so far */
		if (r <= 0)
			return done ? done : r;
		copied = copy_to_iter(tmpfs_buf, r, to);
		iocb->ki_pos += copied;
		done += copied;
		if (copied < r)
			return done ? done : -EFAULT;
	}
	return done;
}

/* Linux's generic_write_checks: O_APPEND writes at the end; RLIMIT_FSIZE
 * cuts a write short at the limit, and one that starts there gets SIGXFSZ
 * and -EFBIG. Returns the bytes that may be written. */
static ssize_t write_checks(struct kiocb *iocb, size_t count)
{
	struct file *f = iocb->ki_filp;
	u64 limit = rlimit(RLIMIT_FSIZE);

	if (f->f_flags & O_APPEND)
		iocb->ki_pos = f->f_inode->i_size;
	if ((u64)iocb->ki_pos >= limit) {
		send_sig(SIGXFSZ, current, 0);
		return -EFBIG;
	}
	return min((u64)count, limit - iocb->ki_pos);
}

static ssize_t tmpfs_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = iocb->ki_filp->f_inode;
	ssize_t count = write_checks(iocb, iov_iter_count(from));
	ssize_t done = 0;
	int err;

	if (count <= 0)
		return count;
	err = tmpfs_get_mem(inode);
	if (err)
		return err;
	while (done < count) {
		size_t n = min((size_t)(count - done), sizeof(tmpfs_buf));
		size_t got = copy_from_iter(tmpfs_buf, n, from);
		ssize_t w;

		if (!got) {
			err = -EFAULT;
			break;
		}
		w = os_pwrite(inode->i_mem->fd, tmpfs_buf, got, iocb->ki_pos);
		if (w < 0) {
			err = w;
			break;
		}
		iocb->ki_pos += w;
		done += w;
		if ((size_t)w < n)
			break;
	}
	if (iocb->ki_pos > inode->i_size)
		inode->i_size = iocb->ki_pos;
	if (done)
		inode->i_mtime = inode->i_ctime = current_time();
	return done ? done : err;
}

static s64 tmpfs_file_llseek(struct file *f, s64 offset, int whence)
{
	return generic_file_llseek(f, offset, whence, f->f_inode->i_size);
}

static int tmpfs_fsync(struct file *f)
{
	return 0;		/* memory is as far as it goes */
}

static struct hostmem *tmpfs_get_hostmem(struct file *f, int *err)
{
	*err = tmpfs_get_mem(f->f_inode);
	return *err ? NULL : hostmem_get(f->f_inode->i_mem);
}

static int tmpfs_setattr(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;
	int err;

	if ((attr->ia_valid & ATTR_SIZE) && attr->ia_size != inode->i_size) {
		if (inode->i_mem || attr->ia_size) {
			err = tmpfs_get_mem(inode);
			if (!err)
				err = os_ftruncate(inode->i_mem->fd, attr->ia_size);
			if (err)
				return err;
		}
		inode->i_size = attr->ia_size;
		inode->i_mtime = inode->i_ctime = current_time();
	}
	setattr_copy(inode, attr);
	return 0;
}

static int tmpfs_getattr(struct dentry *dentry, struct stat *st)
{
	struct inode *inode = dentry->d_inode;
	struct stat host;

	generic_fillattr(inode, st);
	if (inode->i_mem && !os_fstat(inode->i_mem->fd, &host))
		st->st_blocks = host.st_blocks;
	return 0;
}

static int tmpfs_readlink(struct dentry *dentry, char *buf)
{
	size_t len = dentry->d_inode->i_size;

	memcpy(buf, dentry->d_inode->i_link, len + 1);
	return len;
}

static const struct inode_operations tmpfs_dir_inode_operations = {
	.lookup = tmpfs_lookup,
	.create = tmpfs_create,
	.mknod = tmpfs_mknod,
	.mkdir = tmpfs_mkdir,
	.symlink = tmpfs_symlink,
	.link = tmpfs_link,
	.unlink = tmpfs_unlink,
	.rmdir = tmpfs_rmdir,
	.rename = tmpfs_rename,
	.setattr = tmpfs_setattr,
	.getattr = tmpfs_getattr,
};

static const struct inode_operations tmpfs_inode_operations = {
	.setattr = tmpfs_setattr,
	.getattr = tmpfs_getattr,
};

static const struct inode_operations tmpfs_symlink_inode_operations = {
	.readlink = tmpfs_readlink,
	.setattr = tmpfs_setattr,
	.getattr = tmpfs_getattr,
};

/* The reads and writes that moved bytes, for inotify (Linux's vfs_read
 * and vfs_write call fsnotify_access and fsnotify_modify). */
static ssize_t tmpfs_read_notify(struct kiocb *iocb, struct iov_iter *to)
{
	ssize_t ret = tmpfs_read_iter(iocb, to);

	if (ret > 0)
		fsnotify_access(iocb->ki_filp);
	return ret;
}

static ssize_t tmpfs_write_notify(struct kiocb *iocb, struct iov_iter *from)
{
	ssize_t ret = tmpfs_write_iter(iocb, from);

	if (ret > 0)
		fsnotify_modify(iocb->ki_filp);
	return ret;
}

static const struct file_operations tmpfs_file_operations = {
	.name = "tmpfs",
	.read_iter = tmpfs_read_notify,
	.write_iter = tmpfs_write_notify,
	.llseek = tmpfs_file_llseek,
	.fsync = tmpfs_fsync,
	.get_hostmem = tmpfs_get_hostmem,
	.read_kernel = kernel_read,
};

static const struct file_operations tmpfs_dir_operations = {
	.name = "tmpfs",
	.iterate = tmpfs_readdir,
	.llseek = no_seek_end_llseek,
	.fsync = tmpfs_fsync,
};

/* A new, empty tmpfs: its root is a directory of mode 1777, as /tmp. */
struct super_block *tmpfs_fill_super(void)
{
	struct super_block *sb = alloc_super("tmpfs", 0);

	sb->evict_inode = tmpfs_evict_inode;
	sb->s_root = d_alloc_root(sb, tmpfs_get_inode(sb, NULL, S_IFDIR | 01777));
	return sb;
}
