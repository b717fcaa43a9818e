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
 *   pipe-max-set (writes /proc/sys: for umk only) root sets
 *                fs.pipe-max-size, rounded as Linux rounds it, EINVAL for
 *                what is not a size; nobody cannot write it; nobody's new
 *                pipes are no bigger than it, and cannot grow past it
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define NOBODY 65534

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

static long fcntl_(int fd, int cmd, long arg)
{
	return rsys(SYS_fcntl, fd, cmd, arg);
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

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "pipe-size", pipe_size }, { "fifo-size", fifo_size },
		{ "pipe-max-root", pipe_max_root },
		{ "pipe-max-nobody", pipe_max_nobody }, { "pipe-max-set", pipe_max_set },
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	return run_sections("fcntl", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
