/*
 * kernel/fs/locks.c: file locks, after Linux's fs/locks.c. Interface
 * (include/umk/filelock.h): sys_flock, fcntl's lock commands (fcntl_getlk,
 * fcntl_setlk), the release hooks of close and fput, and /proc/locks
 * (whose lease lines kernel/fs/leases.c adds).
 *
 * Three kinds of advisory lock, Linux's:
 *
 *   FLOCK   flock(2): the whole file, shared (F_RDLCK) or exclusive
 *           (F_WRLCK), owned by the open file: shared by the fds dup and
 *           fork make, gone at the file's last close
 *   POSIX   fcntl F_SETLK(W): a byte range, owned by the process's fd
 *           table (files_struct): not inherited by fork, gone when the
 *           process closes ANY fd of the file (locks_remove_posix), and at
 *           exit, which closes them all
 *   OFDLCK  fcntl F_OFD_SETLK(W): a byte range owned by the open file
 *
 * A locked file's locks hang on a file_lock_context, one per inode (Linux's
 * i_flctx), found in a short list by its key: the inode, or for a file
 * without one (a pipe, an eventfd) what its ends share (private_data).
 * flock locks and record locks never conflict with each other. Record
 * locks of one owner never overlap: setting one splits, trims or merges the
 * owner's others (posix_lock_inode), and the list is kept sorted by start.
 *
 * A request that must wait (F_SETLKW, flock without LOCK_NB) goes on
 * blocked_list naming the lock it waits for (fl_blocker), and sleeps on
 * the context's queue; any change of the context's locks wakes every
 * waiter there, which tries again (Linux wakes only those blocked by the
 * lock that changed; a waiter woken for nothing sleeps again). A signal
 * ends the wait with -ERESTARTSYS, so F_SETLKW, F_OFD_SETLKW and flock
 * restart under SA_RESTART, as Linux's. Before a POSIX request waits,
 * posix_locks_deadlock follows the chain "the owner of the lock in the way
 * waits for a lock whose owner waits for..." and answers -EDEADLK when it
 * comes back to the requester.
 *
 * No locks of its own: kernel code is not preempted, and only the sleep
 * lets other tasks in; the loops look again after it.
 */
#include <umk/errno.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

#define OFFSET_MAX INT64_MAX
#define MAX_DEADLK_ITERATIONS 10

#define FL_POSIX 1
#define FL_FLOCK 2
#define FL_SLEEP 128
#define FL_OFDLCK 1024

struct file_lock_context {
	struct list_head flc_list;	/* in file_lock_contexts */
	void *flc_key;			/* the inode (lock_key) */
	struct list_head flc_flock;	/* FLOCK locks */
	struct list_head flc_posix;	/* POSIX and OFD locks, by fl_start */
	struct wait_queue_head flc_wait;	/* waiters: a lock changed */
	int flc_waiters;		/* requests on blocked_list for it */
};

struct file_lock {
	struct list_head fl_list;	/* in flc_flock/flc_posix, or blocked_list */
	void *fl_owner;			/* files_struct (POSIX), struct file */
	unsigned int fl_flags;		/* FL_POSIX, FL_FLOCK, FL_OFDLCK, FL_SLEEP */
	unsigned char fl_type;		/* F_RDLCK, F_WRLCK, F_UNLCK */
	pid_t fl_pid;			/* the tgid that took it */
	struct file *fl_file;		/* the file it was taken through */
	s64 fl_start, fl_end;		/* inclusive; fl_end OFFSET_MAX: to EOF */
	/* A waiting request: */
	struct file_lock_context *fl_ctx;
	struct file_lock *fl_blocker;	/* the lock in its way; NULL: try again */
};

static LIST_HEAD(file_lock_contexts);
static LIST_HEAD(blocked_list);

static bool is_posix(const struct file_lock *fl)
{
	return (fl->fl_flags & (FL_POSIX | FL_OFDLCK)) == FL_POSIX;
}

static void *lock_key(struct file *f)
{
	if (f->f_inode)
		return f->f_inode;
	return f->private_data ? f->private_data : f;
}

static struct file_lock_context *find_lock_context(void *key)
{
	struct file_lock_context *ctx;

