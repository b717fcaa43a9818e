/*
 * ptracer CASE: ptrace(2) (kernel/ptrace.c), as a tracer of its own
 * children. Only the tracer prints; a tracee reports through its exit
 * status or through memory the tracer reads with PTRACE_PEEKDATA. Every
 * line is deterministic (no pids, addresses or times), so the output
 * natively and under umk must be identical: tests/ptrace.bats compares
 * them. ptrace is called raw, so a failure prints the kernel's errno.
 *
 *   traceme   PTRACE_TRACEME; signal-delivery-stops: GETSIGINFO, a signal
 *             suppressed, one changed into another; exec's SIGTRAP
 *   attach    PTRACE_ATTACH's SIGSTOP, /proc/PID/status's "t (tracing stop)"
 *             and TracerPid, ESRCH for a running tracee, EPERM twice,
 *             DETACH with a signal
 *   seize     PTRACE_SEIZE: no stop, INTERRUPT's PTRACE_EVENT_STOP, a
 *             group-stop as PTRACE_EVENT_STOP, PTRACE_LISTEN across it and
 *             SIGCONT's re-trap, EIO for the options and requests it checks
 *   regs      GETREGS at syscall-enter-stop (orig_rax, rax -ENOSYS) and
 *             exit-stop, TRACESYSGOOD, GET_SYSCALL_INFO, PEEKUSER/POKEUSER,
 *             a call changed (getppid made getpid), a call skipped (orig_rax
 *             -1, rax the result), GETFPREGS, GETREGSET
 *   memory    PEEKDATA/POKEDATA of a variable, POKETEXT into read-only code
 *             (the tracee's copy changes, the file and the tracer's do not),
 *             EIO for an unmapped address, process_vm_readv/writev
 *   restart   the -ERESTART* code at syscall-exit-stop for each restart
 *             class, then what the program gets: nanosleep with a handler
 *             (ERESTART_RESTARTBLOCK, EINTR), nanosleep stopped and
 *             continued (restart_syscall next), a pipe read with and
 *             without SA_RESTART (ERESTARTSYS), poll (ERESTART_RESTARTBLOCK
 *             even without a timeout: do_restart_poll), ppoll and pause
 *             (ERESTARTNOHAND); a clone3 entered with a signal pending
 *             (sent at its enter-stop): ERESTARTNOINTR before any child
 *             exists, the handler, then the call again (it asks for a
 *             cgroup that "/" is not: EBADF, whatever the restart)
 *   fork      PTRACE_O_TRACEFORK: the event, GETEVENTMSG, the new child
 *             traced and stopped, TRACEEXIT's event, the grandchild's exit
 *             seen by the tracer, then by its real parent
 *   exitkill  PTRACE_O_EXITKILL: a tracer's exit kills its tracee;
 *             PTRACE_KILL
 *   tstp      no tracing of its own: a child's 300 ms nanosleep is
 *             stopped by SIGTSTP and continued by SIGCONT, for strace -f
 *             to show (tests/ptrace.bats); the parent never sleeps, so
 *             that strace's nanosleep lines are the child's alone
 *   vfork     no tracing of its own: a vfork child writes and exits while
 *             its parent waits, so that strace -f has one order to show
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#ifndef PTRACE_SYSCALL_INFO_ENTRY
#define PTRACE_SYSCALL_INFO_NONE 0
#define PTRACE_SYSCALL_INFO_ENTRY 1
#define PTRACE_SYSCALL_INFO_EXIT 2
#endif
#define NT_PRSTATUS 1
#define NT_PRFPREG 2

struct syscall_info {
	unsigned char op;
	unsigned char pad[3];
	unsigned int arch;
	unsigned long long ip, sp;
	union {
		struct {
			unsigned long long nr, args[6];
		} entry;
		struct {
			long long rval;
			unsigned char is_error;
		} exit;
	};
};

static long pt(long req, pid_t pid, long addr, long data)
{
	return rsys(SYS_ptrace, req, pid, addr, data);
}

/* "ptrace(NAME) = 0" or "= -1 EIO" */
static long ptshow(const char *what, long ret)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "ptrace(%s)", what);
	return show(buf, ret);
}

/* The kernel-internal codes a tracer sees in rax, and errnos. */
static const char *rax_name(long rax)
{
	static char buf[32];

	switch (rax) {
	case -512: return "ERESTARTSYS";
	case -513: return "ERESTARTNOINTR";
	case -514: return "ERESTARTNOHAND";
	case -516: return "ERESTART_RESTARTBLOCK";
	}
	if (rax < 0 && rax > -4096)
		return errno_name((int)-rax);
	snprintf(buf, sizeof(buf), "%ld", rax);
	return buf;
}

