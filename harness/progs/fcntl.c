/*
 * fcntl: the fcntl commands beyond descriptors and record locks, one
 * section each, with the same output natively and under umk
 * (tests/fcntl.bats). Sizes are printed relative to fs.pipe-max-size
 * ("max"), read from /proc/sys, so the host's setting does not matter.
 *
 *   pipe-size    F_GETPIPE_SZ and F_SETPIPE_SZ on a pipe: 16 pages at
 *                first, rounding up to a power of two pages, EINVAL past
 *                2 GiB, EBUSY below the data held, the data kept across a
 *                resize, a 1-page pipe full at 4096 bytes, EBADF on a file
 *   fifo-size    the size belongs to the FIFO's pipe: another open file
 *                of it sees the new size
 *   pipe-max-root, pipe-max-nobody   growing past fs.pipe-max-size is
 *                EPERM without CAP_SYS_RESOURCE (nobody; the host's root
 *                where a container took it), allowed with it (umk's root);
 *                shrinking and growing up to it are allowed to both
 *   pipe-user-pages  as nobody: pipes grown to 1 MiB until the user's
 *                pages pass fs.pipe-user-pages-soft (EPERM), after which a
 *                new pipe has 2 pages
 *   pipe-max-set (writes /proc/sys: for umk only) root sets
 *                fs.pipe-max-size, rounded as Linux rounds it, EINVAL for
 *                what is not a size; nobody cannot write it; nobody's new
 *                pipes are no bigger than it, and cannot grow past it
 *   pipe-pages-hard  (writes /proc/sys: for umk only) past
 *                fs.pipe-user-pages-hard an unprivileged user gets no new
 *                pipe (ENFILE) and opens no new FIFO (ENOMEM)
 *   sigio-pipe   O_ASYNC on a pipe's ends (F_SETFL and FIOASYNC): SIGIO
 *                (si_code SI_KERNEL) to the owner on data, on room, on the
 *                other end's close; F_SETSIG's signal with si_fd and
 *                si_band, SIGIO itself given so with them; the ends of a
 *                FIFO opened O_RDWR
 *   owner        F_SETOWN/F_GETOWN (a pid, a group as -pgrp, ESRCH),
 *                F_SETOWN_EX/F_GETOWN_EX (TID, PID, PGRP, EINVAL),
 *                F_SETSIG/F_GETSIG (EINVAL past 64); O_ASYNC on a regular
 *                file (no fasync: F_SETFL ignores it, FIOASYNC is ENOTTY)
 *   sigio-unix   an AF_UNIX stream pair: SIGIO on data, on room once a send
 *                found none, on the peer's shutdown and close; the owner
 *                by FIOSETOWN and SIOCGPGRP
 *   sigio-inotify  an inotify file: SIGIO (POLL_IN) per event queued, none
 *                for an event merged into the last
 *   lease        F_SETLEASE/F_GETLEASE: a read lease beside other readers,
 *                a write lease only on a file nobody else has open, EAGAIN
 *                otherwise; F_UNLCK; EINVAL on a pipe and a directory; an
 *                O_NONBLOCK open that conflicts is EWOULDBLOCK, marks the
 *                lease for downgrade and signals the holder (POLL_MSG);
 *                /proc/locks shows it
 *   lease-nobody the file's owner may take a lease, another user not
 *   lease-break  a holder in another process answers each break: an
 *                O_RDONLY open waits for the write lease's downgrade, a
 *                truncate for the read lease's release
 *   lease-restart  an open blocked by a lease, interrupted by a handler:
 *                EINTR without SA_RESTART, restarted with it (and done
 *                when the holder lets go)
 *   lease-timeout  (writes /proc/sys: for umk only) a holder that does
 *                not answer loses its lease after fs.lease-break-time;
 *                /proc/locks shows the lease BREAKING and the opener as
 *                its BREAKER meanwhile; fs.leases-enable 0 refuses new
 *                leases
 *   sigio-tty    (stdin a terminal: tests/tty.bats types the line) O_ASYNC
 *                on the terminal makes the foreground group its owner;
 *                a typed line brings SIGIO, a partial one does not
 *   sigio-tid    F_SETOWN_EX F_OWNER_TID: the signal goes to that thread,
 *                F_OWNER_PID to the process (any thread not blocking it)
 *   sigio-pgrp   an owner that is a process group: each of its processes
 *                gets SIGIO
 *   sigio-perm   sigio_perm: an owner set by nobody cannot signal root;
 *                one set by root signals nobody
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define NOBODY 65534

#define fcntl_(fd, cmd, arg) rsys(SYS_fcntl, (fd), (cmd), (arg))

static void must(const char *what, long ret)
{
	if (ret < 0)
		die("%s: %s", what, errno_name((int)-ret));
}

static void become_nobody(void)
{
	must("setgroups", rsys(SYS_setgroups, 0, 0));
	must("setresgid", rsys(SYS_setresgid, NOBODY, NOBODY, NOBODY));
	must("setresuid", rsys(SYS_setresuid, NOBODY, NOBODY, NOBODY));
}

/* Run fn in a child, as nobody or as root, and wait for it. */
static void as(const char *who, void (*fn)(void))
{
	pid_t pid;
	int status;

	printf("-- as %s\n", who);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (!strcmp(who, "nobody"))
			become_nobody();
		fn();
		fflush(stdout);
		_exit(check_failures ? 1 : 0);
	}
	status = wait_status(pid);
	if (status)
		printf("child: %s\n", status_text(status));
}

/* ---- pipe sizes ---- */

static unsigned long read_pipe_max(void)
{
	FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");
	unsigned long v = 0;

	if (!f || fscanf(f, "%lu", &v) != 1)
		die("cannot read /proc/sys/fs/pipe-max-size");
	fclose(f);
	return v;
}

