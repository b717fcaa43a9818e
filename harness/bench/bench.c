/* bench PROBE N: one probe of make bench (harness/bench/bench.sh), timed on
 * CLOCK_MONOTONIC (raw clock_gettime), run natively, under umk and under
 * the peers. Each prints one line, "NAME: FIGURES (DETAILS)", and checks
 * its own result: a wrong one is a harness: line on stderr and status 99
 * (die), never a figure. A probe that needs what the kernel lacks (fork
 * under umk) prints "NAME: n/a (REASON)" and exits 0.
 *
 *   getpid N      N trapped getpid calls; each must return the same pid
 *   clock N       N calls of the C library's clock_gettime (the vDSO's
 *                 where there is one); never going back, within the raw
 *                 system call's readings around the loop
 *   yield N       2 threads each sched_yield N times: ns per yield; both
 *                 must finish their N (pin it to one CPU: taskset -c 0)
 *   yieldproc N   the same between 2 processes (fork)
 *   pipe N        N round trips of a byte between 2 threads over 2 pipes:
 *                 ns per round trip; each byte comes back incremented
 *   epoll N       the same, each side waiting in epoll_wait (one epoll per
 *                 pipe) before it reads: an epoll wait and wake-up a leg
 *   signal N      N kill(getpid(), SIGUSR1) with a handler: ns per kill
 *                 and handler; the handler must have run N times
 *   forkwait N [KIB]  N fork, _exit(7), wait4: ns per cycle; each status
 *                 says 7. With KIB, from a process that has first written
 *                 KIB KiB of heap (1536: what busybox's shell touches)
 *   stopcont N    N times: a child (this program, spawned) sleeps 20 ms in
 *                 nanosleep, is stopped 5 ms in and continued 10 ms in;
 *                 how late its sleep returns after its deadline, median
 *                 and p99 in us; the sleep must return 0 (restarted, not
 *                 EINTR), never early, and the child must have stopped
 *   pipeproc N    the pipe round trip between 2 processes (fork)
 *   sortpipe N    N runs of `busybox seq 200000 | busybox sort -r | busybox
 *                 md5sum` (sort's reallocs of large blocks: mremap): ns per
 *                 run; every run's digest must be the first one's
 *   shloop N      N runs of busybox's shell looping 200 times over `echo |
 *                 busybox md5sum` (a fork and a fork+exec a turn): ns per
 *                 run; every line must be the digest of "\n"
 *   bashloop N    N runs of the host's bash looping 100 times over
 *                 /bin/true (fork+exec of a dynamic program): ns per run;
 *                 it must count 100 successes
 *   pystart N     N runs of `python3 -c pass` (a large dynamic program's
 *                 start: its loader, libraries and imports): ns per run
 *   pyloop N      N runs of a python3 loop summing 2 million squares (an
 *                 interpreter computing, its heap, few system calls): ns
 *                 per run; the sum must be right
 * A program a probe needs and the host lacks is "n/a".
 *
 * sleepers N M (harness/progs/sleepers.c) is the sleep-precision probe. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define BUSYBOX "/bin/busybox"

static long rounds;

static void *yielder(void *arg)
{
	long *done = arg;

	for (long i = 0; i < rounds; i++)
		if (rsys0(SYS_sched_yield) != 0)
			die("sched_yield failed");
	*done = rounds;
	return NULL;
}

static void probe_getpid(void)
{
	long pid = rsys0(SYS_getpid);
	double t0 = now_ms();

	for (long i = 0; i < rounds; i++)
		if (rsys0(SYS_getpid) != pid)
			die("getpid returned another pid");
	printf("getpid: %.0f ns/op (%ld calls)\n", (now_ms() - t0) * 1e6 / rounds, rounds);
}

static long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static void probe_clock(void)
{
	struct timespec before, ts, after;
	long long last = 0;
	double t0;

	if (rsys(SYS_clock_gettime, CLOCK_MONOTONIC, &before))
		die("clock_gettime (system call) failed");
	t0 = now_ms();
	for (long i = 0; i < rounds; i++) {
		if (clock_gettime(CLOCK_MONOTONIC, &ts))
			die("clock_gettime failed");
		if (ts_ns(&ts) < last)
			die("clock_gettime went back by %lld ns", last - ts_ns(&ts));
		last = ts_ns(&ts);
	}
	t0 = (now_ms() - t0) * 1e6 / rounds;
	if (rsys(SYS_clock_gettime, CLOCK_MONOTONIC, &after))
		die("clock_gettime (system call) failed");
	if (last < ts_ns(&before) || last > ts_ns(&after))
		die("clock_gettime's last reading is outside the system call's around the loop");
	printf("clock_gettime: %.0f ns/op (%ld calls)\n", t0, rounds);
}

static void probe_yield(void)
{
	pthread_t t[2];
	long done[2] = { 0, 0 };
	double t0 = now_ms();

	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, yielder, &done[i]))
			die("pthread_create failed");
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	if (done[0] != rounds || done[1] != rounds)
		die("the yielders did not finish");
	printf("sched_yield: %.0f ns/op (%ld yields by each of 2 threads)\n",
	       (now_ms() - t0) * 1e6 / (2 * rounds), rounds);
}

/* fork(), or "n/a" and exit 0 where the kernel has no fork (umk: NOMMU). */
static pid_t fork_or_na(const char *name)
{
	pid_t pid = fork();

	if (pid < 0 && errno == ENOSYS) {
		printf("%s: n/a (no fork: fork returned ENOSYS)\n", name);
		exit(0);
	}
	if (pid < 0)
		die("fork: %s", errno_name(errno));
	return pid;
}

