/*
 * kernel/rseq.c: restartable sequences (kernel/rseq.c).
 *
 * A thread registers a struct rseq (include/umk/uapi/rseq.h) with rseq().
 * The kernel then keeps its cpu_id_start, cpu_id, node_id and mm_cid
 * current (on umk's one CPU: 0, 0, 0 and 0), and aborts a critical section
 * the thread was preempted or signalled in: on its way back to user mode,
 * an ip inside [start_ip, start_ip + post_commit_offset) of the section
 * rseq_cs names moves to abort_ip, whose preceding 4 bytes must hold the
 * signature given at registration.
 *
 * As Linux, the work is done on the way back to user mode
 * (TIF_NOTIFY_RESUME, set by registration and by schedule() when it
 * switches a registered thread out) and at signal delivery, before the
 * frame is built; a fault or a malformed rseq_cs there is SIGSEGV. clone
 * with CLONE_VM clears the registration, exec drops it.
 */
#include <umk/errno.h>
#include <umk/ptrace.h>
#include <umk/rseq.h>
#include <umk/sched.h>
#include <umk/mm.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/rseq.h>
#include <umk/uapi/sched.h>

#include <umk/sched/signal.h>

#define RSEQ_EVENT_PREEMPT (1UL << 0)
#define RSEQ_EVENT_SIGNAL (1UL << 1)

/* Ask for rseq_handle_notify_resume on t's next way back to user mode. */
static void rseq_set_notify_resume(struct task_struct *t)
{
	if (t->rseq)
		set_ti_flag(task_thread_info(t), TIF_NOTIFY_RESUME);
}

void rseq_preempt(struct task_struct *t)
{
	t->rseq_event_mask |= RSEQ_EVENT_PREEMPT;
	rseq_set_notify_resume(t);
}

static int rseq_update_cpu_node_id(struct task_struct *t)
{
	struct rseq __user *rseq = t->rseq;
	u32 cpu_id = 0, node_id = 0, mm_cid = 0;	/* one CPU, one node */

	if (put_user(cpu_id, &rseq->cpu_id_start) || put_user(cpu_id, &rseq->cpu_id) ||
	    put_user(node_id, &rseq->node_id) || put_user(mm_cid, &rseq->mm_cid))
		return -EFAULT;
	return 0;
}

/* Unregistration leaves the area as a thread that never registered sees
 * it: cpu_id says "uninitialized". */
static int rseq_reset_rseq_cpu_node_id(struct task_struct *t)
{
	struct rseq __user *rseq = t->rseq;

	if (put_user((u32)0, &rseq->cpu_id_start) ||
	    put_user(RSEQ_CPU_ID_UNINITIALIZED, &rseq->cpu_id) ||
	    put_user((u32)0, &rseq->node_id) || put_user((u32)0, &rseq->mm_cid))
		return -EFAULT;
	return 0;
}

static int clear_rseq_cs(struct rseq __user *rseq)
{
	return put_user((u64)0, &rseq->rseq_cs);
}

/* Read and check the critical section t->rseq names (a zeroed one when
 * there is none). -EINVAL for one that lies outside user space, wraps,
 * holds its own abort_ip, or whose signature is not t's. */
static int rseq_get_rseq_cs(struct task_struct *t, struct rseq_cs *cs)
{
	u64 ptr;
	u32 sig;

	if (get_user(ptr, &t->rseq->rseq_cs))
		return -EFAULT;
	if (!ptr) {
		memset(cs, 0, sizeof(*cs));
		return 0;
	}
	if (ptr >= TASK_SIZE)
		return -EINVAL;
	if (copy_from_user(cs, (const void __user *)ptr, sizeof(*cs)))
		return -EFAULT;
	if (cs->start_ip >= TASK_SIZE || cs->start_ip + cs->post_commit_offset >= TASK_SIZE ||
	    cs->abort_ip >= TASK_SIZE || cs->version > 0)
		return -EINVAL;
	if (cs->start_ip + cs->post_commit_offset < cs->start_ip)
		return -EINVAL;
	if (cs->abort_ip - cs->start_ip < cs->post_commit_offset)
		return -EINVAL;
	if (get_user(sig, (u32 __user *)(cs->abort_ip - sizeof(u32))))
		return -EFAULT;
	return sig == t->rseq_sig ? 0 : -EINVAL;
}

/* 1 if an event since the last fixup calls for the abort, 0 if not; flags
 * (the deprecated no-restart ones included) are -EINVAL. */
