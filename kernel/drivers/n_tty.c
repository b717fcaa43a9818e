/*
 * kernel/drivers/n_tty.c: the line discipline of the console tty (Linux's
 * drivers/tty/n_tty.c, N_TTY), docs/design.md "The terminal".
 *
 * Input: the bytes typed at the host terminal (raw there, arch/tty.c) come
 * in from the console interrupt (kernel/drivers/tty_io.c) through
 * n_tty_receive_buf, one n_tty_receive_char each: input mapping (ISTRIP,
 * IGNCR, ICRNL, INLCR), flow control (IXON, IXANY), signals (ISIG: VINTR,
 * VQUIT, VSUSP to the foreground group, the input flushed unless NOFLSH),
 * canonical editing (ICANON: VERASE, VKILL, VWERASE, VLNEXT, VREPRINT;
 * lines end at '\n', VEOL, VEOL2 or VEOF) and echo (ECHO, ECHOE, ECHOK,
 * ECHOKE, ECHONL, ECHOCTL), with Linux's rules for each.
 *
 * Reads take one line in canonical mode, else follow VMIN and VTIME as
 * Linux does; a background group gets SIGTTIN first (tty_check_change).
 * Writes go through output processing (OPOST: ONLCR, OCRNL, ONOCR, ONLRET,
 * XTABS, OLCUC) to the host terminal.
 *
 * Departures: echoes are written to the host at once, from the interrupt
 * (Linux queues them in echo_buf and a writer flushes them), unless output
 * is stopped (VSTOP): then they wait until it starts; an echo that finds
 * the host terminal full waits for it there. No PARMRK, IUCLC,
 * ECHOPRT, EXTPROC or packet mode. A write interrupted by a signal in the
 * middle of a piece of up to 128 bytes counts that piece as not written
 * though part of it may have reached the host.
 */
#include <umk/errno.h>
#include <umk/fasync.h>
#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/timer.h>
#include <umk/tty.h>
#include <umk/uaccess.h>

#define MASK(x) ((x) & (N_TTY_BUF_SIZE - 1))
#define NO_TIMEOUT (~0ULL)	/* a read that waits without end */

static size_t read_cnt(const struct tty_struct *tty)
{
	return tty->read_head - tty->read_tail;
}

static unsigned char read_buf(const struct tty_struct *tty, size_t i)
{
	return tty->read_buf[MASK(i)];
}

/* Linux's iscntrl over its kernel ctype: 0-31, 127 and 128-159. */
static bool tty_iscntrl(unsigned char c)
{
	return c < 32 || (c >= 127 && c < 160);
}

static bool tty_isalnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A UTF-8 continuation byte takes no column (IUTF8). */
static bool is_continuation(unsigned char c, const struct tty_struct *tty)
{
	return I_FLAG(tty, IUTF8) && (c & 0xc0) == 0x80;
}

/* ---- output ---- */

/* One byte through OPOST into out (room for 8): the bytes to send, and
 * the column kept (do_output_char). */
static size_t do_output_char(struct tty_struct *tty, unsigned char c, char *out)
{
	unsigned int spaces;

	if (!O_FLAG(tty, OPOST)) {
		out[0] = c;
		return 1;
	}
	switch (c) {
	case '\n':
		if (O_FLAG(tty, ONLRET))
			tty->column = 0;
		if (O_FLAG(tty, ONLCR)) {
			tty->canon_column = tty->column = 0;
			out[0] = '\r';
			out[1] = '\n';
			return 2;
		}
		tty->canon_column = tty->column;
		break;
	case '\r':
		if (O_FLAG(tty, ONOCR) && tty->column == 0)
			return 0;
		if (O_FLAG(tty, OCRNL)) {
			c = '\n';
			if (O_FLAG(tty, ONLRET))
				tty->canon_column = tty->column = 0;
			break;
		}
		tty->canon_column = tty->column = 0;
		break;
	case '\t':
		spaces = 8 - (tty->column & 7);
		if (O_FLAG(tty, TABDLY) == XTABS) {
			tty->column += spaces;
			memset(out, ' ', spaces);
			return spaces;
		}
		tty->column += spaces;
		break;
	case '\b':
		if (tty->column > 0)
			tty->column--;
		break;
	default:
		if (!tty_iscntrl(c)) {
			if (O_FLAG(tty, OLCUC) && c >= 'a' && c <= 'z')
				c -= 'a' - 'A';
			if (!is_continuation(c, tty))
				tty->column++;
		}
		break;
	}
	out[0] = c;
	return 1;
}

