/* clone3 SECTION...: clone3(2), natively and under umk (tests/clone3.bats,
 * kernel/fork.c). Each section prints the same lines on both:
 *
 * fork:    a fork-like clone3 (exit_signal SIGCHLD, no flags) for each size
 *          of struct clone_args, and a page-sized one whose tail is zero.
 * thread:  a thread as glibc's pthread_create makes one: CLONE_VM ...
 *          CLONE_THREAD | CLONE_SETTLS | CLONE_PARENT_SETTID |
 *          CLONE_CHILD_CLEARTID, on its own stack; what it saw of itself.
 * sighand: CLONE_CLEAR_SIGHAND: a child's handlers back to SIG_DFL, its
 *          ignored signals still ignored.
 * errors:  each refusal of copy_clone_args_from_user and clone3_args_valid
 *          (Linux's kernel/fork.c): sizes, exit_signal, flags, stack.
 * set_tid: the pid asked for: refused when absent, malformed, out of range,
 *          taken or asked without CAP_SYS_ADMIN; given when free.
 * cgroup:  CLONE_INTO_CGROUP: the third size needed, an fd that is no
 *          cgroup directory refused.
 *
 * musl has no clone3 wrapper: clone3_call below makes the call, and the
 * child runs a function on whatever stack it got, then exits. A call that
 * should fail but makes a child shows "= a child"; the child exits at
 * once. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define ARCH_GET_FS 0x1003
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#define CLONE_INTO_CGROUP 0x200000000ULL
#define FUTEX_WAIT 0

/* include/uapi/linux/sched.h, all three versions */
struct clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size;		/* CLONE_ARGS_SIZE_VER1: 80 */
	uint64_t cgroup;			/* CLONE_ARGS_SIZE_VER2: 88 */
};

/* clone3(args, size); the child calls fn(), then exit(0). rdx (fn) is
 * kept by the syscall instruction, in the child too. */
long clone3_call(struct clone_args *args, size_t size, void (*fn)(void));
__asm__(".text\n"
	".globl clone3_call\n"
	".type clone3_call, @function\n"
	"clone3_call:\n"
	"	mov $435, %eax\n"
	"	syscall\n"
	"	test %rax, %rax\n"
	"	jnz 1f\n"
	"	xor %ebp, %ebp\n"
	"	call *%rdx\n"
	"	mov $60, %eax\n"
	"	xor %edi, %edi\n"
	"	syscall\n"
	"	hlt\n"
	"1:	ret\n"
	".size clone3_call, . - clone3_call\n");

static void exit_7(void)
{
	rsys(SYS_exit_group, 7);
}

/* A call that should fail: its error, or "a child" (reaped) if it made
 * one. */
static void refused(const char *what, struct clone_args *args, size_t size)
{
	long ret = clone3_call(args, size, exit_7);

	if (ret > 0) {
		printf("%s = a child\n", what);
		rsys(SYS_wait4, ret, NULL, __WALL, NULL);
		return;
	}
	show(what, ret);
}

/* A fork-like clone3 of size bytes whose child exits 7: what its parent
 * saw. */
