/*
 * kernel/fs/fcntl.c: fcntl (Linux's fs/fcntl.c): F_DUPFD, F_DUPFD_CLOEXEC,
 * F_GETFD/F_SETFD, F_GETFL/F_SETFL, the record locks (F_GETLK, F_SETLK,
 * F_SETLKW and their F_OFD_ variants, kernel/fs/locks.c), a pipe's size
 * (F_SETPIPE_SZ, F_GETPIPE_SZ: kernel/fs/pipe.c), and signal-driven I/O:
 * the owner and signal of a file (F_SETOWN, F_SETOWN_EX, F_SETSIG and
 * their F_GET twins) and the fasync lists that send it
 * (include/umk/fasync.h), and leases (F_SETLEASE, F_GETLEASE:
 * kernel/fs/leases.c); any other command is EINVAL.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fasync.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

#include <umk/sched/signal.h>

#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_NOATIME)

static long f_dupfd(unsigned int from, struct file *f, bool cloexec)
{
	long ret;

	if (from >= rlimit(RLIMIT_NOFILE))
		return -EINVAL;
	ret = fd_install_lowest(current->files, get_file(f), from, cloexec);
	if (ret < 0)
		fput(f);
	return ret;
}

/* F_SETFL (Linux's setfl): O_NOATIME is for the file's owner; O_ASYNC
 * changes only through the file's fasync, which sets or clears it (a file
 * without one never has it). */
static int setfl(int fd, struct file *f, unsigned int arg)
{
	if ((arg & O_NOATIME) && !(f->f_flags & O_NOATIME) &&
	    (!f->f_inode || !inode_owner_or_capable(f->f_inode)))
		return -EPERM;
	if (((arg ^ f->f_flags) & O_ASYNC) && f->f_op->fasync) {
		int err = f->f_op->fasync(fd, f, (arg & O_ASYNC) != 0);

		if (err < 0)
			return err;
	}
	f->f_flags = (arg & SETFL_MASK) | (f->f_flags & ~SETFL_MASK);
	return 0;
}

/* ---- signal-driven I/O: a file's owner and signal ---- */

/* Is there a task that owner names (Linux's pid_task on the owner's
 * struct pid)? For a group, a process in it. */
static struct task_struct *owner_task(pid_t pid, enum pid_type type)
{
	if (!pid)
		return NULL;
	if (type == PIDTYPE_PGID)
		return pgrp_task(pid);
	return find_task_by_pid(pid);
}

/* Does pid name anything (Linux's find_vpid: a task's pid, or a group's
 * or a session's id, which is its leader's pid even after it left)? */
static bool pid_exists(pid_t pid)
{
	return find_task_by_pid(pid) || pgrp_task(pid);
}

static void __f_setown(struct file *filp, pid_t pid, enum pid_type type, bool force)
{
	struct fown_struct *fown = &filp->f_owner;

	if (!force && fown->pid)
		return;
	fown->pid = pid;
	fown->pid_type = type;
	if (pid) {
		fown->uid = current->cred.uid;
		fown->euid = current->cred.euid;
	}
}

int f_setown(struct file *filp, int who, bool force)
{
	enum pid_type type = PIDTYPE_TGID;

	if (who < 0) {
		if (who == -0x7fffffff - 1)	/* INT_MIN: no -who */
			return -EINVAL;
		type = PIDTYPE_PGID;
		who = -who;
	}
	if (who && !pid_exists(who))
		return -ESRCH;
	__f_setown(filp, who, type, force);
	return 0;
}

void f_delown(struct file *filp)
{
	__f_setown(filp, 0, PIDTYPE_TGID, true);
}

/* F_GETOWN: the owning process, a group as its negative id, 0 when none
 * or it is gone. */
static pid_t f_getown(struct file *filp)
{
	struct fown_struct *fown = &filp->f_owner;

	if (!owner_task(fown->pid, fown->pid_type))
		return 0;
	return fown->pid_type == PIDTYPE_PGID ? -fown->pid : fown->pid;
}

static int f_setown_ex(struct file *filp, struct f_owner_ex __user *uowner)
{
	struct f_owner_ex owner;
	enum pid_type type;

	if (copy_from_user(&owner, uowner, sizeof(owner)))
		return -EFAULT;
	switch (owner.type) {
	case F_OWNER_TID:
		type = PIDTYPE_PID;
		break;
	case F_OWNER_PID:
		type = PIDTYPE_TGID;
		break;
	case F_OWNER_PGRP:
		type = PIDTYPE_PGID;
		break;
	default:
		return -EINVAL;
	}
	if (owner.pid && (owner.pid < 0 || !pid_exists(owner.pid)))
		return -ESRCH;
	__f_setown(filp, owner.pid, type, true);
	return 0;
}