	list_for_each_entry(ctx, &file_lock_contexts, flc_list)
		if (ctx->flc_key == key)
			return ctx;
	return NULL;
}

/* The context of f's file, made on first need (Linux's
 * locks_get_lock_context). */
static struct file_lock_context *locks_get_lock_context(struct file *f)
{
	void *key = lock_key(f);
	struct file_lock_context *ctx = find_lock_context(key);

	if (ctx)
		return ctx;
	ctx = kmalloc(sizeof(*ctx));
	ctx->flc_key = key;
	INIT_LIST_HEAD(&ctx->flc_flock);
	INIT_LIST_HEAD(&ctx->flc_posix);
	init_waitqueue_head(&ctx->flc_wait);
	list_add_tail(&ctx->flc_list, &file_lock_contexts);
	return ctx;
}

/* Free ctx once it holds no lock and nobody waits on it. */
static void locks_put_lock_context(struct file_lock_context *ctx)
{
	if (list_empty(&ctx->flc_flock) && list_empty(&ctx->flc_posix) && !ctx->flc_waiters) {
		list_del_init(&ctx->flc_list);
		kfree(ctx);
	}
}

/* ctx's locks changed: every waiter there looks again. */
static void locks_wake_up_blocks(struct file_lock_context *ctx)
{
	struct file_lock *w;

	if (!ctx->flc_waiters)
		return;
	list_for_each_entry(w, &blocked_list, fl_list)
		if (w->fl_ctx == ctx)
			w->fl_blocker = NULL;
	wake_up(&ctx->flc_wait);
}

static struct file_lock *locks_dup_lock(const struct file_lock *fl)
{
	struct file_lock *new = kmalloc(sizeof(*new));

	*new = *fl;
	new->fl_flags &= ~FL_SLEEP;
	new->fl_ctx = NULL;
	new->fl_blocker = NULL;
	INIT_LIST_HEAD(&new->fl_list);
	return new;
}

static void locks_delete_lock(struct file_lock *fl)
{
	list_del_init(&fl->fl_list);
	kfree(fl);
}

/* Insert fl in ctx's record locks, ordered by start. */
static void locks_insert_posix(struct file_lock_context *ctx, struct file_lock *fl)
{
	struct file_lock *pos;

	list_for_each_entry(pos, &ctx->flc_posix, fl_list)
		if (pos->fl_start > fl->fl_start)
			break;
	list_add_tail(&fl->fl_list, &pos->fl_list);
}

/* ---- conflicts and deadlocks ---- */

static bool posix_same_owner(const struct file_lock *a, const struct file_lock *b)
{
	return a->fl_owner == b->fl_owner;
}

static bool locks_overlap(const struct file_lock *a, const struct file_lock *b)
{
	return a->fl_end >= b->fl_start && b->fl_end >= a->fl_start;
}

/* Either is a write lock (Linux's locks_conflict). */
static bool locks_conflict(const struct file_lock *caller, const struct file_lock *sys)
{
	return caller->fl_type == F_WRLCK || sys->fl_type == F_WRLCK;
}

static bool posix_locks_conflict(const struct file_lock *caller, const struct file_lock *sys)
{
	if (posix_same_owner(caller, sys) || !locks_overlap(caller, sys))
		return false;
	return locks_conflict(caller, sys);
}

/* F_GETLK's test (Linux's posix_test_locks_conflict): an F_UNLCK request
 * (F_OFD_GETLK takes one) finds the owner's own locks over the range. */
static bool posix_test_locks_conflict(const struct file_lock *caller, const struct file_lock *sys)
{
	if (caller->fl_type == F_UNLCK)
		return posix_same_owner(caller, sys) && locks_overlap(caller, sys);
	return posix_locks_conflict(caller, sys);
}

/* Two flock locks of the same open file never conflict. */
static bool flock_locks_conflict(const struct file_lock *caller, const struct file_lock *sys)
{
	if (caller->fl_file == sys->fl_file)
		return false;
	return locks_conflict(caller, sys);
}

/* The lock a POSIX owner's waiting request waits for, if it waits. */
static struct file_lock *what_owner_is_waiting_for(const struct file_lock *block_fl)
{
	struct file_lock *w;

