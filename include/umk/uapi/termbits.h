/* include/umk/uapi/termbits.h: the size of the kernel's struct termios
 * control-character array, as TCGETS writes it
 * (include/uapi/asm-generic/termbits.h). */
#ifndef UMK_UAPI_TERMBITS_H
#define UMK_UAPI_TERMBITS_H

#define NCCS 19

/* tcflow() and tcflush() arguments: TCXONC and TCFLSH */
#define TCOOFF 0
#define TCOON 1
#define TCIOFF 2
#define TCION 3
#define TCIFLUSH 0
#define TCOFLUSH 1
#define TCIOFLUSH 2

#endif
