/*
 * kernel/fs/signalfd.c: signalfd, pending signals read as a file (Linux's
 * fs/signalfd.c). Interface: sys_signalfd, sys_signalfd4, the file's
 * operations (read and poll through f_op), and for kernel/signal/ and
 * kernel/exit.c signalfd_notify (include/umk/sched/signal.h) and
 * signalfd_cleanup.
 *
 * A signalfd holds a set of signals, never SIGKILL or SIGSTOP. A read
 * dequeues the reader's pending signals of that set, the thread's first,
 * then the process's (dequeue_signal, as get_signal does), and returns a
 * struct signalfd_siginfo for each, as many as fit; it waits while none is
 * pending. The file names no task: whoever reads or polls it sees its own
 * signals, so a child that inherits it across fork reads the child's, and
 * it stays open and working across exec (unless close-on-exec). A program
 * blocks the signals it reads this way, or their handlers or default
 * actions take them first, as on Linux.
 *
 * Readiness: POLLIN while a signal of the set is pending for the poller.
 * The wait queue is the handlers' (sighand->signalfd_wqh): send_signal
 * wakes it through signalfd_notify whenever a signal becomes pending for a
 * task that uses them, whichever thread it is for and whether or not it is
 * blocked. A blocking read sleeps there; a signal outside the set that is
 * not blocked ends the sleep with -ERESTARTSYS (SA_RESTART restarts it).
 *
 * /proc/PID/fdinfo shows the set ("sigmask:"), as Linux's.
 *
 * Departures from Linux: lseek is -ESPIPE (Linux's noop_llseek returns 0).
 * umk has no SA_IMMUTABLE handlers, which Linux's refine_sigmask leaves
 * out of the set.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/signalfd.h>

#include <umk/sched/signal.h>

struct signalfd_ctx {
	/* The signals the fd does NOT read, as Linux keeps it: the mask of
	 * signals dequeue_signal is to skip. */
	sigset_t sigmask;
};

void signalfd_cleanup(struct sighand_struct *sighand)
{
	struct wait_queue_entry *w, *next;

	/* Only an epoll can still be waiting: one whose signalfd was polled
	 * by a task of these handlers (a task that reads or polls is
	 * running, so it still holds them). Wake it (Linux's
	 * wake_up_pollfree), then take every entry off, so that its own
	 * remove_wait_queue later finds an entry off any queue. */
	wake_up_poll(&sighand->signalfd_wqh, POLLHUP);
	list_for_each_entry_safe(w, next, &sighand->signalfd_wqh.head, entry)
		list_del_init(&w->entry);
}

static void signalfd_release(struct file *f)
{
	kfree(f->private_data);
}

/* A signal of the set pending for current, thread- or process-directed
 * (Linux's next_signal on both lists). */
static bool signalfd_pending(const struct signalfd_ctx *ctx)
{
	unsigned long pending = current->pending.signal.sig |
				current->signal->shared_pending.signal.sig;

	return pending & ~ctx->sigmask.sig;
}

static unsigned int signalfd_poll(struct file *f, poll_table *pt)
{
	struct signalfd_ctx *ctx = f->private_data;

	poll_wait(f, &current->sighand->signalfd_wqh, pt);
	return signalfd_pending(ctx) ? POLLIN : 0;
}

/* ---- what a read returns ---- */

/* The members of siginfo's union as Linux lays them out on x86-64 (its
 * include/uapi/asm-generic/siginfo.h), at offset 16 of the 128 bytes:
 * which one a siginfo holds depends on its signal and code
 * (siginfo_layout). */
union siginfo_fields {
	struct {			/* kill, tkill */
		s32 pid;
		u32 uid;
	} kill;
	struct {			/* POSIX timers */
		s32 tid;
		s32 overrun;
		u64 sigval;
	} timer;
	struct {			/* sigqueue, real-time signals */
		s32 pid;
		u32 uid;
		u64 sigval;
	} rt;
	struct {			/* SIGCHLD */
		s32 pid;
		u32 uid;
		s32 status;
		s64 utime;
		s64 stime;
	} chld;
	struct {			/* SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP */
		u64 addr;
		s16 addr_lsb;		/* BUS_MCEERR_AR, BUS_MCEERR_AO */
	} fault;
	struct {			/* SIGPOLL */
		s64 band;
		s32 fd;
	} poll;
	struct {			/* SIGSYS */
		u64 call_addr;
		s32 syscall;
		u32 arch;
	} sys;
};