/* "F_SETPIPE_SZ(what) = N" with N as a multiple of what it relates to. */
static long setsz(int fd, const char *what, long arg)
{
	char call[80];

	snprintf(call, sizeof(call), "F_SETPIPE_SZ(%s)", what);
	return show(call, fcntl_(fd, F_SETPIPE_SZ, arg));
}

static void pipe_size(void)
{
	static char out[10000], in[10000];
	int p[2], fd;
	long n;

	must("pipe", rsys(SYS_pipe, p));
	show("F_GETPIPE_SZ (new pipe)", fcntl_(p[0], F_GETPIPE_SZ, 0));
	show("F_GETPIPE_SZ (its write end)", fcntl_(p[1], F_GETPIPE_SZ, 0));
	setsz(p[1], "0", 0);
	setsz(p[1], "4097", 4097);
	setsz(p[1], "5000", 5000);
	setsz(p[1], "12289", 12289);
	setsz(p[1], "2^31 + 1", (1L << 31) + 1);
	setsz(p[1], "2^32 + 4096", (1L << 32) + 4096);	/* an unsigned int: 4096 */
	setsz(p[1], "-1", -1);
	setsz(p[1], "8192", 8192);

	/* data held: a shrink below it is EBUSY, and it survives a resize
	 * even when it wraps around the ring's end */
	for (size_t i = 0; i < sizeof(out); i++)
		out[i] = (char)('a' + i % 23);
	show("write 6000", rsys(SYS_write, p[1], out, 6000));
	setsz(p[1], "4096 (6000 bytes held)", 4096);
	show("read 5000", rsys(SYS_read, p[0], in, 5000));
	show("write 4000 (wraps)", rsys(SYS_write, p[1], out + 6000, 4000));
	setsz(p[1], "4096 (5000 bytes held)", 4096);
	setsz(p[1], "16384", 16384);
	show("F_GETPIPE_SZ", fcntl_(p[0], F_GETPIPE_SZ, 0));
	n = show("read 10000", rsys(SYS_read, p[0], in + 5000, 5000));
	check("the bytes kept their order across the resize", n == 5000 && !memcmp(in, out, 10000));
	setsz(p[1], "4096 (empty)", 4096);

	/* a one-page pipe takes 4096 bytes, no more */
	must("F_SETFL", fcntl_(p[1], F_SETFL, O_NONBLOCK));
	show("write 10000 (non-blocking, 1 page)", rsys(SYS_write, p[1], out, 10000));
	show("write 1 (full)", rsys(SYS_write, p[1], out, 1));
	setsz(p[1], "8192 (full)", 8192);
	show("write 10000 (non-blocking, 2 pages)", rsys(SYS_write, p[1], out, 10000));
	close(p[0]);
	close(p[1]);

	fd = open("/proc/self/exe", O_RDONLY);
	show("F_GETPIPE_SZ (a regular file)", fcntl_(fd, F_GETPIPE_SZ, 0));
	setsz(fd, "4096 (a regular file)", 4096);
	close(fd);
}

static void fifo_size(void)
{
	char path[64];
	int a, b;

	snprintf(path, sizeof(path), "/tmp/fcntl-fifo.%d", getpid());
	if (mkfifo(path, 0600))
		die("mkfifo %s", path);
	a = open(path, O_RDWR);
	b = open(path, O_RDONLY | O_NONBLOCK);
	if (a < 0 || b < 0)
		die("open %s", path);
	show("F_GETPIPE_SZ (FIFO)", fcntl_(a, F_GETPIPE_SZ, 0));
	setsz(a, "8192", 8192);
	show("F_GETPIPE_SZ (another open file of it)", fcntl_(b, F_GETPIPE_SZ, 0));
	close(a);
	close(b);
	unlink(path);
}

/* "CALL = max" for a size that is fs.pipe-max-size or twice it. */
static void show_rel(const char *call, long n, long max)
{
	if (n == max)
		printf("%s = max\n", call);
	else if (n == 2 * max)
		printf("%s = 2 * max\n", call);
	else
		show(call, n);
}

static void pipe_max_checks(void)
{
	long max = (long)read_pipe_max();
	int p[2];

	must("pipe", rsys(SYS_pipe, p));
	show_rel("F_SETPIPE_SZ(max)", fcntl_(p[1], F_SETPIPE_SZ, max), max);
	show_rel("F_SETPIPE_SZ(2 * max)", fcntl_(p[1], F_SETPIPE_SZ, 2 * max), max);
	show_rel("F_GETPIPE_SZ", fcntl_(p[1], F_GETPIPE_SZ, 0), max);
	setsz(p[1], "4096", 4096);
	close(p[0]);
	close(p[1]);
}

static void pipe_max_root(void)
{
	as("root", pipe_max_checks);
}

static void pipe_max_nobody(void)
{
	as("nobody", pipe_max_checks);
}

static void user_pages_checks(void)
{
	FILE *f = fopen("/proc/sys/fs/pipe-user-pages-soft", "r");
	unsigned long soft = 0;
	int p[2], grown = 0;
	long ret = 0;

	if (!f || fscanf(f, "%lu", &soft) != 1 || !soft || soft > 65536)
		die("fs.pipe-user-pages-soft is not a limit this test can reach");
	fclose(f);
	/* 1 MiB (256 pages) each: the last that fits brings the count to
	 * the limit, the next would pass it */
	while (grown <= (int)(soft / 256)) {
		must("pipe", rsys(SYS_pipe, p));
		ret = fcntl_(p[1], F_SETPIPE_SZ, 1 << 20);
		if (ret < 0)
			break;
		grown++;
	}
	printf("pipes grown to 1 MiB: soft / 256 = %d\n", grown == (int)(soft / 256));
	show("the next one's F_SETPIPE_SZ(1 MiB)", ret);
	show("its F_SETPIPE_SZ(8192) (a shrink is allowed)", fcntl_(p[1], F_SETPIPE_SZ, 8192));
	must("pipe", rsys(SYS_pipe, p));
	show("a new pipe's F_GETPIPE_SZ", fcntl_(p[0], F_GETPIPE_SZ, 0));
	show("its F_SETPIPE_SZ(16384) (a growth is not)", fcntl_(p[0], F_SETPIPE_SZ, 16384));
}

