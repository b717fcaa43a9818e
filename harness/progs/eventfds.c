/*
 * eventfds CASE: eventfd, signalfd and timerfd, with raw system calls so
 * that each line shows what the kernel returned. One line per call or
 * fact; no pid, address or time is printed, so a run natively and one
 * under umk print the same lines.
 *
 *   eventfd        the counter: reads, writes, sizes, the ULLONG_MAX
 *                  limits, POLLIN/POLLOUT, flags, /proc/self/fd and
 *                  fdinfo, fstat, fstatfs
 *   semaphore      EFD_SEMAPHORE: each read takes 1
 *   eventfd-wait   a blocking read waits for a thread's write, a blocking
 *                  write that would overflow waits for a thread's read
 *   signalfd       what a read returns for kill, tgkill, sigqueue and
 *                  SIGCHLD, several per read, thread before process, the
 *                  set (SIGKILL and SIGSTOP dropped, a new set), errors
 *   signalfd-wait  a blocking read woken by a thread's kill and by another
 *                  process's; an unblocked signal goes to its handler
 *   signalfd-fork  the child's signalfd reads the child's signals
 *   signalfd-exec  a signalfd stays open and works across exec, a
 *                  close-on-exec one is closed
 *   timerfd        clocks, settime and gettime, one-shot, absolute and
 *                  interval timers, errors, fdinfo
 *   overrun        a 1 ms interval timer read after ~20 ms counts >= 5
 *   poll           poll and select on each fd, woken when another thread
 *                  or process makes it ready
 *   epoll          epoll_wait on the three, woken the same way; a signalfd
 *                  an exited process added to an epoll that outlives it
 *   eintr [restart]  a blocking read of each fd interrupted by a handler
 *                  without (with) SA_RESTART
 */
#define _GNU_SOURCE
#include <errno.h>
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
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define KSIGSET 8		/* the kernel's sigset_t: 64 signals */
#define BAD ((void *)8)		/* an address nobody maps */
#define SSI 128			/* sizeof(struct signalfd_siginfo) */

typedef unsigned long ksigset;

