/*
 * kernel/fs/leases.c: file leases (fcntl F_SETLEASE, F_GETLEASE), after
 * the lease half of Linux's fs/locks.c. Interface (include/umk/filelock.h):
 * fcntl_setlease, fcntl_getlease, break_lease (open and truncate call
 * it), locks_remove_lease (a file's last close), leases_text
 * (/proc/locks), and fs.lease-break-time and fs.leases-enable
 * (kernel/fs/proc_sysctl.c).
 *
 * A lease is held through an open file of a regular file, by its owner
 * or a holder of CAP_LEASE: a read lease (F_RDLCK) while nobody has the
 * file open for writing, a write lease (F_WRLCK) while nobody else has it
 * open at all. An open that conflicts (any open against a write lease,
 * an open for writing or a truncate against a read lease) breaks it
 * (__break_lease): the lease is marked to go down (to F_RDLCK for a read
 * open of a write-leased file, else to F_UNLCK), its holder gets SIGIO or
 * F_SETSIG's signal (si_code POLL_MSG) through the lease's fasync list,
 * and the opener sleeps until the holder has done it by F_SETLEASE, or
 * closed the file, or fs.lease-break-time seconds have passed, when the
 * kernel does it for the holder (time_out_leases). O_NONBLOCK opens get
 * EWOULDBLOCK instead of sleeping; a signal ends the sleep with
 * -ERESTARTSYS, so the open restarts under SA_RESTART and is EINTR
 * without.
 *
 * Departures from Linux: the leases of every inode are on one list, and
 * a waiting opener is woken by any change of any lease and looks again
 * (Linux keeps them per inode and wakes the waiters of the lease that
 * changed); no delegations or layouts (NFS's), so only leases break.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fasync.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/timer.h>

#define FL_UNLOCK_PENDING 512	/* a break wants it gone */
#define FL_DOWNGRADE_PENDING 1024	/* a break wants it F_RDLCK */

int leases_enable = 1;		/* fs.leases-enable */
int lease_break_time = 45;	/* fs.lease-break-time, in seconds */

/* A lease (Linux's struct file_lease), or a waiting opener's request
 * (a breaker: no file). */
struct file_lease {
	struct list_head fl_list;	/* in file_leases, or lease_breakers */
	struct inode *fl_inode;
	struct file *fl_file;		/* its owner; NULL for a breaker */
	unsigned char fl_type;		/* F_RDLCK, F_WRLCK */
	unsigned int fl_flags;		/* FL_UNLOCK_PENDING, FL_DOWNGRADE_PENDING */
	pid_t fl_pid;			/* the tgid that took it */
	u64 fl_break_time;		/* ns (ktime_get) when the kernel unlocks */
	u64 fl_downgrade_time;		/* it, or downgrades it; 0: never */
	struct fasync_struct *fl_fasync;	/* the holder's fd: the break's signal */
};

static LIST_HEAD(file_leases);
static LIST_HEAD(lease_breakers);	/* openers waiting: /proc/locks */
static struct wait_queue_head lease_wait = { .head = LIST_HEAD_INIT(lease_wait.head) };

static bool lease_breaking(const struct file_lease *fl)
{
	return fl->fl_flags & (FL_UNLOCK_PENDING | FL_DOWNGRADE_PENDING);
}

/* What the lease is becoming: F_GETLEASE's answer and /proc/locks'. */
static int target_leasetype(const struct file_lease *fl)
{
	if (fl->fl_flags & FL_UNLOCK_PENDING)
		return F_UNLCK;
	if (fl->fl_flags & FL_DOWNGRADE_PENDING)
		return F_RDLCK;
	return fl->fl_type;
}

/* Either is a write lease (locks_conflict). */
static bool leases_conflict(const struct file_lease *lease, const struct file_lease *breaker)
{
	return lease->fl_type == F_WRLCK || breaker->fl_type == F_WRLCK;
}

static bool any_leases_conflict(struct inode *inode, const struct file_lease *breaker)
{
	struct file_lease *fl;

	list_for_each_entry(fl, &file_leases, fl_list)
		if (fl->fl_inode == inode && leases_conflict(fl, breaker))
			return true;
	return false;
}

static bool inode_has_leases(struct inode *inode)
{
	struct file_lease *fl;

	list_for_each_entry(fl, &file_leases, fl_list)
		if (fl->fl_inode == inode)
			return true;
	return false;
}

/* Change fl to arg (Linux's lease_modify): its pending marks go as far as
 * arg answers them, waiting openers look again, and F_UNLCK frees it with
 * the file's owner and signal. */
