/*
 * aio: Linux's native AIO (io_setup, io_submit, io_getevents,
 * io_pgetevents, io_cancel, io_destroy), one section per behaviour, with
 * the same output natively and under umk (tests/aio.bats). Raw system
 * calls, as libaio makes them; addresses are never printed.
 *
 *   setup     io_setup's checks (EFAULT, EINVAL, EAGAIN past
 *             fs.aio-max-nr), the ring's header at the context id, ids
 *             0 and 1, fs.aio-nr, io_destroy and a destroyed context
 *   rw        PWRITE, PREAD, PWRITEV and PREADV on a file, their events
 *             (data, obj, res) and the key io_submit writes
 *   ring      events reaped from the ring in user space, as libaio does,
 *             then io_getevents finds none
 *   wait      io_getevents's min_nr, nr and timeout, and EFAULT
 *   pgetevents io_pgetevents's signal mask: a pending signal it unblocks
 *             runs its handler and ends the call with EINTR, the mask
 *             comes back after it; EINVAL for a bad sigsetsize, EFAULT
 *   poll      IOCB_CMD_POLL: ready at once, or completed by a write to the
 *             pipe; io_cancel of a waiting poll and of a completed read
 *   resfd     IOCB_FLAG_RESFD: each completion adds 1 to an eventfd that
 *             an epoll watches; EBADF and EINVAL for a bad resfd
 *   errors    io_submit's checks, the index of the first bad iocb, FSYNC
 *             and FDSYNC
 *   eagain    a context takes at least the requests io_setup asked for,
 *             then EAGAIN until events are reaped
 *   destroy   io_destroy waits for a read still in io_submit in another
 *             thread, and a thread in io_getevents gets EINVAL
 *   limit     with fs.aio-max-nr at 12 (set by the caller: umk's own
 *             /proc/sys, never the host's), io_setup(8) twice: EAGAIN
 *   exit      a child's contexts end with its exit and with its exec
 *             (fs.aio-nr); a forked child cannot use its parent's
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

/* include/uapi/linux/aio_abi.h (musl has no linux/ headers) */
enum { CMD_PREAD = 0, CMD_PWRITE = 1, CMD_FSYNC = 2, CMD_FDSYNC = 3, CMD_POLL = 5,
       CMD_PREADV = 7, CMD_PWRITEV = 8 };
#define IOCB_FLAG_RESFD 1
#define IOCB_FLAG_IOPRIO 2

struct io_event {
	uint64_t data, obj;
	int64_t res, res2;
};

struct iocb {
	uint64_t aio_data;
	uint32_t aio_key;
	int32_t aio_rw_flags;
	uint16_t aio_lio_opcode;
	int16_t aio_reqprio;
	uint32_t aio_fildes;
	uint64_t aio_buf, aio_nbytes;
	int64_t aio_offset;
	uint64_t aio_reserved2;
	uint32_t aio_flags, aio_resfd;
};

struct aio_ring {
	unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
	struct io_event io_events[];
};

typedef unsigned long aio_context_t;

static long io_setup(unsigned nr, aio_context_t *ctx) { return rsys(SYS_io_setup, nr, ctx); }
static long io_destroy(aio_context_t ctx) { return rsys(SYS_io_destroy, ctx); }
static long io_submit(aio_context_t ctx, long nr, struct iocb **v)
{
	return rsys(SYS_io_submit, ctx, nr, v);
}
static long io_cancel(aio_context_t ctx, struct iocb *cb, struct io_event *ev)
{
	return rsys(SYS_io_cancel, ctx, cb, ev);
}
static long io_getevents(aio_context_t ctx, long min, long nr, struct io_event *ev,
			 struct timespec *ts)
{
	return rsys(SYS_io_getevents, ctx, min, nr, ev, ts);
}

static struct timespec zero_ts;
/* For events Linux completes from a worker thread (a cancelled POLL, a
 * POLL woken without events named): long enough that only a bug reaches it. */
static struct timespec long_ts = { 5, 0 };

