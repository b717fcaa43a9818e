/*
 * kernel/fs/aio.c: Linux's native asynchronous I/O (Linux's fs/aio.c),
 * its contexts: io_setup, io_destroy, io_getevents, io_pgetevents, the
 * completion ring, fs.aio-nr and fs.aio-max-nr, and exit_aio. The
 * requests, io_submit and io_cancel, are kernel/fs/aio_submit.c's.
 *
 * A context (struct kioctx) is a ring of completion events, struct
 * aio_ring and its io_events, in a memory object (struct hostmem) mapped
 * twice: into the process, shared and read-write, where its address is
 * the context id that io_setup returns (user-space libaio reads head and
 * tail there and reaps events without a system call), and into umk's own
 * host memory (ctx->ring), where the kernel writes events whatever mm is
 * in the user window. The kernel moves tail, user space or io_getevents
 * moves head. A context is found from its id as Linux finds it: the ring's
 * id field at that address names the context's index in the mm's table
 * (mm->ioctx_list), and the context must have been mapped there.
 *
 * Requests: PREAD, PWRITE, PREADV and PWRITEV go through the file's
 * read_iter and write_iter at once, in io_submit, as Linux's buffered
 * AIO does (kernel/fs/read_write.c's aio_rw): a read of an empty pipe
 * waits there. FSYNC and FDSYNC call the file's fsync, also at once
 * (Linux hands them to a worker thread). POLL is the one request that
 * waits after io_submit returns: an entry on the file's wait queue
 * (include/umk/poll.h) whose wake-up completes it, on the ctx's
 * active_reqs for io_cancel. A completion writes the event at the ring's
 * tail, signals the request's eventfd (IOCB_FLAG_RESFD) and wakes
 * io_getevents's sleepers.
 *
 * Slots: a context takes at most nr_events - 1 requests that are in
 * flight or whose events are in the ring; one more is EAGAIN until events
 * are reaped. Linux counts the same slots through per-CPU caches, which
 * can leave a few unusable; umk has one CPU and counts them exactly.
 *
 * Lifetime: ctx->users counts the mm's table, each call using the context
 * and each request in flight. io_destroy and exit_aio take it out of the
 * table (lookups fail from then on), cancel its POLL requests, which
 * complete with their events, wake io_getevents's sleepers, which return
 * EINVAL, and io_destroy waits for requests still in io_submit in other
 * threads (a read of a pipe). The last mmput (exit, exec) calls exit_aio.
 *
 * Restarts (docs/design.md, "AIO"): io_getevents interrupted with no
 * event is -EINTR, never restarted; io_pgetevents is -ERESTARTNOHAND,
 * restarted only when no handler ran (a stop, an ignored signal).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>
#include <umk/uapi/aio_abi.h>

#include "aio.h"

/* fs.aio-nr: the events io_setup asked for, summed over the live
 * contexts; fs.aio-max-nr: the most it may reach (Linux's default). */
unsigned long aio_nr;
unsigned long aio_max_nr = 0x10000;

/* num_possible_cpus(): umk runs every task on one CPU. */
#define AIO_NR_CPUS 1U

void ctx_put(struct kioctx *ctx)
{
	if (--ctx->users)
		return;
	os_munmap(ctx->ring, ctx->mmap_size);
	hostmem_put(ctx->ring_mem);
	kfree(ctx);
}

/* ---- completion ---- */

/* Put req's event at the ring's tail and tell whoever waits for it
 * (Linux's aio_complete). */
static void aio_complete(struct aio_kiocb *req)
{
	struct kioctx *ctx = req->ctx;
	unsigned int tail = ctx->tail;

	ctx->ring->io_events[tail] = req->res;
	if (++tail >= ctx->nr_events)
		tail = 0;
	ctx->tail = tail;
	ctx->ring->tail = tail;
	if (req->eventfd)
		eventfd_signal(req->eventfd);
	wake_up(&ctx->wait);
}

/* Drop what req holds and free it. */
static void iocb_free(struct aio_kiocb *req)
{
	struct kioctx *ctx = req->ctx;

	if (req->file)
		fput(req->file);
	if (req->eventfd)
		fput(req->eventfd);
	kfree(req);
	ctx_put(ctx);
}

/* req is done, completed or refused by io_submit: no longer in flight.
 * From a wake-up of its file's queue (in_wake), a last reference to the
 * file waits on deferred_reqs: its release would free the queue the
 * wake-up is walking. */