static ksigset kmask(int sig)
{
	return 1UL << (sig - 1);
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

/* Print "CALL = fd" for a new fd (its number depends on what the caller
 * left open), or the error. Returns ret. */
static long show_fd(const char *call, long ret)
{
	if (ret >= 0)
		printf("%s = fd\n", call);
	else
		show(call, ret);
	return ret;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	while (rsys(SYS_nanosleep, &ts, &ts) == -EINTR)
		;
}

static long efd_read(int fd, uint64_t *v)
{
	*v = 0;
	return rsys(SYS_read, fd, v, sizeof(*v));
}

static long efd_write(int fd, uint64_t v)
{
	return rsys(SYS_write, fd, &v, sizeof(v));
}

/* Read 8 bytes from fd and print the result and the value, in fmt. */
static void show_read(const char *what, int fd, const char *fmt)
{
	char val[32];
	uint64_t v;
	long n = efd_read(fd, &v);

	snprintf(val, sizeof(val), fmt, (unsigned long long)v);
	printf("%s = %s, value %s\n", what, result(n), val);
}

/* The events poll reports now for fd, as names. */
static const char *poll_now(int fd)
{
	static char buf[64];
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	long n = rsys(SYS_poll, &p, 1, 0);

	if (n < 0)
		return result(n);
	snprintf(buf, sizeof(buf), "%s%s%s%s", n ? "" : "0", p.revents & POLLIN ? "POLLIN " : "",
		 p.revents & POLLOUT ? "POLLOUT " : "", p.revents & POLLERR ? "POLLERR " : "");
	if (buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = 0;
	return buf;
}

/* /proc/self/fd/N's target. */
static const char *fd_link(int fd)
{
	static char buf[64];
	char path[32];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = 0;
	return buf;
}

/* Print the lines of /proc/self/fdinfo/N that start with one of the
 * prefixes (the rest, mnt_id and ino, differ between kernels). */
static void show_fdinfo(int fd, const char *const *prefixes)
{
	char path[32], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f) {
		printf("fdinfo: cannot open\n");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		for (const char *const *p = prefixes; *p; p++)
			if (!strncmp(line, *p, strlen(*p)))
				printf("fdinfo %s", line);
	}
	fclose(f);
}

/* fstat, and fstatfs's file system: anon_inodefs, as Linux's. */
static void show_fstat(const char *what, int fd)
{
	struct statfs sfs;
	struct stat st;

	if (fstat(fd, &st))
		printf("fstat(%s) = -1 %s\n", what, errno_name(errno));
	else
		printf("fstat(%s): mode %04o, type %s, nlink %lu\n", what, st.st_mode & 07777,
		       (st.st_mode & S_IFMT) ? "some" : "none", (unsigned long)st.st_nlink);
	if (fstatfs(fd, &sfs))
		printf("fstatfs(%s) = -1 %s\n", what, errno_name(errno));
	else
		printf("fstatfs(%s): f_type %#lx%s\n", what, (unsigned long)sfs.f_type,
		       sfs.f_type == 0x09041934 ? " (ANON_INODE_FS_MAGIC)" : "");
}

static void show_flags(const char *what, int fd)
{
	int fl = fcntl(fd, F_GETFL), fdfl = fcntl(fd, F_GETFD);

	printf("%s: %s%s%s\n", what, (fl & O_ACCMODE) == O_RDWR ? "O_RDWR" : "not O_RDWR",
	       fl & O_NONBLOCK ? " O_NONBLOCK" : "", fdfl & FD_CLOEXEC ? " FD_CLOEXEC" : "");
}

/* ---- a helper thread that acts after a delay ---- */

enum act { ACT_EFD_WRITE, ACT_EFD_READ, ACT_KILL, ACT_TGKILL, ACT_SETTIME };

struct later {
	long ms;
	enum act act;
	int fd;			/* ACT_EFD_*, ACT_SETTIME */
	int sig;		/* ACT_KILL (to the process), ACT_TGKILL */
	pid_t tid;		/* ACT_TGKILL: the thread that started it */
	volatile int *wait_for;	/* if set: start counting ms once it is 1 */
	pthread_t thread;
};

static void *later_fn(void *arg)
{
	struct later *l = arg;
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	uint64_t v;

	while (l->wait_for && !*l->wait_for)
		sleep_ms(1);
	sleep_ms(l->ms);
	switch (l->act) {
	case ACT_EFD_WRITE:
		if (efd_write(l->fd, 1) != 8)
			die("eventfd write failed");
		break;
	case ACT_EFD_READ:
		if (efd_read(l->fd, &v) != 8)
			die("eventfd read failed");
		break;
	case ACT_KILL:
		rsys(SYS_kill, getpid(), l->sig);
		break;
	case ACT_TGKILL:
		rsys(SYS_tgkill, getpid(), l->tid, l->sig);
		break;
	case ACT_SETTIME:
		if (rsys(SYS_timerfd_settime, l->fd, 0, &its, NULL))
			die("timerfd_settime failed");
		break;
	}
	return NULL;
}

static struct later *start_later(long ms, enum act act, int fd, int sig, volatile int *wait_for)
{
	struct later *l = calloc(1, sizeof(*l));

	l->ms = ms;
	l->act = act;
	l->fd = fd;
	l->sig = sig;
	l->tid = (pid_t)rsys0(SYS_gettid);
	l->wait_for = wait_for;
	if (pthread_create(&l->thread, NULL, later_fn, l))
		die("pthread_create failed");
	return l;
}

static void join_later(struct later *l)
{
	pthread_join(l->thread, NULL);
	free(l);
}

/* Block (or unblock) sigs in the calling thread; threads started later
 * inherit the mask, so a process-directed signal waits for signalfd. */
static void block(int how, ksigset sigs)
{
	if (rsys(SYS_rt_sigprocmask, how, &sigs, NULL, KSIGSET))
		die("rt_sigprocmask failed");
}

/* ---- eventfd ---- */

static void case_eventfd(void)
{
	int fd = (int)show_fd("eventfd(3)", rsys(SYS_eventfd, 3));
	uint64_t v, big[2];
	char small[4];
	long n;

	show_flags("eventfd flags", fd);
	printf("link: %s\n", fd_link(fd));
	show_fstat("eventfd", fd);
	{
		static const char *const p[] = { "flags:", "eventfd-count:", "eventfd-semaphore:", NULL };

		show_fdinfo(fd, p);
	}
	printf("poll: %s\n", poll_now(fd));
	show_read("read", fd, "%llu");
	printf("poll: %s\n", poll_now(fd));
	show("write(5)", efd_write(fd, 5));
	show("write(7)", efd_write(fd, 7));
	show_read("read", fd, "%llu");
	show("read(4-byte buffer)", rsys(SYS_read, fd, small, sizeof(small)));
	show("write(4 bytes)", rsys(SYS_write, fd, small, sizeof(small)));
	show("write(16 bytes)", rsys(SYS_write, fd, big, sizeof(big)));
	show("write(0xffffffffffffffff)", efd_write(fd, UINT64_MAX));
	show("write(bad pointer)", rsys(SYS_write, fd, BAD, 8));
	show("write(0)", efd_write(fd, 0));
	show("write(1)", efd_write(fd, 1));
	n = rsys(SYS_read, fd, big, sizeof(big));
	printf("read(16-byte buffer) = %s, value %llu\n", result(n), (unsigned long long)big[0]);
	show("write(1)", efd_write(fd, 1));
	/* Linux takes the count before the copy faults; umk's read may
	 * refuse the buffer first (its access_ok knows the regions). */
	show("read(bad pointer)", rsys(SYS_read, fd, BAD, 8));
	close(fd);

	fd = (int)show_fd("eventfd2(0, EFD_NONBLOCK | EFD_CLOEXEC)",
		       rsys(SYS_eventfd2, 0, EFD_NONBLOCK | EFD_CLOEXEC));
	show_flags("eventfd2 flags", fd);
	printf("read = %s\n", result(efd_read(fd, &v)));
	show("write(0xfffffffffffffffe)", efd_write(fd, UINT64_MAX - 1));
	printf("poll at the limit: %s\n", poll_now(fd));
	show("write(1) at the limit", efd_write(fd, 1));
	show("write(0) at the limit", efd_write(fd, 0));
	show_read("read", fd, "%#llx");
	printf("poll: %s\n", poll_now(fd));
	show("fcntl(F_SETFL, 0)", rsys(SYS_fcntl, fd, F_SETFL, 0));
	show_flags("after F_SETFL", fd);
	close(fd);

	show("eventfd2(0, EFD_SEMAPHORE << 1)", rsys(SYS_eventfd2, 0, EFD_SEMAPHORE << 1));
	show("eventfd2(0, O_APPEND)", rsys(SYS_eventfd2, 0, O_APPEND));
}

static void case_semaphore(void)
{
	int fd = (int)show_fd("eventfd2(0, EFD_SEMAPHORE | EFD_NONBLOCK)",
			   rsys(SYS_eventfd2, 0, EFD_SEMAPHORE | EFD_NONBLOCK));
	int i;

	show("write(3)", efd_write(fd, 3));
	{
		static const char *const p[] = { "eventfd-count:", "eventfd-semaphore:", NULL };

		show_fdinfo(fd, p);
	}
	for (i = 0; i < 4; i++)
		show_read("read", fd, "%llu");
	show("write(2)", efd_write(fd, 2));
	printf("poll: %s\n", poll_now(fd));
	show_read("read", fd, "%llu");
	printf("poll: %s\n", poll_now(fd));
	close(fd);
}

static void case_eventfd_wait(void)
{
	int fd = (int)rsys(SYS_eventfd, 0);
	struct later *l;

	l = start_later(100, ACT_EFD_WRITE, fd, 0, NULL);
	show_read("blocking read (a thread writes 1)", fd, "%llu");
	join_later(l);

	show("write(0xfffffffffffffffe)", efd_write(fd, UINT64_MAX - 1));
	l = start_later(100, ACT_EFD_READ, fd, 0, NULL);
	show("blocking write(5) past the limit (a thread reads)", efd_write(fd, 5));
	join_later(l);
	show_read("read", fd, "%llu");
	close(fd);
}

/* ---- signalfd ---- */

static long sfd_create(ksigset mask, int flags)
{
	return rsys(SYS_signalfd4, -1, &mask, KSIGSET, flags);
}

/* Read one siginfo (or n) and print its deterministic fields; self and
 * other name the pids it may carry. */
static void sfd_show(const char *what, int fd, pid_t self, pid_t other)
{
	struct signalfd_siginfo si[3];
	long n = rsys(SYS_read, fd, si, sizeof(si));
	long i;

	if (n < 0) {
		printf("%s: read = %s\n", what, result(n));
		return;
	}
	printf("%s: read = %ld (%ld siginfo)\n", what, n, n / SSI);
	for (i = 0; i < n / SSI; i++) {
		struct signalfd_siginfo *s = &si[i];
		const char *pid = s->ssi_pid == (uint32_t)self	 ? "self"
				  : s->ssi_pid == (uint32_t)other ? "other"
				  : s->ssi_pid == 0		 ? "0"
								 : "unexpected";

		printf("  signo %s, errno %d, code %d, pid %s, uid %s", signal_name((int)s->ssi_signo),
		       s->ssi_errno, s->ssi_code, pid, s->ssi_uid == getuid() ? "mine" : "other");
		if (s->ssi_code == SI_QUEUE)
			printf(", int %d, ptr %llu", s->ssi_int, (unsigned long long)s->ssi_ptr);
		if (s->ssi_signo == SIGCHLD)
			printf(", status %d", s->ssi_status);
		printf(", fd %d, tid %u, band %u, overrun %u, trapno %u, addr %llu\n", s->ssi_fd,
		       s->ssi_tid, s->ssi_band, s->ssi_overrun, s->ssi_trapno,
		       (unsigned long long)s->ssi_addr);
	}
}

/* A call that returns the fd it was given. */
static void show_same_fd(const char *call, int fd, long ret)
{
	printf("%s = %s\n", call, ret == fd ? "fd" : result(ret));
}

static volatile int handled;

static void on_signal(int sig)
{
	handled++;
}

static void set_handler(int sig, int flags)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		die("sigaction failed");
}

