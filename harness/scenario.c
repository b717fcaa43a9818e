/*
 * scenario SCRIPT|-: the scenario shell. It runs a scenario script (tasks that
 * make sleeping system calls, a controller that signals them at given
 * times) and prints one stable line per result, so the same script gives
 * the same output natively (the host kernel is the reference) and under umk.
 *
 * The language, one statement per line; '#' starts a comment anywhere:
 *
 *   tolerance 50ms          times are printed rounded to the nearest multiple
 *                           of this (default 10ms); durations are Nms or Ns
 *   task NAME [spawned]     a task, running the actions up to its 'end'. The
 *     ACTION...             controller starts every task at time 0, except a
 *   end                     'spawned' one, which another task starts (spawn)
 *   [at T] ACTION           outside a task: a controller action, run at T
 *                           after the scenario start (or at once, without at)
 *
 * Task actions ('at T' before one first waits, silently, until T):
 *   handler SIG [print|count] [restart] [nodefer] [resethand] [onstack] [do]
 *                  install a handler (SA_SIGINFO, plus SA_RESTART etc.);
 *                  print (the default) prints "A handler SIGUSR1 ran at=T"
 *                  on entry, count only counts. With 'do', the lines up to
 *                  the matching 'end' are actions the handler runs itself,
 *                  then it prints "A handler SIGUSR1 return at=T".
 *   ignore SIG / default SIG     SIG_IGN / SIG_DFL
 *   block SIG... / unblock SIG...    rt_sigprocmask
 *   altstack                     a sigaltstack for onstack handlers
 *   nanosleep D                  "A nanosleep(500ms) = -1 EINTR rem=400ms at=100ms"
 *   clock_nanosleep CLOCK abs|rel D   CLOCK is MONOTONIC, REALTIME or
 *                  BOOTTIME; an abs deadline is D after the scenario start.
 *                  rmtp is pre-filled with a sentinel: "rem=untouched"
 *   pause                        "A pause = -1 EINTR at=T"
 *   sigsuspend [SIG...]          wait with exactly these signals blocked
 *   read                         read the task's pipe (see write below):
 *                                "A read = 5 "hello" at=T"
 *   spawn TASK                   start a 'spawned' task as our child
 *   wait4 [TASK]                 wait4 for that child (or any):
 *                                "A wait4(B) = B exited 3 at=T"
 *   restart_syscall              a raw system call 219
 *   spin D                       compute for D without a system call, holding
 *                  constants in rax (-516), rbx, rsi, rdi, rbp, r8-r15 and
 *                  xmm0: "A spin(500ms) regs=intact handlers=2 at=T"
 *   kill self|TASK SIG           signal ourselves or a task we spawned
 *   count SIG                    "A count SIGUSR1 = 2 at=T": handler runs
 *   mask                         "A mask = SIGUSR2 at=T": the blocked set
 *   say TEXT                     "A say TEXT at=T"
 *   exit N                       end the task with status N (else 0 at 'end')
 *
 * Controller actions:
 *   kill TASK SIG, stop TASK (SIGSTOP), cont TASK (SIGCONT)
 *   write TASK TEXT              write TEXT (no newline) to TASK's pipe
 *   wait TASK [untraced] [continued]   waitpid, with WUNTRACED / WCONTINUED:
 *                  "wait A = exited N|killed by SIG|stopped by SIG|continued at=T"
 *   say TEXT                     "say TEXT at=T"
 * At the end the controller waits for every task it has not reaped yet and
 * prints its "wait" line.
 *
 * Every line is written with one write(2), so lines of different tasks never
 * mix; scenarios keep events of different tasks >= 100 ms apart, so their
 * order is fixed. Exit status: 0 when the script ran, 2 for a usage error or
 * a script that cannot be read or parsed (one line on stderr:
 * "scenario: FILE:LINE: message"), 99 when a system call the shell needs
 * for itself fails (a harness failure, never an expected outcome).
 *
 * "-" reads the script from stdin instead of a file.
 *
 * How it runs: tasks are copies of this program (posix_spawn of argv[0]:
 * umk has no fork) started as
 *	argv[0] --task NAME START_NS FD SCRIPT_NAME SCRIPT_TEXT
 * they parse the same text and run the named task; START_NS is the
 * scenario start on CLOCK_MONOTONIC, FD the read end of the task's pipe.
 * harness/scenarios/README says the same with examples.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define MAX_TASKS	16
#define MAX_ACTIONS	512
#define MAX_DEPTH	8
#define NAME_LEN	32
#define TEXT_LEN	128
#define MAX_SCRIPT	16384
#define EXIT_SCRIPT	2	/* usage, unreadable or malformed script */
#define SELF		(-2)	/* kill self */
#define ANY		(-3)	/* wait4 with no task: any child */

struct action;

/* An option word of an action ("restart", "untraced") and its bit in opts. */
struct option {
	const char *word;
	unsigned bit;
};

#define IN_TASK		1u
#define IN_CONTROLLER	2u

/* One kind of action: the action table holds one per name. args has a
 * letter per argument, parsed by parse_args into struct action:
 *   D duration   S signal   L signal list (0+)   T task   t optional task
 *   K self or task   C clock   M abs|rel   N integer   X text (1+ words)
 *   O option words (0+, from options) */
struct action_desc {
	const char *name;
	const char *args;
	const char *usage;
	unsigned where;
	const struct option *options;
	void (*run)(const struct action *a);
};