static aio_context_t setup(unsigned nr)
{
	aio_context_t ctx = 0;

	if (io_setup(nr, &ctx))
		die("io_setup(%u) failed", nr);
	return ctx;
}

static struct iocb prep(int op, int fd, void *buf, size_t n, long off, uint64_t data)
{
	struct iocb cb = { .aio_data = data, .aio_lio_opcode = (uint16_t)op, .aio_fildes = (uint32_t)fd,
			   .aio_buf = (uint64_t)(uintptr_t)buf, .aio_nbytes = n, .aio_offset = off };

	cb.aio_key = 0xdead;	/* io_submit sets it to 0 */
	return cb;
}

static long submit1(aio_context_t ctx, struct iocb *cb)
{
	struct iocb *v[1] = { cb };

	return io_submit(ctx, 1, v);
}

/* Print n events: data, which iocb, res. */
static void print_events(const struct io_event *ev, long n, struct iocb *const *cbs, int ncbs)
{
	for (long i = 0; i < n; i++) {
		int which = -1;

		for (int k = 0; k < ncbs; k++)
			if (ev[i].obj == (uint64_t)(uintptr_t)cbs[k])
				which = k;
		printf("  event data=%llu iocb=#%d res=%lld res2=%lld\n",
		       (unsigned long long)ev[i].data, which, (long long)ev[i].res,
		       (long long)ev[i].res2);
	}
}

static unsigned long read_ulong(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long v = 0;

	if (!f || fscanf(f, "%lu", &v) != 1)
		die("cannot read %s", path);
	fclose(f);
	return v;
}

static int temp_file(void)
{
	char path[] = "/tmp/aio.XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		die("mkstemp failed");
	unlink(path);
	return fd;
}

/* ---- setup ---- */

static void setup_(void)
{
	unsigned long max = read_ulong("/proc/sys/fs/aio-max-nr"), before;
	aio_context_t ctx = 1, c0 = 0, c1 = 0;
	struct aio_ring *ring;

	show("io_setup(8, NULL)", io_setup(8, NULL));
	show("io_setup(8, *ctxp != 0)", io_setup(8, &ctx));
	ctx = 0;
	show("io_setup(0)", io_setup(0, &ctx));
	show("io_setup(0x10000000)", io_setup(0x10000000, &ctx));
	show("io_setup(0x80000000)", io_setup(0x80000000u, &ctx));
	show("io_setup(fs.aio-max-nr + 1)", io_setup((unsigned)max + 1, &ctx));
	before = read_ulong("/proc/sys/fs/aio-nr");
	show("io_setup(8)", io_setup(8, &c0));
	printf("fs.aio-nr grew by %lu\n", read_ulong("/proc/sys/fs/aio-nr") - before);
	ring = (struct aio_ring *)c0;
	printf("ring: id=%u nr=%u head=%u tail=%u magic=%#x compat=%u incompat=%u header_length=%u\n",
	       ring->id, ring->nr, ring->head, ring->tail, ring->magic, ring->compat_features,
	       ring->incompat_features, ring->header_length);
	show("io_setup(200)", io_setup(200, &c1));
	ring = (struct aio_ring *)c1;
	printf("second ring: id=%u nr=%u\n", ring->id, ring->nr);
	show("io_destroy(first)", io_destroy(c0));
	show("io_destroy(first) again", io_destroy(c0));
	show("io_getevents(destroyed)", io_getevents(c0, 0, 1, NULL, &zero_ts));
	show("io_destroy(0)", io_destroy(0));
	show("io_destroy(an address that is no ring)", io_destroy((aio_context_t)&max));
	show("io_destroy(second)", io_destroy(c1));
	printf("fs.aio-nr back: %s\n", read_ulong("/proc/sys/fs/aio-nr") == before ? "yes" : "no");
}

/* ---- rw ---- */