static void pipe_user_pages(void)
{
	as("nobody", user_pages_checks);
}

/* Write text to fs.pipe-max-size: "write TEXT = N" and what it reads now. */
static void set_pipe_max(const char *text)
{
	long fd = rsys(SYS_open, "/proc/sys/fs/pipe-max-size", O_WRONLY);
	char call[80];

	snprintf(call, sizeof(call), "write \"%.*s%s\" to pipe-max-size", (int)strcspn(text, "\n"),
		 text, strchr(text, '\n') ? "\\n" : "");
	if (fd < 0) {
		show(call, fd);
		return;
	}
	show(call, rsys(SYS_write, fd, text, strlen(text)));
	close((int)fd);
	printf("pipe-max-size: %lu\n", read_pipe_max());
}

static void new_pipe_under_max(void)
{
	int p[2];

	must("pipe", rsys(SYS_pipe, p));
	show("F_GETPIPE_SZ (new pipe)", fcntl_(p[0], F_GETPIPE_SZ, 0));
	setsz(p[1], "16384", 16384);
	setsz(p[1], "4096", 4096);
	close(p[0]);
	close(p[1]);
}

static void nobody_writes_max(void)
{
	set_pipe_max("8192");
}

static void pipe_max_set(void)
{
	set_pipe_max("5000");
	set_pipe_max("0");
	set_pipe_max("2147483649");
	set_pipe_max("-4096");
	set_pipe_max("12x");
	set_pipe_max("8192\n");
	as("nobody", nobody_writes_max);
	as("root", new_pipe_under_max);
	as("nobody", new_pipe_under_max);
	set_pipe_max("1048576");
}

/* ---- signal-driven I/O ---- */

static volatile int got_count;
static volatile int got_sig, got_code, got_fd;
static volatile long got_band;

static void on_sigio(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_count++;
	got_sig = sig;
	got_code = si->si_code;
	got_fd = si->si_fd;
	got_band = si->si_band;
}