/* Echo c as it is (processed as output). */
static void echo_char_raw(unsigned char c, struct tty_struct *tty)
{
	char out[8];

	tty_put_host(tty, out, do_output_char(tty, c, out));
}

/* Echo c, a control character as ^X with ECHOCTL (a tab as itself). */
static void echo_char(unsigned char c, struct tty_struct *tty)
{
	if (L_FLAG(tty, ECHOCTL) && tty_iscntrl(c) && c != '\t') {
		char out[2] = { '^', (char)(c ^ 0100) };

		tty_put_host(tty, out, 2);
		tty->column += 2;
		return;
	}
	echo_char_raw(c, tty);
}

/* Write n bytes of user output, processed. Waits while output is stopped
 * (VSTOP) and while the host has no room; a signal ends the wait with what
 * was written, or -ERESTARTSYS before anything was. */
ssize_t n_tty_write(struct tty_struct *tty, struct file *f, struct iov_iter *from)
{
	unsigned char in[128];
	char out[sizeof(in) * 8];
	ssize_t done = 0;

	while (iov_iter_count(from)) {
		size_t n, len = 0, i;
		ssize_t r;

		if (tty->hung_up)
			return done ? done : -EIO;
		if (tty->stopped) {
			if (f->f_flags & O_NONBLOCK)
				return done ? done : -EAGAIN;
			if (wait_event_interruptible(tty->wait, !tty->stopped || tty->hung_up))
				return done ? done : -ERESTARTSYS;
			continue;
		}
		n = copy_from_iter(in, min(iov_iter_count(from), sizeof(in)), from);
		if (!n)
			return done ? done : -EFAULT;
		for (i = 0; i < n; i++)
			len += do_output_char(tty, in[i], out + len);
		r = tty_write_host(tty, f, out, len);
		if (r < 0)
			return done ? done : r;
		done += n;
	}
	return done;
}

/* ---- input ---- */

static void put_tty_queue(unsigned char c, unsigned char flags, struct tty_struct *tty)
{
	tty->read_buf[MASK(tty->read_head)] = c;
	tty->read_flags[MASK(tty->read_head)] = flags;
	tty->read_head++;
}

/* Drop all input (reset_buffer_flags). */
void n_tty_flush_input(struct tty_struct *tty)
{
	tty->read_head = tty->read_tail = tty->canon_head = 0;
	tty->lnext = false;
}

/* VERASE, VWERASE or VKILL: take back a character, a word or the line,
 * and rub them out on the screen (eraser). */