static void rw(void)
{
	aio_context_t ctx = setup(16);
	int fd = temp_file();
	char a[16] = "", b[8] = "", c[8] = "";
	struct iovec wv[2] = { { "vector", 6 }, { "ed!", 3 } };
	struct iovec rv[2] = { { b, 3 }, { c, 6 } };
	struct iocb cbs[4], *v[4];
	struct io_event ev[8];
	long n;

	cbs[0] = prep(CMD_PWRITE, fd, "hello world", 11, 0, 100);
	cbs[1] = prep(CMD_PREAD, fd, a, 5, 6, 101);
	cbs[2] = prep(CMD_PWRITEV, fd, wv, 2, 11, 102);
	cbs[3] = prep(CMD_PREADV, fd, rv, 2, 8, 103);
	for (int i = 0; i < 4; i++)
		v[i] = &cbs[i];
	show("io_submit(PWRITE, PREAD, PWRITEV, PREADV)", io_submit(ctx, 4, v));
	printf("aio_key after io_submit: %u\n", cbs[0].aio_key);
	n = show("io_getevents(min_nr 4, nr 8)", io_getevents(ctx, 4, 8, ev, NULL));
	print_events(ev, n, v, 4);
	printf("PREAD read '%s', PREADV read '%.3s' and '%.6s'\n", a, b, c);
	cbs[0] = prep(CMD_PREAD, fd, a, 16, 100, 104);
	submit1(ctx, &cbs[0]);
	n = show("io_getevents(a PREAD past the end)", io_getevents(ctx, 1, 1, ev, NULL));
	print_events(ev, n, v, 1);
	close(fd);
	io_destroy(ctx);
}

/* ---- ring ---- */

static void ring_(void)
{
	aio_context_t ctx = setup(4);
	struct aio_ring *ring = (struct aio_ring *)ctx;
	int fd = temp_file();
	char buf[3][4];
	struct iocb cbs[3], *v[3];
	struct io_event ev[4];
	unsigned head;

	if (write(fd, "abcdefghijkl", 12) != 12)
		die("write failed");
	for (int i = 0; i < 3; i++) {
		cbs[i] = prep(CMD_PREAD, fd, buf[i], 4, 4 * i, 200 + i);
		v[i] = &cbs[i];
	}
	show("io_submit(3 PREADs)", io_submit(ctx, 3, v));
	printf("ring head=%u tail=%u\n", ring->head, ring->tail);
	/* libaio's user-space io_getevents: reap from head to tail */
	for (head = ring->head; head != ring->tail; head = (head + 1) % ring->nr) {
		struct io_event *e = &ring->io_events[head];

		printf("  from the ring: data=%llu res=%lld buf='%.4s'\n", (unsigned long long)e->data,
		       (long long)e->res, (char *)(uintptr_t)((struct iocb *)(uintptr_t)e->obj)->aio_buf);
	}
	ring->head = head;
	show("io_getevents after the ring was reaped", io_getevents(ctx, 0, 4, ev, &zero_ts));
	close(fd);
	io_destroy(ctx);
}

/* ---- wait ---- */

static void wait_(void)
{
	aio_context_t ctx = setup(8);
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int fd = temp_file();
	struct io_event ev[4];
	struct iocb cbs[2], *v[2];
	char buf[2];
	double t0;

	t0 = now_ms();
	show("io_getevents(min_nr 1, 50 ms, nothing submitted)", io_getevents(ctx, 1, 4, ev, &ts));
	printf("it waited the 50 ms: %s\n", now_ms() - t0 >= 45 ? "yes" : "no");
	show("io_getevents(min_nr 1, timeout 0)", io_getevents(ctx, 1, 4, ev, &zero_ts));
	show("io_getevents(min_nr 2 > nr 1)", io_getevents(ctx, 2, 1, ev, NULL));
	show("io_getevents(min_nr -1)", io_getevents(ctx, -1, 1, ev, NULL));
	show("io_getevents(a bad timeout pointer)", io_getevents(ctx, 1, 1, ev, (void *)8));
	for (int i = 0; i < 2; i++) {
		cbs[i] = prep(CMD_PREAD, fd, buf, 1, 0, 300 + i);
		v[i] = &cbs[i];
	}
	show("io_submit(2 PREADs)", io_submit(ctx, 2, v));
	show("io_getevents(events NULL)", io_getevents(ctx, 1, 1, NULL, NULL));
	show("io_getevents(min_nr 1, nr 1)", io_getevents(ctx, 1, 1, ev, NULL));
	t0 = now_ms();
	show("io_getevents(min_nr 2, nr 4, 50 ms: one event there)", io_getevents(ctx, 2, 4, ev, &ts));
	printf("it waited for the second: %s\n", now_ms() - t0 >= 45 ? "yes" : "no");
	show("io_getevents(min_nr 0, nr 4, timeout 0)", io_getevents(ctx, 0, 4, ev, &zero_ts));
	close(fd);
	io_destroy(ctx);
}

