/*
 * fifolock CASE [ARG]: FIFOs, mknod and file locks, with raw system calls so
 * that each line shows what the kernel returned. One line per call or
 * fact; no pid, address, device or time is printed, so a run natively and
 * one under umk print the same lines. Files go in a new directory under
 * DIR (default /tmp: umk's tmpfs under umk), removed at the end.
 *
 *   mknod [DIR]      mknod of each type, its errors, mkfifo(3)
 *   fifo [DIR]       a FIFO between two processes: each open waits for the
 *                    other end, the data, EOF at the writer's close,
 *                    /proc/self/fd names the FIFO, fstat shows it
 *   hostfifo PATH    the same over a FIFO a host program made (a --rw dir)
 *   openrules [DIR]  the open rules: O_RDONLY|O_NONBLOCK opens, O_WRONLY|
 *                    O_NONBLOCK is ENXIO without a reader, O_RDWR never
 *                    waits, a blocking open waits (a handler's EINTR shows
 *                    it); poll and epoll: POLLHUP only after a writer came,
 *                    POLLIN, POLLOUT, POLLERR; SIGPIPE and EPIPE
 *   flock [DIR]      flock shared, exclusive and LOCK_NB across processes,
 *                    inherited by fork and dup (one open file), released at
 *                    the last close; a conversion; errors; EINTR
 *   posix [DIR]      fcntl record locks: ranges, whence, negative lengths,
 *                    splitting and merging seen by F_GETLK from another
 *                    process and in /proc/locks, EAGAIN, EBADF, EINVAL, a
 *                    lock released by closing another fd of the file, none
 *                    inherited by fork, EDEADLK, F_SETLKW woken by an unlock
 *                    and interrupted by handlers with and without SA_RESTART
 *   ofd [DIR]        OFD locks: owned by the open file, conflicting with
 *                    another open file of the same process and with POSIX
 *                    locks, l_pid -1, kept across fork, dup and the close
 *                    of another fd, released at the last close
 *   proclocks [DIR]  /proc/locks lines of one file: POSIX, OFD and FLOCK,
 *                    a waiter; pids, ids and devices masked
 *   inotify [DIR]    inotify's errors, the events of a watched directory
 *                    and file (create, open, modify, close, attrib, moves,
 *                    delete, mkdir, rmdir) made by this process and another,
 *                    merging, FIONREAD, a read too small, rm_watch and
 *                    IN_IGNORED, IN_ONESHOT, a blocking read woken by
 *                    another process and one interrupted by a handler
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif

static char dir[256];
static char path[300];

/* A new directory under base for this run's files. */
static void make_dir(const char *base)
{
	snprintf(dir, sizeof(dir), "%s/fifolock.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(dir))
		die("mkdtemp %s failed", dir);
	snprintf(path, sizeof(path), "%s/f", dir);
}

static void remove_dir(void)
{
	char cmd[300];

	fflush(stdout);
	/* the few names the cases make: no rm -r needed */
	unlink(path);
	snprintf(cmd, sizeof(cmd), "%s/g", dir);
	unlink(cmd);
	snprintf(cmd, sizeof(cmd), "%s/s", dir);
	unlink(cmd);
	snprintf(cmd, sizeof(cmd), "%s/c", dir);
	unlink(cmd);
	if (rmdir(dir))
		die("rmdir %s failed", dir);
}

static const char *type_name(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFIFO: return "fifo";
	case S_IFREG: return "regular";
	case S_IFSOCK: return "socket";
	case S_IFCHR: return "char";
	case S_IFBLK: return "block";
	case S_IFDIR: return "dir";
	}
	return "other";
}

/* "CALL = fd" for an open that worked (fd numbers depend on what the
 * caller left open), "CALL = -1 ENAME" otherwise. Returns ret. */
static long show_fd(const char *call, long ret)
{
	if (ret < 0)
		return show(call, ret);
	printf("%s = fd\n", call);
	return ret;
}

static void show_stat(const char *what, const char *p)
{
	struct stat st;

	if (stat(p, &st)) {
		printf("stat %s = -1 %s\n", what, errno_name(errno));
		return;
	}
	printf("stat %s: %s, mode %04o", what, type_name(st.st_mode), st.st_mode & 07777);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		printf(", rdev %u:%u", major(st.st_rdev), minor(st.st_rdev));
	printf("\n");
}

/* Wait until pid sleeps (state S twice, 15 ms apart), as matrix.c does. */
static void wait_asleep(pid_t pid)
{
	struct timespec ts = { 0, 15000000 };
	double end = now_ms() + 5000;

	while (now_ms() < end) {
		if (proc_state(pid) == 'S') {
			nanosleep(&ts, NULL);
			if (proc_state(pid) == 'S')
				return;
		}
		nanosleep(&ts, NULL);
	}
	die("process did not go to sleep");
}

static void reap(pid_t pid)
{
	int st = wait_status(pid);

	if (!WIFEXITED(st) || WEXITSTATUS(st))
		printf("child: %s\n", status_text(st));
}

/* A child's last call, whose result the parent prints once it has exited,
 * so that its line never races the parent's. */
static void __attribute__((noreturn)) exit_with(long ret)
{
	fflush(stdout);
	_exit(ret < 0 ? (int)-ret : 100);	/* 100: 0 returned */
}