struct action {
	const struct action_desc *desc;
	int line;
	long at_ms;		/* -1: run at once */
	long ms;		/* D */
	int sig;		/* S */
	uint64_t sigs;		/* L: bit sig-1, as the kernel's sigset */
	int task;		/* T t K: index in tasks[], SELF or ANY */
	char task_name[NAME_LEN];
	clockid_t clock;	/* C */
	bool abs;		/* M */
	long num;		/* N */
	unsigned opts;		/* O */
	char text[TEXT_LEN];	/* X */
	int body_end;		/* handler ... do: index after its body, else 0 */
};

struct task {
	char name[NAME_LEN];
	int line;
	bool spawned;		/* started by a task's spawn, not by the controller */
	int first, end;		/* its actions: actions[first..end) */
	pid_t pid;		/* in the process that started it */
	int pipe_rd, pipe_wr;	/* controller-started tasks only */
	bool reaped;
};

static struct action actions[MAX_ACTIONS];
static int nr_actions;
static int controller[MAX_ACTIONS];	/* indices of the controller's actions */
static int nr_controller;
static struct task tasks[MAX_TASKS];
static int nr_tasks;
static long tolerance_ms = 10;
static const char *script;
/* The script's text: read whole by the controller, given to tasks in argv. */
static char script_text[MAX_SCRIPT + 1];

static int64_t start_ns;		/* the scenario start, CLOCK_MONOTONIC */
static const char *me = "";		/* this task's name: the line prefix */
static int my_pipe = -1;

/* ---- Output ---------------------------------------------------------- */

static int64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (rsys(SYS_clock_gettime, clk, &ts) != 0)
		die("clock_gettime(%d) failed", (int)clk);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A time in ms rounded to the nearest multiple of the tolerance, "400ms". */
static const char *rounded(double ms, char *buf, size_t n)
{
	long r = (long)(ms / tolerance_ms + (ms < 0 ? -0.5 : 0.5)) * tolerance_ms;

	snprintf(buf, n, "%ldms", r);
	return buf;
}

/* Print one line: the task's name, the text, " at=T"; a single write(2),
 * so a line is never split, even when a handler prints in the middle. */
static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
	char line[512], at[32];
	va_list ap;
	int n = 0;

	if (*me)
		n = snprintf(line, sizeof(line), "%s ", me);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 40)
		n = sizeof(line) - 40;
	n += snprintf(line + n, sizeof(line) - n, " at=%s\n",
		      rounded((clock_ns(CLOCK_MONOTONIC) - start_ns) / 1e6, at, sizeof(at)));
	if (write(1, line, n) != n)
		die("write to stdout failed");
}

/* "= 0", "= 5" or "= -1 EINTR" for a raw system call's return. */
static const char *ret_text(long ret, char *buf, size_t n)
{
	if (ret < 0 && ret > -4096)
		snprintf(buf, n, "= -1 %s", errno_name((int)-ret));
	else
		snprintf(buf, n, "= %ld", ret);
	return buf;
}

static const char *task_of_pid(pid_t pid)
{
	for (int i = 0; i < nr_tasks; i++)
		if (tasks[i].pid == pid)
			return tasks[i].name;
	return "?";
}

static const char *wait_text(int status, char *buf, size_t n)
{
	if (WIFEXITED(status))
		snprintf(buf, n, "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, n, "killed by %s", signal_name(WTERMSIG(status)));
	else if (WIFSTOPPED(status))
		snprintf(buf, n, "stopped by %s", signal_name(WSTOPSIG(status)));
	else if (WIFCONTINUED(status))
		snprintf(buf, n, "continued");
	else
		snprintf(buf, n, "status 0x%x", status);
	return buf;
}

static const char *sigs_text(uint64_t sigs, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = 0;
	for (int s = 1; s <= 64; s++)
		if (sigs & (1ULL << (s - 1)))
			o += snprintf(buf + o, o < n ? n - o : 0, "%s%s", o ? "," : "", signal_name(s));
	return buf;
}

/* ---- Signal handlers ----------------------------------------------------- */

static void run_actions(int first, int end);

static const struct action *installed[65];	/* the handler action per signal */
static volatile sig_atomic_t handler_runs;
static volatile sig_atomic_t runs_of[65];
static char altstack_mem[64 * 1024] __attribute__((aligned(16)));

#define H_PRINT		0x01u
#define H_COUNT		0x02u
#define H_RESTART	0x04u
#define H_NODEFER	0x08u
#define H_RESETHAND	0x10u
#define H_ONSTACK	0x20u
#define H_DO		0x40u

static void on_signal(int sig, siginfo_t *info, void *uc)
{
	const struct action *h = installed[sig];
	int saved_errno = errno;
	char local;

	handler_runs++;
	runs_of[sig]++;
	if (!(h->opts & H_COUNT)) {
		bool alt = &local >= altstack_mem && &local < altstack_mem + sizeof(altstack_mem);

		emit("handler %s ran%s", signal_name(sig),
		     h->opts & H_ONSTACK ? (alt ? " on altstack" : " on main stack") : "");
	}
	if (h->body_end) {
		run_actions(h - actions + 1, h->body_end);
		emit("handler %s return", signal_name(sig));
	}
	errno = saved_errno;
}

static void set_disposition(int sig, void (*fn)(int), unsigned flags)
{
	struct sigaction sa = { .sa_handler = fn, .sa_flags = flags };

	if (sigaction(sig, &sa, NULL))
		die("sigaction %s: %s", signal_name(sig), errno_name(errno));
}

static void do_handler(const struct action *a)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };

	sa.sa_flags |= (a->opts & H_RESTART ? SA_RESTART : 0) |
		       (a->opts & H_NODEFER ? SA_NODEFER : 0) |
		       (a->opts & H_RESETHAND ? SA_RESETHAND : 0) |
		       (a->opts & H_ONSTACK ? SA_ONSTACK : 0);
	installed[a->sig] = a;
	if (sigaction(a->sig, &sa, NULL))
		die("sigaction %s: %s", signal_name(a->sig), errno_name(errno));
}

