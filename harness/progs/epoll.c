/*
 * epoll CASE: epoll_create, epoll_create1, epoll_ctl, epoll_wait,
 * epoll_pwait and epoll_pwait2 (kernel/fs/eventpoll.c), all through raw
 * system calls so that each line shows exactly what the kernel returned.
 * Every line is deterministic (no fd numbers, addresses, pids or times;
 * a timed wait prints only "at least 40 ms" style facts), so the output
 * natively and under umk must be identical: tests/epoll.bats compares them.
 *
 * A wait prints "= N" and then, per event, "DATA EVENTS", DATA being the
 * 64-bit data field in hex and EVENTS the reported mask. The events of one
 * wait are printed sorted by data, except in "rotate", whose point is the
 * order Linux reports them in.
 *
 *   errors    the EINVAL, EPERM, EEXIST, ENOENT, EBADF and EFAULT of every
 *             call (ELOOP is in "nested"), EPOLLEXCLUSIVE's rules; a user
 *             events buffer is only written, so only faults, when there is
 *             an event to write
 *   level     level-triggered pipe ends: EPOLLIN while data remains,
 *             EPOLLOUT, EPOLLHUP (with EPOLLIN while data remains),
 *             EPOLLERR on a write end without a reader, a full pipe
 *   edge      EPOLLET: once per new write, not again until more arrives;
 *             the writer's close is an edge; a write end's edge
 *   oneshot   EPOLLONESHOT: once, then nothing (not even EPOLLHUP) until
 *             EPOLL_CTL_MOD re-arms it
 *   data      the 64-bit data field comes back as given; EPOLLERR and
 *             EPOLLHUP are reported without being asked for; only the
 *             asked-for bits are reported
 *   rotate    3 ready fds, maxevents 1 or 2: the ready list rotates
 *             (level-triggered); edge-triggered items are each reported once;
 *             100 ready fds, maxevents 64: two waits reach every one
 *   dup       a registered fd closed while a dup keeps its file open is
 *             still reported with its data; its key is (file, fd number)
 *   nested    an epoll fd in another; A in B then B in A is ELOOP; how
 *             deep epoll fds can nest
 *   timeouts  timeout 0, 50 ms, epoll_pwait2's timespec, negative timeouts
 *   sigmask   epoll_pwait's temporary signal mask; a handler interrupts a
 *             wait with EINTR, even with SA_RESTART
 *   wakeup    a wait without a timeout woken by another thread, by another
 *             process, and by the writer's close
 *   fork      an epoll fd shared across fork is one instance
 *   pollable  poll() and select() on an epoll fd
 *   rdhup     EPOLLRDHUP is accepted for a pipe but never reported
 *   proc      /proc/self/fd/N of an epoll fd
 *   stop      a wait without a timeout, stopped and continued, ends with
 *             EINTR (signal(7)): epoll waits are never restarted
 *   fdinfo    /proc/self/fdinfo/N of an epoll fd: flags, one tfd line per
 *             item with its events (EPOLLERR|EPOLLHUP added, a reported
 *             one-shot item's cleared) and data
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#ifndef SYS_epoll_pwait2
#define SYS_epoll_pwait2 441
#endif

/* The kernel's ABI, spelled out: musl's header would do, but this is what
 * the calls take. struct epoll_event is packed on x86-64 (12 bytes). */
struct kev {
	uint32_t events;
	uint64_t data;
} __attribute__((packed));

#define EP_IN 0x001u
#define EP_PRI 0x002u
#define EP_OUT 0x004u
#define EP_ERR 0x008u
#define EP_HUP 0x010u
#define EP_RDNORM 0x040u
#define EP_RDBAND 0x080u
#define EP_WRNORM 0x100u
#define EP_WRBAND 0x200u
#define EP_MSG 0x400u
#define EP_RDHUP 0x2000u
#define EP_EXCLUSIVE (1u << 28)
#define EP_WAKEUP (1u << 29)
#define EP_ONESHOT (1u << 30)
#define EP_ET (1u << 31)

#define CTL_ADD 1
#define CTL_DEL 2
#define CTL_MOD 3

#define EP_CLOEXEC 02000000	/* O_CLOEXEC */

#define BAD ((void *)8)				/* a user address nobody maps */
#define KERNEL_PTR ((void *)0xffff880000000000UL) /* beyond the user range */

typedef unsigned long ksigset;

/* ---- printing ---- */

static const char *result(long ret)
{
	static char buf[32];

	if (ret < 0 && ret > -4096)
		snprintf(buf, sizeof(buf), "-1 %s", errno_name((int)-ret));
	else
		snprintf(buf, sizeof(buf), "%ld", ret);
	return buf;
}

/* An fd is printed as "fd", never as its number. */
static const char *fdres(long ret)
{
	return ret >= 0 ? "fd" : result(ret);
}

static const char *evnames(uint32_t ev)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ EP_IN, "EPOLLIN" },	      { EP_PRI, "EPOLLPRI" },
		{ EP_OUT, "EPOLLOUT" },	      { EP_ERR, "EPOLLERR" },
		{ EP_HUP, "EPOLLHUP" },	      { EP_RDNORM, "EPOLLRDNORM" },
		{ EP_RDBAND, "EPOLLRDBAND" }, { EP_WRNORM, "EPOLLWRNORM" },
		{ EP_WRBAND, "EPOLLWRBAND" }, { EP_MSG, "EPOLLMSG" },
		{ EP_RDHUP, "EPOLLRDHUP" },
	};
	static char buf[256];
	size_t i;

	buf[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (ev & names[i].bit) {
			if (buf[0])
				strcat(buf, "|");
			strcat(buf, names[i].name);
			ev &= ~names[i].bit;
		}
	}
	if (ev) {
		char rest[16];

		snprintf(rest, sizeof(rest), "%s0x%x", buf[0] ? "|" : "", ev);
		strcat(buf, rest);
	}
	return buf[0] ? buf : "0";
}

static int by_data(const void *a, const void *b)
{
	uint64_t x = ((const struct kev *)a)->data, y = ((const struct kev *)b)->data;

	return x < y ? -1 : x > y;
}

/* Print "LABEL = RET[: DATA EVENTS, ...]", the events sorted by data
 * unless keep_order. */
static void print_events(const char *label, long ret, struct kev *ev, int keep_order)
{
	long i;

	printf("%s = %s", label, result(ret));
	if (ret > 0) {
		if (!keep_order)
			qsort(ev, (size_t)ret, sizeof(*ev), by_data);
		for (i = 0; i < ret; i++)
			printf("%s 0x%llx %s", i ? "," : ":", (unsigned long long)ev[i].data,
			       evnames(ev[i].events));
	}
	printf("\n");
}

/* ---- the calls ---- */

static long ep_create1(int flags)
{
	return rsys(SYS_epoll_create1, flags);
}

static int ep_new(void)
{
	long fd = ep_create1(EP_CLOEXEC);

	if (fd < 0)
		die("epoll_create1: %s", errno_name((int)-fd));
	return (int)fd;
}

static long ctl(int ep, int op, int fd, uint32_t events, uint64_t data)
{
	struct kev e = { events, data };

	return rsys(SYS_epoll_ctl, ep, op, fd, &e);
}

/* epoll_ctl that must succeed (the setup of a case, not what it tests). */
static void ctl_ok(int ep, int op, int fd, uint32_t events, uint64_t data)
{
	long ret = ctl(ep, op, fd, events, data);

	if (ret)
		die("epoll_ctl(op %d, events 0x%x) setup: %s", op, events, result(ret));
}

/* Print "LABEL = RET" for an epoll_ctl. */
static long show_ctl(const char *label, int ep, int op, int fd, uint32_t events, uint64_t data)
{
	return show(label, ctl(ep, op, fd, events, data));
}

static long ep_wait(int ep, struct kev *ev, int max, int ms)
{
	return rsys(SYS_epoll_wait, ep, ev, max, ms);
}

/* epoll_wait(EP, 16 events, MS) and print it under LABEL. */
static long wait_show(const char *label, int ep, int ms)
{
	struct kev ev[16];
	long ret = ep_wait(ep, ev, 16, ms);

	print_events(label, ret, ev, 0);
	return ret;
}

static void make_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC))
		die("pipe2: %s", errno_name(errno));
}

static void put(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		die("write: %s", errno_name(errno));
}

static void take(int fd, size_t n)
{
	char buf[256];

	if (n > sizeof(buf) || read(fd, buf, n) != (ssize_t)n)
		die("read %zu: %s", n, errno_name(errno));
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	while (rsys(SYS_nanosleep, &ts, &ts) == -EINTR)
		;
}

static double t0;

static double since_ms(void)
{
	return now_ms() - t0;
}

/* " after >= 40 ms: yes, < 5 s: yes" for a wait of about 50 ms. */
static const char *waited_50(void)
{
	static char buf[64];
	double ms = since_ms();

	snprintf(buf, sizeof(buf), "waited >= 40 ms %s, < 5 s %s", ms >= 40 ? "yes" : "no",
		 ms < 5000 ? "yes" : "no");
	return buf;
}