static int rseq_need_restart(struct task_struct *t, u32 cs_flags)
{
	u32 flags;
	unsigned long events;

	if (cs_flags)
		return -EINVAL;
	if (get_user(flags, &t->rseq->flags))
		return -EFAULT;
	if (flags)
		return -EINVAL;
	events = t->rseq_event_mask;
	t->rseq_event_mask = 0;
	return !!events;
}

static int rseq_ip_fixup(struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct rseq_cs cs;
	int ret;

	ret = rseq_get_rseq_cs(t, &cs);
	if (ret)
		return ret;
	/* outside a critical section: only clear rseq_cs (lazily, as Linux) */
	if (regs->ip - cs.start_ip >= cs.post_commit_offset)
		return clear_rseq_cs(t->rseq);
	ret = rseq_need_restart(t, cs.flags);
	if (ret <= 0)
		return ret;
	ret = clear_rseq_cs(t->rseq);
	if (ret)
		return ret;
	regs->ip = cs.abort_ip;
	return 0;
}

/* Linux's __rseq_handle_notify_resume: sig is the signal being delivered
 * (0 on the plain way back to user mode), for force_sigsegv. */
void rseq_handle_notify_resume(int sig, struct pt_regs *regs)
{
	struct task_struct *t = current;

	if (!t->rseq)
		return;
	if (rseq_ip_fixup(regs) < 0 || rseq_update_cpu_node_id(t))
		force_sigsegv(sig);
}

void rseq_signal_deliver(int sig, struct pt_regs *regs)
{
	current->rseq_event_mask |= RSEQ_EVENT_SIGNAL;
	rseq_handle_notify_resume(sig, regs);
}

void rseq_execve(struct task_struct *t)
{
	t->rseq = NULL;
	t->rseq_len = 0;
	t->rseq_sig = 0;
	t->rseq_event_mask = 0;
}

void rseq_fork(struct task_struct *t, unsigned long clone_flags)
{
	if (clone_flags & CLONE_VM) {
		rseq_execve(t);
	} else {
		t->rseq = current->rseq;
		t->rseq_len = current->rseq_len;
		t->rseq_sig = current->rseq_sig;
		t->rseq_event_mask = current->rseq_event_mask;
	}
}

/*
 * Register rseq for the calling thread, or unregister it with
 * RSEQ_FLAG_UNREGISTER. Linux's checks, in its order: unknown flags and a
 * wrong area or length are -EINVAL, a wrong signature -EPERM, a second
 * registration of the same area -EBUSY; the area must be 32-byte aligned
 * and at least 32 bytes. A stale rseq_cs in it is cleared.
 */
long sys_rseq(struct rseq __user *rseq, u32 rseq_len, int flags, u32 sig)
{
	struct task_struct *t = current;
	u64 rseq_cs;
	int ret;

	if (flags & RSEQ_FLAG_UNREGISTER) {
		if (flags & ~RSEQ_FLAG_UNREGISTER)
			return -EINVAL;
		if (t->rseq != rseq || !t->rseq)
			return -EINVAL;
		if (rseq_len != t->rseq_len)
			return -EINVAL;
		if (t->rseq_sig != sig)
			return -EPERM;
		ret = rseq_reset_rseq_cpu_node_id(t);
		if (ret)
			return ret;
		rseq_execve(t);
		return 0;
	}
	if (flags)
		return -EINVAL;
	if (t->rseq) {
		if (t->rseq != rseq || rseq_len != t->rseq_len)
			return -EINVAL;
		if (t->rseq_sig != sig)
			return -EPERM;
		return -EBUSY;
	}
	if (rseq_len < ORIG_RSEQ_SIZE ||
	    (rseq_len == ORIG_RSEQ_SIZE && (unsigned long)rseq % ORIG_RSEQ_SIZE) ||
	    (rseq_len != ORIG_RSEQ_SIZE && ((unsigned long)rseq % __alignof__(*rseq) ||
					    rseq_len < offsetof(struct rseq, end))))
		return -EINVAL;
	if (!access_ok(rseq, rseq_len))
		return -EFAULT;
	if (get_user(rseq_cs, &rseq->rseq_cs))
		return -EFAULT;
	if (rseq_cs && clear_rseq_cs(rseq))
		return -EFAULT;
	t->rseq = rseq;
	t->rseq_len = rseq_len;
	t->rseq_sig = sig;
	rseq_set_notify_resume(t);
	return 0;
}