static void catch_sig(int sig)
{
	struct sigaction sa = { .sa_sigaction = on_sigio, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		die("sigaction %d", sig);
}

static const char *code_name(int code)
{
	static char buf[16];

	switch (code) {
	case SI_KERNEL:
		return "SI_KERNEL";
	case SI_SIGIO:
		return "SI_SIGIO";
	case POLL_IN:
		return "POLL_IN";
	case POLL_OUT:
		return "POLL_OUT";
	case POLL_HUP:
		return "POLL_HUP";
	}
	snprintf(buf, sizeof(buf), "%d", code);
	return buf;
}

/* What arrived since the last report: "  -> none", or the signal with
 * si_code, and si_fd and si_band when si_code is a POLL_* code. */
static void report(void)
{
	if (!got_count) {
		printf("  -> none\n");
		return;
	}
	if (got_sig >= SIGRTMIN)
		printf("  -> %d x SIGRTMIN+%d", got_count, got_sig - SIGRTMIN);
	else
		printf("  -> %d x %s", got_count, got_sig == SIGIO ? "SIGIO" : signal_name(got_sig));
	printf(", si_code %s", code_name(got_code));
	if (got_code >= POLL_IN && got_code <= POLL_HUP)
		printf(", si_fd %s, si_band %#lx", got_fd == -1 ? "?" : "fd", got_band);
	printf("\n");
	got_count = 0;
}

static int report_fd;	/* the fd si_fd should name */

static void say(const char *what, long ret)
{
	show(what, ret);
	if (got_count && got_code >= POLL_IN && got_code <= POLL_HUP && got_fd != report_fd)
		printf("  si_fd %d is not fd %d\n", got_fd, report_fd);
	report();
}

static void sigio_pipe(void)
{
	int p[2], fl, on = 1, off = 0;
	char c = 'x', buf[8];

	catch_sig(SIGIO);
	catch_sig(SIGRTMIN + 1);
	must("pipe", rsys(SYS_pipe, p));
	show("F_GETOWN (none yet)", fcntl_(p[0], F_GETOWN, 0));
	show("F_SETOWN getpid()", fcntl_(p[0], F_SETOWN, getpid()));
	show("F_GETOWN is getpid()", fcntl_(p[0], F_GETOWN, 0) == getpid());
	report_fd = p[0];
	say("write (no O_ASYNC)", rsys(SYS_write, p[1], &c, 1));
	fl = (int)fcntl_(p[0], F_GETFL, 0);
	show("F_SETFL O_ASYNC (read end)", fcntl_(p[0], F_SETFL, fl | O_ASYNC));
	printf("F_GETFL has O_ASYNC: %d\n", (fcntl_(p[0], F_GETFL, 0) & O_ASYNC) != 0);
	say("write 1 byte", rsys(SYS_write, p[1], &c, 1));
	say("write 0 bytes", rsys(SYS_write, p[1], &c, 0));
	show("F_SETSIG SIGRTMIN+1", fcntl_(p[0], F_SETSIG, SIGRTMIN + 1));
	show("F_GETSIG is SIGRTMIN+1", fcntl_(p[0], F_GETSIG, 0) == SIGRTMIN + 1);
	say("write 1 byte", rsys(SYS_write, p[1], &c, 1));
	show("F_SETSIG SIGIO", fcntl_(p[0], F_SETSIG, SIGIO));
	say("write 1 byte", rsys(SYS_write, p[1], &c, 1));
	show("F_SETSIG 0", fcntl_(p[0], F_SETSIG, 0));
	say("read 4 (the read end's own read)", rsys(SYS_read, p[0], buf, 4));

	/* the write end: SIGIO when a read makes room */
	show("F_SETOWN getpid() (write end)", fcntl_(p[1], F_SETOWN, getpid()));
	show("F_SETSIG SIGRTMIN+1 (write end)", fcntl_(p[1], F_SETSIG, SIGRTMIN + 1));
	show("ioctl FIOASYNC on (write end)", rsys(SYS_ioctl, p[1], FIOASYNC, &on));
	printf("F_GETFL has O_ASYNC: %d\n", (fcntl_(p[1], F_GETFL, 0) & O_ASYNC) != 0);
	say("write 1 byte", rsys(SYS_write, p[1], &c, 1));
	report_fd = p[1];
	say("read 1 byte", rsys(SYS_read, p[0], &c, 1));
	show("ioctl FIOASYNC off (write end)", rsys(SYS_ioctl, p[1], FIOASYNC, &off));
	printf("F_GETFL has O_ASYNC: %d\n", (fcntl_(p[1], F_GETFL, 0) & O_ASYNC) != 0);
	report_fd = p[0];
	say("write 1 byte", rsys(SYS_write, p[1], &c, 1));
	say("close the write end", rsys(SYS_close, p[1]));
	fl = (int)fcntl_(p[0], F_GETFL, 0);
	show("F_SETFL without O_ASYNC", fcntl_(p[0], F_SETFL, fl & ~O_ASYNC));
	printf("F_GETFL has O_ASYNC: %d\n", (fcntl_(p[0], F_GETFL, 0) & O_ASYNC) != 0);
	close(p[0]);

	/* a FIFO opened O_RDWR is on both lists: a write through it is data
	 * for itself */
	{
		char path[64];
		int f;

		snprintf(path, sizeof(path), "/tmp/fcntl-fifo.%d", getpid());
		if (mkfifo(path, 0600))
			die("mkfifo %s", path);
		f = open(path, O_RDWR);
		unlink(path);
		report_fd = f;
		show("F_SETOWN getpid() (FIFO, O_RDWR)", fcntl_(f, F_SETOWN, getpid()));
		show("F_SETSIG SIGRTMIN+1", fcntl_(f, F_SETSIG, SIGRTMIN + 1));
		show("F_SETFL O_ASYNC", fcntl_(f, F_SETFL, O_RDWR | O_ASYNC));
		say("write 1 byte", rsys(SYS_write, f, &c, 1));
		say("read 1 byte", rsys(SYS_read, f, &c, 1));
		close(f);
	}
}

static void owner(void)
{
	struct f_owner_ex ex;
	int p[2], fd, on = 1;

	must("pipe", rsys(SYS_pipe, p));
	show("F_SETOWN 999999 (no such process)", fcntl_(p[0], F_SETOWN, 999999));
	show("F_SETOWN -999999 (no such group)", fcntl_(p[0], F_SETOWN, -999999));
	show("F_SETOWN INT_MIN", fcntl_(p[0], F_SETOWN, -2147483647 - 1));
	show("F_SETOWN -getpgrp()", fcntl_(p[0], F_SETOWN, -getpgrp()));
	show("F_GETOWN is -getpgrp()", fcntl_(p[0], F_GETOWN, 0) == -getpgrp());
	show("F_GETOWN_EX", fcntl_(p[0], F_GETOWN_EX, &ex));
	printf("  type %d (F_OWNER_PGRP %d), pid is getpgrp(): %d\n", ex.type, F_OWNER_PGRP,
	       ex.pid == getpgrp());
	ex = (struct f_owner_ex){ .type = F_OWNER_TID, .pid = gettid() };
	show("F_SETOWN_EX F_OWNER_TID gettid()", fcntl_(p[0], F_SETOWN_EX, &ex));
	show("F_GETOWN is gettid()", fcntl_(p[0], F_GETOWN, 0) == gettid());
	show("F_GETOWN_EX", fcntl_(p[0], F_GETOWN_EX, &ex));
	printf("  type %d (F_OWNER_TID %d)\n", ex.type, F_OWNER_TID);
	ex = (struct f_owner_ex){ .type = F_OWNER_PID, .pid = 0 };
	show("F_SETOWN_EX F_OWNER_PID 0", fcntl_(p[0], F_SETOWN_EX, &ex));
	show("F_GETOWN_EX", fcntl_(p[0], F_GETOWN_EX, &ex));
	printf("  type %d (F_OWNER_PID %d), pid %d\n", ex.type, F_OWNER_PID, ex.pid);
	ex = (struct f_owner_ex){ .type = 3, .pid = getpid() };
	show("F_SETOWN_EX type 3", fcntl_(p[0], F_SETOWN_EX, &ex));
	ex = (struct f_owner_ex){ .type = F_OWNER_PID, .pid = 999999 };
	show("F_SETOWN_EX F_OWNER_PID 999999", fcntl_(p[0], F_SETOWN_EX, &ex));
	show("F_SETOWN_EX (bad pointer)", fcntl_(p[0], F_SETOWN_EX, 8));
	show("F_GETOWN_EX (bad pointer)", fcntl_(p[0], F_GETOWN_EX, 8));
	show("F_SETOWN 0", fcntl_(p[0], F_SETOWN, 0));
	show("F_GETOWN_EX", fcntl_(p[0], F_GETOWN_EX, &ex));
	printf("  type %d (F_OWNER_PID %d), pid %d\n", ex.type, F_OWNER_PID, ex.pid);
	show("F_GETSIG (none set)", fcntl_(p[0], F_GETSIG, 0));
	show("F_SETSIG 64", fcntl_(p[0], F_SETSIG, 64));
	show("F_SETSIG 65", fcntl_(p[0], F_SETSIG, 65));
	show("F_SETSIG -1", fcntl_(p[0], F_SETSIG, -1));
	show("F_GETSIG", fcntl_(p[0], F_GETSIG, 0));
	show("F_GETSIG (the other end: an open file of its own)", fcntl_(p[1], F_GETSIG, 0));
	close(p[0]);
	close(p[1]);

	fd = open("/proc/self/exe", O_RDONLY);
	show("F_SETFL O_ASYNC (a regular file)", fcntl_(fd, F_SETFL, O_ASYNC));
	printf("F_GETFL has O_ASYNC: %d\n", (fcntl_(fd, F_GETFL, 0) & O_ASYNC) != 0);
	show("ioctl FIOASYNC on (a regular file)", rsys(SYS_ioctl, fd, FIOASYNC, &on));
	show("F_SETOWN getpid() (a regular file)", fcntl_(fd, F_SETOWN, getpid()));
	close(fd);
}

static void sigio_unix(void)
{
	static char big[65536];
	int sv[2], me = getpid(), got = 0, size = 4096;
	long n, total = 0;
	char c = 'x';

	catch_sig(SIGRTMIN + 2);
	must("socketpair", rsys(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, sv));
	report_fd = sv[0];
	show("ioctl FIOSETOWN getpid()", rsys(SYS_ioctl, sv[0], FIOSETOWN, &me));
	show("ioctl SIOCGPGRP", rsys(SYS_ioctl, sv[0], SIOCGPGRP, &got));
	printf("  the owner is getpid(): %d\n", got == me);
	show("F_SETSIG SIGRTMIN+2", fcntl_(sv[0], F_SETSIG, SIGRTMIN + 2));
	show("F_SETFL O_ASYNC|O_NONBLOCK", fcntl_(sv[0], F_SETFL, O_ASYNC | O_NONBLOCK));
	say("the peer sends 1 byte", rsys(SYS_write, sv[1], &c, 1));
	say("recv 1 byte", rsys(SYS_read, sv[0], &c, 1));
	must("SO_SNDBUF", rsys(SYS_setsockopt, sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size)));
	while ((n = rsys(SYS_write, sv[0], big, sizeof(big))) > 0)
		total += n;
	printf("send until full: %s\n", n == -EAGAIN ? "EAGAIN" : errno_name((int)-n));
	report();
	while (total > 0 && (n = rsys(SYS_read, sv[1], big, sizeof(big))) > 0)
		total -= n;
	printf("the peer reads it all\n");
	report();
	say("the peer sends 1 byte", rsys(SYS_write, sv[1], &c, 1));
	say("the peer's shutdown(SHUT_WR)", rsys(SYS_shutdown, sv[1], SHUT_WR));
	say("the peer's close", rsys(SYS_close, sv[1]));
	close(sv[0]);
}

