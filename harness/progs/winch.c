/* winch: print the terminal's size (TIOCGWINSZ on fd 0), wait for SIGWINCH,
 * and print the size again, as a full-screen program redraws after a
 * resize. Natively and under umk's console tty (tests/tty.bats). */
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "harness.h"

static volatile sig_atomic_t winched;

static void on_winch(int sig)
{
	winched = 1;
}

static void print_size(const char *what)
{
	struct winsize ws = { 0 };
	long ret = rsys(SYS_ioctl, 0, TIOCGWINSZ, &ws);

	if (ret < 0)
		printf("%s TIOCGWINSZ = -1 %s\n", what, errno_name(-ret));
	else
		printf("%s rows=%d cols=%d\n", what, ws.ws_row, ws.ws_col);
	fflush(stdout);
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_winch };
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGWINCH);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGWINCH, &sa, NULL);
	print_size("size");
	while (!winched)
		sigsuspend(&old);
	print_size("SIGWINCH");
	return 0;
}
