/* statfs(2) and fstatfs(2) (include/uapi/asm-generic/statfs.h, x86-64:
 * 120 bytes) and the file system magic numbers umk reports
 * (include/uapi/linux/magic.h). */
#ifndef UMK_UAPI_STATFS_H
#define UMK_UAPI_STATFS_H

struct statfs {
	long f_type;			/* the magic number */
	long f_bsize;
	unsigned long f_blocks, f_bfree, f_bavail;	/* in f_bsize units */
	unsigned long f_files, f_ffree;
	struct {
		int val[2];
	} f_fsid;
	long f_namelen;
	long f_frsize;
	long f_flags;			/* ST_* */
	long f_spare[4];
};

#define TMPFS_MAGIC 0x01021994
#define PROC_SUPER_MAGIC 0x9fa0
#define PIPEFS_MAGIC 0x50495045
#define ANON_INODE_FS_MAGIC 0x09041934
#define SOCKFS_MAGIC 0x534F434B
#define DEVPTS_SUPER_MAGIC 0x1cd1

/* f_flags (include/linux/statfs.h) */
#define ST_RDONLY 0x0001
#define ST_NOSUID 0x0002
#define ST_NODEV 0x0004
#define ST_NOEXEC 0x0008
#define ST_VALID 0x0020		/* f_flags holds these */

#endif
