/*
 * kernel/ipc/util.c: what System V's three kinds of objects share (Linux's
 * ipc/util.c): the table of a kind's objects by id, the key lookup and
 * creation of msgget, semget and shmget (ipcget), the permission check
 * (ipcperms) and the owner check of IPC_SET and IPC_RMID.
 *
 * One namespace, no locks: kernel code is not preempted, so only a sleep
 * lets another task in, and every sleeper looks its object up again (or
 * checks `deleted`) when it wakes. An index is given as Linux's
 * idr_alloc_cyclic gives it, from just after the last one up to
 * max(in_use * 3 / 2, 64), then from 0 again, the sequence number going up
 * on each wrap: so ids are Linux's for the same history (the tests print
 * none). Keys are found by a walk over the table, not a hash.
 */
#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/timer.h>

#include "util.h"

int ipcperms(struct kern_ipc_perm *ipcp, short flag)
{
	uid_t euid = current->cred.euid;
	int requested_mode = (flag >> 6) | (flag >> 3) | flag;
	int granted_mode = (int)ipcp->mode;

	if (euid == ipcp->cuid || euid == ipcp->uid)
		granted_mode >>= 6;
	else if (in_group_p(ipcp->cgid) || in_group_p(ipcp->gid))
		granted_mode >>= 3;
	/* a bit asked for that is not granted */
	if ((requested_mode & ~granted_mode & 0007) && !capable(CAP_IPC_OWNER))
		return -1;
	return 0;
}

long ipc_seconds(void)
{
	return (long)(clock_get_ns(CLOCK_REALTIME) / NSEC_PER_SEC);
}

static int idr_alloc_cyclic(struct ipc_ids *ids, int start, int end)
{
	int idx;

	for (idx = start; idx < end; idx++)
		if ((size_t)idx >= ids->cap || !ids->entries[idx])
			return idx;
	return -1;
}

int ipc_addid(struct ipc_ids *ids, struct kern_ipc_perm *new, int limit)
{
	int max_idx = max(ids->in_use * 3 / 2, IPC_MIN_CYCLE);
	int idx;

	if (ids->in_use >= limit)
		return -ENOSPC;
	max_idx = min(max_idx, IPCMNI);
	idx = idr_alloc_cyclic(ids, ids->last_idx + 1, max_idx);
	if (idx < 0)
		idx = idr_alloc_cyclic(ids, 0, max_idx);
	if (idx < 0)
		return -ENOSPC;
	if (idx <= ids->last_idx && ++ids->seq >= IPCMNI_SEQ_MAX)
		ids->seq = 0;
	ids->last_idx = idx;
	while ((size_t)idx >= ids->cap)
		ids->entries = kgrow(ids->entries, ids->cap, &ids->cap, sizeof(*ids->entries));
	ids->entries[idx] = new;
	ids->in_use++;
	if (idx > ids->max_idx)
		ids->max_idx = idx;

	new->deleted = false;
	new->uid = new->cuid = current->cred.euid;
	new->gid = new->cgid = current->cred.egid;
	new->seq = ids->seq;
	new->id = (ids->seq << IPCMNI_SHIFT) + idx;
	return new->id;
}

void ipc_rmid(struct ipc_ids *ids, struct kern_ipc_perm *ipcp)
{
	int idx = ipcid_to_idx(ipcp->id);

	if ((size_t)idx >= ids->cap || ids->entries[idx] != ipcp)
		panic("ipc_rmid: id %d is not in its table", ipcp->id);
	ids->entries[idx] = NULL;
	ids->in_use--;
	ipcp->deleted = true;
	if (idx == ids->max_idx)
		while (ids->max_idx >= 0 && !ids->entries[ids->max_idx])
			ids->max_idx--;
}

struct kern_ipc_perm *ipc_obtain_object_idr(struct ipc_ids *ids, int idx)
{
	if (idx < 0 || (size_t)idx >= ids->cap)
		return NULL;
	return ids->entries[idx];
}

struct kern_ipc_perm *ipc_obtain_object_check(struct ipc_ids *ids, int id)
{
	struct kern_ipc_perm *p = ipc_obtain_object_idr(ids, ipcid_to_idx(id));

	if (!p || ipcid_to_seqx(id) != p->seq)
		return NULL;
	return p;
}

struct kern_ipc_perm *ipcctl_obtain_check(struct ipc_ids *ids, int id, int *err)
{
	struct kern_ipc_perm *ipcp = ipc_obtain_object_check(ids, id);
	uid_t euid = current->cred.euid;

	*err = -EINVAL;
	if (!ipcp)
		return NULL;
	*err = -EPERM;
	if (euid == ipcp->cuid || euid == ipcp->uid || capable(CAP_SYS_ADMIN))
		return ipcp;
	return NULL;
}

void ipc_update_perm(const struct ipc64_perm *in, struct kern_ipc_perm *out)
{
	out->uid = in->uid;
	out->gid = in->gid;
	out->mode = (out->mode & ~S_IRWXUGO) | (in->mode & S_IRWXUGO);
}

void kernel_to_ipc64_perm(const struct kern_ipc_perm *in, struct ipc64_perm *out)
{
	memset(out, 0, sizeof(*out));
	out->key = in->key;
	out->uid = in->uid;
	out->gid = in->gid;
	out->cuid = in->cuid;
	out->cgid = in->cgid;
	out->mode = in->mode;
	out->seq = in->seq;
}

static struct kern_ipc_perm *ipc_findkey(struct ipc_ids *ids, key_t key)
{
	int idx;

	for (idx = 0; idx <= ids->max_idx; idx++) {
		struct kern_ipc_perm *p = ids->entries[idx];

		if (p && p->key == key)
			return p;
	}
	return NULL;
}

/* Linux's ipcget_public and ipc_check_perms, in their order of checks:
 * ENOENT without IPC_CREAT, EEXIST with IPC_EXCL, the kind's own checks
 * (a set with fewer semaphores, a smaller segment: EINVAL), then EACCES
 * for the mode bits of flg. */
int ipcget(struct ipc_ids *ids, const struct ipc_ops *ops, struct ipc_params *params)
{
	struct kern_ipc_perm *ipcp;
	int flg = params->flg, err;

	if (params->key == IPC_PRIVATE)
		return ops->getnew(params);
	ipcp = ipc_findkey(ids, params->key);
	if (!ipcp)
		return (flg & IPC_CREAT) ? ops->getnew(params) : -ENOENT;
	if ((flg & IPC_CREAT) && (flg & IPC_EXCL))
		return -EEXIST;
	err = ops->more_checks ? ops->more_checks(ipcp, params) : 0;
	if (err)
		return err;
	if (ipcperms(ipcp, (short)flg))
		return -EACCES;
	return ipcp->id;
}
