/*
 * matrix [ROW...]: the restart matrix of signal(7). Every blocking call of
 * signal(7)'s two lists ("Interruption of system calls and library
 * functions by signal handlers" and "... by stop signals") is a row; each
 * row runs in three columns:
 *
 *   handler    SIGUSR1 has a handler installed without SA_RESTART
 *   restart    SIGUSR1 has a handler installed with SA_RESTART
 *   stop       SIGSTOP, then SIGCONT once the child shows state T; neither
 *              has a handler
 *
 * and prints one line per cell, "ROW COLUMN OUTCOME", where OUTCOME is
 *
 *   restarted  the call was still waiting after the signal (restarted, by
 *              rewinding or by restart_syscall, or never left) and returned
 *              what the parent's completion makes it return: the data
 *              written, the child that exited, the signal sent... For pause
 *              and sigsuspend, which only ever return EINTR, that is EINTR
 *              after the handler of the completion's SIGUSR2 ran
 *   EINTR      it returned EINTR to the signal
 *   ENAME      it (or the row's setup, as ENOSYS for a call the kernel
 *              lacks) failed with another errno
 *   ret=N      it returned N, which is not what the completion makes it return
 *   hang       the child did not get to the next step within seconds
 *
 * Raw system calls throughout (rsys): libc retries or wraps some of them
 * (pthread_cond_wait never shows EINTR), and the kernel's answer is the
 * point. Only the kernel's answer is printed: no times, no pids.
 *
 * How a cell runs: the parent runs the row's setup (pipes, fds, shared
 * memory, before the fork so that both sides hold them) and forks a child.
 * The child installs the column's dispositions, runs the row's prep, writes
 * 'r' on the control pipe and makes the call; the handler of SIGUSR1 writes
 * 'h' there; the child then writes "=OUTCOME\n" and exits. The parent reads
 * 'r', waits until /proc/CHILD/stat shows the child asleep (state S, twice,
 * SETTLE_MS apart), sends the column's signal (SIGUSR1, then waits for 'h';
 * or SIGSTOP, state T, SIGCONT), then waits until either the outcome arrives
 * (the call returned to the signal) or the child is asleep again (it kept
 * waiting): only then does it run the row's complete, which makes the
 * waiting call succeed. A cell whose row ends by itself (nanosleep) and whose
 * signal came too late to tell is run again, up to three times.
 *
 * Adding a row is adding one entry to rows[]: its name, setup (parent,
 * before the fork; returns 0 or -errno, printed as the outcome), prep
 * (child, before 'r'), call (child: the blocking call, returning the raw
 * result), done (child: whether that result is the completion's), complete
 * (parent) and cleanup (parent), any of them NULL but call and done.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define EPOLLIN 0x001
#define EPOLL_CTL_ADD 1

#define SETTLE_MS 15		/* between the two looks at state S */
#define STEP_MS 3000		/* the most a step of the protocol may take */
#define LONG_MS 5000		/* the timeout of the timed calls: never reached */
#define SLEEP_MS 600		/* nanosleep's and clock_nanosleep's length */

enum column { HANDLER, RESTART, STOP, NCOLUMNS };
static const char *const column_names[] = { "handler", "restart", "stop" };

/* What a cell's functions share. The parent fills it in setup, the child
 * inherits it with the fork. */
struct cell {
	enum column col;
	int p[2];		/* a pipe */
	int go[2];		/* wait4, waitid: the grandchild exits when written */
	int fd;			/* the row's own fd: epoll, eventfd, signalfd, timerfd */
	unsigned int *word;	/* futex: a MAP_SHARED word */
	unsigned long aio;	/* io_getevents: the child's AIO context */
	pid_t gc;		/* wait4, waitid: the grandchild (child side) */
	pid_t child;		/* the child (parent side) */
	char buf[128];
};

struct row {
	const char *name;
	long (*setup)(struct cell *);
	void (*prep)(struct cell *);
	long (*call)(struct cell *);
	int (*done)(struct cell *, long ret);
	void (*complete)(struct cell *);
	void (*cleanup)(struct cell *);
	int ends_ms;		/* the call ends by itself after this long (0: never) */
};

typedef unsigned long ksigset;	/* the kernel's sigset_t: 64 bits */
#define BIT(sig) (1UL << ((sig) - 1))

static int ctl = -1;		/* child: the control pipe's write end */
static volatile sig_atomic_t got_usr2;

static void put(int fd, const void *buf, size_t n)
{
	if (rsys(SYS_write, fd, buf, n) != (long)n)
		die("write on fd %d failed", fd);
}

static void on_usr1(int sig)
{
	rsys(SYS_write, ctl, "h", 1);
}

