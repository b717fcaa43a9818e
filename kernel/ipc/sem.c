/*
 * kernel/ipc/sem.c: System V semaphores (Linux's ipc/sem.c): semget, semop,
 * semtimedop, semctl, SEM_UNDO, and /proc/sysvipc/sem.
 *
 * A semop is all or nothing: its operations are applied in order, and if
 * one would block (a decrement below 0, a wait for zero on a non-zero
 * value) or is out of range, the ones before it are undone
 * (perform_atomic_semop, Linux's _slow variant, whose results the fast one
 * shares). A blocked semop joins the set's pending list; whoever changes
 * the set then runs the pending operations in order (update_queue) and
 * completes each that can go on the sleeper's behalf, setting its status
 * and waking it: a woken semop has already happened. One pending list in
 * arrival order stands for Linux's per-semaphore and global ones; GETNCNT
 * and GETZCNT count, as Linux since 3.16, only the operation that blocks.
 *
 * Restarts: a sleep ended by a signal returns -EINTR, never a restart
 * code, as Linux's: EINTR after a handler, and after a stop too
 * (signal(7)). A timeout ends a semtimedop with EAGAIN; IPC_RMID wakes
 * every sleeper with EIDRM.
 *
 * SEM_UNDO: each process keeps one sem_undo per set it used with SEM_UNDO
 * (its adjustments, semadj), in a list shared with the tasks cloned with
 * CLONE_SYSVSEM (task->sysvsem); the last of them to exit applies the
 * adjustments, clamped to [0, SEMVMX] (exit_sem). SETVAL and SETALL clear
 * the adjustments of what they set; IPC_RMID leaves its sem_undos with
 * semid -1, which exit_sem skips.
 */
#include <umk/errno.h>
#include <umk/ipc.h>
#include <umk/kernel.h>
#include <umk/list.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>
#include <umk/uapi/sched.h>

#include "util.h"

struct sem {
	int semval;
	pid_t sempid;		/* the last process to change it */
};

struct sem_array {
	struct kern_ipc_perm sem_perm;
	long sem_otime, sem_ctime;
	struct list_head pending;	/* struct sem_queue, in arrival order */
	struct list_head list_id;	/* struct sem_undo of this set */
	int sem_nsems;
	struct sem sems[];
};

/* A sleeping semop. status is -EINTR until whoever completes it (0), finds
 * it out of range (-ERANGE) or removes the set (-EIDRM) sets it. */
struct sem_queue {
	struct list_head list;
	struct task_struct *sleeper;
	struct sem_undo *undo;
	pid_t pid;
	int status;
	struct sembuf *sops;
	struct sembuf *blocking;	/* the operation that blocks */
	int nsops;
	bool alter;
};

struct sem_undo {
	struct list_head list_proc;	/* in the process's sem_undo_list */
	struct list_head list_id;	/* in the set's list_id */
	int semid;			/* -1: the set is gone */
	short *semadj;			/* one per semaphore */
};

struct sem_undo_list {
	int refcnt;			/* tasks sharing it (CLONE_SYSVSEM) */
	struct list_head list_proc;
};

static struct ipc_ids sem_ids = { .last_idx = -1, .max_idx = -1 };
static int used_sems;		/* semaphores in every set (Linux's used_sems) */

static struct sem_array *sem_obtain_object_check(int id)
{
	struct kern_ipc_perm *p = ipc_obtain_object_check(&sem_ids, id);

	return p ? container_of(p, struct sem_array, sem_perm) : NULL;
}

static int newary(struct ipc_params *params)
{
	int nsems = params->u.nsems, id;
	struct sem_array *sma;

	if (!nsems)
		return -EINVAL;
	if (used_sems + nsems > SEMMNS)
		return -ENOSPC;
	sma = kmalloc(sizeof(*sma) + nsems * sizeof(struct sem));
	sma->sem_perm.mode = params->flg & S_IRWXUGO;
	sma->sem_perm.key = params->key;
	sma->sem_nsems = nsems;
	sma->sem_ctime = ipc_seconds();
	INIT_LIST_HEAD(&sma->pending);
	INIT_LIST_HEAD(&sma->list_id);
	id = ipc_addid(&sem_ids, &sma->sem_perm, SEMMNI);
	if (id < 0) {
		kfree(sma);
		return id;
	}
	used_sems += nsems;
	return id;
}

static int sem_more_checks(struct kern_ipc_perm *ipcp, struct ipc_params *params)
{
	struct sem_array *sma = container_of(ipcp, struct sem_array, sem_perm);

	return params->u.nsems > sma->sem_nsems ? -EINVAL : 0;
}

