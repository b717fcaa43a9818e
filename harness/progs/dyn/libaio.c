/* libaio: a dynamically linked host program (gcc, glibc) that uses
 * Debian's libaio as a program would, for tests/aio.bats: io_setup, a
 * PWRITE and a PREAD by io_prep_pwrite and io_prep_pread, io_submit,
 * io_getevents (libaio's, which reads the ring's header in user space
 * for a zero timeout and otherwise makes the call), io_destroy.
 * Exits 1 with a line on stderr when a call fails. */
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fail(const char *what, int ret)
{
	fprintf(stderr, "libaio: %s: %s\n", what, strerror(-ret));
	exit(1);
}

int main(void)
{
	char path[] = "/tmp/libaio.XXXXXX", out[6] = "";
	struct timespec zero = { 0, 0 };
	struct iocb w, r, *cbs[1];
	struct io_event ev[2];
	io_context_t ctx = 0;
	int fd = mkstemp(path), ret;

	if (fd < 0)
		fail("mkstemp", -1);
	unlink(path);
	if ((ret = io_setup(4, &ctx)))
		fail("io_setup", ret);
	printf("io_getevents on an empty ring, zero timeout: %d\n", io_getevents(ctx, 0, 2, ev, &zero));
	io_prep_pwrite(&w, fd, "hello", 5, 0);
	w.data = (void *)"the write";
	cbs[0] = &w;
	if ((ret = io_submit(ctx, 1, cbs)) != 1)
		fail("io_submit", ret);
	io_prep_pread(&r, fd, out, 5, 0);
	r.data = (void *)"the read";
	cbs[0] = &r;
	if ((ret = io_submit(ctx, 1, cbs)) != 1)
		fail("io_submit", ret);
	ret = io_getevents(ctx, 2, 2, ev, NULL);
	printf("io_getevents: %d\n", ret);
	for (int i = 0; i < ret; i++)
		printf("  %s: res %ld\n", (char *)ev[i].data, (long)ev[i].res);
	printf("read back: %s\n", out);
	if ((ret = io_destroy(ctx)))
		fail("io_destroy", ret);
	close(fd);
	return 0;
}