static void do_ignore(const struct action *a)
{
	set_disposition(a->sig, SIG_IGN, 0);
}

static void do_default(const struct action *a)
{
	set_disposition(a->sig, SIG_DFL, 0);
}

static void sigmask(int how, uint64_t sigs)
{
	long ret = rsys(SYS_rt_sigprocmask, how, &sigs, NULL, sizeof(sigs));

	if (ret)
		die("rt_sigprocmask: %s", errno_name((int)-ret));
}

static void do_block(const struct action *a)
{
	sigmask(SIG_BLOCK, a->sigs);
}

static void do_unblock(const struct action *a)
{
	sigmask(SIG_UNBLOCK, a->sigs);
}

static void do_altstack(const struct action *a)
{
	stack_t ss = { .ss_sp = altstack_mem, .ss_size = sizeof(altstack_mem) };

	if (sigaltstack(&ss, NULL))
		die("sigaltstack: %s", errno_name(errno));
}

static void do_count(const struct action *a)
{
	emit("count %s = %d", signal_name(a->sig), (int)runs_of[a->sig]);
}

static void do_mask(const struct action *a)
{
	uint64_t old = 0;
	char buf[256];

	if (rsys(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &old, sizeof(old)))
		die("rt_sigprocmask failed");
	emit("mask = %s", old ? sigs_text(old, buf, sizeof(buf)) : "none");
}

/* ---- Sleeping calls ------------------------------------------------------ */

/* rmtp's content before the call: seeing it afterwards means untouched. */
static const struct timespec sentinel = { .tv_sec = 777, .tv_nsec = 777777777 };

static const char *rem_text(const struct timespec *rem, char *buf, size_t n)
{
	if (rem->tv_sec == sentinel.tv_sec && rem->tv_nsec == sentinel.tv_nsec)
		return "untouched";
	return rounded(rem->tv_sec * 1e3 + rem->tv_nsec / 1e6, buf, n);
}

static struct timespec ms_ts(long ms)
{
	return (struct timespec){ .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };
}

static void do_nanosleep(const struct action *a)
{
	struct timespec req = ms_ts(a->ms), rem = sentinel;
	char r[32], m[32];
	long ret = rsys(SYS_nanosleep, &req, &rem);

	emit("nanosleep(%ldms) %s rem=%s", a->ms, ret_text(ret, r, sizeof(r)),
	     rem_text(&rem, m, sizeof(m)));
}

static const char *clock_text(clockid_t clk)
{
	return clk == CLOCK_MONOTONIC ? "MONOTONIC" : clk == CLOCK_REALTIME ? "REALTIME" : "BOOTTIME";
}

static void do_clock_nanosleep(const struct action *a)
{
	struct timespec req, rem = sentinel;
	char r[32], m[32];
	long ret;

	if (a->abs) {
		/* D after the scenario start, read on the sleep's own clock. */
		int64_t left = start_ns + a->ms * 1000000LL - clock_ns(CLOCK_MONOTONIC);
		int64_t t = clock_ns(a->clock) + left;

		req = (struct timespec){ .tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL };
	} else {
		req = ms_ts(a->ms);
	}
	ret = rsys(SYS_clock_nanosleep, a->clock, a->abs ? TIMER_ABSTIME : 0, &req, &rem);
	emit("clock_nanosleep(%s, %s, %ldms) %s rem=%s", clock_text(a->clock),
	     a->abs ? "abs" : "rel", a->ms, ret_text(ret, r, sizeof(r)), rem_text(&rem, m, sizeof(m)));
}

static void do_pause(const struct action *a)
{
	char r[32];

	emit("pause %s", ret_text(rsys0(SYS_pause), r, sizeof(r)));
}

static void do_sigsuspend(const struct action *a)
{
	uint64_t mask = a->sigs;
	char r[32], s[256];
	long ret = rsys(SYS_rt_sigsuspend, &mask, sizeof(mask));

	emit("sigsuspend(%s) %s", sigs_text(a->sigs, s, sizeof(s)), ret_text(ret, r, sizeof(r)));
}

static void do_read(const struct action *a)
{
	char buf[TEXT_LEN], r[32];
	long ret = rsys(SYS_read, my_pipe, buf, sizeof(buf) - 1);

	if (ret >= 0)
		emit("read %s \"%.*s\"", ret_text(ret, r, sizeof(r)), (int)ret, buf);
	else
		emit("read %s", ret_text(ret, r, sizeof(r)));
}

static void do_restart_syscall(const struct action *a)
{
	char r[32];

	emit("restart_syscall %s", ret_text(rsys0(SYS_restart_syscall), r, sizeof(r)));
}

/* ---- Tasks ----------------------------------------------------------- */

static char *self_path;
static char start_arg[32];