enum siginfo_layout {
	SIL_KILL,
	SIL_TIMER,
	SIL_POLL,
	SIL_FAULT,
	SIL_FAULT_MCEERR,
	SIL_CHLD,
	SIL_RT,
	SIL_SYS,
};

/* si_code values siginfo_layout tells apart (Linux's
 * include/uapi/asm-generic/siginfo.h): the number of codes each signal
 * has, and the codes with a layout of their own. */
#define SI_SIGIO -5
#define NSIGILL 11
#define NSIGFPE 15
#define NSIGSEGV 10
#define NSIGBUS 5
#define NSIGTRAP 6
#define NSIGCHLD 6
#define NSIGPOLL 6
#define NSIGSYS 2
#define BUS_MCEERR_AR 4
#define BUS_MCEERR_AO 5

static const struct {
	int limit;
	enum siginfo_layout layout;
} sig_sicodes[] = {
	[SIGILL] = { NSIGILL, SIL_FAULT },   [SIGFPE] = { NSIGFPE, SIL_FAULT },
	[SIGSEGV] = { NSIGSEGV, SIL_FAULT }, [SIGBUS] = { NSIGBUS, SIL_FAULT },
	[SIGTRAP] = { NSIGTRAP, SIL_FAULT }, [SIGCHLD] = { NSIGCHLD, SIL_CHLD },
	[SIGIO] = { NSIGPOLL, SIL_POLL },    [SIGSYS] = { NSIGSYS, SIL_SYS },
};

/* Which member of the union a siginfo of sig and si_code holds (Linux's
 * siginfo_layout in kernel/signal.c, for x86-64: its bound-, protection-
 * key- and perf-fault layouts read as SIL_FAULT does here, and the trap
 * number is sparc's and alpha's, so ssi_trapno stays 0). */
static enum siginfo_layout siginfo_layout(unsigned int sig, int si_code)
{
	enum siginfo_layout layout = SIL_KILL;

	if (si_code > SI_USER && si_code < SI_KERNEL) {
		if (sig < ARRAY_SIZE(sig_sicodes) && si_code <= sig_sicodes[sig].limit) {
			layout = sig_sicodes[sig].layout;
			if (sig == SIGBUS && si_code >= BUS_MCEERR_AR && si_code <= BUS_MCEERR_AO)
				layout = SIL_FAULT_MCEERR;
		} else if (si_code <= NSIGPOLL) {
			layout = SIL_POLL;
		}
	} else {
		if (si_code == SI_TIMER)
			layout = SIL_TIMER;
		else if (si_code == SI_SIGIO)
			layout = SIL_POLL;
		else if (si_code < 0)
			layout = SIL_RT;
	}
	return layout;
}

/* Fill a signalfd_siginfo from a dequeued siginfo, as Linux's
 * signalfd_copyinfo does, and copy it out: its size, or -EFAULT. */
static ssize_t signalfd_copyinfo(struct iov_iter *to, const kernel_siginfo_t *kinfo)
{
	struct signalfd_siginfo new;
	union siginfo_fields u;

	_Static_assert(sizeof(struct signalfd_siginfo) == 128, "signalfd_siginfo is 128 bytes");
	_Static_assert(offsetof(kernel_siginfo_t, _pad) == 16, "siginfo's union is at 16");
	_Static_assert(sizeof(u) <= sizeof(kinfo->_pad), "the union fits siginfo");
	memcpy(&u, kinfo->_pad, sizeof(u));
	memset(&new, 0, sizeof(new));
	new.ssi_signo = kinfo->si_signo;
	new.ssi_errno = kinfo->si_errno;
	new.ssi_code = kinfo->si_code;
	switch (siginfo_layout(kinfo->si_signo, kinfo->si_code)) {
	case SIL_KILL:
		new.ssi_pid = u.kill.pid;
		new.ssi_uid = u.kill.uid;
		break;
	case SIL_TIMER:
		new.ssi_tid = u.timer.tid;
		new.ssi_overrun = u.timer.overrun;
		new.ssi_ptr = u.timer.sigval;
		new.ssi_int = (s32)u.timer.sigval;
		break;
	case SIL_POLL:
		new.ssi_band = u.poll.band;
		new.ssi_fd = u.poll.fd;
		break;
	case SIL_FAULT:
		new.ssi_addr = u.fault.addr;
		break;
	case SIL_FAULT_MCEERR:
		new.ssi_addr = u.fault.addr;
		new.ssi_addr_lsb = u.fault.addr_lsb;
		break;
	case SIL_CHLD:
		new.ssi_pid = u.chld.pid;
		new.ssi_uid = u.chld.uid;
		new.ssi_status = u.chld.status;
		new.ssi_utime = u.chld.utime;
		new.ssi_stime = u.chld.stime;
		break;
	case SIL_RT:
		/* sigqueue's too */
		new.ssi_pid = u.rt.pid;
		new.ssi_uid = u.rt.uid;
		new.ssi_ptr = u.rt.sigval;
		new.ssi_int = (s32)u.rt.sigval;
		break;
	case SIL_SYS:
		new.ssi_call_addr = u.sys.call_addr;
		new.ssi_syscall = u.sys.syscall;
		new.ssi_arch = u.sys.arch;
		break;
	}
	if (copy_to_iter(&new, sizeof(new), to) != sizeof(new))
		return -EFAULT;
	return sizeof(new);
}