/* ---- pgetevents ---- */

struct aio_sigset {
	const unsigned long *sigmask;
	size_t sigsetsize;
};

static volatile int usr1_seen;

static void on_usr1(int sig)
{
	usr1_seen = 1;
}

static void pgetevents(void)
{
	aio_context_t ctx = setup(8);
	unsigned long none = 0;
	struct aio_sigset unblock = { &none, 8 }, badsize = { &none, 4 }, badmask = { (void *)8, 8 };
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct io_event ev[1];
	sigset_t set, old;
	int fd = temp_file();
	struct iocb cb;
	char buf[1];

	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	show("io_pgetevents(sigsetsize 4)", rsys(SYS_io_pgetevents, ctx, 1, 1, ev, NULL, &badsize));
	show("io_pgetevents(a bad sigmask pointer)",
	     rsys(SYS_io_pgetevents, ctx, 1, 1, ev, NULL, &badmask));
	show("io_pgetevents(a bad aio_sigset pointer)",
	     rsys(SYS_io_pgetevents, ctx, 1, 1, ev, NULL, (void *)8));
	show("io_pgetevents(no mask, 0 timeout, SIGUSR1 pending and blocked)",
	     rsys(SYS_io_pgetevents, ctx, 1, 1, ev, &zero_ts, NULL));
	printf("handler ran: %s\n", usr1_seen ? "yes" : "no");
	show("io_pgetevents(a mask unblocking SIGUSR1, which is pending)",
	     rsys(SYS_io_pgetevents, ctx, 1, 1, ev, NULL, &unblock));
	printf("handler ran: %s\n", usr1_seen ? "yes" : "no");
	sigprocmask(SIG_SETMASK, NULL, &set);
	printf("SIGUSR1 blocked again after it: %s\n", sigismember(&set, SIGUSR1) ? "yes" : "no");
	cb = prep(CMD_PREAD, fd, buf, 1, 0, 800);
	submit1(ctx, &cb);
	show("io_pgetevents(the mask, an event ready)",
	     rsys(SYS_io_pgetevents, ctx, 1, 1, ev, NULL, &unblock));
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fd);
	io_destroy(ctx);
}

/* ---- poll ---- */

