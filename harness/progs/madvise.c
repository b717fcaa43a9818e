/*
 * madvise: what madvise(2) must do, one section per kind of advice, with
 * the same output natively and under umk (tests/madvise.bats). Addresses
 * are never printed.
 *
 *   errors    the argument checks in Linux's order: an unknown advice, an
 *             unaligned start, a length that wraps, length 0; a range with
 *             a hole is ENOMEM, the advice applied to what is mapped
 *   dontneed  MADV_DONTNEED: private anonymous pages read zeros after it,
 *             a shared mapping and a private file mapping keep their data
 *   free      MADV_FREE: only on private anonymous memory (EINVAL on a
 *             shared or a file mapping); pages written after it keep what
 *             was written; V8's pattern (PROT_NONE, then MADV_FREE)
 *   remove    MADV_REMOVE: a shared mapping's pages punched in their object
 *             (a forked child sees the zeros, and so does the file);
 *             EINVAL on private anonymous memory, EACCES on a private file
 *             mapping and on a shared one opened read-only (which
 *             mprotect cannot make writable either: EACCES)
 *   fork      MADV_DONTFORK (the child has no such region: SIGSEGV),
 *             MADV_DOFORK, MADV_WIPEONFORK (the child reads zeros, the
 *             parent keeps its data; EINVAL on shared memory),
 *             MADV_KEEPONFORK
 *   hints     the advice that changes no data: 0 on anonymous memory
 *   populate  MADV_POPULATE_READ and _WRITE, and the protections they
 *             need; a write population counts in VmRSS at once
 *   maps      advice on one page in the middle of a region splits it in
 *             /proc/self/maps, and the opposite advice merges it again
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define PAGE 4096UL

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif


static char *map(size_t pages, int prot, int flags)
{
	char *p = mmap(NULL, pages * PAGE, prot, flags | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap of %zu pages failed", pages);
	return p;
}

static long adv(const char *what, void *addr, size_t len, int advice)
{
	return show(what, rsys(SYS_madvise, addr, len, advice));
}

/* Is every byte of [p, p + len) c? */
static int all(const char *p, size_t len, char c)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

/* A file of pages pages, each byte 'f', in dir: its fd, open O_RDWR, and
 * already unlinked. */
