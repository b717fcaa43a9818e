/* include/umk/uapi/fs.h: lseek(2)'s whence, renameat2(2)'s flags
 * (include/uapi/linux/fs.h), and getdents64(2)'s record
 * (include/linux/dirent.h) with its d_type values. */
#ifndef UMK_UAPI_FS_H
#define UMK_UAPI_FS_H

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define SEEK_DATA 3
#define SEEK_HOLE 4

#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* d_type is the file type of st_mode, shifted (fs_umode_to_dtype) */
#define DT_UNKNOWN 0
#define DT_DIR 4
#define DT_REG 8
#define DT_LNK 10

/* utimensat(2) */
#define UTIME_NOW ((1L << 30) - 1L)
#define UTIME_OMIT ((1L << 30) - 2L)

#endif
