/*
 * growsdown: stacks that grow (tests/growsdown.bats), natively and under
 * umk: the main stack grows on deep recursion up to RLIMIT_STACK and
 * beyond it the program gets SIGSEGV with SEGV_MAPERR; a MAP_GROWSDOWN
 * region grows when the page below it is touched, unless an accessible
 * region lies within the stack guard gap (256 pages) below or the growth
 * would pass RLIMIT_STACK, and mmap places nothing within that gap;
 * mprotect's PROT_GROWSDOWN; the si_code of a
 * fault where nothing is mapped (SEGV_MAPERR) and of one on a page that
 * forbids the access (SEGV_ACCERR); a system call writing below the stack.
 *
 * Sections: recurse, overflow, region, gap, limit, mprotect, sicode, syscall,
 * placement.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define PAGE 4096UL

static sigjmp_buf jump;
static volatile int fault_code;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	fault_code = si->si_code;
	siglongjmp(jump, 1);
}

/* SIGSEGV caught on an alternate stack (a stack overflow leaves the
 * program no other). */
static void catch_segv(void)
{
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;

	if (sigaltstack(&ss, NULL))
		die("sigaltstack: %s", errno_name(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
}

static const char *code_name(int code)
{
	return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "other";
}

/* Write to addr: "ok", or the SIGSEGV's si_code. */
static const char *touch(volatile char *addr)
{
	if (sigsetjmp(jump, 1))
		return code_name(fault_code);
	*addr = 1;
	return "ok";
}

/* Each level takes over 1 KiB of stack. */
static long recurse(long depth)
{
	volatile char frame[1024];

	frame[0] = (char)depth;
	if (depth == 0)
		return frame[0];
	return recurse(depth - 1) + frame[0];
}

static void set_stack_limit(rlim_t bytes)
{
	struct rlimit r;

	getrlimit(RLIMIT_STACK, &r);
	r.rlim_cur = bytes;
	if (setrlimit(RLIMIT_STACK, &r))
		die("setrlimit: %s", errno_name(errno));
}

static void recurse_(void)
{
	set_stack_limit(8UL << 20);
	recurse(6 * 1024);	/* about 6 MiB */
	printf("recursion 6 MiB deep with an 8 MiB RLIMIT_STACK: returned\n");
}

/* In a child, so that the parent can report how it ended. */
static void overflow(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		set_stack_limit(1UL << 20);
		catch_segv();
		if (sigsetjmp(jump, 1)) {
			printf("child: SIGSEGV %s\n", code_name(fault_code));
			_exit(3);
		}
		recurse(4 * 1024);	/* about 4 MiB */
		printf("child: recursion 4 MiB deep with a 1 MiB RLIMIT_STACK returned\n");
		_exit(0);
	}
	printf("recursion past RLIMIT_STACK: %s\n", status_text(wait_status(pid)));
}

/* A free stretch of pages pages, its top end returned: an area mapped and
 * unmapped again. */
static char *free_area(unsigned long pages)
{
	char *p = mmap(NULL, pages * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap: %s", errno_name(errno));
	munmap(p, pages * PAGE);
	return p + pages * PAGE;
}

/* A MAP_GROWSDOWN region of 4 pages ending at end. */
static char *growsdown_at(char *end)
{
	char *g = mmap(end - 4 * PAGE, 4 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN | MAP_FIXED, -1, 0);

	if (g == MAP_FAILED)
		die("mmap MAP_GROWSDOWN: %s", errno_name(errno));
	return g;
}

/* The start of the region holding addr, from /proc/self/maps; 0 if none. */
static unsigned long region_start(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long s, e, found = 0;
	char line[512];

	if (!f)
		die("cannot open /proc/self/maps");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && s <= (unsigned long)addr &&
		    (unsigned long)addr < e)
			found = s;
	fclose(f);
	return found;
}

/* How many pages below g the region holding g's last page now starts. */
static long pages_below(char *g)
{
	return ((long)(unsigned long)g - (long)region_start(g + 3 * PAGE)) / (long)PAGE;
}

static void region(void)
{
	char *g = growsdown_at(free_area(1024) - 256 * PAGE);

	catch_segv();
	printf("touch 1 page below: %s\n", touch(g - PAGE));
	printf("the region starts %ld page(s) lower\n", pages_below(g));
	printf("touch 100 pages below: %s\n", touch(g - 100 * PAGE));
	printf("the region starts %ld page(s) lower\n", pages_below(g));
	printf("the pages between read as zeros: %s\n", g[-50 * (long)PAGE] == 0 ? "yes" : "no");
}

static void gap(void)
{
	char *g = growsdown_at(free_area(1024) - 64 * PAGE);
	char *n = mmap(g - 400 * PAGE, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if (n == MAP_FAILED)
		die("mmap: %s", errno_name(errno));
	catch_segv();
	printf("a mapping 400 pages below; touch 100 pages below: %s\n", touch(g - 100 * PAGE));
	printf("the region starts %ld page(s) lower\n", pages_below(g));
	printf("touch 150 pages below (the gap would be 249 pages): %s\n",
	       touch(g - 150 * PAGE));
	printf("the region starts %ld page(s) lower\n", pages_below(g));
	mprotect(n, PAGE, PROT_NONE);
	printf("that mapping made PROT_NONE; touch 150 pages below: %s\n", touch(g - 150 * PAGE));
	printf("the region starts %ld page(s) lower\n", pages_below(g));
}

/* mmap without MAP_FIXED leaves the guard gap below a region that grows
 * down, at a hint as in a free range it picks. */
static void placement(void)
{
	char *top = free_area(2048) - 64 * PAGE, *g = growsdown_at(top);
	char *hinted = mmap(g - 2 * PAGE, PAGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *picked = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	printf("a hint 2 pages below it is not taken: %s\n", hinted != g - 2 * PAGE ? "yes" : "no");
	printf("mmap picks no page within 256 pages below it: %s\n",
	       picked >= g || picked + PAGE <= g - 256 * PAGE ? "yes" : "no");
	catch_segv();
	printf("touch 200 pages below: %s\n", touch(g - 200 * PAGE));
}

static void limit(void)
{
	char *g = growsdown_at(free_area(1024) - 128 * PAGE);

	catch_segv();
	set_stack_limit(64 * PAGE);
	printf("RLIMIT_STACK 64 pages; touch 50 pages below: %s\n", touch(g - 50 * PAGE));
	printf("touch 70 pages below: %s\n", touch(g - 70 * PAGE));
	printf("the region starts %ld page(s) lower\n", pages_below(g));
}

static void mprotect_(void)
{
	char *g = growsdown_at(free_area(1024) - 128 * PAGE);
	char *plain = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	catch_segv();
	touch(g - 10 * PAGE);
	show("mprotect(PROT_READ | PROT_GROWSDOWN) on its third page",
	     mprotect(g + 2 * PAGE, PAGE, PROT_READ | PROT_GROWSDOWN) ? -errno : 0);
	printf("write 10 pages below: %s\n", touch(g - 10 * PAGE));
	printf("write to the last page: %s\n", touch(g + 3 * PAGE));
	show("mprotect(PROT_GROWSDOWN) on a plain mapping",
	     mprotect(plain, PAGE, PROT_READ | PROT_GROWSDOWN) ? -errno : 0);
	show("mmap(MAP_SHARED | MAP_GROWSDOWN)",
	     mmap(NULL, PAGE, PROT_READ, MAP_SHARED | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0) ==
			     MAP_FAILED ? -errno : 0);
}

/* A system call writing below the stack grows it, as a fault there from
 * the program would. */
static void syscall_(void)
{
	char *below = (char *)__builtin_frame_address(0) - (512 << 10);
	int fd = open("/dev/zero", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		die("open /dev/zero: %s", errno_name(errno));
	n = read(fd, below, 4096);
	show("read 4096 bytes to 512 KiB below the stack pointer", n < 0 ? -errno : n);
	close(fd);
}

static void sicode(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p + PAGE, PAGE);
	catch_segv();
	printf("write to a read-only page: %s\n", touch(p));
	printf("write where nothing is mapped: %s\n", touch(p + PAGE));
}

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "recurse", recurse_ }, { "overflow", overflow }, { "region", region },
		{ "gap", gap }, { "limit", limit }, { "mprotect", mprotect_ }, { "sicode", sicode },
		{ "syscall", syscall_ }, { "placement", placement },
	};

	return run_sections("growsdown", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
