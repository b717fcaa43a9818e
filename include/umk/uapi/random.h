/* include/umk/uapi/random.h: getrandom(2)'s flags
 * (include/uapi/linux/random.h). */
#ifndef UMK_UAPI_RANDOM_H
#define UMK_UAPI_RANDOM_H

#define GRND_NONBLOCK 0x0001
#define GRND_RANDOM 0x0002
#define GRND_INSECURE 0x0004

#endif
