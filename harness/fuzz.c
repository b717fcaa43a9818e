/*
 * fuzz: random arguments to umk's system calls, from throwaway children.
 *
 * `fuzz SEEDS CALLS` spawns one child per seed; each makes CALLS system
 * calls picked from the list below with arguments drawn from values that
 * tend to break kernels: 0, -1, huge and small numbers, NULL, wild and
 * unaligned pointers, pointers into read-only text, into a guard page and
 * into a valid buffer, then ends with an rt_sigreturn through a garbage
 * frame. A child may die of what it asks for (SIGSEGV from that sigreturn
 * or a call that changed its memory, SIGALRM when a call sleeps): that is
 * allowed. What is not: umk faulting, hanging or losing its pid 1. Calls
 * that end or replace the child, or reach other processes, are left out,
 * and so are pause and rt_sigsuspend, which would only ever sleep.
 * Under umk only: on the host, random arguments to munmap or mprotect could
 * take the test runner's memory down with the child.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"

static const long calls[] = {
	SYS_read, SYS_write, SYS_open, SYS_close, SYS_fstat, SYS_lseek, SYS_mmap,
	SYS_mprotect, SYS_munmap, SYS_brk, SYS_rt_sigaction, SYS_rt_sigprocmask,
	SYS_ioctl, SYS_readv, SYS_writev, SYS_pipe, SYS_select,
	SYS_sched_yield, SYS_dup, SYS_dup2, SYS_nanosleep, SYS_getpid, SYS_wait4,
	SYS_uname, SYS_fcntl, SYS_gettimeofday, SYS_getppid, SYS_sigaltstack,
	SYS_arch_prctl, SYS_gettid, SYS_futex, SYS_set_tid_address,
	SYS_restart_syscall, SYS_clock_gettime, SYS_clock_getres,
	SYS_clock_nanosleep, SYS_waitid, SYS_openat, SYS_pselect6, SYS_ppoll,
	SYS_dup3, SYS_pipe2, SYS_poll,
	SYS_rt_sigpending, SYS_rt_sigtimedwait, SYS_alarm, SYS_setitimer,
	SYS_getitimer, SYS_getuid, 999, -1, 219,
};

static char buf[8192] __attribute__((aligned(64)));

static long pick(char *guard)
{
	static const long numbers[] = { 0, 1, 2, 3, -1, -2, 4096, 0x7fffffff, -0x80000000L,
					0x7fffffffffffffffL, 64, 255, 256, 1024 };

	switch (rand() % 8) {
	case 0:
		return numbers[rand() % (sizeof(numbers) / sizeof(numbers[0]))];
	case 1:
		return 0;
	case 2:
		return (long)buf + (rand() % 64) * 64;
	case 3:
		return (long)buf + rand() % sizeof(buf);	/* unaligned */
	case 4:
		return (long)&pick;				/* read-only text */
	case 5:
		return (long)guard + rand() % 4096;		/* PROT_NONE */
	case 6:
		return 0xdead0000000L + rand();			/* unmapped */
	default:
		return rand();
	}
}

static int child(unsigned int seed, int n)
{
	char *guard = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct itimerval limit = { .it_value = { 0, 300 * 1000 } };
	int i;

	srand(seed);
	/* A call that sleeps for good ends the child, not the test; and what
	 * it writes goes nowhere. */
	setitimer(ITIMER_REAL, &limit, NULL);
	close(0);
	close(1);
	close(2);
	for (i = 0; i < n; i++) {
		long nr = calls[rand() % (sizeof(calls) / sizeof(calls[0]))];
		long a[6];
		int j;

		for (j = 0; j < 6; j++)
			a[j] = pick(guard);
		if (nr == SYS_nanosleep || nr == SYS_clock_nanosleep || nr == SYS_alarm ||
		    nr == SYS_setitimer)
			continue;	/* would only slow the run down, or lift the limit */
		raw_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	/* Last, a sigreturn through whatever the stack holds: no handler ran,
	 * so the "frame" is garbage and the child should die of it. */
	rsys0(SYS_rt_sigreturn);
	return 0;
}

/* The child's status; a child still there after 2 s (it may have blocked
 * or ignored its own timer's SIGALRM) is killed. */
static int reap(pid_t pid)
{
	struct timespec ms10 = { 0, 10 * 1000000L };
	int i, st = 0;

	for (i = 0; i < 200; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		rsys(SYS_nanosleep, &ms10, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return st;
}

int main(int argc, char **argv)
{
	int seeds = argc > 1 ? atoi(argv[1]) : 20, n = argc > 2 ? atoi(argv[2]) : 300;
	int seed, exited = 0, killed = 0, by[65] = { 0 }, sig;
	char s[16], c[16];

	if (argc > 3)
		return child(atoi(argv[3]), n);
	snprintf(c, sizeof(c), "%d", n);
	for (seed = 1; seed <= seeds; seed++) {
		snprintf(s, sizeof(s), "%d", seed);
		int st = reap(spawn(argv[0], (char *[]){ argv[0], "1", c, s, NULL }));

		if ((st & 0x7f) == 0) {
			exited++;
		} else {
			killed++;
			by[st & 0x7f]++;
		}
	}
	printf("fuzz: %d children, %d exited, %d killed by a signal\n", seeds, exited, killed);
	for (sig = 1; sig <= 64; sig++)
		if (by[sig])
			printf("fuzz: %d by %s\n", by[sig], signal_name(sig));
	return 0;
}
