/*
 * kernel/fs/eventpoll.c: epoll (Linux's fs/eventpoll.c).
 *
 * An epoll file (struct eventpoll) watches files through epitems, one per
 * (file, fd) pair registered with epoll_ctl. Registering polls the file with
 * a poll table whose poll_wait queues an eppoll_entry on each of the file's
 * wait queues (include/umk/poll.h, the readiness interface): from then on
 * the file's own wake-ups call ep_poll_callback, which puts the epitem on
 * the ready list and wakes the epoll's waiters. epoll_wait never polls the
 * files that did not change: it takes the ready list, polls each item on it
 * once more for its current events (a wake-up says that something may have
 * changed, the poll says what is true now), reports those, and puts
 * level-triggered items back at the tail, so that a later wait reports them
 * again and a full batch rotates through them.
 *
 * An epitem holds no reference to its file: it goes away when the file's
 * last reference does (eventpoll_release, from fput), whatever became of
 * the fd it was registered with, as Linux's. An fd closed while a dup of it
 * remains open stays registered, and reported with its data.
 *
 * epoll_wait, epoll_pwait and epoll_pwait2 end with -EINTR, never a restart
 * code, when a signal is pending: EINTR after a handler, with SA_RESTART
 * too, and after a stop and SIGCONT (signal(7)). An epoll file can itself
 * be watched (by poll, select or another epoll): it is readable while an
 * item on its ready list has events; a registration that would make a loop
 * or nest deeper than EP_MAX_NESTS is ELOOP.
 *
 * Departures from Linux: the items of an epoll are looked up in a list,
 * not a red-black tree (O(n) epoll_ctl); EPOLLWAKEUP is accepted and has
 * no effect (umk has no suspend to block); the
 * reverse-path limits Linux puts on the number of epolls watching one file
 * are not enforced.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/poll.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/uaccess.h>
#include <umk/uapi/eventpoll.h>

#define EP_MAX_NESTS 4
#define EP_MAX_EVENTS (0x7fffffff / sizeof(struct epoll_event))
/* Bits of an item's events that are not poll events. */
#define EP_PRIVATE_BITS (EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)
#define EPOLLINOUT_BITS (EPOLLIN | EPOLLOUT)
#define EPOLLEXCLUSIVE_OK_BITS                                                                 \
	(EPOLLINOUT_BITS | EPOLLERR | EPOLLHUP | EPOLLWAKEUP | EPOLLET | EPOLLEXCLUSIVE)

struct eventpoll {
	struct wait_queue_head wq;		/* epoll_wait's sleepers (exclusive) */
	struct wait_queue_head poll_wait;	/* who polls this epoll file */
	struct list_head rdllist;		/* ready epitems, by rdllink */
	struct list_head items;			/* every epitem, by itemlink */
	struct file *file;
};

struct epitem;

/* One wait queue of the watched file, and our entry on it. */
struct eppoll_entry {
	struct eppoll_entry *next;
	struct epitem *base;
	struct wait_queue_entry wait;
	struct wait_queue_head *whead;
};

struct epitem {
	struct list_head itemlink;	/* on ep->items */
	struct list_head rdllink;	/* on ep->rdllist, or empty */
	struct list_head fllink;	/* on file->f_ep */
	struct file *file;		/* no reference: see the header */
	int fd;
	struct eventpoll *ep;
	struct eppoll_entry *pwqlist;
	struct epoll_event event;
};

/* The poll table of a registration: poll_wait queues entries for epi. */
struct ep_pqueue {
	poll_table pt;
	struct epitem *epi;
};

static const struct file_operations eventpoll_fops;

static bool is_file_epoll(const struct file *f)
{
	return f->f_op == &eventpoll_fops;
}

static bool ep_is_linked(const struct epitem *epi)
{
	return !list_empty(&epi->rdllink);
}

/* ---- polling the watched files ---- */

static __poll_t ep_eventpoll_poll_depth(struct file *file, poll_table *pt, int depth);

/* epi's file's events now that epi waits for; with pt's _qproc, also
 * registers on the file's queues. */
static __poll_t ep_item_poll(struct epitem *epi, poll_table *pt, int depth)
{
	__poll_t res;

	pt->_key = epi->event.events;
	if (is_file_epoll(epi->file))
		res = ep_eventpoll_poll_depth(epi->file, pt, depth);
	else
		res = vfs_poll(epi->file, pt);
	return res & epi->event.events;
}

