/*
 * kernel/fs/inode.c: inodes (Linux's fs/inode.c, fs/attr.c, fs/stat.c's
 * generic_fillattr): their owners, the changes of their attributes with
 * the checks of who may make them, and the count of writers that lets exec
 * refuse a file open for writing and open refuse a running program
 * (ETXTBSY).
 *
 * An inode is counted: each dentry naming it holds a reference, and so
 * does a file system that keeps it for its own reasons. The last iput
 * hands it to the super_block's evict_inode (tmpfs frees the file's pages
 * there) and frees it. umk keeps no inode cache: a file system that finds
 * the same file twice (hostfs, by two names) makes two inodes.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/timer.h>
#include <umk/uapi/time.h>

struct timespec64 current_time(void)
{
	s64 ns = clock_get_ns(CLOCK_REALTIME);

	return (struct timespec64){ .tv_sec = ns / NSEC_PER_SEC, .tv_nsec = ns % NSEC_PER_SEC };
}

struct inode *new_inode(struct super_block *sb)
{
	struct inode *inode = kmalloc(sizeof(*inode));

	inode->i_count = 1;
	inode->i_sb = sb;
	inode->i_nlink = 1;
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time();
	return inode;
}

void iput(struct inode *inode)
{
	if (inode->i_count <= 0)
		panic("iput: inode %lu of %s has i_count %d", inode->i_ino, inode->i_sb->s_type,
		      inode->i_count);
	if (--inode->i_count)
		return;
	if (inode->i_sb->evict_inode)
		inode->i_sb->evict_inode(inode);
	kfree(inode);
}

void inode_init_owner(struct inode *inode, const struct inode *dir, umode_t mode)
{
	const struct cred *cred = &current->cred;

	inode->i_uid = cred->fsuid;
	if (dir && (dir->i_mode & S_ISGID)) {
		inode->i_gid = dir->i_gid;
		if (S_ISDIR(mode))
			mode |= S_ISGID;	/* a directory passes the group on */
	} else {
		inode->i_gid = cred->fsgid;
	}
	/* fs/inode.c's mode_strip_sgid: a group-executable file made in
	 * someone else's group keeps no S_ISGID without CAP_FSETID */
	if ((mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) && !S_ISDIR(mode) &&
	    dir && (dir->i_mode & S_ISGID) && !in_group_p(inode->i_gid) && !capable(CAP_FSETID))
		mode &= ~S_ISGID;
	inode->i_mode = mode;
}

bool inode_owner_or_capable(const struct inode *inode)
{
	return current->cred.fsuid == inode->i_uid || capable(CAP_FOWNER);
}

static bool in_group_or_capable(gid_t gid)
{
	return in_group_p(gid) || capable(CAP_FSETID);
}

/* May current make the file's owner uid (fs/attr.c's chown_ok)? Its owner
 * may "change" it to itself; anything else needs CAP_CHOWN. */
static bool chown_ok(const struct inode *inode, uid_t uid)
{
	return (current->cred.fsuid == inode->i_uid && uid == inode->i_uid) || capable(CAP_CHOWN);
}

/* And its group gid (chgrp_ok)? The owner may give it one of its groups. */
static bool chgrp_ok(const struct inode *inode, gid_t gid)
{
	if (current->cred.fsuid == inode->i_uid && (gid == inode->i_gid || in_group_p(gid)))
		return true;
	return capable(CAP_CHOWN);
}

/* fs/attr.c's setattr_prepare: who may change what. */
static int setattr_prepare(struct inode *inode, struct iattr *attr)
{
	unsigned int valid = attr->ia_valid;

	if ((valid & ATTR_UID) && !chown_ok(inode, attr->ia_uid))
		return -EPERM;
	if ((valid & ATTR_GID) && !chgrp_ok(inode, attr->ia_gid))
		return -EPERM;
	if (valid & ATTR_MODE) {
		if (!inode_owner_or_capable(inode))
			return -EPERM;
		/* a group the caller is not in gets no S_ISGID from it */
		if (!in_group_or_capable(valid & ATTR_GID ? attr->ia_gid : inode->i_gid))
			attr->ia_mode &= ~S_ISGID;
	}
	if ((valid & (ATTR_ATIME_SET | ATTR_MTIME_SET | ATTR_TIMES_SET)) &&
	    !inode_owner_or_capable(inode))
		return -EPERM;
	return 0;
}

/* What a chown drops from a non-directory (fs/attr.c's
 * setattr_should_drop_sgid): S_ISGID when group-executable, or when the
 * caller could not set it. */
