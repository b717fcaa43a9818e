/*
 * pollwait CASE: poll, ppoll, select, pselect6 and timed futex waits, with
 * raw system calls (musl's select copies the timeval, hiding the time left
 * that the kernel writes back). Each case prints one line per call: the
 * call, its return value or errno name, and times rounded to 50 ms.
 *
 *   timeouts   each call times out after about the time asked; select and
 *              pselect6 leave 0 in the timeout, a zero timeout does not wait
 *   ready      a pipe written by a thread at 100 ms wakes each call (300 ms
 *              timeout), and the time left is written back
 *   ends       ready events of pipe ends (POLLOUT, POLLHUP, POLLERR) and of
 *              a negative fd
 *   errors     POLLNVAL, EBADF, EFAULT and EINVAL cases
 *   eintr [restart]   a thread sends SIGUSR1 at 100 ms during a 300 ms wait;
 *              the handler is installed without (or with) SA_RESTART
 *   sigmask    ppoll's temporary mask: a blocked pending signal interrupts
 *              a ppoll that unblocks it, a ppoll that blocks it times out,
 *              and the old mask is back afterwards
 *   stop CALL  CALL waits 400 ms in a child the parent stops at 100 ms and
 *              continues at 200 ms; poll and futex resume their absolute end
 *              (restart_syscall), select, pselect6 and ppoll restart with
 *              the time left they wrote back; poll-forever: poll without a
 *              timeout, which a thread's write at 400 ms ends
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define FUTEX_WAIT_PRIVATE 128	/* FUTEX_WAIT | FUTEX_PRIVATE_FLAG */
#define FUTEX_WAKE_PRIVATE 129	/* FUTEX_WAKE | FUTEX_PRIVATE_FLAG */

#define ROUND 50.0
#define BAD ((void *)8)		/* an address nobody maps */

/* The kernel's fd_set and sigset: 1024 bits, and 64 bits. */
typedef struct { unsigned long bits[1024 / 64]; } kfd_set;
typedef unsigned long ksigset;

static long rounded(double ms)
{
	return (long)(ms / ROUND + 0.5) * (long)ROUND;
}

static double t0;

static long elapsed(void)
{
	return rounded(now_ms() - t0);
}

static long ts_ms(const struct timespec *ts)
{
	return rounded(ts->tv_sec * 1e3 + ts->tv_nsec / 1e6);
}

static long tv_ms(const struct timeval *tv)
{
	return rounded(tv->tv_sec * 1e3 + tv->tv_usec / 1e3);
}

static const char *result(long ret)
{
	static char buf[32];

	if (ret < 0 && ret > -4096)
		snprintf(buf, sizeof(buf), "-1 %s", errno_name((int)-ret));
	else
		snprintf(buf, sizeof(buf), "%ld", ret);
	return buf;
}

