/*
 * rlimits: resource limits, one mode per limit; the same output natively
 * and under umk.
 *   rlimits calls      getrlimit, setrlimit and prlimit64: NULL arguments,
 *                      bad resource, soft > hard, bad pid, raising a hard
 *                      limit, threads share, children inherit
 *   rlimits raise      raise a hard limit (root with CAP_SYS_RESOURCE may)
 *   rlimits nofile     RLIMIT_NOFILE at open, dup, dup2, F_DUPFD and pipe
 *   rlimits sigpending RLIMIT_SIGPENDING: sigqueue of a real-time signal
 *   rlimits as         RLIMIT_AS at mmap and brk
 *   rlimits data       RLIMIT_DATA at mmap and brk
 *   rlimits stack      RLIMIT_STACK: the stack an exec'd child gets
 *   rlimits cpu        RLIMIT_CPU: SIGXCPU past the soft limit, then
 *                      SIGKILL at the hard one
 *   rlimits nproc      RLIMIT_NPROC at vfork and pthread_create
 * (child modes, started by the above: nofile-child, stack-child N,
 * cpu-child)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"

static const char *self;

static void set_limit(int res, unsigned long cur, unsigned long max)
{
	struct rlimit r = { cur, max };

	if (setrlimit(res, &r))
		die("setrlimit %d: %s", res, strerror(errno));
}

static struct rlimit get_limit(int res)
{
	struct rlimit r;

	if (getrlimit(res, &r))
		die("getrlimit %d: %s", res, strerror(errno));
	return r;
}

static void print_limit(const char *what, int res)
{
	struct rlimit r = get_limit(res);

	printf("%s cur=", what);
	if (r.rlim_cur == RLIM_INFINITY)
		printf("inf");
	else
		printf("%lu", (unsigned long)r.rlim_cur);
	printf(" max=");
	if (r.rlim_max == RLIM_INFINITY)
		printf("inf\n");
	else
		printf("%lu\n", (unsigned long)r.rlim_max);
}

static void run_child(char *mode, char *arg)
{
	char *args[] = { (char *)self, mode, arg, NULL };
	int st = wait_status(spawn(self, args));

	printf("child %s: %s\n", mode, status_text(st));
}

static void *set_in_thread(void *arg)
{
	set_limit(RLIMIT_CORE, 0, 4096);
	return NULL;
}

static void calls(void)
{
	struct rlimit64 { unsigned long long cur, max; } o, n;
	struct rlimit r;
	pthread_t t;

	show("prlimit64(0, NOFILE, NULL, NULL)", rsys(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, 0));
	show("prlimit64(0, 16, NULL, NULL)", rsys(SYS_prlimit64, 0, RLIM_NLIMITS, 0, 0));
	show("prlimit64(0, 16, NULL, &old)", rsys(SYS_prlimit64, 0, RLIM_NLIMITS, 0, &o));
	show("getrlimit(16)", rsys(SYS_getrlimit, RLIM_NLIMITS, &r));
	show("getrlimit(-1)", rsys(SYS_getrlimit, -1, &r));
	show("getrlimit(NOFILE, NULL)", rsys(SYS_getrlimit, RLIMIT_NOFILE, 0));
	show("setrlimit(NOFILE, NULL)", rsys(SYS_setrlimit, RLIMIT_NOFILE, 0));
	r.rlim_cur = 100;
	r.rlim_max = 50;
	show("setrlimit(NOFILE, 100 > 50)", rsys(SYS_setrlimit, RLIMIT_NOFILE, &r));
	show("setrlimit(16, ...)", rsys(SYS_setrlimit, RLIM_NLIMITS, &r));
	n.cur = 100;
	n.max = 50;
	show("prlimit64(0, NOFILE, 100 > 50, NULL)", rsys(SYS_prlimit64, 0, RLIMIT_NOFILE, &n, 0));
	show("prlimit64(-1, NOFILE, NULL, &old)", rsys(SYS_prlimit64, -1, RLIMIT_NOFILE, 0, &o));

	/* set with prlimit64 on our own pid, read the old value back */
	n.cur = 64;
	n.max = 128;
	show("prlimit64(getpid(), NOFILE, 64/128, NULL)",
	     rsys(SYS_prlimit64, getpid(), RLIMIT_NOFILE, &n, 0));
	n.cur = 32;
	n.max = 128;
	show("prlimit64(0, NOFILE, 32/128, &old)", rsys(SYS_prlimit64, 0, RLIMIT_NOFILE, &n, &o));
	printf("old cur=%llu max=%llu\n", o.cur, o.max);
	print_limit("getrlimit NOFILE", RLIMIT_NOFILE);

	/* lower a hard limit; raising it needs CAP_SYS_RESOURCE (mode raise) */
	set_limit(RLIMIT_CORE, 0, 8192);
	print_limit("getrlimit CORE", RLIMIT_CORE);

	/* threads share the limits */
	if (pthread_create(&t, NULL, set_in_thread, NULL) || pthread_join(t, NULL))
		die("pthread");
	print_limit("CORE set by a thread", RLIMIT_CORE);

	/* a child (posix_spawn: clone, then exec) inherits them */
	fflush(stdout);
	run_child("nofile-child", NULL);

	/* RLIM_INFINITY round trip */
	set_limit(RLIMIT_FSIZE, RLIM_INFINITY, RLIM_INFINITY);
	set_limit(RLIMIT_FSIZE, 1 << 20, RLIM_INFINITY);
	print_limit("FSIZE", RLIMIT_FSIZE);
}