static void on_usr2(int sig)
{
	got_usr2 = 1;
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa = { .sa_handler = fn, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		die("sigaction %d failed", sig);
}

static void block_mask(ksigset set)
{
	if (rsys(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, sizeof(set)))
		die("rt_sigprocmask failed");
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	while (rsys(SYS_nanosleep, &ts, &ts) == -EINTR)
		;
}

static struct timespec ms_ts(long ms)
{
	return (struct timespec){ ms / 1000, ms % 1000 * 1000000L };
}

/* ---- The rows' pieces ---- */

static long mkpipe(struct cell *c)
{
	return rsys(SYS_pipe2, c->p, 0);
}

static void write_pipe(struct cell *c)
{
	put(c->p[1], "x", 1);
}

static void close_pipe(struct cell *c)
{
	close(c->p[0]);
	close(c->p[1]);
}

static int ret_is_1(struct cell *c, long ret)
{
	return ret == 1;
}

static int ret_is_0(struct cell *c, long ret)
{
	return ret == 0;
}

static int ret_is_8(struct cell *c, long ret)
{
	return ret == 8;
}

static long read_pipe(struct cell *c)
{
	return rsys(SYS_read, c->p[0], c->buf, 1);
}

/* A pipe whose write end blocks: filled without blocking, then made
 * blocking again (the flag belongs to the open file, which both share). */
static long full_pipe(struct cell *c)
{
	long r = mkpipe(c);

	if (r)
		return r;
	fcntl(c->p[1], F_SETFL, O_NONBLOCK);
	memset(c->buf, 'x', sizeof(c->buf));
	while (rsys(SYS_write, c->p[1], c->buf, sizeof(c->buf)) > 0)
		;
	fcntl(c->p[1], F_SETFL, 0);
	return 0;
}

static long write_full(struct cell *c)
{
	return rsys(SYS_write, c->p[1], "y", 1);
}

/* Empty the pipe: one read takes all a pipe holds (64 KiB by default). */
static void drain_pipe(struct cell *c)
{
	static char big[1 << 20];

	rsys(SYS_read, c->p[0], big, sizeof(big));
}

static long readv_pipe(struct cell *c)
{
	struct iovec iov = { c->buf, 1 };

	return rsys(SYS_readv, c->p[0], &iov, 1);
}

/* wait4, waitid: the child waits for a grandchild that exits when the
 * parent writes on go (or closes it, at cleanup). */
static long mkgo(struct cell *c)
{
	return rsys(SYS_pipe2, c->go, 0);
}

static void fork_grandchild(struct cell *c)
{
	c->gc = fork();
	if (c->gc < 0)
		die("fork failed");
	if (c->gc == 0) {
		char b;

		close(ctl);
		close(c->go[1]);
		rsys(SYS_read, c->go[0], &b, 1);
		_exit(0);
	}
}

static void write_go(struct cell *c)
{
	put(c->go[1], "g", 1);
}

static void close_go(struct cell *c)
{
	close(c->go[0]);
	close(c->go[1]);
}

static long call_wait4(struct cell *c)
{
	int st;

	return rsys(SYS_wait4, c->gc, &st, 0, NULL);
}

static int is_gc(struct cell *c, long ret)
{
	return ret == c->gc;
}

static long call_waitid(struct cell *c)
{
	siginfo_t si;
	long r;

	memset(&si, 0, sizeof(si));
	r = rsys(SYS_waitid, P_PID, c->gc, &si, WEXITED, NULL);
	if (r == 0 && si.si_pid != c->gc)
		return -1000;	/* ret=-1000: not the grandchild */
	return r;
}

/* futex: a word in MAP_SHARED memory, shared futex operations, so that the
 * parent's FUTEX_WAKE finds the child's wait. */
static long mkword(struct cell *c)
{
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -ENOMEM;
	c->word = m;
	*c->word = 0;
	return 0;
}

static long futex_untimed(struct cell *c)
{
	return rsys(SYS_futex, c->word, FUTEX_WAIT, 0, NULL, NULL, 0);
}

static long futex_timed(struct cell *c)
{
	struct timespec ts = ms_ts(LONG_MS);

	return rsys(SYS_futex, c->word, FUTEX_WAIT, 0, &ts, NULL, 0);
}

static void futex_wake(struct cell *c)
{
	rsys(SYS_futex, c->word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static void unmap_word(struct cell *c)
{
	munmap(c->word, 4096);
}

static long call_nanosleep(struct cell *c)
{
	struct timespec ts = ms_ts(SLEEP_MS), rem;

	return rsys(SYS_nanosleep, &ts, &rem);
}

static long call_clock_nanosleep(struct cell *c)
{
	struct timespec ts = ms_ts(SLEEP_MS), rem;

	return rsys(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, &rem);
}

/* pause, sigsuspend: the completion is SIGUSR2, whose handler sets got_usr2:
 * EINTR after it is the completed call. */
static void handle_usr2(struct cell *c)
{
	handle(SIGUSR2, on_usr2, 0);
}

static void send_usr2(struct cell *c)
{
	kill(c->child, SIGUSR2);
}

static int eintr_after_usr2(struct cell *c, long ret)
{
	return ret == -EINTR && got_usr2;
}

static long call_pause(struct cell *c)
{
	return rsys0(SYS_pause);
}

/* sigsuspend unblocks the two signals the child otherwise blocks. */
static void block_usr12(struct cell *c)
{
	handle_usr2(c);
	block_mask(BIT(SIGUSR1) | BIT(SIGUSR2));
}

static long call_sigsuspend(struct cell *c)
{
	ksigset none = 0;

	return rsys(SYS_rt_sigsuspend, &none, sizeof(none));
}

/* rt_sigtimedwait, signalfd: SIGUSR2 blocked and awaited, SIGUSR1 not. */
static void block_usr2(struct cell *c)
{
	block_mask(BIT(SIGUSR2));
}

static long sigtimedwait_forever(struct cell *c)
{
	ksigset set = BIT(SIGUSR2);
	siginfo_t si;

	return rsys(SYS_rt_sigtimedwait, &set, &si, NULL, sizeof(set));
}

static long sigtimedwait_timed(struct cell *c)
{
	ksigset set = BIT(SIGUSR2);
	struct timespec ts = ms_ts(LONG_MS);
	siginfo_t si;

	return rsys(SYS_rt_sigtimedwait, &set, &si, &ts, sizeof(set));
}

static int is_usr2(struct cell *c, long ret)
{
	return ret == SIGUSR2;
}

static long call_poll(struct cell *c)
{
	struct pollfd pfd = { c->p[0], POLLIN, 0 };

	return rsys(SYS_poll, &pfd, 1, LONG_MS);
}

static long call_ppoll(struct cell *c)
{
	struct pollfd pfd = { c->p[0], POLLIN, 0 };
	struct timespec ts = ms_ts(LONG_MS);

	return rsys(SYS_ppoll, &pfd, 1, &ts, NULL, sizeof(ksigset));
}

/* The kernel's fd_set: 1024 bits. */
typedef struct { unsigned long bits[1024 / 64]; } kfd_set;

static long call_select(struct cell *c)
{
	kfd_set in;
	struct timeval tv = { LONG_MS / 1000, 0 };

	memset(&in, 0, sizeof(in));
	in.bits[c->p[0] / 64] |= 1UL << (c->p[0] % 64);
	return rsys(SYS_select, c->p[0] + 1, &in, NULL, NULL, &tv);
}

static long call_pselect6(struct cell *c)
{
	kfd_set in;
	struct timespec ts = ms_ts(LONG_MS);
	struct { const ksigset *set; size_t size; } sig = { NULL, sizeof(ksigset) };

	memset(&in, 0, sizeof(in));
	in.bits[c->p[0] / 64] |= 1UL << (c->p[0] % 64);
	return rsys(SYS_pselect6, c->p[0] + 1, &in, NULL, NULL, &ts, &sig);
}

/* epoll: an instance watching the pipe's read end, made before the fork. */
struct kepoll_event {
	unsigned int events;
	unsigned long data;
} __attribute__((packed));

static long mkepoll(struct cell *c)
{
	struct kepoll_event ev = { EPOLLIN, 0 };
	long r = mkpipe(c);

	if (r)
		return r;
	c->fd = (int)rsys(SYS_epoll_create1, 0);
	if (c->fd < 0) {
		r = c->fd;
		close_pipe(c);
		return r;
	}
	r = rsys(SYS_epoll_ctl, c->fd, EPOLL_CTL_ADD, c->p[0], &ev);
	if (r) {
		close(c->fd);
		close_pipe(c);
	}
	return r;
}

static long call_epoll_wait(struct cell *c)
{
	struct kepoll_event ev;

	return rsys(SYS_epoll_wait, c->fd, &ev, 1, LONG_MS);
}

static long call_epoll_pwait(struct cell *c)
{
	struct kepoll_event ev;

	return rsys(SYS_epoll_pwait, c->fd, &ev, 1, LONG_MS, NULL, sizeof(ksigset));
}

static void close_epoll(struct cell *c)
{
	close(c->fd);
	close_pipe(c);
}

/* AIO: the child's own context (a fork's child cannot use its parent's),
 * with an IOCB_CMD_POLL for POLLIN on the pipe's read end, which the
 * parent's write completes. struct iocb of include/uapi/linux/aio_abi.h. */
struct aio_iocb {
	unsigned long data;
	unsigned int key;
	int rw_flags;
	unsigned short opcode;
	short reqprio;
	unsigned int fildes;
	unsigned long buf, nbytes;
	long offset;
	unsigned long reserved2;
	unsigned int flags, resfd;
};
struct aio_event {
	unsigned long data, obj;
	long res, res2;
};
#define IOCB_CMD_POLL 5

static void aio_poll_pipe(struct cell *c)
{
	static struct aio_iocb cb;
	struct aio_iocb *v[1] = { &cb };

	cb = (struct aio_iocb){ .opcode = IOCB_CMD_POLL, .fildes = (unsigned int)c->p[0], .buf = POLLIN };
	c->aio = 0;
	if (rsys(SYS_io_setup, 1, &c->aio) || rsys(SYS_io_submit, c->aio, 1, v) != 1)
		die("io_setup or io_submit failed");
}

static long call_io_getevents(struct cell *c)
{
	struct aio_event ev;

	return rsys(SYS_io_getevents, c->aio, 1, 1, &ev, NULL);
}

static long call_io_pgetevents(struct cell *c)
{
	struct aio_event ev;

	return rsys(SYS_io_pgetevents, c->aio, 1, 1, &ev, NULL, NULL);
}

static void close_fd(struct cell *c)
{
	close(c->fd);
}

static long read_fd8(struct cell *c)
{
	return rsys(SYS_read, c->fd, c->buf, 8);
}

static long mkeventfd(struct cell *c)
{
	c->fd = (int)rsys(SYS_eventfd2, 0, 0);
	return c->fd < 0 ? c->fd : 0;
}

static void eventfd_add(struct cell *c)
{
	unsigned long one = 1;

	put(c->fd, &one, sizeof(one));
}

/* signalfd: for SIGUSR2, which the child blocks; the interrupting SIGUSR1
 * is another signal. The fd reads the signals of the task reading it. */
static long mksignalfd(struct cell *c)
{
	ksigset set = BIT(SIGUSR2);

	c->fd = (int)rsys(SYS_signalfd4, -1, &set, sizeof(set), 0);
	return c->fd < 0 ? c->fd : 0;
}

static long read_signalfd(struct cell *c)
{
	long r = rsys(SYS_read, c->fd, c->buf, sizeof(c->buf));

	if (r == 128 && *(unsigned int *)c->buf != SIGUSR2)
		return -1000;	/* ret=-1000: another signal */
	return r;
}

static int ret_is_128(struct cell *c, long ret)
{
	return ret == 128;
}

/* timerfd: disarmed (a read waits for ever) until the parent arms it to
 * expire at once; both share the timer. */
static long mktimerfd(struct cell *c)
{
	c->fd = (int)rsys(SYS_timerfd_create, CLOCK_MONOTONIC, 0);
	return c->fd < 0 ? c->fd : 0;
}

static void timerfd_fire(struct cell *c)
{
	struct { struct timespec interval, value; } its = { { 0, 0 }, { 0, 1000000 } };

	rsys(SYS_timerfd_settime, c->fd, 0, &its, NULL);
}

/* ---- FIFOs and file locks (kernel/fs/pipe.c's fifo_open, kernel/fs/locks.c) ---- */

/* A FIFO or a file of the parent's own in /tmp, named in buf. */
static long mkfifo_cell(struct cell *c)
{
	snprintf(c->buf, sizeof(c->buf), "/tmp/matrix.fifo.%d", (int)getpid());
	unlink(c->buf);
	c->fd = -1;
	return mkfifo(c->buf, 0600) ? -errno : 0;
}

static int ret_is_fd(struct cell *c, long ret)
{
	return ret >= 0;
}

static long open_fifo_rd(struct cell *c)
{
	return rsys(SYS_open, c->buf, O_RDONLY);
}

static long open_fifo_wr(struct cell *c)
{
	return rsys(SYS_open, c->buf, O_WRONLY);
}

/* The other end, kept open until cleanup: a waiting reader counts as one,
 * so a non-blocking writer's open succeeds. */
static void open_fifo_writer(struct cell *c)
{
	c->fd = (int)rsys(SYS_open, c->buf, O_WRONLY | O_NONBLOCK);
}

static void open_fifo_reader(struct cell *c)
{
	c->fd = (int)rsys(SYS_open, c->buf, O_RDONLY | O_NONBLOCK);
}

static void unlink_fifo(struct cell *c)
{
	if (c->fd >= 0)
		close(c->fd);
	unlink(c->buf);
}

/* read of a FIFO: opened O_RDWR by the parent (never waits), empty. */
static long fifo_rdwr(struct cell *c)
{
	long r = mkfifo_cell(c);

	if (r)
		return r;
	c->fd = (int)rsys(SYS_open, c->buf, O_RDWR);
	return c->fd < 0 ? c->fd : 0;
}

static long read_fd1(struct cell *c)
{
	return rsys(SYS_read, c->fd, c->buf + 64, 1);
}

static void write_fd1(struct cell *c)
{
	put(c->fd, "x", 1);
}

/* flock, F_SETLKW, F_OFD_SETLKW: the parent locks its file (c->fd), the
 * child waits for it through an open file of its own (c->p[0]). */
static long lock_file(struct cell *c, int how)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1 };

	snprintf(c->buf, sizeof(c->buf), "/tmp/matrix.lock.%d", (int)getpid());
	c->fd = (int)rsys(SYS_open, c->buf, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (c->fd < 0)
		return c->fd;
	if (how == 0)
		return rsys(SYS_flock, c->fd, LOCK_EX);
	return rsys(SYS_fcntl, c->fd, how, &fl);
}

static long flock_file(struct cell *c)
{
	return lock_file(c, 0);
}

static long setlk_file(struct cell *c)
{
	return lock_file(c, F_SETLK);
}

static long ofd_setlk_file(struct cell *c)
{
	return lock_file(c, F_OFD_SETLK);
}

static void open_own(struct cell *c)
{
	c->p[0] = (int)rsys(SYS_open, c->buf, O_RDWR);
}

static long call_flock(struct cell *c)
{
	return rsys(SYS_flock, c->p[0], LOCK_EX);
}

static long setlkw(struct cell *c, int cmd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1 };

	return rsys(SYS_fcntl, c->p[0], cmd, &fl);
}

static long call_setlkw(struct cell *c)
{
	return setlkw(c, F_SETLKW);
}

static long call_ofd_setlkw(struct cell *c)
{
	return setlkw(c, F_OFD_SETLKW);
}

static void unlock_file(struct cell *c)
{
	struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET, .l_len = 1 };

	rsys(SYS_flock, c->fd, LOCK_UN);
	rsys(SYS_fcntl, c->fd, F_SETLK, &fl);
	rsys(SYS_fcntl, c->fd, F_OFD_SETLK, &fl);
}

