/* include/umk/uapi/termbits.h: the size of the kernel's struct termios
 * control-character array, as TCGETS writes it
 * (include/uapi/asm-generic/termbits.h). */
#ifndef UMK_UAPI_TERMBITS_H
#define UMK_UAPI_TERMBITS_H

#define NCCS 19

#endif