/* Raise a hard limit: root with CAP_SYS_RESOURCE may (umk's root always;
 * a host's root in a container may lack it). */
static void raise_hard(void)
{
	struct rlimit r = { 0, 2048 };

	set_limit(RLIMIT_CORE, 0, 1024);
	show("setrlimit(CORE, 0/2048) after a hard limit of 1024",
	     rsys(SYS_setrlimit, RLIMIT_CORE, &r));
	print_limit("getrlimit CORE", RLIMIT_CORE);
}

static void nofile(void)
{
	int fds[2], fd, n = 0, last = -1;

	/* whatever the caller left open (bats does) is not ours to count */
	for (fd = 3; fd < 1024; fd++)
		close(fd);
	set_limit(RLIMIT_NOFILE, 8, get_limit(RLIMIT_NOFILE).rlim_max);
	for (;;) {
		fd = open(self, O_RDONLY);
		if (fd < 0)
			break;
		last = fd;
		n++;
	}
	printf("opened %d, last fd %d, then open: %s\n", n, last, errno_name(errno));
	show("openat", rsys(SYS_openat, AT_FDCWD, self, O_RDONLY));
	show("dup(0)", rsys(SYS_dup, 0));
	show("dup2(0, 8)", rsys(SYS_dup2, 0, 8));
	show("dup3(0, 8, 0)", rsys(SYS_dup3, 0, 8, 0));
	show("dup2(0, 7)", rsys(SYS_dup2, 0, 7));
	show("fcntl(0, F_DUPFD, 8)", rsys(SYS_fcntl, 0, F_DUPFD, 8));
	show("fcntl(0, F_DUPFD_CLOEXEC, 100)", rsys(SYS_fcntl, 0, F_DUPFD_CLOEXEC, 100));
	show("fcntl(0, F_DUPFD, 3)", rsys(SYS_fcntl, 0, F_DUPFD, 3));
	show("pipe", rsys(SYS_pipe, fds));
	close(last);
	show("pipe with one fd free", rsys(SYS_pipe, fds));
	close(last - 1);
	show("pipe with two fds free", rsys(SYS_pipe, fds));
	/* lowering the limit below open fds leaves them open */
	set_limit(RLIMIT_NOFILE, 4, get_limit(RLIMIT_NOFILE).rlim_max);
	show("close(7) below a limit of 4", rsys(SYS_close, 7));
	show("dup(0) with limit 4", rsys(SYS_dup, 0));
	{
		struct rlimit huge = { 4, 1UL << 40 };

		show("prlimit64(0, NOFILE, 4/past nr_open, NULL)",
		     rsys(SYS_prlimit64, 0, RLIMIT_NOFILE, &huge, 0));
	}
}