static void eraser(unsigned char c, struct tty_struct *tty)
{
	enum { ERASE, WERASE, KILL } kill_type;
	int seen_alnums = 0;
	size_t head;

	if (tty->read_head == tty->canon_head)
		return;
	if (c == CC(tty, VERASE)) {
		kill_type = ERASE;
	} else if (c == CC(tty, VWERASE)) {
		kill_type = WERASE;
	} else {
		if (!L_FLAG(tty, ECHO)) {
			tty->read_head = tty->canon_head;
			return;
		}
		if (!L_FLAG(tty, ECHOK) || !L_FLAG(tty, ECHOKE) || !L_FLAG(tty, ECHOE)) {
			tty->read_head = tty->canon_head;
			echo_char(CC(tty, VKILL), tty);
			if (L_FLAG(tty, ECHOK))
				echo_char_raw('\n', tty);
			return;
		}
		kill_type = KILL;
	}

	while (tty->read_head != tty->canon_head) {
		head = tty->read_head;
		/* a whole, possibly multibyte, character */
		do {
			head--;
			c = read_buf(tty, head);
		} while (is_continuation(c, tty) && head != tty->canon_head);
		if (is_continuation(c, tty))
			break;		/* never part of one */
		if (kill_type == WERASE) {
			if (tty_isalnum(c) || c == '_')
				seen_alnums++;
			else if (seen_alnums)
				break;
		}
		tty->read_head = head;
		if (L_FLAG(tty, ECHO)) {
			if (kill_type == ERASE && !L_FLAG(tty, ECHOE)) {
				echo_char(CC(tty, VERASE), tty);
			} else if (c == '\t') {
				/* back to the tab stop: count the columns of what
				 * came after the previous tab or the line's start */
				unsigned int num_chars = 0, num_bs;
				bool after_tab = false;
				size_t tail = tty->read_head;

				while (tail != tty->canon_head) {
					unsigned char p = read_buf(tty, --tail);

					if (p == '\t') {
						after_tab = true;
						break;
					} else if (tty_iscntrl(p)) {
						if (L_FLAG(tty, ECHOCTL))
							num_chars += 2;
					} else if (!is_continuation(p, tty)) {
						num_chars++;
					}
				}
				if (!after_tab)
					num_chars += tty->canon_column;
				for (num_bs = 8 - (num_chars & 7); num_bs; num_bs--)
					echo_char_raw('\b', tty);
			} else {
				if (tty_iscntrl(c) && L_FLAG(tty, ECHOCTL)) {
					echo_char_raw('\b', tty);
					echo_char_raw(' ', tty);
					echo_char_raw('\b', tty);
				}
				if (!tty_iscntrl(c) || L_FLAG(tty, ECHOCTL)) {
					echo_char_raw('\b', tty);
					echo_char_raw(' ', tty);
					echo_char_raw('\b', tty);
				}
			}
		}
		if (kill_type == ERASE)
			break;
	}
}

/* VINTR, VQUIT, VSUSP (n_tty_receive_signal_char): flush unless NOFLSH,
 * signal the foreground group, restart stopped output, echo the char. */
static void n_tty_receive_signal_char(struct tty_struct *tty, int sig, unsigned char c)
{
	if (!L_FLAG(tty, NOFLSH))
		n_tty_flush_input(tty);
	tty_isig(tty, sig);
	if (I_FLAG(tty, IXON))
		start_tty(tty);
	if (L_FLAG(tty, ECHO))
		echo_char(c, tty);
	wake_up(&tty->wait);
}

/* An ordinary byte: echo and queue it. In canonical mode the last slot is
 * kept for the byte that ends the line. */
static void n_tty_receive_plain(struct tty_struct *tty, unsigned char c)
{
	if (read_cnt(tty) >= (size_t)N_TTY_BUF_SIZE - (L_FLAG(tty, ICANON) ? 1 : 0))
		return;
	if (L_FLAG(tty, ECHO)) {
		if (c == '\n') {
			echo_char_raw('\n', tty);
		} else {
			if (tty->canon_head == tty->read_head)
				tty->canon_column = tty->column;
			echo_char(c, tty);
		}
	}
	put_tty_queue(c, 0, tty);
	if (!L_FLAG(tty, ICANON))
		wake_up(&tty->wait);
}

/* The end of a canonical line: c (flagged TTY_LINE_END) or a VEOF marker
 * (TTY_LINE_EOF), and the line becomes readable. */
static void n_tty_end_line(struct tty_struct *tty, unsigned char c, unsigned char flag)
{
	if (read_cnt(tty) >= N_TTY_BUF_SIZE)
		return;
	put_tty_queue(c, flag, tty);
	tty->canon_head = tty->read_head;
	kill_fasync(&tty->fasync, SIGIO, POLL_IN);
	wake_up(&tty->wait);
}