static void lease_modify(struct file_lease *fl, int arg)
{
	struct file *filp = fl->fl_file;

	fl->fl_type = (unsigned char)arg;
	if (arg == F_UNLCK)
		fl->fl_flags &= ~FL_UNLOCK_PENDING;
	fl->fl_flags &= ~FL_DOWNGRADE_PENDING;
	wake_up(&lease_wait);
	if (arg != F_UNLCK)
		return;
	f_delown(filp);
	filp->f_owner.signum = 0;
	fasync_helper(0, filp, 0, &fl->fl_fasync);
	list_del_init(&fl->fl_list);
	kfree(fl);
}

static bool past_time(u64 then)
{
	return then && ktime_get() > then;	/* 0: never */
}

/* The breaks whose time has come, done for their holders. */
static void time_out_leases(struct inode *inode)
{
	struct file_lease *fl, *tmp;

	list_for_each_entry_safe(fl, tmp, &file_leases, fl_list) {
		if (fl->fl_inode != inode)
			continue;
		if (past_time(fl->fl_downgrade_time))
			lease_modify(fl, F_RDLCK);
		if (past_time(fl->fl_break_time))
			lease_modify(fl, F_UNLCK);
	}
}

/* The earliest time a conflicting lease of inode is due to time out, or 0. */
static u64 next_timeout(struct inode *inode, const struct file_lease *breaker)
{
	struct file_lease *fl;
	u64 when = 0;

	list_for_each_entry(fl, &file_leases, fl_list) {
		if (fl->fl_inode != inode || !leases_conflict(fl, breaker))
			continue;
		for (int i = 0; i < 2; i++) {
			u64 t = i ? fl->fl_break_time : fl->fl_downgrade_time;

			if (t && (!when || t < when))
				when = t;
		}
	}
	return when;
}

/* Sleep until a lease changes, until deadline (0: none), or a signal:
 * 0, or -ERESTARTSYS. */
static int lease_sleep(u64 deadline)
{
	struct hrtimer_sleeper to = { 0 };
	DEFINE_WAIT(w);
	int ret = 0;

	prepare_to_wait(&lease_wait, &w, TASK_INTERRUPTIBLE);
	if (signal_pending(current)) {
		ret = -ERESTARTSYS;
	} else if (deadline) {
		hrtimer_sleeper_start(&to, deadline, "lease");
		if (to.task)
			schedule();
		hrtimer_sleeper_cancel(&to);
	} else {
		schedule();
	}
	finish_wait(&lease_wait, &w);
	if (!ret && signal_pending(current))
		ret = -ERESTARTSYS;
	return ret;
}

int break_lease(struct inode *inode, unsigned int mode)
{
	bool want_write = (mode & O_ACCMODE) != O_RDONLY;
	struct file_lease breaker = {
		.fl_inode = inode,
		.fl_type = want_write ? F_WRLCK : F_RDLCK,
		.fl_pid = current->tgid,
	};
	struct file_lease *fl;
	u64 break_time = 0;
	int err = 0;

	if (list_empty(&file_leases))
		return 0;
	time_out_leases(inode);
	if (!any_leases_conflict(inode, &breaker))
		return 0;
	if (lease_break_time > 0)
		break_time = ktime_get() + (u64)lease_break_time * NSEC_PER_SEC;
	list_for_each_entry(fl, &file_leases, fl_list) {
		if (fl->fl_inode != inode || !leases_conflict(fl, &breaker))
			continue;
		if (want_write) {
			if (fl->fl_flags & FL_UNLOCK_PENDING)
				continue;
			fl->fl_flags |= FL_UNLOCK_PENDING;
			fl->fl_break_time = break_time;
		} else {
			if (lease_breaking(fl))
				continue;
			fl->fl_flags |= FL_DOWNGRADE_PENDING;
			fl->fl_downgrade_time = break_time;
		}
		/* lease_break_callback: the holder's signal */
		kill_fasync(&fl->fl_fasync, SIGIO, POLL_MSG);
	}
	if (!inode_has_leases(inode))
		return 0;
	if (mode & O_NONBLOCK)
		return -EWOULDBLOCK;
	list_add_tail(&breaker.fl_list, &lease_breakers);
	for (;;) {
		time_out_leases(inode);
		if (!any_leases_conflict(inode, &breaker))
			break;
		err = lease_sleep(next_timeout(inode, &breaker));
		if (err)
			break;
	}
	list_del_init(&breaker.fl_list);
	return err;
}

/* F_SETLEASE F_RDLCK or F_WRLCK's check (check_conflicting_open): no
 * writer for a read lease; for a write lease, no open file of the inode
 * but filp itself. */