/* ---- a helper thread that acts after a delay ---- */

enum act { ACT_WRITE, ACT_CLOSE, ACT_SIGNAL_THEN_WRITE, ACT_SIGNAL_UNTIL_DONE };

struct later {
	long ms;
	enum act act;
	int fd;
	pid_t tid;		/* the main thread, for the signals */
	volatile int done;	/* ACT_SIGNAL_UNTIL_DONE: set by the main thread */
	pthread_t thread;
};

static void *later_fn(void *arg)
{
	struct later *l = arg;

	sleep_ms(l->ms);
	switch (l->act) {
	case ACT_WRITE:
		put(l->fd, "x");
		break;
	case ACT_CLOSE:
		close(l->fd);
		break;
	case ACT_SIGNAL_THEN_WRITE:
		rsys(SYS_tgkill, getpid(), l->tid, SIGUSR1);
		sleep_ms(l->ms);
		put(l->fd, "x");
		break;
	case ACT_SIGNAL_UNTIL_DONE:
		/* Again and again, so that one sent before the wait began
		 * cannot leave the wait blocked forever. */
		while (!l->done) {
			rsys(SYS_tgkill, getpid(), l->tid, SIGUSR1);
			sleep_ms(l->ms);
		}
		break;
	}
	return NULL;
}

static struct later *start_later(long ms, enum act act, int fd)
{
	struct later *l = calloc(1, sizeof(*l));

	if (!l)
		die("calloc failed");
	l->ms = ms;
	l->act = act;
	l->fd = fd;
	l->tid = (pid_t)rsys0(SYS_gettid);
	if (pthread_create(&l->thread, NULL, later_fn, l))
		die("pthread_create failed");
	t0 = now_ms();
	return l;
}

static void join_later(struct later *l)
{
	l->done = 1;
	pthread_join(l->thread, NULL);
	free(l);
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

/* ---- the cases ---- */

static void case_errors(const char *self)
{
	struct kev ev[4], e = { EP_IN, 1 };
	int ep, ep2, p[2], q[2], file, dir, closed;
	long ret;

	show("epoll_create(0)", rsys(SYS_epoll_create, 0));
	show("epoll_create(-1)", rsys(SYS_epoll_create, -1));
	ret = rsys(SYS_epoll_create, 1);
	printf("epoll_create(1) = %s, FD_CLOEXEC %d\n", fdres(ret),
	       ret >= 0 ? (int)(rsys(SYS_fcntl, ret, F_GETFD) & FD_CLOEXEC) : -1);
	if (ret >= 0)
		close((int)ret);
	ret = rsys(SYS_epoll_create, INT_MAX);
	printf("epoll_create(INT_MAX) = %s\n", fdres(ret));
	if (ret >= 0)
		close((int)ret);
	ret = ep_create1(0);
	printf("epoll_create1(0) = %s, FD_CLOEXEC %d\n", fdres(ret),
	       ret >= 0 ? (int)(rsys(SYS_fcntl, ret, F_GETFD) & FD_CLOEXEC) : -1);
	if (ret >= 0)
		close((int)ret);
	ret = ep_create1(EP_CLOEXEC);
	printf("epoll_create1(EPOLL_CLOEXEC) = %s, FD_CLOEXEC %d\n", fdres(ret),
	       ret >= 0 ? (int)(rsys(SYS_fcntl, ret, F_GETFD) & FD_CLOEXEC) : -1);
	if (ret >= 0)
		close((int)ret);
	show("epoll_create1(1)", ep_create1(1));
	show("epoll_create1(O_NONBLOCK)", ep_create1(O_NONBLOCK));
	show("epoll_create1(EPOLL_CLOEXEC|O_NONBLOCK)", ep_create1(EP_CLOEXEC | O_NONBLOCK));

	ep = ep_new();
	ep2 = ep_new();
	make_pipe(p);
	make_pipe(q);
	file = open(self, O_RDONLY | O_CLOEXEC);
	dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (file < 0 || dir < 0)
		die("open: %s", errno_name(errno));
	closed = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(closed);

	/* epoll_ctl: which fd is wrong, and in which order Linux checks. */
	show_ctl("epoll_ctl(pipe as epfd, ADD, pipe)", p[0], CTL_ADD, q[0], EP_IN, 1);
	show_ctl("epoll_ctl(pipe as epfd, ADD, regular file)", p[0], CTL_ADD, file, EP_IN, 1);
	show_ctl("epoll_ctl(regular file as epfd, ADD, pipe)", file, CTL_ADD, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, ADD, itself)", ep, CTL_ADD, ep, EP_IN, 1);
	show_ctl("epoll_ctl(epfd, ADD, regular file)", ep, CTL_ADD, file, EP_IN, 1);
	show_ctl("epoll_ctl(epfd, ADD, directory)", ep, CTL_ADD, dir, EP_IN, 1);
	show_ctl("epoll_ctl(epfd, DEL, regular file)", ep, CTL_DEL, file, 0, 0);
	show_ctl("epoll_ctl(epfd, op 0, pipe)", ep, 0, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, op 4, pipe)", ep, 4, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, op -1, pipe)", ep, -1, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, MOD, unregistered pipe)", ep, CTL_MOD, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, DEL, unregistered pipe)", ep, CTL_DEL, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, ADD, pipe)", ep, CTL_ADD, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, ADD, the same pipe again)", ep, CTL_ADD, p[0], EP_OUT, 2);
	show_ctl("epoll_ctl(epfd, MOD, it)", ep, CTL_MOD, p[0], EP_IN, 3);
	show_ctl("epoll_ctl(closed fd as epfd, ADD, pipe)", closed, CTL_ADD, q[0], EP_IN, 1);
	show_ctl("epoll_ctl(-1 as epfd, ADD, pipe)", -1, CTL_ADD, q[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, ADD, closed fd)", ep, CTL_ADD, closed, EP_IN, 1);
	show_ctl("epoll_ctl(epfd, ADD, fd -1)", ep, CTL_ADD, -1, EP_IN, 1);
	show_ctl("epoll_ctl(epfd, DEL, closed fd)", ep, CTL_DEL, closed, 0, 0);
	show_ctl("epoll_ctl(closed fd as epfd, ADD, closed fd)", closed, CTL_ADD, closed, EP_IN, 1);
	show_ctl("epoll_ctl(closed fd as epfd, op 4, pipe)", closed, 4, q[0], EP_IN, 1);

	/* An O_PATH fd is no fd to epoll_ctl or epoll_wait. */
	int opath = open("/", O_PATH | O_CLOEXEC);

	if (opath < 0)
		die("open O_PATH: %s", errno_name(errno));
	show_ctl("epoll_ctl(epfd, ADD, O_PATH fd)", ep, CTL_ADD, opath, EP_IN, 1);
	show_ctl("epoll_ctl(O_PATH fd as epfd, ADD, pipe)", opath, CTL_ADD, q[0], EP_IN, 1);
	show("epoll_wait(O_PATH fd)", ep_wait(opath, ev, 4, 0));
	close(opath);

	/* The event is read before anything else; DEL does not read it. */
	show("epoll_ctl(epfd, ADD, pipe, bad event pointer)",
	     rsys(SYS_epoll_ctl, ep, CTL_ADD, q[0], BAD));
	show("epoll_ctl(epfd, MOD, registered pipe, bad event pointer)",
	     rsys(SYS_epoll_ctl, ep, CTL_MOD, p[0], BAD));
	show("epoll_ctl(closed fd as epfd, ADD, pipe, bad event pointer)",
	     rsys(SYS_epoll_ctl, closed, CTL_ADD, q[0], BAD));
	show("epoll_ctl(epfd, ADD, pipe, NULL event)",
	     rsys(SYS_epoll_ctl, ep, CTL_ADD, q[0], NULL));
	show("epoll_ctl(epfd, DEL, registered pipe, bad event pointer)",
	     rsys(SYS_epoll_ctl, ep, CTL_DEL, p[0], BAD));
	show_ctl("epoll_ctl(epfd, ADD, pipe) after its DEL", ep, CTL_ADD, p[0], EP_IN, 1);
	show("epoll_ctl(epfd, DEL, registered pipe, NULL event)",
	     rsys(SYS_epoll_ctl, ep, CTL_DEL, p[0], NULL));

	/* EPOLLEXCLUSIVE: ADD only, only with in/out/err/hup/et/wakeup
	 * bits, never on an epoll fd, and an exclusive item cannot be
	 * modified. */
	show_ctl("epoll_ctl(epfd, ADD, pipe, EPOLLIN|EPOLLEXCLUSIVE|EPOLLONESHOT)", ep, CTL_ADD,
		 p[0], EP_IN | EP_EXCLUSIVE | EP_ONESHOT, 1);
	show_ctl("epoll_ctl(epfd, ADD, pipe, EPOLLIN|EPOLLEXCLUSIVE|EPOLLRDHUP)", ep, CTL_ADD,
		 p[0], EP_IN | EP_EXCLUSIVE | EP_RDHUP, 1);
	show_ctl("epoll_ctl(epfd, ADD, epoll fd, EPOLLIN|EPOLLEXCLUSIVE)", ep, CTL_ADD, ep2,
		 EP_IN | EP_EXCLUSIVE, 1);
	show_ctl("epoll_ctl(epfd, MOD, unregistered pipe, EPOLLIN|EPOLLEXCLUSIVE)", ep, CTL_MOD,
		 p[0], EP_IN | EP_EXCLUSIVE, 1);
	show_ctl("epoll_ctl(epfd, ADD, pipe, EPOLLIN|EPOLLEXCLUSIVE|EPOLLET)", ep, CTL_ADD, p[0],
		 EP_IN | EP_EXCLUSIVE | EP_ET, 1);
	show_ctl("epoll_ctl(epfd, MOD, exclusive pipe, EPOLLIN|EPOLLEXCLUSIVE)", ep, CTL_MOD,
		 p[0], EP_IN | EP_EXCLUSIVE, 1);
	show_ctl("epoll_ctl(epfd, MOD, exclusive pipe, EPOLLIN)", ep, CTL_MOD, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, DEL, exclusive pipe)", ep, CTL_DEL, p[0], 0, 0);
	show_ctl("epoll_ctl(epfd, ADD, pipe, EPOLLIN)", ep, CTL_ADD, p[0], EP_IN, 1);
	show_ctl("epoll_ctl(epfd, MOD, pipe, EPOLLIN|EPOLLEXCLUSIVE)", ep, CTL_MOD, p[0],
		 EP_IN | EP_EXCLUSIVE, 1);

	/* epoll_wait. Which of two errors wins changed in 6.x (6.18 checks
	 * the fd before maxevents): each line below has one error, but for
	 * a non-epoll fd with an events pointer beyond the user range,
	 * where every 6.x says EFAULT. */
	show("epoll_wait(maxevents 0)", ep_wait(ep, ev, 0, 0));
	show("epoll_wait(maxevents -1)", ep_wait(ep, ev, -1, 0));
	show("epoll_wait(maxevents INT_MAX)", ep_wait(ep, ev, INT_MAX, 0));
	show("epoll_wait(maxevents INT_MAX / 12 + 1)", ep_wait(ep, ev, INT_MAX / 12 + 1, 0));
	show("epoll_wait(closed fd)", ep_wait(closed, ev, 4, 0));
	show("epoll_wait(fd -1)", ep_wait(-1, ev, 4, 0));
	show("epoll_wait(pipe fd)", ep_wait(p[0], ev, 4, 0));
	show("epoll_wait(regular file)", ep_wait(file, ev, 4, 0));
	show("epoll_wait(pipe fd, kernel events pointer)", ep_wait(p[0], KERNEL_PTR, 4, 0));
	show("epoll_wait(kernel events pointer)", ep_wait(ep, KERNEL_PTR, 4, 0));
	show("epoll_wait(NULL events pointer, nothing ready)", ep_wait(ep, NULL, 4, 0));
	show("epoll_wait(bad events pointer, nothing ready)", ep_wait(ep, BAD, 4, 0));
	put(p[1], "x");
	show("epoll_wait(bad events pointer, one ready)", ep_wait(ep, BAD, 4, 0));
	show("epoll_wait(NULL events pointer, one ready)", ep_wait(ep, NULL, 4, 0));
	wait_show("epoll_wait(the event is still there)", ep, 0);

	/* A read-only buffer cannot take the event either. */
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (ro == MAP_FAILED)
		die("mmap failed");
	show("epoll_wait(read-only events buffer, one ready)", ep_wait(ep, (struct kev *)ro, 4, 0));
	munmap(ro, 4096);

	/* epoll_pwait's sigset and epoll_pwait2's timespec. */
	ksigset none = 0;
	struct timespec ts = { 0, 0 };

	show("epoll_pwait(sigsetsize 4)", rsys(SYS_epoll_pwait, ep, ev, 4, 0, &none, 4));
	show("epoll_pwait(sigsetsize 16)", rsys(SYS_epoll_pwait, ep, ev, 4, 0, &none, 16));
	show("epoll_pwait(bad sigmask pointer)", rsys(SYS_epoll_pwait, ep, ev, 4, 0, BAD, 8));
	show("epoll_pwait(NULL sigmask, sigsetsize 4)", rsys(SYS_epoll_pwait, ep, ev, 4, 0, NULL, 4));
	show("epoll_pwait(maxevents 0)", rsys(SYS_epoll_pwait, ep, ev, 0, 0, &none, 8));
	show("epoll_pwait2(bad timespec pointer)", rsys(SYS_epoll_pwait2, ep, ev, 4, BAD, NULL, 8));
	ts.tv_nsec = 1000000000;
	show("epoll_pwait2(tv_nsec 1000000000)", rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, NULL, 8));
	ts = (struct timespec){ -1, 0 };
	show("epoll_pwait2(tv_sec -1)", rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, NULL, 8));
	ts = (struct timespec){ 0, -1 };
	show("epoll_pwait2(tv_nsec -1)", rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, NULL, 8));
	ts = (struct timespec){ 0, 0 };
	show("epoll_pwait2(sigsetsize 4)", rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, &none, 4));
	show("epoll_pwait2(bad sigmask pointer)", rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, BAD, 8));
	show("epoll_pwait2(maxevents 0)", rsys(SYS_epoll_pwait2, ep, ev, 0, &ts, NULL, 8));
	show("epoll_pwait2(pipe fd)", rsys(SYS_epoll_pwait2, p[0], ev, 4, &ts, NULL, 8));

	/* The old epoll_ctl_old and epoll_wait_old were never implemented. */
	show("epoll_ctl_old", rsys(SYS_epoll_ctl_old, ep, CTL_ADD, q[0], &e));
	show("epoll_wait_old", rsys(SYS_epoll_wait_old, ep, ev, 4, 0));
	close(file);
	close(dir);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(ep);
	close(ep2);
}