static void reap_with(const char *what, pid_t pid)
{
	int st = wait_status(pid);

	if (!WIFEXITED(st))
		printf("%s: %s\n", what, status_text(st));
	else if (WEXITSTATUS(st) == 100)
		printf("%s = 0\n", what);
	else
		printf("%s = -1 %s\n", what, errno_name(WEXITSTATUS(st)));
}

static void on_alarm(int sig)
{
}

/* SIGALRM's handler, with or without SA_RESTART, and a timer of ms. */
static void alarm_in(int ms, int flags)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = flags };
	struct itimerval it = { { 0, 0 }, { 0, ms * 1000 } };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static const char *poll_text(short ev)
{
	static char buf[64];

	buf[0] = 0;
	if (ev & POLLIN)
		strcat(buf, " POLLIN");
	if (ev & POLLOUT)
		strcat(buf, " POLLOUT");
	if (ev & POLLERR)
		strcat(buf, " POLLERR");
	if (ev & POLLHUP)
		strcat(buf, " POLLHUP");
	return buf[0] ? buf + 1 : "none";
}

static void show_poll(const char *what, int fd)
{
	struct pollfd p = { fd, POLLIN | POLLOUT, 0 };
	long r = rsys(SYS_poll, &p, 1, 0);

	printf("poll %s = %ld: %s\n", what, r, poll_text(p.revents));
}

/* ---- mknod ---- */

static void case_mknod(const char *base)
{
	char p[320];

	make_dir(base);
	show("mknod(S_IFIFO | 0640)", rsys(SYS_mknodat, AT_FDCWD, path, S_IFIFO | 0640, 0));
	show_stat("fifo", path);
	show("mknod again", rsys(SYS_mknod, path, S_IFIFO | 0600, 0));
	show("unlink fifo", rsys(SYS_unlink, path));
	show("mkfifo(3)", mkfifo(path, 0600) ? -errno : 0);
	show_stat("mkfifo", path);
	snprintf(p, sizeof(p), "%s/g", dir);
	show("mknod(S_IFREG | 0600)", rsys(SYS_mknod, p, S_IFREG | 0600, 0));
	show_stat("regular", p);
	show("unlink regular", rsys(SYS_unlink, p));
	show("mknod(type 0, 0644)", rsys(SYS_mknod, p, 0644, 0));
	show_stat("type 0", p);
	snprintf(p, sizeof(p), "%s/s", dir);
	show("mknod(S_IFSOCK | 0755)", rsys(SYS_mknod, p, S_IFSOCK | 0755, 0));
	show_stat("socket", p);
	snprintf(p, sizeof(p), "%s/d", dir);
	show("mknod(S_IFDIR)", rsys(SYS_mknod, p, S_IFDIR | 0755, 0));
	show("mknod(bad type 0170000)", rsys(SYS_mknod, p, 0170000 | 0644, 0));
	show("mknod(bad type and existing name)", rsys(SYS_mknod, path, 0170000, 0));
	show("mknod(existing name)", rsys(SYS_mknod, path, S_IFREG, 0));
	snprintf(p, sizeof(p), "%s/nodir/x", dir);
	show("mknod(missing directory)", rsys(SYS_mknod, p, S_IFIFO, 0));
	show("mknod(bad pointer)", rsys(SYS_mknod, 8, S_IFIFO, 0));
	show("mknodat(bad dirfd)", rsys(SYS_mknodat, 999, "x", S_IFIFO, 0));
	remove_dir();
}

/* A character device node: tmpfs makes it with CAP_MKNOD (umk's tasks and
 * the tests' host user are root). */
static void case_mknod_dev(const char *base)
{
	char p[320];

	make_dir(base);
	snprintf(p, sizeof(p), "%s/c", dir);
	show("mknod(S_IFCHR, 1:3)", rsys(SYS_mknod, p, S_IFCHR | 0600, makedev(1, 3)));
	show_stat("char", p);
	remove_dir();
}

/* ---- FIFOs ---- */

/* A FIFO between two processes: the child writes, the parent reads. */
static void fifo_between(const char *fifo)
{
	char buf[64];
	pid_t pid;
	long fd, n, total = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long w = rsys(SYS_open, fifo, O_WRONLY);

		if (w < 0)
			_exit(10);
		if (rsys(SYS_write, w, "hello ", 6) != 6 || rsys(SYS_write, w, "fifo", 4) != 4)
			_exit(11);
		_exit(0);	/* closes the write end: the reader's EOF */
	}
	fd = show_fd("open(O_RDONLY) waits for the writer", rsys(SYS_open, fifo, O_RDONLY));
	if (fd < 0)
		die("open failed");
	while ((n = rsys(SYS_read, fd, buf + total, sizeof(buf) - 1 - total)) > 0)
		total += n;
	buf[total] = 0;
	printf("read: \"%s\", then %ld (EOF)\n", buf, n);
	reap(pid);
	{
		char link[64], target[512];
		struct stat st;
		long r;

		snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
		r = readlink(link, target, sizeof(target) - 1);
		target[r < 0 ? 0 : r] = 0;
		printf("/proc/self/fd names the FIFO: %s\n", !strcmp(target, fifo) ? "yes" : target);
		fstat(fd, &st);
		printf("fstat: %s, size %ld\n", type_name(st.st_mode), (long)st.st_size);
	}
	close(fd);
}

