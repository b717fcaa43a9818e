/*
 * forks: what fork must do, one check per argument, with the same output
 * natively and under umk (tests/process.bats).
 *
 *   isolate   the child's writes do not reach the parent; one fixed
 *             address holds different data in two live processes
 *   shared    MAP_SHARED anonymous memory stays shared after fork, and a
 *             futex in it wakes a waiter in the other process
 *   many N    N children alive at once (each waits on a pipe), all reaped
 *   thread    fork from a second thread: the child has only that thread
 *   sleeping  fork while another thread sleeps in nanosleep: its sleep
 *             ends at its deadline, not early (no EINTR, no restart lost)
 *   stopcont  a child stopped and continued across the parent's waitpid
 *             (WUNTRACED, WCONTINUED)
 *   restart   a child's 300 ms nanosleep, stopped at 100 ms and continued
 *             at 200 ms, returns 0 at its deadline (through restart_syscall
 *             under umk); the parent's own sleep meanwhile is untouched
 *   execmt    exec from a process with a second thread running: the new
 *             program runs alone
 *   brk       the child's heap (brk) is its own copy, and grows alone
 *   exec PATH execve(PATH) and print its errno (it must fail)
 *   files     MAP_SHARED of /dev/zero and of a /dev/shm file stay shared
 *             after fork; MAP_PRIVATE of /dev/zero reads zeros
 *   efault    a pointer into the child's memory, passed to the parent, is
 *             no pointer of the parent's: write() from it is EFAULT
 *   fresh     children forked one after another each get the parent's
 *             memory and nothing of the one before: a child fills pages the
 *             parent never touched, in a region of the parent's and in one
 *             of its own, and exits; the next child reads zeros there and
 *             the parent's data elsewhere (umk reuses a dead process's
 *             memory file for the next fork: kernel/mm/mm.c, dup_mm)
 */
#include <errno.h>
#include <fcntl.h>
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static const char *self;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int isolate(void)
{
	static int global = 1;
	/* Fixed addresses here are below 2 GiB: in umk's ASan build the
	 * user window ends there (include/umk/mm.h). */
	char *fixed = mmap((void *)0x20000000UL, 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	int to_child[2], to_parent[2];
	pid_t pid;
	char c;

	if (fixed == MAP_FAILED)
		die("mmap: %s", errno_name(errno));
	strcpy(fixed, "before fork");
	if (pipe(to_child) || pipe(to_parent))
		die("pipe: %s", errno_name(errno));
	pid = fork_or_die();
	if (pid == 0) {
		global = 2;
		strcpy(fixed, "child's");
		write(to_parent[1], "x", 1);	/* written: now the parent */
		read(to_child[0], &c, 1);	/* has written too */
		printf("child: global %d, %#lx holds \"%s\"\n", global, (unsigned long)fixed, fixed);
		fflush(stdout);
		_exit(0);
	}
	read(to_parent[0], &c, 1);
	strcpy(fixed, "parent's");
	write(to_child[1], "x", 1);
	printf("fork: child %s\n", status_text(wait_status(pid)));
	printf("parent: global %d, %#lx holds \"%s\"\n", global, (unsigned long)fixed, fixed);
	return 0;
}

static long futex(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static int shared(void)
{
	uint32_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	if (page == MAP_FAILED)
		die("mmap: %s", errno_name(errno));
	page[1] = 1;
	pid = fork_or_die();
	if (pid == 0) {
		/* Wait (a shared futex: no FUTEX_PRIVATE_FLAG) for the parent
		 * to write 2 into word 0, then answer in word 1. */
		while (__atomic_load_n(&page[0], __ATOMIC_SEQ_CST) == 0)
			futex(&page[0], FUTEX_WAIT, 0);
		page[1] = page[0] * 10;
		_exit(0);
	}
	sleep_ms(50);
	__atomic_store_n(&page[0], 2, __ATOMIC_SEQ_CST);
	printf("futex_wake woke %ld\n", futex(&page[0], FUTEX_WAKE, 1));
	printf("child %s\n", status_text(wait_status(pid)));
	printf("the child wrote %u into the shared page\n", page[1]);
	return 0;
}

static int many(int n)
{
	int gate[2], i, reaped = 0, codes = 0, status;
	pid_t pid;

	if (pipe(gate))
		die("pipe: %s", errno_name(errno));
	for (i = 0; i < n; i++) {
		pid = fork_or_die();
		if (pid == 0) {
			char c;

			close(gate[1]);
			/* Alive until the parent has forked them all. */
			if (read(gate[0], &c, 1) != 0)
				_exit(99);
			_exit(i % 100);
		}
	}
	close(gate[1]);
	while ((pid = wait(&status)) > 0) {
		reaped++;
		codes += WIFEXITED(status) ? WEXITSTATUS(status) : 1000;
	}
	printf("%d children alive at once, %d reaped (wait: %s), exit codes sum %d\n", n, reaped,
	       errno_name(errno), codes);
	return 0;
}

static void *fork_in_thread(void *arg)
{
	pid_t pid = fork_or_die();

	if (pid == 0) {
		/* Only this thread exists in the child: the main thread's
		 * stack is copied, but nobody runs on it. */
		printf("child of the thread: getpid() == gettid(): %s\n",
		       getpid() == (pid_t)syscall(SYS_gettid) ? "yes" : "no");
		fflush(stdout);
		_exit(7);
	}
	printf("thread: child %s\n", status_text(wait_status(pid)));
	return arg;
}

static int thread(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, fork_in_thread, NULL))
		die("pthread_create");
	pthread_join(t, NULL);
	return 0;
}