/* Make both ends non-blocking and write until the pipe is full: the last
 * write's error ("EAGAIN"). */
static const char *fill_pipe(const int p[2])
{
	static char page[4096];

	if (fcntl(p[0], F_SETFL, O_NONBLOCK) || fcntl(p[1], F_SETFL, O_NONBLOCK))
		die("fcntl failed");
	while (write(p[1], page, sizeof(page)) > 0)
		;
	while (write(p[1], page, 1) > 0)
		;
	return errno_name(errno);
}

/* Read a non-blocking pipe until it is empty. */
static void drain_pipe(const int p[2])
{
	static char page[4096];

	while (read(p[0], page, sizeof(page)) > 0)
		;
}

static void case_level(void)
{
	int ep, p[2];

	ep = ep_new();
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN, 0x10);
	wait_show("empty pipe: wait", ep, 0);
	put(p[1], "abc");
	wait_show("3 bytes: wait", ep, 0);
	wait_show("3 bytes: wait again", ep, 0);
	take(p[0], 2);
	wait_show("1 byte left: wait", ep, 0);
	take(p[0], 1);
	wait_show("all read: wait", ep, 0);
	put(p[1], "x");
	take(p[0], 1);
	wait_show("written and read before the wait: wait", ep, 0);

	ctl_ok(ep, CTL_ADD, p[1], EP_OUT, 0x11);
	wait_show("write end added with EPOLLOUT: wait", ep, 0);
	put(p[1], "x");
	wait_show("1 byte in the pipe: wait", ep, 0);
	take(p[0], 1);

	/* Fill the pipe: the write end is no longer writable. */
	printf("pipe filled: %s\n", fill_pipe(p));
	wait_show("full pipe: wait", ep, 0);
	drain_pipe(p);
	wait_show("emptied again: wait", ep, 0);
	ctl_ok(ep, CTL_DEL, p[1], 0, 0);

	/* The writer goes: EPOLLHUP, with EPOLLIN while data remains. */
	put(p[1], "ab");
	close(p[1]);
	wait_show("writer closed, 2 bytes left: wait", ep, 0);
	wait_show("writer closed, 2 bytes left: wait again", ep, 0);
	take(p[0], 2);
	wait_show("writer closed, empty: wait", ep, 0);
	wait_show("writer closed, empty: wait again", ep, 0);
	ctl_ok(ep, CTL_MOD, p[0], EP_OUT, 0x12);
	wait_show("writer closed, read end MODded to EPOLLOUT: wait", ep, 0);
	close(p[0]);
	wait_show("read end closed too: wait", ep, 0);

	/* The reader goes: EPOLLERR on the write end. */
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[1], EP_OUT, 0x20);
	close(p[0]);
	wait_show("reader closed, write end EPOLLOUT: wait", ep, 0);
	wait_show("reader closed, write end EPOLLOUT: wait again", ep, 0);
	ctl_ok(ep, CTL_MOD, p[1], EP_IN, 0x21);
	wait_show("reader closed, write end MODded to EPOLLIN: wait", ep, 0);
	close(p[1]);
	close(ep);
}

