/*
 * kernel/fs/aio_submit.c: the requests of Linux AIO (Linux's fs/aio.c):
 * io_submit and io_cancel, and IOCB_CMD_POLL's wait on the file. The
 * contexts and the ring they complete into are kernel/fs/aio.c's, which
 * says what each request does.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/aio_abi.h>

#include "aio.h"

/* ---- IOCB_CMD_POLL ---- */

/* A waiting POLL request ends: off the file's queue and the active list,
 * its event the events in mask. */
static void aio_poll_finish(struct aio_kiocb *req, __poll_t mask, bool in_wake)
{
	list_del_init(&req->wait.entry);
	list_del_init(&req->list);
	iocb_complete(req, mask, in_wake);
}

/* The file's wake-up: the events it names (a plain wake_up names none:
 * then look), and the request completes if one it waits for is there.
 * Its result is then every event the wake-up named, as Linux's
 * aio_poll_wake gives it (a pipe's write: POLLIN | POLLRDNORM). */
static int aio_poll_wake(struct wait_queue_entry *wait, unsigned int mode, void *key)
{
	struct aio_kiocb *req = container_of(wait, struct aio_kiocb, wait);
	__poll_t mask = key ? key_to_poll(key) : vfs_poll(req->file, NULL) & req->events;

	if (!(mask & req->events))
		return 0;
	aio_poll_finish(req, mask, true);
	return 1;
}

struct aio_poll_table {
	poll_table pt;
	struct aio_kiocb *req;
	int error;
};

/* vfs_poll's poll_wait: one queue is all a request can wait on; a file
 * that names a second is EINVAL, as Linux's aio_poll_queue_proc. */
static void aio_poll_queue_proc(struct file *f, struct wait_queue_head *head, poll_table *p)
{
	struct aio_poll_table *pt = container_of(p, struct aio_poll_table, pt);
	struct aio_kiocb *req = pt->req;

	if (req->head) {
		pt->error = -EINVAL;
		return;
	}
	pt->error = 0;
	req->head = head;
	req->wait.func = aio_poll_wake;
	req->wait.flags = 0;
	add_wait_queue(head, &req->wait);
}

/* Linux's aio_poll: ready now completes at once; else the request waits,
 * unless the file gave no queue to wait on (EINVAL). On x86-64 the events
 * need no mangling (mangle_poll is the identity). */
static int aio_poll(struct aio_kiocb *req, const struct iocb *iocb)
{
	struct aio_poll_table apt = { .req = req, .error = -EINVAL };
	__poll_t mask;

	if ((u16)iocb->aio_buf != iocb->aio_buf)
		return -EINVAL;
	if (iocb->aio_offset || iocb->aio_nbytes || iocb->aio_rw_flags)
		return -EINVAL;
	req->events = (__poll_t)iocb->aio_buf | POLLERR | POLLHUP;
	INIT_LIST_HEAD(&req->list);
	INIT_LIST_HEAD(&req->wait.entry);
	init_poll_funcptr(&apt.pt, aio_poll_queue_proc);
	apt.pt._key = req->events;
	mask = vfs_poll(req->file, &apt.pt) & req->events;
	if (mask || apt.error) {
		if (req->head)
			list_del_init(&req->wait.entry);
		if (!mask)
			return apt.error;
		iocb_complete(req, mask, false);
		return 0;
	}
	list_add_tail(&req->list, &req->ctx->active_reqs);
	return 0;
}

/* io_cancel and the end of a context: the request completes with the
 * events ready now, usually none (Linux's aio_poll_cancel and the work
 * it schedules). */
void aio_poll_cancel(struct aio_kiocb *req)
{
	aio_poll_finish(req, vfs_poll(req->file, NULL) & req->events, false);
}

/* ---- io_submit, io_cancel ---- */

/* Is there a slot for one more request: in flight and in the ring
 * together below nr_events - 1? Head is user space's to move: taken
 * modulo the ring's size, as aio_read_events_ring takes it. */
/* I/O priorities (include/uapi/linux/ioprio.h): a class in bits 13-15,
 * a level in bits 0-2. */
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_PRIO_CLASS(ioprio) (((ioprio) >> IOPRIO_CLASS_SHIFT) & 7)
#define IOPRIO_PRIO_LEVEL(ioprio) ((ioprio) & 7)
enum { IOPRIO_CLASS_NONE, IOPRIO_CLASS_RT, IOPRIO_CLASS_BE, IOPRIO_CLASS_IDLE };

/* IOCB_FLAG_IOPRIO's aio_reqprio, checked as Linux's ioprio_check_cap
 * (block/ioprio.c); umk has no I/O scheduler to give it to. */
static int ioprio_check_cap(int ioprio)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		if (!capable(CAP_SYS_ADMIN) && !capable(CAP_SYS_NICE))
			return -EPERM;
		return 0;	/* a level has 3 bits: never too high */
	case IOPRIO_CLASS_BE:
	case IOPRIO_CLASS_IDLE:
		return 0;
	case IOPRIO_CLASS_NONE:
		return IOPRIO_PRIO_LEVEL(ioprio) ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

