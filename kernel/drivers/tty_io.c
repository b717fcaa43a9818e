/*
 * kernel/drivers/tty_io.c: the console tty (Linux's drivers/tty/tty_io.c,
 * tty_ioctl.c and tty_jobctrl.c), docs/design.md "The terminal".
 *
 * When umk's stdin is a terminal that umk runs in the foreground of, the
 * console is one tty (console_tty): the host terminal is raw (arch/tty.c),
 * bytes typed there arrive with the console interrupt (host SIGIO) and go
 * through the line discipline (kernel/drivers/n_tty.c), output goes to the host
 * processed. Its files are pid 1's fds 0-2 that are that terminal, and
 * /dev/tty and /dev/console.
 *
 * Job control as Linux's: a session leader's controlling tty (pid 1 starts
 * with the console as its own, as getty would hand it over; TIOCSCTTY and
 * TIOCNOTTY otherwise), the foreground process group (TIOCSPGRP), SIGTTIN
 * for a read and SIGTTOU for a write (with TOSTOP) or a change of settings
 * from a background group, -EIO for an orphaned one. The host's signals for
 * umk are the terminal's: SIGINT and SIGQUIT go to the foreground group
 * (as if typed), SIGHUP and SIGTERM hang the terminal up (the session
 * leader gets SIGHUP and SIGCONT), and SIGWINCH is a resize (TIOCSWINSZ).
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/os.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/trace.h>
#include <umk/tty.h>
#include <umk/uaccess.h>

#include <umk/sched/signal.h>

static struct tty_struct the_console_tty;
struct tty_struct *console_tty;

/* ---- the host side ---- */

/* Can a write go to the host now (room, or an error for it to report)? */
bool tty_output_room(struct tty_struct *tty)
{
	return os_fd_ready(tty->host_out, POLLOUT);
}

/* Write to the host now, whatever the state of output: echoes and what
 * ^Q releases, which no task waits for. */
static void put_host_now(struct tty_struct *tty, const char *buf, size_t n)
{
	while (n) {
		ssize_t r = os_write_some(tty->host_out, buf, n);

		if (r == -EAGAIN)
			continue;
		if (r <= 0)
			return;		/* the terminal is gone: nobody sees it */
		buf += r;
		n -= r;
	}
}

void tty_put_host(struct tty_struct *tty, const char *buf, size_t n)
{
	if (tty->stopped) {
		n = min(n, sizeof(tty->echo_buf) - tty->echo_len);
		memcpy(tty->echo_buf + tty->echo_len, buf, n);
		tty->echo_len += n;
		return;
	}
	put_host_now(tty, buf, n);
}

void stop_tty(struct tty_struct *tty)
{
	tty->stopped = true;
}

void start_tty(struct tty_struct *tty)
{
	if (!tty->stopped)
		return;
	tty->stopped = false;
	put_host_now(tty, tty->echo_buf, tty->echo_len);
	tty->echo_len = 0;
	wake_up(&tty->wait);
}

/* Write n bytes to the host, waiting for room as Linux's n_tty writer
 * waits: 0, -EAGAIN (O_NONBLOCK), -ERESTARTSYS, -EIO or the host's error.
 * SIGIO (O_ASYNC on the terminal, arch/irq.c) wakes tty->wait when the
 * host's reader makes room. */
ssize_t tty_write_host(struct tty_struct *tty, struct file *f, const char *buf, size_t n)
{
	while (n) {
		ssize_t r;

		if (tty->hung_up)
			return -EIO;
		if (!tty_output_room(tty)) {
			if (f->f_flags & O_NONBLOCK)
				return -EAGAIN;
			if (wait_event_interruptible(tty->wait, tty_output_room(tty) || tty->hung_up))
				return -ERESTARTSYS;
			continue;
		}
		r = os_write_some(tty->host_out, buf, n);
		if (r == -EAGAIN)
			continue;
		if (r < 0)
			return r;
		buf += r;
		n -= r;
	}
	return 0;
}

static void tty_vhangup(struct tty_struct *tty);

/* IRQ_CONSOLE: take what was typed (the host terminal is raw and never
 * blocks a read the poll said is ready), wake writers waiting for room. A
 * host terminal that went away (end of input, an error) is a hangup. */