static int scratch_file(const char *dir, size_t pages)
{
	char path[256];
	char buf[PAGE];
	int fd;

	snprintf(path, sizeof(path), "%s/madvise.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		die("mkstemp in %s failed", dir);
	unlink(path);
	memset(buf, 'f', sizeof(buf));
	for (size_t i = 0; i < pages; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write to the scratch file failed");
	return fd;
}

/* Run fn in a forked child: how it ended. */
static const char *in_child(void (*fn)(char *), char *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		fn(arg);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid failed");
	return status_text(status);
}

static void errors(void)
{
	char *p = map(4, PROT_READ | PROT_WRITE, MAP_PRIVATE);

	adv("madvise(advice 999)", p, PAGE, 999);
	adv("madvise(advice 999, length 0)", p, 0, 999);
	adv("madvise(start not page aligned)", p + 1, PAGE, MADV_NORMAL);
	adv("madvise(length 0)", p, 0, MADV_DONTNEED);
	adv("madvise(length -1)", p, (size_t)-1, MADV_NORMAL);
	adv("madvise(a length that wraps past the top)", p, -(unsigned long)p, MADV_NORMAL);
	/* A hole in the middle: ENOMEM, and the pages on both sides of it are
	 * dropped all the same. */
	memset(p, 'x', 4 * PAGE);
	munmap(p + PAGE, PAGE);
	adv("madvise(4 pages, the 2nd unmapped, MADV_DONTNEED)", p, 4 * PAGE, MADV_DONTNEED);
	check("the pages around the hole read zeros", all(p, PAGE, 0) && all(p + 2 * PAGE, 2 * PAGE, 0));
	adv("madvise(only the hole)", p + PAGE, PAGE, MADV_NORMAL);
	munmap(p, 4 * PAGE);
}

static void dontneed(void)
{
	char *priv = map(3, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	char *shared = map(2, PROT_READ | PROT_WRITE, MAP_SHARED);
	int fd = scratch_file("/tmp", 2);
	char *file = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);

	if (file == MAP_FAILED)
		die("mmap of the scratch file failed");
	memset(priv, 'p', 3 * PAGE);
	memset(shared, 's', 2 * PAGE);
	adv("madvise(private anonymous, pages 2-3, MADV_DONTNEED)", priv + PAGE, 2 * PAGE,
	    MADV_DONTNEED);
	check("page 1 keeps its data", all(priv, PAGE, 'p'));
	check("pages 2-3 read zeros", all(priv + PAGE, 2 * PAGE, 0));
	priv[PAGE] = 'q';
	check("a dropped page can be written again", priv[PAGE] == 'q' && priv[PAGE + 1] == 0);
	adv("madvise(shared anonymous, MADV_DONTNEED)", shared, 2 * PAGE, MADV_DONTNEED);
	check("the shared pages keep their data", all(shared, 2 * PAGE, 's'));
	adv("madvise(private file, MADV_DONTNEED)", file, 2 * PAGE, MADV_DONTNEED);
	check("the file's pages read the file", all(file, 2 * PAGE, 'f'));
	adv("madvise(private anonymous, MADV_DONTNEED_LOCKED)", priv, PAGE, MADV_DONTNEED_LOCKED);
	check("its page reads zeros", all(priv, PAGE, 0));
	munmap(priv, 3 * PAGE);
	munmap(shared, 2 * PAGE);
	munmap(file, 2 * PAGE);
	close(fd);
}

static void free_(void)
{
	char *priv = map(2, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	char *shared = map(1, PROT_READ | PROT_WRITE, MAP_SHARED);
	int fd = scratch_file("/tmp", 1);
	char *file = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 0);

	if (file == MAP_FAILED)
		die("mmap of the scratch file failed");
	memset(priv, 'p', 2 * PAGE);
	adv("madvise(private anonymous, MADV_FREE)", priv, 2 * PAGE, MADV_FREE);
	/* The pages' contents are the kernel's to keep or drop until the next
	 * write; what is written after the advice stays. */
	memset(priv, 'w', PAGE);
	check("a page written after MADV_FREE holds what was written", all(priv, PAGE, 'w'));
	adv("madvise(shared anonymous, MADV_FREE)", shared, PAGE, MADV_FREE);
	adv("madvise(private file, MADV_FREE)", file, PAGE, MADV_FREE);
	/* V8 gives back memory it made inaccessible so. */
	mprotect(priv, 2 * PAGE, PROT_NONE);
	adv("madvise(PROT_NONE private anonymous, MADV_FREE)", priv, 2 * PAGE, MADV_FREE);
	munmap(priv, 2 * PAGE);
	munmap(shared, PAGE);
	munmap(file, PAGE);
	close(fd);
}

static void child_reads_zeros(char *p)
{
	printf("child: the removed page reads %s\n", all(p, PAGE, 0) ? "zeros" : "data");
}

static void remove_(void)
{
	char *shared = map(2, PROT_READ | PROT_WRITE, MAP_SHARED);
	char *priv = map(1, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	int fd = scratch_file("/tmp", 2);
	int rofd;
	char *fshared, *fpriv, *fro, path[64];
	char buf[PAGE];

	memset(shared, 's', 2 * PAGE);
	adv("madvise(shared anonymous, page 2, MADV_REMOVE)", shared + PAGE, PAGE, MADV_REMOVE);
	check("page 1 keeps its data", all(shared, PAGE, 's'));
	check("page 2 reads zeros", all(shared + PAGE, PAGE, 0));
	printf("child: %s\n", in_child(child_reads_zeros, shared + PAGE));
	adv("madvise(private anonymous, MADV_REMOVE)", priv, PAGE, MADV_REMOVE);

	fshared = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	fpriv = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fshared == MAP_FAILED || fpriv == MAP_FAILED)
		die("mmap of the scratch file failed");
	adv("madvise(private file, MADV_REMOVE)", fpriv, PAGE, MADV_REMOVE);
	adv("madvise(shared file, page 1, MADV_REMOVE)", fshared, PAGE, MADV_REMOVE);
	check("the mapping's page 1 reads zeros", all(fshared, PAGE, 0));
	check("the file's page 1 reads zeros (pread)",
	      pread(fd, buf, PAGE, 0) == (ssize_t)PAGE && all(buf, PAGE, 0));
	check("the file's page 2 keeps its data (pread)",
	      pread(fd, buf, PAGE, PAGE) == (ssize_t)PAGE && all(buf, PAGE, 'f'));
	check("the file keeps its size", lseek(fd, 0, SEEK_END) == (off_t)(2 * PAGE));

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rofd = open(path, O_RDONLY);
	fro = rofd < 0 ? MAP_FAILED : mmap(NULL, PAGE, PROT_READ, MAP_SHARED, rofd, PAGE);
	if (fro == MAP_FAILED)
		die("mmap of the scratch file read-only failed");
	adv("madvise(shared file opened read-only, MADV_REMOVE)", fro, PAGE, MADV_REMOVE);
	check("its page keeps its data", all(fro, PAGE, 'f'));
	show("mprotect(shared file opened read-only, PROT_WRITE)",
	     rsys(SYS_mprotect, fro, PAGE, PROT_READ | PROT_WRITE));
	munmap(shared, 2 * PAGE);
	munmap(priv, PAGE);
	munmap(fshared, 2 * PAGE);
	munmap(fpriv, 2 * PAGE);
	munmap(fro, PAGE);
	close(rofd);
	close(fd);
}

static void child_touches(char *p)
{
	printf("child: the page reads %s\n", all(p, PAGE, 'd') ? "the data" :
	       all(p, PAGE, 0) ? "zeros" : "something else");
}

static void fork_(void)
{
	char *p = map(3, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	char *shared = map(1, PROT_READ | PROT_WRITE, MAP_SHARED);

	memset(p, 'd', 3 * PAGE);
	fflush(stdout);
	adv("madvise(page 2, MADV_DONTFORK)", p + PAGE, PAGE, MADV_DONTFORK);
	printf("child reading page 1: %s\n", in_child(child_touches, p));
	printf("child reading page 2: %s\n", in_child(child_touches, p + PAGE));
	adv("madvise(page 2, MADV_DOFORK)", p + PAGE, PAGE, MADV_DOFORK);
	printf("child reading page 2: %s\n", in_child(child_touches, p + PAGE));

	adv("madvise(page 3, MADV_WIPEONFORK)", p + 2 * PAGE, PAGE, MADV_WIPEONFORK);
	printf("child reading page 3: %s\n", in_child(child_touches, p + 2 * PAGE));
	check("the parent's page 3 keeps its data", all(p + 2 * PAGE, PAGE, 'd'));
	adv("madvise(page 3, MADV_KEEPONFORK)", p + 2 * PAGE, PAGE, MADV_KEEPONFORK);
	printf("child reading page 3: %s\n", in_child(child_touches, p + 2 * PAGE));
	adv("madvise(shared anonymous, MADV_WIPEONFORK)", shared, PAGE, MADV_WIPEONFORK);
	adv("madvise(shared anonymous, MADV_KEEPONFORK)", shared, PAGE, MADV_KEEPONFORK);
	munmap(p, 3 * PAGE);
	munmap(shared, PAGE);
}

static void hints(void)
{
	static const struct {
		const char *name;
		int advice;
	} hint[] = {
		{ "MADV_NORMAL", MADV_NORMAL },
		{ "MADV_RANDOM", MADV_RANDOM },
		{ "MADV_SEQUENTIAL", MADV_SEQUENTIAL },
		{ "MADV_WILLNEED", MADV_WILLNEED },
		{ "MADV_COLD", MADV_COLD },
		{ "MADV_PAGEOUT", MADV_PAGEOUT },
		{ "MADV_HUGEPAGE", MADV_HUGEPAGE },
		{ "MADV_NOHUGEPAGE", MADV_NOHUGEPAGE },
		{ "MADV_DONTDUMP", MADV_DONTDUMP },
		{ "MADV_DODUMP", MADV_DODUMP },
	};
	char *p = map(2, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	char what[80];

	memset(p, 'h', 2 * PAGE);
	for (size_t i = 0; i < sizeof(hint) / sizeof(hint[0]); i++) {
		snprintf(what, sizeof(what), "madvise(%s)", hint[i].name);
		adv(what, p, 2 * PAGE, hint[i].advice);
	}
	check("the pages keep their data", all(p, 2 * PAGE, 'h'));
	munmap(p, 2 * PAGE);
}

/* VmRSS of /proc/self/status, in KiB. */
static long vm_rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;

	if (!f)
		die("cannot open /proc/self/status");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void populate(void)
{
	char *rw = map(2, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	long rss;
	char *ro = map(1, PROT_READ, MAP_PRIVATE);
	char *none = map(1, PROT_NONE, MAP_PRIVATE);

	adv("madvise(read-write, MADV_POPULATE_READ)", rw, 2 * PAGE, MADV_POPULATE_READ);
	adv("madvise(read-write, MADV_POPULATE_WRITE)", rw, 2 * PAGE, MADV_POPULATE_WRITE);
	check("populated pages read zeros", all(rw, 2 * PAGE, 0));
	adv("madvise(read-only, MADV_POPULATE_READ)", ro, PAGE, MADV_POPULATE_READ);
	adv("madvise(read-only, MADV_POPULATE_WRITE)", ro, PAGE, MADV_POPULATE_WRITE);
	adv("madvise(PROT_NONE, MADV_POPULATE_READ)", none, PAGE, MADV_POPULATE_READ);
	adv("madvise(PROT_NONE, MADV_POPULATE_WRITE)", none, PAGE, MADV_POPULATE_WRITE);
	munmap(none, PAGE);
	adv("madvise(unmapped, MADV_POPULATE_READ)", none, PAGE, MADV_POPULATE_READ);
	munmap(rw, 2 * PAGE);
	munmap(ro, PAGE);

	/* A write population gives the pages their memory now. */
	rw = map(1024, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	rss = vm_rss_kib();
	adv("madvise(4 MiB, MADV_POPULATE_WRITE)", rw, 1024 * PAGE, MADV_POPULATE_WRITE);
	check("VmRSS grew by at least 4 MiB", vm_rss_kib() - rss >= 4096);
	munmap(rw, 1024 * PAGE);
}

/* The lines of /proc/self/maps that meet [p, p + len). */
static int maps_lines(char *p, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long s, e;
	char line[512];
	int n = 0;

	if (!f)
		die("cannot open /proc/self/maps");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && s < (unsigned long)p + len &&
		    e > (unsigned long)p)
			n++;
	fclose(f);
	return n;
}

static void maps(void)
{
	char *p = map(3, PROT_READ | PROT_WRITE, MAP_PRIVATE);

	printf("/proc/self/maps: %d region(s)\n", maps_lines(p, 3 * PAGE));
	adv("madvise(page 2, MADV_DONTFORK)", p + PAGE, PAGE, MADV_DONTFORK);
	printf("/proc/self/maps: %d region(s)\n", maps_lines(p, 3 * PAGE));
	adv("madvise(page 2, MADV_DOFORK)", p + PAGE, PAGE, MADV_DOFORK);
	printf("/proc/self/maps: %d region(s)\n", maps_lines(p, 3 * PAGE));
	adv("madvise(page 2, MADV_DONTNEED)", p + PAGE, PAGE, MADV_DONTNEED);
	printf("/proc/self/maps: %d region(s)\n", maps_lines(p, 3 * PAGE));
	munmap(p, 3 * PAGE);
}

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "errors", errors }, { "dontneed", dontneed }, { "free", free_ },
		{ "remove", remove_ }, { "fork", fork_ }, { "hints", hints },
		{ "populate", populate }, { "maps", maps },
	};

	return run_sections("madvise", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