static void case_signalfd(void)
{
	pid_t self = getpid(), child;
	ksigset all = ~0UL, mask;
	union sigval val = { .sival_int = 42 };
	int fd, efd;
	char small[SSI - 1];

	block(SIG_BLOCK, kmask(SIGUSR1) | kmask(SIGUSR2) | kmask(SIGRTMIN) | kmask(SIGCHLD));
	fd = (int)show_fd("signalfd4(-1, {SIGUSR1 SIGUSR2 SIGRTMIN SIGCHLD}, SFD_NONBLOCK)",
		       sfd_create(kmask(SIGUSR1) | kmask(SIGUSR2) | kmask(SIGRTMIN) | kmask(SIGCHLD),
				  SFD_NONBLOCK));
	show_flags("signalfd flags", fd);
	printf("link: %s\n", fd_link(fd));
	show_fstat("signalfd", fd);
	{
		static const char *const p[] = { "sigmask:", NULL };

		show_fdinfo(fd, p);
	}
	sfd_show("nothing pending", fd, self, 0);
	printf("poll: %s\n", poll_now(fd));

	show("kill(self, SIGUSR1)", rsys(SYS_kill, self, SIGUSR1));
	printf("poll: %s\n", poll_now(fd));
	sfd_show("kill", fd, self, 0);
	printf("poll: %s\n", poll_now(fd));
	show("tgkill(self, SIGUSR1)", rsys(SYS_tgkill, self, rsys0(SYS_gettid), SIGUSR1));
	sfd_show("tgkill", fd, self, 0);
	show("sigqueue(self, SIGRTMIN, 42)", sigqueue(self, SIGRTMIN, val) ? -errno : 0);
	sfd_show("sigqueue", fd, self, 0);

	/* Thread-directed first, then process-directed; each by number. */
	show("kill(self, SIGUSR1)", rsys(SYS_kill, self, SIGUSR1));
	show("tgkill(self, SIGUSR2)", rsys(SYS_tgkill, self, rsys0(SYS_gettid), SIGUSR2));
	show("sigqueue(self, SIGRTMIN, 42)", sigqueue(self, SIGRTMIN, val) ? -errno : 0);
	show("sigqueue(self, SIGRTMIN, 43)", sigqueue(self, SIGRTMIN, (union sigval){ 43 }) ? -errno : 0);
	sfd_show("four pending, room for three", fd, self, 0);
	sfd_show("the fourth", fd, self, 0);

	child = fork();
	if (child == 0)
		_exit(3);
	show("blocking read from here on: fcntl(F_SETFL, 0)", rsys(SYS_fcntl, fd, F_SETFL, 0));
	sfd_show("the child's SIGCHLD", fd, self, child);
	printf("child: %s\n", status_text(wait_status(child)));
	show("fcntl(F_SETFL, O_NONBLOCK)", rsys(SYS_fcntl, fd, F_SETFL, O_NONBLOCK));

	/* A new set for the same fd. */
	show("kill(self, SIGUSR1)", rsys(SYS_kill, self, SIGUSR1));
	mask = kmask(SIGUSR2);
	show_same_fd("signalfd(fd, {SIGUSR2})", fd, rsys(SYS_signalfd, fd, &mask, KSIGSET));
	{
		static const char *const p[] = { "sigmask:", NULL };

		show_fdinfo(fd, p);
	}
	printf("poll with SIGUSR1 pending: %s\n", poll_now(fd));
	sfd_show("SIGUSR1 outside the set", fd, self, 0);
	mask = kmask(SIGUSR1);
	show_same_fd("signalfd4(fd, {SIGUSR1}, 0)", fd, rsys(SYS_signalfd4, fd, &mask, KSIGSET, 0));
	sfd_show("SIGUSR1 in the set again", fd, self, 0);
	close(fd);

	/* Every signal: SIGKILL and SIGSTOP are dropped from the set. */
	fd = (int)show_fd("signalfd4(-1, every signal, SFD_CLOEXEC)", sfd_create(all, SFD_CLOEXEC));
	show_flags("signalfd flags", fd);
	{
		static const char *const p[] = { "sigmask:", NULL };

		show_fdinfo(fd, p);
	}
	show("read(127-byte buffer)", rsys(SYS_read, fd, small, sizeof(small)));
	show("write", rsys(SYS_write, fd, small, 8));
	close(fd);

	/* Errors. */
	efd = (int)rsys(SYS_eventfd, 0);
	show("signalfd4(eventfd, ...)", rsys(SYS_signalfd4, efd, &all, KSIGSET, 0));
	show("signalfd4(fd 999, ...)", rsys(SYS_signalfd4, 999, &all, KSIGSET, 0));
	show("signalfd4(-2, ...)", rsys(SYS_signalfd4, -2, &all, KSIGSET, 0));
	show("signalfd4(-1, sizemask 4)", rsys(SYS_signalfd4, -1, &all, 4, 0));
	show("signalfd4(-1, sizemask 16)", rsys(SYS_signalfd4, -1, &all, 16, 0));
	show("signalfd4(-1, bad pointer)", rsys(SYS_signalfd4, -1, BAD, KSIGSET, 0));
	show("signalfd4(-1, flags O_APPEND)", rsys(SYS_signalfd4, -1, &all, KSIGSET, O_APPEND));
	show("signalfd4(eventfd, flags O_APPEND)", rsys(SYS_signalfd4, efd, &all, KSIGSET, O_APPEND));
	close(efd);
}