static void unlink_file(struct cell *c)
{
	close(c->fd);
	unlink(c->buf);
}

/* inotify: an instance watching a directory of the parent's own for
 * IN_CREATE; the completion makes a file there: one event of 32 bytes. */
static long mkinotify(struct cell *c)
{
	snprintf(c->buf, sizeof(c->buf), "/tmp/matrix.inotify.%d", (int)getpid());
	if (mkdir(c->buf, 0700))
		return -errno;
	c->fd = (int)rsys(SYS_inotify_init1, 0);
	if (c->fd < 0)
		return c->fd;
	return rsys(SYS_inotify_add_watch, c->fd, c->buf, 0x100 /* IN_CREATE */) < 0 ? -EINVAL : 0;
}

static long read_inotify(struct cell *c)
{
	return rsys(SYS_read, c->fd, c->buf + 64, 64);
}

static int ret_is_32(struct cell *c, long ret)
{
	return ret == 32;
}

static void inotify_create(struct cell *c)
{
	char name[160];

	snprintf(name, sizeof(name), "%s/f", c->buf);
	close((int)rsys(SYS_open, name, O_WRONLY | O_CREAT, 0600));
}

static void rm_inotify_dir(struct cell *c)
{
	char name[160];

	close(c->fd);
	snprintf(name, sizeof(name), "%s/f", c->buf);
	unlink(name);
	rmdir(c->buf);
}