static void case_edge(void)
{
	int ep, p[2];

	ep = ep_new();
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN | EP_ET, 0x10);
	wait_show("empty pipe: wait", ep, 0);
	put(p[1], "a");
	wait_show("1 byte written: wait", ep, 0);
	wait_show("nothing new: wait", ep, 0);
	put(p[1], "b");
	wait_show("1 more byte written (2 unread): wait", ep, 0);
	wait_show("nothing new: wait", ep, 0);
	take(p[0], 1);
	wait_show("1 byte read (1 unread): wait", ep, 0);
	put(p[1], "cd");
	put(p[1], "e");
	wait_show("2 writes: wait", ep, 0);
	wait_show("nothing new: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, p[0], EP_IN | EP_ET, 0x11);
	wait_show("MOD with data unread: wait", ep, 0);
	wait_show("nothing new: wait", ep, 0);
	close(p[1]);
	wait_show("writer closed (4 unread): wait", ep, 0);
	wait_show("nothing new: wait", ep, 0);
	close(p[0]);

	/* A write end: writable once; writing does not make a new edge,
	 * becoming writable again after a full pipe does. */
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[1], EP_OUT | EP_ET, 0x20);
	wait_show("write end: wait", ep, 0);
	wait_show("nothing new: wait", ep, 0);
	put(p[1], "x");
	wait_show("1 byte written to it: wait", ep, 0);
	fill_pipe(p);
	wait_show("filled: wait", ep, 0);
	drain_pipe(p);
	wait_show("emptied by reads: wait", ep, 0);
	wait_show("nothing new: wait", ep, 0);
	close(p[0]);
	wait_show("reader closed: wait", ep, 0);
	wait_show("nothing new: wait", ep, 0);
	close(p[1]);
	close(ep);
}

static void case_oneshot(void)
{
	int ep, p[2];

	ep = ep_new();
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN | EP_ONESHOT, 0x10);
	wait_show("empty pipe: wait", ep, 0);
	put(p[1], "a");
	wait_show("1 byte written: wait", ep, 0);
	wait_show("disarmed: wait", ep, 0);
	put(p[1], "b");
	wait_show("disarmed, 1 more byte: wait", ep, 0);
	show_ctl("epoll_ctl(ADD, the disarmed fd)", ep, CTL_ADD, p[0], EP_IN, 0x11);
	show_ctl("epoll_ctl(MOD, EPOLLIN|EPOLLONESHOT)", ep, CTL_MOD, p[0], EP_IN | EP_ONESHOT,
		 0x12);
	wait_show("re-armed: wait", ep, 0);
	wait_show("disarmed: wait", ep, 0);
	close(p[1]);
	wait_show("disarmed, writer closed: wait", ep, 0);
	show_ctl("epoll_ctl(MOD, EPOLLIN|EPOLLONESHOT|EPOLLET)", ep, CTL_MOD, p[0],
		 EP_IN | EP_ONESHOT | EP_ET, 0x13);
	wait_show("re-armed: wait", ep, 0);
	wait_show("disarmed: wait", ep, 0);
	show_ctl("epoll_ctl(MOD, EPOLLIN) (level-triggered)", ep, CTL_MOD, p[0], EP_IN, 0x14);
	wait_show("level-triggered: wait", ep, 0);
	wait_show("level-triggered: wait again", ep, 0);
	show_ctl("epoll_ctl(MOD, EPOLLONESHOT, no events)", ep, CTL_MOD, p[0], EP_ONESHOT, 0x15);
	wait_show("oneshot, no events asked: wait", ep, 0);
	wait_show("disarmed: wait", ep, 0);
	show_ctl("epoll_ctl(DEL, the disarmed fd)", ep, CTL_DEL, p[0], 0, 0);
	close(p[0]);
	close(ep);
}

