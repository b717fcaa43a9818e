/*
 * kernel/futex.c: fast user-space mutexes, after Linux's kernel/futex/
 * (core.c, syscalls.c, waitwake.c). Interface: sys_futex with FUTEX_WAIT,
 * FUTEX_WAKE, FUTEX_WAIT_BITSET and FUTEX_WAKE_BITSET (FUTEX_PRIVATE_FLAG and
 * FUTEX_CLOCK_REALTIME accepted, other commands -ENOSYS), and futex_wake()
 * for CLONE_CHILD_CLEARTID at exit.
 *
 * A waiter is a struct futex_q on its own kernel stack, queued on
 * futex_queue from the moment it has read the futex word until it returns.
 * futex_wake takes a woken waiter off the queue before waking it: "off the
 * queue" is how the waiter tells a futex wakeup from a timeout, a signal or
 * a spurious wakeup.
 *
 * The key is Linux's (struct futex_key): the mm and the address, or the
 * shared object and the offset for a shared futex in MAP_SHARED memory, and
 * whether the futex is shared (a FUTEX_PRIVATE_FLAG wait is not woken by a
 * shared wake, as on Linux, where FUT_OFF_MMSHARED tells them apart). Departure
 * from Linux: the queue is one FIFO list, not a hash of priority lists. No locks: kernel code is not preempted, so nothing can
 * change the word or wake us between reading it and queueing. A timeout is
 * a struct timer_list on CLOCK_MONOTONIC; a CLOCK_REALTIME deadline is
 * converted once when the wait starts.
 *
 * The robust list (set_robust_list, get_robust_list): a thread names a
 * list of the futexes it holds; when it exits or execs, exit_robust_list
 * marks those it still owns FUTEX_OWNER_DIED and wakes one waiter of each,
 * so that another thread's pthread_mutex_lock returns EOWNERDEAD.
 *
 * A signal ends a wait with -ERESTARTSYS; a timed wait turns that into
 * -ERESTART_RESTARTBLOCK with the absolute deadline in restart_block.futex,
 * so restart_syscall resumes it until the same deadline (futex_wait_restart)
 * rather than restart the whole relative timeout; a handler makes it -EINTR
 * whatever SA_RESTART says. An untimed wait restarts as itself.
 */
#include <umk/errno.h>
#include <umk/futex.h>
#include <umk/list.h>
#include <umk/mm.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>


/* What a waiter and a waker must agree on (Linux's union futex_key): the
 * address space and the address, or, for a shared futex in MAP_SHARED
 * memory, the shared object and the offset in it, which every process
 * mapping it finds wherever it maps it. */
struct futex_key {
	const void *base;		/* the mm, or the struct hostmem */
	u64 offset;			/* the address, or the offset */
	bool shared;			/* not FUTEX_PRIVATE_FLAG */
};

struct futex_q {
	struct list_head list;		/* in futex_queue while waiting */
	struct task_struct *task;
	struct futex_key key;
	u32 bitset;
};

static void get_futex_key(u32 __user *uaddr, unsigned int flags, struct futex_key *key)
{
	struct hostmem *obj;
	u64 off;

	key->shared = flags & FLAGS_SHARED;
	if (key->shared && mm_shared_key(current->mm, (unsigned long)uaddr, &obj, &off)) {
		key->base = obj;
		key->offset = off;
	} else {
		key->base = current->mm;
		key->offset = (unsigned long)uaddr;
	}
}

static bool futex_key_equal(const struct futex_key *a, const struct futex_key *b)
{
	return a->base == b->base && a->offset == b->offset && a->shared == b->shared;
}

static LIST_HEAD(futex_queue);

/* Linux's get_futex_key checks, in its order: alignment, an address
 * below TASK_SIZE (access_ok: a private futex needs no page, so a wake on
 * an unmapped one succeeds), and for a shared futex the page it is keyed
 * on. */
static long futex_check_addr(u32 __user *uaddr, unsigned int flags)
{
	unsigned long addr = (unsigned long)uaddr;

	if (addr % sizeof(u32))
		return -EINVAL;
	if (addr > TASK_SIZE_MAX - sizeof(u32))
		return -EFAULT;
	if ((flags & FLAGS_SHARED) && !mm_futex_page_ok(current->mm, addr))
		return -EFAULT;
	return 0;
}

/* An absolute deadline on the futex's clock as a CLOCK_MONOTONIC expiry. */
static u64 futex_expires(s64 abs_time, unsigned int flags)
{
	s64 t = abs_time;

	if (flags & FLAGS_CLOCKRT)
		t -= clock_get_ns(CLOCK_REALTIME) - (s64)ktime_get();
	return t < 0 ? 0 : (u64)t;
}

static long futex_wait_restart(struct restart_block *restart);

