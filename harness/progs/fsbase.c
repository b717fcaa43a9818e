/* fsbase guard | fsbase hwcap | fsbase eperm | fsbase gs: the FS base, seen from user
 * mode (docs/design.md, "The FS base").
 *
 * guard: points the FS base at a poisoned area and, using raw system calls
 *   only (no libc, which would use its own TLS), makes every kind of trap:
 *   plain calls, yields, sleeps, timer interrupts in user mode, a signal
 *   handler, a bad pointer, an unknown call, a clock with an invalid id, a
 *   pipe round trip, console output. The area is filled with the address of
 *   a PROT_NONE page, so that a kernel reading a pointer from "its" TLS there
 *   faults, and is compared word by word afterwards, so that a kernel
 *   writing to it (glibc's errno, say) is caught. Prints how many words
 *   changed: 0 on Linux, and 0 under umk or its FS base rule is broken.
 * hwcap: what AT_HWCAP2 says of FSGSBASE and, where it says yes, whether a
 *   base set with wrfsbase survives traps, as it must.
 * eperm: ARCH_SET_FS and clone's TLS outside the user address space are
 *   refused with EPERM (Linux: TASK_SIZE_MAX).
 * gs: ARCH_GET_GS of a program that never set its GS base: 0, and EFAULT
 *   for a pointer to nowhere. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include "harness.h"

#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004
#define HWCAP2_FSGSBASE (1 << 1)
#define AREA_WORDS 8192		/* 64 KiB, the FS base in the middle */

static unsigned long area[AREA_WORDS];
static volatile int handled;

static void on_signal(int sig)
{
	handled++;
}

/* Everything here runs with the FS base on the poisoned area: raw calls
 * only, and no libc. */
static void exercise(void)
{
	static const char msg[] = "in the window\n";
	struct timespec ts = { 0, 2000000 }, now;
	int fds[2];
	char buf[8];
	volatile unsigned long spin;
	long i;

	for (i = 0; i < 1000; i++)
		rsys0(SYS_getpid);
	for (i = 0; i < 100; i++)
		rsys0(SYS_sched_yield);
	rsys(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
	rsys(SYS_clock_gettime, 12345, &now);		/* EINVAL */
	rsys(SYS_nanosleep, &ts, NULL);			/* sleep: idle, timer */
	rsys(SYS_nanosleep, 1, NULL);			/* EFAULT: a fixup */
	rsys0(439 + 100);				/* ENOSYS */
	rsys(SYS_arch_prctl, 0x9999, 0);		/* EINVAL */
	rsys(SYS_kill, rsys0(SYS_getpid), SIGUSR1);	/* a handler runs */
	if (rsys(SYS_pipe2, fds, 0) == 0) {
		rsys(SYS_write, fds[1], "ab", 2);
		rsys(SYS_read, fds[0], buf, sizeof(buf));
		rsys(SYS_close, fds[0]);
		rsys(SYS_close, fds[1]);
	}
	rsys(SYS_write, 1, msg, sizeof(msg) - 1);
	/* About 50 ms of CPU: timer interrupts arrive in user mode. */
	for (i = 0; i < 20; i++) {
		struct timespec t0, t1;

		rsys(SYS_clock_gettime, CLOCK_MONOTONIC, &t0);
		do {
			for (spin = 0; spin < 10000; spin++)
				;
			rsys(SYS_clock_gettime, CLOCK_MONOTONIC, &t1);
		} while ((t1.tv_sec - t0.tv_sec) * 1000000000L + t1.tv_nsec - t0.tv_nsec < 2500000);
	}
}

static int guard(void)
{
	unsigned long *poison = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long *self = &area[AREA_WORDS / 2];
	unsigned long old_fs;
	int changed = 0, i;

	if (poison == MAP_FAILED)
		die("mmap failed");
	signal(SIGUSR1, on_signal);
	for (i = 0; i < AREA_WORDS; i++)
		area[i] = (unsigned long)poison;
	*self = (unsigned long)self;	/* the TLS ABI: %fs:0 points to itself */

	if (rsys(SYS_arch_prctl, ARCH_GET_FS, &old_fs))
		die("ARCH_GET_FS failed");
	if (rsys(SYS_arch_prctl, ARCH_SET_FS, self))
		die("ARCH_SET_FS failed");
	exercise();
	rsys(SYS_arch_prctl, ARCH_SET_FS, old_fs);

	for (i = 0; i < AREA_WORDS; i++) {
		if (&area[i] == self || area[i] == (unsigned long)poison)
			continue;
		if (changed++ < 5)
			printf("word at %%fs%+ld changed to %#lx\n",
			       (long)((char *)&area[i] - (char *)self), area[i]);
	}
	printf("signal handled: %d\n", handled);
	printf("words of the TLS area changed: %d\n", changed);
	return changed != 0;
}

static unsigned long rdfsbase(void)
{
	unsigned long v;

	__asm__ volatile("rdfsbase %0" : "=r"(v));
	return v;
}

static void wrfsbase(unsigned long v)
{
	__asm__ volatile("wrfsbase %0" : : "r"(v) : "memory");
}

static int hwcap(void)
{
	bool fsgsbase = getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE;
	unsigned long *self = &area[AREA_WORDS / 2], old;
	struct timespec ts = { 0, 1000000 };

	printf("AT_HWCAP2 has FSGSBASE: %s\n", fsgsbase ? "yes" : "no");
	if (!fsgsbase)
		return 0;
	*self = (unsigned long)self;
	old = rdfsbase();
	wrfsbase((unsigned long)self);
	rsys0(SYS_getpid);
	rsys0(SYS_sched_yield);
	rsys(SYS_nanosleep, &ts, NULL);
	self[1] = rdfsbase();		/* no libc until the old base is back */
	wrfsbase(old);
	printf("a base set with wrfsbase survives traps: %s\n",
	       self[1] == (unsigned long)self ? "yes" : "no");
	return 0;
}

static int eperm(void)
{
	unsigned long fs;

	rsys(SYS_arch_prctl, ARCH_GET_FS, &fs);
	show("arch_prctl(ARCH_SET_FS, 1 << 47)", rsys(SYS_arch_prctl, ARCH_SET_FS, 1UL << 47));
	show("arch_prctl(ARCH_SET_FS, -4096)", rsys(SYS_arch_prctl, ARCH_SET_FS, -4096L));
	/* CLONE_VM | CLONE_SETTLS and a bad TLS: refused before any child exists. */
	show("clone(CLONE_VM|CLONE_SETTLS|SIGCHLD, tls 1 << 47)",
	     rsys(SYS_clone, 0x100 | 0x80000 | SIGCHLD, 0, 0, 0, 1UL << 47));
	show("arch_prctl(ARCH_SET_FS, the same base)", rsys(SYS_arch_prctl, ARCH_SET_FS, fs));
	return 0;
}

static int gs(void)
{
	unsigned long base = 1;

	show("arch_prctl(ARCH_GET_GS, &base)", rsys(SYS_arch_prctl, ARCH_GET_GS, &base));
	printf("base: %#lx\n", base);
	show("arch_prctl(ARCH_GET_GS, 8)", rsys(SYS_arch_prctl, ARCH_GET_GS, 8));
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 2 && !strcmp(argv[1], "guard"))
		return guard();
	if (argc == 2 && !strcmp(argv[1], "hwcap"))
		return hwcap();
	if (argc == 2 && !strcmp(argv[1], "eperm"))
		return eperm();
	if (argc == 2 && !strcmp(argv[1], "gs"))
		return gs();
	die("usage: fsbase guard|hwcap|eperm|gs");
}