	list_for_each_entry(w, &blocked_list, fl_list)
		if (is_posix(w) && posix_same_owner(w, block_fl))
			return w->fl_blocker;
	return NULL;
}

/* Would caller_fl, waiting for block_fl, close a cycle of POSIX owners
 * each waiting for the next? (Linux's posix_locks_deadlock; OFD locks are
 * never checked: their owner is no process.) */
static bool posix_locks_deadlock(const struct file_lock *caller_fl, const struct file_lock *block_fl)
{
	int i = 0;

	if (!is_posix(caller_fl))
		return false;
	while ((block_fl = what_owner_is_waiting_for(block_fl))) {
		if (i++ > MAX_DEADLK_ITERATIONS)
			return false;
		if (posix_same_owner(caller_fl, block_fl))
			return true;
	}
	return false;
}

/* ---- setting locks ---- */

/* 1: request must wait for *blocker; 0 or -errno: done. */
#define FILE_LOCK_DEFERRED 1

/* Linux's flock_lock_inode. A change of type drops the old lock first,
 * as Linux does: a conversion that must wait holds nothing meanwhile. */
static int flock_lock_inode(struct file_lock_context *ctx, struct file_lock *request,
			    struct file_lock **blocker)
{
	struct file_lock *fl;

	list_for_each_entry(fl, &ctx->flc_flock, fl_list) {
		if (request->fl_file != fl->fl_file)
			continue;
		if (request->fl_type == fl->fl_type)
			return 0;
		locks_delete_lock(fl);
		locks_wake_up_blocks(ctx);
		break;
	}
	if (request->fl_type == F_UNLCK)
		return 0;
	list_for_each_entry(fl, &ctx->flc_flock, fl_list) {
		if (!flock_locks_conflict(request, fl))
			continue;
		if (!(request->fl_flags & FL_SLEEP))
			return -EAGAIN;
		*blocker = fl;
		return FILE_LOCK_DEFERRED;
	}
	list_add_tail(&locks_dup_lock(request)->fl_list, &ctx->flc_flock);
	return 0;
}

/* Linux's posix_lock_inode: refuse or defer on a conflict, else give the
 * owner request's range with request's type (F_UNLCK: none), merging its
 * locks of the same type that overlap or touch the range, and trimming or
 * splitting those of the other type that overlap it. */
static int posix_lock_inode(struct file_lock_context *ctx, struct file_lock *request,
			    struct file_lock **blocker)
{
	struct file_lock req = *request, *fl, *tmp;
	bool changed = false;

	if (req.fl_type != F_UNLCK) {
		list_for_each_entry(fl, &ctx->flc_posix, fl_list) {
			if (!posix_locks_conflict(&req, fl))
				continue;
			if (!(req.fl_flags & FL_SLEEP))
				return -EAGAIN;
			if (posix_locks_deadlock(&req, fl))
				return -EDEADLK;
			*blocker = fl;
			return FILE_LOCK_DEFERRED;
		}
	}
	list_for_each_entry_safe(fl, tmp, &ctx->flc_posix, fl_list) {
		if (!posix_same_owner(&req, fl))
			continue;
		if (req.fl_type == fl->fl_type) {
			/* "start - 1", not "end + 1": end may be OFFSET_MAX */
			if (fl->fl_end < req.fl_start - 1 || fl->fl_start - 1 > req.fl_end)
				continue;
			req.fl_start = min(req.fl_start, fl->fl_start);
			req.fl_end = max(req.fl_end, fl->fl_end);
			locks_delete_lock(fl);
		} else {
			if (fl->fl_end < req.fl_start || fl->fl_start > req.fl_end)
				continue;
			if (fl->fl_start < req.fl_start && fl->fl_end > req.fl_end) {
				struct file_lock *right = locks_dup_lock(fl);

				right->fl_start = req.fl_end + 1;
				list_add(&right->fl_list, &fl->fl_list);
				fl->fl_end = req.fl_start - 1;
			} else if (fl->fl_start < req.fl_start) {
				fl->fl_end = req.fl_start - 1;
			} else if (fl->fl_end > req.fl_end) {
				fl->fl_start = req.fl_end + 1;
				list_del_init(&fl->fl_list);
				locks_insert_posix(ctx, fl);
				tmp = list_entry(ctx->flc_posix.next, struct file_lock, fl_list);
			} else {
				locks_delete_lock(fl);
			}
		}
		changed = true;
	}
	if (req.fl_type != F_UNLCK) {
		locks_insert_posix(ctx, locks_dup_lock(&req));
		changed = true;
	}
	if (changed)
		locks_wake_up_blocks(ctx);
	return 0;
}

