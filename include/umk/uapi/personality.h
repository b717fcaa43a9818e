/* include/umk/uapi/personality.h: personality(2)'s flags that umk names
 * (include/uapi/linux/personality.h). */
#ifndef UMK_UAPI_PERSONALITY_H
#define UMK_UAPI_PERSONALITY_H

#define ADDR_NO_RANDOMIZE 0x0040000
#define READ_IMPLIES_EXEC 0x0400000

#endif
