/*
 * kernel/fs/hostfs.c: the host's files (after UML's fs/hostfs).
 *
 * A hostfs super_block shows one host directory (s_fs_info): the host's /
 * at umk's /, read-only, and each --rw DIR at DIR, writable. A dentry's
 * host path is that directory followed by the names from the mount's root
 * down to it; every inode operation is the host call of the same name on
 * that path (arch/file.c), so the host says what exists and its errors
 * pass through. Attributes are the host's, read again at each stat (the
 * host may change them behind umk's back); the inode caches what a walk
 * and the permission checks need, the type, mode, owner and group, read
 * when the name is looked up and again after umk's own changes
 * (hostfs_refresh). umk checks permissions with them as Linux would, then
 * the host checks again as umk's host user. A file created here is the
 * host's, then given its creator's owner when the host lets umk chown it
 * (hostfs_new_entry). An open file holds a host fd (private_data): reads
 * and writes go to it at the file's position, directories are read with
 * the host's getdents64.
 *
 * Departures: only regular files, directories and FIFOs open (a host
 * device node or socket is ENXIO, umk having no driver for it: the /dev
 * nodes programs need are umk's own, kernel/drivers/devices.c); a host FIFO
 * opens as a pipe inside umk (kernel/fs/pipe.c's fifo_open), never the
 * host's, so it joins umk's programs, not a host program with one of umk's;
 * a --rw directory's files cannot be mapped MAP_SHARED.
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

static const struct inode_operations hostfs_dir_iops;
static const struct inode_operations hostfs_iops;
static const struct file_operations hostfs_file_fops;
static const struct file_operations hostfs_dir_fops;

/* Bounce buffer between host and user memory: used only between one host
 * call and the copy next to it, neither of which sleeps. */
static char hostfs_buf[16 * PAGE_SIZE];

static int hostfd(const struct file *f)
{
	return (int)(long)f->private_data;
}

/* The host path of d into buf (PATH_MAX bytes): 0 or -ENAMETOOLONG. */
static int hostfs_path(struct dentry *d, char *buf)
{
	const char *root = d->d_sb->s_fs_info;
	size_t rootlen = strlen(root), pos = PATH_MAX - 1;
	struct dentry *p;

	buf[pos] = '\0';
	for (p = d; p != d->d_sb->s_root; p = p->d_parent) {
		size_t len = strlen(p->d_name);

		if (pos < len + 1 + rootlen)
			return -ENAMETOOLONG;
		pos -= len;
		memcpy(buf + pos, p->d_name, len);
		buf[--pos] = '/';
	}
	if (rootlen == 1 && pos < PATH_MAX - 1)
		rootlen = 0;	/* "/" and "/a": no "//a" */
	memmove(buf + rootlen, buf + pos, PATH_MAX - pos);
	memcpy(buf, root, rootlen);
	return 0;
}

/* A path buffer with d's host path in it, or NULL with *err set. */
static char *dentry_host_path(struct dentry *d, int *err)
{
	char *path = kmalloc(PATH_MAX);

	*err = hostfs_path(d, path);
	if (*err) {
		kfree(path);
		return NULL;
	}
	return path;
}

static struct inode *hostfs_iget(struct super_block *sb, const struct stat *st)
{
	struct inode *inode = new_inode(sb);

	inode->i_ino = st->st_ino;
	inode->i_mode = st->st_mode;
	inode->i_uid = st->st_uid;
	inode->i_gid = st->st_gid;
	inode->i_nlink = st->st_nlink;
	inode->i_size = st->st_size;
	if (S_ISDIR(st->st_mode)) {
		inode->i_op = &hostfs_dir_iops;
		inode->i_fop = &hostfs_dir_fops;
	} else {
		inode->i_op = &hostfs_iops;
		if (S_ISREG(st->st_mode))
			inode->i_fop = &hostfs_file_fops;
		else if (S_ISFIFO(st->st_mode))
			inode->i_fop = &pipefifo_fops;	/* a pipe inside umk */
	}
	return inode;
}