/* Set request on f's file, waiting while it conflicts if FL_SLEEP
 * (Linux's posix_lock_inode_wait, flock_lock_inode_wait). */
static int locks_lock_file_wait(struct file *f, struct file_lock *request)
{
	struct file_lock_context *ctx = locks_get_lock_context(f);
	int err;

	for (;;) {
		struct file_lock *blocker = NULL;

		if (request->fl_flags & FL_FLOCK)
			err = flock_lock_inode(ctx, request, &blocker);
		else
			err = posix_lock_inode(ctx, request, &blocker);
		if (err != FILE_LOCK_DEFERRED)
			break;
		request->fl_ctx = ctx;
		request->fl_blocker = blocker;
		list_add_tail(&request->fl_list, &blocked_list);
		ctx->flc_waiters++;
		err = wait_event_interruptible(ctx->flc_wait, !request->fl_blocker);
		list_del_init(&request->fl_list);
		ctx->flc_waiters--;
		if (err)
			break;
	}
	locks_put_lock_context(ctx);
	return err;
}

/* Linux's flock_translate_cmd. */
static int flock_translate_cmd(unsigned int cmd)
{
	switch (cmd) {
	case LOCK_SH:
		return F_RDLCK;
	case LOCK_EX:
		return F_WRLCK;
	case LOCK_UN:
		return F_UNLCK;
	}
	return -EINVAL;
}

long sys_flock(unsigned int fd, unsigned int cmd)
{
	struct file_lock fl = { .fl_flags = FL_FLOCK };
	struct file *f;
	int type, err;

	/* LOCK_MAND is ignored, as Linux now does. */
	if (cmd & LOCK_MAND)
		return 0;
	type = flock_translate_cmd(cmd & ~LOCK_NB);
	if (type < 0)
		return type;
	f = fget(fd);
	if (!f)
		return -EBADF;
	err = -EBADF;
	if (type != F_UNLCK && !file_readable(f) && !file_writable(f))
		goto out;
	INIT_LIST_HEAD(&fl.fl_list);
	fl.fl_owner = f;
	fl.fl_file = f;
	fl.fl_pid = current->tgid;
	fl.fl_type = type;
	fl.fl_end = OFFSET_MAX;
	if (!(cmd & LOCK_NB))
		fl.fl_flags |= FL_SLEEP;
	err = locks_lock_file_wait(f, &fl);
out:
	fput(f);
	return err;
}

/* ---- fcntl ---- */

/* Linux's flock64_to_posix_lock: l's range from its whence, a POSIX lock
 * of the current process's fd table. */
static int flock_to_posix_lock(struct file *f, struct file_lock *fl, const struct flock *l)
{
	struct stat st;
	int err;

	memset(fl, 0, sizeof(*fl));
	INIT_LIST_HEAD(&fl->fl_list);
	switch (l->l_whence) {
	case SEEK_SET:
		fl->fl_start = 0;
		break;
	case SEEK_CUR:
		fl->fl_start = f->f_pos;
		break;
	case SEEK_END:
		err = vfs_fstat(f, &st);
		if (err)
			return err;
		fl->fl_start = st.st_size;
		break;
	default:
		return -EINVAL;
	}
	if (l->l_start > OFFSET_MAX - fl->fl_start)
		return -EOVERFLOW;
	fl->fl_start += l->l_start;
	if (fl->fl_start < 0)
		return -EINVAL;
	/* POSIX-2001 defines a negative l_len: the bytes before l_start. */
	if (l->l_len > 0) {
		if (l->l_len - 1 > OFFSET_MAX - fl->fl_start)
			return -EOVERFLOW;
		fl->fl_end = fl->fl_start + (l->l_len - 1);
	} else if (l->l_len < 0) {
		if (fl->fl_start + l->l_len < 0)
			return -EINVAL;
		fl->fl_end = fl->fl_start - 1;
		fl->fl_start += l->l_len;
	} else {
		fl->fl_end = OFFSET_MAX;
	}
	fl->fl_owner = current->files;
	fl->fl_pid = current->tgid;
	fl->fl_file = f;
	fl->fl_flags = FL_POSIX;
	switch (l->l_type) {
	case F_RDLCK:
	case F_WRLCK:
	case F_UNLCK:
		fl->fl_type = l->l_type;
		return 0;
	}
	return -EINVAL;
}