static const char *sysname(long nr)
{
	static char buf[24];

	switch (nr) {
	case SYS_read: return "read";
	case SYS_write: return "write";
	case SYS_poll: return "poll";
	case SYS_ppoll: return "ppoll";
	case SYS_pause: return "pause";
	case SYS_rt_sigreturn: return "rt_sigreturn";
	case SYS_nanosleep: return "nanosleep";
	case SYS_getpid: return "getpid";
	case SYS_getppid: return "getppid";
	case SYS_exit_group: return "exit_group";
	case SYS_restart_syscall: return "restart_syscall";
	case SYS_kill: return "kill";
	case SYS_clone3: return "clone3";
	}
	snprintf(buf, sizeof(buf), "syscall_%ld", nr);
	return buf;
}

/* What a wait status says, as a tracer reads it. */
static const char *stop_text(int status)
{
	static char buf[96];
	int event = (unsigned)status >> 16;

	if (!WIFSTOPPED(status))
		return status_text(status);
	if (event == PTRACE_EVENT_STOP)
		snprintf(buf, sizeof(buf), "PTRACE_EVENT_STOP %s", signal_name(WSTOPSIG(status)));
	else if (event)
		snprintf(buf, sizeof(buf), "event %d %s", event, signal_name(WSTOPSIG(status)));
	else if (WSTOPSIG(status) == (SIGTRAP | 0x80))
		snprintf(buf, sizeof(buf), "syscall stop (SIGTRAP|0x80)");
	else
		snprintf(buf, sizeof(buf), "stopped %s", signal_name(WSTOPSIG(status)));
	return buf;
}

/* Wait for pid with __WALL, print what it reported, return the status. */
static int waitshow(const char *who, pid_t pid)
{
	int status = 0;
	long r = rsys(SYS_wait4, pid, &status, __WALL, 0);

	if (r < 0) {
		printf("wait %s = -1 %s\n", who, errno_name((int)-r));
		return -1;
	}
	if (r != pid)
		die("wait %s: another pid", who);
	printf("wait %s: %s\n", who, stop_text(status));
	return status;
}

/* The tracee's "Key:\tvalue" line of /proc/PID/status. */
static void status_field(pid_t pid, const char *key, char *out, size_t n)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	out[0] = 0;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':') {
			char *v = line + strlen(key) + 1;

			while (*v == '\t' || *v == ' ')
				v++;
			v[strcspn(v, "\n")] = 0;
			snprintf(out, n, "%s", v);
			break;
		}
	}
	fclose(f);
}

/* Until pid sleeps ('S') twice 15 ms apart: it is blocked in its call. */
static void wait_asleep(pid_t pid)
{
	struct timespec ts = { 0, 15 * 1000 * 1000 };
	int seen = 0, i;

	for (i = 0; i < 2000 && seen < 2; i++) {
		seen = proc_state(pid) == 'S' ? seen + 1 : 0;
		nanosleep(&ts, NULL);
	}
	if (seen < 2)
		die("pid never slept");
}

static volatile long counter;		/* PEEKDATA'd by the tracer */
static volatile int handled[65];

static void on_signal(int sig)
{
	handled[sig]++;
}