static void tty_console_interrupt(struct tty_struct *tty)
{
	unsigned char buf[256];

	while (!tty->hung_up) {
		ssize_t r;

		if (!os_fd_ready(0, POLLIN))
			break;
		r = os_read(0, buf, sizeof(buf));
		if (r == -EINTR || r == -EAGAIN)
			continue;
		if (r <= 0) {
			tty_vhangup(tty);
			break;
		}
		n_tty_receive_buf(tty, buf, r);
	}
	wake_up(&tty->wait);
}

/* ---- job control (tty_jobctrl.c) ---- */

static bool is_ignored(int sig)
{
	return sigismember(&current->blocked, sig) ||
	       sig_action(current, sig)->handler == SIG_IGN;
}

int tty_check_change(struct tty_struct *tty, int sig)
{
	pid_t pgrp = current->signal->pgrp;

	if (current->signal->tty != tty || !tty->pgrp || pgrp == tty->pgrp)
		return 0;
	if (is_ignored(sig))
		return sig == SIGTTIN ? -EIO : 0;
	if (will_become_orphaned_pgrp(pgrp, NULL))
		return -EIO;
	kill_pgrp(pgrp, sig, 1);
	return -ERESTARTSYS;
}

void tty_isig(struct tty_struct *tty, int sig)
{
	if (tty->pgrp)
		kill_pgrp(tty->pgrp, sig, 1);
}

/* p's process (and the session, when p leads it) takes tty as its
 * controlling terminal, foreground group p's (__proc_set_tty). */
static void proc_set_tty(struct task_struct *p, struct tty_struct *tty)
{
	tty->session = p->signal->session;
	tty->pgrp = p->signal->pgrp;
	p->signal->tty = tty;
}

void proc_clear_tty(struct task_struct *p)
{
	p->signal->tty = NULL;
}

/* Every process of session forgets its controlling tty. */
static void session_clear_tty(pid_t session)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks) {
		if (thread_group_leader(p) && p != idle_task && p->signal->session == session)
			p->signal->tty = NULL;
	}
}

/* The leader of the session that has tty gets SIGHUP and SIGCONT, every
 * process there loses it, and its files read end-of-file from now on
 * (__tty_hangup, tty_signal_session_leader). */
static void tty_vhangup(struct tty_struct *tty)
{
	struct task_struct *p, *n;
	kernel_siginfo_t info;

	if (tty->hung_up)
		return;
	tty->hung_up = true;
	list_for_each_entry_safe(p, n, &task_list, tasks) {
		if (!thread_group_leader(p) || p == idle_task || !tty->session ||
		    p->signal->session != tty->session || p->exit_state)
			continue;
		if (p->signal->tty == tty)
			p->signal->tty = NULL;
		if (!p->signal->session_leader)
			continue;
		p->signal->tty_old_pgrp = tty->pgrp;
		fill_kill_info(&info, SIGHUP, SI_KERNEL);
		send_signal(SIGHUP, &info, p, true);
		fill_kill_info(&info, SIGCONT, SI_KERNEL);
		send_signal(SIGCONT, &info, p, true);
	}
	tty->session = tty->pgrp = 0;
	tty->stopped = false;
	tty->echo_len = 0;
	wake_up(&tty->wait);
}

void disassociate_ctty(int on_exit)
{
	struct signal_struct *sig = current->signal;
	struct tty_struct *tty = sig->tty;

	if (!sig->session_leader)
		return;
	if (tty) {
		if (tty->pgrp) {
			kill_pgrp(tty->pgrp, SIGHUP, on_exit);
			if (!on_exit)
				kill_pgrp(tty->pgrp, SIGCONT, on_exit);
		}
		tty->session = tty->pgrp = 0;
	} else if (on_exit && sig->tty_old_pgrp) {
		kill_pgrp(sig->tty_old_pgrp, SIGHUP, on_exit);
		kill_pgrp(sig->tty_old_pgrp, SIGCONT, on_exit);
	}
	sig->tty_old_pgrp = 0;
	session_clear_tty(sig->session);
}

/* ---- ioctls (tty_ioctl, tty_mode_ioctl, n_tty_ioctl_helper) ---- */

static int set_termios(struct tty_struct *tty, unsigned int cmd, void __user *arg)
{
	struct ktermios new, old = tty->termios;
	int r = tty_check_change(tty, SIGTTOU);

	if (r)
		return r;
	if (copy_from_user(&new, arg, sizeof(new)))
		return -EFAULT;
	if (cmd == TCSETSF)
		n_tty_flush_input(tty);
	/* TCSETSW waits for output to drain: umk's has gone to the host. */
	tty->termios = new;
	n_tty_set_termios(tty, &old);
	return 0;
}