static void *sleeper(void *arg)
{
	double t0 = now_ms();
	struct timespec ts = { 0, 300 * 1000000L };
	int r = nanosleep(&ts, NULL);

	printf("sleeper: nanosleep = %s, slept %s 300 ms\n", r ? errno_name(errno) : "0",
	       now_ms() - t0 >= 299.5 ? "at least" : "less than");
	return arg;
}

static int sleeping(void)
{
	pthread_t t;
	pid_t pid;

	if (pthread_create(&t, NULL, sleeper, NULL))
		die("pthread_create");
	sleep_ms(100);
	pid = fork_or_die();
	if (pid == 0)
		_exit(3);
	printf("forked while the other thread sleeps: child %s\n",
	       status_text(wait_status(pid)));
	pthread_join(t, NULL);
	return 0;
}

static int stopcont(void)
{
	int status;
	pid_t pid = fork_or_die();

	if (pid == 0) {
		sleep_ms(400);
		_exit(5);
	}
	sleep_ms(50);
	kill(pid, SIGSTOP);
	if (waitpid(pid, &status, WUNTRACED) != pid)
		die("waitpid: %s", errno_name(errno));
	printf("waitpid(WUNTRACED): %s\n", status_text(status));
	kill(pid, SIGCONT);
	if (waitpid(pid, &status, WCONTINUED) != pid)
		die("waitpid: %s", errno_name(errno));
	printf("waitpid(WCONTINUED): %s\n", WIFCONTINUED(status) ? "continued" : "?");
	printf("waitpid: %s\n", status_text(wait_status(pid)));
	return 0;
}

static int restart(void)
{
	struct timespec ts = { 0, 600 * 1000000L };
	double t0;
	pid_t pid = fork_or_die();
	int r;

	if (pid == 0) {
		struct timespec req = { 0, 300 * 1000000L }, rem = { 9, 9 };

		t0 = now_ms();
		r = nanosleep(&req, &rem);
		printf("child: nanosleep = %s, returned %s its deadline\n",
		       r ? errno_name(errno) : "0", now_ms() - t0 >= 299.5 ? "at or after" : "before");
		fflush(stdout);
		_exit(0);
	}
	t0 = now_ms();
	sleep_ms(100);
	kill(pid, SIGSTOP);
	sleep_ms(100);
	kill(pid, SIGCONT);
	printf("child %s\n", status_text(wait_status(pid)));
	/* The parent's own sleep after all that: a whole one. */
	t0 = now_ms();
	r = nanosleep(&ts, NULL);
	printf("parent: nanosleep = %s, slept %s 600 ms\n", r ? errno_name(errno) : "0",
	       now_ms() - t0 >= 599.5 ? "at least" : "less than");
	return 0;
}

static void *spin(void *arg)
{
	for (;;)
		sleep_ms(1);
	return arg;
}

static int execmt(void)
{
	pthread_t t;
	char *args[] = { (char *)self, "after-exec", NULL };

	if (pthread_create(&t, NULL, spin, NULL))
		die("pthread_create");
	sleep_ms(20);
	execv(self, args);
	die("execv: %s", errno_name(errno));
}

static int after_exec(void)
{
	char path[64], line[256];
	FILE *f;
	int threads = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", getpid());
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "Threads: %d", &threads);
	if (f)
		fclose(f);
	printf("after exec: running%s\n",
	       threads == 1 ? ", alone" : threads < 0 ? "" : ", with other threads!");
	return 0;
}