static void sigio_inotify(void)
{
	char dir[64], path[80];
	int in, fd;

	catch_sig(SIGIO);
	catch_sig(SIGRTMIN + 1);
	snprintf(dir, sizeof(dir), "/tmp/fcntl-inotify.%d", getpid());
	snprintf(path, sizeof(path), "%s/f", dir);
	if (mkdir(dir, 0700))
		die("mkdir %s", dir);
	in = (int)rsys(SYS_inotify_init1, 0);
	must("inotify_init1", in);
	must("inotify_add_watch", rsys(SYS_inotify_add_watch, in, dir, IN_CREATE | IN_MODIFY));
	report_fd = in;
	show("F_SETOWN getpid()", fcntl_(in, F_SETOWN, getpid()));
	show("F_SETSIG SIGRTMIN+1", fcntl_(in, F_SETSIG, SIGRTMIN + 1));
	show("F_SETFL O_ASYNC", fcntl_(in, F_SETFL, O_ASYNC));
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	printf("create f\n");
	report();
	show("write 1 byte to f", rsys(SYS_write, fd, "x", 1));
	report();
	show("write 1 byte to f again (merged)", rsys(SYS_write, fd, "x", 1));
	report();
	close(fd);
	close(in);
	unlink(path);
	rmdir(dir);
}

/* ---- leases ---- */

static char lease_path[64];

static void make_lease_file(void)
{
	int fd;

	snprintf(lease_path, sizeof(lease_path), "/tmp/fcntl-lease.%d", getpid());
	fd = open(lease_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "0123456789", 10) != 10)
		die("cannot make %s", lease_path);
	close(fd);
}

static const char *lease_name(long t)
{
	return t == F_RDLCK ? "F_RDLCK" : t == F_WRLCK ? "F_WRLCK" : t == F_UNLCK ? "F_UNLCK" : "?";
}

static void getlease(int fd)
{
	long t = fcntl_(fd, F_GETLEASE, 0);

	if (t < 0)
		show("F_GETLEASE", t);
	else
		printf("F_GETLEASE = %s\n", lease_name(t));
}

/* The lines of /proc/locks about leases: their kind, state and type,
 * and their range, without the pid and the device numbers. */
static void show_lease_lines(void)
{
	FILE *f = fopen("/proc/locks", "r");
	char line[256], state[16], type[16], range[32];

	if (!f)
		die("/proc/locks");
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "LEASE");

		if (!p || sscanf(p, "LEASE %15s %15s %*d %*s %31[^\n]", state, type, range) != 3)
			continue;
		printf("/proc/locks: %sLEASE %s %s ... %s\n", strstr(line, "->") ? "-> " : "", state,
		       type, range);
	}
	fclose(f);
}