static int tiocspgrp(struct tty_struct *tty, pid_t __user *p)
{
	struct task_struct *g;
	pid_t pgrp;
	int r = tty_check_change(tty, SIGTTOU);

	if (r == -EIO)
		return -ENOTTY;
	if (r)
		return r;
	if (get_user(pgrp, p))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	if (current->signal->tty != tty || tty->session != current->signal->session)
		return -ENOTTY;
	/* session_of_pgrp: a group of that number, else a process */
	g = pgrp_task(pgrp);
	if (!g)
		g = find_task_by_pid(pgrp);
	if (!g || g == idle_task)
		return -ESRCH;
	if (g->signal->session != current->signal->session)
		return -EPERM;
	tty->pgrp = pgrp;
	return 0;
}

static int tiocsctty(struct tty_struct *tty, struct file *f, unsigned long arg)
{
	struct signal_struct *sig = current->signal;

	if (sig->session_leader && sig->session == tty->session)
		return 0;
	if (!sig->session_leader || sig->tty)
		return -EPERM;
	if (tty->session) {
		if (arg != 1 || !capable(CAP_SYS_ADMIN))
			return -EPERM;
		session_clear_tty(tty->session);	/* steal it */
	}
	if ((f->f_flags & O_ACCMODE) == O_WRONLY && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	proc_set_tty(current->group_leader, tty);
	return 0;
}

/* A new size: the foreground group hears of a change (tty_do_resize). */
static void tty_do_resize(struct tty_struct *tty, const struct winsize *ws)
{
	if (!memcmp(ws, &tty->winsize, sizeof(*ws)))
		return;
	tty->winsize = *ws;
	if (tty->pgrp)
		kill_pgrp(tty->pgrp, SIGWINCH, 1);
}

void tty_winch_interrupt(void)
{
	struct winsize ws;

	if (console_tty && !console_tty->hung_up && !os_ioctl_winsize(console_tty->host_out, &ws))
		tty_do_resize(console_tty, &ws);
}

static long tty_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct tty_struct *tty = console_tty;
	void __user *p = (void __user *)arg;
	struct winsize ws;
	int r;

	if (tty->hung_up)	/* hung_up_tty_ioctl */
		return cmd == TIOCSPGRP ? -ENOTTY : -EIO;
	switch (cmd) {
	case TCGETS:
		return copy_to_user(p, &tty->termios, sizeof(tty->termios)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return set_termios(tty, cmd, p);
	case TCSBRK:
		/* tcdrain (arg 1): output is on the host already; a break
		 * (arg 0) is nothing on a terminal without a line, as on
		 * Linux's pseudo-terminals */
		return tty_check_change(tty, SIGTTOU);
	case TCXONC:
		r = tty_check_change(tty, SIGTTOU);
		if (r)
			return r;
		switch (arg) {
		case TCOOFF:
			stop_tty(tty);
			return 0;
		case TCOON:
			start_tty(tty);
			return 0;
		case TCIOFF:
		case TCION: {
			char c = CC(tty, arg == TCIOFF ? VSTOP : VSTART);

			if (c != __DISABLED_CHAR)
				put_host_now(tty, &c, 1);	/* tty_send_xchar */
			return 0;
		}
		}
		return -EINVAL;
	case TCFLSH:
		r = tty_check_change(tty, SIGTTOU);
		if (r)
			return r;
		switch (arg) {
		case TCIFLUSH:
		case TCIOFLUSH:
			n_tty_flush_input(tty);
			return 0;
		case TCOFLUSH:
			return 0;	/* nothing waits to go out */
		}
		return -EINVAL;
	case TIOCOUTQ:
		return put_user(0, (int __user *)p);
	case TIOCINQ:
		return put_user((int)n_tty_inq(tty), (int __user *)p);
	case TIOCGPGRP:
		if (current->signal->tty != tty)
			return -ENOTTY;
		return put_user(tty->pgrp, (pid_t __user *)p);
	case TIOCSPGRP:
		return tiocspgrp(tty, p);
	case TIOCGSID:
		if (current->signal->tty != tty || !tty->session)
			return -ENOTTY;
		return put_user(tty->session, (pid_t __user *)p);
	case TIOCGWINSZ:
		return copy_to_user(p, &tty->winsize, sizeof(tty->winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ:
		if (copy_from_user(&ws, p, sizeof(ws)))
			return -EFAULT;
		tty_do_resize(tty, &ws);
		return 0;
	case TIOCSCTTY:
		return tiocsctty(tty, f, arg);
	case TIOCNOTTY:
		if (current->signal->tty != tty)
			return -ENOTTY;
		if (current->signal->session_leader)
			disassociate_ctty(0);
		proc_clear_tty(current->group_leader);
		return 0;
	}
	return -ENOIOCTLCMD;
}

/* ---- the files ---- */

static ssize_t tty_read(struct kiocb *iocb, struct iov_iter *to)
{
	return n_tty_read(console_tty, iocb->ki_filp, to);
}

static ssize_t tty_write(struct kiocb *iocb, struct iov_iter *from)
{
	struct tty_struct *tty = console_tty;

	if (L_FLAG(tty, TOSTOP)) {
		int r = tty_check_change(tty, SIGTTOU);

		if (r)
			return r;
	}
	return n_tty_write(tty, iocb->ki_filp, from);
}

static unsigned int tty_poll(struct file *f, poll_table *pt)
{
	poll_wait(f, &console_tty->wait, pt);
	return n_tty_poll(console_tty, f);
}

static int tty_fstat(struct file *f, struct stat *st)
{
	return os_fstat(console_hostfd(f), st);
}

/* O_ASYNC on or off (Linux's __tty_fasync). A file newly on the list
 * gets an owner if it has none: the foreground process group, or without
 * one the caller's process. */
static int tty_fasync(int fd, struct file *f, int on)
{
	int ret = fasync_helper(fd, f, on, &console_tty->fasync);

	if (ret <= 0 || !on)
		return ret;
	f_setown(f, console_tty->pgrp ? -console_tty->pgrp : current->tgid, false);
	return ret;
}

const struct file_operations console_tty_fops = {
	.name = "tty",
	.read_iter = tty_read,
	.write_iter = tty_write,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
	.fstat = tty_fstat,
	.fasync = tty_fasync,
};

/* A file of the console tty; private_data is the host fd, for /proc. */
struct file *tty_file(int hostfd, unsigned int flags)
{
	return alloc_file(&console_tty_fops, flags, (void *)(long)hostfd);
}

/* /dev/tty is the opener's controlling terminal (ENXIO without one,
 * tty_open_current_tty); /dev/console is the console, which never becomes
 * one by being opened. */
int tty_open(struct file *f, bool dev_tty)
{
	if (dev_tty && current->signal->tty != console_tty)
		return -ENXIO;
	f->f_op = &console_tty_fops;
	f->private_data = (void *)(long)0;
	return 0;
}

/* ---- boot ---- */

void console_tty_init(void)
{
	struct os_termios t;
	struct tty_struct *tty = &the_console_tty;
	struct stat st;
	int out = os_tty_get(&t);

	if (out < 0)
		return;
	tty->termios.c_iflag = t.iflag;
	tty->termios.c_oflag = t.oflag;
	tty->termios.c_cflag = t.cflag;
	tty->termios.c_lflag = t.lflag;
	tty->termios.c_line = t.line;
	memcpy(tty->termios.c_cc, t.cc, sizeof(tty->termios.c_cc));
	tty->host_out = out;
	if (!os_fstat(out, &st))
		tty->rdev = st.st_rdev;
	os_ioctl_winsize(out, &tty->winsize);
	init_waitqueue_head(&tty->wait);
	console_tty = tty;
}

/* pid 1 leads session 1 with the console as its controlling terminal and
 * its group in the foreground, as a shell started by getty. */
void console_tty_set_init(struct task_struct *p)
{
	if (console_tty)
		proc_set_tty(p, console_tty);
}

void tty_interrupt(void)
{
	if (console_tty)
		tty_console_interrupt(console_tty);
}

/* The host's signals for umk, with a terminal: what the terminal would do. */
void tty_host_signals(unsigned long sigs)
{
	int sig;

	for (sig = 1; sig <= _NSIG; sig++) {
		if (!(sigs & sigmask(sig)))
			continue;
		trace_with(TR_SIGNAL, &(struct trace_fields){ .other = -1, .sig = sig, .what = "host" },
			   "%s from the host -> the terminal", signal_name(sig));
		if (sig == SIGHUP || sig == SIGTERM)
			tty_vhangup(console_tty);
		else
			tty_isig(console_tty, sig);
	}
}