static void probe_yieldproc(void)
{
	double t0 = now_ms();
	pid_t pid = fork_or_na("sched_yield between processes");
	long done = 0;
	int status;

	yielder(&done);
	if (pid == 0)
		_exit(done == rounds ? 0 : 1);
	if (waitpid(pid, &status, 0) != pid || status != 0)
		die("the yielding child ended with %s", status_text(status));
	printf("sched_yield between processes: %.0f ns/op (%ld yields by each of 2 processes)\n",
	       (now_ms() - t0) * 1e6 / (2 * rounds), rounds);
}

static int ping[2], pong[2];

static void *echoer(void *arg)
{
	unsigned char c;

	for (long i = 0; i < rounds; i++) {
		if (read(ping[0], &c, 1) != 1)
			die("echo: read failed");
		c++;
		if (write(pong[1], &c, 1) != 1)
			die("echo: write failed");
	}
	return arg;
}

/* rounds round trips of a byte with the echoer: ns per trip. */
static double pingpong(void)
{
	double t0 = now_ms();

	for (long i = 0; i < rounds; i++) {
		unsigned char c = i & 0xff, back;

		if (write(ping[1], &c, 1) != 1 || read(pong[0], &back, 1) != 1)
			die("pipe round trip %ld: %s", i, errno_name(errno));
		if (back != (unsigned char)(c + 1))
			die("pipe round trip %ld: sent %u, got %u back", i, c, back);
	}
	return (now_ms() - t0) * 1e6 / rounds;
}

static void probe_pipe(void)
{
	pthread_t t;

	if (pipe(ping) || pipe(pong))
		die("pipe: %s", errno_name(errno));
	if (pthread_create(&t, NULL, echoer, NULL))
		die("pthread_create failed");
	printf("pipe: %.0f ns/op (%ld round trips between 2 threads)\n", pingpong(), rounds);
	pthread_join(t, NULL);
}

/* The same round trip with the echoer in a child process: two switches of
 * address space a trip. */
static void probe_pipeproc(void)
{
	pid_t pid;

	if (pipe(ping) || pipe(pong))
		die("pipe: %s", errno_name(errno));
	pid = fork_or_na("pipe between processes");
	if (pid == 0) {
		echoer(NULL);
		_exit(0);
	}
	printf("pipe between processes: %.0f ns/op (%ld round trips between 2 processes)\n",
	       pingpong(), rounds);
	if (wait_status(pid) != 0)
		die("the echoing child failed");
}

/* The same round trip, each side waiting in epoll_wait before it reads:
 * an epoll wait and its wake-up by the other thread's write, twice a trip. */
static int ep_ping, ep_pong;

static void epoll_on(int ep, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
		die("epoll_ctl: %s", errno_name(errno));
}

static void epoll_read(int ep, int fd, unsigned char *c)
{
	struct epoll_event ev;

	if (epoll_wait(ep, &ev, 1, -1) != 1 || ev.data.fd != fd || read(fd, c, 1) != 1)
		die("epoll round trip: %s", errno_name(errno));
}

