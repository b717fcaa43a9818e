/*
 * fuzz: arguments drawn by type for every system call umk implements, from
 * workers that signals, stops and continues keep interrupting.
 *
 *   fuzz [-s SEED] [-w WORKERS] [-n CALLS] [-t SECONDS] [-v] [-C] [-H] [-M]
 *
 * The calls and the type of each argument come from kernel/syscall_64.tbl
 * (fuzz_calls.h, generated from it at build time). The parent spawns
 * WORKERS workers, four at a time (with -t, more until SECONDS have passed),
 * each making CALLS calls from the seed SEED + its number, and meanwhile is
 * their controller: every few milliseconds it sends one of them SIGSTOP (and
 * SIGCONT soon after), SIGUSR1, SIGURG, SIGWINCH or SIGALRM, once the worker
 * has said it is ready (its handlers set). A worker reports
 * each call's outcome through a pipe; the parent counts the distinct calls
 * and (call, outcome) pairs, and fails the run when:
 *   - a canary around a buffer a worker passed changed (the kernel wrote
 *     outside what it was given), or the worker faulted by itself;
 *   - a worker made no progress for HANG_MS while running (a call that
 *     never returned: every call must, SIGALRM interrupts a sleep every
 *     WATCHDOG_MS); time in which the parent itself did not run (the host
 *     starved umk) does not count;
 * and umk must not oops (the Bats test checks its stderr). -C tests the
 * canary check instead: each worker makes one read one byte too long for
 * its buffer, which must fail the run. -H tests the watchdog: each worker
 * blocks SIGALRM and reads its empty pipe, which never returns. A worker
 * that hangs is shown with its State and signal masks from the kernel's
 * /proc/PID/status, read before it is killed.
 *
 * Argument types ("dpu", see the table's header): fds that exist and do
 * not; pointers into canaried buffers, to the end of a page before a guard
 * page, read-only text, unmapped memory, umk's vDSO, umk's own image, heap
 * and stack (found in the host's /proc/self/maps) and kernel or
 * non-canonical addresses; lengths of 0, page boundaries and huge; flag
 * words with unknown bits. What a worker must not do is kept out, each for
 * its reason:
 *   exit, exit_group      would end the worker before its calls are made
 *   execve, clone, clone3, vfork
 *                         would replace it or run a second task on its
 *                         memory and canaries
 *   fork                  each child would fuzz on, unchecked, and fork
 *                         again (tests/process.bats tests fork)
 *   rt_sigreturn          only as the last call, through a garbage frame
 *                         (the worker then dies of SIGSEGV, as it should)
 *   ptrace                never: PTRACE_TRACEME with a signal leaves the
 *                         worker in a ptrace stop that no tracer ends
 *                         (tests/ptrace.bats tests ptrace)
 *   process_vm_readv, process_vm_writev   only on the worker itself or
 *                         pids that do not exist: the parent's memory is
 *                         not the worker's to write
 *   shmat                 only where the kernel chooses (address 0): at a
 *                         given address it maps over the worker's buffers
 *   rseq                  never: a registered area in a buffer that later
 *                         calls fill with garbage makes the kernel's next
 *                         rseq_cs check a SIGSEGV, by design
 *   setuid, setreuid, setresuid, setfsuid   only to root (0) or unchanged
 *                         (-1): a worker that dropped root could not be
 *                         signalled by the parent (kill's permission check)
 *   sched_setscheduler, sched_setparam, setpriority   only on the worker
 *                         itself or pids that do not exist, never a
 *                         real-time policy nor a nice below 0: a SCHED_FIFO
 *                         worker busy with its calls would starve the
 *                         parent, and the parent's own nice is not theirs
 *   kill, tkill, tgkill, rt_(tg)sigqueueinfo, prlimit64   only to the
 *                         worker itself or to pids that do not exist
 *                         (never SIGKILL for the signals): the
 *                         parent and umk's other tasks are not targets;
 *                         every other signal is caught, and rt_sigaction
 *                         sets SIG_DFL only where it ignores, never with
 *                         SA_RESETHAND
 * and some arguments are bounded so that what the kernel may rightly do
 * stays inside what the worker owns: lengths with a buffer never exceed it
 * (huge lengths go with the end-of-page buffer), mmap, munmap, mprotect,
 * madvise and mremap addresses lie in the worker's arena or outside user space
 * (a madvise range that does not wrap ends in the arena)
 * (mremap's MREMAP_FIXED target too, with its length), every path
 * comes from a harmless list (the host's files are read-only inside umk,
 * and /tmp and /dev/shm are umk's own, in memory), and
 * SIGALRM, SIGUSR1, SIGSEGV and SIGBUS keep their handlers, unblocked.
 * Under umk only: on the host the same calls would be real, and a worker
 * is not sandboxed enough for that.
 */
#define _GNU_SOURCE		/* REG_RIP */
#include <errno.h>
#include <signal.h>
#include <ucontext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness.h"

struct fuzz_call {
	int nr;
	const char *name;
	const char *args;	/* one type letter per argument, or "-" */
};

/* kernel/syscall_64.tbl's implemented calls, generated by make. */
static const struct fuzz_call calls[] = {
#include "fuzz_calls.h"
};
#define NCALLS ((int)(sizeof(calls) / sizeof(calls[0])))

