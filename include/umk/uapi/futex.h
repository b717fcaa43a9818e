/* include/umk/uapi/futex.h: futex(2)'s operations and their flags
 * (include/uapi/linux/futex.h). */
#ifndef UMK_UAPI_FUTEX_H
#define UMK_UAPI_FUTEX_H

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)
#define FUTEX_BITSET_MATCH_ANY 0xffffffff

/* The robust futex list (set_robust_list): a futex word's bits, and the
 * list a thread registers, walked by the kernel when it exits. */
#define FUTEX_WAITERS 0x80000000
#define FUTEX_OWNER_DIED 0x40000000
#define FUTEX_TID_MASK 0x3fffffff
#define ROBUST_LIST_LIMIT 2048		/* entries walked at most */

struct robust_list {
	struct robust_list *next;	/* bit 0: a PI futex */
};

struct robust_list_head {
	struct robust_list list;	/* circular: ends at &head->list */
	long futex_offset;		/* from an entry to its futex word */
	struct robust_list *list_op_pending; /* being locked or unlocked */
};

#endif