/* Read inode's owner, mode and size again from the host (path). */
static void hostfs_refresh(struct inode *inode, const char *path)
{
	struct stat st;

	if (os_lstat(path, &st))
		return;
	inode->i_mode = st.st_mode;
	inode->i_uid = st.st_uid;
	inode->i_gid = st.st_gid;
	inode->i_size = st.st_size;
}

/* Give d the inode of what its host path now names. */
static int hostfs_instantiate(struct dentry *d)
{
	struct stat st;
	int err;
	char *path = dentry_host_path(d, &err);

	if (!path)
		return err;
	err = os_lstat(path, &st);
	kfree(path);
	if (!err)
		d_instantiate(d, hostfs_iget(d->d_sb, &st));
	return err;
}

static int hostfs_lookup(struct inode *dir, struct dentry *dentry)
{
	return hostfs_instantiate(dentry);
}

/* Run the host call op on d's host path (and a second one's), refusing on
 * a read-only mount whatever the caller checked. */
static int host_op(struct dentry *d, int (*op)(const char *path, long arg), long arg)
{
	int err;
	char *path;

	if (d->d_sb->s_flags & SB_RDONLY)
		return -EROFS;
	path = dentry_host_path(d, &err);
	if (!path)
		return err;
	err = op(path, arg);
	kfree(path);
	return err;
}

static int do_create(const char *path, long mode)
{
	int fd = os_open(path, O_CREAT | O_EXCL | O_WRONLY, mode);

	return fd < 0 ? fd : os_close(fd);
}

static int do_mkdir(const char *path, long mode)
{
	return os_mkdir(path, mode);
}

static int do_symlink(const char *path, long target)
{
	return os_symlink((const char *)target, path);
}

static int do_unlink(const char *path, long unused)
{
	return os_unlink(path);
}

static int do_rmdir(const char *path, long unused)
{
	return os_rmdir(path);
}

/* The host made dentry's file as umk's host user: give it the owner Linux
 * would (inode_init_owner: the creator's fsuid, its fsgid or a set-group-id
 * directory's group) when the host lets umk, as it does a host root; else
 * it keeps the host's owner (docs/linux-differences.md, "Files"). */
static int hostfs_new_entry(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode, want = { .i_mode = 0 };
	int err = hostfs_instantiate(dentry);
	char *path;

	if (err)
		return err;
	inode = dentry->d_inode;
	inode_init_owner(&want, dir, inode->i_mode);
	if (want.i_uid == inode->i_uid && want.i_gid == inode->i_gid)
		return 0;
	path = dentry_host_path(dentry, &err);
	if (!path)
		return 0;
	/* the host's chown drops set-id bits Linux's creation keeps */
	if (!os_lchown(path, want.i_uid, want.i_gid) && !S_ISLNK(want.i_mode) &&
	    !os_chmod(path, want.i_mode & S_IALLUGO))
		inode->i_mode = want.i_mode;
	hostfs_refresh(inode, path);
	kfree(path);
	return 0;
}

static int hostfs_create(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	int err = host_op(dentry, do_create, mode & S_IALLUGO);

	return err ? err : hostfs_new_entry(dir, dentry);
}

static int do_mknod(const char *path, long mode)
{
	return os_mknod(path, mode);
}

/* A bound AF_UNIX socket's node is a host socket node made by umk: the
 * host sees a socket file nothing listens on (a host program's connect
 * gets ECONNREFUSED); inside umk, af_unix.c finds the socket bound to it
 * by its device and inode numbers. */
static int hostfs_mknod(struct inode *dir, struct dentry *dentry, umode_t mode, dev_t dev)
{
	int err;

	/* FIFOs and sockets only: umk makes no host device nodes (it could
	 * open none of them; docs/linux-differences.md). */
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return -EPERM;
	err = host_op(dentry, do_mknod, mode);

	return err ? err : hostfs_new_entry(dir, dentry);
}

static int hostfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	int err = host_op(dentry, do_mkdir, mode);

	return err ? err : hostfs_new_entry(dir, dentry);
}

static int hostfs_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	int err = host_op(dentry, do_symlink, (long)target);

	return err ? err : hostfs_new_entry(dir, dentry);
}