static void lease(void)
{
	int a, b, p[2], d;

	catch_sig(SIGRTMIN + 1);
	make_lease_file();
	a = open(lease_path, O_RDONLY);
	getlease(a);
	show("F_SETLEASE F_RDLCK", fcntl_(a, F_SETLEASE, F_RDLCK));
	getlease(a);
	show_lease_lines();
	b = open(lease_path, O_RDONLY);
	show("open O_RDONLY beside a read lease", b >= 0 ? 0 : -1);
	show("F_SETLEASE F_WRLCK (another reader)", fcntl_(a, F_SETLEASE, F_WRLCK));
	show("F_SETLEASE F_RDLCK (the other reader too)", fcntl_(b, F_SETLEASE, F_RDLCK));
	show("F_SETLEASE F_UNLCK (the other reader)", fcntl_(b, F_SETLEASE, F_UNLCK));
	close(b);
	show("F_SETLEASE F_WRLCK (alone)", fcntl_(a, F_SETLEASE, F_WRLCK));
	getlease(a);
	show_lease_lines();
	show("F_SETLEASE F_UNLCK", fcntl_(a, F_SETLEASE, F_UNLCK));
	show("F_SETLEASE F_UNLCK (none held)", fcntl_(a, F_SETLEASE, F_UNLCK));
	show("F_SETLEASE 7", fcntl_(a, F_SETLEASE, 7));
	b = open(lease_path, O_RDWR);
	show("F_SETLEASE F_RDLCK (a writer is open)", fcntl_(a, F_SETLEASE, F_RDLCK));
	show("F_SETLEASE F_RDLCK (O_RDWR)", fcntl_(b, F_SETLEASE, F_RDLCK));
	close(a);
	show("F_SETLEASE F_WRLCK (O_RDWR, alone)", fcntl_(b, F_SETLEASE, F_WRLCK));
	show("F_SETLEASE F_UNLCK", fcntl_(b, F_SETLEASE, F_UNLCK));
	close(b);

	/* a conflicting O_NONBLOCK open: EWOULDBLOCK, and the break begins */
	a = open(lease_path, O_RDONLY);
	report_fd = a;
	show("F_SETSIG SIGRTMIN+1", fcntl_(a, F_SETSIG, SIGRTMIN + 1));
	show("F_SETLEASE F_WRLCK", fcntl_(a, F_SETLEASE, F_WRLCK));
	show("F_GETOWN is getpid() (the lease set it)", fcntl_(a, F_GETOWN, 0) == getpid());
	printf("F_GETFL has O_ASYNC: %d\n", (fcntl_(a, F_GETFL, 0) & O_ASYNC) != 0);
	say("open O_RDONLY|O_NONBLOCK", rsys(SYS_open, lease_path, O_RDONLY | O_NONBLOCK));
	getlease(a);
	show_lease_lines();
	show("F_SETLEASE F_RDLCK (the downgrade)", fcntl_(a, F_SETLEASE, F_RDLCK));
	getlease(a);
	b = (int)rsys(SYS_open, lease_path, O_RDONLY | O_NONBLOCK);
	say("open O_RDONLY|O_NONBLOCK again", b >= 0 ? 0 : b);
	close(b);
	say("open O_WRONLY|O_NONBLOCK", rsys(SYS_open, lease_path, O_WRONLY | O_NONBLOCK));
	getlease(a);
	show("F_SETLEASE F_UNLCK (the release)", fcntl_(a, F_SETLEASE, F_UNLCK));
	printf("F_GETFL has O_ASYNC: %d\n", (fcntl_(a, F_GETFL, 0) & O_ASYNC) != 0);
	show("F_GETOWN (the release cleared it)", fcntl_(a, F_GETOWN, 0));
	show("F_GETSIG (and this)", fcntl_(a, F_GETSIG, 0));
	close(a);

	must("pipe", rsys(SYS_pipe, p));
	show("F_SETLEASE F_RDLCK (a pipe)", fcntl_(p[0], F_SETLEASE, F_RDLCK));
	close(p[0]);
	close(p[1]);
	d = open("/tmp", O_RDONLY | O_DIRECTORY);
	show("F_SETLEASE F_RDLCK (a directory)", fcntl_(d, F_SETLEASE, F_RDLCK));
	close(d);
	unlink(lease_path);
}

static void nobody_leases(void)
{
	char own[80];
	int fd;

	fd = open(lease_path, O_RDONLY);
	show("nobody: F_SETLEASE F_RDLCK (root's file)", fcntl_(fd, F_SETLEASE, F_RDLCK));
	close(fd);
	snprintf(own, sizeof(own), "%s.nobody", lease_path);
	fd = open(own, O_CREAT | O_RDONLY, 0644);
	show("nobody: F_SETLEASE F_RDLCK (its own file)", fcntl_(fd, F_SETLEASE, F_RDLCK));
	getlease(fd);
	close(fd);
	unlink(own);
}

static void lease_nobody(void)
{
	make_lease_file();
	as("nobody", nobody_leases);
	unlink(lease_path);
}

/* A holder in a child: it takes a write lease, and each break's signal
 * makes it do what F_GETLEASE says the breaker wants, logging it. */
static volatile int breaks;
static char break_log[4][64];

static void on_break(int sig, siginfo_t *si, void *uc)
{
	long want = fcntl_(si->si_fd, F_GETLEASE, 0);

	(void)sig;
	(void)uc;
	if (breaks < 4)
		snprintf(break_log[breaks], sizeof(break_log[0]), "%s, wants %s, set = %ld",
			 si->si_code == POLL_MSG ? "POLL_MSG" : "?", lease_name(want),
			 fcntl_(si->si_fd, F_SETLEASE, want));
	breaks++;
}

/* Fork a holder of a write lease on lease_path that answers breaks when
 * answer, else ignores them (its lease lasts until it closes it after
 * hold_ms). Returns once the lease is held. */
static pid_t fork_holder(bool answer, int hold_ms)
{
	int ready[2];
	pid_t pid;
	char c;

	must("pipe", rsys(SYS_pipe, ready));
	fflush(stdout);
	pid = fork();
	if (!pid) {
		struct sigaction sa = { .sa_sigaction = on_break, .sa_flags = SA_SIGINFO };
		int fd = open(lease_path, O_RDONLY);

		if (!answer)
			sa.sa_sigaction = on_sigio;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGRTMIN + 1, &sa, NULL);
		if (fcntl_(fd, F_SETSIG, SIGRTMIN + 1) || fcntl_(fd, F_SETLEASE, F_WRLCK))
			_exit(98);
		if (write(ready[1], "r", 1) != 1)
			_exit(99);
		for (int t = 0; t < hold_ms; t += 10)
			usleep(10000);
		for (int i = 0; i < breaks && i < 4; i++)
			printf("holder: break %d: %s\n", i + 1, break_log[i]);
		if (!answer)
			printf("holder: %d signal(s), F_GETLEASE = %s\n", got_count,
			       lease_name(fcntl_(fd, F_GETLEASE, 0)));
		fflush(stdout);
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		die("the lease holder did not start");
	close(ready[0]);
	return pid;
}

