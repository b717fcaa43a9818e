/* startup: the calls a C library makes at program start, and their errors:
 * time, getrandom, set_robust_list/get_robust_list (and the kernel's walk
 * of the list when a holder dies), rseq (and an abort of its critical
 * section by a signal), prctl's name, death signal and dumpable flag.
 *
 *   startup time|getrandom|robust|rseq|rseq-exec|prctl|pdeath
 *
 * Every line is the same natively and under umk; CPU and node numbers are
 * printed as relations (the host's CPU may be another than umk's one). */
#define _GNU_SOURCE
#include <sys/random.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "umk/uapi/futex.h"

static const char *yes(int c) { return c ? "yes" : "no"; }

static void test_time(void)
{
	struct timespec ts;
	long t, stored = 0;

	t = rsys(SYS_time, &stored);
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("time(&t) == t: %s\n", yes(t == stored));
	printf("time is CLOCK_REALTIME's seconds: %s\n", yes(ts.tv_sec - t >= 0 && ts.tv_sec - t <= 1));
	printf("time(NULL) > 0: %s\n", yes(rsys(SYS_time, NULL) > 0));
	show("time(bad pointer)", rsys(SYS_time, 8));
}

static void test_getrandom(void)
{
	unsigned char a[64], b[64];

	show("getrandom(64, 0)", rsys(SYS_getrandom, a, sizeof(a), 0));
	show("getrandom(64, GRND_NONBLOCK)", rsys(SYS_getrandom, b, sizeof(b), GRND_NONBLOCK));
	printf("two draws differ: %s\n", yes(memcmp(a, b, sizeof(a)) != 0));
	show("getrandom(64, GRND_RANDOM)", rsys(SYS_getrandom, b, sizeof(b), GRND_RANDOM));
	show("getrandom(64, GRND_INSECURE)", rsys(SYS_getrandom, b, sizeof(b), GRND_INSECURE));
	show("getrandom(64, GRND_INSECURE|GRND_RANDOM)",
	     rsys(SYS_getrandom, b, sizeof(b), GRND_INSECURE | GRND_RANDOM));
	show("getrandom(64, 8)", rsys(SYS_getrandom, b, sizeof(b), 8));
	show("getrandom(0, 0)", rsys(SYS_getrandom, b, 0, 0));
	show("getrandom(NULL, 16, 0)", rsys(SYS_getrandom, NULL, 16, 0));
	show("getrandom(100000 bytes, 0)", rsys(SYS_getrandom, malloc(100000), 100000, 0));
}

/* A lock in memory shared with a CLONE_VM child: the futex word and the
 * robust list entry that names it. */
struct robust_lock {
	struct robust_list list;
	unsigned int word;
};

static struct robust_lock held, foreign, pending;
static struct robust_list_head robust_head;
static char child_stack[65536] __attribute__((aligned(16)));

/* The child takes held (its tid, with FUTEX_WAITERS), names foreign (owned
 * by another tid) and a pending op on pending (free), then exits without
 * unlocking anything: the kernel walks its list. */
static int robust_child(void *arg)
{
	long tid = rsys0(SYS_gettid);

	held.word = (unsigned int)tid | FUTEX_WAITERS;
	foreign.word = 12345;
	pending.word = 0;
	held.list.next = &foreign.list;
	foreign.list.next = &robust_head.list;
	robust_head.list.next = &held.list;
	robust_head.futex_offset = offsetof(struct robust_lock, word);
	robust_head.list_op_pending = &pending.list;
	if (rsys(SYS_set_robust_list, &robust_head, sizeof(robust_head)))
		rsys(SYS_exit, 99);
	rsys(SYS_exit, 0);	/* not the C library's exit: the kernel's walk */
	return 0;
}

/* A list head at an odd address, which the kernel walks all the same
 * (umk's UBSan build stopped on it once, from the fuzzer). */
static int misaligned_child(void *arg)
{
	static char area[64] __attribute__((aligned(8)));

	memset(area, 0xff, sizeof(area));
	if (rsys(SYS_set_robust_list, area + 1, sizeof(struct robust_list_head)))
		rsys(SYS_exit, 99);
	rsys(SYS_exit, 0);
	return 0;
}