/* System V IPC (kernel/ipc/): msgrcv on an empty queue, msgsnd on a full
 * one (qbytes 1, one byte in it), semop and semtimedop decrementing a
 * semaphore at 0. c->fd is the object's id; the completion sends,
 * receives or increments. */
struct matrix_msgbuf {
	long mtype;
	char mtext[8];
};

static long mkmsq(struct cell *c)
{
	c->fd = (int)rsys(SYS_msgget, 0 /* IPC_PRIVATE */, 0600);
	return c->fd < 0 ? c->fd : 0;
}

static long full_msq(struct cell *c)
{
	struct matrix_msgbuf m = { .mtype = 1 };
	unsigned long ds[15];	/* struct msqid64_ds: msg_qbytes is ds[11] */
	long r = mkmsq(c);

	if (r || (r = rsys(SYS_msgctl, c->fd, 2 /* IPC_STAT */, ds)))
		return r;
	ds[11] = 1;
	if ((r = rsys(SYS_msgctl, c->fd, 1 /* IPC_SET */, ds)))
		return r;
	return rsys(SYS_msgsnd, c->fd, &m, 1, 0);
}

static long call_msgrcv(struct cell *c)
{
	struct matrix_msgbuf m;

	return rsys(SYS_msgrcv, c->fd, &m, 8, 0, 0);
}

