/* include/umk/uapi/ioctls.h: the ioctl(2) requests umk knows
 * (include/uapi/asm-generic/ioctls.h). */
#ifndef UMK_UAPI_IOCTLS_H
#define UMK_UAPI_IOCTLS_H

#define TCGETS 0x5401
#define TIOCGWINSZ 0x5413
#define FIONREAD 0x541B
#define FIONBIO 0x5421
#define FIONCLEX 0x5450
#define FIOCLEX 0x5451

#endif
