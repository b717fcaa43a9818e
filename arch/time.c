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

#include <umk/arch.h>

static timer_t host_timer;

/* The host vDSO's clock_gettime: it returns 0 or -errno and touches no
 * thread-local state, unlike glibc's wrapper, which sets errno. The kernel
 * reads the clock on every trace event, possibly with the user's FS base
 * loaded (arch/fsbase.c), and a host call per read would cost more than the
 * trap itself. */
static int (*vdso_clock_gettime)(clockid_t, struct timespec *);

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

	if (timer_create(clockid, &sev, &host_timer))
		panic("time_init: timer_create failed");
	if (vdso)
		vdso_clock_gettime = dlsym(vdso, "__vdso_clock_gettime");
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

void os_timer_set(u64 expires)
{
	struct itimerspec its = {
		.it_value = { (time_t)(expires / NSEC_PER_SEC), (long)(expires % NSEC_PER_SEC) },
	};

	/* An absolute time already past fires at once; 0 disarms. */
	if (timer_settime(host_timer, TIMER_ABSTIME, &its, NULL))
		panic("os_timer_set: timer_settime failed");
}
