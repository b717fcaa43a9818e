/* include/umk/uapi/sched.h: clone(2)'s flags and the scheduling policies
 * (include/uapi/linux/sched.h, include/uapi/linux/sched/types.h). The low
 * byte of clone's flags, CSIGNAL, is the signal the child sends its parent
 * when it exits. */
#ifndef UMK_UAPI_SCHED_H
#define UMK_UAPI_SCHED_H

#include <umk/types.h>

#define CSIGNAL 0x000000ff
#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_PIDFD 0x00001000
#define CLONE_PTRACE 0x00002000
#define CLONE_VFORK 0x00004000
#define CLONE_PARENT 0x00008000
#define CLONE_THREAD 0x00010000
#define CLONE_NEWNS 0x00020000
#define CLONE_SYSVSEM 0x00040000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_DETACHED 0x00400000
#define CLONE_UNTRACED 0x00800000
#define CLONE_CHILD_SETTID 0x01000000
#define CLONE_NEWTIME 0x00000080	/* clone3 only: CSIGNAL's bits there */
/* clone3 only: above clone's 32 bits. */
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#define CLONE_INTO_CGROUP 0x200000000ULL

/* clone3's argument (include/uapi/linux/sched.h): every field 64 bits, the
 * pointers as integers. Each version of the struct adds fields at its end;
 * the caller passes the size it knows (CLONE_ARGS_SIZE_VER*). */
struct clone_args {
	u64 flags;
	u64 pidfd;		/* CLONE_PIDFD: where the pidfd goes */
	u64 child_tid;		/* CLONE_CHILD_SETTID, CLONE_CHILD_CLEARTID */
	u64 parent_tid;		/* CLONE_PARENT_SETTID */
	u64 exit_signal;	/* what clone has in CSIGNAL */
	u64 stack;		/* lowest byte of the child's stack */
	u64 stack_size;
	u64 tls;		/* CLONE_SETTLS */
	u64 set_tid;		/* an array of pids, one per pid namespace level */
	u64 set_tid_size;
	u64 cgroup;		/* CLONE_INTO_CGROUP: a cgroup directory's fd */
};
#define CLONE_ARGS_SIZE_VER0 64	/* up to tls */
#define CLONE_ARGS_SIZE_VER1 80	/* set_tid, set_tid_size */
#define CLONE_ARGS_SIZE_VER2 88	/* cgroup */

#define SCHED_NORMAL 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_BATCH 3
#define SCHED_IDLE 5
#define SCHED_DEADLINE 6
#define SCHED_RESET_ON_FORK 0x40000000	/* or'ed into a policy */

struct sched_param {
	int sched_priority;
};

#endif
