/*
 * vecio: preadv, pwritev, preadv2 and pwritev2 (and a read of a
 * directory), with raw system calls, each printed as "call = result" and
 * what it read or left in the file, the same natively and under umk
 * (tests/syscalls.bats). The file is made in the directory argv[1].
 *
 *   positions  pwritev and preadv at an offset across buffers, the file
 *              position unmoved; preadv2/pwritev2 with -1 use and move it
 *   errors     a negative offset, a pipe (ESPIPE), a bad fd, a read-only
 *              fd, an unknown flag, RWF_APPEND with RWF_NOAPPEND,
 *              RWF_ATOMIC
 *   flags      RWF_APPEND writes at the end whatever the offset, RWF_SYNC,
 *              RWF_NOWAIT on an empty pipe is EAGAIN instead of waiting
 *   directory  read, pread64, readv and preadv of a directory: EISDIR
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "harness.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI 0x01
#define RWF_DSYNC 0x02
#define RWF_SYNC 0x04
#define RWF_NOWAIT 0x08
#define RWF_APPEND 0x10
#endif
#define RWF_NOAPPEND_ 0x20
#define RWF_ATOMIC_ 0x40

static void show_file(int fd)
{
	char buf[64];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	buf[n > 0 ? n : 0] = 0;
	printf("  file: \"%s\", position %ld\n", buf, (long)lseek(fd, 0, SEEK_CUR));
}

int main(int argc, char **argv)
{
	char path[256], a[4], b[8];
	struct iovec out[2] = { { "ABC", 3 }, { "defg", 4 } };
	struct iovec in[2] = { { a, 3 }, { b, 4 } };
	int fd, ro, p[2];

	if (argc != 2)
		die("usage: vecio DIR");
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(path, sizeof(path), "%s/vecio.XXXXXX", argv[1]);
	fd = mkstemp(path);
	if (fd < 0)
		die("mkstemp in %s failed", argv[1]);
	ro = open(path, O_RDONLY);
	unlink(path);
	if (write(fd, "0123456789", 10) != 10 || pipe(p))
		die("setup failed");

	printf("== positions\n");
	show("pwritev(at 2, \"ABC\" \"defg\")", rsys(SYS_pwritev, fd, out, 2, 2, 0));
	show_file(fd);
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	show("preadv(at 1, 3 + 4 bytes)", rsys(SYS_preadv, fd, in, 2, 1, 0));
	printf("  read \"%s\" \"%s\"\n", a, b);
	lseek(fd, 4, SEEK_SET);
	show("preadv2(at -1: the position 4, 3 + 4 bytes)", rsys(SYS_preadv2, fd, in, 2, -1, 0, 0));
	printf("  read \"%s\" \"%s\"\n", a, b);
	show_file(fd);
	show("pwritev2(at -1, \"ABC\" \"defg\", RWF_HIPRI)",
	     rsys(SYS_pwritev2, fd, out, 2, -1, 0, RWF_HIPRI));
	show_file(fd);
	show("preadv(at the end)", rsys(SYS_preadv, fd, in, 2, 100, 0));
	show("preadv(0 buffers)", rsys(SYS_preadv, fd, in, 0, 0, 0));

	printf("== errors\n");
	show("preadv(at -1)", rsys(SYS_preadv, fd, in, 2, -1, 0));
	show("preadv2(at -2)", rsys(SYS_preadv2, fd, in, 2, -2, 0, 0));
	show("preadv(a pipe)", rsys(SYS_preadv, p[0], in, 2, 0, 0));
	show("preadv(fd 999)", rsys(SYS_preadv, 999, in, 2, 0, 0));
	show("pwritev(a read-only fd)", rsys(SYS_pwritev, ro, out, 2, 0, 0));
	show("preadv(1025 buffers)", rsys(SYS_preadv, fd, in, 1025, 0, 0));
	show("preadv2(flag 0x1000)", rsys(SYS_preadv2, fd, in, 2, 0, 0, 0x1000));
	show("pwritev2(RWF_APPEND | RWF_NOAPPEND)",
	     rsys(SYS_pwritev2, fd, out, 2, 0, 0, RWF_APPEND | RWF_NOAPPEND_));
	show("pwritev2(RWF_ATOMIC)", rsys(SYS_pwritev2, fd, out, 2, 0, 0, RWF_ATOMIC_));
	show("preadv2(RWF_ATOMIC)", rsys(SYS_preadv2, fd, in, 2, 0, 0, RWF_ATOMIC_));

	printf("== flags\n");
	show("pwritev2(at 0, RWF_APPEND)", rsys(SYS_pwritev2, fd, out, 1, 0, 0, RWF_APPEND));
	show_file(fd);
	show("pwritev2(at 0, RWF_SYNC | RWF_DSYNC)",
	     rsys(SYS_pwritev2, fd, out + 1, 1, 0, 0, RWF_SYNC | RWF_DSYNC));
	show_file(fd);
	show("preadv2(an empty pipe, RWF_NOWAIT)", rsys(SYS_preadv2, p[0], in, 1, -1, 0, RWF_NOWAIT));
	printf("  the pipe end still blocking: %s\n",
	       fcntl(p[0], F_GETFL) & O_NONBLOCK ? "no" : "yes");
	show("preadv2(the file, RWF_NOWAIT)", rsys(SYS_preadv2, fd, in, 1, 0, 0, RWF_NOWAIT));

	printf("== directory\n");
	{
		int d = open(argv[1], O_RDONLY | O_DIRECTORY);
		char buf[16];
		struct iovec v = { buf, sizeof(buf) };

		show("read(a directory)", rsys(SYS_read, d, buf, sizeof(buf)));
		show("pread64(a directory)", rsys(SYS_pread64, d, buf, sizeof(buf), 0));
		show("readv(a directory)", rsys(SYS_readv, d, &v, 1));
		show("preadv(a directory)", rsys(SYS_preadv, d, &v, 1, 0, 0));
		close(d);
	}
	return 0;
}