static int hostfs_unlink(struct inode *dir, struct dentry *dentry)
{
	return host_op(dentry, do_unlink, 0);
}

static int hostfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	return host_op(dentry, do_rmdir, 0);
}

/* Calls on two paths: link and rename. */
static int host_op2(struct dentry *a, struct dentry *b, bool rename, unsigned int flags)
{
	char *pa, *pb;
	int err;

	if (a->d_sb->s_flags & SB_RDONLY)
		return -EROFS;
	pa = dentry_host_path(a, &err);
	if (!pa)
		return err;
	pb = dentry_host_path(b, &err);
	if (pb) {
		err = rename ? os_rename(pa, pb, flags) : os_link(pa, pb);
		kfree(pb);
	}
	kfree(pa);
	return err;
}

static int hostfs_link(struct dentry *old, struct inode *dir, struct dentry *dentry)
{
	int err = host_op2(old, dentry, false, 0);

	return err ? err : hostfs_instantiate(dentry);
}

static int hostfs_rename(struct inode *old_dir, struct dentry *old, struct inode *new_dir,
			 struct dentry *new, unsigned int flags)
{
	return host_op2(old, new, true, flags);
}

static int hostfs_readlink(struct dentry *dentry, char *buf)
{
	int err;
	char *path = dentry_host_path(dentry, &err);

	if (!path)
		return err;
	err = os_readlink(path, buf, PATH_MAX - 1);
	kfree(path);
	if (err >= 0)
		buf[err] = '\0';
	return err;
}

static int hostfs_getattr(struct dentry *dentry, struct stat *st)
{
	int err;
	char *path = dentry_host_path(dentry, &err);

	if (!path)
		return err;
	err = os_lstat(path, st);
	kfree(path);
	return err;
}

static int hostfs_setattr(struct dentry *dentry, struct iattr *attr)
{
	struct timespec64 times[2] = {
		{ .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_OMIT },
	};
	char *path;
	int err;

	if (dentry->d_sb->s_flags & SB_RDONLY)
		return -EROFS;
	path = dentry_host_path(dentry, &err);
	if (!path)
		return err;
	/* a chown, even of nothing (-1, -1: ctime moves) */
	if (attr->ia_valid & (ATTR_UID | ATTR_GID | ATTR_KILL_SUID | ATTR_KILL_SGID))
		err = os_lchown(path, attr->ia_valid & ATTR_UID ? attr->ia_uid : (uid_t)-1,
				attr->ia_valid & ATTR_GID ? attr->ia_gid : (gid_t)-1);
	/* after the chown, whose host call may itself drop set-id bits */
	if (!err && (attr->ia_valid & ATTR_MODE))
		err = os_chmod(path, attr->ia_mode & S_IALLUGO);
	if (!err && (attr->ia_valid & ATTR_SIZE))
		err = os_truncate(path, attr->ia_size);
	if (attr->ia_valid & ATTR_ATIME)
		times[0] = attr->ia_atime;
	if (attr->ia_valid & ATTR_MTIME)
		times[1] = attr->ia_mtime;
	if (!err && (attr->ia_valid & (ATTR_ATIME | ATTR_MTIME)))
		err = os_utimens(path, times);
	/* what the permission checks see next: the host's new attributes */
	if (!err)
		hostfs_refresh(dentry->d_inode, path);
	kfree(path);
	return err;
}

/* ---- open files ---- */

static int hostfs_open(struct inode *inode, struct file *f)
{
	int flags = S_ISDIR(inode->i_mode) ? O_RDONLY | O_DIRECTORY : f->f_flags & O_ACCMODE;
	int err;
	char *path = dentry_host_path(f->f_path.dentry, &err);

	if (!path)
		return err;
	if ((flags & O_ACCMODE) != O_RDONLY && (inode->i_sb->s_flags & SB_RDONLY))
		err = -EROFS;
	else
		err = os_open(path, flags | O_NOFOLLOW, 0);
	kfree(path);
	if (err < 0)
		return err;
	f->private_data = (void *)(long)err;
	return 0;
}