/* Wake epoll_wait's sleepers (one: they wait exclusively) and whoever polls
 * the epoll file itself. */
static void ep_wake(struct eventpoll *ep)
{
	if (waitqueue_active(&ep->wq))
		wake_up(&ep->wq);
	if (waitqueue_active(&ep->poll_wait))
		wake_up_poll(&ep->poll_wait, EPOLLIN | EPOLLRDNORM);
}

/*
 * A wake-up on a watched file's queue (Linux's ep_poll_callback): queue the
 * item as ready unless it is disarmed (a reported EPOLLONESHOT item) or the
 * key names none of the events it waits for. Returns whether it woke
 * someone, which ends an exclusive wake-up's walk (EPOLLEXCLUSIVE).
 */
static int ep_poll_callback(struct wait_queue_entry *wait, unsigned int mode, void *key)
{
	struct eppoll_entry *pwq = container_of(wait, struct eppoll_entry, wait);
	struct epitem *epi = pwq->base;
	struct eventpoll *ep = epi->ep;
	__poll_t pollflags = key_to_poll(key);
	bool woke = waitqueue_active(&ep->wq);

	if (!(epi->event.events & ~EP_PRIVATE_BITS))
		return 0;
	if (key && !(pollflags & epi->event.events))
		return 0;
	if (!ep_is_linked(epi))
		list_add_tail(&epi->rdllink, &ep->rdllist);
	ep_wake(ep);
	if (epi->event.events & EPOLLEXCLUSIVE)
		return woke;
	return 1;
}

/* poll_wait's work for a registration: an entry on the file's queue. */
static void ep_ptable_queue_proc(struct file *file, struct wait_queue_head *whead, poll_table *pt)
{
	struct ep_pqueue *epq = container_of(pt, struct ep_pqueue, pt);
	struct epitem *epi = epq->epi;
	struct eppoll_entry *pwq = kmalloc(sizeof(*pwq));

	pwq->base = epi;
	pwq->whead = whead;
	pwq->wait.task = NULL;
	pwq->wait.func = ep_poll_callback;
	INIT_LIST_HEAD(&pwq->wait.entry);
	if (epi->event.events & EPOLLEXCLUSIVE)
		add_wait_queue_exclusive(whead, &pwq->wait);
	else
		add_wait_queue(whead, &pwq->wait);
	pwq->next = epi->pwqlist;
	epi->pwqlist = pwq;
}

static void ep_unregister_pollwait(struct epitem *epi)
{
	struct eppoll_entry *pwq = epi->pwqlist, *next;

	for (; pwq; pwq = next) {
		next = pwq->next;
		remove_wait_queue(pwq->whead, &pwq->wait);
		kfree(pwq);
	}
	epi->pwqlist = NULL;
}

/* ---- the items ---- */

static struct epitem *ep_find(struct eventpoll *ep, struct file *file, int fd)
{
	struct epitem *epi;

	list_for_each_entry(epi, &ep->items, itemlink) {
		if (epi->file == file && epi->fd == fd)
			return epi;
	}
	return NULL;
}

static void ep_remove(struct epitem *epi)
{
	ep_unregister_pollwait(epi);
	list_del_init(&epi->fllink);
	list_del_init(&epi->itemlink);
	if (ep_is_linked(epi))
		list_del_init(&epi->rdllink);
	kfree(epi);
}

/* The last reference to file is going: it leaves every epoll watching it. */
void eventpoll_release(struct file *file)
{
	struct epitem *epi, *n;

	list_for_each_entry_safe(epi, n, &file->f_ep, fllink)
		ep_remove(epi);
}

/*
 * Would watching the epoll file `to` from ep make a loop, or a chain of
 * more than EP_MAX_NESTS epolls (Linux's ep_loop_check)? depth counts the
 * epolls above `to`.
 */
static bool ep_loop_check(struct eventpoll *ep, struct file *to, int depth)
{
	struct eventpoll *inner = to->private_data;
	struct epitem *epi;

	if (inner == ep || depth > EP_MAX_NESTS)
		return true;
	list_for_each_entry(epi, &inner->items, itemlink) {
		if (is_file_epoll(epi->file) && ep_loop_check(ep, epi->file, depth + 1))
			return true;
	}
	return false;
}

/* How many epolls are stacked above ep, itself included: the depth a
 * registration in ep starts at. */