static void fork_of_size(const char *what, void *args_area, size_t size)
{
	struct clone_args *args = args_area;
	int status;
	long pid;

	args->exit_signal = SIGCHLD;
	pid = clone3_call(args, size, exit_7);
	if (pid < 0) {
		show(what, pid);
		return;
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid: %m");
	printf("%s: a child, %s\n", what, status_text(status));
}

static void fork_section(void)
{
	static uint64_t page[4096 / 8];
	struct clone_args args;

	memset(&args, 0, sizeof(args));
	fork_of_size("size 64 (VER0)", &args, 64);
	fork_of_size("size 80 (VER1)", &args, 80);
	fork_of_size("size 88 (VER2)", &args, 88);
	fork_of_size("size 4096, the tail zero", page, 4096);
}

/* ---- thread ---- */

static unsigned long tls_block[64];	/* the thread's FS base: a self pointer first */
static char thread_stack[64 * 1024] __attribute__((aligned(16)));
static volatile int ptid;		/* CLONE_PARENT_SETTID: the tid, before clone3 returns */
static volatile int ctid = -1;		/* CLONE_CHILD_CLEARTID: 0 at the thread's exit */
static volatile long t_pid, t_tid;
static volatile int t_fs_ok, t_stack_ok;

/* Runs on thread_stack with the FS base on tls_block: raw calls only. */
static void thread_fn(void)
{
	unsigned long fs = 0;
	char here;

	rsys(SYS_arch_prctl, ARCH_GET_FS, &fs);
	t_fs_ok = fs == (unsigned long)tls_block;
	t_stack_ok = &here > thread_stack && &here < thread_stack + sizeof(thread_stack);
	t_pid = rsys0(SYS_getpid);
	t_tid = rsys0(SYS_gettid);
}

static void thread_section(void)
{
	struct clone_args args = {
		.flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
			 CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID,
		.child_tid = (uintptr_t)&ctid,
		.parent_tid = (uintptr_t)&ptid,
		.stack = (uintptr_t)thread_stack,
		.stack_size = sizeof(thread_stack),
		.tls = (uintptr_t)tls_block,
	};
	long tid;
	int seen;

	tls_block[0] = (unsigned long)tls_block;
	tid = clone3_call(&args, 64, thread_fn);
	if (tid < 0) {
		show("thread", tid);
		return;
	}
	/* CLONE_CHILD_CLEARTID: 0 and a futex wake when the thread is gone */
	while ((seen = ctid) != 0)
		rsys(SYS_futex, &ctid, FUTEX_WAIT, seen, NULL);
	printf("thread: a new tid: %s\n", tid != getpid() ? "yes" : "no");
	printf("thread: parent_tid is its tid: %s\n", ptid == tid ? "yes" : "no");
	printf("thread: child_tid 0 at its exit, and woken: %s\n", ctid == 0 ? "yes" : "no");
	printf("thread: in its creator's process: %s\n", t_pid == getpid() ? "yes" : "no");
	printf("thread: gettid is the tid clone3 returned: %s\n", t_tid == tid ? "yes" : "no");
	printf("thread: its FS base is tls: %s\n", t_fs_ok ? "yes" : "no");
	printf("thread: it ran on its stack: %s\n", t_stack_ok ? "yes" : "no");
	show("thread: wait4(-1, __WALL) after it", rsys(SYS_wait4, -1, NULL, __WALL | WNOHANG, NULL));
}

/* ---- sighand ---- */

static void on_usr1(int sig)
{
}

/* The child: exit 0 if SIGUSR1 is SIG_DFL and SIGUSR2 still SIG_IGN. */
static void sighand_child(void)
{
	struct sigaction a1, a2;

	sigaction(SIGUSR1, NULL, &a1);
	sigaction(SIGUSR2, NULL, &a2);
	rsys(SYS_exit_group, (a1.sa_handler == SIG_DFL ? 0 : 1) | (a2.sa_handler == SIG_IGN ? 0 : 2));
}

static void sighand_section(void)
{
	struct clone_args args = { .flags = CLONE_CLEAR_SIGHAND, .exit_signal = SIGCHLD };
	int status;
	long pid;

	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, SIG_IGN);
	pid = clone3_call(&args, 64, sighand_child);
	if (pid < 0) {
		show("CLONE_CLEAR_SIGHAND", pid);
		return;
	}
	waitpid(pid, &status, 0);
	printf("CLONE_CLEAR_SIGHAND: SIGUSR1 back to SIG_DFL, SIGUSR2 still ignored: %s\n",
	       status == 0 ? "yes" : status_text(status));
	args.flags |= CLONE_SIGHAND | CLONE_VM;
	refused("CLONE_CLEAR_SIGHAND|CLONE_SIGHAND|CLONE_VM", &args, 64);
}

/* ---- errors ---- */

