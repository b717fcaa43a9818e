/* include/umk/uapi/stat.h: the file types of st_mode
 * (include/uapi/linux/stat.h). */
#ifndef UMK_UAPI_STAT_H
#define UMK_UAPI_STAT_H

#define S_IFIFO 0010000

#endif
