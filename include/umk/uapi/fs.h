/* include/umk/uapi/fs.h: lseek(2)'s whence (include/uapi/linux/fs.h). */
#ifndef UMK_UAPI_FS_H
#define UMK_UAPI_FS_H

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

#endif
