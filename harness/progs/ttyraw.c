/* ttyraw: reads from the terminal on fd 0 without ICANON, under each kind
 * of VMIN and VTIME (termios(3), Linux's n_tty_read): VMIN 0 VTIME 5 waits
 * 0.5 s for a byte, VMIN 3 VTIME 0 waits for 3 bytes, VMIN 5 VTIME 3 ends
 * 0.3 s after the last byte, VMIN 0 VTIME 0 never waits. The bytes are
 * typed by tests/tty.bats when the program says it is waiting; it runs
 * natively and under umk's console tty with the same output. */
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

#include "harness.h"

static void try(struct termios *t, int vmin, int vtime, const char *note)
{
	char buf[16];
	double t0;
	ssize_t n;

	t->c_cc[VMIN] = vmin;
	t->c_cc[VTIME] = vtime;
	if (tcsetattr(0, TCSANOW, t))
		die("tcsetattr");
	printf("VMIN %d VTIME %d: %s\n", vmin, vtime, note);
	fflush(stdout);
	t0 = now_ms();
	n = read(0, buf, sizeof(buf));
	printf("VMIN %d VTIME %d: read %zd [%.*s] %s\n", vmin, vtime, n, n > 0 ? (int)n : 0, buf,
	       now_ms() - t0 >= vtime * 100 * 0.8 ? "after the timer" : "before the timer");
	fflush(stdout);
}

int main(void)
{
	struct termios saved, t;

	if (tcgetattr(0, &saved))
		die("tcgetattr");
	t = saved;
	t.c_lflag &= ~(ICANON | ECHO);
	try(&t, 0, 5, "nothing typed");
	try(&t, 3, 0, "waiting for 3");
	try(&t, 5, 3, "waiting for 5, or 0.3 s after the last");
	try(&t, 0, 0, "nothing typed");
	tcsetattr(0, TCSANOW, &saved);
	return 0;
}