static int f_getown_ex(struct file *filp, struct f_owner_ex __user *uowner)
{
	struct fown_struct *fown = &filp->f_owner;
	static const int owner_type[] = {
		[PIDTYPE_PID] = F_OWNER_TID,
		[PIDTYPE_TGID] = F_OWNER_PID,
		[PIDTYPE_PGID] = F_OWNER_PGRP,
	};
	struct f_owner_ex owner = {
		.type = owner_type[fown->pid_type],
		.pid = owner_task(fown->pid, fown->pid_type) ? fown->pid : 0,
	};

	return copy_to_user(uowner, &owner, sizeof(owner)) ? -EFAULT : 0;
}

long fcntl_owner(struct file *filp, unsigned int cmd, unsigned long arg)
{
	int argi = (int)arg;

	switch (cmd) {
	case F_SETOWN:
		return f_setown(filp, argi, true);
	case F_GETOWN:
		return f_getown(filp);
	case F_SETOWN_EX:
		return f_setown_ex(filp, (struct f_owner_ex __user *)arg);
	case F_GETOWN_EX:
		return f_getown_ex(filp, (struct f_owner_ex __user *)arg);
	case F_SETSIG:
		if (!valid_signal((unsigned long)argi))
			return -EINVAL;
		filp->f_owner.signum = argi;
		return 0;
	case F_GETSIG:
		return filp->f_owner.signum;
	}
	return -EINVAL;
}

/* ---- sending SIGIO ---- */

/* poll's events for each POLL_* reason (Linux's band_table): si_band. */
static const unsigned int band_table[NSIGPOLL] = {
	[POLL_IN - 1] = POLLIN | POLLRDNORM,
	[POLL_OUT - 1] = POLLOUT | POLLWRNORM | POLLWRBAND,
	[POLL_MSG - 1] = POLLIN | POLLRDNORM | POLLMSG,
	[POLL_ERR - 1] = POLLERR,
	[POLL_PRI - 1] = POLLPRI | POLLRDBAND,
	[POLL_HUP - 1] = POLLHUP | POLLERR,
};

/* May the owner's setter signal p (Linux's sigio_perm)? Root, or one of
 * its real and effective ids is p's real or saved id: kill's rule, with
 * the ids the owner had when it was set. */
static bool sigio_perm(struct task_struct *p, const struct fown_struct *fown)
{
	const struct cred *cred = &p->cred;

	return fown->euid == 0 || fown->euid == cred->suid || fown->euid == cred->uid ||
	       fown->uid == cred->suid || fown->uid == cred->uid;
}

/* The signals whose si_codes mean something of their own: a POLL_* code
 * would be ambiguous there, so they get SI_SIGIO (sig_specific_sicodes),
 * but for SIGIO (SIGPOLL) itself. */
static bool sig_specific_sicodes(int sig)
{
	return sig == SIGILL || sig == SIGFPE || sig == SIGSEGV || sig == SIGBUS ||
	       sig == SIGTRAP || sig == SIGCHLD || sig == SIGSYS;
}

/* Linux's send_sigio_to_task: F_SETSIG's signal with si_fd and si_band,
 * or plain SIGIO when none was set or the signal could not be queued
 * (a real-time signal past RLIMIT_SIGPENDING). */
static void send_sigio_to_task(struct task_struct *p, const struct fown_struct *fown, int fd,
			       int reason, enum pid_type type)
{
	bool group = type != PIDTYPE_PID;
	int signum = fown->signum;
	kernel_siginfo_t si;

	if (!sigio_perm(p, fown))
		return;
	if (signum) {
		if (reason < POLL_IN || reason > NSIGPOLL)
			panic("send_sigio_to_task: reason %d", reason);
		memset(&si, 0, sizeof(si));
		si.si_signo = signum;
		si.si_code = sig_specific_sicodes(signum) ? SI_SIGIO : reason;
		si._sigpoll.band = band_table[reason - POLL_IN];
		si._sigpoll.fd = fd;
		if (!send_signal(signum, &si, p, group))
			return;
	}
	fill_kill_info(&si, SIGIO, SI_KERNEL);
	send_signal(SIGIO, &si, p, group);
}

/* Linux's send_sigurg_to_task: SIGURG as the kernel's own signal
 * (SEND_SIG_PRIV), whatever F_SETSIG says. */