static int ep_depth_above(struct eventpoll *ep, int depth)
{
	struct epitem *epi;
	int max = depth;

	if (depth > EP_MAX_NESTS)
		return depth;
	list_for_each_entry(epi, &ep->file->f_ep, fllink) {
		int d = ep_depth_above(epi->ep, depth + 1);

		if (d > max)
			max = d;
	}
	return max;
}

static int ep_insert(struct eventpoll *ep, const struct epoll_event *event, struct file *tfile,
		     int fd)
{
	struct epitem *epi;
	struct ep_pqueue epq;
	__poll_t revents;

	if (is_file_epoll(tfile) && ep_loop_check(ep, tfile, ep_depth_above(ep, 1)))
		return -ELOOP;
	epi = kmalloc(sizeof(*epi));
	INIT_LIST_HEAD(&epi->rdllink);
	epi->file = tfile;
	epi->fd = fd;
	epi->ep = ep;
	epi->event = *event;
	list_add_tail(&epi->fllink, &tfile->f_ep);
	list_add_tail(&epi->itemlink, &ep->items);

	epq.epi = epi;
	init_poll_funcptr(&epq.pt, ep_ptable_queue_proc);
	revents = ep_item_poll(epi, &epq.pt, 1);
	if (revents && !ep_is_linked(epi)) {
		list_add_tail(&epi->rdllink, &ep->rdllist);
		ep_wake(ep);
	}
	return 0;
}

static int ep_modify(struct eventpoll *ep, struct epitem *epi, const struct epoll_event *event)
{
	poll_table pt;

	init_poll_funcptr(&pt, NULL);
	epi->event.events = event->events;
	epi->event.data = event->data;
	if (ep_item_poll(epi, &pt, 1) && !ep_is_linked(epi)) {
		list_add_tail(&epi->rdllink, &ep->rdllist);
		ep_wake(ep);
	}
	return 0;
}

/* ---- the epoll file ---- */

/* Readable while an item on the ready list has events now; items that have
 * none leave the list (their file's next wake-up puts them back). */
static __poll_t ep_eventpoll_poll_depth(struct file *file, poll_table *wait, int depth)
{
	struct eventpoll *ep = file->private_data;
	struct epitem *epi, *n;
	poll_table pt;

	poll_wait(file, &ep->poll_wait, wait);
	init_poll_funcptr(&pt, NULL);
	depth++;
	list_for_each_entry_safe(epi, n, &ep->rdllist, rdllink) {
		if (ep_item_poll(epi, &pt, depth))
			return EPOLLIN | EPOLLRDNORM;
		list_del_init(&epi->rdllink);
	}
	return 0;
}

static unsigned int ep_eventpoll_poll(struct file *file, poll_table *wait)
{
	return ep_eventpoll_poll_depth(file, wait, 0);
}

static void ep_eventpoll_release(struct file *file)
{
	struct eventpoll *ep = file->private_data;
	struct epitem *epi, *n;

	list_for_each_entry_safe(epi, n, &ep->items, itemlink)
		ep_remove(epi);
	kfree(ep);
}

/* /proc/PID/fdinfo's lines for an epoll: one per item, as Linux's
 * ep_show_fdinfo prints them. */
static int ep_show_fdinfo(struct file *file, char *buf, size_t size)
{
	struct eventpoll *ep = file->private_data;
	struct epitem *epi;
	size_t len = 0;

	list_for_each_entry(epi, &ep->items, itemlink) {
		struct inode *inode = epi->file->f_inode;

		if (len >= size)
			break;
		len += ksnprintf(buf + len, size - len,
				 "tfd: %8d events: %8x data: %16llx  pos:%lli ino:%lx sdev:%x\n",
				 epi->fd, epi->event.events, (unsigned long long)epi->event.data,
				 (long long)epi->file->f_pos, file_ino(epi->file),
				 inode ? (unsigned int)inode->i_sb->s_dev : 0);
	}
	return (int)min(len, size);
}

static const struct file_operations eventpoll_fops = {
	.name = "eventpoll",
	.poll = ep_eventpoll_poll,
	.release = ep_eventpoll_release,
	.show_fdinfo = ep_show_fdinfo,
	.fstat = anon_inode_fstat,
};

static long do_epoll_create(int flags)
{
	struct eventpoll *ep;
	int fd;

	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	ep = kmalloc(sizeof(*ep));
	init_waitqueue_head(&ep->wq);
	init_waitqueue_head(&ep->poll_wait);
	INIT_LIST_HEAD(&ep->rdllist);
	INIT_LIST_HEAD(&ep->items);
	fd = anon_inode_getfd(&eventpoll_fops, ep, flags);
	if (fd >= 0)
		ep->file = current->files->fd[fd];
	return fd;
}