#define REPORT_FD 100		/* the pipe to the parent; no call may touch it */
#define WATCHDOG_MS 20		/* SIGALRM interrupts a sleeping call this often */
#define HANG_MS 3000
#define STALL_MS 500		/* the controller's loop late by this: umk was starved */
#define NSLOTS 12
#define SLOT 1024		/* bytes a buffer holds: more than any struct */
#define CANARY 64
#define PAGE 4096L
#define ARENA_PAGES 32
#define ALTSTACK (64 * 1024)
#define MAX_ERRNO 4096

/* One record per call, worker to parent. */
struct report {
	short call;		/* index c in calls[], -2 - c when c failed, -1: ready */
	short outcome;		/* 0 success, errno, or what failed (FAIL_*) */
	long a[6];
};
enum { FAIL_CANARY = 1, FAIL_FAULT, FAIL_HANG };

static unsigned long long rng;

static unsigned long rnd(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned long)(rng >> 17) ^ (unsigned long)(rng << 29);
}

static unsigned long pick(const unsigned long *v, int n)
{
	return v[rnd() % n];
}
#define PICK(...) pick((const unsigned long[]){ __VA_ARGS__ }, \
		       sizeof((const unsigned long[]){ __VA_ARGS__ }) / sizeof(unsigned long))

/* The worker's memory: canaried slots, an end-of-page buffer, an arena. */
static unsigned char slots[NSLOTS][CANARY + SLOT + CANARY] __attribute__((aligned(64)));
static unsigned char *edge;	/* PAGE bytes, a PROT_NONE page after them */
static unsigned char *guard;	/* that PROT_NONE page */
static unsigned char *arena;	/* ARENA_PAGES pages mmap, munmap, mprotect may change */
static unsigned char *altstack;	/* ALTSTACK bytes above a PROT_NONE page */
static unsigned long restorer, vdso;
static volatile long signals_seen;
static long cur_args[6];
static int cur_call;

static void put_report(int call, int outcome, const long *a)
{
	struct report r = { .call = call, .outcome = outcome };

	if (a)
		memcpy(r.a, a, sizeof(r.a));
	raw_syscall6(SYS_write, REPORT_FD, (long)&r, sizeof(r), 0, 0, 0);
}

