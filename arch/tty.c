/*
 * arch/tty.c: the host terminal under umk's console tty (docs/design.md,
 * "The terminal").
 *
 * When umk's stdin is a terminal and umk is its foreground process group,
 * the kernel's console is a tty with its own line discipline
 * (kernel/drivers/n_tty.c), so the host terminal must pass every byte through
 * untouched: host_tty_init puts it in raw mode (no echo, no line editing,
 * no signals from ^C, no output processing) after saving its settings, and
 * os_tty_restore puts them back. os_exit calls that on every way out of umk
 * (the last process gone, a panic, an oops); a SIGKILL of umk leaves the
 * terminal raw (`stty sane` repairs it).
 *
 * The kernel's tty starts with the settings the host terminal had
 * (os_tty_get), as a terminal handed over by getty keeps its settings.
 * Otherwise (stdin not a terminal, or umk started in the background of
 * one) nothing here touches the host, and the console is the pass-through
 * of kernel/drivers/console.c.
 */
#include "host.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <umk/os.h>

static bool tty_mode;		/* the host terminal is raw under umk's tty */
static struct termios saved;	/* its settings before umk */
static int tty_out_fd = -1;

/* Set the host terminal's settings. SIGTTOU is blocked meanwhile: if umk
 * were moved to the background of the host's terminal, a host job-control
 * stop must not keep it from giving the terminal back. */
static int set_host_termios(const struct termios *t)
{
	sigset_t ttou, old;
	int r;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	r = tcsetattr(0, TCSADRAIN, t);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

/* fd is a terminal, the same one as stdin. */
static bool same_terminal(int fd)
{
	struct stat a, b;

	return isatty(fd) && !fstat(0, &a) && !fstat(fd, &b) && a.st_rdev == b.st_rdev;
}

void host_tty_init(void)
{
	struct termios raw;

	if (!isatty(0) || tcgetpgrp(0) != getpgrp() || tcgetattr(0, &saved))
		return;
	raw = saved;
	raw.c_iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF);
	raw.c_oflag &= ~OPOST;
	raw.c_lflag &= ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	raw.c_cflag &= ~(CSIZE | PARENB);
	raw.c_cflag |= CS8;
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (set_host_termios(&raw))
		return;
	tty_mode = true;
	/* Output goes where a program's would: stdout, else stderr, else
	 * stdin itself (a terminal's fds are opened for both). */
	tty_out_fd = same_terminal(1) ? 1 : same_terminal(2) ? 2 : 0;
}

int os_tty_get(struct os_termios *t)
{
	if (!tty_mode)
		return -ENOTTY;
	_Static_assert(sizeof(t->cc) <= NCCS, "the host's c_cc holds the kernel's");
	t->iflag = saved.c_iflag;
	t->oflag = saved.c_oflag;
	t->cflag = saved.c_cflag;
	t->lflag = saved.c_lflag;
	t->line = saved.c_line;
	memcpy(t->cc, saved.c_cc, sizeof(t->cc));
	return tty_out_fd;
}

bool os_tty_mode(void)
{
	return tty_mode;
}

void os_tty_restore(void)
{
	if (tty_mode)
		set_host_termios(&saved);
}
