/* include/umk/fasync.h: signal-driven I/O (Linux's struct fown_struct and
 * fasync_struct of include/linux/fs.h, the code in kernel/fs/fcntl.c as
 * Linux's fs/fcntl.c). docs/design.md, "Signal-driven I/O and leases".
 *
 * A file's owner (F_SETOWN, F_SETOWN_EX) is a thread, a process or a
 * process group, with the ids of whoever set it and the signal to send
 * (F_SETSIG; 0 means SIGIO). A file with O_ASYNC sits on a list of its
 * object (a pipe's readers or writers, a socket's, an inotify group's,
 * the tty's): its f_op->fasync puts it there with fasync_helper when
 * F_SETFL or FIOASYNC turns O_ASYNC on, and takes it off when either
 * turns it off or the file's last reference goes (fput). When the object
 * becomes readable or writable it calls kill_fasync on its list, which
 * sends each file's owner its signal, if sigio_perm lets it.
 */
#ifndef UMK_FASYNC_H
#define UMK_FASYNC_H

#include <umk/types.h>

struct file;

/* Who an owner is (Linux's enum pid_type, the three fcntl can name). */
enum pid_type {
	PIDTYPE_PID,		/* one thread (F_OWNER_TID) */
	PIDTYPE_TGID,		/* a process (F_SETOWN's pid, F_OWNER_PID) */
	PIDTYPE_PGID,		/* a process group (-pgrp, F_OWNER_PGRP) */
};

/* A file's owner, in struct file (Linux allocates it on first use). umk
 * keeps the number, not a struct pid: an owner that exited is no owner
 * (F_GETOWN reads 0), but a new task given its number becomes one. */
struct fown_struct {
	pid_t pid;			/* 0: no owner */
	enum pid_type pid_type;
	uid_t uid, euid;		/* of the task that set the owner */
	int signum;			/* F_SETSIG's; 0: SIGIO */
};

/* One file on an object's list of O_ASYNC files (Linux's fasync_struct). */
struct fasync_struct {
	int fa_fd;			/* the fd it was set through: si_fd */
	struct file *fa_file;
	struct fasync_struct *fa_next;
};

/* Put filp on *fapp (on), or take it off (!on), setting or clearing
 * O_ASYNC in its f_flags to match: 1 when the list changed, 0 when not
 * (on again only updates the fd). What an f_op->fasync calls. */
int fasync_helper(int fd, struct file *filp, int on, struct fasync_struct **fapp);
/* The object of the list *fp is ready: band is POLL_IN (readable),
 * POLL_OUT (writable), POLL_HUP...; each file's owner gets its signal.
 * sig is SIGIO, or SIGURG for urgent data (sent only to owners that set
 * a signal). */
void kill_fasync(struct fasync_struct **fp, int sig, int band);
/* Send fown's signal for fd's file to its owner (a lease break too). */
void send_sigio(struct fown_struct *fown, int fd, int band);
/* Urgent data (a socket's MSG_OOB): SIGURG to the file's owner, with or
 * without O_ASYNC (Linux's send_sigurg). 0 when the file has no owner. */
int send_sigurg(struct fown_struct *fown);
/* F_SETOWN: who > 0 a process, who < 0 the group -who, 0 none; -ESRCH
 * when there is no such process or group. force: replace an owner (a
 * tty's fasync sets one only where there was none). */
int f_setown(struct file *filp, int who, bool force);
/* No owner any more (a lease's release). */
void f_delown(struct file *filp);
/* The fcntl commands of signal-driven I/O: F_SETOWN, F_GETOWN,
 * F_SETOWN_EX, F_GETOWN_EX, F_SETSIG, F_GETSIG. */
long fcntl_owner(struct file *filp, unsigned int cmd, unsigned long arg);

/* siginfo's si_code for signal-driven I/O (include/uapi/asm-generic/
 * siginfo.h): why the object woke, and the band poll would report. */
#define POLL_IN 1
#define POLL_OUT 2
#define POLL_MSG 3
#define POLL_ERR 4
#define POLL_PRI 5
#define POLL_HUP 6
#define NSIGPOLL 6
#define SI_SIGIO -5

#endif
