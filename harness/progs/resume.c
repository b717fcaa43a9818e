/*
 * resume MODE: umk's SA_RESUME (harness/lib/umk_resume.h), case by case, for
 * tests/resume.bats. Each line is "what = result at=T", T the time since the
 * mode started rounded to 50 ms. Natively Linux clears SA_RESUME, so most
 * modes print Linux's EINTR there; the modes marked "same" print the same
 * natively and under umk.
 *
 *   probe        does sigaction keep SA_RESUME? (differs: Linux clears it)
 *   calls        every call that takes part, 300 ms, a SA_RESUME handler at
 *                100 ms that sleeps 50 ms; pause, epoll_wait and a pipe
 *                read do not
 *   depth        SIGALRM every 50 ms, SA_RESUME|SA_NODEFER, each handler
 *                sleeping: the ninth nested interruption gets EINTR
 *   longjmp      siglongjmp out of a SA_RESUME handler: the sleep it
 *                interrupted is abandoned; restart_syscall by hand: EINTR
 *   forge        a SA_RESUME handler edits the seq in its frame: EINTR
 *   forge-plain  a handler without SA_RESUME rewinds its frame onto
 *                restart_syscall: EINTR (same)
 *   copy         sigreturn by hand through a copy of the frame: EINTR
 *   replay       a second handler puts the first one's frame back: EINTR
 *   inhandler    restart_syscall by hand inside a SA_RESUME handler: EINTR
 *   zeroframe    rt_sigreturn by hand on a zeroed frame: SIGSEGV (same)
 *   threads      two threads, each resumed over its own handler
 */
#define _GNU_SOURCE
#include <errno.h>
#define FUTEX_WAIT_PRIVATE 128
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "harness.h"
#include "umk_resume.h"

#define TOL_MS 50

static double t0;

/* "TEXT at=T": one write(2), T rounded to TOL_MS. */
static void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;
	long t = (long)((now_ms() - t0) / TOL_MS + 0.5) * TOL_MS;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 32, fmt, ap);
	va_end(ap);
	n += snprintf(line + n, sizeof(line) - n, " at=%ldms\n", t);
	if (write(1, line, n) != n)
		_exit(99);
}

static const char *ret_str(long ret, char *buf, size_t n)
{
	if (ret < 0 && ret > -4096)
		snprintf(buf, n, "-1 %s", errno_name((int)-ret));
	else
		snprintf(buf, n, "%ld", ret);
	return buf;
}

static void result(const char *what, long ret)
{
	char b[32];

	say("%s = %s", what, ret_str(ret, b, sizeof(b)));
}

static void on(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO | flags };

	if (sigaction(sig, &sa, NULL))
		die("sigaction: %s", errno_name(errno));
}

/* SIGALRM after ms, then every interval_ms (0: once). */
static void alarm_ms(long ms, long interval_ms)
{
	struct itimerval it = {
		.it_value = { ms / 1000, ms % 1000 * 1000 },
		.it_interval = { interval_ms / 1000, interval_ms % 1000 * 1000 },
	};

	if (setitimer(ITIMER_REAL, &it, NULL))
		die("setitimer: %s", errno_name(errno));
}

static long sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	return rsys(SYS_nanosleep, &ts, NULL);
}

/* ---- probe ---- */

static void probe(void)
{
	struct sigaction sa = { .sa_handler = SIG_IGN, .sa_flags = SA_RESUME }, old;
	long ret = sigaction(SIGUSR1, &sa, NULL);

	sigaction(SIGUSR1, NULL, &old);
	printf("sigaction(SA_RESUME) = %ld, oldact %s SA_RESUME\n", ret,
	       old.sa_flags & SA_RESUME ? "keeps" : "has no");
	printf("umk_resume_supported = %d\n", umk_resume_supported(SIGUSR1));
}

/* ---- calls ---- */

static void sleep50(int sig, siginfo_t *si, void *uc)
{
	sleep_ms(50);
}