void iocb_destroy(struct aio_kiocb *req, bool in_wake)
{
	struct kioctx *ctx = req->ctx;

	if (!--ctx->inflight)
		wake_up(&ctx->done);
	if (in_wake && req->file->f_count == 1)
		list_add_tail(&req->list, &ctx->deferred_reqs);
	else
		iocb_free(req);
}

/* Free the requests deferred by iocb_destroy. ctx stays: the caller holds
 * a reference of its own. */
static void free_deferred(struct kioctx *ctx)
{
	while (!list_empty(&ctx->deferred_reqs)) {
		struct aio_kiocb *req = list_first_entry(&ctx->deferred_reqs, struct aio_kiocb, list);

		list_del_init(&req->list);
		iocb_free(req);
	}
}

void iocb_complete(struct aio_kiocb *req, long res, bool in_wake)
{
	req->res.res = res;
	aio_complete(req);
	iocb_destroy(req, in_wake);
}

/* The context whose ring is mapped at ctx_id, with a reference for the
 * caller, or NULL (Linux's lookup_ioctx). */
struct kioctx *lookup_ioctx(unsigned long ctx_id)
{
	/* the ring's id, computed as an integer: ctx_id may be 0 */
	unsigned int __user *uid = (unsigned int __user *)(ctx_id + offsetof(struct aio_ring, id));
	struct mm_struct *mm = current->mm;
	struct kioctx *ctx;
	unsigned int id;

	if (!mm || get_user(id, uid))
		return NULL;
	list_for_each_entry(ctx, &mm->ioctx_list, list) {
		if (ctx->id == id && ctx->user_id == ctx_id) {
			ctx->users++;
			free_deferred(ctx);
			return ctx;
		}
	}
	return NULL;
}

/* ---- io_setup, io_destroy ---- */

/* The ring for nr_events and its two mappings (Linux's aio_setup_ring):
 * 2 slots more for the head/tail overlap, then every slot the pages
 * hold. 0 or -ENOMEM. */
static int aio_setup_ring(struct kioctx *ctx, unsigned int nr_events)
{
	struct mm_struct *mm = current->mm;
	size_t size = sizeof(struct aio_ring) + sizeof(struct io_event) * (nr_events + 2UL);
	size_t nr_pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	struct aio_ring *ring;
	long addr;

	ctx->mmap_size = nr_pages * PAGE_SIZE;
	ctx->nr_events = (ctx->mmap_size - sizeof(struct aio_ring)) / sizeof(struct io_event);
	ctx->ring_mem = hostmem_create("[aio]");
	if (!ctx->ring_mem)
		return -ENOMEM;
	ring = os_mmap_anon(NULL, ctx->mmap_size, OS_PROT_READ | OS_PROT_WRITE, false);
	if (IS_ERR_VALUE((unsigned long)ring))
		goto no_ring;
	if (os_ftruncate(ctx->ring_mem->fd, ctx->mmap_size) ||
	    os_mmap_file(ring, ctx->mmap_size, OS_PROT_READ | OS_PROT_WRITE, ctx->ring_mem->fd, 0,
			 true))
		goto no_map;
	addr = mm_map_shared(mm, ctx->ring_mem, ctx->mmap_size);
	if (addr < 0)
		goto no_map;
	ctx->ring = ring;
	ctx->user_id = (unsigned long)addr;
	ring->nr = ctx->nr_events;
	ring->id = ~0U;
	ring->head = ring->tail = 0;
	ring->magic = AIO_RING_MAGIC;
	ring->compat_features = AIO_RING_COMPAT_FEATURES;
	ring->incompat_features = AIO_RING_INCOMPAT_FEATURES;
	ring->header_length = sizeof(struct aio_ring);
	return 0;
no_map:
	os_munmap(ring, ctx->mmap_size);
no_ring:
	hostmem_put(ctx->ring_mem);
	return -ENOMEM;
}

/* The lowest index no context of mm has (Linux's ioctx_add_table). */
static unsigned int ioctx_free_id(struct mm_struct *mm)
{
	unsigned int id = 0;
	struct kioctx *ctx;

again:
	list_for_each_entry(ctx, &mm->ioctx_list, list) {
		if (ctx->id == id) {
			id++;
			goto again;
		}
	}
	return id;
}