int setattr_should_drop_sgid(const struct inode *inode)
{
	umode_t mode = inode->i_mode;

	if (!(mode & S_ISGID))
		return 0;
	if ((mode & S_IXGRP) || !in_group_or_capable(inode->i_gid))
		return ATTR_KILL_SGID;
	return 0;
}

void setattr_copy(struct inode *inode, const struct iattr *attr)
{
	if (attr->ia_valid & ATTR_UID)
		inode->i_uid = attr->ia_uid;
	if (attr->ia_valid & ATTR_GID)
		inode->i_gid = attr->ia_gid;
	if (attr->ia_valid & ATTR_MODE) {
		umode_t mode = attr->ia_mode & S_IALLUGO;

		if (!in_group_or_capable(inode->i_gid))
			mode &= ~S_ISGID;
		inode->i_mode = (inode->i_mode & S_IFMT) | mode;
	}
	if (attr->ia_valid & ATTR_ATIME)
		inode->i_atime = attr->ia_atime;
	if (attr->ia_valid & ATTR_MTIME)
		inode->i_mtime = attr->ia_mtime;
	if (attr->ia_valid & ATTR_CTIME)
		inode->i_ctime = attr->ia_ctime;
}

int notify_change(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;
	umode_t mode = inode->i_mode;
	int err;

	/* utimensat to "now" is for the owner or a writer */
	if ((attr->ia_valid & ATTR_TOUCH) && !inode_owner_or_capable(inode)) {
		err = generic_permission(inode, MAY_WRITE);
		if (err)
			return err;
	}
	if ((attr->ia_valid & ATTR_MODE) && S_ISLNK(mode))
		return -EOPNOTSUPP;
	err = setattr_prepare(inode, attr);
	if (err)
		return err;
	if (!(attr->ia_valid & ATTR_CTIME)) {
		attr->ia_valid |= ATTR_CTIME;
		attr->ia_ctime = current_time();
	}
	/* chown's set-id clearing, as a mode change */
	if ((attr->ia_valid & ATTR_KILL_SUID) && (mode & S_ISUID)) {
		attr->ia_valid |= ATTR_MODE;
		attr->ia_mode = mode & ~S_ISUID;
	}
	if ((attr->ia_valid & ATTR_KILL_SGID) && (mode & S_ISGID)) {
		if (!(attr->ia_valid & ATTR_MODE)) {
			attr->ia_valid |= ATTR_MODE;
			attr->ia_mode = mode;
		}
		attr->ia_mode &= ~S_ISGID;
	}
	if (inode->i_op && inode->i_op->setattr)
		return inode->i_op->setattr(dentry, attr);
	if (attr->ia_valid & ATTR_SIZE)
		return -EINVAL;
	setattr_copy(inode, attr);
	return 0;
}

void generic_fillattr(struct inode *inode, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = new_encode_dev(inode->i_sb->s_dev);
	st->st_ino = inode->i_ino;
	st->st_mode = inode->i_mode;
	st->st_uid = inode->i_uid;
	st->st_gid = inode->i_gid;
	st->st_nlink = inode->i_nlink;
	st->st_rdev = new_encode_dev(inode->i_rdev);
	st->st_size = inode->i_size;
	st->st_blksize = PAGE_SIZE;
	st->st_atime = inode->i_atime.tv_sec;
	st->st_atime_nsec = inode->i_atime.tv_nsec;
	st->st_mtime = inode->i_mtime.tv_sec;
	st->st_mtime_nsec = inode->i_mtime.tv_nsec;
	st->st_ctime = inode->i_ctime.tv_sec;
	st->st_ctime_nsec = inode->i_ctime.tv_nsec;
}

int inode_newsize_ok(s64 size)
{
	if (size < 0)
		return -EINVAL;
	if ((u64)size > rlimit(RLIMIT_FSIZE)) {
		send_sig(SIGXFSZ, current, 0);
		return -EFBIG;
	}
	return 0;
}

int get_write_access(struct inode *inode)
{
	if (!S_ISREG(inode->i_mode))
		return 0;
	if (inode->i_writecount < 0)
		return -ETXTBSY;
	inode->i_writecount++;
	return 0;
}

void put_write_access(struct inode *inode)
{
	if (S_ISREG(inode->i_mode))
		inode->i_writecount--;
}

int deny_write_access(struct inode *inode)
{
	if (!S_ISREG(inode->i_mode))
		return 0;
	if (inode->i_writecount > 0)
		return -ETXTBSY;
	inode->i_writecount--;
	return 0;
}

void allow_write_access(struct inode *inode)
{
	if (S_ISREG(inode->i_mode))
		inode->i_writecount++;
}
