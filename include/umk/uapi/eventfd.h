/* include/umk/uapi/eventfd.h: eventfd2(2)'s flags (include/uapi/linux/eventfd.h). */
#ifndef UMK_UAPI_EVENTFD_H
#define UMK_UAPI_EVENTFD_H

#include <umk/uapi/fcntl.h>

#define EFD_SEMAPHORE (1 << 0)
#define EFD_CLOEXEC O_CLOEXEC
#define EFD_NONBLOCK O_NONBLOCK

#endif