/* Linux's ioctx_alloc: the context, or an -errno as an error pointer. */
static long ioctx_alloc(unsigned int nr_events, struct kioctx **ctxp)
{
	struct mm_struct *mm = current->mm;
	unsigned int max_reqs = nr_events;
	struct kioctx *ctx;
	int err;

	/* Linux doubles the count for its per-CPU caches; in unsigned int,
	 * as Linux, so that a count past 2^31 wraps to EAGAIN. */
	nr_events = max(nr_events, AIO_NR_CPUS * 4) * 2;
	if (nr_events > 0x10000000U / sizeof(struct io_event))
		return -EINVAL;
	if (!nr_events || max_reqs > aio_max_nr)
		return -EAGAIN;
	ctx = kmalloc(sizeof(*ctx));
	ctx->max_reqs = max_reqs;
	init_waitqueue_head(&ctx->wait);
	init_waitqueue_head(&ctx->done);
	INIT_LIST_HEAD(&ctx->active_reqs);
	INIT_LIST_HEAD(&ctx->deferred_reqs);
	err = aio_setup_ring(ctx, nr_events);
	if (err) {
		kfree(ctx);
		return err;
	}
	ctx->users = 1;
	if (aio_nr + max_reqs > aio_max_nr || aio_nr + max_reqs < aio_nr) {
		mm_unmap(mm, ctx->user_id, ctx->mmap_size);
		ctx_put(ctx);
		return -EAGAIN;
	}
	aio_nr += max_reqs;
	ctx->id = ioctx_free_id(mm);
	ctx->ring->id = ctx->id;
	list_add_tail(&ctx->list, &mm->ioctx_list);
	*ctxp = ctx;
	return 0;
}

/* Take ctx out of mm's table, cancel its POLL requests and wake its
 * io_getevents (Linux's kill_ioctx and free_ioctx_users). unmap: remove
 * the ring from mm, which exit_aio leaves to the end of mm. Drops the
 * table's reference. */
static void kill_ioctx(struct mm_struct *mm, struct kioctx *ctx, bool unmap)
{
	list_del_init(&ctx->list);
	ctx->dead = true;
	wake_up(&ctx->wait);
	aio_nr -= ctx->max_reqs;
	if (unmap)
		mm_unmap(mm, ctx->user_id, ctx->mmap_size);
	while (!list_empty(&ctx->active_reqs))
		aio_poll_cancel(list_first_entry(&ctx->active_reqs, struct aio_kiocb, list));
	free_deferred(ctx);
	ctx_put(ctx);
}

long sys_io_setup(unsigned int nr_events, aio_context_t __user *ctxp)
{
	struct kioctx *ctx;
	unsigned long id;
	long ret;

	if (get_user(id, ctxp))
		return -EFAULT;
	if (id || !nr_events)
		return -EINVAL;
	ret = ioctx_alloc(nr_events, &ctx);
	if (ret)
		return ret;
	if (put_user(ctx->user_id, ctxp)) {
		kill_ioctx(current->mm, ctx, true);
		return -EFAULT;
	}
	return 0;
}

/* Requests still in io_submit in other threads finish first: the kernel
 * must be done with their buffers when io_destroy returns. */
long sys_io_destroy(aio_context_t ctx_id)
{
	struct kioctx *ctx = lookup_ioctx(ctx_id);
	DEFINE_WAIT(w);

	if (!ctx)
		return -EINVAL;
	kill_ioctx(current->mm, ctx, true);
	for (;;) {
		prepare_to_wait(&ctx->done, &w, TASK_UNINTERRUPTIBLE);
		if (!ctx->inflight)
			break;
		schedule();
	}
	finish_wait(&ctx->done, &w);
	ctx_put(ctx);
	return 0;
}

void exit_aio(struct mm_struct *mm)
{
	while (!list_empty(&mm->ioctx_list))
		kill_ioctx(mm, list_first_entry(&mm->ioctx_list, struct kioctx, list), false);
}

/* ---- io_getevents, io_pgetevents ---- */

/* Copy up to nr events from the ring's head to event and move head
 * (Linux's aio_read_events_ring): the count, or -EFAULT. */
static long aio_read_events_ring(struct kioctx *ctx, struct io_event __user *event, long nr)
{
	struct aio_ring *ring = ctx->ring;
	unsigned int head = ring->head, tail = ring->tail;
	long ret = 0;

	if (head == tail)
		return 0;
	head %= ctx->nr_events;
	tail %= ctx->nr_events;
	while (ret < nr && head != tail) {
		long avail = (head <= tail ? tail : ctx->nr_events) - head;

		avail = min(avail, nr - ret);
		if (copy_to_user(event + ret, &ring->io_events[head], sizeof(*event) * avail))
			return -EFAULT;
		ret += avail;
		head = (head + avail) % ctx->nr_events;
	}
	ring->head = head;
	return ret;
}