static void lease_break(void)
{
	long fd, ret;
	pid_t holder;

	make_lease_file();
	holder = fork_holder(true, 1500);
	fd = rsys(SYS_open, lease_path, O_RDONLY);
	show("open O_RDONLY (waits for the downgrade)", fd < 0 ? fd : 0);
	ret = rsys(SYS_truncate, lease_path, 5);
	show("truncate to 5 (waits for the release)", ret);
	close((int)fd);
	wait_status(holder);
	unlink(lease_path);
}

static volatile int alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void lease_restart_with(bool restart)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = restart ? SA_RESTART : 0 };
	pid_t holder;
	long fd;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarms = 0;
	holder = fork_holder(false, 2000);
	alarm(1);
	fd = rsys(SYS_open, lease_path, O_RDONLY);
	printf("open O_RDONLY, %s: handler ran %d time(s), ", restart ? "SA_RESTART" : "no SA_RESTART",
	       alarms);
	show("open", fd < 0 ? fd : 0);
	if (fd >= 0)
		close((int)fd);
	wait_status(holder);
}

static void lease_restart(void)
{
	make_lease_file();
	lease_restart_with(false);
	lease_restart_with(true);
	unlink(lease_path);
}

/* Write text to /proc/sys/fs/NAME (umk only). */
static void set_fs_sysctl(const char *name, const char *text)
{
	char path[64], call[96];
	long fd;

	snprintf(path, sizeof(path), "/proc/sys/fs/%s", name);
	snprintf(call, sizeof(call), "write %s to %s", text, name);
	fd = rsys(SYS_open, path, O_WRONLY);
	show(call, fd < 0 ? fd : rsys(SYS_write, fd, text, strlen(text)));
	if (fd >= 0)
		close((int)fd);
}

static void lease_timeout(void)
{
	pid_t holder, peek;
	double t0;
	long fd;

	make_lease_file();
	set_fs_sysctl("lease-break-time", "1");
	holder = fork_holder(false, 2500);
	fflush(stdout);
	peek = fork();
	if (!peek) {
		usleep(300000);
		show_lease_lines();
		fflush(stdout);
		_exit(0);
	}
	t0 = now_ms();
	fd = rsys(SYS_open, lease_path, O_WRONLY);
	printf("open O_WRONLY after about a second: %d\n", now_ms() - t0 > 700);
	show("open O_WRONLY (the lease timed out)", fd < 0 ? fd : 0);
	wait_status(peek);
	close((int)fd);
	wait_status(holder);
	set_fs_sysctl("lease-break-time", "45");

	set_fs_sysctl("leases-enable", "0");
	fd = open(lease_path, O_RDONLY);
	show("F_SETLEASE F_RDLCK (leases-enable 0)", fcntl_((int)fd, F_SETLEASE, F_RDLCK));
	set_fs_sysctl("leases-enable", "1");
	show("F_SETLEASE F_RDLCK (leases-enable 1)", fcntl_((int)fd, F_SETLEASE, F_RDLCK));
	close((int)fd);
	unlink(lease_path);
}

static void sigio_tty(void)
{
	char line[64];
	long fl = fcntl_(0, F_GETFL, 0), n;
	int ready = 0;

	catch_sig(SIGIO);
	show("F_SETFL O_ASYNC (the terminal)", fcntl_(0, F_SETFL, fl | O_ASYNC));
	show("F_GETOWN is -getpgrp() (the foreground group)", fcntl_(0, F_GETOWN, 0) == -getpgrp());
	printf("type a line\n");
	for (int i = 0; i < 1000 && !got_count; i++)
		usleep(10000);
	report();
	/* a whole line is there when SIGIO comes, not the part before it */
	show("ioctl FIONREAD", rsys(SYS_ioctl, 0, FIONREAD, &ready));
	printf("  %d bytes\n", ready);
	n = rsys(SYS_read, 0, line, sizeof(line) - 1);
	if (n > 0)
		line[n] = 0;
	printf("read: %s", n > 0 ? line : "nothing\n");
	show("F_SETFL without O_ASYNC", fcntl_(0, F_SETFL, fl & ~O_ASYNC));
}

static volatile pid_t handled_by;

static void on_sigio_tid(int sig)
{
	(void)sig;
	handled_by = gettid();
}

static volatile int thread_done;
static volatile pid_t thread_tid;

static void *waiter(void *arg)
{
	(void)arg;
	thread_tid = gettid();
	while (!thread_done)
		usleep(1000);
	return NULL;
}

/* Write a byte to fd, wait for SIGIO's handler, and say which thread ran
 * it (the other thread: as other). */
static void write_and_tell(int fd, const char *other)
{
	show("write 1 byte", rsys(SYS_write, fd, "x", 1));
	for (int i = 0; i < 100 && !handled_by; i++)
		usleep(10000);
	printf("handled by: %s\n", handled_by == thread_tid ? other :
	       handled_by == gettid() ? "the main thread" : "nobody");
}

static void sigio_tid(void)
{
	struct sigaction sa = { .sa_handler = on_sigio_tid };
	struct f_owner_ex ex;
	pthread_t t;
	sigset_t block;
	int p[2];

	sigemptyset(&sa.sa_mask);
	sigaction(SIGIO, &sa, NULL);
	must("pipe", rsys(SYS_pipe, p));
	if (pthread_create(&t, NULL, waiter, NULL))
		die("pthread_create");
	while (!thread_tid)
		usleep(1000);
	ex = (struct f_owner_ex){ .type = F_OWNER_TID, .pid = thread_tid };
	show("F_SETOWN_EX F_OWNER_TID (the other thread)", fcntl_(p[0], F_SETOWN_EX, &ex));
	show("F_SETFL O_ASYNC", fcntl_(p[0], F_SETFL, O_ASYNC));
	write_and_tell(p[1], "the owner thread");
	/* the process as owner, SIGIO blocked in the main thread: the other
	 * thread takes it */
	handled_by = 0;
	sigemptyset(&block);
	sigaddset(&block, SIGIO);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	ex = (struct f_owner_ex){ .type = F_OWNER_PID, .pid = getpid() };
	show("F_SETOWN_EX F_OWNER_PID (the process), SIGIO blocked here",
	     fcntl_(p[0], F_SETOWN_EX, &ex));
	write_and_tell(p[1], "the other thread");
	thread_done = 1;
	pthread_join(t, NULL);
	pthread_sigmask(SIG_UNBLOCK, &block, NULL);
	close(p[0]);
	close(p[1]);
}

