/*
 * mremap: what mremap(2) must do, one section per argument, with the same
 * output natively and under umk (tests/mremap.bats). Addresses are never
 * printed: a result is "the old address", "new_address" (the one asked
 * for with MREMAP_FIXED), "another address" or an errno name.
 *
 *   grow       in place when the space after is free, ENOMEM without
 *              MREMAP_MAYMOVE when it is not or the range does not end its
 *              region
 *   shrink     the tail unmapped (across regions too); grown back in
 *              place, it reads zeros
 *   move       MREMAP_MAYMOVE when it cannot grow in place: every byte
 *              moved, the old range faults, /proc/self/maps shows the new
 *              range and not the old, a forked child has the moved pages;
 *              a range inside a region moved out
 *   big        a 100 MiB block grown to 200 MiB by a move: a few bytes of
 *              each page checked
 *   sparse     a 512 MiB block with 3 pages written, moved: the move takes
 *              no memory for the pages never touched (ru_maxrss)
 *   fixed      MREMAP_FIXED over an existing mapping, growing, shrinking
 *   dontunmap  MREMAP_DONTUNMAP: the old private range stays mapped and
 *              reads zeros, the new one has the data; with MREMAP_FIXED;
 *              a shared range stays shared with the new one
 *   shared     a MAP_SHARED anonymous mapping moved is still shared with a
 *              forked child; old_size 0 duplicates it; shrunk and grown
 *              back it shows its object's pages; grown past its object it
 *              raises SIGBUS there
 *   errors     each error, in Linux's order
 *   limits     RLIMIT_AS and RLIMIT_DATA, as for mmap
 *   multi      Linux 6.17's MREMAP_FIXED of several regions at once (gaps
 *              kept), and the argument checks it made come first
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define PAGE 4096UL
#define MIB (1UL << 20)


static char *map(size_t pages, int prot, int flags)
{
	char *p = mmap(NULL, pages * PAGE, prot, flags | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap of %zu pages failed", pages);
	return p;
}

static char *map_rw(size_t pages)
{
	return map(pages, PROT_READ | PROT_WRITE, MAP_PRIVATE);
}

/* The raw call, its result described: the kernel's own errno, or where
 * the range went relative to old and new ("an address" only, for a call
 * whose range may or may not grow in place, with any_addr). */
static long mremap_as(const char *what, void *old, size_t old_len, size_t new_len, long flags,
		      void *new_addr, int any_addr)
{
	long r = rsys(SYS_mremap, old, old_len, new_len, flags, new_addr);

	if (r < 0 && r > -4096)
		printf("%s = -1 %s\n", what, errno_name((int)-r));
	else if (any_addr)
		printf("%s = an address\n", what);
	else if (r == (long)old)
		printf("%s = the old address\n", what);
	else if (r == (long)new_addr && (flags & MREMAP_FIXED))
		printf("%s = new_address\n", what);
	else
		printf("%s = another address\n", what);
	return r;
}

static long mr(const char *what, void *old, size_t old_len, size_t new_len, long flags,
	       void *new_addr)
{
	return mremap_as(what, old, old_len, new_len, flags, new_addr, 0);
}

/* Byte j of page i of a block filled with seed. */
static unsigned char pattern(int seed, size_t i, size_t j)
{
	return (unsigned char)(seed * 61 + i * 31 + j * 7 + 1);
}

/* Pages [from, to) of the block at base, every byte, or only the first
 * and last of each page when sparse. */
static void fill(char *base, size_t from, size_t to, int seed, int sparse)
{
	for (size_t i = from; i < to; i++) {
		char *pg = base + i * PAGE;

		if (sparse) {
			pg[0] = (char)pattern(seed, i, 0);
			pg[PAGE - 1] = (char)pattern(seed, i, PAGE - 1);
			continue;
		}
		for (size_t j = 0; j < PAGE; j++)
			pg[j] = (char)pattern(seed, i, j);
	}
}

/* Do pages [from, to) of the block at base hold what fill wrote there,
 * the block's page i now at base + (i - shift) pages? */
