/*
 * kernel/fs/inode.c: inodes (Linux's fs/inode.c, fs/attr.c, fs/stat.c's
 * generic_fillattr).
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

void setattr_copy(struct inode *inode, const struct iattr *attr)
{
	if (attr->ia_valid & ATTR_MODE)
		inode->i_mode = (inode->i_mode & S_IFMT) | (attr->ia_mode & S_IALLUGO);
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

	if (!(attr->ia_valid & ATTR_CTIME)) {
		attr->ia_valid |= ATTR_CTIME;
		attr->ia_ctime = current_time();
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