static void case_fifo(const char *base)
{
	make_dir(base);
	show("mkfifo", mkfifo(path, 0600) ? -errno : 0);
	fifo_between(path);
	/* The other way: the writer's open comes first and waits. */
	{
		pid_t pid;
		long fd;

		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			char b[8];
			long r = rsys(SYS_open, path, O_RDONLY);

			if (r < 0 || rsys(SYS_read, r, b, sizeof(b)) != 3)
				_exit(12);
			_exit(0);
		}
		fd = show_fd("open(O_WRONLY) waits for the reader", rsys(SYS_open, path, O_WRONLY));
		show("write", rsys(SYS_write, fd, "abc", 3));
		close(fd);
		reap(pid);
	}
	remove_dir();
}

static void case_hostfifo(const char *fifo)
{
	show_stat("host fifo", fifo);
	fifo_between(fifo);
}

static void case_openrules(const char *base)
{
	struct epoll_event ev = { .events = EPOLLIN };
	long r, w, rw, ep, n;
	char b[8];

	make_dir(base);
	mkfifo(path, 0600);
	show("open(O_WRONLY | O_NONBLOCK), no reader", rsys(SYS_open, path, O_WRONLY | O_NONBLOCK));
	r = show_fd("open(O_RDONLY | O_NONBLOCK), no writer", rsys(SYS_open, path, O_RDONLY | O_NONBLOCK));
	show("read, no writer yet", rsys(SYS_read, r, b, sizeof(b)));
	show_poll("reader before any writer", r);
	ep = rsys(SYS_epoll_create1, 0);
	rsys(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, r, &ev);
	show("epoll_wait, nothing yet", rsys(SYS_epoll_wait, ep, &ev, 1, 0));
	w = show_fd("open(O_WRONLY | O_NONBLOCK), a reader", rsys(SYS_open, path, O_WRONLY | O_NONBLOCK));
	show_poll("writer", w);
	show("read, writer, no data", rsys(SYS_read, r, b, sizeof(b)));
	show("write", rsys(SYS_write, w, "xy", 2));
	show_poll("reader with data", r);
	n = rsys(SYS_epoll_wait, ep, &ev, 1, 0);
	printf("epoll_wait = %ld: %s\n", n, ev.events & EPOLLIN ? "EPOLLIN" : "other");
	show("read", rsys(SYS_read, r, b, sizeof(b)));
	show("close writer", rsys(SYS_close, w));
	show_poll("reader after the writer left", r);
	show("read after the writer left", rsys(SYS_read, r, b, sizeof(b)));
	rw = show_fd("open(O_RDWR) never waits", rsys(SYS_open, path, O_RDWR));
	show_poll("O_RDWR", rw);
	show("close O_RDWR", rsys(SYS_close, rw));
	show("close reader", rsys(SYS_close, r));
	close(ep);

	/* A writer whose reader is gone: SIGPIPE, then EPIPE once ignored. */
	r = rsys(SYS_open, path, O_RDONLY | O_NONBLOCK);
	w = rsys(SYS_open, path, O_WRONLY | O_NONBLOCK);
	close(r);
	show_poll("writer after the reader left", w);
	fflush(stdout);
	{
		pid_t pid = fork();

		if (pid == 0) {
			rsys(SYS_write, w, "z", 1);
			_exit(0);
		}
		printf("write without a reader: %s\n", status_text(wait_status(pid)));
	}
	signal(SIGPIPE, SIG_IGN);
	show("write without a reader, SIGPIPE ignored", rsys(SYS_write, w, "z", 1));
	close(w);

	/* A blocking open waits: a handler's signal ends the wait. */
	alarm_in(50, 0);
	show("open(O_RDONLY), no writer, SIGALRM handler", rsys(SYS_open, path, O_RDONLY));
	alarm_in(50, 0);
	show("open(O_WRONLY), no reader, SIGALRM handler", rsys(SYS_open, path, O_WRONLY));
	show("unlink", rsys(SYS_unlink, path));
	show("open of the FIFO after unlink", rsys(SYS_open, path, O_RDWR));
	remove_dir();
}

/* ---- flock ---- */

static long do_flock(int fd, int op)
{
	return rsys(SYS_flock, fd, op);
}