static void test_robust(void)
{
	struct robust_list_head head, *got = NULL;
	size_t len = 0;
	int status;
	pid_t pid;

	head.list.next = &head.list;
	head.futex_offset = 0;
	head.list_op_pending = NULL;
	show("set_robust_list(head, 23)", rsys(SYS_set_robust_list, &head, sizeof(head) - 1));
	show("set_robust_list(head, 24)", rsys(SYS_set_robust_list, &head, sizeof(head)));
	show("get_robust_list(0, &head, &len)", rsys(SYS_get_robust_list, 0, &got, &len));
	printf("got our head back: %s, len %zu\n", yes(got == &head), len);
	show("get_robust_list(99999, ...)", rsys(SYS_get_robust_list, 99999, &got, &len));
	show("get_robust_list(0, bad, &len)", rsys(SYS_get_robust_list, 0, 8, &len));

	pid = clone(robust_child, child_stack + sizeof(child_stack), CLONE_VM | SIGCHLD, NULL);
	if (pid < 0)
		die("clone failed");
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid failed");
	printf("child: %s\n", status_text(status));
	printf("held lock: owner died, waiters kept, tid gone: %s (0x%08x)\n",
	       yes(held.word == (FUTEX_OWNER_DIED | FUTEX_WAITERS)),
	       held.word & ~FUTEX_TID_MASK);
	printf("lock of another tid untouched: %s\n", yes(foreign.word == 12345));
	printf("free pending lock untouched: %s\n", yes(pending.word == 0));

	pid = clone(misaligned_child, child_stack + sizeof(child_stack), CLONE_VM | SIGCHLD, NULL);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		die("clone or waitpid failed");
	printf("child with a misaligned list: %s\n", status_text(status));
}

/* struct rseq of include/uapi/linux/rseq.h */
struct rseq_area {
	unsigned int cpu_id_start;
	unsigned int cpu_id;
	unsigned long long rseq_cs;
	unsigned int flags;
	unsigned int node_id;
	unsigned int mm_cid;
} __attribute__((aligned(32)));

#define RSEQ_SIG 0x53053053

static struct rseq_area rs;
static struct rseq_area other_rs;
static volatile int alarm_seen;

static void on_alarm(int sig)
{
	alarm_seen = 1;
}

/* Spin in a critical section until SIGALRM's handler has run: 1 if the
 * kernel moved us to the abort handler, 0 if the loop simply ended. */
static __attribute__((noinline)) int rseq_spin_until_signal(void)
{
	int aborted = 0;

	__asm__ __volatile__(
		".pushsection .data.rel.local, \"aw\"\n"
		".balign 32\n"
		"startup_rseq_cs:\n"
		".long 0, 0\n"			/* version, flags */
		".quad 1f, 2f - 1f, 4f\n"	/* start_ip, post_commit_offset, abort_ip */
		".popsection\n"
		"leaq startup_rseq_cs(%%rip), %%rax\n"
		"movq %%rax, %[cs]\n"
		"1:\n"
		"cmpl $0, %[seen]\n"
		"je 1b\n"
		"2:\n"
		"jmp 5f\n"
		".long 0x53053053\n"		/* the signature, before abort_ip */
		"4:\n"
		"movl $1, %[aborted]\n"
		"5:\n"
		: [cs] "=m"(rs.rseq_cs), [aborted] "+m"(aborted)
		: [seen] "m"(alarm_seen)
		: "rax", "memory", "cc");
	return aborted;
}

