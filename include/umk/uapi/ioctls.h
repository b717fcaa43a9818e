/* include/umk/uapi/ioctls.h: the ioctl(2) requests umk knows
 * (include/uapi/asm-generic/ioctls.h). */
#ifndef UMK_UAPI_IOCTLS_H
#define UMK_UAPI_IOCTLS_H

#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TCSBRK 0x5409
#define TCXONC 0x540A
#define TCFLSH 0x540B
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCOUTQ 0x5411
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541B
#define TIOCINQ FIONREAD
#define FIONBIO 0x5421
#define FIOASYNC 0x5452
#define TIOCNOTTY 0x5422
#define TIOCGSID 0x5429
#define FIONCLEX 0x5450
#define FIOCLEX 0x5451
/* A socket's owner (include/uapi/linux/sockios.h, asm-generic/sockios.h):
 * F_SETOWN and F_GETOWN by ioctl. */
#define FIOSETOWN 0x8901
#define SIOCSPGRP 0x8902
#define FIOGETOWN 0x8903
#define SIOCGPGRP 0x8904

#endif