static int holds(const char *base, size_t from, size_t to, int seed, int sparse, long shift)
{
	for (size_t i = from; i < to; i++) {
		const unsigned char *pg = (const unsigned char *)base + (i - shift) * PAGE;

		if (sparse) {
			if (pg[0] != pattern(seed, i, 0) || pg[PAGE - 1] != pattern(seed, i, PAGE - 1))
				return 0;
			continue;
		}
		for (size_t j = 0; j < PAGE; j++)
			if (pg[j] != pattern(seed, i, j))
				return 0;
	}
	return 1;
}

static int zeros(const char *p, size_t pages, size_t step)
{
	for (size_t i = 0; i < pages; i += step)
		for (size_t j = 0; j < PAGE; j++)
			if (p[i * PAGE + j])
				return 0;
	return 1;
}

static sigjmp_buf probe_env;

static void probe_fault(int sig)
{
	siglongjmp(probe_env, sig);
}

/* The signal a read (or a write, of the byte read) at p raises: 0,
 * SIGSEGV or SIGBUS. */
static int probe(volatile char *p, int write)
{
	struct sigaction sa = { .sa_handler = probe_fault }, old_segv, old_bus;
	int sig;

	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	sig = sigsetjmp(probe_env, 1);
	if (!sig) {
		char c = *p;

		if (write)
			*p = c;
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return sig;
}

static const char *sig_text(int sig)
{
	return sig ? signal_name(sig) : "no signal";
}

/* What /proc/self/maps says of [p, p + len): "listed" when its lines
 * cover it, "absent" when none meets it, else "partly listed". Read
 * without stdio, whose buffer malloc could map in the range looked at. */
static const char *in_maps(const char *p, size_t len)
{
	static char buf[1 << 16];
	unsigned long start = (unsigned long)p, end = start + len, covered = 0;
	int fd = open("/proc/self/maps", O_RDONLY), met = 0;
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		die("cannot open /proc/self/maps");
	while (n < sizeof(buf) - 1 && (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = 0;
	for (char *line = buf; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
		char *dash;
		unsigned long s = strtoul(line, &dash, 16), e = strtoul(dash + 1, NULL, 16);

		if (e <= start || s >= end)
			continue;
		met = 1;
		covered += (e < end ? e : end) - (s > start ? s : start);
	}
	return covered == len ? "listed" : met ? "partly listed" : "absent";
}

static void grow(void)
{
	char *p = map_rw(8), *q;

	munmap(p + 2 * PAGE, 6 * PAGE);
	fill(p, 0, 2, 1, 0);
	mr("mremap 2 pages to 4, free space after", p, 2 * PAGE, 4 * PAGE, 0, NULL);
	check("the 2 pages keep their data", holds(p, 0, 2, 1, 0, 0));
	check("the 2 new pages read zeros", zeros(p + 2 * PAGE, 2, 1));
	printf("writing the last new page: %s\n", sig_text(probe(p + 4 * PAGE - 1, 1)));
	mr("mremap 4 pages to 6, MREMAP_MAYMOVE, free space after", p, 4 * PAGE, 6 * PAGE,
	   MREMAP_MAYMOVE, NULL);
	printf("/proc/self/maps: the 6 pages %s\n", in_maps(p, 6 * PAGE));
	q = mmap(p + 6 * PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (q == MAP_FAILED)
		die("mmap after the region failed");
	mr("mremap 6 pages to 8, a mapping after them", p, 6 * PAGE, 8 * PAGE, 0, NULL);
	mr("mremap the first 2 pages of 6 to 3", p, 2 * PAGE, 3 * PAGE, 0, NULL);
	check("the region is unchanged", holds(p, 0, 2, 1, 0, 0) && zeros(p + 2 * PAGE, 4, 1));
	munmap(p, 7 * PAGE);
}

static void shrink(void)
{
	char *p = map_rw(8);

	fill(p, 0, 8, 2, 0);
	mr("mremap 8 pages to 3", p, 8 * PAGE, 3 * PAGE, 0, NULL);
	check("the 3 pages keep their data", holds(p, 0, 3, 2, 0, 0));
	printf("reading the 4th page: %s\n", sig_text(probe(p + 3 * PAGE, 0)));
	printf("/proc/self/maps: the 5 pages given back %s\n", in_maps(p + 3 * PAGE, 5 * PAGE));
	mr("mremap 3 pages back to 8", p, 3 * PAGE, 8 * PAGE, 0, NULL);
	check("the 5 pages taken again read zeros", zeros(p + 3 * PAGE, 5, 1));
	check("the 3 pages still hold their data", holds(p, 0, 3, 2, 0, 0));
	/* a shrink unmaps the tail whatever regions it covers */
	mprotect(p + 4 * PAGE, 2 * PAGE, PROT_READ);
	mr("mremap 8 pages of 3 regions to 2", p, 8 * PAGE, 2 * PAGE, 0, NULL);
	printf("/proc/self/maps: the 6 pages given back %s\n", in_maps(p + 2 * PAGE, 6 * PAGE));
	mr("mremap 2 pages to 2", p, 2 * PAGE, 2 * PAGE, 0, NULL);
	mr("mremap 2 pages to 1 byte", p, 2 * PAGE, 1, 0, NULL);
	printf("/proc/self/maps: 1 page left %s, the next %s\n", in_maps(p, PAGE),
	       in_maps(p + PAGE, PAGE));
	munmap(p, PAGE);
}

static void move(void)
{
	enum { N = 64 };
	char *p = map_rw(N + 1), *q;
	pid_t pid;

	/* A read-only page right after: the block cannot grow in place. */
	mprotect(p + N * PAGE, PAGE, PROT_READ);
	fill(p, 0, N, 3, 0);
	q = (char *)mr("mremap 64 pages to 128, MREMAP_MAYMOVE, a mapping after them", p,
		       N * PAGE, 2 * N * PAGE, MREMAP_MAYMOVE, NULL);
	check("every byte of the 64 pages moved", holds(q, 0, N, 3, 0, 0));
	check("the 64 new pages read zeros", zeros(q + N * PAGE, N, 1));
	printf("writing the last page: %s\n", sig_text(probe(q + 2 * N * PAGE - 1, 1)));
	printf("reading the old range: %s\n", sig_text(probe(p, 0)));
	printf("reading the old range's last page: %s\n", sig_text(probe(p + (N - 1) * PAGE, 0)));
	printf("/proc/self/maps: the new range %s, the old range %s, the page after it %s\n",
	       in_maps(q, 2 * N * PAGE), in_maps(p, N * PAGE), in_maps(p + N * PAGE, PAGE));
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0)
		_exit(holds(q, 0, N, 3, 0, 0) && zeros(q + N * PAGE, N, 1) && probe(p, 0) ? 0 : 1);
	printf("a forked child finds the moved pages, and nothing at the old range: %s\n",
	       status_text(wait_status(pid)));
	munmap(q, 2 * N * PAGE);
	munmap(p + N * PAGE, PAGE);

	/* Pages 2-3 of an 8-page region, grown: they leave it. */
	p = map_rw(8);
	fill(p, 0, 8, 4, 0);
	q = (char *)mr("mremap pages 2-3 of 8 to 4 pages, MREMAP_MAYMOVE", p + 2 * PAGE,
		       2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE, NULL);
	check("the 2 pages moved with their data", holds(q, 2, 4, 4, 0, 2));
	check("the 2 pages after them read zeros", zeros(q + 2 * PAGE, 2, 1));
	check("pages 0-1 and 4-7 stay", holds(p, 0, 2, 4, 0, 0) && holds(p, 4, 8, 4, 0, 0));
	printf("reading page 2: %s\n", sig_text(probe(p + 2 * PAGE, 0)));
	munmap(p, 8 * PAGE);
	munmap(q, 4 * PAGE);
}

static void big(void)
{
	size_t pages = 100 * MIB / PAGE;
	char *p = map_rw(pages + 1), *q;

	mprotect(p + pages * PAGE, PAGE, PROT_NONE);
	fill(p, 0, pages, 5, 1);
	q = (char *)mr("mremap 100 MiB to 200 MiB, MREMAP_MAYMOVE, a mapping after it", p,
		       pages * PAGE, 2 * pages * PAGE, MREMAP_MAYMOVE, NULL);
	check("the first and last byte of each of the 25600 pages moved",
	      holds(q, 0, pages, 5, 1, 0));
	check("one page in 64 of the new 100 MiB reads zeros", zeros(q + pages * PAGE, pages, 64));
	printf("reading the old range: %s\n", sig_text(probe(p + pages / 2 * PAGE, 0)));
	munmap(q, 2 * pages * PAGE);
	munmap(p + pages * PAGE, PAGE);
}

static long maxrss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static void sparse(void)
{
	size_t pages = 512 * MIB / PAGE;
	char *p = map(pages + 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE), *q;
	long before;

	mprotect(p + pages * PAGE, PAGE, PROT_NONE);
	fill(p, 0, 1, 15, 0);
	fill(p, pages / 2, pages / 2 + 1, 15, 0);
	fill(p, pages - 1, pages, 15, 0);
	before = maxrss_kib();
	q = (char *)mr("mremap 512 MiB, 3 pages written, to 512 MiB and a page, MREMAP_MAYMOVE", p,
		       pages * PAGE, (pages + 1) * PAGE, MREMAP_MAYMOVE, NULL);
	check("the 3 pages moved", holds(q, 0, 1, 15, 0, 0) &&
					  holds(q, pages / 2, pages / 2 + 1, 15, 0, 0) &&
					  holds(q, pages - 1, pages, 15, 0, 0));
	check("the resident size grew by less than 8 MiB", maxrss_kib() - before < 8 * 1024);
	munmap(q, (pages + 1) * PAGE);
	munmap(p + pages * PAGE, PAGE);
}

static void fixed(void)
{
	char *src = map_rw(4), *dst = map_rw(8), *a, *b;

	fill(src, 0, 4, 6, 0);
	fill(dst, 0, 8, 7, 0);
	mr("mremap 4 pages to 4, MREMAP_FIXED at pages 2-5 of an 8-page mapping", src, 4 * PAGE,
	   4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst + 2 * PAGE);
	check("pages 2-5 hold the moved data", holds(dst + 2 * PAGE, 0, 4, 6, 0, 0));
	check("pages 0-1 and 6-7 keep theirs", holds(dst, 0, 2, 7, 0, 0) && holds(dst, 6, 8, 7, 0, 0));
	printf("reading the old range: %s\n", sig_text(probe(src, 0)));
	printf("/proc/self/maps: the old range %s\n", in_maps(src, 4 * PAGE));

	a = map_rw(2);
	fill(a, 0, 2, 8, 0);
	mr("mremap 2 pages to 4, MREMAP_FIXED at page 0", a, 2 * PAGE, 4 * PAGE,
	   MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	check("pages 0-1 hold the moved data, 2-3 zeros", holds(dst, 0, 2, 8, 0, 0) &&
							     zeros(dst + 2 * PAGE, 2, 1));
	check("pages 4-5 keep the data moved there before", holds(dst + 2 * PAGE, 2, 4, 6, 0, 0));

	b = map_rw(4);
	fill(b, 0, 4, 9, 0);
	mr("mremap 4 pages to 1, MREMAP_FIXED at page 6", b, 4 * PAGE, PAGE,
	   MREMAP_MAYMOVE | MREMAP_FIXED, dst + 6 * PAGE);
	check("page 6 holds the first page moved, page 7 its own",
	      holds(dst + 6 * PAGE, 0, 1, 9, 0, 0) && holds(dst, 7, 8, 7, 0, 0));
	printf("/proc/self/maps: the old 4 pages %s\n", in_maps(b, 4 * PAGE));
	munmap(dst, 8 * PAGE);
}

static void dontunmap(void)
{
	char *p = map_rw(4), *q, *r, *scratch = map_rw(4), *s, *t;

	fill(p, 0, 4, 10, 0);
	q = (char *)mr("mremap 4 pages, MREMAP_MAYMOVE | MREMAP_DONTUNMAP", p, 4 * PAGE, 4 * PAGE,
		       MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	check("the new range has the data", holds(q, 0, 4, 10, 0, 0));
	check("the old range reads zeros", zeros(p, 4, 1));
	printf("writing the old range: %s\n", sig_text(probe(p + PAGE, 1)));
	p[5] = 1;
	check("a write there is its own", p[5] == 1 && holds(q, 0, 4, 10, 0, 0));
	printf("/proc/self/maps: the old range %s, the new %s\n", in_maps(p, 4 * PAGE),
	       in_maps(q, 4 * PAGE));

	r = (char *)mr("mremap 4 pages, MREMAP_DONTUNMAP | MREMAP_FIXED", q, 4 * PAGE, 4 * PAGE,
		       MREMAP_MAYMOVE | MREMAP_DONTUNMAP | MREMAP_FIXED, scratch);
	check("the new range has the data", holds(r, 0, 4, 10, 0, 0));
	check("the old range reads zeros", zeros(q, 4, 1));
	munmap(p, 4 * PAGE);
	munmap(q, 4 * PAGE);
	munmap(r, 4 * PAGE);

	s = map(2, PROT_READ | PROT_WRITE, MAP_SHARED);
	fill(s, 0, 2, 11, 0);
	t = (char *)mr("mremap 2 shared pages, MREMAP_MAYMOVE | MREMAP_DONTUNMAP", s, 2 * PAGE,
		       2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	check("both ranges show the data", holds(t, 0, 2, 11, 0, 0) && holds(s, 0, 2, 11, 0, 0));
	t[7] = 0x5a;
	check("a write to the new range shows in the old", s[7] == 0x5a);
	munmap(s, 2 * PAGE);
	munmap(t, 2 * PAGE);
}

static void shared(void)
{
	char *p = map(4, PROT_READ | PROT_WRITE, MAP_SHARED), *scratch = map_rw(4), *q, *d, *m;
	pid_t pid;

	fill(p, 0, 4, 12, 0);
	q = (char *)mr("mremap 4 shared pages, MREMAP_FIXED", p, 4 * PAGE, 4 * PAGE,
		       MREMAP_MAYMOVE | MREMAP_FIXED, scratch);
	check("the moved range has the data", holds(q, 0, 4, 12, 0, 0));
	printf("reading the old range: %s\n", sig_text(probe(p, 0)));
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		q[0] = 0x77;
		q[3 * PAGE + 5] = 0x66;
		_exit(0);
	}
	printf("child: %s\n", status_text(wait_status(pid)));
	check("the parent sees the child's writes", q[0] == 0x77 && q[3 * PAGE + 5] == 0x66);

	d = (char *)mr("mremap old_size 0, 4 pages, MREMAP_MAYMOVE", q, 0, 4 * PAGE,
		       MREMAP_MAYMOVE, NULL);
	check("the duplicate shows the same pages", d[0] == 0x77 && holds(d, 1, 3, 12, 0, 0));
	d[PAGE] = 0x11;
	check("a write to the duplicate shows in the original", q[PAGE] == 0x11);
	mr("mremap old_size 0, 4 pages", q, 0, 4 * PAGE, 0, NULL);
	munmap(d, 4 * PAGE);

	mr("mremap 4 shared pages to 2", q, 4 * PAGE, 2 * PAGE, 0, NULL);
	q = (char *)rsys(SYS_mremap, q, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE, 0);
	check("grown back to 4, pages 2-3 show the object's data again",
	      holds(q, 2, 3, 12, 0, 0) && q[3 * PAGE + 5] == 0x66);
	munmap(q, 4 * PAGE);

	m = map(1, PROT_READ | PROT_WRITE, MAP_SHARED);
	scratch = map_rw(2);
	m = (char *)mr("mremap a 1-page shared mapping to 2 pages, MREMAP_FIXED", m, PAGE,
		       2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, scratch);
	printf("reading page 0: %s, page 1 (past the object): %s\n", sig_text(probe(m, 0)),
	       sig_text(probe(m + PAGE, 0)));
	munmap(m, 2 * PAGE);
}

static void errors(void)
{
	char *p = map_rw(5), *gone = map_rw(1);

	munmap(gone, PAGE);
	/* p's 4 pages, then a read-only page: a range leaving the region */
	mprotect(p + 4 * PAGE, PAGE, PROT_READ);
	mr("unaligned addr", p + 1, PAGE, 2 * PAGE, MREMAP_MAYMOVE, NULL);
	mr("flags 8", p, PAGE, 2 * PAGE, 8, NULL);
	mr("flags 8, unmapped addr", gone, PAGE, 2 * PAGE, 8, NULL);
	mr("new_size 0", p, PAGE, 0, MREMAP_MAYMOVE, NULL);
	mr("MREMAP_FIXED without MREMAP_MAYMOVE", p, PAGE, PAGE, MREMAP_FIXED, gone);
	mr("MREMAP_DONTUNMAP without MREMAP_MAYMOVE", p, PAGE, PAGE, MREMAP_DONTUNMAP, NULL);
	mr("MREMAP_DONTUNMAP changing the size", p, PAGE, 2 * PAGE,
	   MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	mr("MREMAP_FIXED to an unaligned address", p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
	   gone + 1);
	mr("MREMAP_FIXED overlapping the old range", p, 2 * PAGE, 2 * PAGE,
	   MREMAP_MAYMOVE | MREMAP_FIXED, p + PAGE);
	mr("MREMAP_FIXED growing over the old range", p, PAGE, 3 * PAGE,
	   MREMAP_MAYMOVE | MREMAP_FIXED, p - PAGE);
	mr("MREMAP_FIXED past the user address space", p, PAGE, 2 * PAGE,
	   MREMAP_MAYMOVE | MREMAP_FIXED, (void *)((1UL << 47) - PAGE));
	mr("unmapped addr", gone, PAGE, 2 * PAGE, 0, NULL);
	mr("unmapped addr, MREMAP_MAYMOVE", gone, PAGE, 2 * PAGE, MREMAP_MAYMOVE, NULL);
	mr("unmapped addr, shrinking", gone, 2 * PAGE, PAGE, 0, NULL);
	mr("unmapped addr, same size", gone, PAGE, PAGE, 0, NULL);
	mr("unmapped addr, MREMAP_DONTUNMAP", gone, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP,
	   NULL);
	mr("growing a range that leaves its region, MREMAP_MAYMOVE", p, 5 * PAGE, 6 * PAGE,
	   MREMAP_MAYMOVE, NULL);
	mr("moving a range that leaves its region, MREMAP_DONTUNMAP", p + 3 * PAGE, 2 * PAGE,
	   2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	mr("growing without MREMAP_MAYMOVE, a mapping after", p, 4 * PAGE, 5 * PAGE, 0, NULL);
	mr("old_size 0 of a private mapping", p, 0, PAGE, MREMAP_MAYMOVE, NULL);
	check("the 5 pages are still mapped", !strcmp(in_maps(p, 5 * PAGE), "listed"));
	munmap(p, 5 * PAGE);
}

/* In a child, so that the limits stay there. */
static void limits_child(void)
{
	struct rlimit as = { 256 * MIB, RLIM_INFINITY }, data = { 64 * MIB, RLIM_INFINITY };
	struct rlimit inf = { RLIM_INFINITY, RLIM_INFINITY };
	char *p, *s, *ro, *big;

	if (setrlimit(RLIMIT_AS, &as))
		die("setrlimit RLIMIT_AS");
	p = map_rw(1);
	mremap_as("RLIMIT_AS 256 MiB: 1 page to 512 MiB, MREMAP_MAYMOVE", p, PAGE, 512 * MIB,
		  MREMAP_MAYMOVE, NULL, 1);
	p = (char *)mremap_as("RLIMIT_AS 256 MiB: 1 page to 100 MiB, MREMAP_MAYMOVE", p, PAGE,
			      100 * MIB, MREMAP_MAYMOVE, NULL, 1);
	big = (char *)mr("RLIMIT_AS 256 MiB: MREMAP_DONTUNMAP of 100 MiB, 100 MiB mapped", p,
			 100 * MIB, 100 * MIB, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	mr("RLIMIT_AS 256 MiB: MREMAP_DONTUNMAP of 100 MiB, 200 MiB mapped", big, 100 * MIB,
	   100 * MIB, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	munmap(p, 100 * MIB);
	munmap(big, 100 * MIB);
	if (setrlimit(RLIMIT_AS, &inf) || setrlimit(RLIMIT_DATA, &data))
		die("setrlimit RLIMIT_DATA");
	p = map_rw(1);
	mremap_as("RLIMIT_DATA 64 MiB: private writable, 1 page to 128 MiB, MREMAP_MAYMOVE", p,
		  PAGE, 128 * MIB, MREMAP_MAYMOVE, NULL, 1);
	s = map(1, PROT_READ | PROT_WRITE, MAP_SHARED);
	mremap_as("RLIMIT_DATA 64 MiB: shared, 1 page to 128 MiB, MREMAP_MAYMOVE", s, PAGE,
		  128 * MIB, MREMAP_MAYMOVE, NULL, 1);
	ro = map(1, PROT_READ, MAP_PRIVATE);
	mremap_as("RLIMIT_DATA 64 MiB: read-only, 1 page to 128 MiB, MREMAP_MAYMOVE", ro, PAGE,
		  128 * MIB, MREMAP_MAYMOVE, NULL, 1);
	exit(check_failures ? 1 : 0);
}

static void limits(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0)
		limits_child();
	printf("child: %s\n", status_text(wait_status(pid)));
}

static void multi(void)
{
	char *blk = map_rw(8), *dst = map_rw(8), *gone = map_rw(3), *q;

	munmap(gone, 3 * PAGE);
	fill(blk, 0, 8, 13, 0);
	fill(dst, 0, 8, 14, 0);
	/* Regions [0, 2) rw, [2, 4) r, [4, 5) rw, a gap at 5, [6, 8) rw. */
	mprotect(blk + 2 * PAGE, 2 * PAGE, PROT_READ);
	munmap(blk + 5 * PAGE, PAGE);
	q = (char *)mr("mremap 8 pages of 4 regions and a gap, MREMAP_FIXED", blk, 8 * PAGE,
		       8 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	check("pages 0-4 and 6-7 moved", q == dst && holds(dst, 0, 5, 13, 0, 0) &&
						    holds(dst, 6, 8, 13, 0, 0));
	check("page 5, the gap, keeps what was there", holds(dst, 5, 6, 14, 0, 0));
	printf("writing page 2: %s, page 4: %s\n", sig_text(probe(dst + 2 * PAGE, 1)),
	       sig_text(probe(dst + 4 * PAGE, 1)));
	printf("/proc/self/maps: the old range %s\n", in_maps(blk, 8 * PAGE));
	munmap(dst + 5 * PAGE, PAGE);
	mr("MREMAP_FIXED of a range starting in a gap", dst + 5 * PAGE, 3 * PAGE, 3 * PAGE,
	   MREMAP_MAYMOVE | MREMAP_FIXED, gone);
	mr("unmapped addr, MREMAP_FIXED overlapping", gone, 2 * PAGE, 2 * PAGE,
	   MREMAP_MAYMOVE | MREMAP_FIXED, gone + PAGE);
	mr("unmapped addr, new_size past the user address space", gone, PAGE, 1UL << 47,
	   MREMAP_MAYMOVE, NULL);
	munmap(dst, 8 * PAGE);
}

static const struct {
	const char *name;
	void (*fn)(void);
} sections[] = {
	{ "grow", grow },	    { "shrink", shrink }, { "move", move },
	{ "big", big },		    { "sparse", sparse }, { "fixed", fixed },	  { "dontunmap", dontunmap },
	{ "shared", shared },	    { "errors", errors }, { "limits", limits },
	{ "multi", multi },
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		size_t k;

		for (k = 0; k < sizeof(sections) / sizeof(sections[0]); k++)
			if (!strcmp(argv[i], sections[k].name))
				break;
		if (k == sizeof(sections) / sizeof(sections[0]))
			die("usage: mremap SECTION... (see the header comment)");
		sections[k].fn();
	}
	return check_failures ? 1 : 0;
}