static void case_flock(const char *base)
{
	long a, c, d, e;
	pid_t pid;
	int p[2];
	char ch;

	make_dir(base);
	a = rsys(SYS_open, path, O_RDWR | O_CREAT, 0600);
	show("flock(a, LOCK_EX)", do_flock(a, LOCK_EX));
	show("flock(a, LOCK_EX) again", do_flock(a, LOCK_EX));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long b = rsys(SYS_open, path, O_RDONLY);

		show("child: flock(own fd, LOCK_SH | LOCK_NB)", do_flock(b, LOCK_SH | LOCK_NB));
		show("child: flock(inherited a, LOCK_SH | LOCK_NB)", do_flock(a, LOCK_SH | LOCK_NB));
		show("child: flock(inherited a, LOCK_EX | LOCK_NB)", do_flock(a, LOCK_EX | LOCK_NB));
		show("child: flock(own fd, LOCK_EX | LOCK_NB)", do_flock(b, LOCK_EX | LOCK_NB));
		alarm_in(50, 0);
		show("child: flock(own fd, LOCK_EX), SIGALRM handler", do_flock(b, LOCK_EX));
		fflush(stdout);
		_exit(0);
	}
	reap(pid);
	c = rsys(SYS_open, path, O_RDONLY);
	show("flock(c, LOCK_SH | LOCK_NB) while a's lock stays", do_flock(c, LOCK_SH | LOCK_NB));
	d = rsys(SYS_dup, a);
	show("close(a)", rsys(SYS_close, a));
	show("flock(c, LOCK_SH | LOCK_NB), dup of a open", do_flock(c, LOCK_SH | LOCK_NB));
	show("close(dup of a)", rsys(SYS_close, d));
	show("flock(c, LOCK_SH | LOCK_NB), last close done", do_flock(c, LOCK_SH | LOCK_NB));

	/* Shared locks share; an exclusive one waits for them. */
	e = rsys(SYS_open, path, O_RDONLY);
	show("flock(e, LOCK_SH | LOCK_NB)", do_flock(e, LOCK_SH | LOCK_NB));
	show("flock(e, LOCK_EX | LOCK_NB)", do_flock(e, LOCK_EX | LOCK_NB));
	if (pipe(p))
		die("pipe failed");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long b = rsys(SYS_open, path, O_RDONLY);

		write(p[1], "x", 1);
		exit_with(do_flock(b, LOCK_EX));
	}
	read(p[0], &ch, 1);
	wait_asleep(pid);
	show("flock(c, LOCK_UN)", do_flock(c, LOCK_UN));
	show("flock(e, LOCK_UN)", do_flock(e, LOCK_UN));
	reap_with("child: flock(LOCK_EX) after the parent's unlocks", pid);

	/* A conversion drops the old lock first. */
	show("flock(c, LOCK_SH)", do_flock(c, LOCK_SH));
	show("flock(c, LOCK_EX | LOCK_NB), no one else", do_flock(c, LOCK_EX | LOCK_NB));
	show("flock(e, LOCK_SH | LOCK_NB), c exclusive", do_flock(e, LOCK_SH | LOCK_NB));
	show("flock(c, LOCK_UN)", do_flock(c, LOCK_UN));
	show("flock(c, LOCK_UN) with no lock", do_flock(c, LOCK_UN));
	show("flock(c, LOCK_SH | LOCK_EX)", do_flock(c, LOCK_SH | LOCK_EX));
	show("flock(c, 0)", do_flock(c, 0));
	show("flock(c, LOCK_NB)", do_flock(c, LOCK_NB));
	show("flock(bad fd, LOCK_SH)", do_flock(999, LOCK_SH));
	show("flock(bad fd, 0)", do_flock(999, 0));
	d = rsys(SYS_open, path, O_PATH);
	show("flock(O_PATH fd, LOCK_SH)", do_flock(d, LOCK_SH));
	{
		int pp[2];

		pipe(pp);
		show("flock(pipe, LOCK_EX)", do_flock(pp[0], LOCK_EX));
		show("flock(other end of the pipe, LOCK_EX | LOCK_NB)", do_flock(pp[1], LOCK_EX | LOCK_NB));
	}
	remove_dir();
}

/* ---- POSIX and OFD record locks ---- */

static long lk(int fd, int cmd, int type, int whence, long start, long len)
{
	struct flock fl = { .l_type = type, .l_whence = whence, .l_start = start, .l_len = len };

	return rsys(SYS_fcntl, fd, cmd, &fl);
}

static const char *lock_type(int t)
{
	return t == F_RDLCK ? "F_RDLCK" : t == F_WRLCK ? "F_WRLCK" : t == F_UNLCK ? "F_UNLCK" : "?";
}

/* F_GETLK (or F_OFD_GETLK) of [start, start + len) as type: who holds what. */
static void getlk(const char *what, int fd, int cmd, int type, long start, long len, pid_t holder)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	long r = rsys(SYS_fcntl, fd, cmd, &fl);

	if (r) {
		show(what, r);
		return;
	}
	if (fl.l_type == F_UNLCK) {
		printf("%s: F_UNLCK\n", what);
		return;
	}
	printf("%s: %s start %ld len %ld whence %d pid %s\n", what, lock_type(fl.l_type),
	       (long)fl.l_start, (long)fl.l_len, fl.l_whence,
	       fl.l_pid == holder ? "holder" : fl.l_pid == -1 ? "-1" : "other");
}

/* Run fn in a child (a process of its own: another lock owner). */
static void in_child(void (*fn)(long), long arg)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fn(arg);
		fflush(stdout);
		_exit(0);
	}
	reap(pid);
}

static void child_view(long fd)
{
	pid_t pp = getppid();

	getlk("child: F_GETLK [0, 10) F_WRLCK", fd, F_GETLK, F_WRLCK, 0, 10, pp);
	getlk("child: F_GETLK [10, 20) F_RDLCK", fd, F_GETLK, F_RDLCK, 10, 10, pp);
	getlk("child: F_GETLK [10, 20) F_WRLCK", fd, F_GETLK, F_WRLCK, 10, 10, pp);
	getlk("child: F_GETLK [40, 60) F_WRLCK", fd, F_GETLK, F_WRLCK, 40, 20, pp);
	getlk("child: F_GETLK [60, EOF) F_RDLCK", fd, F_GETLK, F_RDLCK, 60, 0, pp);
	getlk("child: F_GETLK [100, EOF) F_WRLCK", fd, F_GETLK, F_WRLCK, 100, 0, pp);
	show("child: F_SETLK [5, 6) F_WRLCK", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 5, 1));
	show("child: F_SETLK [100, 200) F_WRLCK", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 100, 100));
}

static void child_getlk_all(long fd)
{
	getlk("child: F_GETLK [0, EOF) F_WRLCK", fd, F_GETLK, F_WRLCK, 0, 0, getppid());
}

