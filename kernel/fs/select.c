/*
 * kernel/fs/select.c: poll, ppoll, select and pselect6, after Linux's
 * fs/select.c. Interface: the four system calls; the files they wait on
 * take part through f_op->poll, the readiness interface of
 * include/umk/poll.h (ready events now, and poll_wait on each queue to
 * sleep on).
 *
 * A call scans its descriptors; on the first scan each file's poll entry
 * (struct poll_table_entry) is queued on that file's wait queue, holding a
 * reference to the file until poll_freewait. With nothing ready the task
 * sleeps until a wakeup on any of those queues, the end time or a signal,
 * and scans again. Times are absolute CLOCK_MONOTONIC end times, as Linux's
 * struct timespec64 end_time; {0, 0} means "do not wait".
 *
 * Interrupted by a signal, the scan returns -ERESTARTNOHAND. poll turns it
 * into -ERESTART_RESTARTBLOCK with the absolute end time in restart_block,
 * so restart_syscall resumes the same wait (do_restart_poll). ppoll, select
 * and pselect6 write the time left back to the user's timeout instead
 * (poll_select_finish), so a restart restarts with what was left; if that
 * write fails they return -EINTR, as they cannot be restarted.
 *
 * poll's descriptor limit is the soft RLIMIT_NOFILE, as on Linux.
 * Departures from Linux: select's bits are capped at
 * NR_OPEN_DEFAULT, umk's fixed fd table size (Linux: the table's current
 * max_fds); no timer slack. A file's wake_up_poll names the events that
 * became true, and wakes only pollers that wait for one of them (pollwake);
 * a plain wake_up wakes every poller, and each rescans. No triggered flag: kernel code is not
 * preempted and interrupts are replayed only on the way to user mode or in
 * the idle task, so no wakeup can come between a scan and the sleep after
 * it.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/poll.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>

#define USEC_PER_SEC 1000000L
#define MSEC_PER_SEC 1000L

/* ---- times ---- */

/* The end time for a timeout of sec, nsec from now: -EINVAL if they are
 * not normalized; {0, 0} for a zero timeout. */
static int poll_select_set_timeout(struct __kernel_timespec *to, s64 sec, long nsec)
{
	struct __kernel_timespec ts = { .tv_sec = sec, .tv_nsec = nsec };

	if (!timespec64_valid(&ts))
		return -EINVAL;
	if (!sec && !nsec) {
		to->tv_sec = 0;
		to->tv_nsec = 0;
	} else {
		*to = timespec64_add_safe(ktime_get_ts64(), ts);
	}
	return 0;
}

/* The timeout of pselect6 and ppoll: *to is NULL for none (tsp NULL),
 * else end, set to the end time of the program's timespec at tsp. */
static int get_end_time(const struct __kernel_timespec __user *tsp, struct __kernel_timespec *end,
			struct __kernel_timespec **to)
{
	struct __kernel_timespec ts;

	*to = NULL;
	if (!tsp)
		return 0;
	if (get_timespec64(&ts, tsp))
		return -EFAULT;
	*to = end;
	return poll_select_set_timeout(end, ts.tv_sec, ts.tv_nsec) ? -EINVAL : 0;
}

enum poll_time_type {
	PT_TIMEVAL,
	PT_TIMESPEC,
};

/*
 * Every call but poll ends here: the temporary signal mask goes back unless
 * the call was interrupted (then the signal code restores it), and a
 * non-zero timeout at p is overwritten with the time left. Precondition:
 * end_time was set if p is not NULL.
 */
static int poll_select_finish(struct __kernel_timespec *end_time, void __user *p,
			      enum poll_time_type pt_type, int ret)
{
	struct __kernel_timespec rts;

	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	if (!p)
		return ret;
	/* No update for zero timeout */
	if (!end_time->tv_sec && !end_time->tv_nsec)
		return ret;

	rts = ktime_get_ts64();
	rts.tv_sec = end_time->tv_sec - rts.tv_sec;
	rts.tv_nsec = end_time->tv_nsec - rts.tv_nsec;
	if (rts.tv_nsec < 0) {
		rts.tv_sec--;
		rts.tv_nsec += NSEC_PER_SEC;
	}
	if (rts.tv_sec < 0)
		rts.tv_sec = rts.tv_nsec = 0;