long sys_semget(key_t key, int nsems, int semflg)
{
	static const struct ipc_ops sem_ops = { .getnew = newary, .more_checks = sem_more_checks };
	struct ipc_params params = { .key = key, .flg = semflg, .u.nsems = nsems };

	if (nsems < 0 || nsems > SEMMSL)
		return -EINVAL;
	return ipcget(&sem_ids, &sem_ops, &params);
}

/* Apply q's operations in order, or none: 0, 1 if one would block (and
 * q->blocking is it), -EAGAIN for that with IPC_NOWAIT, -ERANGE past
 * SEMVMX or the adjustment's range. */
static int perform_atomic_semop(struct sem_array *sma, struct sem_queue *q)
{
	struct sembuf *sops = q->sops, *sop;
	struct sem_undo *un = q->undo;
	int result;

	for (sop = sops; sop < sops + q->nsops; sop++) {
		struct sem *curr = &sma->sems[sop->sem_num];

		result = curr->semval;
		if (!sop->sem_op && result)
			goto would_block;	/* wait for zero */
		result += sop->sem_op;
		if (result < 0)
			goto would_block;
		if (result > SEMVMX)
			goto out_of_range;
		if (sop->sem_flg & SEM_UNDO) {
			int undo = un->semadj[sop->sem_num] - sop->sem_op;

			if (undo < (-SEMAEM - 1) || undo > SEMAEM)
				goto out_of_range;
			un->semadj[sop->sem_num] = (short)undo;
		}
		curr->semval = result;
	}
	for (sop--; sop >= sops; sop--)
		sma->sems[sop->sem_num].sempid = q->pid;
	return 0;

out_of_range:
	result = -ERANGE;
	goto undo;
would_block:
	q->blocking = sop;
	result = (sop->sem_flg & IPC_NOWAIT) ? -EAGAIN : 1;
undo:
	for (sop--; sop >= sops; sop--) {
		sma->sems[sop->sem_num].semval -= sop->sem_op;
		if (sop->sem_flg & SEM_UNDO)
			un->semadj[sop->sem_num] += sop->sem_op;
	}
	return result;
}

static void wake_up_sem_queue(struct sem_queue *q, int error)
{
	list_del_init(&q->list);
	q->status = error;
	wake_up_process(q->sleeper);
}

/* The set changed: complete, in order, the pending operations that can go
 * now (or fail with ERANGE), starting over after each that altered the
 * set (Linux's update_queue and do_smart_update). */
static void update_queue(struct sem_array *sma)
{
	struct sem_queue *q, *t;
	bool again;

	do {
		again = false;
		list_for_each_entry_safe(q, t, &sma->pending, list) {
			int error = perform_atomic_semop(sma, q);

			if (error > 0)
				continue;
			wake_up_sem_queue(q, error);
			if (!error) {
				sma->sem_otime = ipc_seconds();
				if (q->alter) {
					again = true;
					break;
				}
			}
		}
	} while (again);
}

static struct sem_undo *lookup_undo(struct sem_undo_list *ulp, int semid)
{
	struct sem_undo *un;

	list_for_each_entry(un, &ulp->list_proc, list_proc)
		if (un->semid == semid)
			return un;
	return NULL;
}

/* The caller's sem_undo for semid, made at its first SEM_UNDO (Linux's
 * find_alloc_undo); NULL when the set does not exist (EINVAL). */
/* current's list of sem_undo, made at its first use (get_undo_list). */
static struct sem_undo_list *get_undo_list(void)
{
	struct sem_undo_list *ulp = current->sysvsem;

	if (!ulp) {
		ulp = kmalloc(sizeof(*ulp));
		ulp->refcnt = 1;
		INIT_LIST_HEAD(&ulp->list_proc);
		current->sysvsem = ulp;
	}
	return ulp;
}

static struct sem_undo *find_alloc_undo(int semid)
{
	struct sem_undo_list *ulp = get_undo_list();
	struct sem_array *sma;
	struct sem_undo *un;

	un = lookup_undo(ulp, semid);
	if (un)
		return un;
	sma = sem_obtain_object_check(semid);
	if (!sma)
		return NULL;
	un = kmalloc(sizeof(*un));
	un->semadj = kmalloc(sizeof(short) * sma->sem_nsems);
	un->semid = semid;
	list_add(&un->list_proc, &ulp->list_proc);
	list_add(&un->list_id, &sma->list_id);
	return un;
}