static long call(int which, int *fds)
{
	struct timespec ts = { 0, 300000000 }, now;
	struct timeval tv = { 0, 300000 };
	struct pollfd p = { .fd = fds[0], .events = POLLIN };
	fd_set set;
	struct epoll_event ev;
	static unsigned futex_word;
	char c;

	FD_ZERO(&set);
	FD_SET(fds[0], &set);
	switch (which) {
	case 0:
		return rsys(SYS_nanosleep, &ts, NULL);
	case 1:
		return rsys(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL);
	case 2:
		rsys(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
		now.tv_nsec += 300000000;
		if (now.tv_nsec >= 1000000000) {
			now.tv_sec++;
			now.tv_nsec -= 1000000000;
		}
		return rsys(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &now, NULL);
	case 3:
		return rsys(SYS_poll, &p, 1, 300);
	case 4:
		return rsys(SYS_ppoll, &p, 1, &ts, NULL, 8);
	case 5:
		return rsys(SYS_select, fds[0] + 1, &set, NULL, NULL, &tv);
	case 6:
		return rsys(SYS_pselect6, fds[0] + 1, &set, NULL, NULL, &ts, NULL);
	case 7:
		return rsys(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
	case 8:
		return rsys0(SYS_pause);
	case 9:
		return rsys(SYS_epoll_wait, fds[2], &ev, 1, 300);
	default:
		return rsys(SYS_read, fds[0], &c, 1);
	}
}

static void calls(void)
{
	static const char *const names[] = {
		"nanosleep(300ms)", "clock_nanosleep(rel, 300ms)", "clock_nanosleep(abs, 300ms)",
		"poll(300ms)", "ppoll(300ms)", "select(300ms)", "pselect6(300ms)",
		"futex_wait(300ms)", "pause", "epoll_wait(300ms)", "read(pipe)",
	};
	struct epoll_event ev = { .events = EPOLLIN };
	int fds[3];

	if (pipe(fds))
		die("pipe");
	fds[2] = epoll_create1(0);
	if (fds[2] < 0 || epoll_ctl(fds[2], EPOLL_CTL_ADD, fds[0], &ev))
		die("epoll");
	on(SIGALRM, sleep50, SA_RESUME);
	for (int i = 0; i < 11; i++) {
		long ret;

		t0 = now_ms();
		alarm_ms(100, 0);
		ret = call(i, fds);
		result(names[i], ret);
		sleep_ms(100);		/* let a late SIGALRM pass */
	}
}

/* ---- depth ---- */

static volatile int level;

static void nest(int sig, siginfo_t *si, void *uc)
{
	int me = ++level;
	char what[32];

	if (me > UMK_RESUME_DEPTH) {
		alarm_ms(0, 0);
		say("level %d handler returns at once", me);
		level--;
		return;
	}
	snprintf(what, sizeof(what), "level %d nanosleep(1s)", me);
	result(what, sleep_ms(1000));
	level--;
}

static void depth(void)
{
	on(SIGALRM, nest, SA_RESUME | SA_NODEFER);
	alarm_ms(50, 50);
	result("level 0 nanosleep(2s)", sleep_ms(2000));
}

/* ---- longjmp ---- */

static sigjmp_buf env;

static void jump(int sig, siginfo_t *si, void *uc)
{
	siglongjmp(env, 1);
}

static void nothing(int sig, siginfo_t *si, void *uc)
{
}

static void longjmp_mode(void)
{
	on(SIGALRM, jump, SA_RESUME);
	if (!sigsetjmp(env, 1)) {
		alarm_ms(100, 0);
		result("nanosleep(500ms)", sleep_ms(500));
		die("nanosleep returned past the siglongjmp");
	}
	say("siglongjmp out of the handler");
	result("restart_syscall by hand", rsys0(SYS_restart_syscall));
	on(SIGALRM, nothing, SA_RESUME);
	alarm_ms(100, 0);
	result("nanosleep(300ms) resumed over a handler", sleep_ms(300));
}

/* ---- forged, copied and replayed frames ---- */

static void edit_seq(int sig, siginfo_t *si, void *uc)
{
	((ucontext_t *)uc)->uc_mcontext.__reserved1[0] ^= 1;
}

/* Without SA_RESUME: make the frame return onto restart_syscall. */
static void rewind_frame(int sig, siginfo_t *si, void *uc)
{
	ucontext_t *u = uc;

	u->uc_mcontext.gregs[REG_RIP] -= 2;
	u->uc_mcontext.gregs[REG_RAX] = SYS_restart_syscall;
}

static char frame_copy[4096] __attribute__((aligned(64)));

/* rt_sigreturn by hand with rsp on a copy of this handler's frame. */
static void sigreturn_copy(int sig, siginfo_t *si, void *uc)
{
	char *frame = (char *)uc - 8;	/* pretcode, then the ucontext */

	memcpy(frame_copy + 8, frame, sizeof(frame_copy) - 8);
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "mov $15, %%eax\n\t"
			 "syscall\n\t"
			 "ud2"
			 : : "r"(frame_copy + 8 + 8) : "memory");
}

static ucontext_t saved_uc;
static int replays;

static void replay_handler(int sig, siginfo_t *si, void *uc)
{
	if (replays++ == 0)
		saved_uc = *(ucontext_t *)uc;
	else
		*(ucontext_t *)uc = saved_uc;
}

static long __attribute__((noinline)) one_sleep(long ms)
{
	return sleep_ms(ms);
}

static void frames(const char *mode)
{
	if (!strcmp(mode, "forge"))
		on(SIGALRM, edit_seq, SA_RESUME);
	else if (!strcmp(mode, "forge-plain"))
		on(SIGALRM, rewind_frame, 0);
	else
		on(SIGALRM, sigreturn_copy, SA_RESUME);
	alarm_ms(100, 0);
	result("nanosleep(300ms)", sleep_ms(300));
}

/* The second sleep's handler puts back the first handler's whole
 * ucontext: the registers it restores are stale, so the results go
 * through memory. */
static volatile long replay_ret;

static void replay(void)
{
	on(SIGALRM, replay_handler, SA_RESUME);
	alarm_ms(100, 0);
	replay_ret = one_sleep(300);
	result("first nanosleep(300ms)", replay_ret);
	t0 = now_ms();
	alarm_ms(100, 0);
	replay_ret = one_sleep(300);
	result("second nanosleep(300ms), the first frame put back", replay_ret);
}

static void restart_inside(int sig, siginfo_t *si, void *uc)
{
	result("restart_syscall by hand in the handler", rsys0(SYS_restart_syscall));
}

static void inhandler(void)
{
	on(SIGALRM, restart_inside, SA_RESUME);
	alarm_ms(100, 0);
	result("nanosleep(300ms)", sleep_ms(300));
}

static void zeroframe(void)
{
	static char zero[1024] __attribute__((aligned(64)));

	fflush(stdout);
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "mov $15, %%eax\n\t"
			 "syscall\n\t"
			 "ud2"
			 : : "r"(zero + 512) : "memory");
}