static void *epoll_echoer(void *arg)
{
	unsigned char c;

	for (long i = 0; i < rounds; i++) {
		epoll_read(ep_ping, ping[0], &c);
		c++;
		if (write(pong[1], &c, 1) != 1)
			die("epoll echo: write failed");
	}
	return arg;
}

static void probe_epoll(void)
{
	pthread_t t;
	double t0;

	if (pipe(ping) || pipe(pong))
		die("pipe: %s", errno_name(errno));
	ep_ping = epoll_create1(EPOLL_CLOEXEC);
	ep_pong = epoll_create1(EPOLL_CLOEXEC);
	if (ep_ping < 0 || ep_pong < 0)
		die("epoll_create1: %s", errno_name(errno));
	epoll_on(ep_ping, ping[0]);
	epoll_on(ep_pong, pong[0]);
	if (pthread_create(&t, NULL, epoll_echoer, NULL))
		die("pthread_create failed");
	t0 = now_ms();
	for (long i = 0; i < rounds; i++) {
		unsigned char c = i & 0xff, back;

		if (write(ping[1], &c, 1) != 1)
			die("epoll round trip %ld: %s", i, errno_name(errno));
		epoll_read(ep_pong, pong[0], &back);
		if (back != (unsigned char)(c + 1))
			die("epoll round trip %ld: sent %u, got %u back", i, c, back);
	}
	printf("epoll: %.0f ns/op (%ld round trips between 2 threads, each read after epoll_wait)\n",
	       (now_ms() - t0) * 1e6 / rounds, rounds);
	pthread_join(t, NULL);
}

static volatile long handled;

static void on_usr1(int sig)
{
	handled++;
}

static void probe_signal(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	long pid = rsys0(SYS_getpid);
	double t0;

	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction failed");
	t0 = now_ms();
	for (long i = 0; i < rounds; i++)
		if (rsys(SYS_kill, pid, SIGUSR1) != 0)
			die("kill failed");
	if (handled != rounds)
		die("the handler ran %ld times for %ld kills", handled, rounds);
	printf("signal: %.0f ns/op (%ld kill+handler round trips)\n",
	       (now_ms() - t0) * 1e6 / rounds, rounds);
}

static void probe_forkwait(long kib)
{
	char *heap = kib ? malloc((size_t)kib << 10) : NULL;
	double t0;

	if (kib && !heap)
		die("out of memory for %ld KiB", kib);
	if (heap)
		memset(heap, 1, (size_t)kib << 10);
	t0 = now_ms();
	for (long i = 0; i < rounds; i++) {
		pid_t pid = fork_or_na("fork+exit+wait");
		int status;

		if (pid == 0)
			_exit(7);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 7)
			die("fork %ld: the child ended with %s", i, status_text(status));
	}
	printf("fork+exit+wait: %.0f ns/op (%ld cycles, %ld KiB touched)\n",
	       (now_ms() - t0) * 1e6 / rounds, rounds, kib);
	free(heap);
}

/* The stopped sleeper, spawned by stopcont: tells the parent it is about
 * to sleep (one byte on fd), sleeps 20 ms, then writes how late it woke
 * in ns, or a negative errno, as text on fd. */
static void stopcont_child(int fd)
{
	struct timespec req = { 0, 20000000 };
	long long t0, late;
	long ret;

	if (write(fd, "s", 1) != 1)
		exit(1);
	t0 = now_ms() * 1e6;
	ret = rsys(SYS_nanosleep, &req, NULL);
	late = (long long)(now_ms() * 1e6) - t0 - 20000000;
	dprintf(fd, "%ld %lld\n", ret, late);
	exit(0);
}

