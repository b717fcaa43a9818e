/* include/umk/uapi/limits.h: limits a program may rely on
 * (include/uapi/linux/limits.h): the longest name in a directory, the
 * longest path (its NUL included), and the largest pipe write that is
 * atomic. */
#ifndef UMK_UAPI_LIMITS_H
#define UMK_UAPI_LIMITS_H

#define NAME_MAX 255
#define PATH_MAX 4096
#define PIPE_BUF 4096

#endif