static void sig_pending(void)
{
	union sigval v = { 0 };
	sigset_t set;
	int n = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* The count is the user's, over every process: natively other
	 * processes of the same user may hold some, so only what fits under
	 * the limit is comparable, and what a raise adds. */
	set_limit(RLIMIT_SIGPENDING, 500, get_limit(RLIMIT_SIGPENDING).rlim_max);
	while (n < 1000 && sigqueue(getpid(), SIGRTMIN, v) == 0)
		n++;
	printf("queued %s 500 SIGRTMIN, then sigqueue: %s\n", n <= 500 ? "at most" : "more than",
	       errno_name(errno));
	printf("sigqueue(SIGUSR1) past the limit = %d\n", sigqueue(getpid(), SIGUSR1, v));
	printf("kill(SIGRTMIN) past the limit = %d\n", kill(getpid(), SIGRTMIN));
	set_limit(RLIMIT_SIGPENDING, 503, get_limit(RLIMIT_SIGPENDING).rlim_max);
	n = 0;
	while (n < 100 && sigqueue(getpid(), SIGRTMIN, v) == 0)
		n++;
	printf("limit 503: %d more, then sigqueue: %s\n", n, errno_name(errno));
}

static void *map(size_t len, int prot, int flags)
{
	return mmap(NULL, len, prot, flags | MAP_ANONYMOUS, -1, 0);
}

static void as(void)
{
	unsigned long cur = (unsigned long)sbrk(0);
	int n = 0;

	set_limit(RLIMIT_AS, 512UL << 20, RLIM_INFINITY);
	printf("mmap 1 GiB: %s\n", map(1UL << 30, PROT_READ, MAP_PRIVATE) == MAP_FAILED ?
	       errno_name(errno) : "ok");
	printf("mmap 1 GiB PROT_NONE: %s\n", map(1UL << 30, PROT_NONE, MAP_PRIVATE) == MAP_FAILED ?
	       errno_name(errno) : "ok");
	printf("brk +1 GiB: %s\n", rsys(SYS_brk, cur + (1UL << 30)) == (long)cur ?
	       "unchanged" : "moved");
	while (n < 100 && map(64UL << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE) != MAP_FAILED)
		n++;
	printf("64 MiB mappings under 512 MiB: %d, then %s\n", n, errno_name(errno));
	set_limit(RLIMIT_AS, 1UL << 30, RLIM_INFINITY);
	printf("after raising to 1 GiB: %s\n",
	       map(64UL << 20, PROT_READ, MAP_PRIVATE) == MAP_FAILED ? errno_name(errno) : "ok");
}

static void data(void)
{
	unsigned long cur = (unsigned long)sbrk(0);

	set_limit(RLIMIT_DATA, 16UL << 20, RLIM_INFINITY);
	printf("brk +32 MiB: %s\n", rsys(SYS_brk, cur + (32UL << 20)) == (long)cur ?
	       "unchanged" : "moved");
	printf("brk +1 MiB: %s\n", rsys(SYS_brk, cur + (1UL << 20)) == (long)(cur + (1UL << 20)) ?
	       "moved" : "unchanged");
	printf("mmap 32 MiB private writable: %s\n",
	       map(32UL << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE) == MAP_FAILED ?
	       errno_name(errno) : "ok");
	printf("mmap 32 MiB read-only: %s\n",
	       map(32UL << 20, PROT_READ, MAP_PRIVATE) == MAP_FAILED ? errno_name(errno) : "ok");
	printf("mmap 8 MiB private writable: %s\n",
	       map(8UL << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE) == MAP_FAILED ?
	       errno_name(errno) : "ok");
	printf("mmap 8 MiB more private writable: %s\n",
	       map(8UL << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE) == MAP_FAILED ?
	       errno_name(errno) : "ok");
}