static void sleep_ms(long ms)
{
	struct timespec req = { 0, ms * 1000000 };

	while (nanosleep(&req, &req) && errno == EINTR)
		;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void probe_stopcont(const char *self)
{
	long long *late = calloc(rounds, sizeof(*late));

	if (!late)
		die("out of memory");
	for (long i = 0; i < rounds; i++) {
		int fd[2], status;
		char buf[64], fdarg[16];
		long ret;
		ssize_t n, got = 0;
		pid_t pid;

		if (pipe(fd))
			die("pipe: %s", errno_name(errno));
		snprintf(fdarg, sizeof(fdarg), "%d", fd[1]);
		pid = spawn(self, (char *const[]){ (char *)self, "stopcont-child", fdarg, NULL });
		close(fd[1]);
		if (read(fd[0], buf, 1) != 1)
			die("stopcont: the child did not start");
		sleep_ms(5);
		if (kill(pid, SIGSTOP))
			die("SIGSTOP: %s", errno_name(errno));
		if (waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status))
			die("stopcont: the child did not stop (%s)", status_text(status));
		sleep_ms(5);
		if (kill(pid, SIGCONT))
			die("SIGCONT: %s", errno_name(errno));
		while ((n = read(fd[0], buf + got, sizeof(buf) - 1 - got)) > 0)
			got += n;
		buf[got] = 0;
		close(fd[0]);
		status = wait_status(pid);
		if (status != 0)
			die("stopcont: the child ended with %s", status_text(status));
		if (sscanf(buf, "%ld %lld", &ret, &late[i]) != 2)
			die("stopcont: the child said '%s'", buf);
		if (ret != 0)
			die("stopcont: the continued nanosleep returned -1 %s", errno_name(-ret));
		if (late[i] < 0)
			die("stopcont: the continued nanosleep returned %lld ns early", -late[i]);
	}
	qsort(late, rounds, sizeof(*late), cmp_ll);
	printf("stopcont: late median %.1f us, p99 %.1f us (%ld stops of a 20 ms nanosleep)\n",
	       late[rounds / 2] / 1e3, late[rounds * 99 / 100] / 1e3, rounds);
}

/* One stage of the sort pipeline: busybox APPLET ARG... with stdin in
 * and stdout out (-1: keep). */
static pid_t pipeline_stage(int in, int out, char *const argv[])
{
	pid_t pid = fork_or_na("sort pipeline");

	if (pid == 0) {
		if ((in >= 0 && dup2(in, 0) < 0) || (out >= 0 && dup2(out, 1) < 0))
			_exit(126);
		for (int fd = 3; fd < 16; fd++)
			close(fd);
		execv(BUSYBOX, argv);
		_exit(127);
	}
	return pid;
}

/* `busybox seq 200000 | busybox sort -r | busybox md5sum`, the pipeline
 * of a realloc-heavy sort (mremap), N times: the time of one run, every
 * run's digest checked to be the first one's. */
static void probe_sortpipe(void)
{
	static char *const seq[] = { "busybox", "seq", "200000", NULL };
	static char *const sort[] = { "busybox", "sort", "-r", NULL };
	static char *const md5[] = { "busybox", "md5sum", NULL };
	char first[64] = "", digest[64];
	double t0;

	if (access(BUSYBOX, X_OK)) {
		printf("sort pipeline: n/a (no %s)\n", BUSYBOX);
		return;
	}
	t0 = now_ms();
	for (long i = 0; i < rounds; i++) {
		int a[2], b[2], c[2];
		pid_t pid[3];
		ssize_t n, got = 0;

		if (pipe(a) || pipe(b) || pipe(c))
			die("pipe: %s", errno_name(errno));
		pid[0] = pipeline_stage(-1, a[1], seq);
		pid[1] = pipeline_stage(a[0], b[1], sort);
		pid[2] = pipeline_stage(b[0], c[1], md5);
		close(a[0]), close(a[1]), close(b[0]), close(b[1]), close(c[1]);
		while ((n = read(c[0], digest + got, sizeof(digest) - 1 - got)) > 0)
			got += n;
		digest[got] = 0;
		close(c[0]);
		for (int k = 0; k < 3; k++) {
			int status = wait_status(pid[k]);

			if (status != 0)
				die("sort pipeline: stage %d ended with %s", k, status_text(status));
		}
		if (got < 32)
			die("sort pipeline: md5sum said '%s'", digest);
		if (!first[0])
			strcpy(first, digest);
		else if (strcmp(first, digest))
			die("sort pipeline: run %ld's digest differs from the first", i);
	}
	printf("sort pipeline: %.0f ns/op (%ld runs of busybox seq 200000 | sort -r | md5sum)\n",
	       (now_ms() - t0) * 1e6 / rounds, rounds);
}

/* Run argv (argv[0] a path) with its stdout into out (a buffer of size
 * cap, NUL-terminated), and check it exits 0: what it wrote. */
static void run_capture(const char *name, char *const argv[], char *out, size_t cap)
{
	int fd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fd))
		die("pipe: %s", errno_name(errno));
	pid = fork_or_na(name);
	if (pid == 0) {
		if (dup2(fd[1], 1) < 0)
			_exit(126);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], out + got, cap - 1 - got)) > 0)
		got += n;
	out[got] = 0;
	close(fd[0]);
	status = wait_status(pid);
	if (status != 0)
		die("%s: %s ended with %s", name, argv[0], status_text(status));
}