/* What F_GETLK reports of a lock: l_pid -1 for an OFD lock. */
static void posix_lock_to_flock(struct flock *l, const struct file_lock *fl)
{
	l->l_pid = fl->fl_flags & FL_OFDLCK ? -1 : fl->fl_pid;
	l->l_start = fl->fl_start;
	l->l_len = fl->fl_end == OFFSET_MAX ? 0 : fl->fl_end - fl->fl_start + 1;
	l->l_whence = SEEK_SET;
	l->l_type = fl->fl_type;
}

long fcntl_getlk(struct file *f, unsigned int cmd, struct flock __user *arg)
{
	struct file_lock_context *ctx;
	struct file_lock req, *fl;
	struct flock l;
	int err;

	if (copy_from_user(&l, arg, sizeof(l)))
		return -EFAULT;
	if (cmd != F_OFD_GETLK && l.l_type != F_RDLCK && l.l_type != F_WRLCK)
		return -EINVAL;
	err = flock_to_posix_lock(f, &req, &l);
	if (err)
		return err;
	if (cmd == F_OFD_GETLK) {
		if (l.l_pid != 0)
			return -EINVAL;
		req.fl_flags |= FL_OFDLCK;
		req.fl_owner = f;
	}
	/* Linux's posix_test_lock: the first lock in the way, or F_UNLCK. */
	l.l_type = F_UNLCK;
	ctx = find_lock_context(lock_key(f));
	if (ctx) {
		list_for_each_entry(fl, &ctx->flc_posix, fl_list) {
			if (posix_test_locks_conflict(&req, fl)) {
				posix_lock_to_flock(&l, fl);
				break;
			}
		}
	}
	if (copy_to_user(arg, &l, sizeof(l)))
		return -EFAULT;
	return 0;
}

long fcntl_setlk(unsigned int fd, struct file *f, unsigned int cmd, struct flock __user *arg)
{
	struct file_lock fl;
	struct flock l;
	int err;

	if (copy_from_user(&l, arg, sizeof(l)))
		return -EFAULT;
	err = flock_to_posix_lock(f, &fl, &l);
	if (err)
		return err;
	/* Linux's check_fmode_for_setlk. */
	if ((fl.fl_type == F_RDLCK && !file_readable(f)) ||
	    (fl.fl_type == F_WRLCK && !file_writable(f)))
		return -EBADF;
	switch (cmd) {
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		if (l.l_pid != 0)
			return -EINVAL;
		fl.fl_flags |= FL_OFDLCK;
		fl.fl_owner = f;
		if (cmd == F_OFD_SETLKW)
			fl.fl_flags |= FL_SLEEP;
		break;
	case F_SETLKW:
		fl.fl_flags |= FL_SLEEP;
		break;
	}
	err = locks_lock_file_wait(f, &fl);
	/* Closed by another thread while we slept: the lock is for nobody
	 * (Linux zaps it the same way). */
	if (!err && fl.fl_type != F_UNLCK && !(fl.fl_flags & FL_OFDLCK)) {
		struct file *now = fget_raw(fd);

		if (now != f) {
			locks_remove_posix(f, current->files);
			err = -EBADF;
		}
		if (now)
			fput(now);
	}
	return err;
}

/* ---- release ---- */

void locks_remove_posix(struct file *f, struct files_struct *id)
{
	struct file_lock_context *ctx;
	struct file_lock *fl, *tmp;
	bool changed = false;

	if (list_empty(&file_lock_contexts))
		return;
	ctx = find_lock_context(lock_key(f));
	if (!ctx)
		return;
	list_for_each_entry_safe(fl, tmp, &ctx->flc_posix, fl_list) {
		if (fl->fl_owner == id) {
			locks_delete_lock(fl);
			changed = true;
		}
	}
	if (changed)
		locks_wake_up_blocks(ctx);
	locks_put_lock_context(ctx);
}

