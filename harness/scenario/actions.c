/*
 * harness/scenario/actions.c: what each action of a scenario does, the
 * output lines it prints, and the action table (see scenario.h).
 */
#include "scenario.h"

/* ---- Output ---------------------------------------------------------- */

int64_t clock_ns(clockid_t clk)
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
void emit(const char *fmt, ...)
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
const char *ret_text(long ret, char *buf, size_t n)
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

const char *wait_text(int status, char *buf, size_t n)
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


static const struct action *installed[65];	/* the handler action per signal */
static volatile sig_atomic_t handler_runs;
static volatile sig_atomic_t runs_of[65];
static char altstack_mem[64 * 1024] __attribute__((aligned(16)));


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
		       (a->opts & H_ONSTACK ? SA_ONSTACK : 0) |
		       (a->opts & H_RESUME ? SA_RESUME : 0);
	installed[a->sig] = a;
	if (sigaction(a->sig, &sa, NULL))
		die("sigaction %s: %s", signal_name(a->sig), errno_name(errno));
}

static void do_ignore(const struct action *a)
{
	set_disposition(a->sig, SIG_IGN, a->opts & H_RESUME ? SA_RESUME : 0);
}

static void do_default(const struct action *a)
{
	set_disposition(a->sig, SIG_DFL, a->opts & H_RESUME ? SA_RESUME : 0);
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

char *self_path;
char start_arg[32];

/* Start task t as a copy of this program; fd is its pipe's read end or -1. */
pid_t start_task(int t, int fd)
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
	{ "resume", H_RESUME },	  { "do", H_DO },		{ NULL, 0 },
};

static const struct option disposition_options[] = {
	{ "resume", H_RESUME }, { NULL, 0 },
};

static const struct option wait_options[] = {
	{ "untraced", W_UNTRACED }, { "continued", W_CONTINUED }, { NULL, 0 },
};

const struct action_desc action_table[NR_ACTION_KINDS] = {
	[A_HANDLER] = { .name = "handler", .args = "SO", .where = IN_TASK, .options = handler_options,
			.usage = "handler SIG [print|count] [restart] [nodefer] [resethand] [onstack] [resume] [do]",
			.run = do_handler },
	[A_IGNORE] = { .name = "ignore", .args = "SO", .where = IN_TASK,
		       .options = disposition_options, .usage = "ignore SIG [resume]",
		       .run = do_ignore },
	[A_DEFAULT] = { .name = "default", .args = "SO", .where = IN_TASK,
			.options = disposition_options, .usage = "default SIG [resume]",
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
void run_action(const struct action *a)
{
	if (a->at_ms >= 0) {
		int64_t t = start_ns + a->at_ms * 1000000LL;
		struct timespec ts = { .tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL };

		while (rsys(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == -EINTR)
			;
	}
	a->desc->run(a);
}

void run_actions(int first, int end)
{
	for (int i = first; i < end; i = actions[i].body_end ? actions[i].body_end : i + 1)
		run_action(&actions[i]);
}
