/* include/umk/uapi/inotify.h: inotify's event bits and add_watch flags
 * (include/uapi/linux/inotify.h). */
#ifndef UMK_UAPI_INOTIFY_H
#define UMK_UAPI_INOTIFY_H

#define IN_ACCESS 0x00000001		/* File was accessed */
#define IN_MODIFY 0x00000002		/* File was modified */
#define IN_ATTRIB 0x00000004		/* Metadata changed */
#define IN_CLOSE_WRITE 0x00000008	/* Writable file was closed */
#define IN_CLOSE_NOWRITE 0x00000010	/* Unwritable file closed */
#define IN_OPEN 0x00000020		/* File was opened */
#define IN_MOVED_FROM 0x00000040	/* File was moved from X */
#define IN_MOVED_TO 0x00000080		/* File was moved to Y */
#define IN_CREATE 0x00000100		/* Subfile was created */
#define IN_DELETE 0x00000200		/* Subfile was deleted */
#define IN_DELETE_SELF 0x00000400	/* Self was deleted */
#define IN_MOVE_SELF 0x00000800		/* Self was moved */
#define IN_ALL_EVENTS 0x00000fff

#define IN_UNMOUNT 0x00002000		/* Backing fs was unmounted */
#define IN_Q_OVERFLOW 0x00004000	/* Event queued overflowed */
#define IN_IGNORED 0x00008000		/* File was ignored */

#define IN_ONLYDIR 0x01000000		/* only watch the path if it is a directory */
#define IN_DONT_FOLLOW 0x02000000	/* don't follow a sym link */
#define IN_EXCL_UNLINK 0x04000000	/* exclude events on unlinked objects */
#define IN_MASK_CREATE 0x10000000	/* only create watches */
#define IN_MASK_ADD 0x20000000		/* add to the mask of an already existing watch */
#define IN_ISDIR 0x40000000		/* event occurred against dir */
#define IN_ONESHOT 0x80000000		/* only send event once */

#endif
