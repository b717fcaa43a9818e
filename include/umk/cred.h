/* Credentials (include/linux/cred.h, include/linux/capability.h).
 *
 * Each task has its own credentials, as on Linux: the real, effective,
 * saved and filesystem uid and gid, the supplementary groups and two
 * capability sets. A C library changes the ids of every thread of a
 * process by making the call in each one (glibc's setxid broadcast,
 * musl's __synccall); the kernel changes only the caller's.
 *
 * pid 1 starts as root: every id 0, every capability. Capabilities follow
 * the uid changes as Linux's without file capabilities and securebits
 * (security/commoncap.c): a task whose real, effective and saved uid all
 * leave 0 loses them all; an effective uid leaving 0 clears the effective
 * set and one coming back to 0 refills it from the permitted set. umk has
 * one user namespace, so ns_capable() is capable(). */
#ifndef UMK_CRED_H
#define UMK_CRED_H

#include <umk/types.h>

/* include/uapi/linux/capability.h: the ones umk checks. */
#define CAP_CHOWN 0
#define CAP_DAC_OVERRIDE 1
#define CAP_DAC_READ_SEARCH 2
#define CAP_FOWNER 3
#define CAP_FSETID 4
#define CAP_KILL 5
#define CAP_SETGID 6
#define CAP_SETUID 7
#define CAP_LINUX_IMMUTABLE 9
#define CAP_IPC_LOCK 14
#define CAP_SYS_PTRACE 19
#define CAP_SYS_ADMIN 21
#define CAP_SYS_NICE 23
#define CAP_SYS_RESOURCE 24
#define CAP_MKNOD 27
#define CAP_LEASE 28
#define CAP_MAC_OVERRIDE 32
#define CAP_WAKE_ALARM 35
#define CAP_CHECKPOINT_RESTORE 40
#define CAP_LAST_CAP 40
#define CAP_FULL_SET ((1ULL << (CAP_LAST_CAP + 1)) - 1)
/* What a change of fsuid to or from 0 drops or raises (CAP_FS_MASK). */
#define CAP_FS_MASK                                                            \
	((1ULL << CAP_CHOWN) | (1ULL << CAP_MKNOD) | (1ULL << CAP_DAC_OVERRIDE) | \
	 (1ULL << CAP_DAC_READ_SEARCH) | (1ULL << CAP_FOWNER) | (1ULL << CAP_FSETID) | \
	 (1ULL << CAP_LINUX_IMMUTABLE) | (1ULL << CAP_MAC_OVERRIDE))

#define NGROUPS_MAX 65536	/* include/uapi/linux/limits.h */

typedef u64 kernel_cap_t;

/* Supplementary groups, sorted (getgroups returns them so, as Linux's
 * groups_sort); shared by reference between tasks until one changes them. */
struct group_info {
	int usage;
	int ngroups;
	gid_t gid[];
};

struct cred {
	uid_t uid, euid, suid, fsuid;	/* real, effective, saved, filesystem */
	gid_t gid, egid, sgid, fsgid;
	kernel_cap_t cap_permitted;
	kernel_cap_t cap_effective;
	struct group_info *group_info;	/* never NULL once set up */
};

struct task_struct;

/* kernel/cred.c */
/* pid 1's: root with every capability, no supplementary groups. */
void init_creds(struct task_struct *p);
/* A new task gets a copy of its creator's (copy_process). */
void copy_creds(struct task_struct *p, struct task_struct *parent);
/* A released task drops its reference to the groups (release_task). */
void exit_creds(struct task_struct *p);
/* exec: saved and fs ids become the effective ones, and the capabilities
 * are recomputed as for a program without file capabilities. */
void exec_creds(struct task_struct *p);
/* Change current's credentials to new, which started as a copy of them
 * (Linux's prepare_creds and commit_creds), after the capability rules
 * for a uid change (cap_emulate_setxuid, cap_emulate_setfsuid). */
void cap_emulate_setxuid(struct cred *new, const struct cred *old);
void cap_emulate_setfsuid(struct cred *new, const struct cred *old);
void commit_creds(struct cred *new);
void put_group_info(struct group_info *gi);
/* Whether current's fsgid or one of its supplementary groups is gid
 * (kernel/groups.c, Linux's in_group_p). */
bool in_group_p(gid_t gid);
/* Whether current holds capability cap (Linux's capable(), without the
 * audit and the PF_SUPERPRIV flag). */
bool capable(int cap);
/* Whether current may signal t by credentials (Linux's kill_ok_by_cred). */
bool kill_ok_by_cred(struct task_struct *t);
/* Whether t runs as current's user: same euid or uid (check_same_owner). */
bool check_same_owner(struct task_struct *t);
/* Whether current may read t's memory and state (ptrace_may_access with
 * PTRACE_MODE_READ_REALCREDS). */
bool ptrace_may_access(struct task_struct *t);

#endif