static void poll_(void)
{
	aio_context_t ctx = setup(8);
	struct iocb cbs[3], *v[3] = { &cbs[0], &cbs[1], &cbs[2] };
	struct io_event ev[4], res;
	int p[2], fd = temp_file();
	char buf[4];
	long n;

	if (pipe(p))
		die("pipe failed");
	cbs[0] = prep(CMD_POLL, p[1], (void *)(uintptr_t)POLLOUT, 0, 0, 400);
	show("io_submit(POLL POLLOUT on a pipe's empty write end)", submit1(ctx, &cbs[0]));
	n = show("io_getevents: done at once", io_getevents(ctx, 1, 4, ev, &zero_ts));
	print_events(ev, n, v, 3);
	cbs[1] = prep(CMD_POLL, p[0], (void *)(uintptr_t)POLLIN, 0, 0, 401);
	show("io_submit(POLL POLLIN on the empty read end)", submit1(ctx, &cbs[1]));
	show("io_getevents: nothing yet", io_getevents(ctx, 1, 4, ev, &zero_ts));
	if (write(p[1], "x", 1) != 1)
		die("write failed");
	n = show("io_getevents after a write to the pipe", io_getevents(ctx, 1, 4, ev, &long_ts));
	print_events(ev, n, v, 3);
	if (read(p[0], buf, 1) != 1)
		die("read failed");
	cbs[2] = prep(CMD_POLL, p[0], (void *)(uintptr_t)POLLIN, 0, 0, 402);
	show("io_submit(POLL POLLIN on the empty read end)", submit1(ctx, &cbs[2]));
	show("io_cancel(the waiting POLL)", io_cancel(ctx, &cbs[2], &res));
	n = show("io_getevents: the cancelled POLL's event", io_getevents(ctx, 1, 4, ev, &long_ts));
	print_events(ev, n, v, 3);
	show("io_cancel(it again)", io_cancel(ctx, &cbs[2], &res));
	cbs[0] = prep(CMD_PREAD, fd, buf, 1, 0, 403);
	submit1(ctx, &cbs[0]);
	show("io_cancel(a PREAD that completed)", io_cancel(ctx, &cbs[0], &res));
	cbs[1] = prep(CMD_POLL, p[0], (void *)(uintptr_t)POLLIN, 0, 0, 404);
	show("io_cancel(an iocb whose aio_key is not 0)", io_cancel(ctx, &cbs[1], &res));
	show("io_cancel(a bad iocb pointer)", io_cancel(ctx, (void *)8, &res));
	cbs[1] = prep(CMD_POLL, p[0], (void *)(uintptr_t)0x10000, 0, 0, 405);
	show("io_submit(POLL with events past 16 bits)", submit1(ctx, &cbs[1]));
	cbs[1] = prep(CMD_POLL, p[0], (void *)(uintptr_t)POLLIN, 1, 0, 406);
	show("io_submit(POLL with aio_nbytes)", submit1(ctx, &cbs[1]));
	cbs[1] = prep(CMD_POLL, p[0], (void *)(uintptr_t)POLLIN, 0, 0, 407);
	show("io_submit(POLL POLLIN on the empty read end)", submit1(ctx, &cbs[1]));
	close(p[1]);
	n = show("io_getevents after the write end closed", io_getevents(ctx, 2, 4, ev, &long_ts));
	print_events(ev, n, v, 3);
	close(p[0]);
	/* the request holds the last reference to the read end: its
	 * completion, inside the write's wake-up, releases the file */
	if (pipe(p))
		die("pipe failed");
	cbs[2] = prep(CMD_POLL, p[0], (void *)(uintptr_t)POLLIN, 0, 0, 408);
	show("io_submit(POLL POLLIN on the empty read end)", submit1(ctx, &cbs[2]));
	close(p[0]);
	show("write to the pipe after its read end's fd was closed", write(p[1], "x", 1));
	n = show("io_getevents", io_getevents(ctx, 1, 4, ev, &long_ts));
	print_events(ev, n, v, 3);
	close(p[1]);
	close(fd);
	io_destroy(ctx);
}

/* ---- resfd ---- */