static long do_semtimedop(int semid, struct sembuf __user *tsops, unsigned int nsops,
			  const struct __kernel_timespec *timeout)
{
	struct hrtimer_sleeper to;
	struct sem_queue queue = { .pid = current->tgid };
	struct sem_undo *un = NULL;
	struct sem_array *sma;
	struct sembuf *sops, *sop;
	bool undos = false, alter = false;
	int max = 0;
	long error;

	if (nsops > SEMOPM)
		return -E2BIG;
	if (nsops < 1)
		return -EINVAL;
	sops = kmalloc(nsops * sizeof(*sops));
	error = -EFAULT;
	if (copy_from_user(sops, tsops, nsops * sizeof(*sops)))
		goto out;
	error = -EINVAL;
	if (semid < 0)
		goto out;
	if (timeout && !timespec64_valid(timeout))
		goto out;

	for (sop = sops; sop < sops + nsops; sop++) {
		max = max(max, (int)sop->sem_num);
		if (sop->sem_flg & SEM_UNDO)
			undos = true;
		if (sop->sem_op)
			alter = true;
	}
	if (undos) {
		un = find_alloc_undo(semid);
		if (!un)
			goto out;	/* -EINVAL */
	}
	sma = sem_obtain_object_check(semid);
	if (!sma)
		goto out;
	error = -EFBIG;
	if (max >= sma->sem_nsems)
		goto out;
	error = -EACCES;
	if (ipcperms(&sma->sem_perm, alter ? S_IWUGO : S_IRUGO))
		goto out;
	error = -EIDRM;
	if (un && un->semid == -1)
		goto out;

	queue.sops = sops;
	queue.nsops = (int)nsops;
	queue.undo = un;
	queue.alter = alter;
	error = perform_atomic_semop(sma, &queue);
	if (error <= 0) {
		if (!error) {
			sma->sem_otime = ipc_seconds();
			if (alter)
				update_queue(sma);
		}
		goto out;
	}

	/* Sleep until update_queue completes us, the set goes, the timeout
	 * passes or a signal comes. Timers run only at interrupt replay, so
	 * the timer can be armed before queueing. */
	if (timeout)
		hrtimer_sleeper_start(&to, (u64)ktime_add_safe((s64)ktime_get(),
							       timespec_to_ns(timeout)),
				      "semtimedop");
	queue.sleeper = current;
	list_add_tail(&queue.list, &sma->pending);
	do {
		queue.status = -EINTR;
		set_current_state(TASK_INTERRUPTIBLE);
		if ((!timeout || to.task) && !signal_pending(current))
			schedule();
		set_current_state(TASK_RUNNING);
		error = queue.status;
		if (error != -EINTR)
			break;			/* done, -ERANGE, or -EIDRM: sma is gone */
		if (timeout && !to.task)
			error = -EAGAIN;
	} while (error == -EINTR && !signal_pending(current));	/* spurious */
	if (error == -EINTR || error == -EAGAIN)
		list_del_init(&queue.list);
	if (timeout)
		hrtimer_sleeper_cancel(&to);
out:
	kfree(sops);
	return error;
}

long sys_semtimedop(int semid, struct sembuf __user *tsops, unsigned int nsops,
		    const struct __kernel_timespec __user *timeout)
{
	struct __kernel_timespec ts;

	if (timeout) {
		if (get_timespec64(&ts, timeout))
			return -EFAULT;
		return do_semtimedop(semid, tsops, nsops, &ts);
	}
	return do_semtimedop(semid, tsops, nsops, NULL);
}

long sys_semop(int semid, struct sembuf __user *tsops, unsigned int nsops)
{
	return do_semtimedop(semid, tsops, nsops, NULL);
}

/* How many sleepers wait for semnum to go down (ncnt) or to reach zero. */
static int count_semcnt(struct sem_array *sma, int semnum, bool count_zero)
{
	struct sem_queue *q;
	int n = 0;

	list_for_each_entry(q, &sma->pending, list) {
		struct sembuf *sop = q->blocking;

		if (sop->sem_num != semnum)
			continue;
		if (count_zero ? sop->sem_op == 0 : sop->sem_op < 0)
			n++;
	}
	return n;
}

/* IPC_RMID: sleepers see EIDRM, the sem_undos lose their set. */
static void freeary(struct sem_array *sma)
{
	struct sem_undo *un, *tu;
	struct sem_queue *q, *tq;

	list_for_each_entry_safe(un, tu, &sma->list_id, list_id) {
		un->semid = -1;
		list_del_init(&un->list_id);
	}
	list_for_each_entry_safe(q, tq, &sma->pending, list)
		wake_up_sem_queue(q, -EIDRM);
	ipc_rmid(&sem_ids, &sma->sem_perm);
	used_sems -= sma->sem_nsems;
	kfree(sma);
}