static int p_sync[2];

/* Deadlock: the child holds [1, 2) and waits for the parent's [0, 1). */
static void child_deadlock(long fd)
{
	show("child: F_SETLK [1, 2)", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 1, 1));
	write(p_sync[1], "x", 1);
	exit_with(lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1));
}

static void case_posix(const char *base)
{
	long a, b, r;
	pid_t pid;
	char ch;

	make_dir(base);
	a = rsys(SYS_open, path, O_RDWR | O_CREAT, 0600);
	rsys(SYS_write, a, "0123456789", 10);
	show("F_SETLK [0, 100) F_WRLCK", lk(a, F_SETLK, F_WRLCK, SEEK_SET, 0, 100));
	show("F_SETLK [10, 20) F_RDLCK: splits it in three", lk(a, F_SETLK, F_RDLCK, SEEK_SET, 10, 10));
	show("F_SETLK unlock [40, 60): splits again", lk(a, F_SETLK, F_UNLCK, SEEK_SET, 40, 20));
	show("F_SETLK [60, EOF) F_RDLCK (len 0, SEEK_CUR at 10, start 50)",
	     lk(a, F_SETLK, F_RDLCK, SEEK_CUR, 50, 0));
	getlk("own F_GETLK [0, EOF) F_WRLCK: never in its own way", a, F_GETLK, F_WRLCK, 0, 0, getpid());
	in_child(child_view, a);
	show("F_SETLK [10, 20) F_WRLCK: merges with its neighbours",
	     lk(a, F_SETLK, F_WRLCK, SEEK_SET, 10, 10));
	show("F_SETLK [40, 60) F_WRLCK: SEEK_END (size 10) + 50, len -20",
	     lk(a, F_SETLK, F_WRLCK, SEEK_END, 50, -20));
	in_child(child_view, a);
	show("F_SETLK unlock [0, EOF)", lk(a, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));
	in_child(child_getlk_all, a);

	/* Errors. */
	show("F_SETLK bad l_type", lk(a, F_SETLK, 7, SEEK_SET, 0, 1));
	show("F_GETLK F_UNLCK", lk(a, F_GETLK, F_UNLCK, SEEK_SET, 0, 1));
	show("F_SETLK bad l_whence", lk(a, F_SETLK, F_WRLCK, 9, 0, 1));
	show("F_SETLK negative start", lk(a, F_SETLK, F_WRLCK, SEEK_SET, -1, 1));
	show("F_SETLK len reaching below 0", lk(a, F_SETLK, F_WRLCK, SEEK_SET, 5, -6));
	show("F_SETLK start overflow", lk(a, F_SETLK, F_WRLCK, SEEK_END, 0x7fffffffffffffffL, 1));
	show("F_SETLK bad pointer", rsys(SYS_fcntl, a, F_SETLK, 8));
	show("F_GETLK bad pointer", rsys(SYS_fcntl, a, F_GETLK, 8));
	r = rsys(SYS_open, path, O_RDONLY);
	show("F_SETLK F_WRLCK on an O_RDONLY fd", lk(r, F_SETLK, F_WRLCK, SEEK_SET, 0, 1));
	show("F_SETLK F_RDLCK on an O_RDONLY fd", lk(r, F_SETLK, F_RDLCK, SEEK_SET, 0, 1));
	close(r);
	r = rsys(SYS_open, path, O_WRONLY);
	show("F_SETLK F_RDLCK on an O_WRONLY fd", lk(r, F_SETLK, F_RDLCK, SEEK_SET, 0, 1));
	close(r);
	r = rsys(SYS_open, path, O_PATH);
	show("F_SETLK on an O_PATH fd", lk(r, F_SETLK, F_RDLCK, SEEK_SET, 0, 1));
	show("F_GETLK on an O_PATH fd", lk(r, F_GETLK, F_RDLCK, SEEK_SET, 0, 1));
	close(r);
	show("F_SETLK bad fd", lk(999, F_SETLK, F_RDLCK, SEEK_SET, 0, 1));

	/* Closing ANY fd of the file releases the process's locks. */
	show("F_SETLK [0, 10) F_WRLCK", lk(a, F_SETLK, F_WRLCK, SEEK_SET, 0, 10));
	b = rsys(SYS_open, path, O_RDONLY);
	show("close(another fd of the file)", rsys(SYS_close, b));
	in_child(child_getlk_all, a);
	show("F_SETLK [0, 10) F_WRLCK", lk(a, F_SETLK, F_WRLCK, SEEK_SET, 0, 10));
	b = rsys(SYS_dup, a);
	show("close(a dup)", rsys(SYS_close, b));
	in_child(child_getlk_all, a);

	/* Not inherited: the child is another owner, its lock conflicts. */
	show("F_SETLK [0, 1) F_WRLCK", lk(a, F_SETLK, F_WRLCK, SEEK_SET, 0, 1));
	if (pipe(p_sync))
		die("pipe failed");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		child_deadlock(a);
		fflush(stdout);
		_exit(0);
	}
	read(p_sync[0], &ch, 1);
	wait_asleep(pid);
	show("F_SETLKW [1, 2), the child's, which waits for ours", lk(a, F_SETLKW, F_WRLCK, SEEK_SET, 1, 1));
	show("F_SETLK [1, 2), the child's", lk(a, F_SETLK, F_WRLCK, SEEK_SET, 1, 1));
	show("F_SETLK unlock [0, 1): the child gets it", lk(a, F_SETLK, F_UNLCK, SEEK_SET, 0, 1));
	reap_with("child: F_SETLKW [0, 1), the parent's", pid);

	/* F_SETLKW interrupted by a handler without, then with, SA_RESTART. */
	show("F_SETLK [0, 1) F_WRLCK", lk(a, F_SETLK, F_WRLCK, SEEK_SET, 0, 1));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long fd = rsys(SYS_open, path, O_RDWR);

		alarm_in(50, 0);
		show("child: F_SETLKW [0, 1), SIGALRM handler", lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1));
		alarm_in(50, SA_RESTART);
		write(p_sync[1], "x", 1);
		exit_with(lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1));
	}
	read(p_sync[0], &ch, 1);
	{
		struct timespec ts = { 0, 150000000 };

		/* after the child's timer (50 ms) fired: its wait restarted */
		nanosleep(&ts, NULL);
	}
	wait_asleep(pid);
	show("F_SETLK unlock [0, 1)", lk(a, F_SETLK, F_UNLCK, SEEK_SET, 0, 1));
	reap_with("child: F_SETLKW [0, 1), SA_RESTART handler, then the unlock", pid);
	remove_dir();
}