/* Add what the ring has to *i; true when the wait is over: min_nr
 * reached, an error, or the context destroyed (EINVAL). */
static bool aio_read_events(struct kioctx *ctx, long min_nr, long nr,
			    struct io_event __user *event, long *i)
{
	long ret = aio_read_events_ring(ctx, event + *i, nr - *i);

	if (ret > 0)
		*i += ret;
	if (ctx->dead)
		ret = -EINVAL;
	if (!*i)
		*i = ret;
	return ret < 0 || *i >= min_nr;
}

/* Linux's read_events: wait, interruptibly, until min_nr events or until
 * ns from now (0: not at all; KTIME_MAX: for ever); the events read,
 * which a signal or the timeout may leave below min_nr. A negative until,
 * which Linux does not refuse, is a timeout already past. */
static long read_events(struct kioctx *ctx, long min_nr, long nr, struct io_event __user *event,
			s64 until)
{
	struct hrtimer_sleeper t = { 0 };
	bool timed = until != KTIME_MAX;
	DEFINE_WAIT(w);
	long ret = 0;

	aio_read_events(ctx, min_nr, nr, event, &ret);
	if (until <= 0 || ret < 0 || ret >= min_nr)
		return ret;
	if (timed)
		hrtimer_sleeper_start(&t, (u64)ktime_add_safe((s64)ktime_get(), until),
				      "io_getevents");
	for (;;) {
		long nr_got = ret;
		bool stop;

		prepare_to_wait(&ctx->wait, &w, TASK_INTERRUPTIBLE);
		stop = signal_pending(current) || (timed && !t.task);
		if (aio_read_events(ctx, min_nr, nr, event, &ret) || stop)
			break;
		if (nr_got == ret)
			schedule();
	}
	finish_wait(&ctx->wait, &w);
	if (timed)
		hrtimer_sleeper_cancel(&t);
	return ret;
}

static long do_io_getevents(aio_context_t ctx_id, long min_nr, long nr,
			    struct io_event __user *events, const struct __kernel_timespec *ts)
{
	struct kioctx *ctx = lookup_ioctx(ctx_id);
	long ret = -EINVAL;

	if (!ctx)
		return -EINVAL;
	/* timespec64_to_ktime, unchecked as Linux leaves it */
	if (min_nr <= nr && min_nr >= 0)
		ret = read_events(ctx, min_nr, nr, events, ts ? timespec_to_ns(ts) : KTIME_MAX);
	ctx_put(ctx);
	return ret;
}

long sys_io_getevents(aio_context_t ctx_id, long min_nr, long nr, struct io_event __user *events,
		      struct __kernel_timespec __user *timeout)
{
	struct __kernel_timespec ts;
	long ret;

	if (timeout && get_timespec64(&ts, timeout))
		return -EFAULT;
	ret = do_io_getevents(ctx_id, min_nr, nr, events, timeout ? &ts : NULL);
	if (!ret && signal_pending(current))
		ret = -EINTR;
	return ret;
}

/* io_pgetevents's last argument (Linux's struct __aio_sigset). */
struct __aio_sigset {
	const sigset_t __user *sigmask;
	size_t sigsetsize;
};

long sys_io_pgetevents(aio_context_t ctx_id, long min_nr, long nr,
		       struct io_event __user *events, struct __kernel_timespec __user *timeout,
		       const struct __aio_sigset __user *usig)
{
	struct __aio_sigset ksig = { NULL, 0 };
	struct __kernel_timespec ts;
	bool interrupted;
	long ret;

	if (timeout && get_timespec64(&ts, timeout))
		return -EFAULT;
	if (usig && copy_from_user(&ksig, usig, sizeof(ksig)))
		return -EFAULT;
	ret = set_user_sigmask(ksig.sigmask, ksig.sigsetsize);
	if (ret)
		return ret;
	ret = do_io_getevents(ctx_id, min_nr, nr, events, timeout ? &ts : NULL);
	interrupted = signal_pending(current);
	restore_saved_sigmask_unless(interrupted);
	if (interrupted && !ret)
		ret = -ERESTARTNOHAND;
	return ret;
}