static void resfd(void)
{
	aio_context_t ctx = setup(8);
	int efd = eventfd(0, EFD_NONBLOCK), ep = epoll_create1(0), fd = temp_file(), p[2];
	struct epoll_event e = { .events = EPOLLIN }, out;
	struct iocb cbs[2], *v[2] = { &cbs[0], &cbs[1] };
	struct io_event ev[4];
	uint64_t count = 0;
	char buf[2];

	if (efd < 0 || ep < 0 || pipe(p) || epoll_ctl(ep, EPOLL_CTL_ADD, efd, &e))
		die("eventfd, epoll or pipe failed");
	show("epoll_wait before any completion", epoll_wait(ep, &out, 1, 0));
	for (int i = 0; i < 2; i++) {
		cbs[i] = prep(CMD_PREAD, fd, buf, 1, 0, 500 + i);
		cbs[i].aio_flags = IOCB_FLAG_RESFD;
		cbs[i].aio_resfd = (uint32_t)efd;
	}
	show("io_submit(2 PREADs with IOCB_FLAG_RESFD)", io_submit(ctx, 2, v));
	show("epoll_wait on the eventfd", epoll_wait(ep, &out, 1, 1000));
	show("read(eventfd)", read(efd, &count, 8));
	printf("eventfd count: %llu\n", (unsigned long long)count);
	show("io_getevents", io_getevents(ctx, 2, 4, ev, NULL));
	cbs[0] = prep(CMD_POLL, p[0], (void *)(uintptr_t)POLLIN, 0, 0, 502);
	cbs[0].aio_flags = IOCB_FLAG_RESFD;
	cbs[0].aio_resfd = (uint32_t)efd;
	show("io_submit(POLL with IOCB_FLAG_RESFD)", submit1(ctx, &cbs[0]));
	show("epoll_wait: not yet", epoll_wait(ep, &out, 1, 0));
	if (write(p[1], "x", 1) != 1)
		die("write failed");
	show("epoll_wait after a write to the polled pipe", epoll_wait(ep, &out, 1, 1000));
	show("read(eventfd)", read(efd, &count, 8));
	printf("eventfd count: %llu\n", (unsigned long long)count);
	cbs[0] = prep(CMD_PREAD, fd, buf, 1, 0, 503);
	cbs[0].aio_flags = IOCB_FLAG_RESFD;
	cbs[0].aio_resfd = (uint32_t)p[0];
	show("io_submit(IOCB_FLAG_RESFD naming a pipe)", submit1(ctx, &cbs[0]));
	cbs[0].aio_resfd = 999;
	show("io_submit(IOCB_FLAG_RESFD naming no file)", submit1(ctx, &cbs[0]));
	close(p[0]);
	close(p[1]);
	close(ep);
	close(efd);
	close(fd);
	io_destroy(ctx);
}

/* ---- errors ---- */