/* Dequeue one signal of the set for current into info: its number, or
 * -EAGAIN (nonblock), or -ERESTARTSYS when a signal outside the set is
 * to be handled first. */
static int signalfd_dequeue(struct signalfd_ctx *ctx, kernel_siginfo_t *info, bool nonblock)
{
	struct wait_queue_head *wqh = &current->sighand->signalfd_wqh;
	DEFINE_WAIT(wait);
	int ret = dequeue_signal(&ctx->sigmask, info);

	if (ret)
		return ret;
	if (nonblock)
		return -EAGAIN;
	for (;;) {
		prepare_to_wait(wqh, &wait, TASK_INTERRUPTIBLE);
		ret = dequeue_signal(&ctx->sigmask, info);
		if (ret)
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(wqh, &wait);
	return ret;
}

/* As many siginfos as fit, waiting only for the first. A copy that faults
 * loses its signal, as in Linux. */
static ssize_t signalfd_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *f = iocb->ki_filp;
	struct signalfd_ctx *ctx = f->private_data;
	size_t count = iov_iter_count(to) / sizeof(struct signalfd_siginfo);
	bool nonblock = f->f_flags & O_NONBLOCK;
	ssize_t ret, total = 0;
	kernel_siginfo_t info;

	if (!count)
		return -EINVAL;
	do {
		ret = signalfd_dequeue(ctx, &info, nonblock);
		if (ret <= 0)
			break;
		ret = signalfd_copyinfo(to, &info);
		if (ret < 0)
			break;
		total += ret;
		nonblock = true;
	} while (--count);
	return total ? total : ret;
}

/* The set the fd reads, as 16 hex digits (Linux's render_sigset_t). */
static int signalfd_show_fdinfo(struct file *f, char *buf, size_t size)
{
	struct signalfd_ctx *ctx = f->private_data;

	return ksnprintf(buf, size, "sigmask:\t%016lx\n", ~ctx->sigmask.sig);
}

static const struct file_operations signalfd_fops = {
	.name = "signalfd",
	.read_iter = signalfd_read,
	.poll = signalfd_poll,
	.show_fdinfo = signalfd_show_fdinfo,
	.fstat = anon_inode_fstat,
	.release = signalfd_release,
};

/* A new signalfd for mask (ufd -1), or a new mask for the signalfd ufd. */
static long do_signalfd4(int ufd, sigset_t *mask, int flags)
{
	struct signalfd_ctx *ctx;
	struct file *f;

	if (flags & ~(SFD_CLOEXEC | SFD_NONBLOCK))
		return -EINVAL;
	mask->sig &= ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	mask->sig = ~mask->sig;

	if (ufd == -1) {
		ctx = kmalloc(sizeof(*ctx));
		ctx->sigmask = *mask;
		return anon_inode_getfd(&signalfd_fops, ctx, flags);
	}
	f = fget(ufd);
	if (!f)
		return -EBADF;
	if (f->f_op != &signalfd_fops) {
		fput(f);
		return -EINVAL;
	}
	ctx = f->private_data;
	ctx->sigmask = *mask;
	fput(f);
	/* Pollers and readers look again with the new set. */
	wake_up(&current->sighand->signalfd_wqh);
	return ufd;
}

long sys_signalfd4(int ufd, sigset_t __user *user_mask, size_t sizemask, int flags)
{
	sigset_t mask;

	if (sizemask != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, user_mask, sizeof(mask)))
		return -EFAULT;
	return do_signalfd4(ufd, &mask, flags);
}

long sys_signalfd(int ufd, sigset_t __user *user_mask, size_t sizemask)
{
	return sys_signalfd4(ufd, user_mask, sizemask, 0);
}
