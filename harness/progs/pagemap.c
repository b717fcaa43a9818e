/*
 * pagemap: /proc/self/pagemap's entries for pages in different states
 * (tests/pagemap.bats), natively and under umk: the flag bits by name
 * (present, swapped, file, exclusive, soft-dirty), never the frame number,
 * which only a process without CAP_SYS_ADMIN sees the same everywhere (0).
 *
 * Sections:
 *   anon     private anonymous pages written and not, after MADV_DONTNEED
 *            and after munmap
 *   file     a file mapped privately and read, shared anonymous memory
 *            written, and the same seen by a child
 *   errors   reads at an offset or of a size that is no whole entry, of 0
 *            bytes, past the end of the address space
 *   pfn      the frame number of a present page, read without
 *            CAP_SYS_ADMIN (as nobody when run as root)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"

#define PAGE 4096UL
#define PM_PFN_MASK ((1ULL << 55) - 1)

static uint64_t entry(const void *addr)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t e;

	if (fd < 0)
		die("open /proc/self/pagemap: %s", errno_name(errno));
	if (pread(fd, &e, sizeof(e), (off_t)((uintptr_t)addr / PAGE * sizeof(e))) != sizeof(e))
		die("pread /proc/self/pagemap: %s", errno_name(errno));
	close(fd);
	return e;
}

/* "what: present file exclusive soft-dirty", the bits set by name. */
static void show_entry(const char *what, const void *addr)
{
	static const struct {
		int bit;
		const char *name;
	} bits[] = {
		{ 63, "present" }, { 62, "swapped" }, { 61, "file" },
		{ 56, "exclusive" }, { 55, "soft-dirty" },
	};
	uint64_t e = entry(addr);

	printf("%s:", what);
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (e >> bits[i].bit & 1)
			printf(" %s", bits[i].name);
	if (!(e & ~PM_PFN_MASK))
		printf(" none");
	printf("\n");
}

static void *map(size_t pages, int flags)
{
	void *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, flags, -1, 0);

	if (p == MAP_FAILED)
		die("mmap: %s", errno_name(errno));
	return p;
}

static void anon(void)
{
	char *p = map(3, MAP_PRIVATE | MAP_ANONYMOUS);

	show_entry("untouched page", p);
	p[0] = 1;
	p[2 * PAGE + 100] = 1;
	show_entry("written page 0", p);
	show_entry("untouched page 1", p + PAGE);
	show_entry("written page 2", p + 2 * PAGE);
	if (madvise(p, PAGE, MADV_DONTNEED))
		die("madvise: %s", errno_name(errno));
	show_entry("page 0 after MADV_DONTNEED", p);
	show_entry("page 2 after page 0's MADV_DONTNEED", p + 2 * PAGE);
	munmap(p + PAGE, PAGE);
	show_entry("page 1 after munmap", p + PAGE);
	munmap(p, 3 * PAGE);
}

static void file(void)
{
	static char buf[4 * PAGE];
	char path[] = "/tmp/pagemap-XXXXXX";
	int fd = mkstemp(path);
	volatile char *f;
	char *s;
	pid_t pid;

	if (fd < 0)
		die("mkstemp: %s", errno_name(errno));
	unlink(path);
	memset(buf, 'x', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		die("write: %s", errno_name(errno));
	f = mmap(NULL, sizeof(buf), PROT_READ, MAP_PRIVATE, fd, 0);
	if (f == MAP_FAILED)
		die("mmap the file: %s", errno_name(errno));
	(void)f[PAGE];
	show_entry("file page read through MAP_PRIVATE", (const void *)(f + PAGE));
	munmap((void *)f, sizeof(buf));
	close(fd);

	s = map(2, MAP_SHARED | MAP_ANONYMOUS);
	s[0] = 1;
	show_entry("shared anonymous page written", s);
	pid = fork();
	if (pid == 0) {
		(void)*(volatile char *)s;
		show_entry("child: the same page read, its parent's too", s);
		_exit(0);
	}
	wait_status(pid);
	munmap(s, 2 * PAGE);
}

/* pread's result as the kernel's: bytes, or -Exxx. */
static long preadk(int fd, void *buf, size_t n, off_t off)
{
	ssize_t r = pread(fd, buf, n, off);

	return r < 0 ? -errno : r;
}

static void errors(void)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t e[2];

	if (fd < 0)
		die("open /proc/self/pagemap: %s", errno_name(errno));
	show("pread(8 bytes at offset 4)", preadk(fd, e, 8, 4));
	show("pread(4 bytes at offset 8)", preadk(fd, e, 4, 8));
	show("pread(0 bytes at offset 8)", preadk(fd, e, 0, 8));
	show("pread(16 bytes past the last page)", preadk(fd, e, 16, (off_t)((1ULL << 47) / PAGE * 8)));
	show("pread(16 bytes from the last entry but one)",
	     preadk(fd, e, 16, (off_t)(((1ULL << 47) - PAGE) / PAGE * 8 - 16)));
	show("read into a bad buffer", rsys(SYS_pread64, fd, 8, 8, 8));
	close(fd);
}

/* A present page's frame number, read by a process without CAP_SYS_ADMIN:
 * as nobody when run as root (dumpable again, so that its /proc files are
 * its own). */
static void pfn(void)
{
	static char page[PAGE] __attribute__((aligned(4096)));

	page[0] = 1;
	if (geteuid() == 0 && (setuid(65534) || prctl(PR_SET_DUMPABLE, 1)))
		die("setuid or prctl: %s", errno_name(errno));
	printf("without CAP_SYS_ADMIN: frame number %s\n", entry(page) & PM_PFN_MASK ? "shown" : "0");
}

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "anon", anon }, { "file", file }, { "errors", errors }, { "pfn", pfn },
	};

	return run_sections("pagemap", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
