/*
 * eintr_sleep: a nanosleep whose remaining time is not resumed (umk-eintr's
 * planted bug, tests/umk_eintr.bats). It catches SIGALRM (with SA_RESTART,
 * which nanosleep ignores: a handled signal always ends it with EINTR),
 * sleeps 100 ms and prints how long it slept; interrupted, it sleeps less
 * and says so. eintr_sleep_ok is its twin, which sleeps the time left.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

static void on_alrm(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alrm, .sa_flags = SA_RESTART };
	struct timespec req = { 0, 100000000 }, t0, t1;
	long ms;

	sigaction(SIGALRM, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
#ifdef EINTR_CORRECT
	while (nanosleep(&req, &req) && errno == EINTR)
		;
#else
	nanosleep(&req, &req);	/* the bug: the time left in req is dropped */
#endif
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	printf("slept %s\n", ms >= 100 ? "100 ms" : "too little");
	return 0;
}
