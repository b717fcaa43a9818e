/* include/umk/uapi/stat.h: file types and permission bits of st_mode
 * (include/uapi/linux/stat.h), and statx(2)'s structure and masks. */
#ifndef UMK_UAPI_STAT_H
#define UMK_UAPI_STAT_H

#define S_IFMT 00170000
#define S_IFSOCK 0140000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISUID 0004000
#define S_ISGID 0002000
#define S_ISVTX 0001000

#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m) (((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)

#define S_IRWXU 00700
#define S_IRWXG 00070
#define S_IRWXO 00007
#define S_IRWXUGO (S_IRWXU | S_IRWXG | S_IRWXO)
#define S_IALLUGO (S_ISUID | S_ISGID | S_ISVTX | S_IRWXUGO)
#define S_IXUGO 00111
#define S_IXGRP 00010

/* access(2)'s mode */
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

/* statx(2) */
struct statx_timestamp {
	long long tv_sec;
	unsigned int tv_nsec;
	int __reserved;
};

struct statx {
	unsigned int stx_mask, stx_blksize;
	unsigned long long stx_attributes;
	unsigned int stx_nlink, stx_uid, stx_gid;
	unsigned short stx_mode, __spare0[1];
	unsigned long long stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	unsigned int stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	unsigned long long __spare2[14];
};

#define STATX_BASIC_STATS 0x000007ffU
#define STATX__RESERVED 0x80000000U
#define AT_STATX_SYNC_TYPE 0x6000

#endif
