/*
 * ptstep CASE: ptrace(2)'s stepping and peeking requests (kernel/step.c,
 * kernel/ptrace.c), as a tracer of its own child. Only the tracer prints;
 * every line is deterministic (offsets into the stepped code, never
 * addresses or pids), so tests/ptrace.bats compares the output natively and
 * under umk.
 *
 *   step     PTRACE_SINGLESTEP over a known instruction sequence from its
 *            int3 to its end: one stop per instruction, each with its
 *            offset and si_code (TRAP_TRACE; TRAP_BRKPT after the
 *            `syscall`), TF hidden from GETREGS; a signal with a handler
 *            stops at the handler's first instruction; CONT ends stepping
 *   sysemu   PTRACE_SYSEMU: entry stops only, the call never made, the
 *            tracer's rax its result (a CONT at the stop skips the call
 *            too); PTRACE_SYSEMU_SINGLESTEP over the same sequence
 *   peeksig  PTRACE_PEEKSIGINFO of the thread's and the process's
 *            (PTRACE_PEEKSIGINFO_SHARED) queued signals, off and nr, EINVAL
 *   thread   PTRACE_O_TRACECLONE: a thread's exit is a zombie its tracer
 *            waits for by its tid, with the group's code once the leader
 *            has called exit_group; the process's exit is reported after
 *   procmem  what gdb reads of its tracee besides ptrace: /proc/PID/mem
 *            (pread, pwrite into read-only code, EIO where nothing is
 *            mapped), /proc/PID/auxv, /proc/PID/task, personality(2)
 *            inherited
 *   archprctl PTRACE_ARCH_PRCTL: the tracee's FS base, read and set;
 *            EPERM and EINVAL; PTRACE_GET_RSEQ_CONFIGURATION before and
 *            after the tracee registers an rseq area
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#ifndef PTRACE_SYSEMU
#define PTRACE_SYSEMU 31
#define PTRACE_SYSEMU_SINGLESTEP 32
#endif
#ifndef PTRACE_ARCH_PRCTL
#define PTRACE_ARCH_PRCTL 30
#endif
#ifndef PTRACE_PEEKSIGINFO
#define PTRACE_PEEKSIGINFO 0x4209
#endif
#define PEEKSIGINFO_SHARED 1

struct peeksiginfo_args {
	uint64_t off;
	uint32_t flags;
	int32_t nr;
};

/* The stepped sequence: an int3 the tracee stops at, then plain
 * instructions, a getpid `syscall`, and seq_end. */
extern const char seq_start[], seq_end[];
__asm__(".text\n"
	".globl seq_start, seq_end\n"
	"seq_start: int3\n"
	"	nop\n"
	"	mov $1, %eax\n"
	"	add $2, %eax\n"
	"	lea 3(%rax), %rcx\n"
	"	mov $39, %eax\n"		/* getpid */
	"	syscall\n"
	"	xor %ecx, %ecx\n"
	"	push %rcx\n"
	"	pop %rcx\n"
	"seq_end: ret\n");

static long pt(long req, pid_t pid, long addr, long data)
{
	return rsys(SYS_ptrace, req, pid, addr, data);
}

static int wait_stop(pid_t pid)
{
	int st = 0;

	if (rsys(SYS_wait4, pid, &st, __WALL, 0) != pid)
		die("wait4");
	return st;
}

static const char *trap_code(int code)
{
	static char buf[16];

	switch (code) {
	case 0x80: return "SI_KERNEL";
	case 1: return "TRAP_BRKPT";
	case 2: return "TRAP_TRACE";
	case 4: return "TRAP_HWBKPT";
	}
	snprintf(buf, sizeof(buf), "%d", code);
	return buf;
}

static volatile int handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

/* A traced child that stops at seq_start's int3 (its SIGTRAP), runs the
 * sequence, then after() if given; its exit status is what it saw. */