static void clear_semadj(struct sem_array *sma, int semnum)
{
	struct sem_undo *un;

	list_for_each_entry(un, &sma->list_id, list_id) {
		if (semnum < 0)
			memset(un->semadj, 0, sizeof(short) * sma->sem_nsems);
		else
			un->semadj[semnum] = 0;
	}
}

static long semctl_setval(int semid, int semnum, int val)
{
	struct sem_array *sma;

	if (val > SEMVMX || val < 0)
		return -ERANGE;
	sma = sem_obtain_object_check(semid);
	if (!sma)
		return -EINVAL;
	if (semnum < 0 || semnum >= sma->sem_nsems)
		return -EINVAL;
	if (ipcperms(&sma->sem_perm, S_IWUGO))
		return -EACCES;
	clear_semadj(sma, semnum);
	sma->sems[semnum].semval = val;
	sma->sems[semnum].sempid = current->tgid;
	sma->sem_ctime = ipc_seconds();
	update_queue(sma);
	return 0;
}

/* GETALL, SETALL, GETVAL, GETPID, GETNCNT, GETZCNT (Linux's semctl_main). */
static long semctl_main(int semid, int semnum, int cmd, void __user *p)
{
	struct sem_array *sma = sem_obtain_object_check(semid);
	unsigned short *vals;
	int nsems, i;
	long err = 0;

	if (!sma)
		return -EINVAL;
	nsems = sma->sem_nsems;
	if (ipcperms(&sma->sem_perm, cmd == SETALL ? S_IWUGO : S_IRUGO))
		return -EACCES;
	switch (cmd) {
	case GETALL:
		vals = kmalloc(sizeof(*vals) * nsems);
		for (i = 0; i < nsems; i++)
			vals[i] = (unsigned short)sma->sems[i].semval;
		if (copy_to_user(p, vals, sizeof(*vals) * nsems))
			err = -EFAULT;
		kfree(vals);
		return err;
	case SETALL:
		vals = kmalloc(sizeof(*vals) * nsems);
		if (copy_from_user(vals, p, sizeof(*vals) * nsems))
			err = -EFAULT;
		for (i = 0; !err && i < nsems; i++)
			if (vals[i] > SEMVMX)
				err = -ERANGE;
		if (!err) {
			/* the copy may have slept: the set may be gone */
			if (sma != sem_obtain_object_check(semid)) {
				kfree(vals);
				return -EIDRM;
			}
			for (i = 0; i < nsems; i++) {
				sma->sems[i].semval = vals[i];
				sma->sems[i].sempid = current->tgid;
			}
			clear_semadj(sma, -1);
			sma->sem_ctime = ipc_seconds();
			update_queue(sma);
		}
		kfree(vals);
		return err;
	}
	if (semnum < 0 || semnum >= nsems)
		return -EINVAL;
	switch (cmd) {
	case GETVAL:
		return sma->sems[semnum].semval;
	case GETPID:
		return sma->sems[semnum].sempid;
	case GETNCNT:
		return count_semcnt(sma, semnum, false);
	case GETZCNT:
		return count_semcnt(sma, semnum, true);
	}
	return -EINVAL;
}

static long semctl_info(int cmd, void __user *p)
{
	struct seminfo seminfo = {
		.semmni = SEMMNI, .semmns = SEMMNS, .semmsl = SEMMSL, .semopm = SEMOPM,
		.semvmx = SEMVMX, .semmnu = SEMMNU, .semmap = SEMMAP, .semume = SEMUME,
		.semusz = SEMUSZ, .semaem = SEMAEM,
	};
	int max_idx = ipc_get_maxidx(&sem_ids);

	if (cmd == SEM_INFO) {
		seminfo.semusz = sem_ids.in_use;
		seminfo.semaem = used_sems;
	}
	if (copy_to_user(p, &seminfo, sizeof(seminfo)))
		return -EFAULT;
	return max_idx < 0 ? 0 : max_idx;
}