static int efault(void)
{
	int addrs[2], done[2];
	char *p, c;
	pid_t pid;

	if (pipe(addrs) || pipe(done))
		die("pipe: %s", errno_name(errno));
	pid = fork_or_die();
	if (pid == 0) {
		p = mmap((void *)0x30000000UL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			die("mmap: %s", errno_name(errno));
		strcpy(p, "the child's page\n");
		write(addrs[1], &p, sizeof(p));
		read(done[0], &c, 1);	/* alive until the parent has tried */
		_exit(0);
	}
	read(addrs[0], &p, sizeof(p));
	printf("write(1, child's %#lx, 17) = %s\n", (unsigned long)p,
	       write(1, p, 17) < 0 ? errno_name(errno) : "written!");
	write(done[1], "x", 1);
	printf("child %s\n", status_text(wait_status(pid)));
	return 0;
}

static int files(void)
{
	char name[64], *zs, *zp, *sh;
	int zero = open("/dev/zero", O_RDWR), fd;
	pid_t pid;

	snprintf(name, sizeof(name), "/dev/shm/umk-forks-%d", getpid());
	fd = open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (zero < 0 || fd < 0 || ftruncate(fd, 4096))
		die("open: %s", errno_name(errno));
	zs = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, zero, 0);
	zp = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, zero, 0);
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (zs == MAP_FAILED || zp == MAP_FAILED || sh == MAP_FAILED)
		die("mmap: %s", errno_name(errno));
	strcpy(sh, "the parent's");
	pid = fork_or_die();
	if (pid == 0) {
		zs[5000] = 7;
		strcpy(sh, "the child's");
		_exit(0);
	}
	printf("child %s\n", status_text(wait_status(pid)));
	printf("/dev/zero MAP_SHARED after the child wrote: %d\n", zs[5000]);
	printf("/dev/zero MAP_PRIVATE: %d\n", zp[5000]);
	printf("%s MAP_SHARED holds %s words\n", "/dev/shm file", sh);
	unlink(name);
	return 0;
}

/* musl's sbrk refuses to move the break: brk(2) itself. */
static char *xbrk(char *to)
{
	return (char *)syscall(SYS_brk, to);
}

static int heap(void)
{
	char *before = xbrk(0), *p = before;
	pid_t pid;

	if (xbrk(before + 4096) != before + 4096)
		die("brk: no room");
	strcpy(p, "parent heap");
	pid = fork_or_die();
	if (pid == 0) {
		char *end = xbrk(before + 4096 + (1 << 20));

		strcpy(p, "child heap");
		memset(before + 4096, 1, 1 << 20);
		printf("child: brk grew by %ld KiB\n", (long)(end - before) >> 10);
		fflush(stdout);
		_exit(0);
	}
	printf("child %s\n", status_text(wait_status(pid)));
	printf("parent: \"%s\", brk grew by %ld KiB\n", p, (long)(xbrk(0) - before) >> 10);
	return 0;
}

#define FRESH_PAGES 64
#define FRESH_OWN ((char *)0x30000000)	/* the children's own region */

/* How many bytes of [p, p + n) are not zero. */
static long nonzero(const char *p, long n)
{
	long bad = 0;

	for (long i = 0; i < n; i++)
		bad += p[i] != 0;
	return bad;
}

static int fresh(void)
{
	long len = FRESH_PAGES * 4096L;
	char *mine = mmap(NULL, 3 * len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	int round;

	if (mine == MAP_FAILED)
		die("mmap: %s", errno_name(errno));
	/* the parent's data: the first and last thirds; the middle untouched */
	memset(mine, 'p', len);
	memset(mine + 2 * len, 'q', len);
	for (round = 0; round < 4; round++) {
		pid_t pid = fork_or_die();

		if (pid == 0) {
			long stale = nonzero(mine + len, len);
			char *own = mmap(FRESH_OWN, len, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			int ok = mine[0] == 'p' && mine[len - 1] == 'p' && mine[2 * len] == 'q' &&
				 mine[3 * len - 1] == 'q';

			if (own != FRESH_OWN)
				die("mmap at %p: %s", (void *)FRESH_OWN, errno_name(errno));
			stale += nonzero(own, len);
			printf("child %d: the parent's data %s, %ld stale bytes\n", round,
			       ok ? "copied" : "WRONG", stale);
			memset(mine + len, 'c', len);
			memset(own, 'o', len);
			_exit(0);
		}
		printf("child %d %s\n", round, status_text(wait_status(pid)));
	}
	return 0;
}

int main(int argc, char **argv)
{
	self = argv[0];
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 2)
		die("usage: forks isolate|shared|many N|thread|sleeping|stopcont|restart|execmt|brk");
	if (!strcmp(argv[1], "isolate"))
		return isolate();
	if (!strcmp(argv[1], "shared"))
		return shared();
	if (!strcmp(argv[1], "many") && argc > 2)
		return many(atoi(argv[2]));
	if (!strcmp(argv[1], "thread"))
		return thread();
	if (!strcmp(argv[1], "sleeping"))
		return sleeping();
	if (!strcmp(argv[1], "stopcont"))
		return stopcont();
	if (!strcmp(argv[1], "restart"))
		return restart();
	if (!strcmp(argv[1], "execmt"))
		return execmt();
	if (!strcmp(argv[1], "after-exec"))
		return after_exec();
	if (!strcmp(argv[1], "brk"))
		return heap();
	if (!strcmp(argv[1], "efault"))
		return efault();
	if (!strcmp(argv[1], "files"))
		return files();
	if (!strcmp(argv[1], "fresh"))
		return fresh();
	if (!strcmp(argv[1], "exec") && argc > 2) {
		char *args[] = { argv[2], NULL };

		execv(argv[2], args);
		printf("execve: %s\n", errno_name(errno));
		return 0;
	}
	die("forks: unknown check %s", argv[1]);
}
