/* efault: system calls given NULL, a wild pointer ((void *)1) and a page that
 * was mapped and then unmapped. Each line is "call(args) = ret [ERRNO]" as
 * the kernel returned it (raw system calls: no vDSO, no libc checks), so the
 * output is the same natively and under umk: a bad user pointer is -EFAULT
 * for the program, never a crash of the kernel. */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

int main(void)
{
	void *wild = (void *)1;
	char *gone = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct timespec ts = { .tv_nsec = 1000000 };
	int p[2];
	char buf[16];
	long pid, ret;

	if (gone == MAP_FAILED || munmap(gone, 4096))
		die("mmap/munmap failed");
	if (pipe(p))
		die("pipe failed");
	if (write(p[1], "abcdefgh", 8) != 8)
		die("write failed");

	show("write(1, NULL, 5)", rsys(SYS_write, 1, NULL, 5));
	show("write(1, NULL, 0)", rsys(SYS_write, 1, NULL, 0));
	show("write(1, 1, 5)", rsys(SYS_write, 1, wild, 5));
	show("write(1, unmapped, 5)", rsys(SYS_write, 1, gone, 5));
	show("write(pipe, NULL, 5)", rsys(SYS_write, p[1], NULL, 5));
	show("read(pipe, NULL, 4)", rsys(SYS_read, p[0], NULL, 4));
	show("read(pipe, 1, 4)", rsys(SYS_read, p[0], wild, 4));
	show("read(pipe, unmapped, 4)", rsys(SYS_read, p[0], gone, 4));
	show("read(pipe, NULL, 0)", rsys(SYS_read, p[0], NULL, 0));
	show("read(pipe, buf, 16) after them", rsys(SYS_read, p[0], buf, 16));

	show("nanosleep(NULL, NULL)", rsys(SYS_nanosleep, NULL, NULL));
	show("nanosleep(1, NULL)", rsys(SYS_nanosleep, wild, NULL));
	show("nanosleep(unmapped, NULL)", rsys(SYS_nanosleep, gone, NULL));
	show("nanosleep(1 ms, 1)", rsys(SYS_nanosleep, &ts, wild));

	show("clock_gettime(MONOTONIC, NULL)", rsys(SYS_clock_gettime, CLOCK_MONOTONIC, NULL));
	show("clock_gettime(MONOTONIC, 1)", rsys(SYS_clock_gettime, CLOCK_MONOTONIC, wild));
	show("clock_gettime(REALTIME, unmapped)", rsys(SYS_clock_gettime, CLOCK_REALTIME, gone));
	show("clock_gettime(MONOTONIC, &ts)", rsys(SYS_clock_gettime, CLOCK_MONOTONIC, &ts));
	show("clock_getres(MONOTONIC, 1)", rsys(SYS_clock_getres, CLOCK_MONOTONIC, wild));
	show("gettimeofday(NULL, NULL)", rsys(SYS_gettimeofday, NULL, NULL));
	show("gettimeofday(1, NULL)", rsys(SYS_gettimeofday, wild, NULL));

	show("pipe(NULL)", rsys(SYS_pipe, NULL));
	show("pipe(1)", rsys(SYS_pipe, wild));
	show("pipe2(unmapped, 0)", rsys(SYS_pipe2, gone, 0));

	show("uname(NULL)", rsys(SYS_uname, NULL));
	show("uname(1)", rsys(SYS_uname, wild));

	fflush(stdout);
	pid = vfork();
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		die("vfork failed");
	/* Linux reaps the child and then fails to store its status. */
	ret = rsys(SYS_wait4, pid, wild, 0, NULL);
	if (ret == pid)
		printf("wait4(child, 1, 0, NULL) = child\n");
	else
		show("wait4(child, 1, 0, NULL)", ret);
	show("wait4(-1, NULL, 0, NULL) after it", rsys(SYS_wait4, -1, NULL, 0, NULL));
	return 0;
}
