/*
 * mlocks SECTION: memory locks, msync, mincore and MAP_SHARED_VALIDATE,
 * with raw system calls and /proc/self/status's VmLck, the same natively
 * and under umk (tests/mlocks.bats).
 *
 *   mlock     mlock, mlock2, munlock: VmLck, the region split in
 *             /proc/self/maps, the pages populated, the errors; munmap
 *             gives the locked bytes back
 *   limit     RLIMIT_MEMLOCK for a process without CAP_IPC_LOCK (a child
 *             that gives up root): ENOMEM past it, EPERM at 0
 *   mlockall  MCL_CURRENT, MCL_FUTURE (a later mmap is locked),
 *             munlockall, the errors; a forked child has no locks;
 *             MAP_LOCKED
 *   msync     its errors, MS_SYNC of a shared file mapping, MS_INVALIDATE
 *             of a locked region
 *   mincore   untouched pages are not resident, written ones are; the
 *             errors
 *   validate  MAP_SHARED_VALIDATE: a file's shared mapping, EOPNOTSUPP for
 *             an unknown flag, EINVAL without a file
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif

/* A /proc/self/status field, in kB: read with read(2) into the stack, as
 * stdio's buffer would be a mapping of its own, locked after MCL_FUTURE. */
static long status_kib(const char *field)
{
	char buf[4096], key[32], *p;
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (n <= 0)
		die("cannot read /proc/self/status");
	close(fd);
	buf[n] = 0;
	snprintf(key, sizeof(key), "\n%s:", field);
	p = strstr(buf, key);
	return p ? atol(p + strlen(key)) : -1;
}