static void errors_section(void)
{
	static uint64_t big[4096 / 8 + 1];
	struct clone_args a;

#define RESET() (memset(&a, 0, sizeof(a)), a.exit_signal = SIGCHLD)
	RESET();
	refused("size 0", &a, 0);
	refused("size 63", &a, 63);
	refused("size 4097", (struct clone_args *)big, 4097);
	big[11] = 1;	/* byte 88: past every field */
	big[4] = SIGCHLD;
	refused("size 96, a byte past the struct set", (struct clone_args *)big, 96);
	refused("args NULL", NULL, 64);
	refused("args unmapped", (struct clone_args *)8, 64);

	RESET();
	a.exit_signal = 65;
	refused("exit_signal 65", &a, 64);
	a.exit_signal = 0x100 | SIGCHLD;
	refused("exit_signal 0x100|SIGCHLD", &a, 64);
	RESET();
	a.flags = CLONE_PARENT;
	refused("CLONE_PARENT, exit_signal SIGCHLD", &a, 64);
	a.flags = CLONE_THREAD | CLONE_SIGHAND | CLONE_VM;
	refused("CLONE_THREAD|CLONE_SIGHAND|CLONE_VM, exit_signal SIGCHLD", &a, 64);

	RESET();
	a.flags = SIGCHLD;
	refused("flags SIGCHLD (CSIGNAL)", &a, 64);
	a.flags = CLONE_DETACHED;
	refused("CLONE_DETACHED", &a, 64);
	a.flags = 1ULL << 40;
	refused("flags 1 << 40", &a, 64);
	a.flags = CLONE_THREAD;
	a.exit_signal = 0;
	refused("CLONE_THREAD without CLONE_SIGHAND", &a, 64);

	RESET();
	a.stack = (uintptr_t)big;
	refused("stack without stack_size", &a, 64);
	a.stack = 0;
	a.stack_size = 4096;
	refused("stack_size without stack", &a, 64);
	a.stack = 1ULL << 47;
	refused("stack 1 << 47", &a, 64);
	a.stack = (1ULL << 47) - 4096;
	a.stack_size = 8192;
	refused("stack ending past 1 << 47", &a, 64);
	RESET();
	a.flags = CLONE_SETTLS;
	a.tls = 1ULL << 47;
	refused("CLONE_SETTLS, tls 1 << 47", &a, 64);
#undef RESET
}

/* ---- set_tid ---- */

static volatile long asked;

static void set_tid_child(void)
{
	rsys(SYS_exit_group, rsys0(SYS_getpid) == asked ? 0 : 1);
}

/* A pid nothing has: tried upwards from some way past ours. */
static pid_t free_pid(void)
{
	pid_t pid;

	for (pid = getpid() + 500; kill(pid, 0) == 0 || errno != ESRCH; pid++)
		;
	return pid;
}

static void set_tid_section(void)
{
	struct clone_args a = { .exit_signal = SIGCHLD };
	pid_t tids[33] = { 0 };
	long pid;
	int status;

	a.set_tid_size = 1;
	refused("set_tid NULL, set_tid_size 1", &a, 80);
	a.set_tid = (uintptr_t)tids;
	a.set_tid_size = 0;
	refused("set_tid_size 0", &a, 80);
	a.set_tid_size = 33;
	refused("set_tid_size 33", &a, 80);
	a.set_tid_size = 1;
	refused("set_tid {0}", &a, 80);
	tids[0] = 1 << 30;
	refused("set_tid {1 << 30}", &a, 80);
	tids[0] = getpid();
	refused("set_tid {our pid}", &a, 80);
	a.set_tid = 8;
	refused("set_tid unmapped", &a, 80);

	a.set_tid = (uintptr_t)tids;
	tids[0] = free_pid();
	asked = tids[0];
	pid = clone3_call(&a, 80, set_tid_child);
	if (pid < 0) {
		show("set_tid {a free pid}", pid);
	} else {
		waitpid(pid, &status, 0);
		printf("set_tid {a free pid}: the child has it: %s, %s\n",
		       pid == asked ? "yes" : "no", status == 0 ? "and sees it" : status_text(status));
	}

	/* Without CAP_SYS_ADMIN (nor CAP_CHECKPOINT_RESTORE): as nobody. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setuid(65534))
			die("setuid: %m");
		tids[0] = free_pid();
		refused("set_tid {a free pid}, as nobody", &a, 80);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

/* ---- cgroup ---- */

static void cgroup_section(void)
{
	struct clone_args a = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD };
	int dir = open("/", O_RDONLY | O_DIRECTORY);

	a.cgroup = dir;
	refused("CLONE_INTO_CGROUP, size 80", &a, 80);
	a.cgroup = 1ULL << 31;
	refused("CLONE_INTO_CGROUP, cgroup 1 << 31", &a, 88);
	a.cgroup = dir;
	refused("CLONE_INTO_CGROUP, cgroup the fd of /", &a, 88);
	a.cgroup = 1000;
	refused("CLONE_INTO_CGROUP, cgroup a closed fd", &a, 88);
	close(dir);
}

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "fork", fork_section }, { "thread", thread_section },
		{ "sighand", sighand_section }, { "errors", errors_section },
		{ "set_tid", set_tid_section }, { "cgroup", cgroup_section },
	};

	setvbuf(stdout, NULL, _IONBF, 0);
	return run_sections("clone3", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