static void child_ofd(long fd)
{
	getlk("child: F_OFD_GETLK on the inherited fd", fd, F_OFD_GETLK, F_WRLCK, 0, 10, 0);
	show("child: F_OFD_SETLK on the inherited fd", lk(fd, F_OFD_SETLK, F_WRLCK, SEEK_SET, 0, 10));
	getlk("child: F_GETLK (POSIX) [0, 10)", fd, F_GETLK, F_WRLCK, 0, 10, 0);
}

static void case_ofd(const char *base)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1, .l_pid = 1 };
	long a, b, d;

	make_dir(base);
	a = rsys(SYS_open, path, O_RDWR | O_CREAT, 0600);
	b = rsys(SYS_open, path, O_RDWR);
	show("F_OFD_SETLK a [0, 10)", lk(a, F_OFD_SETLK, F_WRLCK, SEEK_SET, 0, 10));
	show("F_OFD_SETLK b [5, 6): another open file", lk(b, F_OFD_SETLK, F_WRLCK, SEEK_SET, 5, 1));
	show("F_SETLK b [5, 6): POSIX against OFD", lk(b, F_SETLK, F_WRLCK, SEEK_SET, 5, 1));
	getlk("F_OFD_GETLK b [0, 10)", b, F_OFD_GETLK, F_RDLCK, 0, 10, 0);
	getlk("F_GETLK b [0, 10)", b, F_GETLK, F_RDLCK, 0, 10, 0);
	getlk("F_OFD_GETLK a [0, 10): its own", a, F_OFD_GETLK, F_WRLCK, 0, 10, 0);
	show("F_OFD_SETLK with l_pid 1", rsys(SYS_fcntl, a, F_OFD_SETLK, &fl));
	show("F_OFD_GETLK with l_pid 1", rsys(SYS_fcntl, a, F_OFD_GETLK, &fl));
	getlk("F_OFD_GETLK F_UNLCK", a, F_OFD_GETLK, F_UNLCK, 0, 10, 0);
	in_child(child_ofd, a);
	show("close(b): a's lock stays", rsys(SYS_close, b));
	b = rsys(SYS_open, path, O_RDWR);
	getlk("F_OFD_GETLK new fd", b, F_OFD_GETLK, F_WRLCK, 0, 0, 0);
	d = rsys(SYS_dup, a);
	show("close(a), a dup stays", rsys(SYS_close, a));
	getlk("F_OFD_GETLK new fd", b, F_OFD_GETLK, F_WRLCK, 0, 0, 0);
	show("close(the dup): the last close", rsys(SYS_close, d));
	getlk("F_OFD_GETLK new fd", b, F_OFD_GETLK, F_WRLCK, 0, 0, 0);
	close(b);
	remove_dir();
}

/* ---- /proc/locks ---- */

/* The lines of /proc/locks about path's file, sorted, with the id, pid
 * and device:inode masked (checked first: the file's own). */
static void show_proc_locks(const char *what)
{
	char line[256], cmd[64], lines[32][256];
	struct stat st;
	int n = 0, i, j;
	FILE *f = fopen("/proc/locks", "r");

	if (!f || stat(path, &st))
		die("/proc/locks or %s cannot be read", path);
	snprintf(cmd, sizeof(cmd), " %02x:%02x:%lu ", major(st.st_dev), minor(st.st_dev),
		 (unsigned long)st.st_ino);
	while (fgets(line, sizeof(line), f) && n < 32) {
		char *at = strstr(line, cmd), *p = strchr(line, ':'), *pid;

		if (!at || !p)
			continue;
		/* "ID: [-> ]KIND ADVISORY TYPE PID DEV:INO START END" */
		*at = 0;
		pid = strrchr(line, ' ');
		snprintf(lines[n++], sizeof(lines[0]), "%.*s %s DEV:INO %s", (int)(pid - (p + 2)), p + 2,
			 !strcmp(pid + 1, "-1") ? "-1" : "PID", at + strlen(cmd));
	}
	fclose(f);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (strcmp(lines[i], lines[j]) > 0) {
				strcpy(line, lines[i]);
				strcpy(lines[i], lines[j]);
				strcpy(lines[j], line);
			}
	printf("/proc/locks, %s: %d lines\n", what, n);
	for (i = 0; i < n; i++)
		printf("  %s", lines[i]);
}