/* Start task t as a copy of this program; fd is its pipe's read end or -1. */
static pid_t start_task(int t, int fd)
{
	char fd_arg[16];

	snprintf(fd_arg, sizeof(fd_arg), "%d", fd);
	return spawn(self_path, (char *[]){ self_path, "--task", tasks[t].name, start_arg,
					    fd_arg, (char *)script, script_text, NULL });
}

static void do_spawn(const struct action *a)
{
	tasks[a->task].pid = start_task(a->task, -1);
}

static void do_wait4(const struct action *a)
{
	int status = 0;
	pid_t pid = a->task == ANY ? -1 : tasks[a->task].pid;
	long ret = rsys(SYS_wait4, pid, &status, 0, NULL);
	char r[32], w[48];

	if (ret > 0)
		emit("wait4(%s) = %s %s", a->task == ANY ? "any" : tasks[a->task].name,
		     task_of_pid(ret), wait_text(status, w, sizeof(w)));
	else
		emit("wait4(%s) %s", a->task == ANY ? "any" : tasks[a->task].name,
		     ret_text(ret, r, sizeof(r)));
}

static pid_t pid_of(const struct action *a)
{
	if (a->task == SELF)
		return rsys0(SYS_getpid);
	if (tasks[a->task].pid <= 0)
		die("%s:%d: task %s was not started by %s", script, a->line,
		    tasks[a->task].name, *me ? me : "the controller");
	return tasks[a->task].pid;
}

static void send(const struct action *a, int sig)
{
	long ret = rsys(SYS_kill, pid_of(a), sig);

	if (ret)
		die("%s:%d: kill %s: %s", script, a->line, signal_name(sig), errno_name((int)-ret));
}

static void do_kill(const struct action *a)
{
	send(a, a->sig);
}

static void do_stop(const struct action *a)
{
	send(a, SIGSTOP);
}

static void do_cont(const struct action *a)
{
	send(a, SIGCONT);
}

static void do_write(const struct action *a)
{
	size_t n = strlen(a->text);

	if (write(tasks[a->task].pipe_wr, a->text, n) != (ssize_t)n)
		die("%s:%d: write to %s: %s", script, a->line, a->task_name, errno_name(errno));
}

#define W_UNTRACED	0x1u
#define W_CONTINUED	0x2u

static void do_wait(const struct action *a)
{
	int status = 0;
	int opts = (a->opts & W_UNTRACED ? WUNTRACED : 0) | (a->opts & W_CONTINUED ? WCONTINUED : 0);
	long ret = rsys(SYS_wait4, pid_of(a), &status, opts, NULL);
	char r[32], w[48];

	if (ret < 0) {
		emit("wait %s %s", a->task_name, ret_text(ret, r, sizeof(r)));
		return;
	}
	if (WIFEXITED(status) || WIFSIGNALED(status))
		tasks[a->task].reaped = true;
	emit("wait %s = %s", a->task_name, wait_text(status, w, sizeof(w)));
}

static void do_say(const struct action *a)
{
	emit("say %s", a->text);
}

static void do_exit(const struct action *a)
{
	_exit((int)a->num);
}

/* ---- spin: user-mode computation with registers at known values ------- */

/* spin_regs(deadline): loop with no system call until the TSC reaches
 * deadline, holding spin_k[i] in each register of spin_reg_names[i] and
 * checking them all on every iteration. Returns 0 when they stayed intact,
 * else the mask (bit i) of the registers that changed. rcx (the inner
 * counter) and rdx (rdtsc) are the only registers not held; rax is -516,
 * -ERESTART_RESTARTBLOCK, which a kernel that took an interrupt for a
 * system call would "restart". */
long spin_regs(uint64_t deadline);
static const char *const spin_reg_names[] = { "rax", "rbx", "rsi", "rdi", "rbp", "r8", "r9",
					      "r10", "r11", "r12", "r13", "r14", "r15", "xmm0" };

#define SPIN_BIT(off, reg, bit)                                                   \
	"cmp spin_k+" #off "(%rip), %" #reg "\n\tsetne %dl\n\tmovzbl %dl, %edx\n\t" \
	"shl $" #bit ", %rdx\n\tor %rdx, %rcx\n\t"
#define SPIN_REGS(X)                                                              \
	X(0, rax, 0) X(8, rbx, 1) X(16, rsi, 2) X(24, rdi, 3) X(32, rbp, 4)         \
	X(40, r8, 5) X(48, r9, 6) X(56, r10, 7) X(64, r11, 8) X(72, r12, 9)         \
	X(80, r13, 10) X(88, r14, 11) X(96, r15, 12)
#define SPIN_LOAD(off, reg, bit) "mov spin_k+" #off "(%rip), %" #reg "\n\t"
#define SPIN_CHECK(off, reg, bit) "cmp spin_k+" #off "(%rip), %" #reg "\n\tjne 9f\n\t"