static ssize_t hostfs_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	ssize_t done = 0;

	while (iov_iter_count(to)) {
		size_t want = min(iov_iter_count(to), sizeof(hostfs_buf));
		ssize_t r = os_pread(hostfd(iocb->ki_filp), hostfs_buf, want, iocb->ki_pos);
		size_t copied;

		if (r <= 0)
			return done ? done : r;
		copied = copy_to_iter(hostfs_buf, r, to);
		iocb->ki_pos += copied;
		done += copied;
		if (copied < (size_t)r)
			return done ? done : -EFAULT;
		if ((size_t)r < want)
			break;
	}
	return done;
}

/* Only a --rw mount's files are open for writing. O_APPEND is umk's: the
 * host fd is opened without it, and each write goes at the host's size. */
static ssize_t hostfs_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *f = iocb->ki_filp;
	u64 limit = rlimit(RLIMIT_FSIZE);
	size_t count = iov_iter_count(from);
	ssize_t done = 0;

	if (f->f_flags & O_APPEND) {
		s64 size = os_file_size(hostfd(f));

		if (size < 0)
			return size;
		iocb->ki_pos = size;
	}
	if ((u64)iocb->ki_pos >= limit) {
		send_sig(SIGXFSZ, current, 0);
		return -EFBIG;
	}
	count = min((u64)count, limit - iocb->ki_pos);
	while ((size_t)done < count) {
		size_t n = min(count - done, sizeof(hostfs_buf));
		size_t got = copy_from_iter(hostfs_buf, n, from);
		ssize_t w;

		if (!got)
			return done ? done : -EFAULT;
		w = os_pwrite(hostfd(f), hostfs_buf, got, iocb->ki_pos);
		if (w < 0)
			return done ? done : w;
		iocb->ki_pos += w;
		done += w;
		if ((size_t)w < got)
			break;
	}
	return done;
}

static s64 hostfs_llseek(struct file *f, s64 offset, int whence)
{
	s64 size = os_file_size(hostfd(f));

	if (size < 0)
		return size;
	return generic_file_llseek(f, offset, whence, size);
}

/* The host decides which positions a directory has (ext4's are hashes). */
static s64 hostfs_dir_llseek(struct file *f, s64 offset, int whence)
{
	s64 r;

	if (whence == SEEK_CUR) {
		whence = SEEK_SET;
		offset += f->f_pos;
	}
	r = os_lseek(hostfd(f), offset, whence);
	if (r >= 0)
		f->f_pos = r;
	return r;
}

/* Read the host's records from ctx->pos on and hand each to dir_emit; the
 * host fd is put back at ctx->pos first, so an entry that did not fit is
 * read again next time. */
static int hostfs_readdir(struct file *f, struct dir_context *ctx)
{
	for (;;) {
		ssize_t n, off;
		s64 r = os_lseek(hostfd(f), ctx->pos, SEEK_SET);

		if (r < 0)
			return r;
		n = os_getdents64(hostfd(f), hostfs_buf, sizeof(hostfs_buf));
		if (n <= 0)
			return n;
		for (off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(hostfs_buf + off);

			if (!dir_emit(ctx, d->d_name, strlen(d->d_name), d->d_ino, d->d_type,
				      d->d_off))
				return 0;
			off += d->d_reclen;
		}
	}
}

static int hostfs_fstat(struct file *f, struct stat *st)
{
	return os_fstat(hostfd(f), st);
}

static int hostfs_fsync(struct file *f)
{
	return os_fsync(hostfd(f));
}

static void hostfs_release(struct file *f)
{
	os_close(hostfd(f));
}

static const struct inode_operations hostfs_dir_iops = {
	.lookup = hostfs_lookup,
	.create = hostfs_create,
	.mknod = hostfs_mknod,
	.mkdir = hostfs_mkdir,
	.symlink = hostfs_symlink,
	.link = hostfs_link,
	.unlink = hostfs_unlink,
	.rmdir = hostfs_rmdir,
	.rename = hostfs_rename,
	.getattr = hostfs_getattr,
	.setattr = hostfs_setattr,
};