static void handle(int sig, int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static long peek(pid_t pid, const volatile void *addr)
{
	long word = 0, r = pt(PTRACE_PEEKDATA, pid, (long)addr, (long)&word);

	if (r < 0)
		return r;
	return word;
}

/* ---- traceme ---- */

static void case_traceme(const char *self)
{
	pid_t pid = fork_or_die();
	siginfo_t si;
	int st;

	if (pid == 0) {
		long r = pt(PTRACE_TRACEME, 0, 0, 0);

		handle(SIGUSR1, 0);
		handle(SIGUSR2, 0);
		if (r || pt(PTRACE_TRACEME, 0, 0, 0) != -EPERM)
			_exit(90);
		kill(getpid(), SIGUSR1);	/* suppressed by the tracer */
		kill(getpid(), SIGUSR2);	/* changed into SIGUSR1 */
		counter = handled[SIGUSR1] * 10 + handled[SIGUSR2];
		kill(getpid(), SIGWINCH);	/* ignored by default: the tracer sees it */
		execl(self, self, "exec-target", (char *)NULL);
		_exit(91);
	}
	st = waitshow("tracee", pid);
	memset(&si, 0, sizeof(si));
	ptshow("GETSIGINFO", pt(PTRACE_GETSIGINFO, pid, 0, (long)&si));
	printf("siginfo: %s si_code %d si_pid is tracee %s\n", signal_name(si.si_signo), si.si_code,
	       si.si_pid == pid ? "yes" : "no");
	ptshow("CONT, 0 (suppress SIGUSR1)", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("tracee", pid);
	ptshow("CONT, SIGUSR1 (for SIGUSR2)", pt(PTRACE_CONT, pid, 0, SIGUSR1));
	st = waitshow("tracee", pid);
	printf("tracee's handlers ran: SIGUSR1 %ld, SIGUSR2 %ld\n", peek(pid, &counter) / 10,
	       peek(pid, &counter) % 10);
	ptshow("CONT, SIGWINCH", pt(PTRACE_CONT, pid, 0, SIGWINCH));
	st = waitshow("tracee after exec", pid);
	memset(&si, 0, sizeof(si));
	pt(PTRACE_GETSIGINFO, pid, 0, (long)&si);
	printf("exec's siginfo: %s si_code %s\n", signal_name(si.si_signo),
	       si.si_code == SI_USER ? "SI_USER" : "other");
	ptshow("CONT", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("tracee", pid);
	(void)st;
}

/* ---- attach ---- */

static void case_attach(void)
{
	pid_t pid = fork_or_die();
	char v[64];
	int st;

	if (pid == 0) {
		for (;;)
			pause();
	}
	ptshow("ATTACH", pt(PTRACE_ATTACH, pid, 0, 0));
	st = waitshow("tracee", pid);
	status_field(pid, "State", v, sizeof(v));
	printf("State: %s\n", v);
	status_field(pid, "TracerPid", v, sizeof(v));
	printf("TracerPid is the tracer: %s\n", atoi(v) == getpid() ? "yes" : "no");
	ptshow("ATTACH again", pt(PTRACE_ATTACH, pid, 0, 0));
	ptshow("ATTACH self", pt(PTRACE_ATTACH, getpid(), 0, 0));
	ptshow("INTERRUPT (not seized)", pt(PTRACE_INTERRUPT, pid, 0, 0));
	ptshow("LISTEN (not seized)", pt(PTRACE_LISTEN, pid, 0, 0));
	ptshow("SETOPTIONS bad", pt(PTRACE_SETOPTIONS, pid, 0, 1 << 30));
	ptshow("CONT bad signal", pt(PTRACE_CONT, pid, 0, 100));
	ptshow("PEEKUSER odd offset", pt(PTRACE_PEEKUSER, pid, 3, 0));
	ptshow("CONT", pt(PTRACE_CONT, pid, 0, 0));
	wait_asleep(pid);
	ptshow("GETREGS running", pt(PTRACE_GETREGS, pid, 0, 0));
	ptshow("CONT running", pt(PTRACE_CONT, pid, 0, 0));
	kill(pid, SIGUSR2);
	st = waitshow("tracee", pid);
	ptshow("DETACH, SIGTERM", pt(PTRACE_DETACH, pid, 0, SIGTERM));
	ptshow("CONT after DETACH", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("former tracee", pid);
	ptshow("ATTACH nobody", pt(PTRACE_ATTACH, 999999, 0, 0));
	(void)st;
}

/* ---- seize ---- */

static void case_seize(void)
{
	pid_t pid = fork_or_die();
	siginfo_t si;
	char v[64];
	int st;

	if (pid == 0) {
		for (;;)
			pause();
	}
	ptshow("SEIZE, bad options", pt(PTRACE_SEIZE, pid, 0, 1 << 30));
	ptshow("SEIZE, addr 1", pt(PTRACE_SEIZE, pid, 1, 0));
	ptshow("SEIZE", pt(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACESYSGOOD));
	wait_asleep(pid);
	show("wait WNOHANG after SEIZE", rsys(SYS_wait4, pid, &st, __WALL | WNOHANG, 0));
	ptshow("CONT running", pt(PTRACE_CONT, pid, 0, 0));
	ptshow("INTERRUPT", pt(PTRACE_INTERRUPT, pid, 0, 0));
	st = waitshow("tracee", pid);
	memset(&si, 0, sizeof(si));
	ptshow("GETSIGINFO", pt(PTRACE_GETSIGINFO, pid, 0, (long)&si));
	printf("siginfo: %s event %d\n", signal_name(si.si_signo), si.si_code >> 8);
	ptshow("CONT", pt(PTRACE_CONT, pid, 0, 0));
	wait_asleep(pid);
	kill(pid, SIGSTOP);
	st = waitshow("tracee", pid);
	ptshow("CONT, SIGSTOP", pt(PTRACE_CONT, pid, 0, SIGSTOP));
	st = waitshow("tracee (group-stop)", pid);
	ptshow("GETSIGINFO", pt(PTRACE_GETSIGINFO, pid, 0, (long)&si));
	printf("siginfo: %s event %d\n", signal_name(si.si_signo), si.si_code >> 8);
	ptshow("LISTEN", pt(PTRACE_LISTEN, pid, 0, 0));
	show("wait WNOHANG while listening", rsys(SYS_wait4, pid, &st, __WALL | WNOHANG, 0));
	status_field(pid, "State", v, sizeof(v));
	printf("State: %s\n", v);
	ptshow("GETREGS while listening", pt(PTRACE_GETREGS, pid, 0, 0));
	kill(pid, SIGCONT);
	st = waitshow("tracee after SIGCONT", pid);
	ptshow("CONT", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("tracee", pid);
	ptshow("CONT", pt(PTRACE_CONT, pid, 0, 0));
	ptshow("KILL", pt(PTRACE_KILL, pid, 0, 0));
	st = waitshow("tracee", pid);
	(void)st;
}

/* ---- regs ---- */

static volatile long regs_result[4];

static void case_regs(void)
{
	pid_t pid = fork_or_die();
	struct user_regs_struct r;
	struct syscall_info info;
	unsigned char fx[512];
	struct iovec iov;
	long word;
	int st, i;

	if (pid == 0) {
		pt(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		regs_result[0] = rsys0(SYS_getpid);		/* skipped: 42 */
		regs_result[1] = rsys0(SYS_getppid);		/* made getpid */
		regs_result[2] = rsys0(SYS_getpid);		/* rax poked: 7 */
		rsys(SYS_kill, getpid(), SIGUSR2);		/* stop to be read */
		_exit(0);
	}
	st = waitshow("tracee", pid);
	ptshow("SETOPTIONS TRACESYSGOOD", pt(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD));
	memset(&info, 0xff, sizeof(info));
	show("GET_SYSCALL_INFO at a signal stop", pt(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), (long)&info));
	printf("op %d\n", info.op);
	ptshow("SYSCALL", pt(PTRACE_SYSCALL, pid, 0, 0));
	/* raise returns through rt_sigprocmask calls first: skip to getpid */
	for (i = 0; i < 10; i++) {
		st = 0;
		rsys(SYS_wait4, pid, &st, __WALL, 0);
		pt(PTRACE_GETREGS, pid, 0, (long)&r);
		if ((long)r.orig_rax == SYS_getpid && (long)r.rax == -ENOSYS)
			break;
		pt(PTRACE_SYSCALL, pid, 0, 0);
	}
	printf("at %s\n", stop_text(st));
	printf("enter-stop: orig_rax %s, rax %s\n", sysname(r.orig_rax), rax_name(r.rax));
	memset(&info, 0, sizeof(info));
	show("GET_SYSCALL_INFO", pt(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), (long)&info));
	printf("op %s, arch %#x, nr %s\n", info.op == PTRACE_SYSCALL_INFO_ENTRY ? "ENTRY" : "other",
	       info.arch, sysname(info.entry.nr));
	word = 0;
	ptshow("PEEKUSER orig_rax", pt(PTRACE_PEEKUSER, pid, offsetof(struct user_regs_struct, orig_rax), (long)&word));
	printf("orig_rax %s\n", sysname(word));
	r.orig_rax = -1;
	r.rax = 42;
	ptshow("SETREGS orig_rax -1, rax 42", pt(PTRACE_SETREGS, pid, 0, (long)&r));
	ptshow("SYSCALL", pt(PTRACE_SYSCALL, pid, 0, 0));
	st = waitshow("tracee", pid);
	pt(PTRACE_GETREGS, pid, 0, (long)&r);
	printf("exit-stop: orig_rax %ld, rax %s\n", (long)r.orig_rax, rax_name(r.rax));
	memset(&info, 0, sizeof(info));
	show("GET_SYSCALL_INFO", pt(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), (long)&info));
	printf("op %s, rval %lld, is_error %d\n", info.op == PTRACE_SYSCALL_INFO_EXIT ? "EXIT" : "other",
	       info.exit.rval, info.exit.is_error);
	ptshow("SYSCALL", pt(PTRACE_SYSCALL, pid, 0, 0));
	st = waitshow("tracee", pid);
	pt(PTRACE_GETREGS, pid, 0, (long)&r);
	printf("enter-stop: orig_rax %s\n", sysname(r.orig_rax));
	ptshow("POKEUSER orig_rax getpid", pt(PTRACE_POKEUSER, pid, offsetof(struct user_regs_struct, orig_rax), SYS_getpid));
	ptshow("POKEUSER eflags", pt(PTRACE_POKEUSER, pid, offsetof(struct user_regs_struct, eflags), r.eflags));
	ptshow("POKEUSER cs 0x10", pt(PTRACE_POKEUSER, pid, offsetof(struct user_regs_struct, cs), 0x10));
	ptshow("POKEUSER past struct user", pt(PTRACE_POKEUSER, pid, 4096, 0));
	ptshow("SYSCALL", pt(PTRACE_SYSCALL, pid, 0, 0));
	st = waitshow("tracee", pid);
	pt(PTRACE_GETREGS, pid, 0, (long)&r);
	printf("exit-stop: orig_rax %s, rax is tracee's pid %s\n", sysname(r.orig_rax),
	       (long)r.rax == pid ? "yes" : "no");
	ptshow("SYSCALL", pt(PTRACE_SYSCALL, pid, 0, 0));
	st = waitshow("tracee", pid);	/* enter getpid */
	ptshow("SYSCALL", pt(PTRACE_SYSCALL, pid, 0, 0));
	st = waitshow("tracee", pid);	/* its exit */
	pt(PTRACE_GETREGS, pid, 0, (long)&r);
	printf("exit-stop: orig_rax %s\n", sysname(r.orig_rax));
	ptshow("POKEUSER rax 7", pt(PTRACE_POKEUSER, pid, offsetof(struct user_regs_struct, rax), 7));
	ptshow("SYSCALL", pt(PTRACE_SYSCALL, pid, 0, 0));
	st = waitshow("tracee", pid);	/* enter kill */
	pt(PTRACE_GETREGS, pid, 0, (long)&r);
	printf("enter-stop: orig_rax %s\n", sysname(r.orig_rax));
	ptshow("CONT", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("tracee", pid);	/* SIGUSR2 */
	printf("tracee got: skipped getpid %ld, getppid made getpid: its pid %s, poked rax %ld\n",
	       peek(pid, &regs_result[0]), peek(pid, &regs_result[1]) == pid ? "yes" : "no",
	       peek(pid, &regs_result[2]));
	ptshow("GETFPREGS", pt(PTRACE_GETFPREGS, pid, 0, (long)fx));
	printf("fcw %#x mxcsr %#x\n", fx[0] | fx[1] << 8, fx[24] | fx[25] << 8);
	iov.iov_base = &r;
	iov.iov_len = sizeof(r) + 64;
	ptshow("GETREGSET NT_PRSTATUS", pt(PTRACE_GETREGSET, pid, NT_PRSTATUS, (long)&iov));
	printf("iov_len %zu\n", iov.iov_len);
	iov.iov_base = fx;
	iov.iov_len = sizeof(fx);
	ptshow("GETREGSET NT_PRFPREG", pt(PTRACE_GETREGSET, pid, NT_PRFPREG, (long)&iov));
	printf("iov_len %zu\n", iov.iov_len);
	ptshow("GETREGSET 0x999", pt(PTRACE_GETREGSET, pid, 0x999, (long)&iov));
	ptshow("DETACH, 0 (SIGUSR2 suppressed)", pt(PTRACE_DETACH, pid, 0, 0));
	st = waitshow("tracee", pid);
	(void)st;
}

/* ---- memory ---- */

static __attribute__((noinline)) int which(void)
{
	return 1;
}

static void case_memory(void)
{
	pid_t pid = fork_or_die();
	unsigned char code[8];
	long word, r;
	char buf[16] = "", src[16] = "from tracer";
	struct iovec local, remote;
	static char text[16] = "in tracee";
	int st;

	if (pid == 0) {
		pt(PTRACE_TRACEME, 0, 0, 0);
		counter = 1234;
		raise(SIGSTOP);
		counter = which();
		raise(SIGSTOP);
		_exit(0);
	}
	st = waitshow("tracee", pid);
	printf("PEEKDATA counter = %ld\n", peek(pid, &counter));
	ptshow("POKEDATA counter 99", pt(PTRACE_POKEDATA, pid, (long)&counter, 99));
	printf("PEEKDATA counter = %ld\n", peek(pid, &counter));
	word = 0;
	ptshow("PEEKDATA unmapped", pt(PTRACE_PEEKDATA, pid, 8, (long)&word));
	ptshow("POKEDATA unmapped", pt(PTRACE_POKEDATA, pid, 8, 0));
	r = pt(PTRACE_PEEKTEXT, pid, (long)which, (long)&word);
	memcpy(code, &word, 8);
	if (r || code[0] != 0xb8 || code[1] != 1)
		printf("which() is not mov $1,%%eax: cannot patch\n");
	code[1] = 2;	/* mov $2,%eax */
	memcpy(&word, code, 8);
	ptshow("POKETEXT which() returns 2", pt(PTRACE_POKETEXT, pid, (long)which, word));
	ptshow("CONT", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("tracee", pid);
	printf("tracee's which() = %ld, tracer's which() = %d\n", peek(pid, &counter), which());
	local.iov_base = buf;
	local.iov_len = sizeof(buf);
	remote.iov_base = text;
	remote.iov_len = 10;
	show("process_vm_readv", rsys(SYS_process_vm_readv, pid, &local, 1, &remote, 1, 0));
	printf("read \"%s\"\n", buf);
	local.iov_base = src;
	local.iov_len = 12;
	show("process_vm_writev", rsys(SYS_process_vm_writev, pid, &local, 1, &remote, 1, 0));
	local.iov_base = buf;
	local.iov_len = sizeof(buf);
	show("process_vm_readv", rsys(SYS_process_vm_readv, pid, &local, 1, &remote, 1, 0));
	printf("read \"%s\"\n", buf);
	remote.iov_base = (void *)8;
	show("process_vm_readv unmapped", rsys(SYS_process_vm_readv, pid, &local, 1, &remote, 1, 0));
	show("process_vm_readv flags 1", rsys(SYS_process_vm_readv, pid, &local, 1, &remote, 1, 1));
	show("process_vm_readv nobody", rsys(SYS_process_vm_readv, 999999, &local, 1, &remote, 1, 0));
	ptshow("KILL", pt(PTRACE_KILL, pid, 0, 0));
	st = waitshow("tracee", pid);
	(void)st;
}

/* ---- restart ---- */

/* Run the tracee with PTRACE_SYSCALL until the enter-stop of nr. */
static void to_enter(pid_t pid, long nr)
{
	struct user_regs_struct r;
	int st, i;

	for (i = 0; i < 20; i++) {
		pt(PTRACE_SYSCALL, pid, 0, 0);
		st = 0;
		rsys(SYS_wait4, pid, &st, __WALL, 0);
		pt(PTRACE_GETREGS, pid, 0, (long)&r);
		if (WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80) && (long)r.orig_rax == nr &&
		    (long)r.rax == -ENOSYS) {
			printf("enter-stop %s\n", sysname(nr));
			return;
		}
	}
	die("no enter-stop for %ld", nr);
}

/* Resume with sig by PTRACE_SYSCALL and print the next stop. */
static int step(pid_t pid, int sig)
{
	struct user_regs_struct r;
	int st = 0;

	pt(PTRACE_SYSCALL, pid, 0, sig);
	if (rsys(SYS_wait4, pid, &st, __WALL, 0) != pid)
		die("wait");
	if (WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80)) {
		pt(PTRACE_GETREGS, pid, 0, (long)&r);
		if ((long)r.rax == -ENOSYS)
			printf("  enter-stop %s\n", sysname(r.orig_rax));
		else
			printf("  exit-stop %s = %s\n", sysname(r.orig_rax), rax_name(r.rax));
	} else {
		printf("  %s\n", stop_text(st));
	}
	return st;
}

static volatile long restart_ret;

enum { NANOSLEEP_HANDLER, NANOSLEEP_STOP, READ_HANDLER, READ_RESTART, POLL_HANDLER,
       PPOLL_HANDLER, PAUSE_HANDLER, CLONE3_PENDING };

static void restart_one(int kind, const char *title)
{
	int fds[2];
	pid_t pid;
	int st;

	if (pipe(fds))
		die("pipe");
	pid = fork_or_die();
	if (pid == 0) {
		struct timespec ts = { 0, 300 * 1000 * 1000 };
		struct pollfd { int fd; short events, revents; } pfd = { fds[0], 1, 0 };
		/* struct clone_args: CLONE_INTO_CGROUP, exit_signal, cgroup */
		unsigned long long cl[11] = { [0] = 1ULL << 33, [4] = SIGCHLD };
		char c;

		pt(PTRACE_TRACEME, 0, 0, 0);
		handle(SIGUSR1, kind == READ_RESTART ? SA_RESTART : 0);
		raise(SIGSTOP);
		switch (kind) {
		case NANOSLEEP_HANDLER:
		case NANOSLEEP_STOP:
			restart_ret = rsys(SYS_nanosleep, &ts, 0);
			break;
		case READ_HANDLER:
		case READ_RESTART:
			restart_ret = rsys(SYS_read, fds[0], &c, 1);
			break;
		case POLL_HANDLER:
			restart_ret = rsys(SYS_poll, &pfd, 1, -1);
			break;
		case PPOLL_HANDLER:
			restart_ret = rsys(SYS_ppoll, &pfd, 1, 0, 0, 8);
			break;
		case PAUSE_HANDLER:
			restart_ret = rsys0(SYS_pause);
			break;
		case CLONE3_PENDING:
			cl[10] = open("/", O_RDONLY | O_DIRECTORY);
			restart_ret = rsys(SYS_clone3, cl, sizeof(cl));
			break;
		}
		rsys(SYS_kill, getpid(), SIGUSR2);
		_exit(0);
	}
	printf("%s\n", title);
	rsys(SYS_wait4, pid, &st, __WALL, 0);
	pt(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD);
	switch (kind) {
	case NANOSLEEP_HANDLER:
	case NANOSLEEP_STOP:
		to_enter(pid, SYS_nanosleep);
		break;
	case READ_HANDLER:
	case READ_RESTART:
		to_enter(pid, SYS_read);
		break;
	case POLL_HANDLER:
		to_enter(pid, SYS_poll);
		break;
	case PPOLL_HANDLER:
		to_enter(pid, SYS_ppoll);
		break;
	case PAUSE_HANDLER:
		to_enter(pid, SYS_pause);
		break;
	case CLONE3_PENDING:
		to_enter(pid, SYS_clone3);
		break;
	}
	if (kind == CLONE3_PENDING) {
		/* pending when the call starts: it never sleeps */
		kill(pid, SIGUSR1);
		st = step(pid, 0);		/* its exit-stop */
	} else {
		pt(PTRACE_SYSCALL, pid, 0, 0);
		wait_asleep(pid);
		kill(pid, kind == NANOSLEEP_STOP ? SIGSTOP : SIGUSR1);
		st = rsys(SYS_wait4, pid, &st, __WALL, 0) == pid ? st : 0;
		{
			struct user_regs_struct r;

			pt(PTRACE_GETREGS, pid, 0, (long)&r);
			printf("  exit-stop %s = %s\n", sysname(r.orig_rax), rax_name(r.rax));
		}
	}
	st = step(pid, 0);			/* the signal-delivery-stop */
	if (kind == NANOSLEEP_STOP) {
		st = step(pid, SIGSTOP);	/* the group-stop */
		kill(pid, SIGCONT);
		st = step(pid, 0);		/* SIGCONT's signal-delivery-stop */
		st = step(pid, SIGCONT);	/* enter restart_syscall */
		st = step(pid, 0);		/* its exit */
	} else {
		st = step(pid, SIGUSR1);	/* the handler runs: enter rt_sigreturn */
		st = step(pid, 0);		/* its exit */
		if (kind == CLONE3_PENDING) {
			st = step(pid, 0);	/* the clone3 again */
			st = step(pid, 0);
		}
		if (kind == READ_RESTART) {
			st = step(pid, 0);	/* the read again */
			if (write(fds[1], "x", 1) != 1)
				die("write");
			st = step(pid, 0);
		}
	}
	st = step(pid, 0);			/* enter kill */
	pt(PTRACE_CONT, pid, 0, 0);
	rsys(SYS_wait4, pid, &st, __WALL, 0);
	printf("  the program got %s\n", rax_name(peek(pid, &restart_ret)));
	pt(PTRACE_KILL, pid, 0, 0);
	rsys(SYS_wait4, pid, &st, __WALL, 0);
	close(fds[0]);
	close(fds[1]);
}

static void case_restart(void)
{
	restart_one(NANOSLEEP_HANDLER, "nanosleep, SIGUSR1 handler:");
	restart_one(NANOSLEEP_STOP, "nanosleep, SIGSTOP and SIGCONT:");
	restart_one(READ_HANDLER, "pipe read, SIGUSR1 handler:");
	restart_one(READ_RESTART, "pipe read, SIGUSR1 handler with SA_RESTART:");
	restart_one(POLL_HANDLER, "poll without timeout, SIGUSR1 handler:");
	restart_one(PPOLL_HANDLER, "ppoll without timeout, SIGUSR1 handler:");
	restart_one(PAUSE_HANDLER, "pause, SIGUSR1 handler:");
	restart_one(CLONE3_PENDING, "clone3 entered with SIGUSR1 pending, a handler:");
}

/* ---- fork ---- */

static void case_fork(void)
{
	pid_t pid = fork_or_die(), gc;
	unsigned long msg = 0;
	char v[64];
	int st;

	if (pid == 0) {
		pt(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		gc = fork();
		if (gc == 0)
			_exit(7);
		if (waitpid(gc, &st, 0) != gc)
			_exit(90);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) + 10 : 91);
	}
	st = waitshow("tracee", pid);
	ptshow("SETOPTIONS TRACEFORK|TRACEEXIT",
	       pt(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEFORK | PTRACE_O_TRACEEXIT));
	ptshow("CONT", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("tracee", pid);
	ptshow("GETEVENTMSG", pt(PTRACE_GETEVENTMSG, pid, 0, (long)&msg));
	gc = (pid_t)msg;
	st = waitshow("new child", gc);
	status_field(gc, "TracerPid", v, sizeof(v));
	printf("new child's TracerPid is the tracer: %s\n", atoi(v) == getpid() ? "yes" : "no");
	ptshow("CONT new child", pt(PTRACE_CONT, gc, 0, 0));
	st = waitshow("new child", gc);
	pt(PTRACE_GETEVENTMSG, gc, 0, (long)&msg);
	printf("exit event message: %s\n", status_text((int)msg));
	ptshow("CONT new child", pt(PTRACE_CONT, gc, 0, 0));
	st = waitshow("new child", gc);
	ptshow("CONT tracee", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("tracee", pid);	/* the new child's SIGCHLD */
	ptshow("CONT tracee, SIGCHLD", pt(PTRACE_CONT, pid, 0, SIGCHLD));
	st = waitshow("tracee", pid);
	pt(PTRACE_GETEVENTMSG, pid, 0, (long)&msg);
	printf("exit event message: %s\n", status_text((int)msg));
	ptshow("CONT tracee", pt(PTRACE_CONT, pid, 0, 0));
	st = waitshow("tracee", pid);
	(void)st;
}

/* ---- exitkill ---- */

static void case_exitkill(void)
{
	pid_t tracee = fork_or_die(), tracer;
	int st;

	if (tracee == 0) {
		for (;;)
			pause();
	}
	tracer = fork_or_die();
	if (tracer == 0) {
		if (pt(PTRACE_SEIZE, tracee, 0, PTRACE_O_EXITKILL))
			_exit(1);
		_exit(0);
	}
	st = waitshow("tracer", tracer);
	st = waitshow("its tracee", tracee);
	(void)st;
}

/* ---- tstp ---- */

/* Until pid is in state c, yielding (no sleeping call of our own). */
static void spin_until(pid_t pid, char c)
{
	long i;

	/* a stopped tracee of strace is in 't' (PTRACE_LISTEN), not 'T' */
	for (i = 0; i < 10000000; i++) {
		char now = proc_state(pid);

		if (now == c || (c == 'T' && now == 't'))
			return;
		if (now == 'Z' || !now)
			return;		/* it is gone: wait tells how */
		sched_yield();
	}
	die("pid never reached state %c", c);
}

static void case_tstp(void)
{
	pid_t pid = fork_or_die();
	int st;

	if (pid == 0) {
		struct timespec ts = { 0, 300 * 1000 * 1000 };

		_exit(nanosleep(&ts, NULL) ? 1 : 0);
	}
	spin_until(pid, 'S');
	kill(pid, SIGTSTP);
	spin_until(pid, 'T');
	kill(pid, SIGCONT);
	if (waitpid(pid, &st, 0) != pid)
		die("waitpid");
	printf("child: %s\n", status_text(st));
}

static void case_vfork(void)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = vfork();
	if (pid == 0) {
		rsys(SYS_write, 1, "child\n", 6);
		rsys(SYS_exit, 3);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		die("vfork or waitpid");
	printf("child: %s\n", status_text(st));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "exec-target"))
		return 0;
	if (argc != 2)
		die("usage: ptracer traceme|attach|seize|regs|memory|restart|fork|exitkill");
	if (!strcmp(argv[1], "traceme"))
		case_traceme(argv[0]);
	else if (!strcmp(argv[1], "attach"))
		case_attach();
	else if (!strcmp(argv[1], "seize"))
		case_seize();
	else if (!strcmp(argv[1], "regs"))
		case_regs();
	else if (!strcmp(argv[1], "memory"))
		case_memory();
	else if (!strcmp(argv[1], "restart"))
		case_restart();
	else if (!strcmp(argv[1], "fork"))
		case_fork();
	else if (!strcmp(argv[1], "exitkill"))
		case_exitkill();
	else if (!strcmp(argv[1], "tstp"))
		case_tstp();
	else if (!strcmp(argv[1], "vfork"))
		case_vfork();
	else
		die("unknown case %s", argv[1]);
	return 0;
}