__asm__(".section .rodata\n\t"
	".balign 8\n"
	"spin_k:\n\t"
	".quad -516, 0x1111111111111111, 0x2222222222222222, 0x3333333333333333\n\t"
	".quad 0x4444444444444444, 0x5555555555555555, 0x6666666666666666\n\t"
	".quad 0x7777777777777777, 0x8888888888888888, 0x9999999999999999\n\t"
	".quad 0xaaaaaaaaaaaaaaaa, 0xbbbbbbbbbbbbbbbb, 0xcccccccccccccccc\n\t"
	".quad 0x3ff3c0ca428c59fb\n\t"	/* xmm0: the double 1.2345 */
	".text\n\t"
	".globl spin_regs\n\t"
	".hidden spin_regs\n\t"
	".type spin_regs, @function\n"
	"spin_regs:\n\t"
	"push %rbp\n\tpush %rbx\n\tpush %r12\n\tpush %r13\n\tpush %r14\n\tpush %r15\n\t"
	"push %rdi\n\t"			/* the deadline, at 0(%rsp) */
	"movq spin_k+104(%rip), %xmm0\n\t"
	SPIN_REGS(SPIN_LOAD)
	"1:\n\t"
	"mov $20000, %ecx\n"
	"2:\n\t"
	SPIN_REGS(SPIN_CHECK)
	"movq %xmm0, %rdx\n\t"
	"cmp spin_k+104(%rip), %rdx\n\t"
	"jne 9f\n\t"
	"dec %ecx\n\t"
	"jnz 2b\n\t"
	"rdtsc\n\t"			/* rax is not held for these 5 instructions */
	"shl $32, %rdx\n\t"
	"or %rdx, %rax\n\t"
	"cmp 0(%rsp), %rax\n\t"
	"mov spin_k(%rip), %rax\n\t"	/* mov keeps the flags */
	"jb 1b\n\t"
	"xor %eax, %eax\n\t"
	"jmp 8f\n"
	"9:\n\t"
	"xor %ecx, %ecx\n\t"
	SPIN_REGS(SPIN_BIT)
	"movq %xmm0, %rdx\n\t"
	"cmp spin_k+104(%rip), %rdx\n\t"
	"setne %dl\n\tmovzbl %dl, %edx\n\tshl $13, %rdx\n\tor %rdx, %rcx\n\t"
	"mov %rcx, %rax\n"
	"8:\n\t"
	"pop %rdi\n\tpop %r15\n\tpop %r14\n\tpop %r13\n\tpop %r12\n\tpop %rbx\n\tpop %rbp\n\t"
	"ret\n\t"
	".size spin_regs, .-spin_regs\n\t");

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static void do_spin(const struct action *a)
{
	int64_t t0 = clock_ns(CLOCK_MONOTONIC), t1;
	uint64_t c0 = rdtsc(), c1;
	int runs0 = handler_runs;
	char bad[128] = "intact";
	long mask;

	/* TSC ticks per ns, measured over 10 ms of clock_gettime calls. */
	do {
		t1 = clock_ns(CLOCK_MONOTONIC);
		c1 = rdtsc();
	} while (t1 - t0 < 10000000);
	mask = spin_regs(c1 + (uint64_t)((double)(c1 - c0) / (t1 - t0) *
					 (t0 + a->ms * 1000000LL - t1)));
	if (mask) {
		size_t o = snprintf(bad, sizeof(bad), "corrupt:");

		for (unsigned i = 0; i < sizeof(spin_reg_names) / sizeof(spin_reg_names[0]); i++)
			if (mask & (1L << i))
				o += snprintf(bad + o, sizeof(bad) - o, "%s%s", i ? "," : "",
					      spin_reg_names[i]);
	}
	emit("spin(%ldms) regs=%s handlers=%d", a->ms, bad, handler_runs - runs0);
}

/* ---- The action table ------------------------------------------------- */

static const struct option handler_options[] = {
	{ "print", H_PRINT },	  { "count", H_COUNT },	      { "restart", H_RESTART },
	{ "nodefer", H_NODEFER }, { "resethand", H_RESETHAND }, { "onstack", H_ONSTACK },
	{ "do", H_DO },		  { NULL, 0 },
};

static const struct option wait_options[] = {
	{ "untraced", W_UNTRACED }, { "continued", W_CONTINUED }, { NULL, 0 },
};

enum {
	A_HANDLER, A_IGNORE, A_DEFAULT, A_BLOCK, A_UNBLOCK, A_ALTSTACK, A_NANOSLEEP,
	A_CLOCK_NANOSLEEP, A_PAUSE, A_SIGSUSPEND, A_READ, A_SPAWN, A_WAIT4,
	A_RESTART_SYSCALL, A_SPIN, A_KILL, A_COUNT, A_MASK, A_SAY, A_EXIT, A_STOP,
	A_CONT, A_WRITE, A_WAIT, NR_ACTION_KINDS
};