/* ---- threads ---- */

static pthread_t th[2];

static void *sleeper(void *arg)
{
	long i = (long)arg;
	char what[40];

	snprintf(what, sizeof(what), "thread %ld nanosleep(%dms)", i, 400 + 200 * (int)i);
	result(what, sleep_ms(400 + 200 * i));
	return NULL;
}

static void thread_handler(int sig, siginfo_t *si, void *uc)
{
	int i = pthread_equal(pthread_self(), th[1]) ? 1 : 0;
	char what[48];

	snprintf(what, sizeof(what), "thread %d handler nanosleep(100ms)", i);
	result(what, sleep_ms(100));
}

static void threads(void)
{
	on(SIGUSR1, thread_handler, SA_RESUME);
	for (long i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, sleeper, (void *)i))
			die("pthread_create");
	sleep_ms(100);
	pthread_kill(th[0], SIGUSR1);
	sleep_ms(50);
	pthread_kill(th[1], SIGUSR1);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IONBF, 0);
	t0 = now_ms();
	if (!strcmp(mode, "probe"))
		probe();
	else if (!strcmp(mode, "calls"))
		calls();
	else if (!strcmp(mode, "depth"))
		depth();
	else if (!strcmp(mode, "longjmp"))
		longjmp_mode();
	else if (!strcmp(mode, "forge") || !strcmp(mode, "forge-plain") || !strcmp(mode, "copy"))
		frames(mode);
	else if (!strcmp(mode, "replay"))
		replay();
	else if (!strcmp(mode, "inhandler"))
		inhandler();
	else if (!strcmp(mode, "zeroframe"))
		zeroframe();
	else if (!strcmp(mode, "threads"))
		threads();
	else
		die("usage: resume probe|calls|depth|longjmp|forge|forge-plain|copy|replay|"
		    "inhandler|zeroframe|threads");
	return 0;
}