static int check_conflicting_open(struct file *filp, int arg)
{
	struct inode *inode = filp->f_inode;
	int self_wcount = 0, self_rcount = 0;

	if (arg == F_RDLCK)
		return inode->i_writecount > 0 ? -EAGAIN : 0;
	if (file_writable(filp))
		self_wcount = 1;
	else if (file_readable(filp))
		self_rcount = 1;
	if (inode->i_writecount != self_wcount || inode->i_readcount != self_rcount)
		return -EAGAIN;
	return 0;
}

/* Linux's generic_add_lease with lease_setup: a new lease, or a change of
 * filp's own. The holder's fd goes on the lease's fasync list, and the
 * file gets current as its owner unless it has one. */
static int generic_add_lease(unsigned int fd, struct file *filp, int arg)
{
	struct inode *inode = filp->f_inode;
	struct file_lease *fl, *my_fl = NULL;
	int err;

	time_out_leases(inode);
	err = check_conflicting_open(filp, arg);
	if (err)
		return err;
	list_for_each_entry(fl, &file_leases, fl_list) {
		if (fl->fl_inode != inode)
			continue;
		if (fl->fl_file == filp) {
			my_fl = fl;
			continue;
		}
		/* no write lease beside another, no lease beside one that
		 * is being taken away */
		if (arg == F_WRLCK || (fl->fl_flags & FL_UNLOCK_PENDING))
			return -EAGAIN;
	}
	if (my_fl) {
		lease_modify(my_fl, arg);
		fl = my_fl;
	} else {
		if (!leases_enable)
			return -EINVAL;
		fl = kmalloc(sizeof(*fl));
		fl->fl_inode = inode;
		fl->fl_file = filp;
		fl->fl_type = (unsigned char)arg;
		fl->fl_pid = current->tgid;
		list_add_tail(&fl->fl_list, &file_leases);
	}
	fasync_helper((int)fd, filp, 1, &fl->fl_fasync);
	if (!filp->f_owner.pid)
		f_setown(filp, current->tgid, false);
	return 0;
}

static int generic_delete_lease(struct file *filp)
{
	struct file_lease *fl;

	list_for_each_entry(fl, &file_leases, fl_list) {
		if (fl->fl_file == filp) {
			lease_modify(fl, F_UNLCK);
			return 0;
		}
	}
	return -EAGAIN;
}

long fcntl_setlease(unsigned int fd, struct file *filp, int arg)
{
	struct inode *inode = filp->f_inode;

	/* vfs_setlease: the file's owner or CAP_LEASE, a regular file */
	if (!inode)
		return -EINVAL;
	if (inode->i_uid != current->cred.fsuid && !capable(CAP_LEASE))
		return -EACCES;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	switch (arg) {
	case F_UNLCK:
		return generic_delete_lease(filp);
	case F_RDLCK:
	case F_WRLCK:
		return generic_add_lease(fd, filp, arg);
	}
	return -EINVAL;
}

int fcntl_getlease(struct file *filp)
{
	struct file_lease *fl;

	if (!filp->f_inode)
		return F_UNLCK;
	time_out_leases(filp->f_inode);
	list_for_each_entry(fl, &file_leases, fl_list)
		if (fl->fl_file == filp)
			return target_leasetype(fl);
	return F_UNLCK;
}

void locks_remove_lease(struct file *filp)
{
	struct file_lease *fl, *tmp;

	list_for_each_entry_safe(fl, tmp, &file_leases, fl_list)
		if (fl->fl_file == filp)
			lease_modify(fl, F_UNLCK);
}

/* /proc/locks: a line per lease, each followed by the openers waiting
 * for its inode ("-> LEASE  BREAKER", shown with no file as Linux shows
 * them); id counts on from the locks'. */
size_t leases_text(char *buf, size_t n, int *id)
{
	struct file_lease *fl, *w;
	struct inode *shown = NULL;
	size_t len = 0;

	list_for_each_entry(fl, &file_leases, fl_list) {
		++*id;
		len += lock_status_line(buf + len, n - len, *id, "",
					lease_breaking(fl) ? "LEASE  BREAKING  " : "LEASE  ACTIVE    ",
					target_leasetype(fl), fl->fl_pid, fl->fl_file, "0 EOF");
		if (fl->fl_inode == shown)
			continue;	/* its waiters are under the first lease */
		shown = fl->fl_inode;
		list_for_each_entry(w, &lease_breakers, fl_list)
			if (w->fl_inode == fl->fl_inode)
				len += lock_status_line(buf + len, n - len, *id, "-> ",
							"LEASE  BREAKER   ", w->fl_type, w->fl_pid,
							NULL, "0 EOF");
	}
	return len;
}