	switch (pt_type) {
	case PT_TIMEVAL: {
		struct __kernel_old_timeval rtv = {
			.tv_sec = rts.tv_sec,
			.tv_usec = rts.tv_nsec / NSEC_PER_USEC,
		};

		if (!copy_to_user(p, &rtv, sizeof(rtv)))
			return ret;
		break;
	}
	case PT_TIMESPEC:
		if (!copy_to_user(p, &rts, sizeof(rts)))
			return ret;
		break;
	}
	/* The time left could not be written back (a read-only timeout):
	 * restarting would wait the whole timeout again. */
	if (ret == -ERESTARTNOHAND)
		ret = -EINTR;
	return ret;
}

/* ---- the poll table: one entry per file queue waited on ---- */

struct poll_wqueues;

struct poll_table_entry {
	struct file *filp;			/* owns one reference */
	__poll_t key;				/* the events waited for */
	struct wait_queue_entry wait;		/* on wait_address, func pollwake */
	struct wait_queue_head *wait_address;
};

#define N_INLINE_POLL_ENTRIES 16
#define POLL_TABLE_PAGE_ENTRIES 64

struct poll_table_page {
	struct poll_table_page *next;
	int nr;
	struct poll_table_entry entries[POLL_TABLE_PAGE_ENTRIES];
};

/* Linux's struct poll_wqueues: pt._qproc is __pollwait on the first scan
 * until something is ready, then NULL (the later scans only look). */
struct poll_wqueues {
	poll_table pt;
	struct task_struct *polling_task;
	struct poll_table_page *table;	/* overflow pages, newest first */
	int inline_index;
	struct poll_table_entry inline_entries[N_INLINE_POLL_ENTRIES];
};

static void __pollwait(struct file *filp, struct wait_queue_head *wait_address, poll_table *p);

static void poll_initwait(struct poll_wqueues *pwq)
{
	init_poll_funcptr(&pwq->pt, __pollwait);
	pwq->polling_task = current;
	pwq->table = NULL;
	pwq->inline_index = 0;
}

static void free_poll_entry(struct poll_table_entry *entry)
{
	remove_wait_queue(entry->wait_address, &entry->wait);
	fput(entry->filp);
}

static void poll_freewait(struct poll_wqueues *pwq)
{
	struct poll_table_page *p = pwq->table, *old;
	int i;

	for (i = 0; i < pwq->inline_index; i++)
		free_poll_entry(pwq->inline_entries + i);
	while (p) {
		for (i = 0; i < p->nr; i++)
			free_poll_entry(p->entries + i);
		old = p;
		p = p->next;
		kfree(old);
	}
}

static struct poll_table_entry *poll_get_entry(struct poll_wqueues *p)
{
	struct poll_table_page *table = p->table;

	if (p->inline_index < N_INLINE_POLL_ENTRIES)
		return p->inline_entries + p->inline_index++;
	if (!table || table->nr == POLL_TABLE_PAGE_ENTRIES) {
		table = kmalloc(sizeof(*table));
		table->next = p->table;
		p->table = table;
	}
	return table->entries + table->nr++;
}

/* A wake-up on a queue waited on: the polling task wakes if one of the
 * events it waits for is among the key's (a plain wake_up's are all). */
static int pollwake(struct wait_queue_entry *wait, unsigned int mode, void *key)
{
	struct poll_table_entry *entry = container_of(wait, struct poll_table_entry, wait);

	if (!(key_to_poll(key) & entry->key))
		return 0;
	return default_wake_function(wait, mode, key);
}

/* poll_wait's work for poll and select: an entry on the file's queue that
 * wakes the polling task, holding a reference to the file until
 * poll_freewait. */
static void __pollwait(struct file *filp, struct wait_queue_head *wait_address, poll_table *p)
{
	struct poll_wqueues *pwq = container_of(p, struct poll_wqueues, pt);
	struct poll_table_entry *entry = poll_get_entry(pwq);

	entry->filp = get_file(filp);
	entry->wait_address = wait_address;
	entry->key = p->_key;
	entry->wait.flags = 0;
	entry->wait.task = pwq->polling_task;
	entry->wait.func = pollwake;
	INIT_LIST_HEAD(&entry->wait.entry);
	add_wait_queue(wait_address, &entry->wait);
}

/* f's ready events for a caller waiting for events (poll_table's _key),
 * queueing on f's queues on the first scan; drops fget's reference. */
static __poll_t poll_file(struct file *f, struct poll_wqueues *pwq, __poll_t events)
{
	__poll_t mask;

	pwq->pt._key = events;
	mask = vfs_poll(f, &pwq->pt);
	fput(f);
	return mask;
}

/*
 * Sleep in state until a wakeup on one of the table's queues, a signal, or
 * expires (CLOCK_MONOTONIC ns; NULL: no end). Returns 0 if expires passed,
 * -EINTR otherwise (poll_schedule_timeout with schedule_hrtimeout_range).
 */