static long call_msgsnd(struct cell *c)
{
	struct matrix_msgbuf m = { .mtype = 1 };

	return rsys(SYS_msgsnd, c->fd, &m, 1, 0);
}

static void msgsnd_1(struct cell *c)
{
	call_msgsnd(c);
}

static void msgrcv_1(struct cell *c)
{
	struct matrix_msgbuf m;

	rsys(SYS_msgrcv, c->fd, &m, 8, 0, 04000 /* IPC_NOWAIT */);
}

static void rm_msq(struct cell *c)
{
	rsys(SYS_msgctl, c->fd, 0 /* IPC_RMID */, NULL);
}

struct matrix_sembuf {
	unsigned short sem_num;
	short sem_op, sem_flg;
};

static long mksem(struct cell *c)
{
	c->fd = (int)rsys(SYS_semget, 0 /* IPC_PRIVATE */, 1, 0600);
	return c->fd < 0 ? c->fd : 0;
}

static long call_semop(struct cell *c)
{
	struct matrix_sembuf op = { 0, -1, 0 };

	return rsys(SYS_semop, c->fd, &op, 1);
}

static long call_semtimedop(struct cell *c)
{
	struct matrix_sembuf op = { 0, -1, 0 };
	struct timespec ts = { LONG_MS / 1000, 0 };

	return rsys(SYS_semtimedop, c->fd, &op, 1, &ts);
}

static void sem_up(struct cell *c)
{
	struct matrix_sembuf op = { 0, 1, 0 };

	rsys(SYS_semop, c->fd, &op, 1);
}

static void rm_sem(struct cell *c)
{
	rsys(SYS_semctl, c->fd, 0, 0 /* IPC_RMID */, 0);
}

/* POSIX message queues: a queue of one 8-byte message, unlinked at once
 * (the fds keep it); mq_send waits on it full. */
static long mkmq(struct cell *c)
{
	long attr[8] = { 0, 1, 8, 0 };	/* mq_flags, mq_maxmsg, mq_msgsize */
	char name[32];

	snprintf(name, sizeof(name), "matrix.%d", (int)getpid());
	c->fd = (int)rsys(SYS_mq_open, name, O_RDWR | O_CREAT | O_EXCL, 0600, attr);
	if (c->fd < 0)
		return c->fd;
	return rsys(SYS_mq_unlink, name);
}

static long full_mq(struct cell *c)
{
	long r = mkmq(c);

	return r ? r : rsys(SYS_mq_timedsend, c->fd, "x", 1, 0, NULL);
}

static long call_mq_receive(struct cell *c)
{
	return rsys(SYS_mq_timedreceive, c->fd, c->buf + 64, 8, NULL, NULL);
}

static long call_mq_timedreceive(struct cell *c)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += LONG_MS / 1000;
	return rsys(SYS_mq_timedreceive, c->fd, c->buf + 64, 8, NULL, &ts);
}

static long call_mq_send(struct cell *c)
{
	return rsys(SYS_mq_timedsend, c->fd, "x", 1, 0, NULL);
}

static void mq_send_1(struct cell *c)
{
	call_mq_send(c);
}

static void mq_receive_1(struct cell *c)
{
	rsys(SYS_mq_timedreceive, c->fd, c->buf, 8, NULL, NULL);
}

/* ---- AF_UNIX sockets (kernel/net/af_unix.c) ---- */

/* A stream socketpair in c->p: the child uses p[0], the parent p[1]. */
static long mksockpair(struct cell *c)
{
	return rsys(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, c->p);
}

/* The same, p[0] with a 5 s SO_RCVTIMEO and SO_SNDTIMEO (never reached):
 * signal(7)'s sockets with a timeout, EINTR after any signal. */