static void case_data(void)
{
	static const uint64_t values[] = {
		0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		0x0123456789abcdefULL, 0x8000000000000000ULL, 0xffffffffffffffffULL,
	};
	int ep, p[2], q[2], i, n = (int)(sizeof(values) / sizeof(values[0]));
	struct kev ev[16];
	long ret;

	/* Each value alone, through one read end. */
	ep = ep_new();
	make_pipe(p);
	put(p[1], "x");
	ctl_ok(ep, CTL_ADD, p[0], EP_IN, values[0]);
	for (i = 0; i < n; i++) {
		ctl_ok(ep, CTL_MOD, p[0], EP_IN, values[i]);
		ret = ep_wait(ep, ev, 16, 0);
		printf("data 0x%llx: ", (unsigned long long)values[i]);
		print_events("wait", ret, ev, 0);
	}
	ctl_ok(ep, CTL_DEL, p[0], 0, 0);

	/* Only what was asked for is reported, EPOLLERR and EPOLLHUP
	 * always. */
	ctl_ok(ep, CTL_ADD, p[0], 0, 0xa0);
	wait_show("read end with data, events 0: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, p[0], EP_IN | EP_RDNORM, 0xa1);
	wait_show("EPOLLIN|EPOLLRDNORM: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, p[0], EP_RDNORM, 0xa2);
	wait_show("EPOLLRDNORM: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, p[0], EP_OUT | EP_PRI | EP_RDBAND | EP_WRNORM | EP_MSG, 0xa3);
	wait_show("EPOLLOUT|EPOLLPRI|EPOLLRDBAND|EPOLLWRNORM|EPOLLMSG: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, p[0], 0xffff & ~(EP_ERR | EP_HUP), 0xa4);
	wait_show("every low bit but EPOLLERR|EPOLLHUP: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, p[0], 0, 0xa5);
	close(p[1]);
	wait_show("events 0, writer closed: wait", ep, 0);
	take(p[0], 1);
	wait_show("events 0, writer closed, empty: wait", ep, 0);
	close(p[0]);

	make_pipe(q);
	ctl_ok(ep, CTL_ADD, q[1], 0, 0xb0);
	wait_show("write end, events 0: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, q[1], EP_OUT | EP_WRNORM, 0xb1);
	wait_show("write end, EPOLLOUT|EPOLLWRNORM: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, q[1], EP_IN, 0xb2);
	wait_show("write end, EPOLLIN: wait", ep, 0);
	close(q[0]);
	wait_show("write end, EPOLLIN, reader closed: wait", ep, 0);
	ctl_ok(ep, CTL_MOD, q[1], 0, 0xb3);
	wait_show("write end, events 0, reader closed: wait", ep, 0);
	close(q[1]);

	/* Several fds at once, each with its own data. */
	int r[3][2];

	for (i = 0; i < 3; i++) {
		make_pipe(r[i]);
		put(r[i][1], "x");
	}
	ctl_ok(ep, CTL_ADD, r[0][0], EP_IN, 0xfedcba9876543210ULL);
	ctl_ok(ep, CTL_ADD, r[1][0], EP_IN, 0x42);
	ctl_ok(ep, CTL_ADD, r[2][1], EP_OUT, 0x8000000000000042ULL);
	wait_show("3 fds: wait", ep, 0);
	close(ep);
	for (i = 0; i < 3; i++) {
		close(r[i][0]);
		close(r[i][1]);
	}
}

/* 100 ready pipes, level-triggered, maxevents 64: how many each wait
 * reports, and whether two waits reached every one. */
static void many_ready(void)
{
	enum { N = 100 };
	static struct kev ev[64];
	int p[2], ep, w, seen[N] = { 0 }, dups[N], all, i;
	long ret;

	ep = ep_new();
	make_pipe(p);
	put(p[1], "x");
	/* One pipe, N fds: a dup each, each its own registration. */
	for (i = 0; i < N; i++) {
		dups[i] = dup(p[0]);
		if (dups[i] < 0)
			die("dup failed");
		ctl_ok(ep, CTL_ADD, dups[i], EP_IN, (uint64_t)i);
	}
	printf("%d ready, maxevents 64:", N);
	for (w = 0; w < 3; w++) {
		ret = ep_wait(ep, ev, 64, 0);
		printf(" %s", result(ret));
		for (i = 0; i < ret; i++)
			if (ev[i].data < N)
				seen[ev[i].data]++;
		if (w == 1) {
			for (all = 1, i = 0; i < N; i++)
				all &= seen[i] == 1 || seen[i] == 2;
			printf(" (every one reported by the second wait: %s)", all ? "yes" : "no");
		}
	}
	printf("\n");
	close(ep);
	for (i = 0; i < N; i++)
		close(dups[i]);
	close(p[0]);
	close(p[1]);
}

/* Print "LABEL: D D D ..." for N waits with maxevents MAX, in the order
 * reported. */
static void rotation(const char *label, int ep, int max, int waits)
{
	struct kev ev[8];
	int w;
	long ret, i;

	printf("%s:", label);
	for (w = 0; w < waits; w++) {
		ret = ep_wait(ep, ev, max, 0);
		printf(" [");
		if (ret < 0)
			printf("%s", result(ret));
		for (i = 0; i < ret; i++)
			printf("%s%llx", i ? " " : "", (unsigned long long)ev[i].data);
		printf("]");
	}
	printf("\n");
}

static void case_rotate(void)
{
	int ep, p[3][2], i;

	for (i = 0; i < 3; i++) {
		make_pipe(p[i]);
		put(p[i][1], "x");
	}
	ep = ep_new();
	for (i = 0; i < 3; i++)
		ctl_ok(ep, CTL_ADD, p[i][0], EP_IN, 0xa + i);
	rotation("level-triggered a b c, maxevents 1, 7 waits", ep, 1, 7);
	close(ep);

	ep = ep_new();
	for (i = 0; i < 3; i++)
		ctl_ok(ep, CTL_ADD, p[i][0], EP_IN, 0xa + i);
	rotation("level-triggered a b c, maxevents 2, 4 waits", ep, 2, 4);
	rotation("then maxevents 3, 2 waits", ep, 3, 2);
	close(ep);

	/* Added in the order c a b: the ready list's order is the order they
	 * became ready in. */
	ep = ep_new();
	ctl_ok(ep, CTL_ADD, p[2][0], EP_IN, 0xc);
	ctl_ok(ep, CTL_ADD, p[0][0], EP_IN, 0xa);
	ctl_ok(ep, CTL_ADD, p[1][0], EP_IN, 0xb);
	rotation("level-triggered added c a b, maxevents 1, 4 waits", ep, 1, 4);
	close(ep);

	/* Registered while empty, then written b, c, a. */
	for (i = 0; i < 3; i++)
		take(p[i][0], 1);
	ep = ep_new();
	for (i = 0; i < 3; i++)
		ctl_ok(ep, CTL_ADD, p[i][0], EP_IN, 0xa + i);
	put(p[1][1], "x");
	put(p[2][1], "x");
	put(p[0][1], "x");
	rotation("level-triggered, written b c a, maxevents 1, 4 waits", ep, 1, 4);
	close(ep);

	/* Edge-triggered: each once, the rest kept for the next wait. */
	ep = ep_new();
	for (i = 0; i < 3; i++)
		ctl_ok(ep, CTL_ADD, p[i][0], EP_IN | EP_ET, 0xa + i);
	rotation("edge-triggered a b c, maxevents 1, 4 waits", ep, 1, 4);
	for (i = 0; i < 3; i++)
		put(p[i][1], "x");
	rotation("written a b c again, maxevents 2, 3 waits", ep, 2, 3);
	/* One of them consumed before its turn: skipped, not reported. */
	for (i = 0; i < 3; i++)
		put(p[i][1], "x");
	take(p[1][0], 2);
	take(p[1][0], 1);
	rotation("written a b c again, b emptied before the wait, maxevents 1, 3 waits", ep, 1, 3);
	close(ep);
	put(p[1][1], "x");

	/* Level-triggered, one consumed between waits: it drops out. */
	ep = ep_new();
	for (i = 0; i < 3; i++)
		ctl_ok(ep, CTL_ADD, p[i][0], EP_IN, 0xa + i);
	rotation("level-triggered a b c, maxevents 1, 1 wait", ep, 1, 1);
	take(p[1][0], 1);
	rotation("b emptied, maxevents 1, 4 waits", ep, 1, 4);
	close(ep);
	for (i = 0; i < 3; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
	many_ready();
}

static void case_dup(void)
{
	int ep, p[2], d, orig;

	ep = ep_new();
	make_pipe(p);
	orig = p[0];
	d = dup(orig);
	if (d < 0)
		die("dup failed");
	ctl_ok(ep, CTL_ADD, orig, EP_IN, 0x77);
	put(p[1], "x");
	wait_show("registered fd and its dup open: wait", ep, 0);
	close(orig);
	wait_show("registered fd closed, dup open: wait", ep, 0);
	show_ctl("epoll_ctl(DEL, the dup)", ep, CTL_DEL, d, 0, 0);
	show_ctl("epoll_ctl(MOD, the dup)", ep, CTL_MOD, d, EP_IN, 0x78);
	show_ctl("epoll_ctl(DEL, the closed fd)", ep, CTL_DEL, orig, 0, 0);
	wait_show("after those: wait", ep, 0);
	show_ctl("epoll_ctl(ADD, the dup)", ep, CTL_ADD, d, EP_IN, 0x79);
	wait_show("the file under two keys: wait", ep, 0);
	show_ctl("epoll_ctl(DEL, the dup)", ep, CTL_DEL, d, 0, 0);
	wait_show("dup's key deleted: wait", ep, 0);
	close(d);
	wait_show("dup closed too: wait", ep, 0);
	/* The fd number reused by a new pipe is not the old registration. */
	make_pipe(p);
	put(p[1], "x");
	wait_show("new pipe written: wait", ep, 0);
	show_ctl("epoll_ctl(ADD, the new pipe)", ep, CTL_ADD, p[0], EP_IN, 0x80);
	wait_show("new pipe added: wait", ep, 0);
	close(p[0]);
	close(p[1]);
	close(ep);
}

static void case_nested(void)
{
	int in, out, p[2], a, b, e[10], i, ok;
	char label[40];
	struct later *l;
	long ret;

	in = ep_new();
	out = ep_new();
	make_pipe(p);
	ctl_ok(in, CTL_ADD, p[0], EP_IN, 0x1);
	show_ctl("epoll_ctl(outer, ADD, inner, EPOLLIN)", out, CTL_ADD, in, EP_IN, 0x2);
	wait_show("inner empty: outer wait", out, 0);
	put(p[1], "x");
	wait_show("pipe written: outer wait", out, 0);
	wait_show("outer wait again", out, 0);
	wait_show("inner wait", in, 0);
	take(p[0], 1);
	wait_show("pipe read: outer wait", out, 0);
	l = start_later(20, ACT_WRITE, p[1]);
	wait_show("written at 20 ms: outer wait(no timeout)", out, -1);
	join_later(l);
	take(p[0], 1);
	show_ctl("epoll_ctl(outer, MOD, inner, EPOLLIN|EPOLLET)", out, CTL_MOD, in, EP_IN | EP_ET,
		 0x3);
	put(p[1], "x");
	wait_show("pipe written: edge-triggered outer wait", out, 0);
	wait_show("nothing new: outer wait", out, 0);
	show_ctl("epoll_ctl(outer, MOD, inner, EPOLLOUT)", out, CTL_MOD, in, EP_OUT, 0x4);
	wait_show("inner asked for EPOLLOUT: outer wait", out, 0);
	take(p[0], 1);
	close(p[0]);
	close(p[1]);

	/* Loops. */
	a = ep_new();
	b = ep_new();
	show_ctl("epoll_ctl(B, ADD, A)", b, CTL_ADD, a, EP_IN, 0xa);
	show_ctl("epoll_ctl(A, ADD, B)", a, CTL_ADD, b, EP_IN, 0xb);
	show_ctl("epoll_ctl(B, ADD, A) again", b, CTL_ADD, a, EP_IN, 0xa);
	show_ctl("epoll_ctl(B, DEL, A)", b, CTL_DEL, a, 0, 0);
	show_ctl("epoll_ctl(A, ADD, B) after the DEL", a, CTL_ADD, b, EP_IN, 0xb);
	show_ctl("epoll_ctl(B, ADD, A) now", b, CTL_ADD, a, EP_IN, 0xa);
	int c = ep_new();

	show_ctl("epoll_ctl(B, ADD, C)", b, CTL_ADD, c, EP_IN, 0xc);
	show_ctl("epoll_ctl(C, ADD, A) (A in B in C)", c, CTL_ADD, a, EP_IN, 0xa);
	close(a);
	close(b);
	close(c);

	/* Depth: e[0] holds a pipe, e[i] holds e[i - 1]. */
	make_pipe(p);
	for (i = 0; i < 10; i++)
		e[i] = ep_new();
	ctl_ok(e[0], CTL_ADD, p[0], EP_IN, 0x100);
	for (ok = 0, i = 1; i < 10; i++) {
		ret = ctl(e[i], CTL_ADD, e[i - 1], EP_IN, 0x100 + i);
		printf("epoll_ctl(e%d, ADD, e%d) = %s\n", i, i - 1, result(ret));
		if (ret)
			break;
		ok = i;
	}
	printf("epoll fds nested in a chain: %d levels of epoll in epoll\n", ok);
	put(p[1], "x");
	snprintf(label, sizeof(label), "pipe written: e%d wait", ok);
	wait_show(label, e[ok], 0);

	/* The same chain built from the top down, the pipe added last to
	 * its bottom. */
	for (i = 0; i < 10; i++)
		close(e[i]);
	for (i = 0; i < 10; i++)
		e[i] = ep_new();
	for (ok = 0, i = 8; i >= 1; i--) {
		ret = ctl(e[i + 1], CTL_ADD, e[i], EP_IN, 0x200 + i);
		printf("epoll_ctl(e%d, ADD, e%d) = %s\n", i + 1, i, result(ret));
		if (ret)
			break;
		ok++;
	}
	printf("built top down: %d levels of epoll in epoll\n", ok);
	ret = ctl(e[9 - ok], CTL_ADD, p[0], EP_IN, 0x200);
	printf("epoll_ctl(e%d, ADD, pipe) = %s\n", 9 - ok, result(ret));
	wait_show("the written pipe at the bottom: e9 wait", e[9], 0);
	for (i = 0; i < 10; i++)
		close(e[i]);
	close(p[0]);
	close(p[1]);
	close(in);
	close(out);
}

static void case_timeouts(void)
{
	struct kev ev[4];
	struct timespec ts;
	int ep, p[2];
	long ret;

	ep = ep_new();
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN, 0x1);

	t0 = now_ms();
	ret = ep_wait(ep, ev, 4, 0);
	printf("epoll_wait(timeout 0) = %s, under 1 s %s\n", result(ret),
	       since_ms() < 1000 ? "yes" : "no");
	t0 = now_ms();
	ret = ep_wait(ep, ev, 4, 50);
	printf("epoll_wait(timeout 50 ms) = %s, %s\n", result(ret), waited_50());
	t0 = now_ms();
	ret = rsys(SYS_epoll_pwait, ep, ev, 4, 50, NULL, 8);
	printf("epoll_pwait(timeout 50 ms, no sigmask) = %s, %s\n", result(ret), waited_50());
	ts = (struct timespec){ 0, 50000000 };
	t0 = now_ms();
	ret = rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, NULL, 8);
	printf("epoll_pwait2(50 ms timespec) = %s, %s, timespec still %ld.%09ld\n", result(ret),
	       waited_50(), (long)ts.tv_sec, ts.tv_nsec);
	ts = (struct timespec){ 0, 0 };
	t0 = now_ms();
	ret = rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, NULL, 8);
	printf("epoll_pwait2(0 timespec) = %s, under 1 s %s\n", result(ret),
	       since_ms() < 1000 ? "yes" : "no");

	/* A read-only timespec is fine: epoll_pwait2 does not write it. */
	struct timespec *ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (ro == MAP_FAILED)
		die("mmap failed");
	*ro = (struct timespec){ 0, 50000000 };
	mprotect(ro, 4096, PROT_READ);
	t0 = now_ms();
	ret = rsys(SYS_epoll_pwait2, ep, ev, 4, ro, NULL, 8);
	printf("epoll_pwait2(read-only 50 ms timespec) = %s, %s\n", result(ret), waited_50());
	munmap(ro, 4096);

	/* A ready fd ends any timeout at once. */
	put(p[1], "x");
	t0 = now_ms();
	ret = ep_wait(ep, ev, 4, -1);
	print_events("ready: epoll_wait(timeout -1)", ret, ev, 0);
	ret = ep_wait(ep, ev, 4, -1000);
	print_events("ready: epoll_wait(timeout -1000)", ret, ev, 0);
	ret = ep_wait(ep, ev, 4, INT_MIN);
	print_events("ready: epoll_wait(timeout INT_MIN)", ret, ev, 0);
	ret = ep_wait(ep, ev, 4, INT_MAX);
	print_events("ready: epoll_wait(timeout INT_MAX)", ret, ev, 0);
	ret = rsys(SYS_epoll_pwait2, ep, ev, 4, NULL, NULL, 8);
	print_events("ready: epoll_pwait2(NULL timespec)", ret, ev, 0);
	ts = (struct timespec){ 100000, 0 };
	ret = rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, NULL, 8);
	print_events("ready: epoll_pwait2(100000 s)", ret, ev, 0);
	printf("the ready waits took under 1 s: %s\n", since_ms() < 1000 ? "yes" : "no");

	/* A wait with a timeout woken by a write. */
	take(p[0], 1);
	struct later *l = start_later(20, ACT_WRITE, p[1]);

	ret = ep_wait(ep, ev, 4, 4000);
	print_events("written at 20 ms: epoll_wait(timeout 4 s)", ret, ev, 0);
	printf("woken before the 4 s timeout: %s\n", since_ms() < 3900 ? "yes" : "no");
	join_later(l);
	take(p[0], 1);
	l = start_later(20, ACT_WRITE, p[1]);
	ts = (struct timespec){ 4, 0 };
	ret = rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, NULL, 8);
	print_events("written at 20 ms: epoll_pwait2(4 s)", ret, ev, 0);
	printf("woken before the 4 s timeout: %s\n", since_ms() < 3900 ? "yes" : "no");
	join_later(l);
	close(p[0]);
	close(p[1]);
	close(ep);
}

static void case_sigmask(void)
{
	ksigset usr1 = 1UL << (SIGUSR1 - 1), none = 0, now;
	struct kev ev[4];
	struct timespec ts;
	struct later *l;
	int ep, p[2];
	long ret;

	install(0);
	ep = ep_new();
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN, 0x1);

	/* Blocked and pending: a mask that unblocks it ends the wait with
	 * EINTR at once, the handler runs, and the old mask is back. */
	rsys(SYS_rt_sigprocmask, SIG_BLOCK, &usr1, NULL, 8);
	rsys(SYS_tgkill, getpid(), rsys0(SYS_gettid), SIGUSR1);
	printf("SIGUSR1 blocked and pending, handler ran %d\n", handled);
	ret = rsys(SYS_epoll_pwait, ep, ev, 4, 1000, &none, 8);
	rsys(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8);
	printf("epoll_pwait(1 s, mask unblocking SIGUSR1) = %s, handler ran %d, SIGUSR1 blocked "
	       "after %d\n",
	       result(ret), handled, (int)((now & usr1) != 0));
	rsys(SYS_tgkill, getpid(), rsys0(SYS_gettid), SIGUSR1);
	ts = (struct timespec){ 1, 0 };
	ret = rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, &none, 8);
	rsys(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8);
	printf("epoll_pwait2(1 s, mask unblocking SIGUSR1) = %s, handler ran %d, SIGUSR1 blocked "
	       "after %d\n",
	       result(ret), handled, (int)((now & usr1) != 0));

	/* Pending, with a ready fd: the fd wins, no EINTR. */
	rsys(SYS_tgkill, getpid(), rsys0(SYS_gettid), SIGUSR1);
	put(p[1], "x");
	ret = rsys(SYS_epoll_pwait, ep, ev, 4, 1000, &none, 8);
	rsys(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8);
	print_events("SIGUSR1 pending, fd ready: epoll_pwait(mask unblocking SIGUSR1)", ret, ev, 0);
	printf("handler ran %d, SIGUSR1 blocked after %d\n", handled, (int)((now & usr1) != 0));
	take(p[0], 1);
	rsys(SYS_rt_sigprocmask, SIG_UNBLOCK, &usr1, NULL, 8);
	printf("SIGUSR1 unblocked: handler ran %d\n", handled);

	/* Blocked and pending under a mask that keeps it blocked: a timeout. */
	rsys(SYS_rt_sigprocmask, SIG_BLOCK, &usr1, NULL, 8);
	rsys(SYS_tgkill, getpid(), rsys0(SYS_gettid), SIGUSR1);
	t0 = now_ms();
	ret = rsys(SYS_epoll_pwait, ep, ev, 4, 50, &usr1, 8);
	printf("SIGUSR1 pending: epoll_pwait(50 ms, mask blocking SIGUSR1) = %s, %s, handler ran "
	       "%d\n",
	       result(ret), waited_50(), handled);
	rsys(SYS_rt_sigprocmask, SIG_UNBLOCK, &usr1, NULL, 8);
	printf("SIGUSR1 unblocked: handler ran %d\n", handled);

	/* Unblocked, but the wait's mask blocks it: a signal sent during the
	 * wait does not interrupt it; the pipe written later ends it, and
	 * the handler runs as the old mask comes back. */
	l = start_later(50, ACT_SIGNAL_THEN_WRITE, p[1]);
	ret = rsys(SYS_epoll_pwait, ep, ev, 4, -1, &usr1, 8);
	printf("handler ran %d as epoll_pwait returned\n", handled);
	print_events("SIGUSR1 at 50 ms, write at 100 ms: epoll_pwait(no timeout, mask blocking "
		     "SIGUSR1)", ret, ev, 0);
	join_later(l);
	take(p[0], 1);
	l = start_later(50, ACT_SIGNAL_THEN_WRITE, p[1]);
	ret = rsys(SYS_epoll_pwait2, ep, ev, 4, NULL, &usr1, 8);
	printf("handler ran %d as epoll_pwait2 returned\n", handled);
	print_events("SIGUSR1 at 50 ms, write at 100 ms: epoll_pwait2(no timeout, mask blocking "
		     "SIGUSR1)", ret, ev, 0);
	join_later(l);
	take(p[0], 1);

	/* A signal with a handler ends epoll_wait with EINTR, SA_RESTART or
	 * not: epoll_wait is never restarted. */
	int flags[2] = { 0, SA_RESTART }, i, before;

	for (i = 0; i < 2; i++) {
		install(flags[i]);
		before = handled;
		l = start_later(30, ACT_SIGNAL_UNTIL_DONE, -1);
		ret = ep_wait(ep, ev, 4, -1);
		join_later(l);
		printf("SIGUSR1 during epoll_wait(no timeout), %s: = %s, handler ran %s\n",
		       flags[i] ? "SA_RESTART" : "no SA_RESTART", result(ret),
		       handled > before ? "yes" : "no");
		before = handled;
		l = start_later(30, ACT_SIGNAL_UNTIL_DONE, -1);
		ret = rsys(SYS_epoll_pwait, ep, ev, 4, 4000, NULL, 8);
		join_later(l);
		printf("SIGUSR1 during epoll_pwait(4 s), %s: = %s, handler ran %s\n",
		       flags[i] ? "SA_RESTART" : "no SA_RESTART", result(ret),
		       handled > before ? "yes" : "no");
	}
	close(p[0]);
	close(p[1]);
	close(ep);
}

static void case_wakeup(void)
{
	int ep, p[2], ready[2];
	struct later *l;
	pid_t pid;
	char c;

	ep = ep_new();
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN, 0x5);

	l = start_later(20, ACT_WRITE, p[1]);
	wait_show("another thread writes at 20 ms: epoll_wait(no timeout)", ep, -1);
	join_later(l);
	take(p[0], 1);

	/* Another process: it says when it starts, then writes 20 ms later. */
	make_pipe(ready);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		put(ready[1], "r");
		sleep_ms(20);
		put(p[1], "y");
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1)
		die("child did not start");
	wait_show("another process writes at 20 ms: epoll_wait(no timeout)", ep, -1);
	printf("child %s\n", status_text(wait_status(pid)));
	take(p[0], 1);

	/* The writer closed by another thread: EPOLLHUP. */
	l = start_later(20, ACT_CLOSE, p[1]);
	wait_show("another thread closes the writer at 20 ms: epoll_wait(no timeout)", ep, -1);
	join_later(l);
	close(p[0]);

	/* The reader closed by another thread: EPOLLERR on the write end. */
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[1], EP_IN, 0x6);
	l = start_later(20, ACT_CLOSE, p[0]);
	wait_show("another thread closes the reader at 20 ms: epoll_wait(no timeout)", ep, -1);
	join_later(l);
	close(p[1]);
	close(ready[0]);
	close(ready[1]);
	close(ep);
}