/* Use n bytes of stack, touching every page, then return. */
static __attribute__((noinline)) void use_stack(size_t n)
{
	volatile char *p = __builtin_alloca(n);
	size_t i;

	for (i = 0; i < n; i += 4096)
		p[i] = 1;
	p[n - 1] = 1;
}

static void stack(void)
{
	set_limit(RLIMIT_STACK, 64UL << 20, RLIM_INFINITY);
	run_child("stack-child", "56");
	set_limit(RLIMIT_STACK, 1UL << 20, RLIM_INFINITY);
	run_child("stack-child", "0");
}

static void stack_child(long mib)
{
	print_limit("child STACK", RLIMIT_STACK);
	if (mib) {
		use_stack((size_t)mib << 20);
		printf("child used %ld MiB of stack\n", mib);
	} else {
		use_stack(768 << 10);
		printf("child used 768 KiB of stack\n");
	}
}

static volatile int xcpu;

static void on_xcpu(int sig)
{
	char buf[64];
	struct rlimit r;
	int len;

	getrlimit(RLIMIT_CPU, &r);
	len = snprintf(buf, sizeof(buf), "SIGXCPU %d, soft limit now %lu\n", ++xcpu,
		       (unsigned long)r.rlim_cur);
	write(1, buf, len);
}

static void cpu_child(void)
{
	signal(SIGXCPU, on_xcpu);
	set_limit(RLIMIT_CPU, 1, 2);
	for (;;)
		;
}

static void nproc(void)
{
	pthread_t t;
	pid_t pid;
	int err;

	/* Linux exempts root: natively, become an ordinary user (umk has
	 * none: there setuid fails, and umk enforces the limit for root). */
	if (getuid() == 0)
		setuid(65534);
	set_limit(RLIMIT_NPROC, 1, 2);
	pid = vfork();
	if (pid == 0)
		_exit(0);
	printf("vfork with NPROC 1: %s\n", pid < 0 ? errno_name(errno) : "ok");
	if (pid > 0)
		wait_status(pid);
	err = pthread_create(&t, NULL, set_in_thread, NULL);
	printf("pthread_create with NPROC 1: %s\n", err ? errno_name(err) : "ok");
	if (!err)
		pthread_join(t, NULL);
	set_limit(RLIMIT_NPROC, 2, 2);
	pid = vfork();
	if (pid == 0)
		_exit(0);
	printf("vfork with NPROC 2: %s\n", pid < 0 ? errno_name(errno) : "ok");
	if (pid > 0)
		printf("child: %s\n", status_text(wait_status(pid)));
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	self = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "calls"))
		calls();
	else if (!strcmp(mode, "nofile-child"))
		print_limit("child NOFILE", RLIMIT_NOFILE), print_limit("child CORE", RLIMIT_CORE);
	else if (!strcmp(mode, "raise"))
		raise_hard();
	else if (!strcmp(mode, "nofile"))
		nofile();
	else if (!strcmp(mode, "sigpending"))
		sig_pending();
	else if (!strcmp(mode, "as"))
		as();
	else if (!strcmp(mode, "data"))
		data();
	else if (!strcmp(mode, "stack"))
		stack();
	else if (!strcmp(mode, "stack-child") && argc > 2)
		stack_child(atol(argv[2]));
	else if (!strcmp(mode, "cpu"))
		run_child("cpu-child", NULL);
	else if (!strcmp(mode, "cpu-child"))
		cpu_child();
	else if (!strcmp(mode, "nproc"))
		nproc();
	else
		die("usage: rlimits calls|nofile|sigpending|as|data|stack|cpu|nproc");
	return 0;
}
