/*
 * fdmisc: small corners of the descriptor and signal calls, each printed
 * as "call = result": FIONREAD on a pipe, O_NONBLOCK through pipe2 and
 * F_GETFL/F_SETFL, dup3's O_CLOEXEC through F_GETFD, a read on an empty
 * non-blocking pipe, tkill to the caller, and readv/writev across buffers.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "harness.h"

static volatile int got;

static void on_usr2(int sig)
{
	got = sig;
}

int main(void)
{
	struct iovec out[2] = { { "ab", 2 }, { "cde", 3 } };
	char a[2], b[8];
	struct iovec in[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	int p[2], avail = -1, fd;
	char c;

	show("pipe2(O_NONBLOCK)", rsys(SYS_pipe2, p, O_NONBLOCK));
	show("read(empty, non-blocking)", rsys(SYS_read, p[0], &c, 1));
	show("fcntl(F_GETFL) has O_NONBLOCK", (rsys(SYS_fcntl, p[0], F_GETFL) & O_NONBLOCK) != 0);
	show("fcntl(F_SETFL, 0)", rsys(SYS_fcntl, p[0], F_SETFL, 0));
	show("fcntl(F_GETFL) has O_NONBLOCK", (rsys(SYS_fcntl, p[0], F_GETFL) & O_NONBLOCK) != 0);
	show("writev(2 buffers)", rsys(SYS_writev, p[1], out, 2));
	show("ioctl(FIONREAD)", rsys(SYS_ioctl, p[0], FIONREAD, &avail));
	printf("FIONREAD says %d\n", avail);
	show("readv(2 buffers)", rsys(SYS_readv, p[0], in, 2));
	printf("read \"%.2s\" then \"%.3s\"\n", a, b);
	fd = rsys(SYS_dup3, p[0], 10, O_CLOEXEC);
	show("dup3(O_CLOEXEC)", fd);
	show("fcntl(F_GETFD)", rsys(SYS_fcntl, 10, F_GETFD));
	show("dup3(fd, fd)", rsys(SYS_dup3, 10, 10, 0));
	show("dup3(bad flags)", rsys(SYS_dup3, p[0], 11, 1));
	signal(SIGUSR2, on_usr2);
	show("tkill(self, SIGUSR2)", rsys(SYS_tkill, rsys0(SYS_gettid), SIGUSR2));
	printf("handler got %s\n", got ? signal_name(got) : "nothing");
	show("tkill(0, SIGUSR2)", rsys(SYS_tkill, 0, SIGUSR2));
	show("tkill(self, 65)", rsys(SYS_tkill, rsys0(SYS_gettid), 65));
	return 0;
}