static const struct action_desc action_table[NR_ACTION_KINDS] = {
	[A_HANDLER] = { .name = "handler", .args = "SO", .where = IN_TASK, .options = handler_options,
			.usage = "handler SIG [print|count] [restart] [nodefer] [resethand] [onstack] [do]",
			.run = do_handler },
	[A_IGNORE] = { .name = "ignore", .args = "S", .where = IN_TASK, .usage = "ignore SIG",
		       .run = do_ignore },
	[A_DEFAULT] = { .name = "default", .args = "S", .where = IN_TASK, .usage = "default SIG",
			.run = do_default },
	[A_BLOCK] = { .name = "block", .args = "L", .where = IN_TASK, .usage = "block SIG...",
		      .run = do_block },
	[A_UNBLOCK] = { .name = "unblock", .args = "L", .where = IN_TASK,
			.usage = "unblock SIG...", .run = do_unblock },
	[A_ALTSTACK] = { .name = "altstack", .args = "", .where = IN_TASK, .usage = "altstack",
			 .run = do_altstack },
	[A_NANOSLEEP] = { .name = "nanosleep", .args = "D", .where = IN_TASK,
			  .usage = "nanosleep DURATION", .run = do_nanosleep },
	[A_CLOCK_NANOSLEEP] = { .name = "clock_nanosleep", .args = "CMD", .where = IN_TASK,
				.usage = "clock_nanosleep MONOTONIC|REALTIME|BOOTTIME abs|rel DURATION",
				.run = do_clock_nanosleep },
	[A_PAUSE] = { .name = "pause", .args = "", .where = IN_TASK, .usage = "pause",
		      .run = do_pause },
	[A_SIGSUSPEND] = { .name = "sigsuspend", .args = "L", .where = IN_TASK,
			   .usage = "sigsuspend [SIG...]", .run = do_sigsuspend },
	[A_READ] = { .name = "read", .args = "", .where = IN_TASK, .usage = "read",
		     .run = do_read },
	[A_SPAWN] = { .name = "spawn", .args = "T", .where = IN_TASK, .usage = "spawn TASK",
		      .run = do_spawn },
	[A_WAIT4] = { .name = "wait4", .args = "t", .where = IN_TASK, .usage = "wait4 [TASK]",
		      .run = do_wait4 },
	[A_RESTART_SYSCALL] = { .name = "restart_syscall", .args = "", .where = IN_TASK,
				.usage = "restart_syscall", .run = do_restart_syscall },
	[A_SPIN] = { .name = "spin", .args = "D", .where = IN_TASK, .usage = "spin DURATION",
		     .run = do_spin },
	[A_KILL] = { .name = "kill", .args = "KS", .where = IN_TASK | IN_CONTROLLER,
		     .usage = "kill TASK SIG", .run = do_kill },
	[A_COUNT] = { .name = "count", .args = "S", .where = IN_TASK, .usage = "count SIG",
		      .run = do_count },
	[A_MASK] = { .name = "mask", .args = "", .where = IN_TASK, .usage = "mask", .run = do_mask },
	[A_SAY] = { .name = "say", .args = "X", .where = IN_TASK | IN_CONTROLLER,
		    .usage = "say TEXT", .run = do_say },
	[A_EXIT] = { .name = "exit", .args = "N", .where = IN_TASK, .usage = "exit STATUS",
		     .run = do_exit },
	[A_STOP] = { .name = "stop", .args = "T", .where = IN_CONTROLLER, .usage = "stop TASK",
		     .run = do_stop },
	[A_CONT] = { .name = "cont", .args = "T", .where = IN_CONTROLLER, .usage = "cont TASK",
		     .run = do_cont },
	[A_WRITE] = { .name = "write", .args = "TX", .where = IN_CONTROLLER,
		      .usage = "write TASK TEXT", .run = do_write },
	[A_WAIT] = { .name = "wait", .args = "TO", .where = IN_CONTROLLER, .options = wait_options,
		     .usage = "wait TASK [untraced] [continued]", .run = do_wait },
};