/*
 * Wait while *uaddr == val, until futex_wake (0), the deadline abs_time if
 * not NULL (-ETIMEDOUT) or a signal (-ERESTARTSYS; -ERESTART_RESTARTBLOCK
 * with a deadline). A word that differs gives -EAGAIN at once. Linux's
 * futex_wait, with the queueing inline.
 */
static long futex_wait(u32 __user *uaddr, unsigned int flags, u32 val, const s64 *abs_time,
		       u32 bitset)
{
	struct restart_block *restart;
	struct hrtimer_sleeper to;
	struct futex_q q;
	u32 uval;
	long ret;

	if (!bitset)
		return -EINVAL;
	ret = futex_check_addr(uaddr, flags);
	if (ret)
		return ret;

	/* Timers run only at interrupt replay, never between here and the
	 * schedule() below, so the timer can be armed before queueing. */
	if (abs_time) {
		hrtimer_sleeper_start(&to, futex_expires(*abs_time, flags), "futex");
	}

retry:
	if (get_user(uval, uaddr)) {
		ret = -EFAULT;
		goto out;
	}
	if (uval != val) {
		ret = -EAGAIN;
		goto out;
	}
	q.task = current;
	get_futex_key(uaddr, flags, &q.key);
	q.bitset = bitset;
	set_current_state(TASK_INTERRUPTIBLE);
	list_add_tail(&q.list, &futex_queue);
	if ((!abs_time || to.task) && !signal_pending(current))
		schedule();
	set_current_state(TASK_RUNNING);

	if (list_empty(&q.list)) {
		ret = 0;			/* futex_wake dequeued us */
		goto out;
	}
	list_del_init(&q.list);
	ret = -ETIMEDOUT;
	if (abs_time && !to.task)
		goto out;
	if (!signal_pending(current))
		goto retry;			/* spurious wakeup */
	ret = -ERESTARTSYS;
	if (!abs_time)
		goto out;

	restart = &current_thread_info()->restart_block;
	restart->futex.uaddr = uaddr;
	restart->futex.val = val;
	restart->futex.time = *abs_time;
	restart->futex.bitset = bitset;
	restart->futex.flags = flags | FLAGS_HAS_TIMEOUT;
	set_restart_fn(restart, futex_wait_restart);
	ret = -ERESTART_RESTARTBLOCK;
out:
	if (abs_time)
		hrtimer_sleeper_cancel(&to);
	return ret;
}

/* restart_syscall's continuation: the same wait, until the same deadline
 * (on the same clock). */
static long futex_wait_restart(struct restart_block *restart)
{
	u32 __user *uaddr = restart->futex.uaddr;
	s64 t, *tp = NULL;

	if (restart->futex.flags & FLAGS_HAS_TIMEOUT) {
		t = (s64)restart->futex.time;
		tp = &t;
	}
	set_restart_fn(restart, do_no_restart_syscall);
	return futex_wait(uaddr, restart->futex.flags, restart->futex.val, tp,
			  restart->futex.bitset);
}

/* Wake up to nr_wake waiters on uaddr whose bitset meets bitset, oldest
 * first; at least one, as Linux does for nr_wake <= 0. */
static long futex_wake_bitset(u32 __user *uaddr, unsigned int flags, int nr_wake, u32 bitset)
{
	struct futex_key key;
	struct futex_q *q, *n;
	long ret;

	if (!bitset)
		return -EINVAL;
	ret = futex_check_addr(uaddr, flags);
	if (ret)
		return ret;
	get_futex_key(uaddr, flags, &key);
	list_for_each_entry_safe(q, n, &futex_queue, list) {
		if (!futex_key_equal(&q->key, &key) || !(q->bitset & bitset))
			continue;
		list_del_init(&q->list);
		wake_up_process(q->task);
		if (++ret >= nr_wake)
			break;
	}
	return ret;
}

int futex_wake(u32 __user *uaddr, int nr)
{
	return futex_wake_bitset(uaddr, FLAGS_SHARED, nr, FUTEX_BITSET_MATCH_ANY);
}

static long do_futex(u32 __user *uaddr, int op, u32 val, const s64 *timeout, u32 val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	unsigned int flags = op & FUTEX_PRIVATE_FLAG ? 0 : FLAGS_SHARED;

	if (op & FUTEX_CLOCK_REALTIME) {
		flags |= FLAGS_CLOCKRT;
		if (cmd != FUTEX_WAIT_BITSET)
			return -ENOSYS;
	}
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, flags, val, timeout, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET:
		return futex_wake_bitset(uaddr, flags, (int)val, val3);
	}
	return -ENOSYS;
}

/*
 * The timeout is read (and checked) before anything else, as Linux's
 * sys_futex does. FUTEX_WAIT's is relative to now on CLOCK_MONOTONIC;
 * FUTEX_WAIT_BITSET's is absolute, on CLOCK_REALTIME with the flag. Both
 * saturate rather than overflow.
 */