static void catch(int sig, siginfo_t *si, void *uc)
{
	signals_seen++;
	/* A fault of the worker's own (not a kill of itself): something it
	 * relies on changed under it. */
	if ((sig == SIGSEGV || sig == SIGBUS) && si->si_code > 0) {
		long a[6];

		memcpy(a, cur_args, sizeof(a));
		/* in place of the last three arguments */
		a[3] = ((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
		a[4] = si->si_code;
		a[5] = (long)si->si_addr;
		put_report(-2 - cur_call, FAIL_FAULT, a);
		raw_syscall6(SYS_exit_group, 70, 0, 0, 0, 0, 0);
	}
}

static void set_catch(int sig)
{
	struct sigaction sa = { .sa_sigaction = catch, .sa_flags = SA_SIGINFO | SA_ONSTACK };

	sigaction(sig, &sa, NULL);
}

/* What every call must find in place: the signals the run depends on
 * handled and unblocked, the watchdog armed. */
static void restore_invariants(void)
{
	struct itimerval wd = { { 0, WATCHDOG_MS * 1000 }, { 0, WATCHDOG_MS * 1000 } };
	stack_t ss = { .ss_sp = altstack, .ss_size = ALTSTACK };
	sigset_t s;

	sigaltstack(&ss, NULL);
	set_catch(SIGALRM);
	set_catch(SIGUSR1);
	set_catch(SIGSEGV);
	set_catch(SIGBUS);
	sigemptyset(&s);
	sigaddset(&s, SIGALRM);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGSEGV);
	sigaddset(&s, SIGBUS);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	setitimer(ITIMER_REAL, &wd, NULL);
}

static unsigned char canary_byte(int slot, int i)
{
	return (unsigned char)(0xa5 ^ (slot * 31 + i));
}

static void fill_slots(void)
{
	int s, i;

	for (s = 0; s < NSLOTS; s++)
		for (i = 0; i < CANARY; i++)
			slots[s][i] = slots[s][CANARY + SLOT + i] = canary_byte(s, i);
}

static int canaries_intact(void)
{
	int s, i;

	for (s = 0; s < NSLOTS; s++)
		for (i = 0; i < CANARY; i++)
			if (slots[s][i] != canary_byte(s, i) ||
			    slots[s][CANARY + SLOT + i] != canary_byte(s, i))
				return 0;
	return 1;
}

static unsigned char *slot(void)
{
	unsigned char *p = slots[rnd() % NSLOTS] + CANARY;
	int i;

	for (i = 0; i < 64; i++)	/* some fresh garbage at its start */
		p[i] = (unsigned char)rnd();
	return p;
}

/*
 * umk's own memory: its image, heap and stack, from the host's
 * /proc/self/maps (umk's, read through its hostfs). No call may read or
 * write there for a program (access_ok: only the caller's regions).
 */
static unsigned long umk_addr[16];
static int n_umk_addr;
/* Where the host's map of umk's memory is: the worker's /proc/self/maps
 * is umk's /proc, which shows only the worker's own regions, so the parent
 * is given the host's /proc/PID/maps of umk on stdin (-M) and leaves it in
 * umk's tmpfs for the workers. */
#define UMK_MAPS "/tmp/fuzz-umk-maps"
static int have_umk_maps;

/* Addresses in umk's image, heap and stack, from the host's map of umk
 * (lines naming umk's executable, [heap], [stack]). */
static void find_umk_memory(void)
{
	static char maps[65536];
	long fd, n = 0, r;
	char *line, *end;

	if (!have_umk_maps)
		return;
	fd = rsys(SYS_open, UMK_MAPS, 0);
	if (fd < 0)
		return;
	while (n < (long)sizeof(maps) - 1 &&
	       (r = rsys(SYS_read, fd, maps + n, sizeof(maps) - 1 - n)) > 0)
		n += r;
	rsys(SYS_close, fd);
	maps[n] = '\0';
	for (line = maps; *line && n_umk_addr < 16; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		*end = '\0';
		if ((strlen(line) > 4 && !strcmp(end - 4, "/umk")) || strstr(line, "[heap]") ||
		    strstr(line, "[stack]")) {
			umk_addr[n_umk_addr] = strtoul(line, NULL, 16) + 64 * (n_umk_addr & 3);
			n_umk_addr++;
		}
	}
}

/* -M: copy stdin (the host's /proc/PID/maps of umk) to UMK_MAPS. */
static void save_umk_maps(void)
{
	char buf[4096];
	int fd = open(UMK_MAPS, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	ssize_t r;

	if (fd < 0)
		die("open(%s): %s", UMK_MAPS, errno_name(errno));
	while ((r = read(0, buf, sizeof(buf))) > 0)
		if (write(fd, buf, r) != r)
			die("write(%s) failed", UMK_MAPS);
	close(fd);
	have_umk_maps = 1;
	find_umk_memory();
	printf("fuzz: %d addresses in umk's own memory\n", n_umk_addr);
	n_umk_addr = 0;
}

static long umk_pointer(void)
{
	return n_umk_addr ? (long)umk_addr[rnd() % n_umk_addr] : -1L;
}

/* Pointers the kernel must refuse without touching anything. */
static long bad_pointer(void)
{
	if (rnd() % 8 == 0)
		return umk_pointer();
	return (long)PICK(0, 1, (unsigned long)guard, (unsigned long)guard + 4095,
			  (unsigned long)&bad_pointer,		/* read-only text */
			  vdso, vdso - PAGE,			/* umk's vDSO, its data */
			  (1UL << 47) - PAGE, (1UL << 47) - 1, 1UL << 47,
			  0x8000000000000000UL, 0xffff880000000000UL,
			  0xffffffffff600000UL, -1UL, 0xdead0000000UL);
}

/* A pointer the kernel cannot even read from: for the inputs (a handler,
 * a signal mask) whose garbage contents would take the worker down. */
static long unreadable_pointer(void)
{
	if (rnd() % 8 == 0)
		return umk_pointer();
	return (long)PICK(1, (unsigned long)guard, (1UL << 47) - 1, 0x8000000000000000UL,
			  0xffff880000000000UL, -1UL, 0xdead0000000UL);
}

/* A pointer the kernel may read or write up to len bytes at. */
static long pointer(int writable_ok)
{
	switch (rnd() % 6) {
	case 0:
	case 1:
	case 2:
		return (long)slot();
	case 3:
		return (long)slot() + rnd() % 64;	/* unaligned */
	case 4:
		return (long)edge + PAGE - PICK(1, 8, 16, 64, 128, 1024);
	default:
		return bad_pointer();
	}
}

/* A length for buffer p: within it, or huge when p is past its end. */
static long length(long p)
{
	unsigned long room = ~0UL;

	if (p >= (long)slots && p < (long)slots + (long)sizeof(slots))
		room = SLOT - 64;
	if (room == ~0UL)
		return (long)PICK(0, 1, 7, 8, 16, 64, 511, 512, 513, 4095, 4096, 4097,
				  0x7fffffff, 0x80000000UL, 1UL << 47, ~0UL >> 1, ~0UL);
	return (long)(rnd() % room);
}

static long fd(void)
{
	if (rnd() % 4)
		return (long)(rnd() % 12);		/* probably open */
	return (long)PICK(-1, -100, 4095, 4096, 1 << 20, 0x7fffffff, 0x80000000UL,
			  0xffffffffUL, 1UL << 32, 64, 63);
}

static long flags(void)
{
	switch (rnd() % 4) {
	case 0:
		return 0;
	case 1:
		return 1L << (rnd() % 64);
	case 2:
		return (long)(rnd() & 0xfff);
	default:
		return (long)rnd();
	}
}

static long number(void)
{
	if (rnd() % 2)
		return (long)PICK(0, 1, 2, 3, 4, 5, 8, 16, 63, 64, 65, 255, 1024, 4096,
				  0x7fffffff, 0x80000000UL, 0xffffffffUL, ~0UL, ~0UL >> 1);
	return (long)(rnd() % 64);
}

static const char *const paths[] = {
	"/dev/null", "/dev/zero", "/", ".", "", "/nonexistent-umk-fuzz/x", "/dev/null/x",
	"/tmp", "/tmp/umk-fuzz", "/dev/shm/umk-fuzz", "/tmp/umk-fuzz/x",
};

static long path(void)
{
	static char longpath[5000];

	switch (rnd() % 4) {
	case 0:
		memset(longpath, 'a', sizeof(longpath) - 1);
		return (long)longpath;			/* ENAMETOOLONG */
	case 1:
		edge[PAGE - 1] = 'x';			/* runs into the guard */
		return (long)edge + PAGE - 1;
	case 2:
		return bad_pointer();
	default:
		return (long)paths[rnd() % (sizeof(paths) / sizeof(paths[0]))];
	}
}

static long timespec_arg(void)
{
	static const long secs[] = { 0, 0, 1, -1, 0x7fffffffffffffffL };
	static const long nsecs[] = { 0, 1, 1000000, 5000000, 999999999, 1000000000, -1 };
	long *t;

	if (rnd() % 4 == 0)
		return bad_pointer();
	t = (long *)slot();
	t[0] = secs[rnd() % 5];
	t[1] = nsecs[rnd() % 7];
	return (long)t;
}

/* A signal number for a call to send: never SIGKILL, the one the worker
 * cannot survive. */
static long signo(void)
{
	long s = (long)PICK(0, 1, 2, 10, 12, 15, 17, 18, 19, 20, 23, 28, 34, 64, 65, -1, 1000);

	return s;
}

static long arg(char type)
{
	long p;

	switch (type) {
	case 'd':
		return rnd() % 3 ? fd() : number();
	case 'u':
		return number();
	case 'x':
		return flags();
	case 'o':
		return (long)(rnd() & 07777);
	case 'A':		/* a sigaction: rt_sigaction's act */
	case 'p':
	case 'b':
		p = pointer(1);
		return p;
	case 's':
		return path();
	case 't':
		return timespec_arg();
	case 'S':
		return signo();
	case 'c':
		return (long)PICK(0, 1, 2, 3, 4, 5, 6, 7, 11, 12, -1, -2, 100, 0x7fffffff);
	case 'F':		/* a socket family: AF_UNIX mostly */
		return (long)PICK(1, 1, 1, 0, 2, 10, 16, 45, 46, -1);
	case 'T':		/* a socket type, with SOCK_NONBLOCK/SOCK_CLOEXEC */
		return (long)PICK(1, 2, 5, 3, 0, 11, -1) | (rnd() % 2 ? 04000 : 0);
	case 'm':		/* MSG_* flags */
		return rnd() % 2 ? 0x40 : flags();
	case 'a':		/* a socket address: its length is the next argument */
		return pointer(1);
	default:
		return 0;
	}
}

/* An address and length for mmap/munmap/mprotect with MAP_FIXED semantics:
 * inside the arena, or refused for being outside user space or huge. */
static void arena_range(long *addr, long *len)
{
	long off = (long)(rnd() % ARENA_PAGES) * PAGE + (rnd() % 8 == 0 ? 1 : 0);

	if (rnd() % 5 == 0) {
		*addr = (long)PICK((1UL << 47) - PAGE, 1UL << 47, 0xffff880000000000UL,
				   0x8000000000000000UL, (unsigned long)vdso);
		*len = (long)PICK(0, PAGE, 2 * PAGE, ~0UL - PAGE + 1);
		return;
	}
	*addr = (long)arena + off;
	if (rnd() % 4 == 0)
		*len = (long)PICK(0, ~0UL, ~0UL - PAGE + 1, 0x8000000000000000UL);
	else
		*len = (long)(rnd() % (ARENA_PAGES * PAGE - (off & ~(PAGE - 1)) + 1));
}

static int self_pid, self_tid;
static int selftest;		/* -C: 1, -H: 2 */

static long target_pid(void)
{
	return (long)PICK((unsigned long)self_pid, (unsigned long)self_pid, (unsigned long)self_tid,
			  99999, 0x7fffffff, -99999, 0x80000001UL);
}

/*
 * Bound what the kernel may rightly do to what the worker owns (see the
 * header comment). Returns 0 to skip the call.
 */
static int sanitize(int nr, const char *types, long *a)
{
	int i;
	long *p;

	for (i = 0; i < 6 && types[i] && types[i] != '-'; i++) {
		if (types[i] == 'b' || (types[i] == 'p' && types[i + 1] == 'u' &&
					nr != SYS_poll && nr != SYS_rt_sigtimedwait))
			a[i + 1] = length(a[i]);
		if ((types[i] == 'd' || types[i] == 'u' || types[i] == 'x') && a[i] == REPORT_FD)
			a[i] = 99;
	}
	switch (nr) {
	case SYS_exit: case SYS_exit_group: case SYS_execve: case SYS_clone:
	case SYS_clone3: case SYS_vfork:
	case SYS_fork: case SYS_rt_sigreturn: case SYS_rseq: case SYS_ptrace:
		return 0;
	case SYS_process_vm_readv: case SYS_process_vm_writev:
		a[0] = target_pid();
		break;
	case SYS_shmat:
		a[1] = 0;
		break;
	case SYS_setresuid:
		a[2] = (long)PICK(0, ~0UL);
		/* fall through */
	case SYS_setreuid:
		a[1] = (long)PICK(0, ~0UL);
		/* fall through */
	case SYS_setuid: case SYS_setfsuid:
		a[0] = (long)PICK(0, ~0UL);
		break;
	case SYS_getgroups: case SYS_setgroups:	/* a count of 4-byte gids */
		if (a[1] >= (long)slots && a[1] < (long)slots + (long)sizeof(slots))
			a[0] = length(a[1]) / 4;
		break;
	case SYS_sched_setscheduler:
		a[0] = target_pid();
		a[1] = (long)PICK(0, 3, 5, 4, 6, 7, ~0UL, 0x40000000, 0x40000003);
		break;
	case SYS_sched_setparam:	/* the worker is never real-time: EINVAL but for 0 */
		a[0] = target_pid();
		break;
	case SYS_setpriority:
		a[0] = (long)PICK(0, 0, 3, ~0UL);	/* PRIO_PROCESS, or invalid */
		a[1] = target_pid();
		a[2] = (long)PICK(0, 1, 5, 19, 20, 1000);
		break;
	case SYS_kill: case SYS_tkill:
		a[0] = target_pid();
		break;
	case SYS_tgkill: case SYS_rt_tgsigqueueinfo:
		a[0] = target_pid();
		a[1] = target_pid();
		break;
	case SYS_rt_sigqueueinfo:
	case SYS_prlimit64:	/* a limit on the parent (RLIMIT_CPU) kills it */
		a[0] = target_pid();
		break;
	case SYS_wait4: case SYS_waitid:	/* the worker has no children */
		break;
	case SYS_mmap:
		if (a[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE))
			arena_range(&a[0], &a[1]);
		else if (rnd() % 2)
			a[1] = (long)PICK(0, 1, PAGE, 3 * PAGE, 1UL << 40, ~0UL);
		break;
	case SYS_munmap: case SYS_mprotect:
		arena_range(&a[0], &a[1]);
		break;
	case SYS_madvise:	/* DONTNEED drops pages */
		arena_range(&a[0], &a[1]);
		/* Linux gives every region up to start + len the advice before
		 * it answers ENOMEM for the holes: a huge length that does not
		 * wrap (EINVAL) would drop the worker's own pages above the
		 * arena, its data and stack, natively too. */
		{
			unsigned long s = (unsigned long)a[0], e = s + (unsigned long)a[1];
			unsigned long arena_end = (unsigned long)arena + ARENA_PAGES * PAGE;

			if (s >= (unsigned long)arena && s < arena_end && e >= s && e > arena_end)
				a[1] = (long)(arena_end - s);
		}
		break;
	case SYS_mremap:	/* a moved range lands anywhere free; a fixed one in the arena */
		arena_range(&a[0], &a[1]);
		a[3] = (long)PICK(0, MREMAP_MAYMOVE, MREMAP_MAYMOVE | MREMAP_FIXED,
				  MREMAP_MAYMOVE | MREMAP_DONTUNMAP,
				  MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, MREMAP_FIXED,
				  MREMAP_DONTUNMAP, 8, (unsigned long)a[3]);
		if (a[3] & MREMAP_FIXED)
			arena_range(&a[4], &a[2]);
		break;
	case SYS_brk:
		break;
	case SYS_poll: case SYS_ppoll:
		if (a[1] > SLOT / 8 - 8 && a[1] < 0x100000)
			a[1] = rnd() % (SLOT / 8 - 8);
		break;
	case SYS_readv: case SYS_writev:
		if (a[1] >= (long)slots && a[1] < (long)slots + (long)sizeof(slots)) {
			struct iovec *v = (struct iovec *)(((a[1] + 15) & ~15L));
			int n = (int)(rnd() % 8);

			for (i = 0; i < n; i++) {
				v[i].iov_base = (void *)pointer(1);
				v[i].iov_len = (size_t)length((long)v[i].iov_base);
			}
			a[1] = (long)v;
			a[2] = rnd() % 4 ? n : (long)PICK(0, 1024, 1025, ~0UL);
		}
		break;
	case SYS_rt_sigaction:
		if (a[0] == SIGALRM || a[0] == SIGUSR1 || a[0] == SIGSEGV || a[0] == SIGBUS)
			a[1] = 0;
		if (a[1] >= (long)slots && a[1] < (long)slots + (long)sizeof(slots)) {
			p = (long *)((a[1] + 7) & ~7L);
			p[0] = (long)PICK((unsigned long)SIG_IGN, (unsigned long)SIG_DFL,
					  (unsigned long)catch);
			/* SIG_DFL only where it ignores: a self-signal must
			 * not end the worker early */
			if (p[0] == (long)SIG_DFL && a[0] != SIGCHLD && a[0] != SIGCONT &&
			    a[0] != SIGURG && a[0] != SIGWINCH)
				p[0] = (long)catch;
			p[1] = (long)(rnd() & 0x7fffffffUL & ~SA_RESETHAND) | SA_RESTORER;
			p[2] = (long)restorer;
			a[1] = (long)p;
		} else if (a[1]) {
			a[1] = unreadable_pointer();
		}
		a[3] = (long)PICK(8, 8, 0, 4, 16, ~0UL);
		break;
	case SYS_arch_prctl:
		a[0] = (long)PICK(0x1001, 0x1002, 0x1003, 0x1004, 0x1011, 0x3001, 0);
		if (a[0] == 0x1002)	/* keep the TLS: set it to itself or fail */
			a[1] = (long)PICK((unsigned long)__builtin_thread_pointer(),
					  1UL << 47, 0x8000000000000000UL);
		break;
	case SYS_sigaltstack:
		if (a[0] >= (long)slots && a[0] < (long)slots + (long)sizeof(slots)) {
			p = (long *)((a[0] + 7) & ~7L);
			/* a frame too big for it faults on the page below */
			p[0] = (long)altstack;
			p[1] = (long)PICK(0, SS_DISABLE, SS_ONSTACK, 0x80000000UL, 8);
			p[2] = (long)PICK(0, 1, 2048, 4096, 8192, ALTSTACK, ~0UL);
			if (p[1] != SS_DISABLE && (unsigned long)p[2] > ALTSTACK)
				p[2] = ALTSTACK;
			a[0] = (long)p;
		} else if (a[0]) {
			a[0] = unreadable_pointer();
		}
		break;
	case SYS_ioctl:
		a[1] = (long)PICK(0x5401, 0x5413, 0x541B, 0x5421, 0x5451, 0x5450, 0x540F,
				  (unsigned long)a[1]);
		break;
	case SYS_fcntl:
		a[1] = (long)PICK(0, 1, 2, 3, 4, 1030, 5, 6, 7, 1024, 1025, 1031,
				  (unsigned long)a[1]);
		if ((a[1] == 0 || a[1] == 1030) && a[2] == REPORT_FD)
			a[2] = 99;
		break;
	case SYS_futex:
		a[1] = (long)PICK(0, 1, 128, 129, 9, 10, 5, 137, (unsigned long)a[1]);
		break;
	case SYS_pselect6:
		if (a[5] >= (long)slots && a[5] < (long)slots + (long)sizeof(slots)) {
			p = (long *)((a[5] + 7) & ~7L);
			p[0] = unreadable_pointer();
			p[1] = 8;
			a[5] = (long)p;
		}
		break;
	}
	/* A temporary or new signal mask never blocks what the run needs:
	 * made from random bits without them, or an address to refuse. */
	if (nr == SYS_rt_sigprocmask || nr == SYS_rt_sigsuspend || nr == SYS_ppoll) {
		int k = nr == SYS_rt_sigprocmask ? 1 : nr == SYS_ppoll ? 3 : 0;

		if (a[k] >= (long)slots && a[k] < (long)slots + (long)sizeof(slots)) {
			p = (long *)((a[k] + 7) & ~7L);
			*p = (long)rnd() & ~((1L << (SIGALRM - 1)) | (1L << (SIGUSR1 - 1)) |
					      (1L << (SIGSEGV - 1)) | (1L << (SIGBUS - 1)));
			a[k] = (long)p;
		} else if (a[k]) {
			a[k] = unreadable_pointer();
		}
	}
	return 1;
}

static int worker(unsigned long seed, int n)
{
	int i;

	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	self_pid = getpid();
	self_tid = (int)rsys0(SYS_gettid);
	vdso = getauxval(AT_SYSINFO_EHDR);
	edge = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	arena = mmap(NULL, ARENA_PAGES * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	altstack = mmap(NULL, PAGE + ALTSTACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge == MAP_FAILED || arena == MAP_FAILED || altstack == MAP_FAILED)
		return 99;
	guard = edge + PAGE;
	mprotect(guard, PAGE, PROT_NONE);
	mprotect(altstack, PAGE, PROT_NONE);
	altstack += PAGE;
	{
		/* the kernel's struct sigaction: handler, flags, restorer, mask */
		unsigned long k[4];

		restore_invariants();
		/* musl's restorer, for the handlers installed from here on */
		rsys(SYS_rt_sigaction, SIGALRM, NULL, k, 8);
		restorer = k[2];
		/* every signal caught, musl's own (32-34) too */
		for (i = 1; i < 65; i++) {
			k[0] = (unsigned long)catch;
			k[1] = SA_SIGINFO | SA_ONSTACK | SA_RESTORER;
			k[2] = restorer;
			k[3] = 0;
			if (i != SIGKILL && i != SIGSTOP)
				rsys(SYS_rt_sigaction, i, k, NULL, 8);
		}
	}
	fill_slots();
	find_umk_memory();
	/* Some fds to find: /dev/null, a pipe, a dup. */
	close(0);
	close(1);
	close(2);
	open("/dev/null", 0);
	{
		int pfd[2];

		pipe(pfd);
		dup(pfd[1]);
	}
	/* Ready: its handlers are set, the controller may signal it. */
	put_report(-1, 0, NULL);
	if (selftest == 2) {
		/* The watchdog's own test: reads of the empty pipe (fd 1;
		 * its write ends, 2 and 3, are open) with SIGALRM blocked. */
		unsigned long alrm = 1UL << (SIGALRM - 1);

		rsys(SYS_rt_sigprocmask, SIG_BLOCK, &alrm, NULL, 8);
		for (;;)	/* the parent's signals end a read: read again */
			rsys(SYS_read, 1, slots[0] + CANARY, 1);
	}
	if (selftest) {
		/* The canary check's own test: a read one byte longer than
		 * the buffer it fills must be caught. */
		for (i = 0; i < NCALLS && calls[i].nr != SYS_read; i++)
			;
		cur_args[0] = rsys(SYS_open, "/dev/zero", 0);
		cur_args[1] = (long)(slots[0] + CANARY);
		cur_args[2] = SLOT + 1;
		rsys(SYS_read, cur_args[0], cur_args[1], cur_args[2]);
		if (!canaries_intact())
			put_report(-2 - i, FAIL_CANARY, cur_args);
		return 71;
	}
	for (i = 0; i < n; i++) {
		int c = (int)(rnd() % NCALLS), j;
		const char *t = calls[c].args;
		long r;

		for (j = 0; j < 6; j++)
			cur_args[j] = (j < (int)strlen(t) && t[0] != '-') ? arg(t[j]) : (long)rnd();
		if (!sanitize(calls[c].nr, t, cur_args))
			continue;
		cur_call = c;
		r = raw_syscall6(calls[c].nr, cur_args[0], cur_args[1], cur_args[2], cur_args[3],
				 cur_args[4], cur_args[5]);
		if (!canaries_intact()) {
			put_report(-2 - c, FAIL_CANARY, cur_args);
			return 71;
		}
		put_report(c, r < 0 && r > -MAX_ERRNO ? (int)-r : 0, cur_args);
		switch (calls[c].nr) {
		case SYS_rt_sigprocmask: case SYS_alarm: case SYS_setitimer:
		case SYS_sigaltstack: case SYS_rt_sigaction:
			restore_invariants();
			break;
		}
	}
	/* Last, a sigreturn through whatever the stack holds: no handler ran,
	 * so the "frame" is garbage and the worker should die of it, by the
	 * default action: the SIGSEGV is not a fault of its own. */
	signal(SIGSEGV, SIG_DFL);
	rsys0(SYS_rt_sigreturn);
	return 0;
}

/* The parent: workers, their reports, and the signals it sends them. */
struct slot_state {
	pid_t pid;
	int fd;
	unsigned long seed;
	double last;		/* ms of the last report or SIGCONT */
	double stopped_at;	/* 0 when running */
	int ready;		/* it has reported: its handlers are set */
	struct report partial;
	size_t got;
};

static unsigned char seen[512][MAX_ERRNO / 8];
static long ncalls_made, failures;

static void record(struct slot_state *w, const struct report *r)
{
	int k;

	if (r->call >= 0 && r->call < NCALLS && r->outcome >= 0 && r->outcome < MAX_ERRNO) {
		seen[r->call][r->outcome / 8] |= 1 << (r->outcome % 8);
		ncalls_made++;
		return;
	}
	if (r->call > -2 || r->call < -1 - NCALLS)
		return;
	failures++;
	printf("fuzz: FAIL worker seed %lu: %s after %s(", w->seed,
	       r->outcome == FAIL_CANARY ? "a canary changed" : "it faulted by itself",
	       calls[-2 - r->call].name);
	for (k = 0; k < 6; k++)
		printf("%s%#lx", k ? ", " : "", r->a[k]);
	printf(")\n");
}

static pid_t start(struct slot_state *w, const char *self, unsigned long seed, int n)
{
	int p[2];
	char s[32], c[16];

	/* Only the worker's end is inherited, and only by it. */
	if (pipe2(p, O_CLOEXEC))
		die("pipe");
	dup2(p[1], REPORT_FD);
	close(p[1]);
	snprintf(s, sizeof(s), "%lu", seed);
	snprintf(c, sizeof(c), "%d", n);
	w->pid = spawn(self, (char *[]){ (char *)self, "-n", c, selftest == 2 ? "-H" : selftest ? "-C" : "-v",
				       have_umk_maps ? "-m" : "-v", "-W", s, NULL });
	close(REPORT_FD);
	w->fd = p[0];
	w->seed = seed;
	w->last = now_ms();
	w->stopped_at = 0;
	w->ready = 0;
	w->got = 0;
	return w->pid;
}

static int by_signal[65], exited, workers_done;

/* Its scheduling policy and nice value, fields 41 and 19 of its
 * /proc/PID/stat: a worker may have made itself SCHED_IDLE or nice 19. */
static void task_sched(pid_t pid, char *out, size_t size)
{
	char path[64], line[1024];
	long field[64];
	int n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (f && fgets(line, sizeof(line), f))
		n = stat_fields(line, field);
	if (f)
		fclose(f);
	if (n < 0)
		snprintf(out, size, "no /proc/PID/stat");
	else if (n < 38)
		snprintf(out, size, "short /proc/PID/stat");
	else
		snprintf(out, size, "policy %ld, nice %ld", field[37], field[15]);
}

/* What the kernel says of a task that hangs: the State, SigPnd, ShdPnd
 * and SigBlk lines of its /proc/PID/status and its policy and nice value,
 * on one line. */
static const char *task_state(pid_t pid)
{
	static char out[320];
	char path[64], line[128];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return "no /proc/PID/status";
	out[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "State:", 6) && strncmp(line, "SigPnd:", 7) &&
		    strncmp(line, "ShdPnd:", 7) && strncmp(line, "SigBlk:", 7))
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (char *t = strchr(line, '\t'); t; t = strchr(t, '\t'))
			*t = ' ';
		n += snprintf(out + n, sizeof(out) - n, "%s%s", n ? ", " : "", line);
		if (n >= sizeof(out))
			break;
	}
	fclose(f);
	if (n < sizeof(out) - 2) {
		out[n++] = ',';
		out[n++] = ' ';
		task_sched(pid, out + n, sizeof(out) - n);
	}
	return out;
}

static void finish(struct slot_state *w)
{
	int st;

	kill(w->pid, SIGCONT);
	st = wait_status(w->pid);
	close(w->fd);
	if (WIFSIGNALED(st))
		by_signal[WTERMSIG(st) & 63]++;
	else
		exited++;
	w->pid = 0;
	workers_done++;
}

int main(int argc, char **argv)
{
	unsigned long seed = 1;
	int nworkers = 8, n = 300, seconds = 0, verbose = 0, i, opt, started = 0, running;
	const int par = 4;
	struct slot_state ws[4] = { 0 };
	double t0, t, t_prev;
	long pairs = 0, distinct = 0, errnos = 0;
	unsigned char any_errno[MAX_ERRNO / 8] = { 0 };
	struct utsname uts;
	size_t len;

	/* Only under umk: on the host, as root, the calls would change the
	 * host's own files (a native run once made /dev/zero a null device). */
	if (uname(&uts) || (len = strlen(uts.release)) < 4 ||
	    strcmp(uts.release + len - 4, "-umk")) {
		fprintf(stderr, "fuzz: runs only under umk (on the host its calls would change "
				"the host's files)\n");
		return 2;
	}

	while ((opt = getopt(argc, argv, "s:w:n:t:vCHMmW:")) != -1) {
		switch (opt) {
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'w': nworkers = atoi(optarg); break;
		case 'n': n = atoi(optarg); break;
		case 't': seconds = atoi(optarg); break;
		case 'v': verbose = 1; break;
		case 'C': selftest = 1; break;
		case 'H': selftest = 2; break;
		case 'M': have_umk_maps = 2; break;
		case 'm': have_umk_maps = 1; break;
		case 'W': return worker(strtoul(optarg, NULL, 0), n);
		default:
			fprintf(stderr, "usage: fuzz [-s SEED] [-w WORKERS] [-n CALLS] [-t SECONDS] [-v] [-C] [-H] [-M]\n");
			return 2;
		}
	}
	printf("fuzz: seed %lu, %d calls per worker, %d calls in the table\n", seed, n, NCALLS);
	if (have_umk_maps == 2)
		save_umk_maps();
	fflush(stdout);
	signal(SIGPIPE, SIG_IGN);
	rng = seed;
	t0 = t_prev = now_ms();
	for (;;) {
		struct pollfd pf[4];

		t = now_ms();
		running = 0;
		for (i = 0; i < par; i++) {
			int more = seconds ? t - t0 < seconds * 1000.0 : started < nworkers;

			if (!ws[i].pid && more)
				start(&ws[i], argv[0], seed + started++, n);
			pf[i].fd = ws[i].pid ? ws[i].fd : -1;
			pf[i].events = POLLIN;
			running += ws[i].pid != 0;
		}
		if (!running)
			break;
		poll(pf, par, 2);
		t = now_ms();
		/* This loop comes back every few ms. When it did not for a
		 * while, nobody ran: the host starved umk (a loaded machine,
		 * a SIGSTOP). That time is no worker's hang. A call that does
		 * hang leaves the loop running. */
		if (t - t_prev > STALL_MS)
			for (i = 0; i < par; i++)
				ws[i].last += t - t_prev;
		t_prev = t;
		for (i = 0; i < par; i++) {
			struct slot_state *w = &ws[i];
			long r;

			if (!w->pid)
				continue;
			if (pf[i].revents) {
				char *dst = (char *)&w->partial + w->got;

				r = read(w->fd, dst, sizeof(w->partial) - w->got);
				if (r <= 0) {
					finish(w);
					continue;
				}
				w->got += r;
				if (w->got == sizeof(w->partial)) {
					w->got = 0;
					record(w, &w->partial);
					w->last = t;
					w->ready = 1;
				}
			}
			/* A worker that stopped itself (kill, tkill) is continued. */
			if (!w->stopped_at && t - w->last > 100)
				kill(w->pid, SIGCONT);
			/* The controller: stop, continue and signal the workers. */
			if (w->stopped_at && t - w->stopped_at > 5) {
				kill(w->pid, SIGCONT);
				/* the time stopped is no time without progress;
				 * the time before it still is */
				w->last += t - w->stopped_at;
				w->stopped_at = 0;
			} else if (!w->stopped_at && rnd() % 64 == 0) {
				int sig = (int)PICK(SIGSTOP, SIGUSR1, SIGURG, SIGWINCH, SIGALRM);

				/* Not before its first report: a worker still
				 * starting has no handlers, and SIGUSR1 or
				 * SIGALRM would end it before its calls. */
				if (w->ready) {
					kill(w->pid, sig);
					if (sig == SIGSTOP)
						w->stopped_at = t;
				}
			}
			if (!w->stopped_at && t - w->last > HANG_MS) {
				failures++;
				printf("fuzz: FAIL worker seed %lu: no progress for %d ms after %s (%s)\n",
				       w->seed, HANG_MS, w->partial.call >= 0 ? calls[(int)w->partial.call].name : "its start",
				       task_state(w->pid));
				kill(w->pid, SIGKILL);
				finish(w);
			}
		}
	}
	t = now_ms() - t0;
	for (i = 0; i < NCALLS; i++) {
		int e, any = 0;

		for (e = 0; e < MAX_ERRNO; e++) {
			if (!(seen[i][e / 8] & (1 << (e % 8))))
				continue;
			any = 1;
			pairs++;
			if (e)
				any_errno[e / 8] |= 1 << (e % 8);
		}
		distinct += any;
		if (verbose && any) {
			printf("fuzz:   %-18s", calls[i].name);
			for (e = 0; e < MAX_ERRNO; e++)
				if (seen[i][e / 8] & (1 << (e % 8)))
					printf(" %s", e ? errno_name(e) : "ok");
			printf("\n");
		}
	}
	for (i = 0; i < MAX_ERRNO; i++)
		errnos += (any_errno[i / 8] >> (i % 8)) & 1;
	printf("fuzz: %d workers, %d exited, %d killed by a signal\n", workers_done, exited,
	       workers_done - exited);
	for (i = 1; i < 64; i++)
		if (by_signal[i])
			printf("fuzz: %d by %s\n", by_signal[i], signal_name(i));
	printf("fuzz: %ld calls in %.1f s (%.0f/s): %ld of %d calls made, %ld (call, outcome) pairs, %ld errno values\n",
	       ncalls_made, t / 1000, ncalls_made / (t / 1000), distinct, NCALLS, pairs, errnos);
	printf("fuzz: %ld failures\n", failures);
	return failures ? 1 : 0;
}