static const struct inode_operations hostfs_iops = {
	.readlink = hostfs_readlink,
	.getattr = hostfs_getattr,
	.setattr = hostfs_setattr,
};

int hostfs_statfs(struct dentry *d, struct statfs *buf)
{
	int err;
	char *path = dentry_host_path(d, &err);

	if (!path)
		return err;
	err = os_statfs(path, buf);
	kfree(path);
	return err;
}

/*
 * A mapping of a host file: the host file itself is the memory, through a
 * host fd of its own (closed when the last mapping goes). The files mapped
 * through read-only fds, libraries mostly, each get one object that umk
 * keeps (ro_maps, by host device and inode): every process mapping libc
 * shares one host fd and the host's page cache. Past RO_MAPS_MAX files,
 * each mapping gets an object of its own.
 */
#define RO_MAPS_MAX 256
static struct ro_map {
	unsigned long dev, ino;
	struct hostmem *mem;
} ro_maps[RO_MAPS_MAX];
static int nr_ro_maps;

static struct hostmem *hostfs_get_hostmem(struct file *f, int *err)
{
	struct hostmem *h;
	struct stat st;
	bool shareable = !file_writable(f) && !os_fstat(hostfd(f), &st);
	int fd, i;

	if (shareable) {
		for (i = 0; i < nr_ro_maps; i++)
			if (ro_maps[i].dev == st.st_dev && ro_maps[i].ino == st.st_ino)
				return hostmem_get(ro_maps[i].mem);
	}
	fd = os_dup(hostfd(f));
	if (fd < 0) {
		*err = fd;
		return NULL;
	}
	h = hostmem_of_fd(fd);
	if (shareable && nr_ro_maps < RO_MAPS_MAX) {
		ro_maps[nr_ro_maps].dev = st.st_dev;
		ro_maps[nr_ro_maps].ino = st.st_ino;
		ro_maps[nr_ro_maps++].mem = hostmem_get(h);
	}
	return h;
}

/* The reads and writes that moved bytes, for inotify (Linux's vfs_read
 * and vfs_write call fsnotify_access and fsnotify_modify). */
static ssize_t hostfs_read_notify(struct kiocb *iocb, struct iov_iter *to)
{
	ssize_t ret = hostfs_read_iter(iocb, to);

	if (ret > 0)
		fsnotify_access(iocb->ki_filp);
	return ret;
}

static ssize_t hostfs_write_notify(struct kiocb *iocb, struct iov_iter *from)
{
	ssize_t ret = hostfs_write_iter(iocb, from);

	if (ret > 0)
		fsnotify_modify(iocb->ki_filp);
	return ret;
}

static const struct file_operations hostfs_file_fops = {
	.name = "hostfs",
	.open = hostfs_open,
	.read_iter = hostfs_read_notify,
	.write_iter = hostfs_write_notify,
	.llseek = hostfs_llseek,
	.fstat = hostfs_fstat,
	.fsync = hostfs_fsync,
	.release = hostfs_release,
	.read_kernel = kernel_read,
	.get_hostmem = hostfs_get_hostmem,
};

static const struct file_operations hostfs_dir_fops = {
	.name = "hostfs",
	.open = hostfs_open,
	.iterate = hostfs_readdir,
	.llseek = hostfs_dir_llseek,
	.fstat = hostfs_fstat,
	.fsync = hostfs_fsync,
	.release = hostfs_release,
};

struct super_block *hostfs_fill_super(const char *dir, bool rdonly)
{
	struct super_block *sb = alloc_super("hostfs", rdonly ? SB_RDONLY : 0);
	size_t len = strlen(dir);
	struct stat st;
	char *root;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	root = kmalloc(len + 1);
	memcpy(root, dir, len);
	sb->s_fs_info = root;
	if (os_lstat(root, &st) || !S_ISDIR(st.st_mode))
		panic("hostfs_fill_super: the host's %s is not a directory", root);
	sb->s_root = d_alloc_root(sb, hostfs_iget(sb, &st));
	return sb;
}