long sys_futex(u32 __user *uaddr, int op, u32 val, const struct __kernel_timespec __user *utime,
	       u32 __user *uaddr2, u32 val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	s64 t, *tp = NULL;

	if (utime && (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET)) {
		struct __kernel_timespec ts;

		if (get_timespec64(&ts, utime))
			return -EFAULT;
		if (!timespec64_valid(&ts))
			return -EINVAL;
		t = timespec_to_ns(&ts);
		if (cmd == FUTEX_WAIT) {
			s64 now = ktime_get();

			t = ktime_add_safe(now, t);
		}
		tp = &t;
	}
	return do_futex(uaddr, op, val, tp, val3);
}

/* ---- robust futexes (kernel/futex/core.c, kernel/futex/syscalls.c) ---- */

long sys_set_robust_list(struct robust_list_head __user *head, size_t len)
{
	if (len != sizeof(*head))
		return -EINVAL;
	current->robust_list = head;
	return 0;
}

/* Another thread's list needs the right to read its memory (ptrace). */
long sys_get_robust_list(int pid, struct robust_list_head __user *__user *head_ptr,
			 size_t __user *len_ptr)
{
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;

	if (!p || p == idle_task)
		return -ESRCH;
	if (!ptrace_may_access(p))
		return -EPERM;
	if (put_user(sizeof(*p->robust_list), len_ptr))
		return -EFAULT;
	return put_user(p->robust_list, head_ptr);
}

/* The entry pointer stored at user address addr: bit 0 says "PI futex".
 * A list is user data that may point anywhere, misaligned included, so
 * its addresses are kept as numbers and only ever copied from. */
static int fetch_robust_entry(unsigned long *entry, unsigned long addr, bool *pi)
{
	unsigned long uentry;

	if (get_user(uentry, (unsigned long __user *)addr))
		return -EFAULT;
	*entry = uentry & ~1UL;
	*pi = uentry & 1;
	return 0;
}

/*
 * The dying thread curr may hold the futex at uaddr: if its tid is the
 * owner, set FUTEX_OWNER_DIED (keeping FUTEX_WAITERS) and wake a waiter if
 * there were some. The op pending when it died (pending_op) may have
 * released the futex just before: a free one gets a wakeup all the same.
 * -1 stops the walk (a misaligned or unreadable word). One CPU and no
 * preemption: Linux's cmpxchg is a read and a write here.
 */
static int handle_futex_death(unsigned long addr, struct task_struct *curr, bool pi,
			      bool pending_op)
{
	u32 __user *uaddr = (u32 __user *)addr;
	u32 uval;
	pid_t owner;

	if (addr % sizeof(u32))
		return -1;
	if (get_user(uval, uaddr))
		return -1;
	owner = uval & FUTEX_TID_MASK;
	if (pending_op && !pi && !owner) {
		futex_wake(uaddr, 1);
		return 0;
	}
	if (owner != curr->pid)
		return 0;
	if (put_user((uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED, uaddr))
		return -1;
	/* umk has no PI futexes: a PI entry is only marked */
	if (!pi && (uval & FUTEX_WAITERS))
		futex_wake(uaddr, 1);
	return 0;
}

/* Walk curr's robust list (at most ROBUST_LIST_LIMIT entries: it may be
 * circular or endless), then the pending op; Linux's exit_robust_list. A
 * fault ends the walk quietly. */
static void exit_robust_list(struct task_struct *curr)
{
	unsigned long head = (unsigned long)curr->robust_list;
	unsigned long entry, next_entry, pending, futex_offset;
	unsigned int limit = ROBUST_LIST_LIMIT;
	bool pi, next_pi, pip;
	int rc;

	if (fetch_robust_entry(&entry, head + offsetof(struct robust_list_head, list), &pi))
		return;
	if (get_user(futex_offset,
		     (unsigned long __user *)(head + offsetof(struct robust_list_head, futex_offset))))
		return;
	if (fetch_robust_entry(&pending, head + offsetof(struct robust_list_head, list_op_pending),
			       &pip))
		return;

	/* the list ends where it started: at the head's own list member */
	while (entry != head + offsetof(struct robust_list_head, list)) {
		rc = fetch_robust_entry(&next_entry, entry + offsetof(struct robust_list, next),
					&next_pi);
		/* a pending lock may already be on the list: once only */
		if (entry != pending && handle_futex_death(entry + futex_offset, curr, pi, false))
			return;
		if (rc)
			return;
		entry = next_entry;
		pi = next_pi;
		if (!--limit)
			break;
	}
	if (pending)
		handle_futex_death(pending + futex_offset, curr, pip, true);
}

void futex_exit_release(struct task_struct *tsk)
{
	if (tsk->robust_list) {
		exit_robust_list(tsk);
		tsk->robust_list = NULL;
	}
}

void futex_exec_release(struct task_struct *tsk)
{
	futex_exit_release(tsk);
}