static long mksockpair_timeo(struct cell *c)
{
	struct timeval tv = { LONG_MS / 1000, 0 };
	long r = mksockpair(c);

	if (r)
		return r;
	r = rsys(SYS_setsockopt, c->p[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return r ? r : rsys(SYS_setsockopt, c->p[0], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static void write_sock(struct cell *c)
{
	put(c->p[1], "x", 1);
}

static long recv_sock(struct cell *c)
{
	return rsys(SYS_recvfrom, c->p[0], c->buf, 1, 0, 0, 0);
}

/* A socketpair whose p[0] cannot send: filled without blocking. */
static long full_sockpair(struct cell *c, long (*mk)(struct cell *))
{
	long r = mk(c);

	if (r)
		return r;
	memset(c->buf, 'x', sizeof(c->buf));
	while (rsys(SYS_sendto, c->p[0], c->buf, sizeof(c->buf), MSG_DONTWAIT, 0, 0) > 0)
		;
	return 0;
}

static long full_sock(struct cell *c)
{
	return full_sockpair(c, mksockpair);
}

static long full_sock_timeo(struct cell *c)
{
	return full_sockpair(c, mksockpair_timeo);
}

static long send_sock(struct cell *c)
{
	return rsys(SYS_sendto, c->p[0], "y", 1, 0, 0, 0);
}

/* Read all p[1] holds: p[0] can send again. */
static void drain_sock(struct cell *c)
{
	static char big[1 << 16];

	while (rsys(SYS_recvfrom, c->p[1], big, sizeof(big), MSG_DONTWAIT, 0, 0) > 0)
		;
}

/* The listener's abstract name: the parent's pid in it (c->buf, made by
 * mklistener, so the child has the same). */
static socklen_t listen_addr(struct cell *c, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "%.100s", c->buf);
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(sa->sun_path + 1);
}

/* A listener in c->fd. */
static long mklistener(struct cell *c, int backlog)
{
	struct sockaddr_un sa;
	socklen_t len;
	long r;

	snprintf(c->buf, sizeof(c->buf), "umk-matrix-%d", (int)getpid());
	len = listen_addr(c, &sa);

	c->p[0] = c->p[1] = -1;
	c->fd = (int)rsys(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	if (c->fd < 0)
		return c->fd;
	r = rsys(SYS_bind, c->fd, &sa, len);
	return r ? r : rsys(SYS_listen, c->fd, backlog);
}

static long mklistener5(struct cell *c)
{
	return mklistener(c, 5);
}

/* A listener whose backlog (0) one pending connection fills (p[0]). */
static long mklistener_full(struct cell *c)
{
	struct sockaddr_un sa;
	socklen_t len;
	long r = mklistener(c, 0);

	if (r)
		return r;
	len = listen_addr(c, &sa);
	c->p[0] = (int)rsys(SYS_socket, AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	return rsys(SYS_connect, c->p[0], &sa, len);
}

static long call_accept(struct cell *c)
{
	return rsys(SYS_accept, c->fd, 0, 0);
}

static long call_connect(struct cell *c)
{
	struct sockaddr_un sa;
	socklen_t len = listen_addr(c, &sa);
	long fd = rsys(SYS_socket, AF_UNIX, SOCK_STREAM, 0);

	return fd < 0 ? fd : rsys(SYS_connect, fd, &sa, len);
}

/* The parent connects: the child's accept returns. */
static void connect_listener(struct cell *c)
{
	struct sockaddr_un sa;
	socklen_t len = listen_addr(c, &sa);

	c->p[1] = (int)rsys(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	if (rsys(SYS_connect, c->p[1], &sa, len))
		die("connect to the matrix listener failed");
}

/* The parent accepts the pending connection: room for the child's. */
static void accept_one(struct cell *c)
{
	long fd = rsys(SYS_accept, c->fd, 0, 0);

	if (fd < 0)
		die("accept on the matrix listener failed");
	close((int)fd);
}

static void close_listener(struct cell *c)
{
	close(c->fd);
	if (c->p[0] >= 0)
		close(c->p[0]);
	if (c->p[1] >= 0)
		close(c->p[1]);
}

static const struct row rows[] = {
	{ "read", mkpipe, NULL, read_pipe, ret_is_1, write_pipe, close_pipe, 0 },
	{ "write", full_pipe, NULL, write_full, ret_is_1, drain_pipe, close_pipe, 0 },
	{ "readv", mkpipe, NULL, readv_pipe, ret_is_1, write_pipe, close_pipe, 0 },
	{ "wait4", mkgo, fork_grandchild, call_wait4, is_gc, write_go, close_go, 0 },
	{ "waitid", mkgo, fork_grandchild, call_waitid, ret_is_0, write_go, close_go, 0 },
	{ "futex_wait", mkword, NULL, futex_untimed, ret_is_0, futex_wake, unmap_word, 0 },
	{ "futex_wait_timed", mkword, NULL, futex_timed, ret_is_0, futex_wake, unmap_word, 0 },
	{ "nanosleep", NULL, NULL, call_nanosleep, ret_is_0, NULL, NULL, SLEEP_MS },
	{ "clock_nanosleep", NULL, NULL, call_clock_nanosleep, ret_is_0, NULL, NULL, SLEEP_MS },
	{ "pause", NULL, handle_usr2, call_pause, eintr_after_usr2, send_usr2, NULL, 0 },
	{ "sigsuspend", NULL, block_usr12, call_sigsuspend, eintr_after_usr2, send_usr2, NULL, 0 },
	{ "rt_sigtimedwait", NULL, block_usr2, sigtimedwait_forever, is_usr2, send_usr2, NULL, 0 },
	{ "rt_sigtimedwait_timed", NULL, block_usr2, sigtimedwait_timed, is_usr2, send_usr2, NULL, 0 },
	{ "poll", mkpipe, NULL, call_poll, ret_is_1, write_pipe, close_pipe, 0 },
	{ "ppoll", mkpipe, NULL, call_ppoll, ret_is_1, write_pipe, close_pipe, 0 },
	{ "select", mkpipe, NULL, call_select, ret_is_1, write_pipe, close_pipe, 0 },
	{ "pselect6", mkpipe, NULL, call_pselect6, ret_is_1, write_pipe, close_pipe, 0 },
	{ "epoll_wait", mkepoll, NULL, call_epoll_wait, ret_is_1, write_pipe, close_epoll, 0 },
	{ "epoll_pwait", mkepoll, NULL, call_epoll_pwait, ret_is_1, write_pipe, close_epoll, 0 },
	{ "io_getevents", mkpipe, aio_poll_pipe, call_io_getevents, ret_is_1, write_pipe, close_pipe, 0 },
	{ "io_pgetevents", mkpipe, aio_poll_pipe, call_io_pgetevents, ret_is_1, write_pipe, close_pipe, 0 },
	{ "eventfd_read", mkeventfd, NULL, read_fd8, ret_is_8, eventfd_add, close_fd, 0 },
	{ "signalfd_read", mksignalfd, block_usr2, read_signalfd, ret_is_128, send_usr2, close_fd, 0 },
	{ "timerfd_read", mktimerfd, NULL, read_fd8, ret_is_8, timerfd_fire, close_fd, 0 },
	{ "fifo_open_read", mkfifo_cell, NULL, open_fifo_rd, ret_is_fd, open_fifo_writer, unlink_fifo, 0 },
	{ "fifo_open_write", mkfifo_cell, NULL, open_fifo_wr, ret_is_fd, open_fifo_reader, unlink_fifo, 0 },
	{ "fifo_read", fifo_rdwr, NULL, read_fd1, ret_is_1, write_fd1, unlink_fifo, 0 },
	{ "flock", flock_file, open_own, call_flock, ret_is_0, unlock_file, unlink_file, 0 },
	{ "fcntl_setlkw", setlk_file, open_own, call_setlkw, ret_is_0, unlock_file, unlink_file, 0 },
	{ "fcntl_ofd_setlkw", ofd_setlk_file, open_own, call_ofd_setlkw, ret_is_0, unlock_file, unlink_file, 0 },
	{ "inotify_read", mkinotify, NULL, read_inotify, ret_is_32, inotify_create, rm_inotify_dir, 0 },
	{ "msgrcv", mkmsq, NULL, call_msgrcv, ret_is_1, msgsnd_1, rm_msq, 0 },
	{ "msgsnd_full", full_msq, NULL, call_msgsnd, ret_is_0, msgrcv_1, rm_msq, 0 },
	{ "semop", mksem, NULL, call_semop, ret_is_0, sem_up, rm_sem, 0 },
	{ "semtimedop", mksem, NULL, call_semtimedop, ret_is_0, sem_up, rm_sem, 0 },
	{ "mq_receive", mkmq, NULL, call_mq_receive, ret_is_1, mq_send_1, close_fd, 0 },
	{ "mq_timedreceive", mkmq, NULL, call_mq_timedreceive, ret_is_1, mq_send_1, close_fd, 0 },
	{ "mq_send_full", full_mq, NULL, call_mq_send, ret_is_0, mq_receive_1, close_fd, 0 },
	/* AF_UNIX sockets: with SO_RCVTIMEO/SO_SNDTIMEO, EINTR even after a stop */
	{ "recv", mksockpair, NULL, recv_sock, ret_is_1, write_sock, close_pipe, 0 },
	{ "recv_rcvtimeo", mksockpair_timeo, NULL, recv_sock, ret_is_1, write_sock, close_pipe, 0 },
	{ "send", full_sock, NULL, send_sock, ret_is_1, drain_sock, close_pipe, 0 },
	{ "send_sndtimeo", full_sock_timeo, NULL, send_sock, ret_is_1, drain_sock, close_pipe, 0 },
	{ "accept", mklistener5, NULL, call_accept, ret_is_fd, connect_listener, close_listener, 0 },
	{ "connect_backlog", mklistener_full, NULL, call_connect, ret_is_0, accept_one, close_listener, 0 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* ---- The child ---- */

static void outcome(char *buf, size_t n, const struct row *r, struct cell *c, long ret)
{
	if (r->done(c, ret))
		snprintf(buf, n, "restarted");
	else if (ret < 0 && ret > -4096)
		snprintf(buf, n, "%s", errno_name((int)-ret));
	else
		snprintf(buf, n, "ret=%ld", ret);
}

static void __attribute__((noreturn)) child(const struct row *r, struct cell *c, int fd)
{
	char msg[64];
	long ret;

	ctl = fd;
	if (c->col != STOP)
		handle(SIGUSR1, on_usr1, c->col == RESTART ? SA_RESTART : 0);
	if (r->prep)
		r->prep(c);
	put(ctl, "r", 1);
	ret = r->call(c);
	msg[0] = '=';
	outcome(msg + 1, sizeof(msg) - 2, r, c, ret);
	strcat(msg, "\n");
	put(ctl, msg, strlen(msg));
	_exit(0);
}

/* ---- The parent ---- */

/* What the control pipe brought so far. */
struct ctl_in {
	int fd;
	char text[128];
	size_t len;
};

/* Read what has arrived within MS milliseconds (0: what is there). */
static void ctl_poll(struct ctl_in *in, int ms)
{
	struct pollfd pfd = { in->fd, POLLIN, 0 };
	long n;

	if (rsys(SYS_poll, &pfd, 1, ms) <= 0)
		return;
	n = rsys(SYS_read, in->fd, in->text + in->len, sizeof(in->text) - 1 - in->len);
	if (n > 0)
		in->len += n;
	in->text[in->len] = 0;
}

static int ctl_has(struct ctl_in *in, char ch)
{
	return memchr(in->text, ch, in->len) != NULL;
}

static int reported(struct ctl_in *in)
{
	char *eq = memchr(in->text, '=', in->len);

	return eq && strchr(eq, '\n');
}

/* Wait until the control pipe brings CH: 0, or -1 after STEP_MS. */
static int wait_ctl(struct ctl_in *in, char ch)
{
	double end = now_ms() + STEP_MS;

	while (!ctl_has(in, ch)) {
		if (now_ms() > end)
			return -1;
		ctl_poll(in, 10);
	}
	return 0;
}

/* Wait until the child has reported (1) or is asleep, state S twice
 * SETTLE_MS apart (0); -1 after STEP_MS. */
static int wait_asleep(struct ctl_in *in, pid_t pid, int or_report)
{
	double end = now_ms() + STEP_MS;

	for (;;) {
		ctl_poll(in, 0);
		if (or_report && reported(in))
			return 1;
		if (proc_state(pid) == 'S') {
			ctl_poll(in, SETTLE_MS);
			if (or_report && reported(in))
				return 1;
			if (proc_state(pid) == 'S')
				return 0;
		}
		if (now_ms() > end)
			return -1;
		sleep_ms(1);
	}
}

static int wait_state(pid_t pid, char want)
{
	double end = now_ms() + STEP_MS;

	while (proc_state(pid) != want) {
		if (now_ms() > end)
			return -1;
		sleep_ms(1);
	}
	return 0;
}

/* Wait for the outcome within MS: 0, or -1. */
static int wait_report(struct ctl_in *in, int ms)
{
	double end = now_ms() + ms;

	while (!reported(in)) {
		if (now_ms() > end)
			return -1;
		ctl_poll(in, 10);
	}
	return 0;
}

/* Reap whatever child has ended: under umk, where this program is pid 1,
 * an orphaned grandchild comes back to it. */
static void reap_strays(void)
{
	int st;

	while (waitpid(-1, &st, WNOHANG) > 0)
		;
}

/* Run one cell once into OUT: 0, or -1 when it must run again (the
 * signal came too late to tell for a call that ends by itself). */
static int run_cell(const struct row *r, enum column col, char *out, size_t n)
{
	struct cell c;
	struct ctl_in in = { -1, "", 0 };
	int cp[2], st, retry = 0;
	const char *fail = NULL;
	double t_ready;
	long e;

	memset(&c, 0, sizeof(c));
	c.col = col;
	c.fd = -1;
	if (r->setup && (e = r->setup(&c)) != 0) {
		snprintf(out, n, "%s", errno_name((int)-e));
		return 0;
	}
	if (pipe(cp))
		die("pipe failed");
	fflush(stdout);
	c.child = fork();
	if (c.child < 0)
		die("fork failed");
	if (c.child == 0) {
		close(cp[0]);
		child(r, &c, cp[1]);
	}
	close(cp[1]);
	in.fd = cp[0];

	if (wait_ctl(&in, 'r')) {
		fail = "hang before the call";
		goto out;
	}
	t_ready = now_ms();
	if (wait_asleep(&in, c.child, 0)) {
		fail = "hang: never asleep";
		goto out;
	}
	if (r->ends_ms && now_ms() - t_ready > r->ends_ms / 2) {
		retry = 1;
		goto out;
	}
	if (col == STOP) {
		kill(c.child, SIGSTOP);
		if (wait_state(c.child, 'T')) {
			fail = "hang: never stopped";
			goto out;
		}
		kill(c.child, SIGCONT);
	} else {
		kill(c.child, SIGUSR1);
		if (wait_ctl(&in, 'h')) {
			fail = "hang: no handler";
			goto out;
		}
	}
	switch (wait_asleep(&in, c.child, 1)) {
	case -1:
		fail = "hang after the signal";
		goto out;
	case 0:
		if (r->complete)
			r->complete(&c);
		break;
	}
	if (wait_report(&in, STEP_MS + r->ends_ms))
		fail = "hang after the completion";
out:
	if (fail || retry)
		kill(c.child, SIGKILL);
	if (waitpid(c.child, &st, 0) != c.child)
		die("waitpid failed");
	if (!fail && !retry && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
		fail = status_text(st);
	if (fail) {
		snprintf(out, n, "%s", fail);
	} else if (!retry) {
		char *eq = memchr(in.text, '=', in.len);

		snprintf(out, n, "%.*s", (int)strcspn(eq + 1, "\n"), eq + 1);
	}
	close(in.fd);
	if (r->cleanup)
		r->cleanup(&c);
	reap_strays();
	return retry ? -1 : 0;
}

static int wanted(const struct row *r, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], r->name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;
	int col, try;
	char out[64];

	signal(SIGPIPE, SIG_IGN);
	for (i = 1; i < (size_t)argc; i++) {
		size_t k;

		for (k = 0; k < NROWS && strcmp(argv[i], rows[k].name); k++)
			;
		if (k == NROWS)
			die("no row %s", argv[i]);
	}
	for (i = 0; i < NROWS; i++) {
		if (!wanted(&rows[i], argc, argv))
			continue;
		for (col = 0; col < NCOLUMNS; col++) {
			for (try = 0; try < 3; try++)
				if (run_cell(&rows[i], col, out, sizeof(out)) == 0)
					break;
			if (try == 3)
				snprintf(out, sizeof(out), "too slow to tell");
			printf("%s %s %s\n", rows[i].name, column_names[col], out);
			fflush(stdout);
		}
	}
	return 0;
}