static void case_fork(void)
{
	int ep, p[2], q[2], ready[2];
	struct kev ev[4];
	pid_t pid;
	long ret;
	char c;

	ep = ep_new();
	make_pipe(p);
	make_pipe(ready);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN, 0x1);
	put(p[1], "x");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		ret = ep_wait(ep, ev, 4, 0);
		print_events("child: ready before the fork: wait", ret, ev, 0);
		take(p[0], 1);
		ret = ep_wait(ep, ev, 4, 0);
		print_events("child: read it: wait", ret, ev, 0);
		fflush(stdout);
		put(ready[1], "r");
		/* The parent adds a pipe the child has no fd of, and writes. */
		ret = ep_wait(ep, ev, 4, -1);
		print_events("child: after the parent's ADD and write: wait(no timeout)", ret, ev,
			     0);
		show_ctl("child: epoll_ctl(DEL, the first pipe)", ep, CTL_DEL, p[0], 0, 0);
		exit(0);
	}
	if (read(ready[0], &c, 1) != 1)
		die("child did not start");
	wait_show("parent: the child read the byte: wait", ep, 0);
	make_pipe(q);
	show_ctl("parent: epoll_ctl(ADD, a new pipe)", ep, CTL_ADD, q[0], EP_IN, 0x2);
	sleep_ms(20);
	put(q[1], "x");
	printf("parent: child %s\n", status_text(wait_status(pid)));
	put(p[1], "x");
	wait_show("parent: both pipes written, the first deleted by the child: wait", ep, 0);

	/* The child's close of its copy leaves the parent's working. */
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		close(ep);
		exit(0);
	}
	printf("parent: child closed its epoll fd and %s\n", status_text(wait_status(pid)));
	wait_show("parent: wait", ep, 0);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(ready[0]);
	close(ready[1]);
	close(ep);
}

