/* include/umk/uapi/timerfd.h: timerfd_create(2)'s and timerfd_settime(2)'s
 * flags (include/uapi/linux/timerfd.h). */
#ifndef UMK_UAPI_TIMERFD_H
#define UMK_UAPI_TIMERFD_H

#include <umk/uapi/fcntl.h>

#define TFD_TIMER_ABSTIME (1 << 0)
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#define TFD_CLOEXEC O_CLOEXEC
#define TFD_NONBLOCK O_NONBLOCK

#endif
