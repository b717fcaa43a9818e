/* include/umk/uapi/aio_abi.h: Linux AIO's user ABI (include/uapi/linux/aio_abi.h),
 * and the completion ring's header that user space reads (fs/aio.c's
 * struct aio_ring, which libaio reads as its own struct io_ring). */
#ifndef UMK_UAPI_AIO_ABI_H
#define UMK_UAPI_AIO_ABI_H

#include <umk/types.h>

typedef unsigned long aio_context_t;

enum {
	IOCB_CMD_PREAD = 0,
	IOCB_CMD_PWRITE = 1,
	IOCB_CMD_FSYNC = 2,
	IOCB_CMD_FDSYNC = 3,
	/* 4 was the experimental IOCB_CMD_PREADX */
	IOCB_CMD_POLL = 5,
	IOCB_CMD_NOOP = 6,
	IOCB_CMD_PREADV = 7,
	IOCB_CMD_PWRITEV = 8,
};

/* iocb->aio_flags */
#define IOCB_FLAG_RESFD		(1 << 0)	/* signal the eventfd aio_resfd */
#define IOCB_FLAG_IOPRIO	(1 << 1)	/* aio_reqprio is an ioprio */

/* One completion: what io_getevents copies out and the ring holds. */
struct io_event {
	u64 data;	/* the iocb's aio_data */
	u64 obj;	/* the iocb's user address */
	s64 res;	/* the result: bytes, poll events, or -errno */
	s64 res2;
};

/* One request, as io_submit reads it (64 bytes, little-endian layout). */
struct iocb {
	u64 aio_data;
	u32 aio_key;		/* set by the kernel to KIOCB_KEY */
	int aio_rw_flags;	/* RWF_* */
	u16 aio_lio_opcode;	/* IOCB_CMD_* */
	s16 aio_reqprio;
	u32 aio_fildes;
	u64 aio_buf;		/* buffer, iovec array, or poll events */
	u64 aio_nbytes;		/* bytes, or iovec count */
	s64 aio_offset;
	u64 aio_reserved2;	/* must be 0 */
	u32 aio_flags;		/* IOCB_FLAG_* */
	u32 aio_resfd;		/* the eventfd of IOCB_FLAG_RESFD */
};

/* What io_cancel finds in aio_key of a submitted iocb (fs/aio.c). */
#define KIOCB_KEY 0

/* The head of the completion ring, mapped at the context id; io_events
 * follow it, nr of them, in the ring's pages. The kernel moves tail,
 * user space (or io_getevents) moves head. */
#define AIO_RING_MAGIC			0xa10a10a1
#define AIO_RING_COMPAT_FEATURES	1
#define AIO_RING_INCOMPAT_FEATURES	0
struct aio_ring {
	unsigned id;		/* the context's index in its mm */
	unsigned nr;		/* events in the ring */
	unsigned head;		/* written to by user space */
	unsigned tail;
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;	/* sizeof(struct aio_ring) */
	struct io_event io_events[];
};

#endif