/* A real program, N times: argv run by run_capture, its output checked to
 * be want (exactly). ns per run. */
static void probe_program(const char *name, char *const argv[], const char *want)
{
	static char out[16384];
	double t0;

	if (access(argv[0], X_OK)) {
		printf("%s: n/a (no %s)\n", name, argv[0]);
		return;
	}
	t0 = now_ms();
	for (long i = 0; i < rounds; i++) {
		run_capture(name, argv, out, sizeof(out));
		if (strcmp(out, want))
			die("%s: run %ld wrote '%.200s', not '%.200s'", name, i, out, want);
	}
	printf("%s: %.0f ns/op (%ld runs)\n", name, (now_ms() - t0) * 1e6 / rounds, rounds);
}

#define MD5_OF_NEWLINE "68b329da9893e34099c7d8ad5cb9c940  -\n"

static void probe_shloop(void)
{
	static char *const argv[] = {
		BUSYBOX, "sh", "-c",
		"i=0; while [ $i -lt 200 ]; do echo | /bin/busybox md5sum; i=$((i+1)); done", NULL
	};
	static char want[200 * sizeof(MD5_OF_NEWLINE)];

	for (int i = 0; i < 200; i++)
		strcat(want, MD5_OF_NEWLINE);
	probe_program("busybox sh loop", argv, want);
}

static void probe_bashloop(void)
{
	static char *const argv[] = {
		"/bin/bash", "-c",
		"n=0; for i in $(/usr/bin/seq 100); do /bin/true && n=$((n+1)); done; echo $n", NULL
	};

	probe_program("bash loop", argv, "100\n");
}

#define PYTHON3 "/usr/bin/python3"

static void probe_pystart(void)
{
	static char *const argv[] = { PYTHON3, "-c", "pass", NULL };

	probe_program("python3 start", argv, "");
}

/* sum of i*i for i < n is (n-1)n(2n-1)/6 */
static void probe_pyloop(void)
{
	static char *const argv[] = {
		PYTHON3, "-c", "print(sum(i * i for i in range(2000000)))", NULL
	};

	probe_program("python3 loop", argv, "2666664666667000000\n");
}

int main(int argc, char **argv)
{
	static const char usage[] =
		"usage: bench getpid|clock|yield|yieldproc|pipe|pipeproc|epoll|signal|stopcont|sortpipe|"
		"shloop|bashloop|pystart|pyloop N | forkwait N [KIB]";

	if (argc == 3 && strcmp(argv[1], "stopcont-child") == 0) {
		stopcont_child(atoi(argv[2]));
		return 0;
	}
	if (argc != 3 && !(argc == 4 && strcmp(argv[1], "forkwait") == 0))
		die("%s", usage);
	rounds = atol(argv[2]);
	if (rounds <= 0)
		die("N must be positive");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(argv[1], "getpid") == 0)
		probe_getpid();
	else if (strcmp(argv[1], "clock") == 0)
		probe_clock();
	else if (strcmp(argv[1], "yield") == 0)
		probe_yield();
	else if (strcmp(argv[1], "yieldproc") == 0)
		probe_yieldproc();
	else if (strcmp(argv[1], "pipe") == 0)
		probe_pipe();
	else if (strcmp(argv[1], "pipeproc") == 0)
		probe_pipeproc();
	else if (strcmp(argv[1], "epoll") == 0)
		probe_epoll();
	else if (strcmp(argv[1], "signal") == 0)
		probe_signal();
	else if (strcmp(argv[1], "forkwait") == 0)
		probe_forkwait(argc == 4 ? atol(argv[3]) : 0);
	else if (strcmp(argv[1], "stopcont") == 0)
		probe_stopcont(argv[0]);
	else if (strcmp(argv[1], "sortpipe") == 0)
		probe_sortpipe();
	else if (strcmp(argv[1], "shloop") == 0)
		probe_shloop();
	else if (strcmp(argv[1], "bashloop") == 0)
		probe_bashloop();
	else if (strcmp(argv[1], "pystart") == 0)
		probe_pystart();
	else if (strcmp(argv[1], "pyloop") == 0)
		probe_pyloop();
	else
		die("%s", usage);
	return 0;
}