static void case_signalfd_wait(void)
{
	pid_t self = getpid(), child;
	struct later *l;
	int fd;

	block(SIG_BLOCK, kmask(SIGUSR1));
	fd = (int)sfd_create(kmask(SIGUSR1), 0);
	l = start_later(100, ACT_KILL, 0, SIGUSR1, NULL);
	sfd_show("blocking read, a thread kills the process", fd, self, 0);
	join_later(l);

	child = fork();
	if (child == 0) {
		sleep_ms(100);
		rsys(SYS_kill, getppid(), SIGUSR1);
		_exit(0);
	}
	sfd_show("blocking read, a child kills its parent", fd, self, child);
	printf("child: %s\n", status_text(wait_status(child)));

	/* Unblocked, SIGUSR1 goes to its handler on the way out of kill,
	 * and signalfd never sees it. */
	set_handler(SIGUSR1, 0);
	block(SIG_UNBLOCK, kmask(SIGUSR1));
	show("kill(self, SIGUSR1) unblocked, with a handler", rsys(SYS_kill, self, SIGUSR1));
	printf("handler ran %d\n", handled);
	show("fcntl(F_SETFL, O_NONBLOCK)", rsys(SYS_fcntl, fd, F_SETFL, O_NONBLOCK));
	sfd_show("after the handler", fd, self, 0);
	close(fd);
}

static void case_signalfd_fork(void)
{
	pid_t parent = getpid(), child;
	struct pollfd p;
	int fd, status;

	block(SIG_BLOCK, kmask(SIGUSR1));
	fd = (int)sfd_create(kmask(SIGUSR1), 0);
	child = fork();
	if (child == 0) {
		sfd_show("child: the parent's SIGUSR1", fd, getpid(), parent);
		_exit(0);
	}
	/* Printed first: the child's lines come once the signal is sent. */
	printf("parent: kill(child, SIGUSR1)\n");
	if (rsys(SYS_kill, child, SIGUSR1))
		die("kill failed");
	status = wait_status(child);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	printf("parent: poll = %s, revents %d (nothing pending here)\n",
	       result(rsys(SYS_poll, &p, 1, 0)), p.revents);
	printf("child: %s\n", status_text(status));
	close(fd);
}