static void test_rseq(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	unsigned int cpu = 0, node = 0;
	char *raw = (char *)&other_rs;

	rs.cpu_id = 0xdead;
	rs.rseq_cs = 0x1234;	/* stale: registration clears it */
	show("rseq(misaligned, 32)", rsys(SYS_rseq, raw + 8, 32, 0, RSEQ_SIG));
	show("rseq(area, 31)", rsys(SYS_rseq, &rs, 31, 0, RSEQ_SIG));
	show("rseq(area, 32, flags 2)", rsys(SYS_rseq, &rs, 32, 2, RSEQ_SIG));
	show("rseq(NULL, 32)", rsys(SYS_rseq, NULL, 32, 0, RSEQ_SIG));
	show("rseq(area, 32)", rsys(SYS_rseq, &rs, 32, 0, RSEQ_SIG));
	rsys(SYS_getcpu, &cpu, &node, NULL);
	printf("cpu_id is getcpu's: %s, cpu_id_start == cpu_id: %s, node_id is getcpu's: %s\n",
	       yes(rs.cpu_id == cpu), yes(rs.cpu_id_start == rs.cpu_id), yes(rs.node_id == node));
	printf("mm_cid of a lone thread: %u, stale rseq_cs cleared: %s\n", rs.mm_cid,
	       yes(rs.rseq_cs == 0));
	show("rseq(area, 32) again", rsys(SYS_rseq, &rs, 32, 0, RSEQ_SIG));
	show("rseq(area, 32) again, another signature", rsys(SYS_rseq, &rs, 32, 0, RSEQ_SIG + 1));
	show("rseq(another area, 32)", rsys(SYS_rseq, &other_rs, 32, 0, RSEQ_SIG));

	sigaction(SIGALRM, &sa, NULL);
	ualarm(20000, 0);
	printf("a signal in the critical section aborts it: %s\n", yes(rseq_spin_until_signal()));
	printf("rseq_cs cleared after the abort: %s\n", yes(rs.rseq_cs == 0));

	show("unregister, another signature", rsys(SYS_rseq, &rs, 32, 1, RSEQ_SIG + 1));
	show("unregister, length 64", rsys(SYS_rseq, &rs, 64, 1, RSEQ_SIG));
	show("unregister, flags 3", rsys(SYS_rseq, &rs, 32, 3, RSEQ_SIG));
	show("unregister", rsys(SYS_rseq, &rs, 32, 1, RSEQ_SIG));
	printf("cpu_id after unregistration: %d\n", (int)rs.cpu_id);
	show("unregister again", rsys(SYS_rseq, &rs, 32, 1, RSEQ_SIG));
}

/* exec drops a registration: the new program may register at once. */
static void test_rseq_exec(const char *self)
{
	show("rseq(area, 32)", rsys(SYS_rseq, &rs, 32, 0, RSEQ_SIG));
	fflush(stdout);
	execl(self, self, "rseq-after-exec", (char *)NULL);
	die("execl failed");
}

static char thread_name[16];

static int name_thread(void *arg)
{
	rsys(SYS_prctl, PR_SET_NAME, "worker", 0, 0, 0);
	rsys(SYS_prctl, PR_GET_NAME, thread_name, 0, 0, 0);
	return 0;
}

static void test_prctl(void)
{
	char name[32];
	int sig = -1;
	volatile pid_t tid = 0;

	memset(name, 'x', sizeof(name));
	show("prctl(PR_SET_NAME, \"a-name-of-24-characters\")",
	     rsys(SYS_prctl, PR_SET_NAME, "a-name-of-24-characters", 0, 0, 0));
	show("prctl(PR_GET_NAME)", rsys(SYS_prctl, PR_GET_NAME, name, 0, 0, 0));
	printf("name: \"%s\", byte 16 untouched: %s\n", name, yes(name[16] == 'x'));
	show("prctl(PR_SET_NAME, bad)", rsys(SYS_prctl, PR_SET_NAME, 8, 0, 0, 0));
	show("prctl(PR_GET_NAME, bad)", rsys(SYS_prctl, PR_GET_NAME, 8, 0, 0, 0));

	/* the kernel sets tid before the thread runs and clears it when the
	 * thread is gone (clone's return value could come after that) */
	if (clone(name_thread, child_stack + sizeof(child_stack),
		  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
		  CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID, NULL, &tid, NULL, &tid) < 0)
		die("clone failed");
	while (tid)
		rsys(SYS_futex, &tid, FUTEX_WAIT, tid, NULL);
	rsys(SYS_prctl, PR_GET_NAME, name, 0, 0, 0);
	printf("a thread names itself \"%s\", the main thread stays \"%s\"\n", thread_name, name);

	show("prctl(PR_GET_PDEATHSIG)", rsys(SYS_prctl, PR_GET_PDEATHSIG, &sig, 0, 0, 0));
	printf("death signal: %d\n", sig);
	show("prctl(PR_SET_PDEATHSIG, 65)", rsys(SYS_prctl, PR_SET_PDEATHSIG, 65, 0, 0, 0));
	show("prctl(PR_SET_PDEATHSIG, SIGUSR1)", rsys(SYS_prctl, PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0));
	rsys(SYS_prctl, PR_GET_PDEATHSIG, &sig, 0, 0, 0);
	printf("death signal: %s\n", signal_name(sig));
	show("prctl(PR_GET_PDEATHSIG, bad)", rsys(SYS_prctl, PR_GET_PDEATHSIG, 8, 0, 0, 0));

	show("prctl(PR_GET_DUMPABLE)", rsys(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0));
	show("prctl(PR_SET_DUMPABLE, 2)", rsys(SYS_prctl, PR_SET_DUMPABLE, 2, 0, 0, 0));
	show("prctl(PR_SET_DUMPABLE, 0)", rsys(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0));
	show("prctl(PR_GET_DUMPABLE)", rsys(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0));
	show("prctl(PR_SET_DUMPABLE, 1)", rsys(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0));
	show("prctl(12345)", rsys(SYS_prctl, 12345, 0, 0, 0, 0));
}