void locks_remove_file(struct file *f)
{
	struct file_lock_context *ctx;
	struct file_lock *fl, *tmp;
	bool changed = false;

	locks_remove_lease(f);
	if (list_empty(&file_lock_contexts))
		return;
	ctx = find_lock_context(lock_key(f));
	if (!ctx)
		return;
	list_for_each_entry_safe(fl, tmp, &ctx->flc_posix, fl_list) {
		if (fl->fl_owner == f || fl->fl_file == f) {
			locks_delete_lock(fl);
			changed = true;
		}
	}
	list_for_each_entry_safe(fl, tmp, &ctx->flc_flock, fl_list) {
		if (fl->fl_file == f) {
			locks_delete_lock(fl);
			changed = true;
		}
	}
	if (changed)
		locks_wake_up_blocks(ctx);
	locks_put_lock_context(ctx);
}

/* ---- /proc/locks ---- */

size_t lock_status_line(char *buf, size_t n, int id, const char *pfx, const char *kind, int type,
			int pid, struct file *file, const char *range)
{
	unsigned long dev;
	struct stat st;
	int len;

	if (n < 2)
		return 0;
	if (!file) {
		len = ksnprintf(buf, n, "%d: %s%s%s %d <none>:0 %s\n", id, pfx, kind,
				type == F_WRLCK ? "WRITE" : type == F_RDLCK ? "READ" : "UNLCK", pid,
				range);
		return min((size_t)len, n - 1);
	}
	if (vfs_fstat(file, &st))
		memset(&st, 0, sizeof(st));
	dev = st.st_dev;	/* new_encode_dev's layout */
	len = ksnprintf(buf, n, "%d: %s%s%s %d %02lx:%02lx:%lu %s\n", id, pfx, kind,
			type == F_WRLCK ? "WRITE" : type == F_RDLCK ? "READ" : "UNLCK", pid,
			(dev >> 8) & 0xfff, (dev & 0xff) | ((dev >> 12) & 0xfff00), st.st_ino, range);
	return min((size_t)len, n - 1);
}

/* One line of /proc/locks for a lock (Linux's lock_get_status): pfx
 * "-> " for a waiter, after the lock it waits for. */
static size_t lock_get_status(char *buf, size_t n, const struct file_lock *fl, int id,
			      const char *pfx)
{
	char range[48];

	if (fl->fl_flags & FL_FLOCK || fl->fl_end == OFFSET_MAX)
		ksnprintf(range, sizeof(range), "%lld EOF",
			  fl->fl_flags & FL_FLOCK ? 0LL : (long long)fl->fl_start);
	else
		ksnprintf(range, sizeof(range), "%lld %lld", (long long)fl->fl_start,
			  (long long)fl->fl_end);
	return lock_status_line(buf, n, id, pfx,
				fl->fl_flags & FL_FLOCK ? "FLOCK  ADVISORY  " :
				fl->fl_flags & FL_OFDLCK ? "OFDLCK ADVISORY  " : "POSIX  ADVISORY  ",
				fl->fl_type, fl->fl_flags & FL_OFDLCK ? -1 : fl->fl_pid, fl->fl_file,
				range);
}

static size_t locks_show_list(char *buf, size_t n, struct list_head *locks, int *id)
{
	struct file_lock *fl, *w;
	size_t len = 0;

	list_for_each_entry(fl, locks, fl_list) {
		++*id;
		len += lock_get_status(buf + len, n - len, fl, *id, "");
		list_for_each_entry(w, &blocked_list, fl_list)
			if (w->fl_blocker == fl)
				len += lock_get_status(buf + len, n - len, w, *id, "-> ");
	}
	return len;
}

void locks_text(char *buf, size_t n)
{
	struct file_lock_context *ctx;
	size_t len = 0;
	int id = 0;

	buf[0] = '\0';
	list_for_each_entry(ctx, &file_lock_contexts, flc_list) {
		len += locks_show_list(buf + len, n - len, &ctx->flc_posix, &id);
		len += locks_show_list(buf + len, n - len, &ctx->flc_flock, &id);
	}
	leases_text(buf + len, n - len, &id);
}