static void n_tty_receive_char(struct tty_struct *tty, unsigned char c)
{
	bool special = c != __DISABLED_CHAR;	/* a disabled c_cc entry is 0 */

	if (tty->lnext) {
		tty->lnext = false;
		if (I_FLAG(tty, ISTRIP))
			c &= 0x7f;
		n_tty_receive_plain(tty, c);
		return;
	}
	if (I_FLAG(tty, ISTRIP))
		c &= 0x7f;
	if (c == '\r') {
		if (I_FLAG(tty, IGNCR))
			return;
		if (I_FLAG(tty, ICRNL))
			c = '\n';
	} else if (c == '\n' && I_FLAG(tty, INLCR)) {
		c = '\r';
	}
	if (special && I_FLAG(tty, IXON)) {
		if (c == CC(tty, VSTART)) {
			start_tty(tty);
			return;
		}
		if (c == CC(tty, VSTOP)) {
			stop_tty(tty);
			return;
		}
	}
	if (special && L_FLAG(tty, ISIG)) {
		int sig = c == CC(tty, VINTR) ? SIGINT : c == CC(tty, VQUIT) ? SIGQUIT
						: c == CC(tty, VSUSP) ? SIGTSTP : 0;

		if (sig) {
			n_tty_receive_signal_char(tty, sig, c);
			return;
		}
	}
	if (tty->stopped && I_FLAG(tty, IXON) && I_FLAG(tty, IXANY))
		start_tty(tty);
	if (special && L_FLAG(tty, ICANON)) {
		if (c == CC(tty, VERASE) || c == CC(tty, VKILL) ||
		    (c == CC(tty, VWERASE) && L_FLAG(tty, IEXTEN))) {
			eraser(c, tty);
			return;
		}
		if (c == CC(tty, VLNEXT) && L_FLAG(tty, IEXTEN)) {
			tty->lnext = true;
			if (L_FLAG(tty, ECHO) && L_FLAG(tty, ECHOCTL)) {
				/* "^", then back over it: the next char lands there */
				tty_put_host(tty, "^\b", 2);
			}
			return;
		}
		if (c == CC(tty, VREPRINT) && L_FLAG(tty, ECHO) && L_FLAG(tty, IEXTEN)) {
			size_t tail;

			echo_char(c, tty);
			echo_char_raw('\n', tty);
			for (tail = tty->canon_head; tail != tty->read_head; tail++)
				echo_char(read_buf(tty, tail), tty);
			return;
		}
		if (c == '\n') {
			if (L_FLAG(tty, ECHO) || L_FLAG(tty, ECHONL))
				echo_char_raw('\n', tty);
			n_tty_end_line(tty, c, TTY_LINE_END);
			return;
		}
		if (c == CC(tty, VEOF)) {
			n_tty_end_line(tty, __DISABLED_CHAR, TTY_LINE_EOF);
			return;
		}
		if (c == CC(tty, VEOL) || (c == CC(tty, VEOL2) && L_FLAG(tty, IEXTEN))) {
			if (L_FLAG(tty, ECHO)) {
				if (tty->canon_head == tty->read_head)
					tty->canon_column = tty->column;
				echo_char(c, tty);
			}
			n_tty_end_line(tty, c, TTY_LINE_END);
			return;
		}
	}
	n_tty_receive_plain(tty, c);
}

void n_tty_receive_buf(struct tty_struct *tty, const unsigned char *cp, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		n_tty_receive_char(tty, cp[i]);
	/* raw input is readable as it comes: one SIGIO per buffer received
	 * (__receive_buf); a canonical line's end sent its own */
	if (!L_FLAG(tty, ICANON) && read_cnt(tty))
		kill_fasync(&tty->fasync, SIGIO, POLL_IN);
}

/* ICANON changed: going raw, the line being edited is readable at once;
 * going canonical, what is buffered becomes one line (n_tty_set_termios). */
void n_tty_set_termios(struct tty_struct *tty, const struct ktermios *old)
{
	if (!((old->c_lflag ^ tty->termios.c_lflag) & ICANON))
		return;
	tty->lnext = false;
	if (L_FLAG(tty, ICANON) && read_cnt(tty)) {
		tty->read_flags[MASK(tty->read_head - 1)] |= TTY_LINE_END;
		tty->canon_head = tty->read_head;
	} else {
		tty->canon_head = tty->read_tail;
	}
	wake_up(&tty->wait);
}

/* Is there something to read? In canonical mode a whole line; otherwise
 * a byte, or for poll with VMIN and no VTIME, VMIN bytes
 * (input_available_p). */
static bool input_available_p(const struct tty_struct *tty, bool poll)
{
	size_t amt = poll && !CC(tty, VTIME) && CC(tty, VMIN) ? CC(tty, VMIN) : 1;

	if (L_FLAG(tty, ICANON))
		return tty->canon_head != tty->read_tail;
	return read_cnt(tty) >= amt;
}

size_t n_tty_inq(struct tty_struct *tty)
{
	return L_FLAG(tty, ICANON) ? tty->canon_head - tty->read_tail : read_cnt(tty);
}

