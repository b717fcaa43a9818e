/* The VFS's hooks for inotify (include/linux/fsnotify.h), in
 * kernel/fs/inotify.c: each tells the watches of a dentry's directory and
 * of its inode what happened to it. Cheap when nothing is watched. */
#ifndef UMK_FSNOTIFY_H
#define UMK_FSNOTIFY_H

#include <umk/fs.h>
#include <umk/uapi/inotify.h>

/* d was just made (open O_CREAT, mknod, mkdir, symlink, link): IN_CREATE. */
void fsnotify_create(struct dentry *d);
/* d's link count before an unlink or rmdir, when anything is watched (0
 * otherwise): what fsnotify_remove needs to know if the last link went. */
unsigned int fsnotify_nlink(struct dentry *d);
/* d was just removed (unlink, rmdir), still with its name and inode:
 * IN_ATTRIB (unlink), IN_DELETE_SELF and IN_IGNORED when nlink (before)
 * was its last link or it was a directory, then IN_DELETE. */
void fsnotify_remove(struct dentry *d, bool rmdir, unsigned int nlink);
/* rename of moved from old_name in old_parent to new_name in new_parent:
 * IN_MOVED_FROM and IN_MOVED_TO with one cookie, IN_MOVE_SELF. */
void fsnotify_move(struct dentry *old_parent, const char *old_name, struct dentry *new_parent,
		   const char *new_name, struct dentry *moved);
/* d's attributes changed: its size (IN_MODIFY) or others (IN_ATTRIB). */
void fsnotify_change(struct dentry *d, bool size);
void fsnotify_open(struct file *f);	/* IN_OPEN */
void fsnotify_close(struct file *f);	/* the last fput: IN_CLOSE_(NO)WRITE */
void fsnotify_modify(struct file *f);	/* a write that moved bytes: IN_MODIFY */
void fsnotify_access(struct file *f);	/* a read that moved bytes: IN_ACCESS */

#endif