static void send_sigurg_to_task(struct task_struct *p, const struct fown_struct *fown, int fd,
				int reason, enum pid_type type)
{
	kernel_siginfo_t si;

	if (!sigio_perm(p, fown))
		return;
	fill_kill_info(&si, SIGURG, SI_KERNEL);
	send_signal(SIGURG, &si, p, type != PIDTYPE_PID);
}

/* send(p, ...) for each task fown names: the thread, the process, or each
 * process of the group. 0 when there is no owner. */
static int signal_owner(struct fown_struct *fown, int fd, int band,
			void (*send)(struct task_struct *p, const struct fown_struct *fown, int fd,
				     int reason, enum pid_type type))
{
	struct task_struct *p, *n;

	if (!fown->pid)
		return 0;
	if (fown->pid_type != PIDTYPE_PGID) {
		p = find_task_by_pid(fown->pid);
		if (p && !p->exit_state)
			send(p, fown, fd, band, fown->pid_type);
		return 1;
	}
	list_for_each_entry_safe(p, n, &task_list, tasks) {
		if (thread_group_leader(p) && p != idle_task && !p->exit_state &&
		    p->signal->pgrp == fown->pid)
			send(p, fown, fd, band, PIDTYPE_PGID);
	}
	return 1;
}

void send_sigio(struct fown_struct *fown, int fd, int band)
{
	signal_owner(fown, fd, band, send_sigio_to_task);
}

int send_sigurg(struct fown_struct *fown)
{
	return signal_owner(fown, -1, POLL_PRI, send_sigurg_to_task);
}

/* ---- the fasync lists ---- */

int fasync_helper(int fd, struct file *filp, int on, struct fasync_struct **fapp)
{
	struct fasync_struct *fa, **fp;

	for (fp = fapp; (fa = *fp); fp = &fa->fa_next) {
		if (fa->fa_file != filp)
			continue;
		if (on) {
			fa->fa_fd = fd;
			return 0;
		}
		*fp = fa->fa_next;
		kfree(fa);
		filp->f_flags &= ~O_ASYNC;
		return 1;
	}
	if (!on)
		return 0;
	fa = kmalloc(sizeof(*fa));
	fa->fa_fd = fd;
	fa->fa_file = filp;
	fa->fa_next = *fapp;
	*fapp = fa;
	filp->f_flags |= O_ASYNC;
	return 1;
}

void kill_fasync(struct fasync_struct **fp, int sig, int band)
{
	for (struct fasync_struct *fa = *fp; fa; fa = fa->fa_next) {
		struct fown_struct *fown = &fa->fa_file->f_owner;

		/* SIGURG has a way of its own to reach an owner that set no
		 * signal. */
		if (!(sig == SIGURG && fown->signum == 0))
			send_sigio(fown, fa->fa_fd, band);
	}
}

long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct files_struct *files = current->files;
	struct file *f = fget_raw(fd);
	unsigned int argi = (unsigned int)arg;
	long ret;

	if (!f)
		return -EBADF;
	/* An O_PATH file takes only the commands on the fd itself (Linux's
	 * check_fcntl_cmd). */
	if ((f->f_flags & O_PATH) && cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC &&
	    cmd != F_GETFD && cmd != F_SETFD && cmd != F_GETFL) {
		fput(f);
		return -EBADF;
	}
	switch (cmd) {
	case F_DUPFD:
		ret = f_dupfd(argi, f, false);
		break;
	case F_DUPFD_CLOEXEC:
		ret = f_dupfd(argi, f, true);
		break;
	case F_GETFD:
		ret = get_close_on_exec(files, fd) ? FD_CLOEXEC : 0;
		break;
	case F_SETFD:
		set_close_on_exec(files, fd, argi & FD_CLOEXEC);
		ret = 0;
		break;
	case F_GETFL:
		ret = f->f_flags;
		break;
	case F_SETFL:
		ret = setfl(fd, f, argi);
		break;
	case F_GETLK:
	case F_OFD_GETLK:
		ret = fcntl_getlk(f, cmd, (struct flock __user *)arg);
		break;
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		ret = fcntl_setlk(fd, f, cmd, (struct flock __user *)arg);
		break;
	case F_SETOWN:
	case F_GETOWN:
	case F_SETOWN_EX:
	case F_GETOWN_EX:
	case F_SETSIG:
	case F_GETSIG:
		ret = fcntl_owner(f, cmd, arg);
		break;
	case F_SETLEASE:
		ret = fcntl_setlease(fd, f, argi);
		break;
	case F_GETLEASE:
		ret = fcntl_getlease(f);
		break;
	case F_SETPIPE_SZ:
	case F_GETPIPE_SZ:
		ret = pipe_fcntl(f, cmd, argi);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	fput(f);
	return ret;
}