static int poll_schedule_timeout(struct poll_wqueues *pwq, long state, const u64 *expires)
{
	struct hrtimer_sleeper to;
	int rc = -EINTR;

	set_current_state(state);
	if (!expires) {
		schedule();
	} else {
		hrtimer_sleeper_start(&to, *expires, "poll");
		if (to.task)
			schedule();
		hrtimer_sleeper_cancel(&to);
		if (!to.task)
			rc = 0;
	}
	set_current_state(TASK_RUNNING);
	return rc;
}

/* ---- select ---- */

#define FDS_BITPERLONG (8 * sizeof(long))
#define FDS_LONGS(nr) (((nr) + FDS_BITPERLONG - 1) / FDS_BITPERLONG)
#define FDS_BYTES(nr) (FDS_LONGS(nr) * sizeof(long))
#define FDS_MAX_LONGS FDS_LONGS(NR_OPEN_DEFAULT)

typedef struct {
	unsigned long in[FDS_MAX_LONGS], out[FDS_MAX_LONGS], ex[FDS_MAX_LONGS];
	unsigned long res_in[FDS_MAX_LONGS], res_out[FDS_MAX_LONGS], res_ex[FDS_MAX_LONGS];
} fd_set_bits;

/* A NULL set reads as empty. */
static int get_fd_set(unsigned long nr, __kernel_fd_set __user *ufdset, unsigned long *fdset)
{
	nr = FDS_BYTES(nr);
	if (ufdset)
		return copy_from_user(fdset, ufdset, nr) ? -EFAULT : 0;
	memset(fdset, 0, nr);
	return 0;
}

static unsigned long set_fd_set(unsigned long nr, __kernel_fd_set __user *ufdset,
				unsigned long *fdset)
{
	if (ufdset)
		return copy_to_user(ufdset, fdset, FDS_BYTES(nr));
	return 0;
}

/* One more than the highest fd in the sets, or -EBADF if one is not open. */
static int max_select_fd(unsigned long n, fd_set_bits *fds)
{
	struct files_struct *files = current->files;
	unsigned long fd;
	int max = 0;

	for (fd = 0; fd < n; fd++) {
		unsigned long bit = 1UL << (fd % FDS_BITPERLONG), i = fd / FDS_BITPERLONG;

		if (!((fds->in[i] | fds->out[i] | fds->ex[i]) & bit))
			continue;
		if (!files->fd[fd])
			return -EBADF;
		max = fd + 1;
	}
	return max;
}

#define POLLIN_SET (POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET (POLLPRI)

static int do_select(int n, fd_set_bits *fds, struct __kernel_timespec *end_time)
{
	u64 expire, *to = NULL;
	struct poll_wqueues table;
	int retval, i, timed_out = 0;

	retval = max_select_fd(n, fds);
	if (retval < 0)
		return retval;
	n = retval;

	poll_initwait(&table);
	if (end_time && !end_time->tv_sec && !end_time->tv_nsec) {
		table.pt._qproc = NULL;
		timed_out = 1;
	}

	retval = 0;
	for (;;) {
		for (i = 0; i < n; i++) {
			unsigned long bit = 1UL << (i % FDS_BITPERLONG);
			int w = i / FDS_BITPERLONG;
			unsigned long in = fds->in[w], out = fds->out[w], ex = fds->ex[w];
			unsigned int mask;
			struct file *f;

			if (!((in | out | ex) & bit))
				continue;
			/* Closed by another thread since max_select_fd:
			 * skipped, as Linux does. */
			f = fget(i);
			if (!f)
				continue;
			mask = poll_file(f, &table, ((in & bit) ? POLLIN_SET : 0) |
						       ((out & bit) ? POLLOUT_SET : 0) |
						       ((ex & bit) ? POLLEX_SET : 0));
			if ((mask & POLLIN_SET) && (in & bit)) {
				fds->res_in[w] |= bit;
				retval++;
				table.pt._qproc = NULL;
			}
			if ((mask & POLLOUT_SET) && (out & bit)) {
				fds->res_out[w] |= bit;
				retval++;
				table.pt._qproc = NULL;
			}
			if ((mask & POLLEX_SET) && (ex & bit)) {
				fds->res_ex[w] |= bit;
				retval++;
				table.pt._qproc = NULL;
			}
		}
		table.pt._qproc = NULL;
		if (retval || timed_out || signal_pending(current))
			break;

		/* The first time we sleep, the end time becomes an expiry. */
		if (end_time && !to) {
			expire = timespec_to_ns(end_time);
			to = &expire;
		}
		if (!poll_schedule_timeout(&table, TASK_INTERRUPTIBLE, to))
			timed_out = 1;
	}
	poll_freewait(&table);
	return retval;
}

