/*
 * kernel/fs/eventfd.c: eventfd, a 64-bit counter as a file (Linux's
 * fs/eventfd.c). Interface: sys_eventfd, sys_eventfd2, the file's
 * operations (read, write and poll through f_op), and eventfd_fget and
 * eventfd_signal for the kernel's own signals (AIO's IOCB_FLAG_RESFD,
 * kernel/fs/aio.c).
 *
 * A write adds its 8-byte value to the count; a read takes the whole count
 * and leaves 0, or in semaphore mode (EFD_SEMAPHORE) takes 1. A read waits
 * while the count is 0. A write keeps the count at most ULLONG_MAX - 1: one
 * that would pass it waits for a read, and the value ULLONG_MAX itself is
 * EINVAL. Both sleep interruptibly and return -ERESTARTSYS on a signal, so
 * SA_RESTART restarts them, as a pipe's read and write.
 *
 * Readiness (eventfd_poll): POLLIN while the count is above 0, POLLOUT
 * while a write of 1 would not wait, POLLERR at ULLONG_MAX, which in Linux
 * only the kernel's own eventfd_signal reaches.
 * A write wakes ctx->wqh with POLLIN, a read with POLLOUT; on the queue are
 * the sleeping readers and writers, and poll's, select's and epoll's
 * entries (include/umk/poll.h).
 *
 * /proc/PID/fdinfo shows the count, the eventfd's id and the semaphore
 * mode, as Linux's.
 *
 * Departures from Linux: an id is never reused (Linux's come from an ida,
 * the lowest free one); lseek is -ESPIPE (Linux's noop_llseek returns 0); writev
 * is one write of the vector's total, which must be 8 bytes (Linux writes
 * each segment, which must be 8 bytes). No locks: kernel code is not
 * preempted, so only the sleeps let another task in.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uapi/eventfd.h>

#define EFD_SHARED_FCNTL_FLAGS (O_CLOEXEC | O_NONBLOCK)
#define EFD_FLAGS_SET (EFD_SHARED_FCNTL_FLAGS | EFD_SEMAPHORE)
#define ULLONG_MAX UINT64_MAX

struct eventfd_ctx {
	struct wait_queue_head wqh;	/* readers, writers, pollers */
	u64 count;
	unsigned int flags;		/* EFD_SEMAPHORE */
	int id;				/* for fdinfo */
};

static void eventfd_release(struct file *f)
{
	struct eventfd_ctx *ctx = f->private_data;

	/* Sleepers and poll entries hold a reference to the file, and epoll
	 * leaves it before the release (eventpoll_release). */
	if (waitqueue_active(&ctx->wqh))
		panic("eventfd_release: eventfd %p still has waiters", (void *)ctx);
	kfree(ctx);
}

static unsigned int eventfd_poll(struct file *f, poll_table *pt)
{
	struct eventfd_ctx *ctx = f->private_data;
	unsigned int events = 0;

	poll_wait(f, &ctx->wqh, pt);
	if (ctx->count > 0)
		events |= POLLIN;
	if (ctx->count == ULLONG_MAX)
		events |= POLLERR;
	if (ULLONG_MAX - 1 > ctx->count)
		events |= POLLOUT;
	return events;
}

static ssize_t eventfd_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *f = iocb->ki_filp;
	struct eventfd_ctx *ctx = f->private_data;
	u64 ucnt;

	if (iov_iter_count(to) < sizeof(ucnt))
		return -EINVAL;
	if (!ctx->count) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->wqh, ctx->count))
			return -ERESTARTSYS;
	}
	/* Taken before the copy, as Linux does: a copy that faults loses it. */
	ucnt = (ctx->flags & EFD_SEMAPHORE) ? 1 : ctx->count;
	ctx->count -= ucnt;
	wake_up_poll(&ctx->wqh, POLLOUT);
	if (copy_to_iter(&ucnt, sizeof(ucnt), to) != sizeof(ucnt))
		return -EFAULT;
	return sizeof(ucnt);
}

static ssize_t eventfd_write(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *f = iocb->ki_filp;
	struct eventfd_ctx *ctx = f->private_data;
	u64 ucnt;

	if (iov_iter_count(from) != sizeof(ucnt))
		return -EINVAL;
	if (copy_from_iter(&ucnt, sizeof(ucnt), from) != sizeof(ucnt))
		return -EFAULT;
	if (ucnt == ULLONG_MAX)
		return -EINVAL;
	if (ULLONG_MAX - ctx->count <= ucnt) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->wqh, ULLONG_MAX - ctx->count > ucnt))
			return -ERESTARTSYS;
	}
	ctx->count += ucnt;
	wake_up_poll(&ctx->wqh, POLLIN);
	return sizeof(ucnt);
}

static int eventfd_show_fdinfo(struct file *f, char *buf, size_t size)
{
	struct eventfd_ctx *ctx = f->private_data;

	return ksnprintf(buf, size, "eventfd-count: %16llx\neventfd-id: %d\neventfd-semaphore: %d\n",
			 (unsigned long long)ctx->count, ctx->id, !!(ctx->flags & EFD_SEMAPHORE));
}

static const struct file_operations eventfd_fops = {
	.name = "eventfd",
	.read_iter = eventfd_read,
	.write_iter = eventfd_write,
	.poll = eventfd_poll,
	.show_fdinfo = eventfd_show_fdinfo,
	.fstat = anon_inode_fstat,
	.release = eventfd_release,
};

static long do_eventfd(unsigned int count, int flags)
{
	static int last_id = -1;
	struct eventfd_ctx *ctx;

	if (flags & ~EFD_FLAGS_SET)
		return -EINVAL;
	ctx = kmalloc(sizeof(*ctx));
	init_waitqueue_head(&ctx->wqh);
	ctx->count = count;
	ctx->flags = flags;
	ctx->id = ++last_id;
	return anon_inode_getfd(&eventfd_fops, ctx, flags);
}

long sys_eventfd2(unsigned int count, int flags)
{
	return do_eventfd(count, flags);
}

long sys_eventfd(unsigned int count)
{
	return do_eventfd(count, 0);
}

int eventfd_fget(int fd, struct file **fp)
{
	return fget_of_kind(fd, &eventfd_fops, fp);
}

/* Linux's eventfd_signal_mask: the count stops at ULLONG_MAX (POLLERR)
 * rather than waiting for a reader. */
void eventfd_signal(struct file *f)
{
	struct eventfd_ctx *ctx = f->private_data;

	if (ctx->count < ULLONG_MAX)
		ctx->count++;
	wake_up_poll(&ctx->wqh, POLLIN);
}
