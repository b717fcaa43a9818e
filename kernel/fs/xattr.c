/*
 * kernel/fs/xattr.c: extended attributes (fs/xattr.c), which none of umk's
 * file systems keep, as User-Mode Linux's hostfs keeps none: after the path
 * or fd is checked, getting, setting or removing one is EOPNOTSUPP, and
 * listing them gives an empty list (Linux's vfs_listxattr on a file system
 * without a listxattr operation).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/syscalls.h>

/* The path exists (following a last symlink or not): 0 or -errno. */
static int xattr_path(const char __user *pathname, bool follow)
{
	struct path path;
	int err = user_path_at(AT_FDCWD, pathname, follow ? LOOKUP_FOLLOW : 0, &path);

	if (!err)
		path_put(&path);
	return err;
}

static int xattr_fd(int fd)
{
	struct file *f = fget((unsigned int)fd);

	if (!f)
		return -EBADF;
	fput(f);
	return 0;
}

long sys_getxattr(const char __user *pathname, const char __user *name, void __user *value,
		  size_t size)
{
	return xattr_path(pathname, true) ?: -EOPNOTSUPP;
}

long sys_lgetxattr(const char __user *pathname, const char __user *name, void __user *value,
		   size_t size)
{
	return xattr_path(pathname, false) ?: -EOPNOTSUPP;
}

long sys_fgetxattr(int fd, const char __user *name, void __user *value, size_t size)
{
	return xattr_fd(fd) ?: -EOPNOTSUPP;
}

long sys_setxattr(const char __user *pathname, const char __user *name,
		  const void __user *value, size_t size, int flags)
{
	return xattr_path(pathname, true) ?: -EOPNOTSUPP;
}

long sys_lsetxattr(const char __user *pathname, const char __user *name,
		   const void __user *value, size_t size, int flags)
{
	return xattr_path(pathname, false) ?: -EOPNOTSUPP;
}

long sys_fsetxattr(int fd, const char __user *name, const void __user *value, size_t size,
		   int flags)
{
	return xattr_fd(fd) ?: -EOPNOTSUPP;
}

long sys_listxattr(const char __user *pathname, char __user *list, size_t size)
{
	return xattr_path(pathname, true);
}

long sys_llistxattr(const char __user *pathname, char __user *list, size_t size)
{
	return xattr_path(pathname, false);
}

long sys_flistxattr(int fd, char __user *list, size_t size)
{
	return xattr_fd(fd);
}

long sys_removexattr(const char __user *pathname, const char __user *name)
{
	return xattr_path(pathname, true) ?: -EOPNOTSUPP;
}

long sys_lremovexattr(const char __user *pathname, const char __user *name)
{
	return xattr_path(pathname, false) ?: -EOPNOTSUPP;
}

long sys_fremovexattr(int fd, const char __user *name)
{
	return xattr_fd(fd) ?: -EOPNOTSUPP;
}
