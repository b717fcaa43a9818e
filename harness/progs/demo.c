/*
 * demo: what `make run` shows: the two ways back from an interrupted sleep.
 *
 * Two copies of this program each call nanosleep(500 ms). At 100 ms the
 * parent stops "stopper" with SIGSTOP and sends "handled" a SIGUSR1, which
 * it catches (no SA_RESTART). At 300 ms it continues "stopper".
 *  - handled: the handler runs, and nanosleep returns EINTR with about
 *    400 ms left in rmtp. In the trace: "restart nanosleep
 *    ERESTART_RESTARTBLOCK -> EINTR (handler)".
 *  - stopper: nanosleep is stopped and, once continued, restarted through
 *    restart_syscall, which resumes the same sleep (its restart_block holds
 *    the absolute wake-up time): it returns 0 at about 500 ms, with rmtp
 *    holding the 400 ms that were left when it stopped. In the trace:
 *    "restart nanosleep ERESTART_RESTARTBLOCK -> restart_syscall" then
 *    "restart restart_syscall -> hrtimer_nanosleep_restart".
 * Times are rounded to 50 ms, so the output is the same natively and under
 * umk.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define ROUND 50.0

static double t0;

static long rounded(double ms)
{
	return (long)(ms / ROUND + 0.5) * (long)ROUND;
}

static void say(const char *fmt, long a, long b)
{
	char line[160];
	int n = snprintf(line, sizeof(line), fmt, a, b);

	write(1, line, n);
}

static void on_usr1(int sig)
{
	say("handled: SIGUSR1 handler ran at %ld ms%.0ld\n", rounded(now_ms() - t0), 0);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	rsys(SYS_nanosleep, &ts, NULL);
}

static int child(const char *name)
{
	struct timespec req = { 0, 500 * 1000000L }, rem = { 0, 0 };
	long ret;

	if (!strcmp(name, "handled")) {
		struct sigaction sa = { .sa_handler = on_usr1 };

		sigaction(SIGUSR1, &sa, NULL);
	}
	ret = rsys(SYS_nanosleep, &req, &rem);
	if (ret < 0)
		say("handled: nanosleep(500 ms) = -1 EINTR at %ld ms, %ld ms left\n",
		    rounded(now_ms() - t0), rounded(rem.tv_nsec / 1e6));
	else
		say("stopper: nanosleep(500 ms) = 0 at %ld ms, rmtp says %ld ms were left\n",
		    rounded(now_ms() - t0), rounded(rem.tv_nsec / 1e6));
	return 0;
}

int main(int argc, char **argv)
{
	pid_t stopper, handled;
	int st1, st2;

	t0 = now_ms();
	if (argc > 1)
		return child(argv[1]);

	say("demo: two tasks sleep 500 ms each%.0ld%.0ld\n", 0, 0);
	stopper = spawn(argv[0], (char *[]){ argv[0], "stopper", NULL });
	handled = spawn(argv[0], (char *[]){ argv[0], "handled", NULL });
	sleep_ms(100);
	say("demo: at %ld ms, SIGSTOP to stopper, SIGUSR1 to handled%.0ld\n", rounded(now_ms() - t0), 0);
	kill(stopper, SIGSTOP);
	kill(handled, SIGUSR1);
	sleep_ms(200);
	say("demo: at %ld ms, SIGCONT to stopper%.0ld\n", rounded(now_ms() - t0), 0);
	kill(stopper, SIGCONT);
	st1 = wait_status(stopper);
	st2 = wait_status(handled);
	printf("demo: stopper %s, handled %s\n", status_text(st1), status_text(st2));
	return 0;
}