static pid_t tracee(void (*after)(void))
{
	pid_t pid = fork_or_die();

	if (pid == 0) {
		signal(SIGUSR1, on_usr1);
		if (pt(PTRACE_TRACEME, 0, 0, 0))
			_exit(90);
		((void (*)(void))seq_start)();
		if (after)
			after();
		_exit(handled);
	}
	return pid;
}

static long rip_off(pid_t pid, struct user_regs_struct *r)
{
	pt(PTRACE_GETREGS, pid, 0, (long)r);
	return (long)(r->rip - (unsigned long)seq_start);
}

/* Resume with req until rip reaches seq_end, printing every stop. */
static void step_sequence(pid_t pid, long req)
{
	struct user_regs_struct r;
	siginfo_t si;
	int n = 0, st, tf_seen = 0;
	long off;

	do {
		pt(req, pid, 0, 0);
		st = wait_stop(pid);
		if (!WIFSTOPPED(st))
			die("tracee ended while stepping: 0x%x", st);
		off = rip_off(pid, &r);
		tf_seen |= (r.eflags & 0x100) != 0;
		pt(PTRACE_GETSIGINFO, pid, 0, (long)&si);
		if (WSTOPSIG(st) == SIGTRAP && si.si_code == SIGTRAP)
			printf("stop %d: +%ld syscall entry %s, rax %ld\n", ++n, off,
			       r.orig_rax == SYS_getpid ? "getpid" : "?", (long)r.rax);
		else
			printf("stop %d: +%ld %s %s, si_addr is rip %s\n", ++n, off,
			       signal_name(WSTOPSIG(st)), trap_code(si.si_code),
			       (unsigned long)si.si_addr == r.rip ? "yes" : "no");
	} while (r.rip != (unsigned long)seq_end && n < 40);
	printf("%d stops to seq_end, TF seen by the tracer: %s\n", n, tf_seen ? "yes" : "no");
}

static void case_step(void)
{
	struct user_regs_struct r;
	pid_t pid = tracee(NULL);
	int st;

	st = wait_stop(pid);	/* the child's first stop: SIGTRAP at the int3 */
	if (!WIFSTOPPED(st))
		die("tracee did not stop");
	printf("int3 stop: %s\n", signal_name(WSTOPSIG(st)));
	step_sequence(pid, PTRACE_SINGLESTEP);

	/* One step into a SIGUSR1 handler: the stop is at its first
	 * instruction, a ptrace_notify SIGTRAP (si_code SIGTRAP). */
	pt(PTRACE_SINGLESTEP, pid, 0, SIGUSR1);
	st = wait_stop(pid);
	pt(PTRACE_GETREGS, pid, 0, (long)&r);
	printf("step with SIGUSR1: %s, at the handler %s\n", signal_name(WSTOPSIG(st)),
	       r.rip == (unsigned long)on_usr1 ? "yes" : "no");
	pt(PTRACE_CONT, pid, 0, 0);
	st = wait_stop(pid);
	printf("after CONT: %s\n", status_text(st));
}

/* ---- sysemu ---- */

static void emulated_calls(void)
{
	long a = rsys0(SYS_getpid), b = rsys0(SYS_getppid), c = rsys0(SYS_getuid);

	_exit((a == 4242) | (b == 77) << 1 | (c == -ENOSYS) << 2);
}