static int signalfd_exec_child(int fd, int cloexec_fd)
{
	show("after exec: fcntl(close-on-exec signalfd, F_GETFD)",
	     rsys(SYS_fcntl, cloexec_fd, F_GETFD, 0));
	show_flags("after exec: signalfd flags", fd);
	printf("after exec: link %s\n", fd_link(fd));
	show("after exec: kill(self, SIGUSR1)", rsys(SYS_kill, getpid(), SIGUSR1));
	sfd_show("after exec", fd, getpid(), 0);
	return 0;
}

static void case_signalfd_exec(const char *self)
{
	char a1[16], a2[16];
	int fd, fd2;

	block(SIG_BLOCK, kmask(SIGUSR1));
	fd = (int)sfd_create(kmask(SIGUSR1), 0);
	fd2 = (int)sfd_create(kmask(SIGUSR1), SFD_CLOEXEC);
	snprintf(a1, sizeof(a1), "%d", fd);
	snprintf(a2, sizeof(a2), "%d", fd2);
	fflush(stdout);
	execl(self, self, "signalfd-exec-child", a1, a2, (char *)NULL);
	die("execl %s failed", self);
}

/* ---- timerfd ---- */

static double ts_s(const struct timespec *ts)
{
	return ts->tv_sec + ts->tv_nsec / 1e9;
}

static struct itimerspec its(long value_ms, long interval_ms)
{
	return (struct itimerspec){
		.it_interval = { interval_ms / 1000, interval_ms % 1000 * 1000000L },
		.it_value = { value_ms / 1000, value_ms % 1000 * 1000000L },
	};
}

static void show_gettime(const char *what, int fd)
{
	struct itimerspec cur;
	long ret = rsys(SYS_timerfd_gettime, fd, &cur);

	if (ret) {
		printf("%s: gettime = %s\n", what, result(ret));
		return;
	}
	printf("%s: value %s, interval %ld.%09ld\n", what,
	       ts_s(&cur.it_value) == 0		 ? "0"
	       : ts_s(&cur.it_value) <= 0.001	 ? "<= 1 ms"
	       : ts_s(&cur.it_value) > 9 && ts_s(&cur.it_value) <= 10 ? "in (9 s, 10 s]"
									: "unexpected",
	       (long)cur.it_interval.tv_sec, cur.it_interval.tv_nsec);
}

static void tfd_show_read(const char *what, int fd)
{
	uint64_t v;
	long n = efd_read(fd, &v);

	printf("%s: read = %s, expirations %llu\n", what, result(n), (unsigned long long)v);
}

/* A timer of clock at value ms from now (ABSTIME: converted to that
 * clock's time), read once it fired. */
static void tfd_one_shot(const char *what, int clock, int flags, long ms)
{
	int fd = (int)rsys(SYS_timerfd_create, clock, 0);
	struct itimerspec t = its(ms, 0);

	if (flags & TFD_TIMER_ABSTIME) {
		struct timespec now;

		clock_gettime(clock, &now);
		t.it_value.tv_sec += now.tv_sec;
		t.it_value.tv_nsec += now.tv_nsec;
		if (t.it_value.tv_nsec >= 1000000000L) {
			t.it_value.tv_sec++;
			t.it_value.tv_nsec -= 1000000000L;
		}
	}
	printf("%s: settime = %s\n", what, result(rsys(SYS_timerfd_settime, fd, flags, &t, NULL)));
	tfd_show_read(what, fd);
	show_gettime(what, fd);
	close(fd);
}