/* Copy n bytes from the ring at read_tail to the reader: false on a
 * fault, and then nothing is taken. */
static bool copy_from_read_buf(struct tty_struct *tty, size_t n, struct iov_iter *to)
{
	size_t first = min(n, N_TTY_BUF_SIZE - MASK(tty->read_tail));
	struct iov_iter save = *to;

	if (copy_to_iter(tty->read_buf + MASK(tty->read_tail), first, to) != first ||
	    copy_to_iter(tty->read_buf, n - first, to) != n - first) {
		*to = save;
		return false;
	}
	return true;
}

/* One canonical line, or as much of it as the buffer holds: the line's
 * ending byte is read, a VEOF marker consumed unread (canon_copy_from_read_buf).
 * Returns the bytes copied or -EFAULT. */
static ssize_t canon_copy_from_read_buf(struct tty_struct *tty, struct iov_iter *to)
{
	size_t n = 0, take, room = iov_iter_count(to);
	bool eof = false;

	while (n < room && tty->read_tail + n != tty->canon_head) {
		unsigned char fl = tty->read_flags[MASK(tty->read_tail + n)];

		if (fl & TTY_LINE_EOF) {
			eof = true;
			break;
		}
		n++;
		if (fl & TTY_LINE_END)
			break;
	}
	take = n + eof;
	if (n && !copy_from_read_buf(tty, n, to))
		return -EFAULT;
	tty->read_tail += take;
	return n;
}

ssize_t n_tty_read(struct tty_struct *tty, struct file *f, struct iov_iter *to)
{
	size_t minimum = 0;
	u64 time = 0, timeout = NO_TIMEOUT;	/* ns; NO_TIMEOUT: no end */
	ssize_t done = 0, ret = 0;
	int r;

	r = tty_check_change(tty, SIGTTIN);
	if (r < 0)
		return r;
	if (!L_FLAG(tty, ICANON)) {
		minimum = CC(tty, VMIN);
		if (minimum) {
			time = CC(tty, VTIME) * (NSEC_PER_SEC / 10);
		} else {
			timeout = CC(tty, VTIME) * (NSEC_PER_SEC / 10);
			minimum = 1;
		}
	}

	while (iov_iter_count(to)) {
		if (!input_available_p(tty, false)) {
			struct hrtimer_sleeper sl;
			DEFINE_WAIT(w);
			u64 start;

			if (tty->hung_up || !timeout)
				break;
			if (f->f_flags & O_NONBLOCK) {
				ret = -EAGAIN;
				break;
			}
			if (signal_pending(current)) {
				ret = -ERESTARTSYS;
				break;
			}
			prepare_to_wait(&tty->wait, &w, TASK_INTERRUPTIBLE);
			if (!input_available_p(tty, false) && !tty->hung_up) {
				if (timeout == NO_TIMEOUT) {
					schedule();
				} else {
					start = ktime_get();
					hrtimer_sleeper_start(&sl, start + timeout, "tty read");
					if (sl.task)
						schedule();
					hrtimer_sleeper_cancel(&sl);
					timeout = sl.task ? timeout - min(timeout, ktime_get() - start) : 0;
				}
			}
			finish_wait(&tty->wait, &w);
			continue;
		}
		if (L_FLAG(tty, ICANON)) {
			ssize_t n = canon_copy_from_read_buf(tty, to);

			if (n < 0) {
				ret = n;
				break;
			}
			done += n;
			break;		/* one line per read */
		} else {
			size_t n = min(read_cnt(tty), iov_iter_count(to));

			if (!copy_from_read_buf(tty, n, to)) {
				ret = -EFAULT;
				break;
			}
			tty->read_tail += n;
			done += n;
		}
		if ((size_t)done >= minimum)
			break;
		if (time)
			timeout = time;
	}
	return done ? done : ret;
}

unsigned int n_tty_poll(struct tty_struct *tty, struct file *f)
{
	unsigned int mask = 0;

	if (input_available_p(tty, true))
		mask |= POLLIN | POLLRDNORM;
	if (tty->hung_up)
		mask |= POLLHUP;
	if (!tty->stopped && tty_output_room(tty))
		mask |= POLLOUT | POLLWRNORM;
	return mask;
}
