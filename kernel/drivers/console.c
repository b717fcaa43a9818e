/*
 * kernel/drivers/console.c: the console, umk's one device: files over the host fds
 * 0, 1 and 2 that umk inherited (what drivers/tty is to Linux, reduced to a
 * pass-through). Interface: console_file() makes the files pid 1 starts
 * with; console_interrupt() is IRQ_CONSOLE (host SIGIO: input arrived).
 * The signals umk is sent on the host are kernel/drivers/hostsig.c's.
 *
 * Reads never block the host process: a read looks with os_fd_ready first
 * and calls os_read only when the host says it would not block (a regular
 * file or /dev/null is always readable). Otherwise the task sleeps on
 * console_wait until console_interrupt() wakes it. Writes never block it
 * either: on a host fd that can be full (a pipe, a FIFO, a socket, a
 * terminal: os_output_waits), a write looks for POLLOUT first and writes at
 * most PIPE_BUF bytes at a time, which a pipe with room takes whole without
 * blocking (so a write of up to PIPE_BUF stays atomic); on a full one the
 * task sleeps on console_wait, as n_tty's writer does, and SIGIO (O_ASYNC,
 * arch/irq.c) wakes it when the host reader makes room, while every other
 * task runs. Other host fds (regular files, /dev/null) take writes whole.
 * Host errors pass through as they are; -EPIPE also raises SIGPIPE, which the
 * host would have sent us (umk ignores it on the host).
 *
 * This pass-through is the console when umk's stdin is not a terminal, or
 * umk runs in the background of one. When stdin is the terminal umk runs
 * in the foreground of, the terminal's files are the console tty instead,
 * with umk's own line discipline and job control (kernel/drivers/tty_io.c,
 * kernel/drivers/n_tty.c); console_file, console_open and the interrupts hand them
 * over to it.
 *
 * Departures of the pass-through from Linux: no line discipline, no job
 * control, no termios of our own. TCGETS on a host terminal reports Linux's
 * tty_std_termios (the settings of a freshly opened tty), not the host's
 * current ones; TCSETS and the other tty ioctls are -ENOTTY. O_NONBLOCK is
 * umk's own: it is never set on the host fd.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/os.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/trace.h>
#include <umk/tty.h>
#include <umk/uaccess.h>
#include <umk/uapi/limits.h>
#include <umk/uapi/termbits.h>

#include <umk/sched/signal.h>

static struct wait_queue_head console_wait = { LIST_HEAD_INIT(console_wait.head) };

/* Bounce buffer between host and user memory. Used only between one host
 * call and the copy next to it; neither sleeps, so no other task can use it
 * meanwhile. */
static char console_buf[16 * PAGE_SIZE];

int console_hostfd(const struct file *f)
{
	return (int)(long)f->private_data;
}

/* Read what the host has now, without blocking: after the first host read,
 * read again only while the host says it would not block. */
static ssize_t console_read_now(int fd, struct iov_iter *to)
{
	ssize_t done = 0;

	while (iov_iter_count(to)) {
		size_t chunk = min(iov_iter_count(to), sizeof(console_buf));
		ssize_t r;
		size_t copied;

		if (done && !os_fd_ready(fd, POLLIN))
			break;
		r = os_read(fd, console_buf, chunk);
		if (r == -EINTR)
			continue;
		if (r <= 0)
			return done ? done : r;
		copied = copy_to_iter(console_buf, r, to);
		done += copied;
		if (copied < (size_t)r)
			return done ? done : -EFAULT;
		if ((size_t)r < chunk)
			break;
	}
	return done;
}

static ssize_t console_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *f = iocb->ki_filp;
	int fd = console_hostfd(f);
	ssize_t ret;

	for (;;) {
		if (os_fd_ready(fd, POLLIN)) {
			ret = console_read_now(fd, to);
			/* -EAGAIN: the host changed its mind; wait as if empty. */
			if (ret != -EAGAIN)
				return ret;
		}
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		/* wait_event_interruptible queues us before it polls, so input
		 * that arrives after the poll (SIGIO) wakes us. */
		if (wait_event_interruptible(console_wait, os_fd_ready(fd, POLLIN)))
			return -ERESTARTSYS;
	}
}

/* Linux's n_tty write: sleep while the host fd is full, return what was
 * written when a signal comes, or -ERESTARTSYS before anything was. Each
 * piece is copied from a copy of the iterator and the iterator advanced by
 * what the host took, so a partial host write loses and repeats nothing;
 * console_buf holds nothing across the sleep. */