static void case_proclocks(const char *base)
{
	long a, b, c;
	pid_t pid;
	char ch;

	make_dir(base);
	a = rsys(SYS_open, path, O_RDWR | O_CREAT, 0600);
	b = rsys(SYS_open, path, O_RDWR);
	c = rsys(SYS_open, path, O_RDWR);
	show_proc_locks("none");
	lk(a, F_SETLK, F_WRLCK, SEEK_SET, 0, 100);
	lk(a, F_SETLK, F_RDLCK, SEEK_SET, 10, 10);
	show_proc_locks("POSIX split in three");
	lk(a, F_SETLK, F_WRLCK, SEEK_SET, 10, 10);
	show_proc_locks("merged again");
	lk(a, F_SETLK, F_UNLCK, SEEK_SET, 0, 0);
	lk(b, F_OFD_SETLK, F_RDLCK, SEEK_SET, 200, 0);
	do_flock(c, LOCK_EX);
	show_proc_locks("OFD and FLOCK");
	if (pipe(p_sync))
		die("pipe failed");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long fd = rsys(SYS_open, path, O_RDWR);

		/* not the parent's OFD and flock locks' open files */
		close(b);
		close(c);
		write(p_sync[1], "x", 1);
		exit_with(lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 300, 5));
	}
	read(p_sync[0], &ch, 1);
	wait_asleep(pid);
	show_proc_locks("a POSIX waiter on the OFD lock");
	close(b);
	reap_with("child: F_SETLKW [300, 305) once the OFD lock went", pid);
	show_proc_locks("the waiter exited");
	close(c);
	show_proc_locks("all closed");
	close(a);
	remove_dir();
}

/* ---- inotify ---- */

static const char *in_mask_text(unsigned int m)
{
	static const struct { unsigned int bit; const char *name; } bits[] = {
		{ IN_ACCESS, "IN_ACCESS" }, { IN_MODIFY, "IN_MODIFY" }, { IN_ATTRIB, "IN_ATTRIB" },
		{ IN_CLOSE_WRITE, "IN_CLOSE_WRITE" }, { IN_CLOSE_NOWRITE, "IN_CLOSE_NOWRITE" },
		{ IN_OPEN, "IN_OPEN" }, { IN_MOVED_FROM, "IN_MOVED_FROM" },
		{ IN_MOVED_TO, "IN_MOVED_TO" }, { IN_CREATE, "IN_CREATE" },
		{ IN_DELETE, "IN_DELETE" }, { IN_DELETE_SELF, "IN_DELETE_SELF" },
		{ IN_MOVE_SELF, "IN_MOVE_SELF" }, { IN_Q_OVERFLOW, "IN_Q_OVERFLOW" },
		{ IN_IGNORED, "IN_IGNORED" }, { IN_ISDIR, "IN_ISDIR" },
	};
	static char buf[256];
	size_t i;

	buf[0] = 0;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (m & bits[i].bit) {
			if (buf[0])
				strcat(buf, "|");
			strcat(buf, bits[i].name);
		}
	}
	return buf;
}

static unsigned int last_cookie;

/* Read what is queued (without waiting unless block) and print each event:
 * wd, mask, name; a cookie as "cookie" (the same as the last one: "same"). */
static void show_events(long fd, int block)
{
	char buf[4096] __attribute__((aligned(8)));
	long n, off;

	if (!block) {
		struct pollfd p = { (int)fd, POLLIN, 0 };

		if (rsys(SYS_poll, &p, 1, 0) == 0) {
			printf("  (no events)\n");
			return;
		}
	}
	n = rsys(SYS_read, fd, buf, sizeof(buf));
	if (n < 0) {
		show("  read", n);
		return;
	}
	for (off = 0; off < n;) {
		struct inotify_event *e = (struct inotify_event *)(buf + off);

		printf("  wd %d %s", e->wd, in_mask_text(e->mask));
		if (e->len)
			printf(" \"%s\" (len %u)", e->name, e->len);
		if (e->cookie) {
			printf(" cookie %s", e->cookie == last_cookie ? "same" : "new");
			last_cookie = e->cookie;
		}
		printf("\n");
		off += sizeof(*e) + e->len;
	}
}