/* pdeath: a middle process starts a grandchild (CLONE_VM, on a stack of
 * its own) that asks for SIGUSR1 when its parent dies, waits until it has,
 * and exits. The grandchild reports on the pipe it shares with us: its new
 * parent is not us natively (the host's reaper adopts it). */
static void on_usr1(int sig)
{
}

static int ready_pipe[2], report_fd;

static int pdeath_grandchild(void *arg)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t mask, none;
	char line[80];
	pid_t parent = getppid();

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	rsys(SYS_prctl, PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
	if (write(ready_pipe[1], "r", 1) != 1)
		return 99;
	sigemptyset(&none);
	sigsuspend(&none);
	snprintf(line, sizeof(line), "grandchild: SIGUSR1 came after the parent died: %s\n",
		 yes(getppid() != parent));
	if (write(report_fd, line, strlen(line)) < 0)
		return 99;
	return 0;
}

static int pdeath_middle(int fd)
{
	char c;

	report_fd = fd;
	if (pipe(ready_pipe))
		return 99;
	if (clone(pdeath_grandchild, child_stack + sizeof(child_stack), CLONE_VM | SIGCHLD,
		  NULL) < 0)
		return 99;
	return read(ready_pipe[0], &c, 1) == 1 ? 0 : 99;
}

static void test_pdeath(const char *self)
{
	int report[2], status;
	char line[128], w[16];
	ssize_t n;
	pid_t middle;

	if (pipe(report))
		die("pipe failed");
	snprintf(w, sizeof(w), "%d", report[1]);
	middle = spawn(self, (char *[]){ (char *)self, "pdeath-middle", w, NULL });
	close(report[1]);
	status = wait_status(middle);
	printf("middle: %s\n", status_text(status));
	n = read(report[0], line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = '\0';
	printf("%s", line);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "pdeath-middle") && argc > 2)
		return pdeath_middle(atoi(argv[2]));
	if (!strcmp(what, "time"))
		test_time();
	else if (!strcmp(what, "getrandom"))
		test_getrandom();
	else if (!strcmp(what, "robust"))
		test_robust();
	else if (!strcmp(what, "rseq"))
		test_rseq();
	else if (!strcmp(what, "rseq-exec"))
		test_rseq_exec(argv[0]);
	else if (!strcmp(what, "rseq-after-exec"))
		show("rseq(area, 32) after exec", rsys(SYS_rseq, &rs, 32, 0, RSEQ_SIG));
	else if (!strcmp(what, "prctl"))
		test_prctl();
	else if (!strcmp(what, "pdeath"))
		test_pdeath(argv[0]);
	else
		die("usage: startup time|getrandom|robust|rseq|rseq-exec|prctl|pdeath");
	return 0;
}
