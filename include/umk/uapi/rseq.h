/* include/umk/uapi/rseq.h: restartable sequences
 * (include/uapi/linux/rseq.h). */
#ifndef UMK_UAPI_RSEQ_H
#define UMK_UAPI_RSEQ_H

#include <umk/types.h>

#define RSEQ_FLAG_UNREGISTER 1
#define RSEQ_CPU_ID_UNINITIALIZED ((u32)-1)
#define RSEQ_CS_NO_RESTART_FLAGS 0x7	/* deprecated rseq_cs flags */
#define ORIG_RSEQ_SIZE 32		/* the size of the first ABI */

/* A critical section: an abort at abort_ip, preceded by the signature,
 * if the thread is preempted or signalled in [start_ip, start_ip +
 * post_commit_offset). */
struct rseq_cs {
	u32 version;
	u32 flags;
	u64 start_ip;
	u64 post_commit_offset;
	u64 abort_ip;
} __attribute__((aligned(32)));

/* The area a thread registers; the kernel writes the cpu and node. */
struct rseq {
	u32 cpu_id_start;
	u32 cpu_id;
	u64 rseq_cs;		/* a struct rseq_cs pointer, or 0 */
	u32 flags;
	u32 node_id;
	u32 mm_cid;
	char end[];
} __attribute__((aligned(32)));

#endif