/* Wait (silently, restarting after handlers) until at_ms, then act. */
static void run_action(const struct action *a)
{
	if (a->at_ms >= 0) {
		int64_t t = start_ns + a->at_ms * 1000000LL;
		struct timespec ts = { .tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL };

		while (rsys(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == -EINTR)
			;
	}
	a->desc->run(a);
}

static void run_actions(int first, int end)
{
	for (int i = first; i < end; i = actions[i].body_end ? actions[i].body_end : i + 1)
		run_action(&actions[i]);
}

/* ---- The parser -------------------------------------------------------- */

static int cur_line;

static void syntax(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void syntax(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	if (cur_line)
		fprintf(stderr, "scenario: %s:%d: %s\n", script, cur_line, msg);
	else
		fprintf(stderr, "scenario: %s: %s\n", script, msg);
	exit(EXIT_SCRIPT);
}

/* "500ms" or "2s" -> milliseconds; -1 when malformed. */
static long parse_duration(const char *s)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	if (strcmp(end, "ms") == 0)
		return v;
	if (strcmp(end, "s") == 0)
		return v * 1000;
	return -1;
}

static long need_duration(const char *what, const char *s)
{
	long v = s ? parse_duration(s) : -1;

	if (v < 0)
		syntax("%s needs a duration like 500ms or 2s, got '%s'", what, s ? s : "nothing");
	return v;
}

static int parse_signal(const char *s)
{
	char name[32];

	snprintf(name, sizeof(name), "%s%s", strncmp(s, "SIG", 3) ? "SIG" : "", s);
	for (int sig = 1; sig <= 64; sig++)
		if (strcmp(signal_name(sig), name) == 0)
			return sig;
	return 0;
}

static bool parse_name(const char *s)
{
	if (!*s || strlen(s) >= NAME_LEN)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

/* Fill a's arguments from words[0..n) as desc->args says. */
static void parse_args(struct action *a, char **w, int n)
{
	const struct action_desc *d = a->desc;
	int i = 0;

	for (const char *k = d->args; *k; k++) {
		const char *s = i < n ? w[i] : NULL;

		switch (*k) {
		case 'D':
			a->ms = need_duration(d->name, s);
			i++;
			break;
		case 'S':
			if (!s || !(a->sig = parse_signal(s)))
				syntax("%s needs a signal like SIGUSR1, got '%s' (usage: %s)", d->name,
				       s ? s : "nothing", d->usage);
			i++;
			break;
		case 'L':
			for (; i < n; i++) {
				int sig = parse_signal(w[i]);

				if (!sig)
					syntax("%s: '%s' is not a signal (usage: %s)", d->name, w[i], d->usage);
				a->sigs |= 1ULL << (sig - 1);
			}
			break;
		case 't':
			if (!s) {
				a->task = ANY;
				break;
			}
			/* fall through */
		case 'T':
		case 'K':
			if (!s || !parse_name(s))
				syntax("%s needs a task name, got '%s' (usage: %s)", d->name,
				       s ? s : "nothing", d->usage);
			snprintf(a->task_name, sizeof(a->task_name), "%s", s);
			a->task = -1;
			i++;
			break;
		case 'C':
			if (!s)
				syntax("%s needs a clock (usage: %s)", d->name, d->usage);
			if (!strncmp(s, "CLOCK_", 6))
				s += 6;
			if (!strcmp(s, "MONOTONIC"))
				a->clock = CLOCK_MONOTONIC;
			else if (!strcmp(s, "REALTIME"))
				a->clock = CLOCK_REALTIME;
			else if (!strcmp(s, "BOOTTIME"))
				a->clock = CLOCK_BOOTTIME;
			else
				syntax("unknown clock '%s' (usage: %s)", s, d->usage);
			i++;
			break;
		case 'M':
			if (!s || (strcmp(s, "abs") && strcmp(s, "rel")))
				syntax("%s needs abs or rel, got '%s'", d->name, s ? s : "nothing");
			a->abs = !strcmp(s, "abs");
			i++;
			break;
		case 'N': {
			char *end;

			if (!s || (a->num = strtol(s, &end, 10), *end) || end == s)
				syntax("%s needs a number, got '%s'", d->name, s ? s : "nothing");
			i++;
			break;
		}
		case 'X': {
			size_t o = 0;

			if (!s)
				syntax("%s needs a text (usage: %s)", d->name, d->usage);
			for (; i < n; i++)
				o += snprintf(a->text + o, o < TEXT_LEN ? TEXT_LEN - o : 0, "%s%s",
					      o ? " " : "", w[i]);
			break;
		}
		case 'O':
			for (; i < n; i++) {
				const struct option *o = d->options;

				while (o->word && strcmp(o->word, w[i]))
					o++;
				if (!o->word)
					syntax("%s: unknown option '%s' (usage: %s)", d->name, w[i], d->usage);
				a->opts |= o->bit;
			}
			break;
		}
	}
	if (i < n)
		syntax("%s: unexpected '%s' (usage: %s)", d->name, w[i], d->usage);
}

static int find_task(const char *name)
{
	for (int t = 0; t < nr_tasks; t++)
		if (!strcmp(tasks[t].name, name))
			return t;
	return -1;
}

/* Task names are resolved once the whole script is read. */
static void resolve(struct action *a, int owner)
{
	const struct action_desc *d = a->desc;

	cur_line = a->line;
	if (a->desc == &action_table[A_READ] && tasks[owner].spawned)
		syntax("read: task %s has no pipe (it is spawned by a task)", tasks[owner].name);
	if (!strchr(d->args, 'T') && !strchr(d->args, 'K') && !(strchr(d->args, 't') && a->task != ANY))
		return;
	if (owner >= 0 && !strcmp(a->task_name, "self") && strchr(d->args, 'K')) {
		a->task = SELF;
		return;
	}
	if ((a->task = find_task(a->task_name)) < 0)
		syntax("unknown task '%s'", a->task_name);
	if (owner < 0 && tasks[a->task].spawned)
		syntax("task %s is spawned by a task: the controller cannot reach it", a->task_name);
	if (owner >= 0 && !tasks[a->task].spawned)
		syntax("%s %s: a task can only reach the tasks it spawns", d->name, a->task_name);
}


static void read_script(void)
{
	int fd = strcmp(script, "-") ? open(script, O_RDONLY | O_CLOEXEC) : 0;
	size_t len = 0;
	ssize_t r;

	if (fd < 0)
		syntax("cannot open: %s", errno_name(errno));
	while ((r = read(fd, script_text + len, sizeof(script_text) - len)) > 0)
		if ((len += r) == sizeof(script_text))
			syntax("longer than %d bytes", MAX_SCRIPT);
	if (r < 0)
		syntax("cannot read: %s", errno_name(errno));
	if (memchr(script_text, 0, len))
		syntax("a NUL byte: not a script");
	if (fd)
		close(fd);
}

static void parse_script(const char *text)
{
	char buf[1024];
	/* Open blocks: a task, then handler bodies (action indices). */
	int stack[MAX_DEPTH], depth = 0, task = -1;

	for (const char *next; *text; text = next) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char *w[32], *p;
		int n = 0;

		next = text + len + (nl ? 1 : 0);
		cur_line++;
		if (len >= sizeof(buf))
			syntax("line longer than %zu bytes", sizeof(buf) - 1);
		memcpy(buf, text, len);
		buf[len] = 0;
		if ((p = strchr(buf, '#')))
			*p = 0;
		for (p = strtok(buf, " \t\r"); p && n < 32; p = strtok(NULL, " \t\r"))
			w[n++] = p;
		if (!n)
			continue;
		if (!strcmp(w[0], "tolerance")) {
			if (depth || n != 2)
				syntax("usage: tolerance DURATION, outside tasks");
			if ((tolerance_ms = need_duration("tolerance", w[1])) <= 0)
				syntax("tolerance must be at least 1ms");
			continue;
		}
		if (!strcmp(w[0], "task")) {
			if (depth)
				syntax("task inside a block: close it with 'end' first");
			if (n < 2 || n > 3 || !parse_name(w[1]) || !strcmp(w[1], "self") ||
			    (n == 3 && strcmp(w[2], "spawned")))
				syntax("usage: task NAME [spawned]");
			if (find_task(w[1]) >= 0)
				syntax("task %s is defined twice", w[1]);
			if (nr_tasks == MAX_TASKS)
				syntax("more than %d tasks", MAX_TASKS);
			task = nr_tasks++;
			snprintf(tasks[task].name, NAME_LEN, "%s", w[1]);
			tasks[task].line = cur_line;
			tasks[task].spawned = n == 3;
			tasks[task].first = nr_actions;
			tasks[task].pipe_rd = tasks[task].pipe_wr = -1;
			stack[depth++] = -1;
			continue;
		}
		if (!strcmp(w[0], "end")) {
			if (n != 1 || !depth)
				syntax(n != 1 ? "usage: end" : "'end' without a task or handler to close");
			if (stack[--depth] >= 0)
				actions[stack[depth]].body_end = nr_actions;
			else
				tasks[task].end = nr_actions;
			continue;
		}

		struct action *a = &actions[nr_actions];
		int first = 0;

		if (nr_actions == MAX_ACTIONS)
			syntax("more than %d actions", MAX_ACTIONS);
		a->line = cur_line;
		a->at_ms = -1;
		if (!strcmp(w[0], "at")) {
			a->at_ms = need_duration("at", n > 1 ? w[1] : NULL);
			first = 2;
			if (n == 2)
				syntax("at %s: an action must follow", w[1]);
		}
		for (int k = 0; k < NR_ACTION_KINDS; k++)
			if (!strcmp(action_table[k].name, w[first]))
				a->desc = &action_table[k];
		if (!a->desc)
			syntax("unknown action '%s'", w[first]);
		if (!(a->desc->where & (depth ? IN_TASK : IN_CONTROLLER)))
			syntax("'%s' is a %s action", w[first], depth ? "controller" : "task");
		parse_args(a, w + first + 1, n - first - 1);
		if ((a->opts & H_PRINT) && (a->opts & H_COUNT) && a->desc == &action_table[A_HANDLER])
			syntax("handler: print or count, not both");
		nr_actions++;
		if (!depth)
			controller[nr_controller++] = a - actions;
		if (a->desc == &action_table[A_HANDLER] && (a->opts & H_DO)) {
			if (depth == MAX_DEPTH)
				syntax("handlers nested too deep");
			stack[depth++] = a - actions;
		}
	}
	if (depth) {
		int open = stack[depth - 1];

		cur_line = open >= 0 ? actions[open].line : tasks[task].line;
		syntax("'%s' has no 'end'", open >= 0 ? "handler ... do" : "task");
	}
	for (int t = 0; t < nr_tasks; t++)
		for (int i = tasks[t].first; i < tasks[t].end; i++)
			resolve(&actions[i], t);
	for (int i = 0; i < nr_controller; i++)
		resolve(&actions[controller[i]], -1);
	cur_line = 0;
}

/* ---- main -------------------------------------------------------------- */

static int run_task(const char *name)
{
	int t = find_task(name);

	if (t < 0)
		die("--task %s: no such task in %s", name, script);
	me = tasks[t].name;
	run_actions(tasks[t].first, tasks[t].end);
	return 0;
}

static int run_controller(void)
{
	char r[32], w[48];

	start_ns = clock_ns(CLOCK_MONOTONIC);
	snprintf(start_arg, sizeof(start_arg), "%lld", (long long)start_ns);
	for (int t = 0; t < nr_tasks; t++) {
		int fds[2];

		if (tasks[t].spawned)
			continue;
		if (pipe2(fds, O_CLOEXEC))
			die("pipe2: %s", errno_name(errno));
		tasks[t].pipe_rd = fds[0];
		tasks[t].pipe_wr = fds[1];
		/* Only this task inherits its read end. */
		if (fcntl(fds[0], F_SETFD, 0))
			die("fcntl: %s", errno_name(errno));
		tasks[t].pid = start_task(t, fds[0]);
		close(fds[0]);
	}
	for (int i = 0; i < nr_controller; i++)
		run_action(&actions[controller[i]]);
	for (int t = 0; t < nr_tasks; t++) {
		int status;
		long ret;

		if (tasks[t].spawned || tasks[t].reaped)
			continue;
		ret = rsys(SYS_wait4, tasks[t].pid, &status, 0, NULL);
		if (ret < 0)
			emit("wait %s %s", tasks[t].name, ret_text(ret, r, sizeof(r)));
		else
			emit("wait %s = %s", tasks[t].name, wait_text(status, w, sizeof(w)));
	}
	return 0;
}

int main(int argc, char **argv)
{
	self_path = argv[0];
	if (argc == 7 && !strcmp(argv[1], "--task")) {
		script = argv[5];
		if (strlen(argv[6]) > MAX_SCRIPT)
			die("--task: script longer than %d bytes", MAX_SCRIPT);
		strcpy(script_text, argv[6]);
		parse_script(script_text);
		start_ns = strtoll(argv[3], NULL, 10);
		snprintf(start_arg, sizeof(start_arg), "%s", argv[3]);
		my_pipe = atoi(argv[4]);
		return run_task(argv[2]);
	}
	if (argc != 2 || (argv[1][0] == '-' && argv[1][1])) {
		fprintf(stderr, "usage: scenario SCRIPT|- (see harness/scenarios/README)\n");
		return EXIT_SCRIPT;
	}
	script = argv[1];
	read_script();
	if (!strcmp(script, "-"))
		script = "stdin";
	parse_script(script_text);
	return run_controller();
}