/*
 * select's body. A signal with nothing ready gives -ERESTARTNOHAND, which
 * restarts only when no handler runs (Linux: "ERESTARTSYS breaks at least
 * the xview clock binary").
 */
static int core_sys_select(int n, __kernel_fd_set __user *inp, __kernel_fd_set __user *outp,
			   __kernel_fd_set __user *exp, struct __kernel_timespec *end_time)
{
	fd_set_bits fds;
	int ret;

	if (n < 0)
		return -EINVAL;
	if (n > NR_OPEN_DEFAULT)
		n = NR_OPEN_DEFAULT;

	if ((ret = get_fd_set(n, inp, fds.in)) ||
	    (ret = get_fd_set(n, outp, fds.out)) ||
	    (ret = get_fd_set(n, exp, fds.ex)))
		return ret;
	memset(fds.res_in, 0, sizeof(fds.res_in));
	memset(fds.res_out, 0, sizeof(fds.res_out));
	memset(fds.res_ex, 0, sizeof(fds.res_ex));

	ret = do_select(n, &fds, end_time);
	if (ret < 0)
		return ret;
	if (!ret) {
		ret = -ERESTARTNOHAND;
		if (signal_pending(current))
			return ret;
		ret = 0;
	}

	if (set_fd_set(n, inp, fds.res_in) ||
	    set_fd_set(n, outp, fds.res_out) ||
	    set_fd_set(n, exp, fds.res_ex))
		ret = -EFAULT;
	return ret;
}

long sys_select(int n, __kernel_fd_set __user *inp, __kernel_fd_set __user *outp,
		__kernel_fd_set __user *exp, struct __kernel_old_timeval __user *tvp)
{
	struct __kernel_timespec end_time, *to = NULL;
	struct __kernel_old_timeval tv;
	int ret;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		to = &end_time;
		if (poll_select_set_timeout(to, tv.tv_sec + (tv.tv_usec / USEC_PER_SEC),
					    (tv.tv_usec % USEC_PER_SEC) * NSEC_PER_USEC))
			return -EINVAL;
	}

	ret = core_sys_select(n, inp, outp, exp, to);
	return poll_select_finish(&end_time, tvp, PT_TIMEVAL, ret);
}

/* pselect6's sixth argument: the sigmask and its size, as one pointer. */
struct sigset_argpack {
	sigset_t __user *p;
	size_t size;
};

long sys_pselect6(int n, __kernel_fd_set __user *inp, __kernel_fd_set __user *outp,
		  __kernel_fd_set __user *exp, struct __kernel_timespec __user *tsp,
		  void __user *sig)
{
	struct sigset_argpack x = { NULL, 0 };
	struct __kernel_timespec end_time, *to;
	int ret;

	if (sig && copy_from_user(&x, sig, sizeof(x)))
		return -EFAULT;
	ret = get_end_time(tsp, &end_time, &to);
	if (ret)
		return ret;

	ret = set_user_sigmask(x.p, x.size);
	if (ret)
		return ret;

	ret = core_sys_select(n, inp, outp, exp, to);
	return poll_select_finish(&end_time, tsp, PT_TIMESPEC, ret);
}

/* ---- poll ---- */

/*
 * pollfd's events now, also in pollfd->revents: POLLNVAL for an fd that is
 * not open, nothing for a negative one, else what the file reports of
 * events, POLLERR and POLLHUP.
 */
static unsigned int do_pollfd(struct pollfd *pollfd, struct poll_wqueues *pwait)
{
	int fd = pollfd->fd;
	unsigned int mask = 0, filter;
	struct file *f;

	if (fd < 0)
		goto out;
	mask = POLLNVAL;
	f = fget(fd);
	if (!f)
		goto out;
	filter = (unsigned short)pollfd->events | POLLERR | POLLHUP;
	mask = poll_file(f, pwait, filter) & filter;
out:
	pollfd->revents = (short)mask;
	return mask;
}

static int do_poll(struct pollfd *fds, unsigned int nfds, struct poll_wqueues *wait,
		   struct __kernel_timespec *end_time)
{
	u64 expire, *to = NULL;
	int timed_out = 0, count = 0;
	unsigned int i;

	/* Optimise the no-wait case */
	if (end_time && !end_time->tv_sec && !end_time->tv_nsec) {
		wait->pt._qproc = NULL;
		timed_out = 1;
	}