static void show_poll(const char *label, int fd, short events, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	long ret = rsys(SYS_poll, &pfd, 1, ms);
	char buf[64] = "";

	static const struct { short bit; const char *name; } names[] = {
		{ POLLIN, "POLLIN" },	{ POLLPRI, "POLLPRI" },	  { POLLOUT, "POLLOUT" },
		{ POLLERR, "POLLERR" }, { POLLHUP, "POLLHUP" },	  { POLLNVAL, "POLLNVAL" },
		{ POLLRDNORM, "POLLRDNORM" }, { POLLWRNORM, "POLLWRNORM" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (pfd.revents & names[i].bit) {
			if (buf[0])
				strcat(buf, "|");
			strcat(buf, names[i].name);
		}
	}
	printf("%s = %s, revents %s\n", label, result(ret), buf[0] ? buf : "0");
}

static int select_readable(int fd, int ms)
{
	unsigned long in[1024 / 64] = { 0 };
	struct { long s, us; } tv = { ms / 1000, ms % 1000 * 1000 };
	long ret;

	in[fd / 64] |= 1UL << (fd % 64);
	ret = rsys(SYS_select, fd + 1, in, NULL, NULL, &tv);
	if (ret < 0)
		return (int)ret;
	return (int)((in[fd / 64] >> (fd % 64)) & 1);
}

static void case_pollable(void)
{
	int ep, ep2, p[2];
	struct later *l;

	ep = ep_new();
	make_pipe(p);
	show_poll("empty epoll: poll(epfd, POLLIN, 0)", ep, POLLIN, 0);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN, 0x1);
	show_poll("nothing ready: poll(epfd, POLLIN|POLLOUT, 0)", ep, POLLIN | POLLOUT, 0);
	printf("nothing ready: select(epfd) readable %d\n", select_readable(ep, 0));
	put(p[1], "x");
	show_poll("pipe written: poll(epfd, POLLIN, 0)", ep, POLLIN, 0);
	show_poll("pipe written: poll(epfd, POLLIN|POLLRDNORM|POLLOUT, 0)", ep,
		  POLLIN | POLLRDNORM | POLLOUT, 0);
	show_poll("pipe written: poll(epfd, POLLOUT, 0)", ep, POLLOUT, 0);
	printf("pipe written: select(epfd) readable %d\n", select_readable(ep, 0));
	wait_show("the event is still there: wait", ep, 0);
	take(p[0], 1);
	show_poll("pipe read: poll(epfd, POLLIN, 0)", ep, POLLIN, 0);
	printf("pipe read: select(epfd) readable %d\n", select_readable(ep, 0));

	/* Written, then read before anyone looked: not readable. */
	put(p[1], "x");
	take(p[0], 1);
	show_poll("written then read: poll(epfd, POLLIN, 0)", ep, POLLIN, 0);
	wait_show("written then read: wait", ep, 0);

	l = start_later(20, ACT_WRITE, p[1]);
	show_poll("written at 20 ms by a thread: poll(epfd, POLLIN, no timeout)", ep, POLLIN, -1);
	join_later(l);
	take(p[0], 1);
	l = start_later(20, ACT_WRITE, p[1]);
	printf("written at 20 ms by a thread: select(epfd, 4 s) readable %d\n",
	       select_readable(ep, 4000));
	join_later(l);
	take(p[0], 1);

	/* An edge-triggered item, once reported, does not keep it readable. */
	ctl_ok(ep, CTL_MOD, p[0], EP_IN | EP_ET, 0x2);
	put(p[1], "x");
	show_poll("edge-triggered, written: poll(epfd, POLLIN, 0)", ep, POLLIN, 0);
	wait_show("edge-triggered: wait", ep, 0);
	show_poll("edge-triggered, reported: poll(epfd, POLLIN, 0)", ep, POLLIN, 0);

	/* An epoll fd inside another, through poll. */
	ep2 = ep_new();
	ctl_ok(ep2, CTL_ADD, ep, EP_IN, 0x3);
	ctl_ok(ep, CTL_MOD, p[0], EP_IN, 0x4);
	show_poll("nested: poll(outer, POLLIN, 0)", ep2, POLLIN, 0);
	take(p[0], 1);
	show_poll("nested, pipe read: poll(outer, POLLIN, 0)", ep2, POLLIN, 0);
	close(ep2);
	close(p[0]);
	close(p[1]);
	close(ep);
}

