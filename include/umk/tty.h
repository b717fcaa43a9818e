/* The console tty and its line discipline (include/linux/tty.h, tty_ldisc.h,
 * drivers/tty/n_tty.c). docs/design.md, "The terminal".
 *
 * umk has one tty: the console, when umk's stdin is a terminal (arch/tty.c
 * makes the host's raw). kernel/drivers/tty_io.c is the tty layer: its files, its
 * ioctls, controlling terminals and job control; kernel/drivers/n_tty.c is the line
 * discipline: canonical and raw input, echo, ISIG, output processing. */
#ifndef UMK_TTY_H
#define UMK_TTY_H

#include <umk/sched.h>
#include <umk/types.h>
#include <umk/uapi/termbits.h>

struct file;
struct iov_iter;

/* struct termios as the kernel keeps it and TCGETS copies it out
 * (include/uapi/asm-generic/termbits.h): 36 bytes. */
struct ktermios {
	u32 c_iflag, c_oflag, c_cflag, c_lflag;
	u8 c_line;
	u8 c_cc[NCCS];
};

struct winsize {
	u16 ws_row, ws_col, ws_xpixel, ws_ypixel;
};

#define N_TTY_BUF_SIZE 4096

struct tty_struct {
	struct ktermios termios;
	struct winsize winsize;
	pid_t pgrp;		/* foreground process group, 0: none */
	pid_t session;		/* the session it controls, 0: none */
	bool hung_up;		/* reads give 0, writes -EIO (tty_hung_up_p) */
	bool stopped;		/* output stopped by VSTOP (IXON) or TCOOFF */
	int host_out;		/* the host fd output goes to */
	unsigned long rdev;	/* its device number, the host's (tty_nr) */
	struct wait_queue_head wait;	/* readers, writers and pollers */
	struct fasync_struct *fasync;	/* O_ASYNC files: SIGIO on input */

	/* n_tty's state (struct n_tty_data). The input ring: bytes from
	 * read_tail to read_head; complete lines end at canon_head (up to
	 * which a canonical read may take them), each line's last byte
	 * flagged in read_flags. Indices run free and are masked. */
	unsigned char read_buf[N_TTY_BUF_SIZE];
	unsigned char read_flags[N_TTY_BUF_SIZE];
	size_t read_head, read_tail, canon_head;
	bool lnext;		/* the next byte is literal (VLNEXT) */
	bool push;		/* a canonical line made readable by a mode change */
	unsigned int column;	/* the output column (for tabs and erase) */
	char echo_buf[N_TTY_BUF_SIZE];	/* echoes held while output is stopped */
	size_t echo_len;
	unsigned int canon_column;	/* the column where the line began */
};

/* read_flags */
#define TTY_LINE_END 1		/* this byte ends a line: '\n', VEOL, VEOL2 */
#define TTY_LINE_EOF 2		/* a VEOF: ends the line, is not read */

/* The console tty, or NULL when umk's console is no tty. */
extern struct tty_struct *console_tty;

/* Flags of struct ktermios (include/uapi/asm-generic/termbits.h, octal). */
#define IGNBRK 0000001
#define BRKINT 0000002
#define IGNPAR 0000004
#define ISTRIP 0000040
#define INLCR 0000100
#define IGNCR 0000200
#define ICRNL 0000400
#define IUCLC 0001000
#define IXON 0002000
#define IXANY 0004000
#define IXOFF 0010000
#define IUTF8 0040000

#define OPOST 0000001
#define OLCUC 0000002
#define ONLCR 0000004
#define OCRNL 0000010
#define ONOCR 0000020
#define ONLRET 0000040
#define TABDLY 0014000
#define XTABS 0014000

#define ISIG 0000001
#define ICANON 0000002
#define ECHO 0000010
#define ECHOE 0000020
#define ECHOK 0000040
#define ECHONL 0000100
#define NOFLSH 0000200
#define TOSTOP 0000400
#define ECHOCTL 0001000
#define ECHOPRT 0002000
#define ECHOKE 0004000
#define IEXTEN 0100000