static void case_sysemu(void)
{
	struct user_regs_struct r;
	static const long results[] = { 4242, 77 };
	pid_t pid = tracee(emulated_calls);
	int st, i;

	st = wait_stop(pid);
	printf("int3 stop: %s\n", signal_name(WSTOPSIG(st)));
	step_sequence(pid, PTRACE_SYSEMU_SINGLESTEP);
	for (i = 0; i < 3; i++) {
		pt(PTRACE_SYSEMU, pid, 0, 0);
		st = wait_stop(pid);
		pt(PTRACE_GETREGS, pid, 0, (long)&r);
		printf("SYSEMU stop: %s, orig_rax %s, rax %s\n", signal_name(WSTOPSIG(st)),
		       r.orig_rax == SYS_getpid ? "getpid" : r.orig_rax == SYS_getppid ? "getppid"
			       : r.orig_rax == SYS_getuid ? "getuid" : "?",
		       (long)r.rax == -ENOSYS ? "ENOSYS" : "?");
		if (i < 2) {
			r.rax = results[i];
			pt(PTRACE_SETREGS, pid, 0, (long)&r);
		}
	}
	/* getuid's stop: CONT, and the call is still not made. */
	pt(PTRACE_CONT, pid, 0, 0);
	st = wait_stop(pid);
	printf("tracee: %s (getpid 4242 %s, getppid 77 %s, getuid skipped %s)\n", status_text(st),
	       WEXITSTATUS(st) & 1 ? "yes" : "no", WEXITSTATUS(st) & 2 ? "yes" : "no",
	       WEXITSTATUS(st) & 4 ? "yes" : "no");
}

/* ---- peeksig ---- */

static void peek(pid_t pid, const char *what, uint64_t off, uint32_t flags, int32_t nr)
{
	struct peeksiginfo_args a = { off, flags, nr };
	siginfo_t si[8];
	long n = pt(PTRACE_PEEKSIGINFO, pid, (long)&a, (long)si), i;

	if (n < 0) {
		printf("PEEKSIGINFO %s = -1 %s\n", what, errno_name((int)-n));
		return;
	}
	printf("PEEKSIGINFO %s = %ld:", what, n);
	for (i = 0; i < n; i++) {
		printf(" %s/%d", signal_name(si[i].si_signo), si[i].si_code);
		if (si[i].si_pid == pid)
			printf("/pid");
		if (si[i].si_code == SI_QUEUE)
			printf("/value %d", si[i].si_value.sival_int);
	}
	printf("\n");
}

static void case_peeksig(void)
{
	pid_t pid = fork_or_die();
	sigset_t set;
	int st;

	if (pid == 0) {
		union sigval v;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigaddset(&set, SIGUSR2);
		sigaddset(&set, SIGRTMIN);
		sigprocmask(SIG_BLOCK, &set, NULL);
		pt(PTRACE_TRACEME, 0, 0, 0);
		rsys(SYS_tgkill, getpid(), gettid(), SIGUSR1);
		kill(getpid(), SIGUSR2);
		v.sival_int = 5;
		sigqueue(getpid(), SIGRTMIN, v);
		v.sival_int = 6;
		sigqueue(getpid(), SIGRTMIN, v);
		raise(SIGSTOP);
		_exit(0);
	}
	st = wait_stop(pid);
	printf("tracee: stopped %s\n", signal_name(WSTOPSIG(st)));
	peek(pid, "thread", 0, 0, 8);
	peek(pid, "shared", 0, PEEKSIGINFO_SHARED, 8);
	peek(pid, "shared off 1 nr 1", 1, PEEKSIGINFO_SHARED, 1);
	peek(pid, "shared off 9", 9, PEEKSIGINFO_SHARED, 8);
	peek(pid, "nr 0", 0, 0, 0);
	peek(pid, "nr -1", 0, 0, -1);
	peek(pid, "flags 2", 0, 2, 8);
	pt(PTRACE_KILL, pid, 0, 0);
	st = wait_stop(pid);
	printf("tracee: %s\n", status_text(st));
}

/* ---- thread ---- */

static char thread_stack[64 * 1024];

static int thread_fn(void *arg)
{
	(void)arg;
	rsys(SYS_exit, 7);
	return 0;
}