static void case_rdhup(void)
{
	int ep, p[2];

	ep = ep_new();
	make_pipe(p);
	show_ctl("epoll_ctl(ADD, read end, EPOLLIN|EPOLLRDHUP)", ep, CTL_ADD, p[0],
		 EP_IN | EP_RDHUP, 0x1);
	wait_show("empty: wait", ep, 0);
	put(p[1], "x");
	wait_show("written: wait", ep, 0);
	close(p[1]);
	wait_show("writer closed, 1 byte left: wait", ep, 0);
	take(p[0], 1);
	wait_show("writer closed, empty: wait", ep, 0);
	show_ctl("epoll_ctl(MOD, read end, EPOLLRDHUP)", ep, CTL_MOD, p[0], EP_RDHUP, 0x2);
	wait_show("EPOLLRDHUP only, writer closed: wait", ep, 0);
	close(p[0]);

	make_pipe(p);
	show_ctl("epoll_ctl(ADD, write end, EPOLLOUT|EPOLLRDHUP)", ep, CTL_ADD, p[1],
		 EP_OUT | EP_RDHUP, 0x3);
	close(p[0]);
	wait_show("reader closed: wait", ep, 0);
	close(p[1]);
	close(ep);
}

static void case_proc(void)
{
	char path[64], buf[128];
	int ep = ep_new();
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", ep);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0)
		printf("readlink(/proc/self/fd/EPFD) = -1 %s\n", errno_name(errno));
	else {
		buf[n] = 0;
		printf("readlink(/proc/self/fd/EPFD) = \"%s\"\n", buf);
	}
	/* Every epoll fd has its own file, but all say the same. */
	int ep2 = ep_new();

	snprintf(path, sizeof(path), "/proc/self/fd/%d", ep2);
	n = readlink(path, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = 0;
	printf("readlink(/proc/self/fd/EPFD2) = \"%s\"\n", buf);
	/* Both are anon_inodefs' one inode: mode 0600, no file type. */
	struct stat st;

	if (fstat(ep, &st))
		printf("fstat(EPFD) = -1 %s\n", errno_name(errno));
	else
		printf("fstat(EPFD): mode 0%o, nlink %ld\n", (unsigned)st.st_mode, (long)st.st_nlink);
	close(ep);
	close(ep2);
}

/* Wait until process PID sleeps (state S in /proc/PID/stat), at most 5 s. */
static int wait_sleeping(pid_t pid)
{
	for (int i = 0; i < 500; i++) {
		if (proc_state(pid) == 'S')
			return 1;
		sleep_ms(10);
	}
	return 0;
}

/* A child waits in CALL without a timeout (or 4 s for epoll_pwait2); it
 * is stopped once it sleeps there, then continued: the wait ends with
 * EINTR, never restarted. Should it go on waiting, a write 200 ms after
 * the SIGCONT ends it. */
static void stop_one(const char *call)
{
	ksigset none = 0;
	struct timespec ts = { 4, 0 };
	struct kev ev[4];
	int ep, p[2], st;
	pid_t pid;
	long ret;

	ep = ep_new();
	make_pipe(p);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN, 0x1);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		if (!strcmp(call, "epoll_wait(no timeout)"))
			ret = ep_wait(ep, ev, 4, -1);
		else if (!strcmp(call, "epoll_pwait(no timeout, empty mask)"))
			ret = rsys(SYS_epoll_pwait, ep, ev, 4, -1, &none, 8);
		else
			ret = rsys(SYS_epoll_pwait2, ep, ev, 4, &ts, NULL, 8);
		print_events("child: stopped and continued", ret, ev, 0);
		exit(0);
	}
	printf("%s: child sleeping in it %s\n", call, wait_sleeping(pid) ? "yes" : "no");
	kill(pid, SIGSTOP);
	if (waitpid(pid, &st, WUNTRACED) != pid)
		die("waitpid: %s", errno_name(errno));
	printf("child stopped %s\n", WIFSTOPPED(st) ? "yes" : status_text(st));
	kill(pid, SIGCONT);
	sleep_ms(200);
	put(p[1], "x");
	printf("child %s\n", status_text(wait_status(pid)));
	close(p[0]);
	close(p[1]);
	close(ep);
}

static void case_stop(void)
{
	stop_one("epoll_wait(no timeout)");
	stop_one("epoll_pwait(no timeout, empty mask)");
	stop_one("epoll_pwait2(4 s)");
}

/* /proc/self/fdinfo of an epoll fd: its flags, and one tfd line per item,
 * printed with the fd's name for its number, sorted, without ino and sdev
 * (which vary). */
static void show_fdinfo(const char *label, int ep, const int *fds, const char *const *names,
			int nfds)
{
	char path[64], buf[4096], lines[8][128], *line, *save;
	int fd, n = 0, i, tfd;
	unsigned int events;
	unsigned long long data;
	long long pos;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", ep);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("%s: open(/proc/self/fdinfo/EPFD) = -1 %s\n", label, errno_name(errno));
		return;
	}
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[len < 0 ? 0 : len] = 0;
	printf("%s:\n", label);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "pos:", 4) || !strncmp(line, "flags:", 6)) {
			printf("  %s\n", line);
		} else if (!strncmp(line, "tfd:", 4) && n < 8) {
			const char *name = "?";
			const char *ino = strstr(line, " ino:"), *sdev = strstr(line, " sdev:");

			if (sscanf(line, "tfd: %d events: %x data: %llx pos:%lld", &tfd, &events,
				   &data, &pos) != 4) {
				snprintf(lines[n++], sizeof(lines[0]), "  unparsed: %s", line);
				continue;
			}
			for (i = 0; i < nfds; i++)
				if (fds[i] == tfd)
					name = names[i];
			snprintf(lines[n++], sizeof(lines[0]),
				 "  tfd %s events %x data %llx pos %lld%s%s", name, events, data, pos,
				 ino ? " ino" : "", sdev ? " sdev" : "");
		}
	}
	qsort(lines, (size_t)n, sizeof(lines[0]), (int (*)(const void *, const void *))strcmp);
	for (i = 0; i < n; i++)
		printf("%s\n", lines[i]);
}

static void case_fdinfo(void)
{
	int ep, ep2, p[2], q[2];
	struct kev ev[4];

	ep = ep_new();
	ep2 = rsys(SYS_epoll_create1, 0);
	make_pipe(p);
	make_pipe(q);
	show_fdinfo("empty epoll", ep, NULL, NULL, 0);
	ctl_ok(ep, CTL_ADD, p[0], EP_IN | EP_ONESHOT, 0x1234);
	ctl_ok(ep, CTL_ADD, p[1], EP_OUT | EP_ET, 0xffffffffffffffffULL);
	ctl_ok(ep, CTL_ADD, q[0], 0, 0);
	ctl_ok(ep, CTL_ADD, ep2, EP_IN | EP_RDNORM, 0x42);

	int fds[] = { p[0], p[1], q[0], ep2 };
	const char *const names[] = { "p0", "p1", "q0", "ep2" };

	show_fdinfo("four registered", ep, fds, names, 4);
	put(p[1], "x");
	ep_wait(ep, ev, 4, 0);
	show_fdinfo("p0 reported (one-shot)", ep, fds, names, 4);
	ctl_ok(ep, CTL_DEL, q[0], 0, 0);
	ctl_ok(ep, CTL_MOD, p[0], EP_IN, 0x5678);
	show_fdinfo("q0 deleted, p0 modified", ep, fds, names, 4);
	close(p[1]);
	show_fdinfo("p1 closed", ep, fds, names, 4);
	show_fdinfo("ep2, without EPOLL_CLOEXEC", ep2, NULL, NULL, 0);
	close(p[0]);
	close(q[0]);
	close(q[1]);
	close(ep2);
	close(ep);
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(c, "errors"))
		case_errors(argv[0]);
	else if (!strcmp(c, "level"))
		case_level();
	else if (!strcmp(c, "edge"))
		case_edge();
	else if (!strcmp(c, "oneshot"))
		case_oneshot();
	else if (!strcmp(c, "data"))
		case_data();
	else if (!strcmp(c, "rotate"))
		case_rotate();
	else if (!strcmp(c, "dup"))
		case_dup();
	else if (!strcmp(c, "nested"))
		case_nested();
	else if (!strcmp(c, "timeouts"))
		case_timeouts();
	else if (!strcmp(c, "sigmask"))
		case_sigmask();
	else if (!strcmp(c, "wakeup"))
		case_wakeup();
	else if (!strcmp(c, "fork"))
		case_fork();
	else if (!strcmp(c, "pollable"))
		case_pollable();
	else if (!strcmp(c, "rdhup"))
		case_rdhup();
	else if (!strcmp(c, "proc"))
		case_proc();
	else if (!strcmp(c, "stop"))
		case_stop();
	else if (!strcmp(c, "fdinfo"))
		case_fdinfo();
	else
		die("usage: epoll errors|level|edge|oneshot|data|rotate|dup|nested|timeouts|"
		    "sigmask|wakeup|fork|pollable|rdhup|proc|stop|fdinfo");
	return 0;
}
