/*
 * catchint: catch SIGINT and SIGTERM sent from outside, as ^C or kill(1)
 * would. Under umk they are sent to umk, which passes them on to its
 * processes; the handler must run, and the program end as it chooses (5).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static volatile sig_atomic_t got;

static void on_signal(int sig)
{
	got = sig;
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!got)
		pause();
	printf("caught %s\n", signal_name(got));
	return 5;
}