/* c_cc indices */
#define VINTR 0
#define VQUIT 1
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define VTIME 5
#define VMIN 6
#define VSTART 8
#define VSTOP 9
#define VSUSP 10
#define VEOL 11
#define VREPRINT 12
#define VWERASE 14
#define VLNEXT 15
#define VEOL2 16

#define __DISABLED_CHAR '\0'

#define I_FLAG(tty, f) ((tty)->termios.c_iflag & (f))
#define O_FLAG(tty, f) ((tty)->termios.c_oflag & (f))
#define L_FLAG(tty, f) ((tty)->termios.c_lflag & (f))
#define CC(tty, v) ((tty)->termios.c_cc[v])

/* kernel/drivers/n_tty.c: the line discipline */
/* Bytes typed at the terminal (from the host, in interrupt context). */
void n_tty_receive_buf(struct tty_struct *tty, const unsigned char *cp, size_t n);
ssize_t n_tty_read(struct tty_struct *tty, struct file *f, struct iov_iter *to);
/* A write of user output (OPOST applied) through tty_write_host. */
ssize_t n_tty_write(struct tty_struct *tty, struct file *f, struct iov_iter *from);
unsigned int n_tty_poll(struct tty_struct *tty, struct file *f);
void n_tty_flush_input(struct tty_struct *tty);
/* The termios changed from old: a change of ICANON moves the line. */
void n_tty_set_termios(struct tty_struct *tty, const struct ktermios *old);
size_t n_tty_inq(struct tty_struct *tty);	/* TIOCINQ */

/* kernel/drivers/tty_io.c: the tty layer and job control */
extern const struct file_operations console_tty_fops;
void console_tty_init(void);		/* at boot, before pid 1 */
/* pid 1 (p) takes the console as its controlling terminal. */
void console_tty_set_init(struct task_struct *p);
/* A file of the console tty over host fd hostfd (pid 1's fds). */
struct file *tty_file(int hostfd, unsigned int flags);
/* f (/dev/tty when dev_tty, /dev/console) opens the console tty:
 * 0, or -ENXIO for /dev/tty without a controlling terminal. */
int tty_open(struct file *f, bool dev_tty);
void tty_interrupt(void);		/* IRQ_CONSOLE with a console tty */
/* IRQ_HOSTSIG with a console tty: SIGINT and SIGQUIT to the foreground
 * group, SIGHUP and SIGTERM hang the terminal up. */
void tty_host_signals(unsigned long sigs);
/* Write n bytes of the kernel's own to the host (echoes); while output is
 * stopped they wait in echo_buf (what does not fit is dropped: Linux
 * drops the oldest instead). */
void tty_put_host(struct tty_struct *tty, const char *buf, size_t n);
/* Output stops (VSTOP, TCOOFF) and starts again (VSTART, TCOON, IXANY,
 * ISIG), the held echoes first (stop_tty, start_tty). */
void stop_tty(struct tty_struct *tty);
void start_tty(struct tty_struct *tty);
/* Write n bytes to the host, waiting for room: 0 or -Exxx. */
ssize_t tty_write_host(struct tty_struct *tty, struct file *f, const char *buf, size_t n);
bool tty_output_room(struct tty_struct *tty);	/* may a write go out now? */
/* Send sig to the tty's foreground group from the kernel (n_tty's ISIG). */
void tty_isig(struct tty_struct *tty, int sig);
/* Linux's __tty_check_change: may current, maybe in a background group,
 * read (SIGTTIN) or change (SIGTTOU) its controlling tty? 0, -EIO, or
 * -ERESTARTSYS with sig sent to its group. */
int tty_check_change(struct tty_struct *tty, int sig);
void tty_winch_interrupt(void);		/* IRQ_WINCH */
/* A session leader's exit or TIOCNOTTY: the session loses its tty. */
void disassociate_ctty(int on_exit);
void proc_clear_tty(struct task_struct *p);	/* setsid */

#endif
