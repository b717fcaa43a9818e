/*
 * arch/vdso/vclock_gettime.c: umk's vDSO (Linux's arch/x86/entry/vdso/
 * vclock_gettime.c and vgetcpu.c): clock_gettime, gettimeofday, time,
 * clock_getres and getcpu as plain function calls in user mode.
 *
 * One image in umk's memory, above the user window, serves every process
 * (docs/design.md, "The vDSO"); it reads the data
 * page below it (include/umk/uapi/vdso.h). Under --clock=host the kernel's
 * clocks are the host's, so the answer is the host vDSO's; under
 * --clock=virtual it is the virtual time the kernel keeps in the page.
 * Anything else is the real system call, which traps into umk.
 *
 * This runs in user mode on the user's stack with the user's FS base: it
 * is built with no stack protector, no C library, and must not touch %fs
 * (the Makefile checks the image for %fs operands and for relocations).
 */
#include <umk/uapi/time.h>
#include <umk/uapi/vdso.h>

#define NSEC_PER_SEC 1000000000LL
#define __NR_gettimeofday 96
#define __NR_clock_gettime 228
#define __NR_clock_getres 229

struct vdso_timespec {
	long long tv_sec;
	long tv_nsec;
};

struct vdso_timeval {
	long tv_sec;
	long tv_usec;
};

/* Defined by the linker script one page below the image: hidden, so every
 * access is PC-relative and the image needs no relocation. */
extern const volatile struct vdso_data vvar_page __attribute__((visibility("hidden")));

static long vdso_syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a), "S"(b)
			 : "rcx", "r11", "memory");
	return ret;
}

static int clock_served(int clock)
{
	return clock >= 0 && clock < VDSO_NR_CLOCKS && (vvar_page.clocks >> clock & 1);
}

/* ns on clock, or < 0 when the vDSO cannot answer and the caller must trap.
 * Precondition: clock_served(clock). */
static long long vdso_read_ns(int clock)
{
	unsigned int mode = vvar_page.clock_mode;

	if (mode == VDSO_CLOCK_VIRTUAL) {
		unsigned long long ns = vvar_page.virtual_ns;

		if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)
			return (long long)ns + vvar_page.realtime_offset_ns;
		return (long long)ns;
	}
	if (mode == VDSO_CLOCK_HOST && vvar_page.host_clock_gettime) {
		int (*host)(long, struct vdso_timespec *) =
			(int (*)(long, struct vdso_timespec *))vvar_page.host_clock_gettime;
		struct vdso_timespec ts;

		if (host(clock, &ts))
			return -1;
		return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	}
	return -1;
}

int __vdso_clock_gettime(int clock, struct vdso_timespec *ts);
int __vdso_clock_gettime(int clock, struct vdso_timespec *ts)
{
	long long ns = clock_served(clock) ? vdso_read_ns(clock) : -1;

	if (ns < 0)
		return vdso_syscall2(__NR_clock_gettime, clock, (long)ts);
	ts->tv_sec = ns / NSEC_PER_SEC;
	ts->tv_nsec = ns % NSEC_PER_SEC;
	return 0;
}

int __vdso_gettimeofday(struct vdso_timeval *tv, void *tz);
int __vdso_gettimeofday(struct vdso_timeval *tv, void *tz)
{
	long long ns = 0;

	if (tv) {
		ns = clock_served(CLOCK_REALTIME) ? vdso_read_ns(CLOCK_REALTIME) : -1;
		if (ns < 0)
			return vdso_syscall2(__NR_gettimeofday, (long)tv, (long)tz);
		tv->tv_sec = ns / NSEC_PER_SEC;
		tv->tv_usec = ns % NSEC_PER_SEC / 1000;
	}
	if (tz) {
		/* struct timezone: UTC, no DST, as the system call says */
		((int *)tz)[0] = 0;
		((int *)tz)[1] = 0;
	}
	return 0;
}

/* umk has no time system call: the fallback is clock_gettime. */
long __vdso_time(long *t);
long __vdso_time(long *t)
{
	long long ns = clock_served(CLOCK_REALTIME) ? vdso_read_ns(CLOCK_REALTIME) : -1;
	struct vdso_timespec ts;
	long ret;

	if (ns < 0) {
		ret = vdso_syscall2(__NR_clock_gettime, CLOCK_REALTIME, (long)&ts);
		if (ret)
			return ret;
		ns = ts.tv_sec * NSEC_PER_SEC;
	}
	if (t)
		*t = ns / NSEC_PER_SEC;
	return ns / NSEC_PER_SEC;
}

int __vdso_clock_getres(int clock, struct vdso_timespec *res);
int __vdso_clock_getres(int clock, struct vdso_timespec *res)
{
	long long ns = clock >= 0 && clock < VDSO_NR_CLOCKS ? vvar_page.res_ns[clock] : 0;

	if (ns <= 0)
		return vdso_syscall2(__NR_clock_getres, clock, (long)res);
	if (res) {
		res->tv_sec = ns / NSEC_PER_SEC;
		res->tv_nsec = ns % NSEC_PER_SEC;
	}
	return 0;
}

/* umk has one CPU and one node. */
long __vdso_getcpu(unsigned int *cpu, unsigned int *node, void *unused);
long __vdso_getcpu(unsigned int *cpu, unsigned int *node, void *unused)
{
	if (cpu)
		*cpu = 0;
	if (node)
		*node = 0;
	return 0;
}

int clock_gettime(int, struct vdso_timespec *)
	__attribute__((weak, alias("__vdso_clock_gettime")));
int gettimeofday(struct vdso_timeval *, void *)
	__attribute__((weak, alias("__vdso_gettimeofday")));
long time(long *) __attribute__((weak, alias("__vdso_time")));
int clock_getres(int, struct vdso_timespec *)
	__attribute__((weak, alias("__vdso_clock_getres")));
long getcpu(unsigned int *, unsigned int *, void *)
	__attribute__((weak, alias("__vdso_getcpu")));
