/* futex(2) operations (include/uapi/linux/futex.h) and the flags futex_wait
 * keeps, also in restart_block.futex.flags (kernel/futex/futex.h). */
#ifndef UMK_FUTEX_H
#define UMK_FUTEX_H

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)
#define FUTEX_BITSET_MATCH_ANY 0xffffffff

#define FLAGS_SHARED 0x01		/* no FUTEX_PRIVATE_FLAG */
#define FLAGS_CLOCKRT 0x02		/* the deadline is on CLOCK_REALTIME */
#define FLAGS_HAS_TIMEOUT 0x04		/* restart_block.futex.time is set */

#endif