static void case_inotify(const char *base)
{
	char g[320], h[320], sub[320], small[8];
	long in, wd, wd2, r, fd;
	int nread;
	pid_t pid;

	make_dir(base);
	snprintf(g, sizeof(g), "%s/g", dir);
	snprintf(h, sizeof(h), "%s/c", dir);
	snprintf(sub, sizeof(sub), "%s/s", dir);
	show("inotify_init1(bad flags)", rsys(SYS_inotify_init1, O_APPEND));
	in = show_fd("inotify_init1(IN_NONBLOCK)", rsys(SYS_inotify_init1, IN_NONBLOCK));
	show("inotify_add_watch(mask 0)", rsys(SYS_inotify_add_watch, in, dir, 0));
	show("inotify_add_watch(unknown bit)", rsys(SYS_inotify_add_watch, in, dir, 0x8000000));
	show("inotify_add_watch(bad fd)", rsys(SYS_inotify_add_watch, 999, dir, IN_CREATE));
	show("inotify_add_watch(not inotify)", rsys(SYS_inotify_add_watch, 0, dir, IN_CREATE));
	show("inotify_add_watch(IN_MASK_ADD | IN_MASK_CREATE)",
	     rsys(SYS_inotify_add_watch, in, dir, IN_CREATE | IN_MASK_ADD | IN_MASK_CREATE));
	show("inotify_add_watch(missing)", rsys(SYS_inotify_add_watch, in, g, IN_CREATE));
	wd = show("inotify_add_watch(dir, IN_ALL_EVENTS)", rsys(SYS_inotify_add_watch, in, dir, IN_ALL_EVENTS));
	show("inotify_add_watch(dir) again", rsys(SYS_inotify_add_watch, in, dir, IN_ALL_EVENTS));
	show("inotify_add_watch(dir, IN_MASK_CREATE)",
	     rsys(SYS_inotify_add_watch, in, dir, IN_ALL_EVENTS | IN_MASK_CREATE));
	show("read, nothing queued", rsys(SYS_read, in, small, sizeof(small)));

	/* Another process makes a file, writes it twice and closes it. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long f = rsys(SYS_open, g, O_WRONLY | O_CREAT, 0600);

		rsys(SYS_write, f, "a", 1);
		rsys(SYS_write, f, "b", 1);
		_exit(rsys(SYS_close, f) ? 1 : 0);
	}
	reap(pid);
	r = rsys(SYS_ioctl, in, FIONREAD, &nread);
	printf("FIONREAD = %ld: %d bytes\n", r, nread);
	show("read into 8 bytes", rsys(SYS_read, in, small, sizeof(small)));
	printf("events of another process's new file:\n");
	show_events(in, 0);

	wd2 = show("inotify_add_watch(file, IN_MODIFY | IN_ATTRIB | IN_OPEN | IN_CLOSE)",
		   rsys(SYS_inotify_add_watch, in, g, IN_MODIFY | IN_ATTRIB | IN_OPEN | IN_CLOSE));
	show("inotify_add_watch(file, IN_ONLYDIR)",
	     rsys(SYS_inotify_add_watch, in, g, IN_MODIFY | IN_ONLYDIR));
	fd = rsys(SYS_open, g, O_RDONLY);
	rsys(SYS_read, fd, small, 1);
	close(fd);
	chmod(g, 0644);
	truncate(g, 1);
	printf("open, read, close, chmod, truncate of the file, watched twice:\n");
	show_events(in, 0);

	rename(g, h);
	unlink(h);
	mkdir(sub, 0700);
	rmdir(sub);
	printf("rename, unlink, mkdir, rmdir:\n");
	show_events(in, 0);
	show("inotify_rm_watch(the file's)", rsys(SYS_inotify_rm_watch, in, wd2));
	show("inotify_rm_watch(it again)", rsys(SYS_inotify_rm_watch, in, wd2));
	show("inotify_rm_watch(not inotify)", rsys(SYS_inotify_rm_watch, 0, wd));
	show_events(in, 0);

	/* A blocking read woken by another process's create. */
	r = rsys(SYS_inotify_init1, 0);
	rsys(SYS_inotify_add_watch, r, dir, IN_CREATE | IN_ONESHOT);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		wait_asleep(getppid());
		_exit(rsys(SYS_mknod, g, S_IFIFO | 0600, 0) ? 1 : 0);
	}
	printf("blocking read, IN_ONESHOT, woken by another process's mknod:\n");
	show_events(r, 1);
	reap(pid);
	show_events(r, 0);
	show("open(the new FIFO, O_WRONLY | O_NONBLOCK)", rsys(SYS_open, g, O_WRONLY | O_NONBLOCK));
	printf("the first instance: the FIFO made, no open nor close of it\n");
	show_events(in, 0);
	unlink(g);
	alarm_in(50, 0);
	show("blocking read, SIGALRM handler", rsys(SYS_read, r, small, sizeof(small)));
	show("close(inotify)", rsys(SYS_close, r));
	{
		char name[64], line[256];
		unsigned long ino;
		unsigned int w, m;
		struct stat st;
		FILE *f;

		snprintf(name, sizeof(name), "/proc/self/fdinfo/%ld", in);
		f = fopen(name, "r");
		stat(dir, &st);
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "inotify wd:%x ino:%lx sdev:%*x mask:%x", &w, &ino, &m) == 3)
				printf("fdinfo: inotify wd:%x mask:%x, ino %s\n", w, m,
				       ino == st.st_ino ? "the directory's" : "another");
		if (f)
			fclose(f);
	}
	show("close(inotify)", rsys(SYS_close, in));
	remove_dir();
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(c, "mknod"))
		case_mknod(arg);
	else if (!strcmp(c, "mknod-dev"))
		case_mknod_dev(arg);
	else if (!strcmp(c, "fifo"))
		case_fifo(arg);
	else if (!strcmp(c, "hostfifo") && arg)
		case_hostfifo(arg);
	else if (!strcmp(c, "openrules"))
		case_openrules(arg);
	else if (!strcmp(c, "flock"))
		case_flock(arg);
	else if (!strcmp(c, "posix"))
		case_posix(arg);
	else if (!strcmp(c, "ofd"))
		case_ofd(arg);
	else if (!strcmp(c, "proclocks"))
		case_proclocks(arg);
	else if (!strcmp(c, "inotify"))
		case_inotify(arg);
	else
		die("usage: fifolock mknod|mknod-dev|fifo|hostfifo PATH|openrules|flock|posix|ofd|proclocks|inotify [DIR]");
	return 0;
}