static const char *events(short ev)
{
	static const struct { short bit; const char *name; } names[] = {
		{ POLLIN, "POLLIN" },	{ POLLPRI, "POLLPRI" },	  { POLLOUT, "POLLOUT" },
		{ POLLERR, "POLLERR" }, { POLLHUP, "POLLHUP" },	  { POLLNVAL, "POLLNVAL" },
		{ POLLRDNORM, "POLLRDNORM" }, { POLLWRNORM, "POLLWRNORM" },
	};
	static char buf[128];
	size_t i;

	buf[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (ev & names[i].bit) {
			if (buf[0])
				strcat(buf, "|");
			strcat(buf, names[i].name);
		}
	}
	return buf[0] ? buf : "0";
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

static struct timeval ms_tv(long ms)
{
	return (struct timeval){ ms / 1000, ms % 1000 * 1000L };
}

static int fd_isset(int fd, const kfd_set *s)
{
	return (s->bits[fd / 64] >> (fd % 64)) & 1;
}

static void fd_set1(int fd, kfd_set *s)
{
	memset(s, 0, sizeof(*s));
	s->bits[fd / 64] |= 1UL << (fd % 64);
}

/* ---- a helper thread that acts at given times ---- */

enum act { ACT_WRITE, ACT_SIGNAL, ACT_WAKE };

struct later {
	long ms;
	enum act act;
	int fd;			/* ACT_WRITE */
	pid_t tid;		/* ACT_SIGNAL: gets SIGUSR1 */
	unsigned int *word;	/* ACT_WAKE: futex to wake */
	pthread_t thread;
};

static void *later_fn(void *arg)
{
	struct later *l = arg;

	sleep_ms(l->ms);
	switch (l->act) {
	case ACT_WRITE:
		if (write(l->fd, "x", 1) != 1)
			die("write failed");
		break;
	case ACT_SIGNAL:
		rsys(SYS_tgkill, getpid(), l->tid, SIGUSR1);
		break;
	case ACT_WAKE:
		*l->word = 1;
		rsys(SYS_futex, l->word, FUTEX_WAKE_PRIVATE, 1);
		break;
	}
	return NULL;
}

static struct later *start_later(long ms, enum act act, int fd, unsigned int *word)
{
	struct later *l = calloc(1, sizeof(*l));

	l->ms = ms;
	l->act = act;
	l->fd = fd;
	l->tid = (pid_t)rsys0(SYS_gettid);
	l->word = word;
	if (pthread_create(&l->thread, NULL, later_fn, l))
		die("pthread_create failed");
	t0 = now_ms();
	return l;
}

static void join_later(struct later *l)
{
	pthread_join(l->thread, NULL);
	free(l);
}

/* ---- the calls, each with a timeout in ms (< 0: none) ---- */

static long do_poll(struct pollfd *fds, int nfds, long ms)
{
	return rsys(SYS_poll, fds, nfds, ms);
}

/* ppoll, pselect6 and select print the time left they wrote back. */
static long do_ppoll(struct pollfd *fds, int nfds, long ms, const ksigset *mask, char *left)
{
	struct timespec ts = ms_ts(ms);
	long ret = rsys(SYS_ppoll, fds, nfds, ms < 0 ? NULL : &ts, mask, sizeof(ksigset));

	snprintf(left, 40, ms < 0 ? "" : ", left %ld ms", ts_ms(&ts));
	return ret;
}

static long do_select(int n, kfd_set *in, kfd_set *out, long ms, char *left)
{
	struct timeval tv = ms_tv(ms);
	long ret = rsys(SYS_select, n, in, out, NULL, ms < 0 ? NULL : &tv);

	snprintf(left, 40, ms < 0 ? "" : ", left %ld ms", tv_ms(&tv));
	return ret;
}

static long do_pselect6(int n, kfd_set *in, kfd_set *out, long ms, char *left)
{
	struct timespec ts = ms_ts(ms);
	long ret = rsys(SYS_pselect6, n, in, out, NULL, ms < 0 ? NULL : &ts, NULL);

	snprintf(left, 40, ms < 0 ? "" : ", left %ld ms", ts_ms(&ts));
	return ret;
}

/* FUTEX_WAIT on a word nobody changes (unless woken by a helper). */
static long do_futex(unsigned int *word, long ms)
{
	struct timespec ts = ms_ts(ms);

	return rsys(SYS_futex, word, FUTEX_WAIT_PRIVATE, *word, ms < 0 ? NULL : &ts);
}

/* ---- cases ---- */

static void case_timeouts(void)
{
	char left[40];
	kfd_set none;
	long ret;

	memset(&none, 0, sizeof(none));
	t0 = now_ms();
	ret = do_poll(NULL, 0, 100);
	printf("poll(none, 100 ms) = %s after %ld ms\n", result(ret), elapsed());
	t0 = now_ms();
	ret = do_ppoll(NULL, 0, 100, NULL, left);
	printf("ppoll(none, 100 ms) = %s after %ld ms%s\n", result(ret), elapsed(), left);
	t0 = now_ms();
	ret = do_select(0, NULL, NULL, 100, left);
	printf("select(none, 100 ms) = %s after %ld ms%s\n", result(ret), elapsed(), left);
	t0 = now_ms();
	ret = do_pselect6(0, NULL, NULL, 100, left);
	printf("pselect6(none, 100 ms) = %s after %ld ms%s\n", result(ret), elapsed(), left);

	int p[2];
	unsigned int word = 0;

	if (pipe(p))
		die("pipe failed");
	struct pollfd pfd = { .fd = p[0], .events = POLLIN };
	kfd_set in;

	t0 = now_ms();
	ret = do_poll(&pfd, 1, 150);
	printf("poll(empty pipe, 150 ms) = %s after %ld ms, revents %s\n", result(ret), elapsed(),
	       events(pfd.revents));
	fd_set1(p[0], &in);
	t0 = now_ms();
	ret = do_select(p[0] + 1, &in, NULL, 150, left);
	printf("select(empty pipe, 150 ms) = %s after %ld ms%s, in set %d\n", result(ret),
	       elapsed(), left, fd_isset(p[0], &in));
	fd_set1(p[0], &in);
	t0 = now_ms();
	ret = do_pselect6(p[0] + 1, &in, NULL, 150, left);
	printf("pselect6(empty pipe, 150 ms) = %s after %ld ms%s, in set %d\n", result(ret),
	       elapsed(), left, fd_isset(p[0], &in));
	t0 = now_ms();
	ret = do_ppoll(&pfd, 1, 150, NULL, left);
	printf("ppoll(empty pipe, 150 ms) = %s after %ld ms%s\n", result(ret), elapsed(), left);
	t0 = now_ms();
	ret = do_futex(&word, 150);
	printf("futex_wait(150 ms) = %s after %ld ms\n", result(ret), elapsed());

	t0 = now_ms();
	ret = do_poll(&pfd, 1, 0);
	printf("poll(empty pipe, 0 ms) = %s after %ld ms\n", result(ret), elapsed());
	t0 = now_ms();
	ret = do_ppoll(&pfd, 1, 0, NULL, left);
	printf("ppoll(empty pipe, 0 ms) = %s after %ld ms%s\n", result(ret), elapsed(), left);
	fd_set1(p[0], &in);
	t0 = now_ms();
	ret = do_select(p[0] + 1, &in, NULL, 0, left);
	printf("select(empty pipe, 0 ms) = %s after %ld ms%s\n", result(ret), elapsed(), left);
	/* A timeval that cannot be written back does not fail a select. */
	struct timeval *ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (ro == MAP_FAILED)
		die("mmap failed");
	*ro = ms_tv(100);
	if (mprotect(ro, 4096, PROT_READ))
		die("mprotect failed");
	fd_set1(p[0], &in);
	t0 = now_ms();
	ret = rsys(SYS_select, p[0] + 1, &in, NULL, NULL, ro);
	printf("select(empty pipe, read-only 100 ms) = %s after %ld ms, timeout still %ld ms\n",
	       result(ret), elapsed(), tv_ms(ro));
	close(p[0]);
	close(p[1]);
}

static void case_ready(void)
{
	int p[2];
	struct pollfd pfd[2];
	kfd_set in;
	char left[40];
	struct later *l;
	long ret;
	char c;

	if (pipe(p))
		die("pipe failed");

	pfd[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	l = start_later(100, ACT_WRITE, p[1], NULL);
	ret = do_poll(pfd, 1, 300);
	printf("poll(pipe written at 100 ms, 300 ms) = %s after %ld ms, revents %s\n", result(ret),
	       elapsed(), events(pfd[0].revents));
	join_later(l);
	read(p[0], &c, 1);

	l = start_later(100, ACT_WRITE, p[1], NULL);
	ret = do_ppoll(pfd, 1, 300, NULL, left);
	printf("ppoll(pipe written at 100 ms, 300 ms) = %s after %ld ms%s, revents %s\n",
	       result(ret), elapsed(), left, events(pfd[0].revents));
	join_later(l);
	read(p[0], &c, 1);

	fd_set1(p[0], &in);
	l = start_later(100, ACT_WRITE, p[1], NULL);
	ret = do_select(p[0] + 1, &in, NULL, 300, left);
	printf("select(pipe written at 100 ms, 300 ms) = %s after %ld ms%s, in set %d\n",
	       result(ret), elapsed(), left, fd_isset(p[0], &in));
	join_later(l);
	read(p[0], &c, 1);

	fd_set1(p[0], &in);
	l = start_later(100, ACT_WRITE, p[1], NULL);
	ret = do_pselect6(p[0] + 1, &in, NULL, 300, left);
	printf("pselect6(pipe written at 100 ms, 300 ms) = %s after %ld ms%s, in set %d\n",
	       result(ret), elapsed(), left, fd_isset(p[0], &in));
	join_later(l);
	read(p[0], &c, 1);

	/* No timeout at all: only the data ends the wait. */
	l = start_later(100, ACT_WRITE, p[1], NULL);
	ret = do_poll(pfd, 1, -1);
	printf("poll(pipe written at 100 ms, no timeout) = %s after %ld ms, revents %s\n",
	       result(ret), elapsed(), events(pfd[0].revents));
	join_later(l);
	fd_set1(p[0], &in);
	ret = do_select(p[0] + 1, &in, NULL, -1, left);
	printf("select(pipe with data, no timeout) = %s, in set %d\n", result(ret),
	       fd_isset(p[0], &in));
	read(p[0], &c, 1);

	/* The same fd twice: two entries on one wait queue, one write. */
	pfd[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	l = start_later(100, ACT_WRITE, p[1], NULL);
	ret = do_poll(pfd, 2, 300);
	printf("poll(the same fd twice, written at 100 ms) = %s after %ld ms, revents %s",
	       result(ret), elapsed(), events(pfd[0].revents));
	printf(" %s\n", events(pfd[1].revents));
	join_later(l);
	close(p[0]);
	close(p[1]);
}

/* Ready events of pipe ends, and a negative fd: no waiting. */
static void case_ends(void)
{
	struct pollfd pfd[3];
	kfd_set in, out;
	char left[40];
	int p[2];
	long ret;

	if (pipe(p))
		die("pipe failed");

	/* Both ends in one call: the write end is ready, the read end not. */
	pfd[0] = (struct pollfd){ .fd = p[0], .events = POLLIN | POLLOUT };
	pfd[1] = (struct pollfd){ .fd = p[1], .events = POLLIN | POLLOUT };
	pfd[2] = (struct pollfd){ .fd = -1, .events = POLLIN };
	ret = do_poll(pfd, 3, 1000);
	printf("poll(read end, write end, fd -1) = %s, revents %s", result(ret),
	       events(pfd[0].revents));
	printf(" %s %s\n", events(pfd[1].revents), events(pfd[2].revents));
	fd_set1(p[0], &in);
	in.bits[0] |= 1UL << p[1];
	fd_set1(p[0], &out);
	out.bits[0] |= 1UL << p[1];
	ret = do_select(p[1] + 1, &in, &out, 1000, left);
	printf("select(both ends for in and out) = %s, in %d %d, out %d %d\n", result(ret),
	       fd_isset(p[0], &in), fd_isset(p[1], &in), fd_isset(p[0], &out),
	       fd_isset(p[1], &out));

	/* POLLHUP without asking: the writer is gone. */
	close(p[1]);
	pfd[0] = (struct pollfd){ .fd = p[0], .events = 0 };
	ret = do_poll(pfd, 1, 1000);
	printf("poll(read end, no writer, events 0) = %s, revents %s\n", result(ret),
	       events(pfd[0].revents));
	fd_set1(p[0], &in);
	ret = do_select(p[0] + 1, &in, NULL, 1000, left);
	printf("select(read end, no writer) = %s, in set %d\n", result(ret), fd_isset(p[0], &in));
	close(p[0]);

	/* POLLERR on a write end without a reader. */
	if (pipe(p))
		die("pipe failed");
	close(p[0]);
	pfd[0] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	ret = do_poll(pfd, 1, 1000);
	printf("poll(write end, no reader) = %s, revents %s\n", result(ret),
	       events(pfd[0].revents));
	close(p[1]);
}

static void case_errors(void)
{
	int p[2];
	struct pollfd pfd[2];
	kfd_set in;
	struct timespec ts;
	struct timeval tv;
	char left[40];
	long ret;
	int closed;

	if (pipe(p))
		die("pipe failed");
	closed = p[1] + 1;	/* the lowest fd that is not open */

	pfd[0] = (struct pollfd){ .fd = closed, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	ret = do_poll(pfd, 2, 1000);
	printf("poll(closed fd, empty pipe) = %s, revents %s", result(ret),
	       events(pfd[0].revents));
	printf(" %s\n", events(pfd[1].revents));
	ret = do_ppoll(pfd, 1, 1000, NULL, left);
	printf("ppoll(closed fd) = %s, revents %s\n", result(ret), events(pfd[0].revents));

	fd_set1(closed, &in);
	ret = do_select(closed + 1, &in, NULL, 1000, left);
	printf("select(closed fd) = %s%s\n", result(ret), left);
	fd_set1(closed, &in);
	ret = do_pselect6(closed + 1, &in, NULL, 1000, left);
	printf("pselect6(closed fd) = %s%s\n", result(ret), left);
	/* A closed fd beyond n is not looked at. */
	fd_set1(closed, &in);
	in.bits[0] |= 1UL << p[0];
	ret = do_select(p[0] + 1, &in, NULL, 0, left);
	printf("select(n below the closed fd) = %s\n", result(ret));

	ret = do_poll(BAD, 1, 0);
	printf("poll(bad pollfd pointer) = %s\n", result(ret));
	ret = do_poll(BAD, 0, 0);
	printf("poll(bad pointer, nfds 0) = %s\n", result(ret));
	ret = do_poll(pfd, 0xffffffffU, 0);
	printf("poll(nfds UINT_MAX) = %s\n", result(ret));
	ret = rsys(SYS_ppoll, pfd + 1, 1, BAD, NULL, 8);
	printf("ppoll(bad timespec pointer) = %s\n", result(ret));
	ts = ms_ts(0);
	ret = rsys(SYS_ppoll, pfd + 1, 1, &ts, BAD, 8);
	printf("ppoll(bad sigmask pointer) = %s\n", result(ret));
	ret = rsys(SYS_ppoll, pfd + 1, 1, &ts, &ts, 4);
	printf("ppoll(sigsetsize 4) = %s\n", result(ret));
	ts.tv_nsec = 1000000000;
	ret = rsys(SYS_ppoll, pfd + 1, 1, &ts, NULL, 8);
	printf("ppoll(tv_nsec 1000000000) = %s\n", result(ret));
	ts = (struct timespec){ -1, 0 };
	ret = rsys(SYS_ppoll, pfd + 1, 1, &ts, NULL, 8);
	printf("ppoll(tv_sec -1) = %s\n", result(ret));

	ret = rsys(SYS_select, p[0] + 1, BAD, NULL, NULL, NULL);
	printf("select(bad readfds pointer) = %s\n", result(ret));
	fd_set1(p[0], &in);
	ret = rsys(SYS_select, p[0] + 1, &in, NULL, NULL, BAD);
	printf("select(bad timeval pointer) = %s\n", result(ret));
	ret = rsys(SYS_select, -1, NULL, NULL, NULL, NULL);
	printf("select(n -1) = %s\n", result(ret));
	tv = (struct timeval){ 0, -1 };
	ret = rsys(SYS_select, 0, NULL, NULL, NULL, &tv);
	printf("select(tv_usec -1) = %s\n", result(ret));
	/* Linux adds whole seconds of tv_usec to tv_sec before checking. */
	tv = (struct timeval){ -1, 1100000 };
	t0 = now_ms();
	ret = rsys(SYS_select, 0, NULL, NULL, NULL, &tv);
	printf("select(tv_sec -1, tv_usec 1100000) = %s after %ld ms, left %ld ms\n", result(ret),
	       elapsed(), tv_ms(&tv));
	ret = rsys(SYS_pselect6, 0, NULL, NULL, NULL, NULL, BAD);
	printf("pselect6(bad sigset argument) = %s\n", result(ret));
	ts = ms_ts(0);
	ret = rsys(SYS_pselect6, 0, NULL, NULL, NULL, BAD, NULL);
	printf("pselect6(bad timespec pointer) = %s\n", result(ret));
	struct { void *p; size_t size; } pack = { BAD, 8 };
	ret = rsys(SYS_pselect6, 0, NULL, NULL, NULL, &ts, &pack);
	printf("pselect6(bad sigmask pointer) = %s\n", result(ret));
	pack.p = NULL;
	pack.size = 4;
	ret = rsys(SYS_pselect6, 0, NULL, NULL, NULL, &ts, &pack);
	printf("pselect6(no sigmask, size 4) = %s\n", result(ret));

	/* Results that cannot be written back: read-only pollfd and fd_set. */
	char *ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (ro == MAP_FAILED)
		die("mmap failed");
	*(struct pollfd *)ro = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	fd_set1(p[0], (kfd_set *)(ro + 64));
	if (mprotect(ro, 4096, PROT_READ))
		die("mprotect failed");
	ret = do_poll((struct pollfd *)ro, 1, 0);
	printf("poll(read-only pollfd, ready) = %s\n", result(ret));
	ret = do_select(p[0] + 1, (kfd_set *)(ro + 64), NULL, 0, left);
	printf("select(read-only fd_set, nothing ready) = %s\n", result(ret));
	munmap(ro, 4096);
	close(p[0]);
	close(p[1]);
}

static volatile int handled;

static void on_usr1(int sig)
{
	handled++;
}

static void install(int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = flags;
	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction failed");
}

static void case_eintr(int flags)
{
	int p[2];
	struct pollfd pfd;
	kfd_set in;
	char left[40];
	unsigned int word = 0;
	struct later *l, *w;
	long ret;

	install(flags);
	if (pipe(p))
		die("pipe failed");
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };

	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = do_poll(&pfd, 1, 300);
	printf("poll(300 ms) = %s after %ld ms, handler ran %d\n", result(ret), elapsed(),
	       handled);
	join_later(l);

	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = do_poll(&pfd, 1, -1);
	printf("poll(no timeout) = %s after %ld ms, handler ran %d\n", result(ret), elapsed(),
	       handled);
	join_later(l);

	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = do_ppoll(&pfd, 1, 300, NULL, left);
	printf("ppoll(300 ms) = %s after %ld ms%s, handler ran %d\n", result(ret), elapsed(),
	       left, handled);
	join_later(l);

	fd_set1(p[0], &in);
	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = do_select(p[0] + 1, &in, NULL, 300, left);
	printf("select(300 ms) = %s after %ld ms%s, handler ran %d\n", result(ret), elapsed(),
	       left, handled);
	join_later(l);

	fd_set1(p[0], &in);
	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = do_pselect6(p[0] + 1, &in, NULL, 300, left);
	printf("pselect6(300 ms) = %s after %ld ms%s, handler ran %d\n", result(ret), elapsed(),
	       left, handled);
	join_later(l);

	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = do_futex(&word, 300);
	printf("futex_wait(300 ms) = %s after %ld ms, handler ran %d\n", result(ret), elapsed(),
	       handled);
	join_later(l);

	/* Untimed: -ERESTARTSYS, so SA_RESTART restarts it and only the
	 * wake at 200 ms ends it. */
	w = start_later(200, ACT_WAKE, 0, &word);
	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = do_futex(&word, -1);
	printf("futex_wait(no timeout, woken at 200 ms) = %s after %ld ms, handler ran %d\n",
	       result(ret), elapsed(), handled);
	join_later(l);
	join_later(w);
	close(p[0]);
	close(p[1]);
}

static void case_sigmask(void)
{
	struct pollfd pfd;
	ksigset usr1 = 1UL << (SIGUSR1 - 1), none = 0, now;
	char left[40];
	struct later *l;
	int p[2];
	long ret;

	install(0);
	if (pipe(p))
		die("pipe failed");
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };

	rsys(SYS_rt_sigprocmask, SIG_BLOCK, &usr1, NULL, 8);
	rsys(SYS_tgkill, getpid(), rsys0(SYS_gettid), SIGUSR1);
	printf("SIGUSR1 blocked and pending, handler ran %d\n", handled);
	t0 = now_ms();
	ret = do_ppoll(&pfd, 1, 300, &none, left);
	rsys(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8);
	printf("ppoll(300 ms, mask unblocking SIGUSR1) = %s after %ld ms%s, handler ran %d, "
	       "SIGUSR1 blocked after %d\n",
	       result(ret), elapsed(), left, handled, (int)((now & usr1) != 0));

	rsys(SYS_rt_sigprocmask, SIG_UNBLOCK, &usr1, NULL, 8);
	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = do_ppoll(&pfd, 1, 300, &usr1, left);
	printf("ppoll(300 ms, mask blocking SIGUSR1 sent at 100 ms) = %s after %ld ms%s, "
	       "handler ran %d\n",
	       result(ret), elapsed(), left, handled);
	join_later(l);

	kfd_set in;
	struct timespec ts = ms_ts(300);
	struct { ksigset *p; size_t size; } pack = { &usr1, 8 };

	fd_set1(p[0], &in);
	l = start_later(100, ACT_SIGNAL, 0, NULL);
	ret = rsys(SYS_pselect6, p[0] + 1, &in, NULL, NULL, &ts, &pack);
	printf("pselect6(300 ms, mask blocking SIGUSR1 sent at 100 ms) = %s after %ld ms, "
	       "left %ld ms, handler ran %d\n",
	       result(ret), elapsed(), ts_ms(&ts), handled);
	join_later(l);
	close(p[0]);
	close(p[1]);
}

/* The child of "stop": CALL waits 400 ms on an empty pipe. A byte on
 * ready_fd first tells the parent it is about to wait. */
static int stop_child(const char *call, int ready_fd)
{
	unsigned int word = 0;
	struct pollfd pfd;
	char left[40];
	kfd_set in;
	int p[2];
	long ret;

	if (pipe(p))
		die("pipe failed");
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	fd_set1(p[0], &in);
	left[0] = 0;
	if (write(ready_fd, "r", 1) != 1)
		die("write failed");
	t0 = now_ms();
	if (!strcmp(call, "poll"))
		ret = do_poll(&pfd, 1, 400);
	else if (!strcmp(call, "ppoll"))
		ret = do_ppoll(&pfd, 1, 400, NULL, left);
	else if (!strcmp(call, "select"))
		ret = do_select(p[0] + 1, &in, NULL, 400, left);
	else if (!strcmp(call, "pselect6"))
		ret = do_pselect6(p[0] + 1, &in, NULL, 400, left);
	else if (!strcmp(call, "futex"))
		ret = do_futex(&word, 400);
	else if (!strcmp(call, "poll-forever")) {
		/* No timeout: a thread (stopped and continued too) writes at
		 * 400 ms. */
		struct later *l = start_later(400, ACT_WRITE, p[1], NULL);

		t0 = now_ms();
		ret = do_poll(&pfd, 1, -1);
		printf("poll(no timeout, written at 400 ms, stopped at 100 ms, continued at 200 ms)"
		       " = %s after %ld ms, revents %s\n", result(ret), elapsed(),
		       events(pfd.revents));
		join_later(l);
		return 0;
	} else
		die("stop: unknown call %s", call);
	printf("%s(400 ms, stopped at 100 ms, continued at 200 ms) = %s after %ld ms%s\n", call,
	       result(ret), elapsed(), left);
	return 0;
}

static void case_stop(const char *self, const char *call)
{
	char fdbuf[16];
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready))
		die("pipe failed");
	snprintf(fdbuf, sizeof(fdbuf), "%d", ready[1]);
	pid = spawn(self, (char *[]){ (char *)self, "stop-child", (char *)call, fdbuf, NULL });
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		die("child did not start");
	sleep_ms(100);
	kill(pid, SIGSTOP);
	sleep_ms(100);
	kill(pid, SIGCONT);
	printf("child %s\n", status_text(wait_status(pid)));
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(c, "timeouts"))
		case_timeouts();
	else if (!strcmp(c, "ready"))
		case_ready();
	else if (!strcmp(c, "ends"))
		case_ends();
	else if (!strcmp(c, "errors"))
		case_errors();
	else if (!strcmp(c, "eintr"))
		case_eintr(argc > 2 && !strcmp(argv[2], "restart") ? SA_RESTART : 0);
	else if (!strcmp(c, "sigmask"))
		case_sigmask();
	else if (!strcmp(c, "stop") && argc > 2)
		case_stop(argv[0], argv[2]);
	else if (!strcmp(c, "stop-child") && argc > 3)
		return stop_child(argv[2], atoi(argv[3]));
	else
		die("usage: pollwait timeouts|ready|ends|errors|eintr [restart]|sigmask|stop CALL");
	return 0;
}