long sys_epoll_create1(int flags)
{
	return do_epoll_create(flags);
}

long sys_epoll_create(int size)
{
	if (size <= 0)
		return -EINVAL;
	return do_epoll_create(0);
}

/* ---- epoll_ctl ---- */

static long do_epoll_ctl(int epfd, int op, int fd, struct epoll_event *epds)
{
	struct file *f, *tf = NULL;
	struct eventpoll *ep;
	struct epitem *epi;
	long error = -EBADF;

	f = fget(epfd);
	if (!f)
		return -EBADF;
	tf = fget(fd);
	if (!tf)
		goto out;
	/* The target must be pollable. */
	error = -EPERM;
	if (!tf->f_op->poll)
		goto out;
	error = -EINVAL;
	if (f == tf || !is_file_epoll(f))
		goto out;
	if (op != EPOLL_CTL_DEL && (epds->events & EPOLLEXCLUSIVE)) {
		if (op == EPOLL_CTL_MOD)
			goto out;
		if (op == EPOLL_CTL_ADD &&
		    (is_file_epoll(tf) || (epds->events & ~EPOLLEXCLUSIVE_OK_BITS)))
			goto out;
	}
	ep = f->private_data;
	epi = ep_find(ep, tf, fd);
	switch (op) {
	case EPOLL_CTL_ADD:
		if (epi) {
			error = -EEXIST;
			break;
		}
		epds->events |= EPOLLERR | EPOLLHUP;
		error = ep_insert(ep, epds, tf, fd);
		break;
	case EPOLL_CTL_DEL:
		error = -ENOENT;
		if (epi) {
			ep_remove(epi);
			error = 0;
		}
		break;
	case EPOLL_CTL_MOD:
		error = -ENOENT;
		if (!epi)
			break;
		error = -EINVAL;
		if (epi->event.events & EPOLLEXCLUSIVE)
			break;
		epds->events |= EPOLLERR | EPOLLHUP;
		error = ep_modify(ep, epi, epds);
		break;
	default:
		error = -EINVAL;
	}
out:
	if (tf)
		fput(tf);
	fput(f);
	return error;
}

long sys_epoll_ctl(int epfd, int op, int fd, struct epoll_event __user *event)
{
	struct epoll_event epds = { 0 };

	if (op != EPOLL_CTL_DEL && copy_from_user(&epds, event, sizeof(epds)))
		return -EFAULT;
	return do_epoll_ctl(epfd, op, fd, &epds);
}

/* ---- epoll_wait ---- */

/*
 * Report up to maxevents ready items (Linux's ep_send_events): each is
 * polled again for what is true now; level-triggered ones go back at the
 * tail of the ready list, one-shot ones are disarmed, edge-triggered ones
 * wait for their file's next wake-up. What a full batch did not reach goes
 * back at the head. Returns the count, or -EFAULT if none could be copied.
 */
static int ep_send_events(struct eventpoll *ep, struct epoll_event __user *events, int maxevents)
{
	struct epitem *epi, *n;
	struct list_head txlist;
	poll_table pt;
	int res = 0;

	init_poll_funcptr(&pt, NULL);
	INIT_LIST_HEAD(&txlist);
	list_splice_init(&ep->rdllist, &txlist);
	list_for_each_entry_safe(epi, n, &txlist, rdllink) {
		struct epoll_event ev;
		__poll_t revents;

		if (res >= maxevents)
			break;
		list_del_init(&epi->rdllink);
		revents = ep_item_poll(epi, &pt, 1);
		if (!revents)
			continue;
		ev.events = revents;
		ev.data = epi->event.data;
		if (copy_to_user(&events[res], &ev, sizeof(ev))) {
			list_add(&epi->rdllink, &txlist);
			if (!res)
				res = -EFAULT;
			break;
		}
		res++;
		if (epi->event.events & EPOLLONESHOT)
			epi->event.events &= EP_PRIVATE_BITS;
		else if (!(epi->event.events & EPOLLET))
			list_add_tail(&epi->rdllink, &ep->rdllist);
	}
	list_splice(&txlist, &ep->rdllist);
	return res;
}

/* Sleep on ep->wq until an item is ready, a signal, or expires (absolute
 * CLOCK_MONOTONIC ns; NULL: no end). */
