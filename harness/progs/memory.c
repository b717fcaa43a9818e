/* memory: the allocator and the calls under it. malloc/realloc/free of many
 * sizes (small ones come from brk or small mmaps, those over 1 MiB from their
 * own mmap), the program break moved with raw brk, anonymous mmap, munmap and
 * mprotect. Each check prints one "ok"/"FAILED" line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"


static int filled(const unsigned char *p, size_t n, unsigned char v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

static void test_malloc(void)
{
	static const size_t sizes[] = { 1, 7, 16, 100, 1000, 4096, 5000, 65536, 200000,
					1 << 20, (1 << 20) + 1, 3 << 20, 16 << 20 };
	enum { N = sizeof(sizes) / sizeof(sizes[0]) };
	unsigned char *p[N];
	int ok = 1;

	for (int i = 0; i < N; i++) {
		p[i] = malloc(sizes[i]);
		if (!p[i] || (uintptr_t)p[i] % 16)
			ok = 0;
		else
			memset(p[i], i + 1, sizes[i]);
	}
	for (int i = 0; ok && i < N; i++)
		ok = filled(p[i], sizes[i], i + 1);
	check("malloc 1 B .. 16 MiB, 16-byte aligned, no overlap", ok);

	for (int i = 0; ok && i < N; i++) {
		p[i] = realloc(p[i], sizes[i] * 2);
		ok = p[i] && filled(p[i], sizes[i], i + 1);
	}
	check("realloc to twice the size keeps the data", ok);
	for (int i = 0; i < N; i++)
		free(p[i]);

	for (int round = 0; ok && round < 2000; round++) {
		size_t n = (round * 7919) % 70000 + 1;
		unsigned char *q = malloc(n);

		ok = q != NULL;
		if (ok) {
			memset(q, 0xa5, n);
			ok = filled(q, n, 0xa5);
			free(q);
		}
	}
	check("2000 malloc/free rounds of mixed sizes", ok);

	unsigned char *z = calloc(1 << 20, 2);

	check("calloc 2 MiB is zeroed", z && filled(z, 2 << 20, 0));
	free(z);
}

static void test_brk(void)
{
	long cur = rsys(SYS_brk, 0);

	check("brk(0) returns the current break", cur > 0 && (void *)cur == sbrk(0));

	long grown = rsys(SYS_brk, cur + 65536);

	check("brk grows by 64 KiB", grown == cur + 65536);
	if (grown == cur + 65536) {
		memset((void *)cur, 0x5a, 65536);
		check("the new break area is writable", filled((void *)cur, 65536, 0x5a));
	}
	check("brk shrinks back", rsys(SYS_brk, cur) == cur);
	check("brk below the start is refused (returns the old break)", rsys(SYS_brk, 4096) == cur);
}

static void test_mmap(void)
{
	size_t len = 1 << 20;
	unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int p[2];

	check("mmap 1 MiB anonymous", m != MAP_FAILED && (uintptr_t)m % 4096 == 0);
	if (m == MAP_FAILED)
		return;
	check("anonymous memory starts zeroed", filled(m, len, 0));
	memset(m, 0x3c, len);
	check("mmap memory is writable", filled(m, len, 0x3c));

	check("mprotect PROT_READ", mprotect(m, 4096, PROT_READ) == 0);
	check("a read-only page still reads", filled(m, 4096, 0x3c));
	if (pipe(p))
		die("pipe failed");
	if (write(p[1], "xyz", 3) != 3)
		die("write failed");
	check("read(2) into a read-only page is EFAULT", rsys(SYS_read, p[0], m, 3) == -14);
	check("mprotect back to PROT_READ|PROT_WRITE", mprotect(m, 4096, PROT_READ | PROT_WRITE) == 0);
	check("read(2) into it works again", rsys(SYS_read, p[0], m, 3) == 3 && !memcmp(m, "xyz", 3));
	close(p[0]);
	close(p[1]);

	check("munmap the second half", munmap(m + len / 2, len / 2) == 0);
	check("the first half is intact", filled(m + 3, len / 2 - 3, 0x3c));
	check("munmap the rest", munmap(m, len / 2) == 0);
	check("munmap of an unaligned address is EINVAL", rsys(SYS_munmap, m + 1, 4096) == -22);

	unsigned char *n = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	check("mmap PROT_NONE", n != MAP_FAILED);
	check("mprotect PROT_NONE to read-write", mprotect(n, 8192, PROT_READ | PROT_WRITE) == 0);
	memset(n, 1, 8192);
	check("it is writable now", filled(n, 8192, 1));
	munmap(n, 8192);
	check("mmap of length 0 is EINVAL",
	      rsys(SYS_mmap, 0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == -22);
}

int main(void)
{
	test_malloc();
	test_brk();
	test_mmap();
	return check_failures ? 1 : 0;
}