static bool get_req_slot(struct kioctx *ctx)
{
	unsigned int head = ctx->ring->head % ctx->nr_events;
	unsigned int in_ring = (ctx->tail + ctx->nr_events - head) % ctx->nr_events;

	return ctx->inflight + in_ring < ctx->nr_events - 1;
}

/* The request's file, eventfd, key and operation (Linux's
 * __io_submit_one): 0 once the request is done or waiting (POLL), else
 * io_submit's -errno. */
static int __io_submit_one(struct aio_kiocb *req, const struct iocb *iocb,
			   struct iocb __user *user_iocb)
{
	bool write = iocb->aio_lio_opcode == IOCB_CMD_PWRITE ||
		     iocb->aio_lio_opcode == IOCB_CMD_PWRITEV;
	long res;
	int err;

	req->file = fget(iocb->aio_fildes);
	if (!req->file)
		return -EBADF;
	if (iocb->aio_flags & IOCB_FLAG_RESFD) {
		err = eventfd_fget((int)iocb->aio_resfd, &req->eventfd);
		if (err)
			return err;
	}
	if (put_user((u32)KIOCB_KEY, &user_iocb->aio_key))
		return -EFAULT;
	req->res.obj = (u64)(unsigned long)user_iocb;
	req->res.data = iocb->aio_data;
	switch (iocb->aio_lio_opcode) {
	case IOCB_CMD_PREAD:
	case IOCB_CMD_PWRITE:
	case IOCB_CMD_PREADV:
	case IOCB_CMD_PWRITEV:
		if (iocb->aio_flags & IOCB_FLAG_IOPRIO) {
			err = ioprio_check_cap(iocb->aio_reqprio);
			if (err)
				return err;
		}
		err = aio_rw(req->file, (void __user *)(unsigned long)iocb->aio_buf,
			     iocb->aio_nbytes,
			     iocb->aio_lio_opcode >= IOCB_CMD_PREADV, iocb->aio_offset,
			     iocb->aio_rw_flags, write, &res);
		break;
	case IOCB_CMD_FSYNC:
	case IOCB_CMD_FDSYNC:
		if (iocb->aio_buf || iocb->aio_offset || iocb->aio_nbytes || iocb->aio_rw_flags ||
		    !req->file->f_op->fsync)
			return -EINVAL;
		err = 0;
		res = req->file->f_op->fsync(req->file);
		break;
	case IOCB_CMD_POLL:
		return aio_poll(req, iocb);
	default:
		return -EINVAL;
	}
	if (!err)
		iocb_complete(req, res, false);
	return err;
}

static int io_submit_one(struct kioctx *ctx, struct iocb __user *user_iocb)
{
	struct aio_kiocb *req;
	struct iocb iocb;
	int err;

	if (copy_from_user(&iocb, user_iocb, sizeof(iocb)))
		return -EFAULT;
	if (iocb.aio_reserved2)
		return -EINVAL;
	if ((s64)iocb.aio_nbytes < 0)
		return -EINVAL;
	if (!get_req_slot(ctx))
		return -EAGAIN;
	req = kmalloc(sizeof(*req));
	req->ctx = ctx;
	ctx->users++;
	ctx->inflight++;
	err = __io_submit_one(req, &iocb, user_iocb);
	if (err)
		iocb_destroy(req, false);
	return err;
}

/* The count submitted, or the first request's error (Linux's io_submit:
 * at most nr_events requests a call). */
long sys_io_submit(aio_context_t ctx_id, long nr, struct iocb __user *__user *iocbpp)
{
	struct kioctx *ctx;
	long i, ret = 0;

	if (nr < 0)
		return -EINVAL;
	ctx = lookup_ioctx(ctx_id);
	if (!ctx)
		return -EINVAL;
	if (nr > ctx->nr_events)
		nr = ctx->nr_events;
	for (i = 0; i < nr; i++) {
		struct iocb __user *user_iocb;

		if (get_user(user_iocb, iocbpp + i)) {
			ret = -EFAULT;
			break;
		}
		ret = io_submit_one(ctx, user_iocb);
		if (ret)
			break;
	}
	ctx_put(ctx);
	return i ? i : ret;
}

/* Only a waiting POLL request can be cancelled: its event goes to the
 * ring and io_cancel says -EINPROGRESS, as Linux's does since 4.19;
 * result is not written. Any other request is done already: EINVAL. */
long sys_io_cancel(aio_context_t ctx_id, struct iocb __user *iocb, struct io_event __user *result)
{
	u64 obj = (u64)(unsigned long)iocb;
	struct aio_kiocb *req;
	struct kioctx *ctx;
	long ret = -EINVAL;
	u32 key;

	if (get_user(key, &iocb->aio_key))
		return -EFAULT;
	if (key != KIOCB_KEY)
		return -EINVAL;
	ctx = lookup_ioctx(ctx_id);
	if (!ctx)
		return -EINVAL;
	list_for_each_entry(req, &ctx->active_reqs, list) {
		if (req->res.obj == obj) {
			aio_poll_cancel(req);
			ret = -EINPROGRESS;
			break;
		}
	}
	ctx_put(ctx);
	return ret;
}