static void ep_sleep(struct eventpoll *ep, const u64 *expires, bool *timed_out)
{
	struct hrtimer_sleeper to;
	DEFINE_WAIT(w);

	prepare_to_wait_exclusive(&ep->wq, &w, TASK_INTERRUPTIBLE);
	if (list_empty(&ep->rdllist) && !signal_pending(current)) {
		if (!expires) {
			schedule();
		} else {
			hrtimer_sleeper_start(&to, *expires, "epoll_wait");
			if (to.task)
				schedule();
			hrtimer_sleeper_cancel(&to);
			if (!to.task)
				*timed_out = true;
		}
	}
	finish_wait(&ep->wq, &w);
}

/* expires: NULL to wait for ever, else an absolute CLOCK_MONOTONIC time,
 * 0 not to wait at all. */
static int ep_poll(struct eventpoll *ep, struct epoll_event __user *events, int maxevents,
		   const u64 *expires)
{
	bool timed_out = expires && !*expires;
	int res;

	for (;;) {
		if (!list_empty(&ep->rdllist)) {
			res = ep_send_events(ep, events, maxevents);
			if (res)
				return res;
		}
		if (timed_out)
			return 0;
		if (signal_pending(current))
			return -EINTR;
		ep_sleep(ep, expires, &timed_out);
	}
}

static long do_epoll_wait(int epfd, struct epoll_event __user *events, int maxevents,
			  const u64 *expires)
{
	struct file *f;
	long error;

	if (maxevents <= 0 || (unsigned long)maxevents > EP_MAX_EVENTS)
		return -EINVAL;
	/* Linux's access_ok: the range must be user addresses; whether they
	 * are mapped shows when an event is copied out (ep_send_events). */
	if ((unsigned long)events + maxevents * sizeof(struct epoll_event) > TASK_SIZE_MAX)
		return -EFAULT;
	f = fget(epfd);
	if (!f)
		return -EBADF;
	error = -EINVAL;
	if (is_file_epoll(f))
		error = ep_poll(f->private_data, events, maxevents, expires);
	fput(f);
	return error;
}

/* A timeout in ms: negative waits for ever, 0 not at all. */
static const u64 *ms_to_expires(int timeout, u64 *buf)
{
	if (timeout < 0)
		return NULL;
	*buf = timeout ? ktime_get() + (u64)timeout * NSEC_PER_MSEC : 0;
	return buf;
}

long sys_epoll_wait(int epfd, struct epoll_event __user *events, int maxevents, int timeout)
{
	u64 end;

	return do_epoll_wait(epfd, events, maxevents, ms_to_expires(timeout, &end));
}

/* The temporary mask of epoll_pwait and epoll_pwait2 stays for the handler
 * when the wait was interrupted (Linux's restore_saved_sigmask_unless). */
static long epoll_pwait_masked(int epfd, struct epoll_event __user *events, int maxevents,
			       const u64 *expires, const sigset_t __user *sigmask,
			       size_t sigsetsize)
{
	long error = set_user_sigmask(sigmask, sigsetsize);

	if (error)
		return error;
	error = do_epoll_wait(epfd, events, maxevents, expires);
	restore_saved_sigmask_unless(error == -EINTR);
	return error;
}

long sys_epoll_pwait(int epfd, struct epoll_event __user *events, int maxevents, int timeout,
		     const sigset_t __user *sigmask, size_t sigsetsize)
{
	u64 end;

	return epoll_pwait_masked(epfd, events, maxevents, ms_to_expires(timeout, &end), sigmask,
				  sigsetsize);
}

long sys_epoll_pwait2(int epfd, struct epoll_event __user *events, int maxevents,
		      const struct __kernel_timespec __user *timeout,
		      const sigset_t __user *sigmask, size_t sigsetsize)
{
	struct __kernel_timespec ts;
	u64 end, *expires = NULL;

	if (timeout) {
		if (get_timespec64(&ts, timeout))
			return -EFAULT;
		if (!timespec64_valid(&ts))
			return -EINVAL;
		end = (ts.tv_sec || ts.tv_nsec) ? ktime_get() + timespec_to_ns(&ts) : 0;
		/* A century or more is for ever: no end in u64 ns overflows. */
		expires = ts.tv_sec < 100L * 365 * 24 * 3600 ? &end : NULL;
	}
	return epoll_pwait_masked(epfd, events, maxevents, expires, sigmask, sigsetsize);
}
