/*
 * kernel/fs/aio.h: what the two halves of Linux AIO share: the context
 * and its ring (kernel/fs/aio.c) and the requests (kernel/fs/aio_submit.c).
 */
#ifndef KERNEL_FS_AIO_H
#define KERNEL_FS_AIO_H

#include <umk/fs.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/uapi/aio_abi.h>

struct kioctx {
	struct list_head list;		/* in mm->ioctx_list while alive */
	int users;			/* table, calls, requests in flight */
	bool dead;			/* io_destroy or exit_aio came */
	unsigned int id;		/* ring->id: the index in the mm's table */
	unsigned long user_id;		/* the ring's address: the context id */
	size_t mmap_size;
	unsigned int max_reqs;		/* io_setup's nr_events, in fs.aio-nr */
	unsigned int nr_events;		/* the ring's slots */
	unsigned int tail;		/* the kernel's copy of ring->tail */
	unsigned int inflight;		/* requests submitted, not completed */
	struct hostmem *ring_mem;
	struct aio_ring *ring;		/* the kernel's view of the ring */
	struct wait_queue_head wait;	/* io_getevents's sleepers */
	struct wait_queue_head done;	/* io_destroy, until inflight is 0 */
	struct list_head active_reqs;	/* POLL requests waiting */
	/* POLL requests completed by a wake-up while they held the last
	 * reference to their file: freed by the next call on the context
	 * (Linux's aio_poll_put_work), not inside the file's own wake-up. */
	struct list_head deferred_reqs;
};

/* One request from io_submit until its event is in the ring. */
struct aio_kiocb {
	struct kioctx *ctx;
	struct file *file;
	struct file *eventfd;		/* IOCB_FLAG_RESFD's, or NULL */
	struct io_event res;
	/* IOCB_CMD_POLL: on ctx->active_reqs, and its entry on head. */
	struct list_head list;
	struct wait_queue_head *head;
	struct wait_queue_entry wait;
	__poll_t events;
};

/* aio.c */

/* Drop a reference to ctx; the last frees the ring. */
void ctx_put(struct kioctx *ctx);
/* The context whose ring is mapped at ctx_id in current's mm, with a
 * reference for the caller, or NULL (Linux's lookup_ioctx). */
struct kioctx *lookup_ioctx(unsigned long ctx_id);
/* req's result is res: its event goes to the ring, then req is freed.
 * in_wake: called from a wake-up of req's file's queue. */
void iocb_complete(struct aio_kiocb *req, long res, bool in_wake);
/* req is done without an event (io_submit refused it): free it. */
void iocb_destroy(struct aio_kiocb *req, bool in_wake);

/* aio_submit.c */

/* A waiting POLL request ends now, with the events ready (io_cancel, the
 * end of its context). */
void aio_poll_cancel(struct aio_kiocb *req);

#endif
