/* ttyioctls: the line discipline's ioctls, as umk's console tty implements
 * them (kernel/drivers/tty_io.c), on files that are not terminals: Linux answers
 * each with ENOTTY. With "job" as argument, on fd 0, a terminal: what
 * TIOCGPGRP, TIOCGSID, TIOCSPGRP and TIOCSCTTY say to a process, its
 * errors included (tests/tty.bats runs both natively and under umk). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "harness.h"

static const struct {
	const char *name;
	unsigned long cmd;
} ioctls[] = {
	{ "TCGETS", TCGETS },		{ "TCSETS", TCSETS },
	{ "TCSETSW", TCSETSW },		{ "TCSETSF", TCSETSF },
	{ "TCSBRK", TCSBRK },		{ "TCXONC", TCXONC },
	{ "TCFLSH", TCFLSH },		{ "TIOCGPGRP", TIOCGPGRP },
	{ "TIOCSPGRP", TIOCSPGRP },	{ "TIOCOUTQ", TIOCOUTQ },
	{ "TIOCGWINSZ", TIOCGWINSZ },	{ "TIOCSWINSZ", TIOCSWINSZ },
	{ "TIOCSCTTY", TIOCSCTTY },	{ "TIOCNOTTY", TIOCNOTTY },
	{ "TIOCGSID", TIOCGSID },
};

/* Each ioctl on fd, with a buffer for those that take one (a pgrp of our
 * own for TIOCSPGRP, so that only the file can make it fail). */
static void on_file(const char *what, int fd)
{
	union {
		char termios[64];
		int pgrp;
	} buf;
	char call[64];
	size_t i;

	for (i = 0; i < sizeof(ioctls) / sizeof(ioctls[0]); i++) {
		memset(&buf, 0, sizeof(buf));
		buf.pgrp = getpgrp();
		snprintf(call, sizeof(call), "%s %s", what, ioctls[i].name);
		show(call, rsys(SYS_ioctl, fd, ioctls[i].cmd, &buf));
	}
}

/* fd 0 is our controlling terminal, our group in its foreground. */
static int job(void)
{
	pid_t pid, pgrp = getpgrp();
	int v, p[2];

	show("TIOCGPGRP is our group", rsys(SYS_ioctl, 0, TIOCGPGRP, &v) ?: (v == pgrp));
	show("TIOCGSID is our session", rsys(SYS_ioctl, 0, TIOCGSID, &v) ?: (v == getsid(0)));
	v = -1;
	show("TIOCSPGRP -1", rsys(SYS_ioctl, 0, TIOCSPGRP, &v));
	v = 0x3fffffff;
	show("TIOCSPGRP no such group", rsys(SYS_ioctl, 0, TIOCSPGRP, &v));
	show("TIOCSPGRP bad pointer", rsys(SYS_ioctl, 0, TIOCSPGRP, 8));
	show("TIOCSPGRP our own group", rsys(SYS_ioctl, 0, TIOCSPGRP, &pgrp));
	show("TIOCSCTTY not a session leader", rsys(SYS_ioctl, 0, TIOCSCTTY, 0));
	show("TCGETS bad pointer", rsys(SYS_ioctl, 0, TCGETS, 8));
	show("TCFLSH 7", rsys(SYS_ioctl, 0, TCFLSH, 7));
	show("TCXONC 7", rsys(SYS_ioctl, 0, TCXONC, 7));
	fflush(stdout);

	/* A child in a new session: the terminal is another session's. */
	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		char out[512];
		int n = 0;

		n += snprintf(out + n, sizeof(out) - n, "child setsid = %s\n",
			      rsys0(SYS_setsid) > 0 ? "its pid" : "failed");
		n += snprintf(out + n, sizeof(out) - n, "child TIOCGPGRP = %s\n",
			      errno_name(-rsys(SYS_ioctl, 0, TIOCGPGRP, &v)));
		n += snprintf(out + n, sizeof(out) - n, "child TIOCGSID = %s\n",
			      errno_name(-rsys(SYS_ioctl, 0, TIOCGSID, &v)));
		n += snprintf(out + n, sizeof(out) - n, "child TIOCNOTTY = %s\n",
			      errno_name(-rsys(SYS_ioctl, 0, TIOCNOTTY, 0)));
		n += snprintf(out + n, sizeof(out) - n, "child TIOCSCTTY (taken) = %s\n",
			      errno_name(-rsys(SYS_ioctl, 0, TIOCSCTTY, 0)));
		if (write(p[1], out, n) != n)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	{
		char out[512];
		ssize_t n = read(p[0], out, sizeof(out) - 1);

		printf("%.*s", n > 0 ? (int)n : 0, out);
	}
	printf("child %s\n", status_text(wait_status(pid)));
	/* Giving it up as a process that does not lead the session. */
	show("TIOCNOTTY", rsys(SYS_ioctl, 0, TIOCNOTTY, 0));
	show("TIOCGPGRP after TIOCNOTTY", rsys(SYS_ioctl, 0, TIOCGPGRP, &v));
	show("open /dev/tty after TIOCNOTTY", rsys(SYS_open, "/dev/tty", O_RDWR));
	return 0;
}

int main(int argc, char **argv)
{
	int p[2], fd;

	if (argc > 1 && !strcmp(argv[1], "job"))
		return job();
	if (pipe(p))
		die("pipe");
	on_file("pipe", p[0]);
	fd = open("/dev/null", O_RDWR);
	on_file("/dev/null", fd);
	fd = open(argv[0], O_RDONLY);
	on_file("file", fd);
	return 0;
}