	for (;;) {
		for (i = 0; i < nfds; i++) {
			/* Something ready: no point queueing on the rest. */
			if (do_pollfd(&fds[i], wait)) {
				count++;
				wait->pt._qproc = NULL;
			}
		}
		wait->pt._qproc = NULL;
		if (!count && signal_pending(current))
			count = -ERESTARTNOHAND;
		if (count || timed_out)
			break;

		/* The first time we sleep, the end time becomes an expiry. */
		if (end_time && !to) {
			expire = timespec_to_ns(end_time);
			to = &expire;
		}
		if (!poll_schedule_timeout(wait, TASK_INTERRUPTIBLE, to))
			timed_out = 1;
	}
	return count;
}

/*
 * The pollfd array is copied in whole (Linux: in page-sized chunks) and
 * every revents is written back, even after a signal; a fault writing them
 * back is -EFAULT whatever the scan found.
 */
static int do_sys_poll(struct pollfd __user *ufds, unsigned int nfds,
		       struct __kernel_timespec *end_time)
{
	struct poll_wqueues table;
	struct pollfd *fds;
	int err = -EFAULT, fdcount;
	unsigned int i;

	if (nfds > rlimit(RLIMIT_NOFILE))
		return -EINVAL;

	fds = kmalloc(nfds ? nfds * sizeof(*fds) : 1);
	if (copy_from_user(fds, ufds, nfds * sizeof(*fds)))
		goto out_fds;

	poll_initwait(&table);
	fdcount = do_poll(fds, nfds, &table, end_time);
	poll_freewait(&table);

	if (!access_ok(ufds, nfds * sizeof(*ufds)))
		goto out_fds;
	/* ufds may be misaligned: the address of each revents is computed,
	 * not taken as a member of a struct pollfd the C code never holds. */
	for (i = 0; i < nfds; i++) {
		short __user *urev = (short __user *)((char __user *)ufds + i * sizeof(*ufds) +
						      __builtin_offsetof(struct pollfd, revents));

		if (put_user(fds[i].revents, urev))
			goto out_fds;
	}
	err = fdcount;
out_fds:
	kfree(fds);
	return err;
}

static long do_restart_poll(struct restart_block *restart_block)
{
	struct pollfd __user *ufds = restart_block->poll.ufds;
	int nfds = restart_block->poll.nfds;
	struct __kernel_timespec *to = NULL, end_time;
	int ret;

	if (restart_block->poll.has_timeout) {
		end_time.tv_sec = restart_block->poll.tv_sec;
		end_time.tv_nsec = restart_block->poll.tv_nsec;
		to = &end_time;
	}

	ret = do_sys_poll(ufds, nfds, to);
	if (ret == -ERESTARTNOHAND) {
		set_restart_fn(restart_block, do_restart_poll);
		ret = -ERESTART_RESTARTBLOCK;
	}
	return ret;
}

long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs)
{
	struct __kernel_timespec end_time, *to = NULL;
	int ret;

	if (timeout_msecs >= 0) {
		to = &end_time;
		poll_select_set_timeout(to, timeout_msecs / MSEC_PER_SEC,
					NSEC_PER_MSEC * (timeout_msecs % MSEC_PER_SEC));
	}

	ret = do_sys_poll(ufds, nfds, to);

	/* Restart with the same end time, whether or not a handler runs
	 * in between (then it is -EINTR). */
	if (ret == -ERESTARTNOHAND) {
		struct restart_block *restart_block = &current_thread_info()->restart_block;

		restart_block->poll.ufds = ufds;
		restart_block->poll.nfds = nfds;
		if (timeout_msecs >= 0) {
			restart_block->poll.tv_sec = end_time.tv_sec;
			restart_block->poll.tv_nsec = end_time.tv_nsec;
			restart_block->poll.has_timeout = 1;
		} else {
			restart_block->poll.has_timeout = 0;
		}
		set_restart_fn(restart_block, do_restart_poll);
		ret = -ERESTART_RESTARTBLOCK;
	}
	return ret;
}

long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds,
	       struct __kernel_timespec __user *tsp, const sigset_t __user *sigmask,
	       size_t sigsetsize)
{
	struct __kernel_timespec end_time, *to;
	int ret;

	ret = get_end_time(tsp, &end_time, &to);
	if (ret)
		return ret;

	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;

	ret = do_sys_poll(ufds, nfds, to);
	return poll_select_finish(&end_time, tsp, PT_TIMESPEC, ret);
}