static long semctl_stat(int semid, int cmd, void __user *p)
{
	struct semid64_ds ds;
	struct kern_ipc_perm *ipcp;
	struct sem_array *sma;

	if (cmd == SEM_STAT || cmd == SEM_STAT_ANY)
		ipcp = ipc_obtain_object_idr(&sem_ids, semid);
	else
		ipcp = ipc_obtain_object_check(&sem_ids, semid);
	if (!ipcp)
		return -EINVAL;
	if (cmd != SEM_STAT_ANY && ipcperms(ipcp, S_IRUGO))
		return -EACCES;
	sma = container_of(ipcp, struct sem_array, sem_perm);
	memset(&ds, 0, sizeof(ds));
	kernel_to_ipc64_perm(ipcp, &ds.sem_perm);
	ds.sem_otime = sma->sem_otime;
	ds.sem_ctime = sma->sem_ctime;
	ds.sem_nsems = (unsigned long)sma->sem_nsems;
	if (copy_to_user(p, &ds, sizeof(ds)))
		return -EFAULT;
	return cmd == IPC_STAT ? 0 : ipcp->id;
}

static long semctl_down(int semid, int cmd, void __user *p)
{
	struct semid64_ds ds;
	struct kern_ipc_perm *ipcp;
	int err;

	if (cmd == IPC_SET && copy_from_user(&ds, p, sizeof(ds)))
		return -EFAULT;
	ipcp = ipcctl_obtain_check(&sem_ids, semid, &err);
	if (!ipcp)
		return err;
	if (cmd == IPC_RMID) {
		freeary(container_of(ipcp, struct sem_array, sem_perm));
		return 0;
	}
	if (ds.sem_perm.uid == (uid_t)-1 || ds.sem_perm.gid == (gid_t)-1)
		return -EINVAL;
	ipc_update_perm(&ds.sem_perm, ipcp);
	container_of(ipcp, struct sem_array, sem_perm)->sem_ctime = ipc_seconds();
	return 0;
}

long sys_semctl(int semid, int semnum, int cmd, unsigned long arg)
{
	void __user *p = (void __user *)arg;

	if (semid < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case SEM_INFO:
		return semctl_info(cmd, p);
	case IPC_STAT:
	case SEM_STAT:
	case SEM_STAT_ANY:
		return semctl_stat(semid, cmd, p);
	case GETALL:
	case GETVAL:
	case GETPID:
	case GETNCNT:
	case GETZCNT:
	case SETALL:
		return semctl_main(semid, semnum, cmd, p);
	case SETVAL:
		return semctl_setval(semid, semnum, (int)arg);
	case IPC_SET:
	case IPC_RMID:
		return semctl_down(semid, cmd, p);
	}
	return -EINVAL;
}

void copy_semundo(unsigned long clone_flags, struct task_struct *p)
{
	if (clone_flags & CLONE_SYSVSEM) {
		p->sysvsem = get_undo_list();
		p->sysvsem->refcnt++;
	} else {
		p->sysvsem = NULL;
	}
}

void exit_sem(struct task_struct *tsk)
{
	struct sem_undo_list *ulp = tsk->sysvsem;
	struct sem_undo *un, *tu;

	if (!ulp)
		return;
	tsk->sysvsem = NULL;
	if (--ulp->refcnt)
		return;
	list_for_each_entry_safe(un, tu, &ulp->list_proc, list_proc) {
		struct sem_array *sma = un->semid == -1 ? NULL : sem_obtain_object_check(un->semid);
		int i;

		if (sma) {
			list_del_init(&un->list_id);
			for (i = 0; i < sma->sem_nsems; i++) {
				struct sem *s = &sma->sems[i];

				if (!un->semadj[i])
					continue;
				s->semval += un->semadj[i];
				s->semval = min(max(s->semval, 0), SEMVMX);
				s->sempid = tsk->tgid;
			}
			update_queue(sma);
		}
		list_del_init(&un->list_proc);
		kfree(un->semadj);
		kfree(un);
	}
	kfree(ulp);
}

int sysvipc_sem_show(char *buf, size_t size)
{
	int n = ksnprintf(buf, size, "       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n");
	int idx;

	for (idx = 0; idx <= sem_ids.max_idx; idx++) {
		struct kern_ipc_perm *p = ipc_obtain_object_idr(&sem_ids, idx);
		struct sem_array *sma;

		if (!p || (size_t)n >= size)
			continue;
		sma = container_of(p, struct sem_array, sem_perm);
		n += ksnprintf(buf + n, size - n, "%10d %10d  %4o %10u %5u %5u %5u %5u %10ld %10ld\n",
			       p->key, p->id, p->mode, sma->sem_nsems, p->uid, p->gid, p->cuid,
			       p->cgid, sma->sem_otime, sma->sem_ctime);
	}
	return n;
}