static void case_timerfd(void)
{
	struct itimerspec t, old;
	struct timespec now;
	pid_t child;
	int fd, efd, afd;

	fd = (int)show_fd("timerfd_create(CLOCK_MONOTONIC, 0)",
			  rsys(SYS_timerfd_create, CLOCK_MONOTONIC, 0));
	show_flags("timerfd flags", fd);
	printf("link: %s\n", fd_link(fd));
	show_fstat("timerfd", fd);
	show_gettime("new", fd);
	printf("poll: %s\n", poll_now(fd));
	t = its(10000, 2000);
	show("settime(10 s, interval 2 s)", rsys(SYS_timerfd_settime, fd, 0, &t, &old));
	printf("old: value %g, interval %g\n", ts_s(&old.it_value), ts_s(&old.it_interval));
	show_gettime("armed", fd);
	{
		static const char *const p[] = { "clockid:", "ticks:", "settime flags:", "it_interval:",
						 NULL };

		show_fdinfo(fd, p);
	}
	show("fcntl(F_SETFL, O_NONBLOCK)", rsys(SYS_fcntl, fd, F_SETFL, O_NONBLOCK));
	tfd_show_read("not expired", fd);
	t = its(0, 0);
	show("settime(0: disarm)", rsys(SYS_timerfd_settime, fd, 0, &t, &old));
	printf("old: value %s, interval %g\n",
	       ts_s(&old.it_value) > 9 && ts_s(&old.it_value) <= 10 ? "in (9 s, 10 s]" : "unexpected",
	       ts_s(&old.it_interval));
	show_gettime("disarmed", fd);
	t = its(50, 0);
	show("settime(50 ms)", rsys(SYS_timerfd_settime, fd, 0, &t, NULL));
	sleep_ms(200);
	printf("poll after it fired: %s\n", poll_now(fd));
	tfd_show_read("fired", fd);
	tfd_show_read("again", fd);
	show_gettime("one-shot after firing", fd);
	{
		static const char *const p[] = { "ticks:", "it_interval:", NULL };

		show_fdinfo(fd, p);
	}

	tfd_one_shot("CLOCK_MONOTONIC 50 ms", CLOCK_MONOTONIC, 0, 50);
	tfd_one_shot("CLOCK_MONOTONIC absolute +50 ms", CLOCK_MONOTONIC, TFD_TIMER_ABSTIME, 50);
	tfd_one_shot("CLOCK_REALTIME 50 ms", CLOCK_REALTIME, 0, 50);
	tfd_one_shot("CLOCK_REALTIME absolute +50 ms", CLOCK_REALTIME, TFD_TIMER_ABSTIME, 50);
	tfd_one_shot("CLOCK_REALTIME absolute +50 ms, cancel on set", CLOCK_REALTIME,
		     TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, 50);
	tfd_one_shot("CLOCK_BOOTTIME 50 ms", CLOCK_BOOTTIME, 0, 50);
	tfd_one_shot("CLOCK_BOOTTIME absolute +50 ms", CLOCK_BOOTTIME, TFD_TIMER_ABSTIME, 50);

	/* Absolute, 10.5 s in the past, every second: 11 expirations. */
	close(fd);
	fd = (int)rsys(SYS_timerfd_create, CLOCK_REALTIME, TFD_NONBLOCK);
	clock_gettime(CLOCK_REALTIME, &now);
	t = (struct itimerspec){ .it_interval = { 1, 0 },
				 .it_value = { now.tv_sec - 11, now.tv_nsec + 500000000L } };
	if (t.it_value.tv_nsec >= 1000000000L) {
		t.it_value.tv_sec++;
		t.it_value.tv_nsec -= 1000000000L;
	}
	show("settime(absolute, 10.5 s ago, interval 1 s)",
	     rsys(SYS_timerfd_settime, fd, TFD_TIMER_ABSTIME, &t, NULL));
	{
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t v;
		long n;

		rsys(SYS_poll, &p, 1, 5000);
		n = efd_read(fd, &v);
		printf("read = %s, expirations %s\n", result(n),
		       v == 11 || v == 12 ? "11 (or 12)" : "unexpected");
	}
	{
		static const char *const p[] = { "clockid:", "ticks:", "settime flags:", "it_interval:",
						 NULL };

		show_fdinfo(fd, p);
	}
	close(fd);

	/* Errors. */
	show("timerfd_create(CLOCK_PROCESS_CPUTIME_ID)",
	     rsys(SYS_timerfd_create, CLOCK_PROCESS_CPUTIME_ID, 0));
	show("timerfd_create(CLOCK_MONOTONIC_RAW)", rsys(SYS_timerfd_create, CLOCK_MONOTONIC_RAW, 0));
	show("timerfd_create(clock 99)", rsys(SYS_timerfd_create, 99, 0));
	show("timerfd_create(flags O_APPEND)", rsys(SYS_timerfd_create, CLOCK_MONOTONIC, O_APPEND));
	show("timerfd_create(flags TFD_TIMER_ABSTIME)",
	     rsys(SYS_timerfd_create, CLOCK_MONOTONIC, TFD_TIMER_ABSTIME));
	fd = (int)rsys(SYS_timerfd_create, CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	show_flags("TFD_CLOEXEC | TFD_NONBLOCK", fd);
	t = its(50, 0);
	show("settime(flags 4)", rsys(SYS_timerfd_settime, fd, 4, &t, NULL));
	t.it_value.tv_nsec = 1000000000L;
	show("settime(tv_nsec 1000000000)", rsys(SYS_timerfd_settime, fd, 0, &t, NULL));
	t = its(50, 0);
	t.it_interval.tv_sec = -1;
	show("settime(interval tv_sec -1)", rsys(SYS_timerfd_settime, fd, 0, &t, NULL));
	show("settime(bad new pointer)", rsys(SYS_timerfd_settime, fd, 0, BAD, NULL));
	t = its(10000, 0);
	show("settime(bad old pointer)", rsys(SYS_timerfd_settime, fd, 0, &t, BAD));
	show_gettime("set all the same", fd);
	show("gettime(bad pointer)", rsys(SYS_timerfd_gettime, fd, BAD));
	efd = (int)rsys(SYS_eventfd, 0);
	show("settime(eventfd)", rsys(SYS_timerfd_settime, efd, 0, &t, NULL));
	show("gettime(eventfd)", rsys(SYS_timerfd_gettime, efd, &t));
	show("settime(fd 999)", rsys(SYS_timerfd_settime, 999, 0, &t, NULL));
	show("gettime(fd 999)", rsys(SYS_timerfd_gettime, 999, &t));
	show("read(4-byte buffer)", rsys(SYS_read, fd, &t, 4));
	show("write", rsys(SYS_write, fd, &t, 8));
	close(efd);
	close(fd);

	/* The alarm clocks need CAP_WAKE_ALARM: EPERM without. */
	afd = (int)rsys(SYS_timerfd_create, CLOCK_REALTIME_ALARM, 0);
	if (afd >= 0) {
		uint64_t v = 0;

		t = its(50, 0);
		if (rsys(SYS_timerfd_settime, afd, 0, &t, NULL) || efd_read(afd, &v) != 8 || v != 1)
			afd = -1000;
		close(afd);
	}
	printf("CLOCK_REALTIME_ALARM as the caller: %s\n",
	       afd >= 0 || afd == -EPERM ? "a working timer, or EPERM" : "broken");
	child = fork();
	if (child == 0) {
		setuid(65534);	/* fails, harmlessly, if not root */
		show("timerfd_create(CLOCK_REALTIME_ALARM) without CAP_WAKE_ALARM",
		     rsys(SYS_timerfd_create, CLOCK_REALTIME_ALARM, 0));
		show("timerfd_create(CLOCK_BOOTTIME_ALARM) without CAP_WAKE_ALARM",
		     rsys(SYS_timerfd_create, CLOCK_BOOTTIME_ALARM, 0));
		_exit(0);
	}
	wait_status(child);
}

static void case_overrun(void)
{
	int fd = (int)rsys(SYS_timerfd_create, CLOCK_MONOTONIC, 0);
	struct itimerspec t = its(1, 1);
	uint64_t v;
	long n;
	int i;

	show("settime(1 ms, interval 1 ms)", rsys(SYS_timerfd_settime, fd, 0, &t, NULL));
	for (i = 0; i < 2; i++) {
		sleep_ms(20);
		n = efd_read(fd, &v);
		printf("after 20 ms: read = %s, expirations %s\n", result(n), v >= 5 ? ">= 5" : "< 5");
	}
	show_gettime("interval timer", fd);
	n = efd_read(fd, &v);
	printf("blocking read = %s, expirations %s\n", result(n), v >= 1 ? ">= 1" : "0");
	close(fd);
}

/* ---- poll and select ---- */

static void show_poll(const char *what, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	long n = rsys(SYS_poll, &p, 1, 10000);

	printf("poll(%s) = %s, revents %s%s\n", what, result(n),
	       p.revents & POLLIN ? "POLLIN" : "", p.revents & POLLOUT ? "POLLOUT" : "");
}

static void case_poll(void)
{
	struct later *l;
	pid_t child;
	uint64_t v;
	fd_set rd;
	int efd, tfd, sfd;

	block(SIG_BLOCK, kmask(SIGUSR1));
	efd = (int)rsys(SYS_eventfd, 0);
	tfd = (int)rsys(SYS_timerfd_create, CLOCK_MONOTONIC, 0);
	sfd = (int)sfd_create(kmask(SIGUSR1), 0);

	l = start_later(100, ACT_EFD_WRITE, efd, 0, NULL);
	show_poll("eventfd, a thread writes", efd, POLLIN);
	join_later(l);
	efd_read(efd, &v);
	child = fork();
	if (child == 0) {
		sleep_ms(100);
		efd_write(efd, 1);
		_exit(0);
	}
	show_poll("eventfd, a child writes", efd, POLLIN);
	wait_status(child);
	efd_read(efd, &v);
	efd_write(efd, UINT64_MAX - 1);
	l = start_later(100, ACT_EFD_READ, efd, 0, NULL);
	show_poll("eventfd at the limit, a thread reads", efd, POLLOUT);
	join_later(l);
	l = start_later(100, ACT_EFD_WRITE, efd, 0, NULL);
	FD_ZERO(&rd);
	FD_SET(efd, &rd);
	printf("select(eventfd, a thread writes) = %s, in set %d\n",
	       result(rsys(SYS_select, efd + 1, &rd, NULL, NULL, NULL)), FD_ISSET(efd, &rd));
	join_later(l);

	l = start_later(100, ACT_SETTIME, tfd, 0, NULL);
	show_poll("timerfd, a thread sets it to 1 ms", tfd, POLLIN);
	join_later(l);
	efd_read(tfd, &v);
	{
		struct itimerspec t = its(100, 0);

		rsys(SYS_timerfd_settime, tfd, 0, &t, NULL);
		FD_ZERO(&rd);
		FD_SET(tfd, &rd);
		printf("select(timerfd, 100 ms) = %s, in set %d\n",
		       result(rsys(SYS_select, tfd + 1, &rd, NULL, NULL, NULL)), FD_ISSET(tfd, &rd));
		efd_read(tfd, &v);
	}

	l = start_later(100, ACT_KILL, 0, SIGUSR1, NULL);
	show_poll("signalfd, a thread kills the process", sfd, POLLIN);
	join_later(l);
	sfd_show("then", sfd, getpid(), 0);
	l = start_later(100, ACT_TGKILL, 0, SIGUSR1, NULL);
	show_poll("signalfd, a thread signals this thread", sfd, POLLIN);
	join_later(l);
	sfd_show("then", sfd, getpid(), 0);
	child = fork();
	if (child == 0) {
		sleep_ms(100);
		rsys(SYS_kill, getppid(), SIGUSR1);
		_exit(0);
	}
	FD_ZERO(&rd);
	FD_SET(sfd, &rd);
	printf("select(signalfd, a child kills its parent) = %s, in set %d\n",
	       result(rsys(SYS_select, sfd + 1, &rd, NULL, NULL, NULL)), FD_ISSET(sfd, &rd));
	wait_status(child);
	sfd_show("then", sfd, getpid(), child);
	close(efd);
	close(tfd);
	close(sfd);
}

/* ---- epoll ---- */

static void show_epoll_wait(const char *what, int ep, long ms, const char *const names[3])
{
	struct epoll_event ev[4];
	long n = rsys(SYS_epoll_wait, ep, ev, 4, ms);
	long i;

	printf("epoll_wait(%s) = %s", what, result(n));
	for (i = 0; i < n; i++)
		printf(", %s%s", names[ev[i].data.u32],
		       ev[i].events == EPOLLIN ? " EPOLLIN" : ev[i].events == EPOLLOUT ? " EPOLLOUT"
											 : " other");
	printf("\n");
}

static void epoll_add(int ep, int fd, unsigned int events, unsigned int tag)
{
	struct epoll_event ev = { .events = events, .data.u32 = tag };

	if (rsys(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, fd, &ev))
		die("epoll_ctl failed");
}

/* The signalfd was added to the epoll by a process that has exited and
 * been reaped since (its handlers are gone, which Linux frees at the
 * reaping): the epoll, in its child, still waits and closes. */
static void epoll_orphan(void)
{
	static const char *const names[3] = { "signalfd" };
	int go[2], done[2];
	pid_t mid;
	char c;

	if (pipe(go) || pipe(done))
		die("pipe failed");
	mid = fork();
	if (mid == 0) {
		int ep = (int)rsys(SYS_epoll_create1, 0);
		int sfd = (int)sfd_create(kmask(SIGUSR1), 0);

		epoll_add(ep, sfd, EPOLLIN, 0);
		if (fork() == 0) {
			close(go[1]);
			close(done[0]);
			if (read(go[0], &c, 1) != 1)
				die("read failed");
			show_epoll_wait("its adder reaped", ep, 0, names);
			rsys(SYS_kill, getpid(), SIGUSR1);
			sfd_show("its adder reaped, then SIGUSR1", sfd, getpid(), 0);
			printf("epoll closed: %s\n", result(rsys(SYS_close, ep)));
			_exit(0);	/* done[1] closes: the parent goes on */
		}
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	wait_status(mid);
	if (write(go[1], "x", 1) != 1)
		die("write failed");
	if (read(done[0], &c, 1) != 0)
		die("read failed");
	close(go[1]);
	close(done[0]);
}

static void case_epoll(void)
{
	static const char *const names[3] = { "eventfd", "timerfd", "signalfd" };
	struct later *l;
	int ep, efd, tfd, sfd;
	uint64_t v;

	block(SIG_BLOCK, kmask(SIGUSR1));
	ep = (int)rsys(SYS_epoll_create1, 0);
	efd = (int)rsys(SYS_eventfd, 0);
	tfd = (int)rsys(SYS_timerfd_create, CLOCK_MONOTONIC, 0);
	sfd = (int)sfd_create(kmask(SIGUSR1), 0);
	epoll_add(ep, efd, EPOLLIN, 0);
	epoll_add(ep, tfd, EPOLLIN, 1);
	epoll_add(ep, sfd, EPOLLIN, 2);
	show_epoll_wait("none ready", ep, 0, names);

	l = start_later(100, ACT_EFD_WRITE, efd, 0, NULL);
	show_epoll_wait("a thread writes the eventfd", ep, 10000, names);
	join_later(l);
	efd_read(efd, &v);
	l = start_later(100, ACT_SETTIME, tfd, 0, NULL);
	show_epoll_wait("a thread sets the timerfd", ep, 10000, names);
	join_later(l);
	efd_read(tfd, &v);
	l = start_later(100, ACT_KILL, 0, SIGUSR1, NULL);
	show_epoll_wait("a thread kills the process", ep, 10000, names);
	join_later(l);
	sfd_show("then", sfd, getpid(), 0);
	show_epoll_wait("all read", ep, 0, names);
	close(ep);
	close(efd);
	close(tfd);
	close(sfd);
	epoll_orphan();
}

/* ---- a blocking read interrupted by a handler ---- */

static void eintr_one(const char *what, int fd, enum act ready, int sig)
{
	static volatile int reading;
	struct later *intr, *make_ready;
	char buf[SSI];
	long n;

	handled = 0;
	reading = 0;
	intr = start_later(100, ACT_TGKILL, 0, SIGUSR2, &reading);
	make_ready = start_later(300, ready, fd, sig, &reading);
	reading = 1;
	n = rsys(SYS_read, fd, buf, sizeof(buf));
	printf("read(%s) = %s, handler ran %d\n", what, result(n), handled);
	join_later(intr);
	join_later(make_ready);
	if (n < 0)
		printf("read(%s) again = %s\n", what, result(rsys(SYS_read, fd, buf, sizeof(buf))));
}

static void case_eintr(int restart)
{
	int efd, tfd, sfd;

	block(SIG_BLOCK, kmask(SIGUSR1));
	set_handler(SIGUSR2, restart ? SA_RESTART : 0);
	efd = (int)rsys(SYS_eventfd, 0);
	tfd = (int)rsys(SYS_timerfd_create, CLOCK_MONOTONIC, 0);
	sfd = (int)sfd_create(kmask(SIGUSR1), 0);
	eintr_one("eventfd", efd, ACT_EFD_WRITE, 0);
	eintr_one("timerfd", tfd, ACT_SETTIME, 0);
	eintr_one("signalfd", sfd, ACT_KILL, SIGUSR1);
	close(efd);
	close(tfd);
	close(sfd);
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(c, "eventfd"))
		case_eventfd();
	else if (!strcmp(c, "semaphore"))
		case_semaphore();
	else if (!strcmp(c, "eventfd-wait"))
		case_eventfd_wait();
	else if (!strcmp(c, "signalfd"))
		case_signalfd();
	else if (!strcmp(c, "signalfd-wait"))
		case_signalfd_wait();
	else if (!strcmp(c, "signalfd-fork"))
		case_signalfd_fork();
	else if (!strcmp(c, "signalfd-exec"))
		case_signalfd_exec(argv[0]);
	else if (!strcmp(c, "signalfd-exec-child") && argc > 3)
		return signalfd_exec_child(atoi(argv[2]), atoi(argv[3]));
	else if (!strcmp(c, "timerfd"))
		case_timerfd();
	else if (!strcmp(c, "overrun"))
		case_overrun();
	else if (!strcmp(c, "poll"))
		case_poll();
	else if (!strcmp(c, "epoll"))
		case_epoll();
	else if (!strcmp(c, "eintr"))
		case_eintr(argc > 2 && !strcmp(argv[2], "restart"));
	else
		die("usage: eventfds eventfd|semaphore|eventfd-wait|signalfd|signalfd-wait|"
		    "signalfd-fork|signalfd-exec|timerfd|overrun|poll|epoll|eintr [restart]");
	return 0;
}