static void errors(void)
{
	aio_context_t ctx = setup(8);
	int fd = temp_file(), p[2];
	int ro = open("/proc/self/status", O_RDONLY);
	struct iocb cbs[2], *v[2] = { &cbs[0], &cbs[1] };
	struct io_event ev[4];
	char buf[4];
	long n;

	if (ro < 0 || pipe(p))
		die("open or pipe failed");
	cbs[0] = prep(CMD_PREAD, fd, buf, 1, 0, 600);
	show("io_submit(nr -1)", io_submit(ctx, -1, v));
	show("io_submit(nr 0)", io_submit(ctx, 0, v));
	show("io_submit(a context id that is no ring)", io_submit((aio_context_t)buf, 1, v));
	show("io_submit(iocbpp NULL)", io_submit(ctx, 1, NULL));
	{
		struct iocb *bad[1] = { (struct iocb *)8 };

		show("io_submit(an iocb pointer to nothing)", io_submit(ctx, 1, bad));
	}
	cbs[0].aio_reserved2 = 1;
	show("io_submit(aio_reserved2 set)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(4, fd, buf, 1, 0, 601);
	show("io_submit(opcode 4, once PREADX)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(6, fd, buf, 1, 0, 602);
	show("io_submit(IOCB_CMD_NOOP)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREAD, 999, buf, 1, 0, 603);
	show("io_submit(PREAD on no file)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PWRITE, ro, buf, 1, 0, 604);
	show("io_submit(PWRITE on a read-only fd)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREAD, p[1], buf, 1, 0, 605);
	show("io_submit(PREAD on a pipe's write end)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREAD, fd, buf, 1, -1, 606);
	show("io_submit(PREAD at offset -1)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREAD, fd, buf, (size_t)-1, 0, 607);
	show("io_submit(PREAD of -1 bytes)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREAD, fd, (void *)0xffff800000000000UL, 1, 0, 608);
	show("io_submit(PREAD into a kernel address)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREADV, fd, NULL, 1025, 0, 609);
	show("io_submit(PREADV of 1025 iovecs)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREAD, fd, buf, 1, 0, 610);
	cbs[0].aio_rw_flags = 0x1000;
	show("io_submit(PREAD with an unknown RWF_ flag)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREAD, fd, buf, 1, 0, 617);
	cbs[0].aio_flags = IOCB_FLAG_IOPRIO;
	cbs[0].aio_reqprio = 5 << 13;
	show("io_submit(PREAD with IOCB_FLAG_IOPRIO, class 5)", submit1(ctx, &cbs[0]));
	cbs[0].aio_reqprio = 1;
	show("io_submit(PREAD with IOCB_FLAG_IOPRIO, class NONE, level 1)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_FSYNC, fd, NULL, 1, 0, 611);
	show("io_submit(FSYNC with aio_nbytes)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_FSYNC, p[0], NULL, 0, 0, 612);
	show("io_submit(FSYNC on a pipe)", submit1(ctx, &cbs[0]));
	cbs[0] = prep(CMD_PREAD, fd, buf, 1, 0, 613);
	cbs[1] = prep(CMD_PREAD, 999, buf, 1, 0, 614);
	show("io_submit(a good PREAD, then one on no file)", io_submit(ctx, 2, v));
	n = show("io_getevents", io_getevents(ctx, 1, 4, ev, NULL));
	print_events(ev, n, v, 2);
	/* one at a time: Linux's worker threads may end them in any order */
	cbs[0] = prep(CMD_FSYNC, fd, NULL, 0, 0, 615);
	show("io_submit(FSYNC on a file)", submit1(ctx, &cbs[0]));
	n = show("io_getevents", io_getevents(ctx, 1, 4, ev, NULL));
	print_events(ev, n, v, 2);
	cbs[1] = prep(CMD_FDSYNC, fd, NULL, 0, 0, 616);
	show("io_submit(FDSYNC on a file)", submit1(ctx, &cbs[1]));
	n = show("io_getevents", io_getevents(ctx, 1, 4, ev, NULL));
	print_events(ev, n, v, 2);
	close(p[0]);
	close(p[1]);
	close(ro);
	close(fd);
	io_destroy(ctx);
}

/* ---- eagain ---- */

static void eagain(void)
{
	aio_context_t ctx = setup(8);
	struct aio_ring *ring = (struct aio_ring *)ctx;
	int fd = temp_file();
	struct iocb cbs[200];
	struct io_event ev[200];
	char buf[1];
	long n = 0, r, got;

	for (;;) {
		cbs[n] = prep(CMD_PREAD, fd, buf, 1, 0, (uint64_t)n);
		r = submit1(ctx, &cbs[n]);
		if (r != 1 || ++n == 200)
			break;
	}
	show("the first io_submit that failed", r);
	printf("requests taken before: at least 8: %s, below ring nr %u: %s\n", n >= 8 ? "yes" : "no",
	       ring->nr, n < (long)ring->nr ? "yes" : "no");
	got = io_getevents(ctx, n, 200, ev, NULL);
	printf("io_getevents reaped them all: %s\n", got == n ? "yes" : "no");
	cbs[0] = prep(CMD_PREAD, fd, buf, 1, 0, 999);
	show("io_submit after the reaping", submit1(ctx, &cbs[0]));
	close(fd);
	io_destroy(ctx);
}

/* ---- destroy ---- */

static aio_context_t d_ctx;
static int d_pipe[2];
static volatile int d_written;
static struct iocb d_cb;
static long d_ret;

static void *d_submitter(void *arg)
{
	char *buf = arg;

	d_cb = prep(CMD_PREAD, d_pipe[0], buf, 1, 0, 700);
	d_ret = submit1(d_ctx, &d_cb);	/* waits in the pipe's read */
	return NULL;
}

static void *d_writer(void *arg)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	d_written = 1;
	if (write(d_pipe[1], "z", 1) != 1)
		die("write failed");
	return NULL;
}

static void *d_getter(void *arg)
{
	struct io_event ev;

	d_ret = io_getevents(d_ctx, 1, 1, &ev, NULL);
	return NULL;
}

static void destroy(void)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	pthread_t a, w;
	char buf[2] = "";

	d_ctx = setup(8);
	if (pipe(d_pipe))
		die("pipe failed");
	pthread_create(&a, NULL, d_submitter, buf);
	nanosleep(&ts, NULL);
	pthread_create(&w, NULL, d_writer, NULL);
	show("io_destroy while a PREAD of an empty pipe is in io_submit", io_destroy(d_ctx));
	printf("io_destroy returned after the pipe was written: %s\n", d_written ? "yes" : "no");
	pthread_join(a, NULL);
	pthread_join(w, NULL);
	show("the other thread's io_submit", d_ret);
	printf("it read '%s'\n", buf);

	d_ctx = setup(8);
	pthread_create(&a, NULL, d_getter, NULL);
	nanosleep(&ts, NULL);
	show("io_destroy while another thread waits in io_getevents", io_destroy(d_ctx));
	pthread_join(a, NULL);
	show("the other thread's io_getevents", d_ret);
	close(d_pipe[0]);
	close(d_pipe[1]);
}

/* ---- limit ---- */

static void limit(void)
{
	aio_context_t c0 = 0, c1 = 0, c2 = 0;

	printf("fs.aio-max-nr: %lu\n", read_ulong("/proc/sys/fs/aio-max-nr"));
	show("io_setup(8)", io_setup(8, &c0));
	show("io_setup(8) again", io_setup(8, &c1));
	show("io_setup(4)", io_setup(4, &c1));
	printf("fs.aio-nr: %lu\n", read_ulong("/proc/sys/fs/aio-nr"));
	show("io_setup(13), past fs.aio-max-nr alone", io_setup(13, &c2));
}

/* ---- exit ---- */

static void exit_(void)
{
	unsigned long before = read_ulong("/proc/sys/fs/aio-nr");
	pid_t pid = fork();

	if (pid == 0) {
		aio_context_t ctx = 0;

		io_setup(100, &ctx);
		printf("child: fs.aio-nr grew by %lu\n", read_ulong("/proc/sys/fs/aio-nr") - before);
		fflush(stdout);
		_exit(0);
	}
	printf("child: %s\n", status_text(wait_status(pid)));
	printf("after the child's exit, fs.aio-nr back: %s\n",
	       read_ulong("/proc/sys/fs/aio-nr") == before ? "yes" : "no");
	pid = fork();
	if (pid == 0) {
		aio_context_t ctx = 0;
		char arg[32];
		char *argv[] = { "aio", "--aio-nr-is", arg, NULL };

		io_setup(100, &ctx);
		snprintf(arg, sizeof(arg), "%lu", before);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	printf("child that io_setup(100) and execs: %s\n", status_text(wait_status(pid)));
	{
		aio_context_t ctx = setup(8);

		pid = fork();
		if (pid == 0) {
			show("child: io_getevents on its parent's context", io_getevents(ctx, 0, 1, NULL, &zero_ts));
			fflush(stdout);
			_exit(0);
		}
		wait_status(pid);
		io_destroy(ctx);
	}
}

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "setup", setup_ },	 { "rw", rw },		{ "ring", ring_ },
		{ "wait", wait_ },	 { "pgetevents", pgetevents }, { "poll", poll_ },
		{ "resfd", resfd },	 { "errors", errors },	{ "eagain", eagain },
		{ "destroy", destroy }, { "limit", limit },	{ "exit", exit_ },
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* the exit section's child, after its exec */
	if (argc == 3 && !strcmp(argv[1], "--aio-nr-is")) {
		printf("after the exec, fs.aio-nr back: %s\n",
		       read_ulong("/proc/sys/fs/aio-nr") == strtoul(argv[2], NULL, 10) ? "yes" : "no");
		return 0;
	}
	return run_sections("aio", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
