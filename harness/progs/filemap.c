/*
 * filemap: file-backed mmap as the dynamic loader and programs use it,
 * with the same output natively and under umk (tests/dynamic.bats).
 * FILE is a host file of at least 3 pages that nobody writes meanwhile;
 * a tmpfs file is made in /dev/shm as well.
 *
 *   - MAP_PRIVATE read-only at a hint, then MAP_FIXED over part of it;
 *     the bytes are the file's; offsets must be page-aligned (EINVAL)
 *   - the partial last page reads as zeros past the end of the file, and
 *     a page wholly past it is SIGBUS
 *   - mprotect to writable (as RELRO the other way round), writes stay
 *     private: the file and a second mapping keep the file's bytes, and a
 *     child forked afterwards sees the parent's write, then its own
 *   - munmap of a middle page: the pages around it stay, the hole faults
 *   - MAP_SHARED of a read-only fd: PROT_READ works, PROT_WRITE is EACCES
 *   - the same for a file in umk's tmpfs (/dev/shm), and MAP_SHARED of it
 *     read-write is written back to the file
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define PG 4096L

static sigjmp_buf fault_env;

static void on_fault(int sig)
{
	siglongjmp(fault_env, sig);
}

/* Read one byte at p: its value, or -SIGNAL if reading it faults. */
static int peek(const volatile char *p)
{
	int sig = sigsetjmp(fault_env, 1);

	if (sig)
		return -sig;
	return (unsigned char)*p;
}

static const char *same(const char *a, const char *b, size_t n)
{
	return memcmp(a, b, n) ? "differ" : "same";
}

static void checks(const char *what, int fd, const char *bytes, size_t size)
{
	char *p, *q;
	pid_t pid;

	printf("== %s\n", what);
	p = mmap((void *)0x500000000UL, 3 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		die("mmap: %s", errno_name(errno));
	printf("MAP_PRIVATE read-only: the file's bytes: %s\n", same(p, bytes, 3 * PG));
	q = mmap(p + PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 2 * PG);
	printf("MAP_FIXED over page 1 with file page 2: %s\n",
	       q == p + PG && !memcmp(q, bytes + 2 * PG, PG) ? "yes" : "no");
	printf("an offset not page-aligned: %s\n",
	       mmap(NULL, PG, PROT_READ, MAP_PRIVATE, fd, 100) == MAP_FAILED ? errno_name(errno)
									  : "mapped");
	munmap(p, 3 * PG);

	/* the partial last page, and a whole page past the end: SIGBUS */
	p = mmap(NULL, ((size + PG - 1) & ~(PG - 1)) + PG, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("past the end of the file, in its last page: %d\n",
	       size % PG ? peek(p + size) : 0);
	printf("a page wholly past the end of the file: %d\n",
	       peek(p + ((size + PG - 1) & ~(PG - 1))));
	munmap(p, ((size + PG - 1) & ~(PG - 1)) + PG);

	/* writes stay private; a child forked later has the parent's copy */
	p = mmap(NULL, 3 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
	q = mmap(NULL, 3 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("mprotect(PROT_READ|PROT_WRITE): %s\n",
	       mprotect(p + PG, PG, PROT_READ | PROT_WRITE) ? errno_name(errno) : "0");
	memcpy(p + PG, "written", 7);
	printf("after a write, the page: %.7s, the other mapping: %s\n", p + PG,
	       same(q + PG, bytes + PG, 7));
	pid = fork();
	if (pid == 0) {
		printf("the child sees: %.7s\n", p + PG);
		memcpy(p + PG, "child's", 7);
		printf("the child wrote: %.7s\n", p + PG);
		fflush(stdout);
		_exit(0);
	}
	printf("child %s\n", status_text(wait_status(pid)));
	printf("the parent still has: %.7s\n", p + PG);
	printf("read-only again: %s\n", mprotect(p + PG, PG, PROT_READ) ? errno_name(errno) : "0");

	/* munmap of a middle page */
	printf("munmap(page 1): %s\n", munmap(p + PG, PG) ? errno_name(errno) : "0");
	printf("page 0: %s, page 1: %d, page 2: %s\n", same(p, bytes, PG), peek(p + PG),
	       same(p + 2 * PG, bytes + 2 * PG, PG));
	munmap(p, 3 * PG);
	munmap(q, 3 * PG);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_fault };
	char name[64], *bytes, *p;
	struct stat st;
	int fd, rw;

	if (argc != 2)
		die("usage: filemap FILE");
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	setvbuf(stdout, NULL, _IONBF, 0);

	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("%s: %s", argv[1], errno_name(errno));
	if (st.st_size < 3 * PG)
		die("%s: fewer than 3 pages", argv[1]);
	bytes = malloc(st.st_size);
	if (!bytes || pread(fd, bytes, st.st_size, 0) != st.st_size)
		die("read %s", argv[1]);
	checks("a host file", fd, bytes, st.st_size);
	p = mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 0);
	printf("MAP_SHARED PROT_READ of a read-only fd: %s\n",
	       p == MAP_FAILED ? errno_name(errno) : same(p, bytes, PG));
	printf("MAP_SHARED PROT_WRITE of a read-only fd: %s\n",
	       mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED
		       ? errno_name(errno)
		       : "mapped");

	/* the same bytes in a tmpfs file, not a whole number of pages */
	snprintf(name, sizeof(name), "/dev/shm/umk-filemap-%d", getpid());
	rw = open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (rw < 0 || write(rw, bytes, 3 * PG + 100) != 3 * PG + 100)
		die("%s: %s", name, errno_name(errno));
	checks("a tmpfs file", rw, bytes, 3 * PG + 100);
	p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, rw, 0);
	memcpy(p, "shared", 6);
	munmap(p, PG);
	pread(rw, name + 40, 6, 0);
	printf("MAP_SHARED read-write of the tmpfs file, then read(): %.6s\n", name + 40);
	name[40] = '\0';
	unlink(name);
	return 0;
}