/* Wait up to a second for a signal to have arrived. */
static void wait_sig(void)
{
	for (int i = 0; i < 100 && !got_count; i++)
		usleep(10000);
}

static void sigio_pgrp(void)
{
	int p[2], ready[2];
	pid_t leader, member;
	char c = 'x';

	catch_sig(SIGIO);
	must("pipe", rsys(SYS_pipe, p));
	must("pipe", rsys(SYS_pipe, ready));
	fflush(stdout);
	leader = fork();
	if (!leader) {
		setpgid(0, 0);
		member = fork();
		if (!member) {
			close(ready[0]);
			if (write(ready[1], "r", 1) != 1)
				_exit(99);
			wait_sig();
			_exit(got_count ? 0 : 1);	/* the leader tells */
		}
		if (read(ready[0], &c, 1) != 1)
			_exit(99);
		show("leader: F_SETOWN -getpgrp()", fcntl_(p[0], F_SETOWN, -getpgrp()));
		show("leader: F_SETFL O_ASYNC", fcntl_(p[0], F_SETFL, O_ASYNC));
		show("leader: write 1 byte", rsys(SYS_write, p[1], &c, 1));
		wait_sig();
		printf("member: %s\n", wait_status(member) == 0 ? "SIGIO" : "nothing");
		printf("leader: %s\n", got_count ? "SIGIO" : "nothing");
		_exit(0);
	}
	wait_status(leader);
	printf("the test's own process (another group): %s\n", got_count ? "SIGIO" : "nothing");
	close(p[0]);
	close(p[1]);
}

/* Who sets the owner decides: a file made by root, its owner set by
 * nobody to root's process; then by root to nobody's. */
static int perm_pipe[2];

static void set_owner_parent(void)
{
	show("nobody: F_SETOWN getppid() (root)", fcntl_(perm_pipe[0], F_SETOWN, getppid()));
	show("nobody: F_SETFL O_ASYNC", fcntl_(perm_pipe[0], F_SETFL, O_ASYNC));
}

static void sigio_perm(void)
{
	int go[2];
	pid_t child;
	char c = 'x';

	catch_sig(SIGIO);
	must("pipe", rsys(SYS_pipe, perm_pipe));
	as("nobody", set_owner_parent);
	show("root: write 1 byte", rsys(SYS_write, perm_pipe[1], &c, 1));
	printf("root: %s\n", got_count ? "SIGIO" : "nothing");
	got_count = 0;
	show("root: F_SETOWN getpid()", fcntl_(perm_pipe[0], F_SETOWN, getpid()));
	show("root: write 1 byte", rsys(SYS_write, perm_pipe[1], &c, 1));
	printf("root: %s\n", got_count ? "SIGIO" : "nothing");
	got_count = 0;

	must("pipe", rsys(SYS_pipe, go));
	fflush(stdout);
	child = fork();
	if (!child) {
		become_nobody();
		if (write(go[1], "r", 1) != 1)
			_exit(99);
		wait_sig();
		_exit(got_count ? 0 : 1);	/* root tells */
	}
	if (read(go[0], &c, 1) != 1)
		die("read");
	show("root: F_SETOWN the nobody child", fcntl_(perm_pipe[0], F_SETOWN, child));
	show("root: write 1 byte", rsys(SYS_write, perm_pipe[1], &c, 1));
	printf("nobody: %s\n", wait_status(child) == 0 ? "SIGIO" : "nothing");
}

static void hard_checks(void)
{
	char path[64];
	int p[2];
	long fd;

	for (int i = 1; i <= 3; i++) {
		char call[40];

		snprintf(call, sizeof(call), "pipe %d (16 pages)", i);
		show(call, rsys(SYS_pipe, p));
	}
	snprintf(path, sizeof(path), "/tmp/fcntl-fifo.%d", getpid());
	if (mkfifo(path, 0600))
		die("mkfifo %s", path);
	fd = rsys(SYS_open, path, O_RDWR);
	show("open a new FIFO (0: an fd)", fd < 0 ? fd : 0);
	unlink(path);
}

static void pipe_pages_hard(void)
{
	set_fs_sysctl("pipe-user-pages-hard", "32");
	as("nobody", hard_checks);
	as("root", hard_checks);
	set_fs_sysctl("pipe-user-pages-hard", "0");
}

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "pipe-size", pipe_size }, { "fifo-size", fifo_size },
		{ "pipe-max-root", pipe_max_root },
		{ "pipe-max-nobody", pipe_max_nobody }, { "pipe-user-pages", pipe_user_pages },
		{ "pipe-pages-hard", pipe_pages_hard },
		{ "sigio-pipe", sigio_pipe }, { "owner", owner },
		{ "sigio-unix", sigio_unix }, { "sigio-inotify", sigio_inotify },
		{ "sigio-tty", sigio_tty }, { "sigio-tid", sigio_tid }, { "sigio-pgrp", sigio_pgrp }, { "lease", lease },
		{ "lease-nobody", lease_nobody }, { "lease-break", lease_break },
		{ "lease-restart", lease_restart }, { "lease-timeout", lease_timeout }, { "sigio-perm", sigio_perm }, { "pipe-max-set", pipe_max_set },
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	return run_sections("fcntl", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