static ssize_t console_write(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *f = iocb->ki_filp;
	int fd = console_hostfd(f);
	bool waits = os_output_waits(fd);
	/* What one os_write_some can take: copy no more. */
	size_t max = waits ? PIPE_BUF : sizeof(console_buf);
	ssize_t done = 0;

	while (iov_iter_count(from)) {
		struct iov_iter peek = *from;
		size_t got;
		ssize_t r;

		if (waits && !os_fd_ready(fd, POLLOUT)) {
			if (f->f_flags & O_NONBLOCK)
				return done ? done : -EAGAIN;
			/* Queued before the poll: room that comes after it
			 * raises SIGIO, and console_interrupt wakes us. */
			if (wait_event_interruptible(console_wait, os_fd_ready(fd, POLLOUT)))
				return done ? done : -ERESTARTSYS;
			continue;
		}
		got = copy_from_iter(console_buf, min(iov_iter_count(from), max), &peek);
		if (!got)
			return done ? done : -EFAULT;
		r = os_write_some(fd, console_buf, got);
		if (r == -EAGAIN && waits)
			continue;	/* nothing written; look again */
		if (r < 0) {
			if (r == -EPIPE)
				send_sig(SIGPIPE, current, 0);
			return done ? done : r;
		}
		if (r == 0)
			return done;
		iov_iter_advance(from, r);
		done += r;
	}
	return done;
}

static unsigned int console_poll(struct file *f, poll_table *pt)
{
	unsigned int acc = f->f_flags & O_ACCMODE;
	int events = 0;
	int r;

	if (acc == O_RDONLY || acc == O_RDWR)
		events |= POLLIN | POLLRDNORM;
	if (acc == O_WRONLY || acc == O_RDWR)
		events |= POLLOUT | POLLWRNORM;
	/* SIGIO comes for input, and for room on an output that can fill
	 * (os_output_waits): both wake console_wait. */
	poll_wait(f, &console_wait, pt);
	r = os_poll_now(console_hostfd(f), events);
	return r < 0 ? POLLERR : (unsigned int)r;
}

_Static_assert(sizeof(struct ktermios) == 36, "the kernel's struct termios is 36 bytes");

/* Linux's tty_std_termios (drivers/tty/tty_io.c), in octal as there. */
static const struct ktermios tty_std_termios = {
	.c_iflag = 0000400 | 0002000,				/* ICRNL | IXON */
	.c_oflag = 0000001 | 0000004,				/* OPOST | ONLCR */
	.c_cflag = 0000017 | 0000060 | 0000200 | 0002000,	/* B38400 | CS8 | CREAD | HUPCL */
	.c_lflag = 0000001 | 0000002 | 0000010 | 0000020 | 0000040 |
		   0001000 | 0004000 | 0100000,	/* ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN */
	.c_cc = "\003\034\177\025\004\0\1\0\021\023\032\0\022\017\027\026\0", /* INIT_C_CC */
};

static long console_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int fd = console_hostfd(f);
	struct winsize ws;
	int r;

	switch (cmd) {
	case TIOCGWINSZ:
		r = os_ioctl_winsize(fd, &ws);
		if (r)
			return r;
		return copy_to_user((void __user *)arg, &ws, sizeof(ws)) ? -EFAULT : 0;
	case TCGETS:
		if (!os_isatty(fd))
			return -ENOTTY;
		return copy_to_user((void __user *)arg, &tty_std_termios, sizeof(tty_std_termios))
			       ? -EFAULT
			       : 0;
	}
	return -ENOIOCTLCMD;
}

/* The host's view of the fd: a tty, a pipe, a file (umk's console is a
 * pass-through). */
static int console_fstat(struct file *f, struct stat *st)
{
	return os_fstat(console_hostfd(f), st);
}

/* No release: the host fds stay open for umk itself (its messages go to
 * fd 2) and for the other console files over the same fd. */
static const struct file_operations console_fops = {
	.name = "console",
	.read_iter = console_read,
	.write_iter = console_write,
	.poll = console_poll,
	.ioctl = console_ioctl,
	.fstat = console_fstat,
};

struct file *console_file(int hostfd)
{
	int r = os_poll_now(hostfd, 0);
	unsigned int flags;

	if (r < 0 || (r & POLLNVAL))
		return NULL;
	if (console_tty && os_isatty(hostfd))
		return tty_file(hostfd, O_RDWR);
	if (os_isatty(hostfd))
		flags = O_RDWR;		/* what a terminal's fds are opened with */
	else
		flags = hostfd == 0 ? O_RDONLY : O_WRONLY;
	return alloc_file(&console_fops, flags, (void *)(long)hostfd);
}

int console_open(struct file *f, bool dev_tty)
{
	int fd;

	if (console_tty)
		return tty_open(f, dev_tty);
	for (fd = 0; fd < 3; fd++) {
		if (os_isatty(fd)) {
			f->f_op = &console_fops;
			f->private_data = (void *)(long)fd;
			return 0;
		}
	}
	return -ENXIO;
}

bool is_console_file(const struct file *f)
{
	return f->f_op == &console_fops || f->f_op == &console_tty_fops;
}

void console_interrupt(void)
{
	wake_up(&console_wait);
	tty_interrupt();
}
