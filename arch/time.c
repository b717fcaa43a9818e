/*
 * arch/time.c: the host clocks and the one host timer.
 *
 * The kernel keeps its timers ordered and asks for one expiry at a time: the
 * host timer is a one-shot POSIX timer on CLOCK_MONOTONIC (umk's CPU time
 * under --clock=virtual) that raises SIGALRM at an absolute time. There is
 * no periodic tick.
 */
#include "host.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>

#include <umk/kernel.h>
#include <umk/os.h>

/* The host's id of umk's one timer: created and set with the host's own
 * calls (os_timer_set). */
static int host_timer;

/* The host vDSO's clock_gettime: it returns 0 or -errno and touches no
 * thread-local state, unlike glibc's wrapper, which sets errno. The kernel
 * reads the clock on every trace event, possibly with the user's FS base
 * loaded (arch/fsbase.c), and a host call per read would cost more than the
 * trap itself. */
static int (*vdso_clock_gettime)(clockid_t, struct timespec *);

/*
 * The trace ring's clock, as Linux's trace_clock_local() is sched_clock():
 * CLOCK_MONOTONIC extrapolated from the CPU's time-stamp counter, a few ns
 * where a vDSO reading costs ~20 and every trap stamps two events. Each
 * anchor pairs a TSC reading with a clock reading; the scale (ns per cycle,
 * as a 32.32 fixed-point number) is measured between two anchors, and an
 * anchor lives four times as long as the span its scale was measured over,
 * at most TCLK_ANCHOR_CYCLES (~13 ms): the first ones a few ms. The error
 * stays far below a microsecond: a clock reading's jitter times four, and
 * the host's NTP corrections to CLOCK_MONOTONIC's rate over 13 ms
 * (tests/unit/trace_clock.c checks it). Used only where the TSC is
 * invariant (constant rate, running in every C-state: CPUID 0x80000007 EDX
 * bit 8); elsewhere, and until the first scale is known, it is the clock
 * itself. Never goes back.
 */
#define TCLK_ANCHOR_CYCLES (1ULL << 25)
#define TCLK_FIRST_CYCLES (1ULL << 20)	/* the first scale: ~0.4 ms */
#define TCLK_BRACKET_CYCLES (1ULL << 13)	/* ~3 us around a clock reading */

static struct {
	bool usable;		/* the TSC is invariant */
	u64 tsc, ns;		/* the last anchor */
	u64 mult;		/* ns per cycle << 32; 0: not measured yet */
	u64 life;		/* cycles the anchor is extrapolated for */
	u64 last;		/* the last value given */
} tclk;

static inline __tls_free u64 rdtsc(void)
{
	unsigned int lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (u64)hi << 32 | lo;
}

static void tclk_init(void)
{
	unsigned int eax = 0x80000007, ebx = 0, ecx = 0, edx = 0;

	asm volatile("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));
	tclk.usable = edx & (1U << 8);
}

/* A new anchor now (its clock reading returned), and the scale since the last one if it is long
 * enough to measure (and short enough that the shift cannot overflow).
 * The clock reading is bracketed by two TSC readings, and taken again if
 * the host preempted umk between them; a wide bracket keeps the old scale. */
static u64 __tls_free tclk_anchor(void)
{
	u64 t0, t1, ns, tsc, dns, dtsc;
	int tries = 0;

	do {
		t0 = rdtsc();
		ns = os_clock_ns(CLOCK_MONOTONIC);
		t1 = rdtsc();
	} while (t1 - t0 > TCLK_BRACKET_CYCLES && ++tries < 4);
	tsc = t0 + (t1 - t0) / 2;
	dns = ns - tclk.ns;
	dtsc = tsc - tclk.tsc;
	if (tclk.tsc && t1 - t0 <= TCLK_BRACKET_CYCLES && dtsc >= TCLK_FIRST_CYCLES &&
	    dns < (1ULL << 32)) {
		tclk.mult = (dns << 32) / dtsc;
		tclk.life = min(4 * dtsc, TCLK_ANCHOR_CYCLES);
	}
	tclk.tsc = tsc;
	tclk.ns = ns;
	return ns;
}

u64 __tls_free os_trace_clock_ns(void)
{
	u64 tsc, ns;

	if (!tclk.usable)
		return os_clock_ns(CLOCK_MONOTONIC);
	tsc = rdtsc();
	if (tclk.mult && tsc - tclk.tsc < tclk.life)
		ns = tclk.ns + ((tsc - tclk.tsc) * tclk.mult >> 32);
	else if (tclk.mult || !tclk.tsc || tsc - tclk.tsc >= TCLK_FIRST_CYCLES)
		ns = tclk_anchor();
	else
		ns = os_clock_ns(CLOCK_MONOTONIC);	/* the first scale is not measurable yet */
	if (ns < tclk.last)
		ns = tclk.last;
	tclk.last = ns;
	return ns;
}

/* clockid: CLOCK_MONOTONIC, or CLOCK_PROCESS_CPUTIME_ID under
 * --clock=virtual, where the host timer only ends time slices (see
 * include/umk/timer.h). */
void time_init(int clockid)
{
	struct sigevent sev = {
		.sigev_notify = SIGEV_SIGNAL,
		.sigev_signo = SIGALRM,
	};

	void *vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);

	if (host_syscall4(SYS_timer_create, clockid, (unsigned long)&sev, (unsigned long)&host_timer, 0))
		panic("time_init: timer_create failed");
	if (vdso)
		vdso_clock_gettime = dlsym(vdso, "__vdso_clock_gettime");
	tclk_init();
}

void *os_host_clock_gettime(void)
{
	return (void *)vdso_clock_gettime;
}

s64 __tls_free os_clock_ns(int clockid)
{
	struct timespec ts;
	long ret;

	if (vdso_clock_gettime)
		ret = vdso_clock_gettime(clockid, &ts);
	else
		ret = host_syscall2(SYS_clock_gettime, clockid, (unsigned long)&ts);
	if (ret)
		return ret;
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

s64 os_clock_res_ns(int clockid)
{
	struct timespec ts;

	if (clock_getres(clockid, &ts))
		return -errno;
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* __tls_free, with the host's own call rather than glibc's (errno): the
 * timer interrupt reprograms the timer, and a sleeper arms it, without
 * loading glibc's FS base, so that without FSGSBASE neither costs the two
 * arch_prctl of a load and of the user's base again (docs/design.md,
 * "The FS base"). */
void __tls_free os_timer_set(u64 expires)
{
	struct itimerspec its = {
		.it_value = { (time_t)(expires / NSEC_PER_SEC), (long)(expires % NSEC_PER_SEC) },
	};

	/* An absolute time already past fires at once; 0 disarms. */
	if (host_syscall4(SYS_timer_settime, (unsigned long)host_timer, TIMER_ABSTIME,
			  (unsigned long)&its, 0))
		panic("os_timer_set: timer_settime failed");
}