static void show_vmlck(void)
{
	printf("  VmLck: %ld kB\n", status_kib("VmLck"));
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

static char *map(size_t pages, int prot, int flags)
{
	char *p = mmap(NULL, pages * PAGE, prot, flags | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap of %zu pages failed", pages);
	return p;
}

static void section_mlock(void)
{
	char *p = map(4, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	long rss;

	show_vmlck();
	rss = status_kib("VmRSS");
	show("mlock(pages 2-3)", rsys(SYS_mlock, p + PAGE, 2 * PAGE));
	show_vmlck();
	check("the 2 locked pages are resident (VmRSS +8 kB at least)",
	      status_kib("VmRSS") - rss >= 8);
	printf("  /proc/self/maps: %d region(s)\n", maps_lines(p, 4 * PAGE));
	show("mlock(pages 2-3 again)", rsys(SYS_mlock, p + PAGE, 2 * PAGE));
	show_vmlck();
	/* Whether Linux merges the regions again depends on which of them
	 * had pages (their anon_vma): not shown. */
	show("munlock(pages 2-3)", rsys(SYS_munlock, p + PAGE, 2 * PAGE));
	show_vmlck();
	show("mlock(page 1 from its 100th byte, 10 bytes)", rsys(SYS_mlock, p + 100, 10));
	show_vmlck();
	show("munlock(pages 1-4)", rsys(SYS_munlock, p, 4 * PAGE));
	show_vmlck();
	show("mlock2(page 4, MLOCK_ONFAULT)", rsys(SYS_mlock2, p + 3 * PAGE, PAGE, MLOCK_ONFAULT));
	show_vmlck();
	show("mlock2(flags 2)", rsys(SYS_mlock2, p, PAGE, 2));
	show("munmap(page 4)", rsys(SYS_munmap, p + 3 * PAGE, PAGE));
	show_vmlck();
	show("mlock(pages 3-4, page 4 unmapped)", rsys(SYS_mlock, p + 2 * PAGE, 2 * PAGE));
	show_vmlck();
	show("munlock(pages 1-3)", rsys(SYS_munlock, p, 3 * PAGE));
	show("mlock(length 0)", rsys(SYS_mlock, p, 0));
	munmap(p, 3 * PAGE);
}

static void section_limit(void)
{
	struct rlimit one_page = { PAGE, PAGE }, none = { 0, 0 };
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		char *p = map(4, PROT_READ | PROT_WRITE, MAP_PRIVATE);

		if (geteuid() == 0 && setuid(65534))
			die("setuid failed");
		setrlimit(RLIMIT_MEMLOCK, &one_page);
		show("mlock(1 page, RLIMIT_MEMLOCK 1 page)", rsys(SYS_mlock, p, PAGE));
		show("mlock(2 more pages)", rsys(SYS_mlock, p + PAGE, 2 * PAGE));
		show("mlock(the locked page and 1 more)", rsys(SYS_mlock, p, 2 * PAGE));
		show("mlockall(MCL_CURRENT)", rsys(SYS_mlockall, MCL_CURRENT));
		show("mmap(2 pages, MAP_LOCKED)",
		     (long)mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED,
				-1, 0) == -1 ? -errno : 0);
		setrlimit(RLIMIT_MEMLOCK, &none);
		show("mlock(RLIMIT_MEMLOCK 0)", rsys(SYS_mlock, p + PAGE, PAGE));
		show("mlockall(MCL_FUTURE, RLIMIT_MEMLOCK 0)", rsys(SYS_mlockall, MCL_FUTURE));
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("child: %s\n", status_text(status));
}

static void section_mlockall(void)
{
	char *p;
	int status;
	pid_t pid;

	show("mlockall(0)", rsys(SYS_mlockall, 0));
	show("mlockall(MCL_ONFAULT)", rsys(SYS_mlockall, MCL_ONFAULT));
	show("mlockall(8)", rsys(SYS_mlockall, 8));
	show("mlockall(MCL_CURRENT)", rsys(SYS_mlockall, MCL_CURRENT));
	printf("  VmLck above 0: %s\n", status_kib("VmLck") > 0 ? "yes" : "no");
	pid = fork();
	if (pid == 0) {
		printf("  child: ");
		show_vmlck();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	show("munlockall()", rsys(SYS_munlockall, 0));
	show_vmlck();
	show("mlockall(MCL_FUTURE)", rsys(SYS_mlockall, MCL_FUTURE));
	show_vmlck();
	p = map(4, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	printf("  after mmap(4 pages):");
	show_vmlck();
	show("munlockall()", rsys(SYS_munlockall, 0));
	munmap(p, 4 * PAGE);
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED,
		 -1, 0);
	printf("mmap(2 pages, MAP_LOCKED): %s\n", p == MAP_FAILED ? "failed" : "mapped");
	show_vmlck();
	munmap(p, 2 * PAGE);
	show_vmlck();
}

static void section_msync(void)
{
	char *p = map(2, PROT_READ | PROT_WRITE, MAP_PRIVATE), *f;
	char path[] = "/tmp/mlocks.XXXXXX";
	int fd = mkstemp(path);

	unlink(path);
	if (fd < 0 || ftruncate(fd, 2 * PAGE))
		die("scratch file failed");
	f = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (f == MAP_FAILED)
		die("mmap of the scratch file failed");
	show("msync(flags 8)", rsys(SYS_msync, p, PAGE, 8));
	show("msync(MS_ASYNC | MS_SYNC)", rsys(SYS_msync, p, PAGE, MS_ASYNC | MS_SYNC));
	show("msync(not page aligned)", rsys(SYS_msync, p + 1, PAGE, MS_SYNC));
	show("msync(length 0)", rsys(SYS_msync, p, 0, MS_SYNC));
	memcpy(f, "synced", 6);
	show("msync(a shared file mapping, MS_SYNC)", rsys(SYS_msync, f, 2 * PAGE, MS_SYNC));
	show("msync(private memory, MS_ASYNC)", rsys(SYS_msync, p, 2 * PAGE, MS_ASYNC));
	munmap(p + PAGE, PAGE);
	show("msync(2 pages, the 2nd unmapped)", rsys(SYS_msync, p, 2 * PAGE, MS_SYNC));
	mlock(p, PAGE);
	show("msync(a locked page, MS_INVALIDATE)", rsys(SYS_msync, p, PAGE, MS_INVALIDATE));
	show("msync(a locked page, MS_SYNC)", rsys(SYS_msync, p, PAGE, MS_SYNC));
	munmap(p, PAGE);
	munmap(f, 2 * PAGE);
	close(fd);
}

static void section_mincore(void)
{
	char *p = map(4, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	unsigned char vec[4];

	show("mincore(4 untouched pages)", rsys(SYS_mincore, p, 4 * PAGE, vec));
	printf("  %d %d %d %d\n", vec[0], vec[1], vec[2], vec[3]);
	p[PAGE] = 1;
	p[3 * PAGE + 5] = 1;
	show("mincore(pages 2 and 4 written)", rsys(SYS_mincore, p, 4 * PAGE, vec));
	printf("  %d %d %d %d\n", vec[0], vec[1], vec[2], vec[3]);
	show("mincore(not page aligned)", rsys(SYS_mincore, p + 1, PAGE, vec));
	show("mincore(vec unmapped)", rsys(SYS_mincore, p, PAGE, (void *)8));
	show("mincore(length 0)", rsys(SYS_mincore, p, 0, vec));
	munmap(p + 2 * PAGE, PAGE);
	show("mincore(4 pages, the 3rd unmapped)", rsys(SYS_mincore, p, 4 * PAGE, vec));
	munmap(p, 4 * PAGE);
	show("mincore(unmapped)", rsys(SYS_mincore, p, PAGE, vec));
}

static void section_validate(void)
{
	char path[] = "/tmp/mlocks.XXXXXX";
	int fd = mkstemp(path);
	char *a, *b;

	unlink(path);
	if (fd < 0 || ftruncate(fd, PAGE))
		die("scratch file failed");
	a = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE, fd, 0);
	b = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (a == MAP_FAILED || b == MAP_FAILED)
		die("MAP_SHARED_VALIDATE of a file failed");
	strcpy(a, "shared");
	printf("MAP_SHARED_VALIDATE of a file: %s\n", !strcmp(b, "shared") ? "shared" : "not shared");
	show("mmap(MAP_SHARED_VALIDATE, flag 0x400000)",
	     (long)mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | 0x400000, fd, 0) == -1 ? -errno : 0);
	show("mmap(MAP_SHARED_VALIDATE | MAP_ANONYMOUS)",
	     (long)mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | MAP_ANONYMOUS, -1, 0) == -1 ?
		     -errno : 0);
	show("mmap(MAP_SHARED | flag 0x400000)",
	     (long)mmap(NULL, PAGE, PROT_READ, MAP_SHARED | 0x400000, fd, 0) == -1 ? -errno : 0);
	close(fd);
}

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "mlock", section_mlock }, { "limit", section_limit },
		{ "mlockall", section_mlockall }, { "msync", section_msync },
		{ "mincore", section_mincore }, { "validate", section_validate },
	};

	return run_sections("mlocks", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
