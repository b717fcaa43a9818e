/* kernel/ipc/util.h: what msg.c, sem.c and shm.c share (Linux's
 * ipc/util.h): the permission block every object starts with, the table of
 * one kind's objects by id, and the common path of msgget, semget and
 * shmget. */
#ifndef KERNEL_IPC_UTIL_H
#define KERNEL_IPC_UTIL_H

#include <umk/cred.h>
#include <umk/uapi/ipc.h>
#include <umk/uapi/stat.h>

/* An id is the object's index in its table and a sequence number, so that
 * an id removed and its index reused is not the new object's
 * (ipc/util.h's IPCMNI_SHIFT, without ipcmni_extend). */
#define IPCMNI_SHIFT 15
#define IPCMNI (1 << IPCMNI_SHIFT)
#define IPCMNI_SEQ_MAX (INT32_MAX >> IPCMNI_SHIFT)
#define ipcid_to_idx(id) ((id) & (IPCMNI - 1))
#define ipcid_to_seqx(id) ((id) >> IPCMNI_SHIFT)
#define IPC_MIN_CYCLE 64	/* RADIX_TREE_MAP_SIZE: indexes cycle at least this far */

#define CAP_IPC_OWNER 15	/* include/uapi/linux/capability.h */

#define S_IRUGO 0444	/* include/linux/stat.h */
#define S_IWUGO 0222

/* Linux's kern_ipc_perm: the first member of each object. */
struct kern_ipc_perm {
	bool deleted;		/* removed: a sleeper woken sees EIDRM */
	int id;
	key_t key;		/* IPC_PRIVATE: found by id only */
	uid_t uid, gid, cuid, cgid;
	unsigned int mode;	/* the 0777 bits, and SHM_DEST, SHM_LOCKED */
	unsigned short seq;
};

/* One kind's objects (Linux's ipc_ids): entries[idx] is the object of index
 * idx or NULL; max_idx the highest index in use (-1: none). */
struct ipc_ids {
	int in_use;
	unsigned short seq;
	int last_idx;		/* the last index handed out, for the cycle */
	int max_idx;
	size_t cap;
	struct kern_ipc_perm **entries;
};

/* What *get asked for (Linux's ipc_params). */
struct ipc_params {
	key_t key;
	int flg;
	union {
		size_t size;	/* shmget */
		int nsems;	/* semget */
	} u;
};

/* The kind's part of *get (Linux's ipc_ops): make a new object (its id or
 * -errno), and the kind's checks on an existing one (0 or -errno). */
struct ipc_ops {
	int (*getnew)(struct ipc_params *params);
	int (*more_checks)(struct kern_ipc_perm *ipcp, struct ipc_params *params);
};

/* 0 if current may access ipcp as flag asks (S_IRUGO, S_IWUGO...), -1 if
 * not (ipcperms: owner, group or other bits, or CAP_IPC_OWNER). */
int ipcperms(struct kern_ipc_perm *ipcp, short flag);
/* msgget, semget, shmget: a new object or the existing one of the key. */
int ipcget(struct ipc_ids *ids, const struct ipc_ops *ops, struct ipc_params *params);
/* Give new an index and an id in ids, owned by current; its id, or -ENOSPC
 * with limit objects already. */
int ipc_addid(struct ipc_ids *ids, struct kern_ipc_perm *new, int limit);
/* Take ipcp out of ids: deleted, no longer found. */
void ipc_rmid(struct ipc_ids *ids, struct kern_ipc_perm *ipcp);
/* The object of an id (NULL: EINVAL), or of an index (*_STAT). */
struct kern_ipc_perm *ipc_obtain_object_check(struct ipc_ids *ids, int id);
struct kern_ipc_perm *ipc_obtain_object_idr(struct ipc_ids *ids, int idx);
/* IPC_SET and IPC_RMID: the object of id, if current owns or created it
 * or has CAP_SYS_ADMIN; else *err is -EINVAL or -EPERM. */
struct kern_ipc_perm *ipcctl_obtain_check(struct ipc_ids *ids, int id, int *err);
/* IPC_SET: the new owner and mode bits from in. */
void ipc_update_perm(const struct ipc64_perm *in, struct kern_ipc_perm *out);
void kernel_to_ipc64_perm(const struct kern_ipc_perm *in, struct ipc64_perm *out);
/* The highest index in use, -1 when none (*_INFO's return). */
static inline int ipc_get_maxidx(struct ipc_ids *ids)
{
	return ids->in_use ? ids->max_idx : -1;
}
/* Seconds on CLOCK_REALTIME (ktime_get_real_seconds). */
long ipc_seconds(void);

#endif