static void case_thread(void)
{
	pid_t pid = fork_or_die(), tid;
	unsigned long msg = 0;
	int st;

	if (pid == 0) {
		pt(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		clone(thread_fn, thread_stack + sizeof(thread_stack),
		      CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD, NULL);
		/* the leader outlives the thread: its exit is the process's */
		for (st = 0; st < 20; st++)
			sched_yield();
		_exit(3);
	}
	st = wait_stop(pid);
	printf("tracee: %s\n", status_text(st));
	pt(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACECLONE);
	pt(PTRACE_CONT, pid, 0, 0);
	st = wait_stop(pid);
	printf("tracee: event %d %s\n", (unsigned)st >> 16, signal_name(WSTOPSIG(st)));
	pt(PTRACE_GETEVENTMSG, pid, 0, (long)&msg);
	tid = (pid_t)msg;
	st = wait_stop(tid);
	printf("new thread: %s\n", status_text(st));
	/* The thread exits, then the leader: the process's exit is not
	 * reported while the thread's zombie waits for us. */
	pt(PTRACE_CONT, tid, 0, 0);
	pt(PTRACE_CONT, pid, 0, 0);
	usleep(200 * 1000);
	show("wait tracee WNOHANG before the thread's", rsys(SYS_wait4, pid, &st, __WALL | WNOHANG, 0));
	st = wait_stop(tid);
	printf("new thread: %s\n", status_text(st));
	show("wait thread again", rsys(SYS_wait4, tid, &st, __WALL | WNOHANG, 0));
	st = wait_stop(pid);
	printf("tracee: %s\n", status_text(st));
}

/* ---- procmem ---- */

static volatile long mem_word = 1234;

static __attribute__((noinline)) int code_byte(void)
{
	return 1;
}

static int open_proc(pid_t pid, const char *file, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	return open(path, flags);
}

static void case_procmem(void)
{
	unsigned long auxv[64], pagesz = 0;
	long word = 0, old = personality(0xffffffff);
	static const unsigned char ret0[] = { 0x31, 0xc0, 0xc3 };	/* xor %eax,%eax; ret */
	char buf[64];
	pid_t pid;
	ssize_t n;
	int fd, st, i;

	show("personality(ADDR_NO_RANDOMIZE) = old", personality(0x0040000) == old ? 0 : -1);
	pid = fork_or_die();
	if (pid == 0) {
		pt(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		/* the tracer wrote mem_word, and code_byte() to return 0 */
		_exit((mem_word == 5678) | (code_byte() == 0) << 1 |
		      (personality(0xffffffff) == 0x0040000) << 2);
	}
	wait_stop(pid);
	fd = open_proc(pid, "mem", O_RDWR);
	n = pread(fd, &word, sizeof(word), (off_t)(unsigned long)&mem_word);
	printf("mem: pread = %zd, word %ld\n", n, word);
	word = 5678;
	n = pwrite(fd, &word, sizeof(word), (off_t)(unsigned long)&mem_word);
	printf("mem: pwrite = %zd\n", n);
	n = pwrite(fd, ret0, sizeof(ret0), (off_t)(unsigned long)code_byte);
	printf("mem: pwrite into code = %zd, the tracer's copy returns %d\n", n, code_byte());
	n = pread(fd, buf, 8, 4096);
	printf("mem: pread at 4096 = %zd %s\n", n, n < 0 ? errno_name(errno) : "");
	close(fd);

	fd = open_proc(pid, "auxv", O_RDONLY);
	n = read(fd, auxv, sizeof(auxv));
	close(fd);
	for (i = 0; i + 1 < n / 8 && auxv[i]; i += 2)
		if (auxv[i] == 6)	/* AT_PAGESZ */
			pagesz = auxv[i + 1];
	printf("auxv: whole pairs %s, AT_PAGESZ %lu, ends with AT_NULL %s\n", n % 16 ? "no" : "yes",
	       pagesz, n >= 16 && !auxv[n / 8 - 2] ? "yes" : "no");

	snprintf(buf, sizeof(buf), "task/%d/comm", pid);
	fd = open_proc(pid, buf, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	printf("task/PID/comm: %s", n > 0 ? buf : "none\n");
	close(fd);
	show("open task/1/comm (not a thread of it)", open_proc(pid, "task/1/comm", O_RDONLY) < 0 ? -errno : 0);

	pt(PTRACE_CONT, pid, 0, 0);
	st = wait_stop(pid);
	printf("tracee: %s (the words written 1, the code 2, personality inherited 4)\n",
	       status_text(st));
	personality((unsigned long)old);
}

/* ---- archprctl ---- */

#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003

#define RSEQ_SIGNATURE 0x53053053
static struct {
	uint32_t cpu_id_start, cpu_id;
	uint64_t rseq_cs;
	uint32_t flags, node_id, mm_cid, pad;
} __attribute__((aligned(32))) rseq_area;

static void show_rseq(pid_t pid)
{
	struct {
		uint64_t ptr;
		uint32_t size, sig, flags, pad;
	} conf;
	long n = pt(0x420f, pid, sizeof(conf), (long)&conf);	/* GET_RSEQ_CONFIGURATION */

	printf("GET_RSEQ_CONFIGURATION = %ld: area %s, size %u, signature 0x%x, flags %u\n", n,
	       conf.ptr == (unsigned long)&rseq_area ? "ours" : conf.ptr ? "?" : "none", conf.size,
	       conf.sig, conf.flags);
}

static void case_archprctl(void)
{
	struct user_regs_struct r;
	unsigned long fs = 0, again = 0;
	pid_t pid = fork_or_die();
	int st;

	if (pid == 0) {
		pt(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		if (rsys(SYS_rseq, &rseq_area, 32, 0, RSEQ_SIGNATURE))
			_exit(1);
		raise(SIGSTOP);
		_exit(0);
	}
	wait_stop(pid);
	pt(PTRACE_GETREGS, pid, 0, (long)&r);
	show("ARCH_PRCTL ARCH_GET_FS", pt(PTRACE_ARCH_PRCTL, pid, (long)&fs, ARCH_GET_FS));
	printf("FS base is GETREGS' fs_base: %s\n", fs && fs == r.fs_base ? "yes" : "no");
	show("ARCH_PRCTL ARCH_SET_FS to it + 8", pt(PTRACE_ARCH_PRCTL, pid, (long)fs + 8, ARCH_SET_FS));
	pt(PTRACE_ARCH_PRCTL, pid, (long)&again, ARCH_GET_FS);
	pt(PTRACE_GETREGS, pid, 0, (long)&r);
	printf("then ARCH_GET_FS and fs_base: +%ld, +%ld\n", (long)(again - fs), (long)(r.fs_base - fs));
	show("ARCH_PRCTL ARCH_SET_FS back", pt(PTRACE_ARCH_PRCTL, pid, (long)fs, ARCH_SET_FS));
	show("ARCH_PRCTL ARCH_SET_FS 1<<47", pt(PTRACE_ARCH_PRCTL, pid, 1L << 47, ARCH_SET_FS));
	show("ARCH_PRCTL 0x1234", pt(PTRACE_ARCH_PRCTL, pid, 0, 0x1234));
	show_rseq(pid);
	pt(PTRACE_CONT, pid, 0, 0);
	wait_stop(pid);		/* its second SIGSTOP: rseq registered */
	show_rseq(pid);
	pt(PTRACE_CONT, pid, 0, 0);
	st = wait_stop(pid);
	printf("tracee: %s\n", status_text(st));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2)
		die("usage: ptstep step|sysemu|peeksig|thread|procmem|archprctl");
	if (!strcmp(argv[1], "step"))
		case_step();
	else if (!strcmp(argv[1], "sysemu"))
		case_sysemu();
	else if (!strcmp(argv[1], "peeksig"))
		case_peeksig();
	else if (!strcmp(argv[1], "thread"))
		case_thread();
	else if (!strcmp(argv[1], "procmem"))
		case_procmem();
	else if (!strcmp(argv[1], "archprctl"))
		case_archprctl();
	else
		die("unknown case %s", argv[1]);
	return 0;
}
