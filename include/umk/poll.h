/*
 * include/umk/poll.h: the readiness interface (Linux's include/linux/poll.h).
 *
 * Every file that can be polled answers f_op->poll(f, pt): the events
 * ready now, and, through poll_wait(f, wq, pt), each wait queue it wakes
 * when its readiness changes. What poll_wait does is the caller's: poll
 * and select queue an entry that wakes the polling task
 * (kernel/fs/select.c), epoll one that puts the file on the epoll's ready
 * list (kernel/fs/eventpoll.c). A file then wakes its queues with
 * wake_up_poll(wq, events), naming the events that became true, or
 * wake_up(wq) for "look again": epoll is woken directly by the file, and
 * never polls every file at every wait. A NULL pt, or one whose _qproc is
 * NULL, asks only for the events (a rescan).
 */
#ifndef UMK_POLL_H
#define UMK_POLL_H

#include <umk/fs.h>
#include <umk/sched.h>

typedef unsigned int __poll_t;

struct poll_table_struct;
typedef void (*poll_queue_proc)(struct file *f, struct wait_queue_head *wq,
				struct poll_table_struct *pt);

typedef struct poll_table_struct {
	poll_queue_proc _qproc;
	__poll_t _key;		/* the events the caller waits for */
} poll_table;

static inline void poll_wait(struct file *f, struct wait_queue_head *wq, poll_table *pt)
{
	if (pt && pt->_qproc && wq)
		pt->_qproc(f, wq, pt);
}

static inline bool poll_does_not_wait(const poll_table *pt)
{
	return !pt || !pt->_qproc;
}

static inline void init_poll_funcptr(poll_table *pt, poll_queue_proc qproc)
{
	pt->_qproc = qproc;
	pt->_key = ~(__poll_t)0;
}

/* The events of a wake-up's key (wake_up_poll), or every event for a
 * plain wake_up's NULL key. */
static inline __poll_t key_to_poll(void *key)
{
	return key ? (__poll_t)(unsigned long)key : ~(__poll_t)0;
}

/* f's ready events, registering pt's entries on f's queues: a file
 * without f_op->poll is always ready (DEFAULT_POLLMASK). */
static inline __poll_t vfs_poll(struct file *f, poll_table *pt)
{
	if (!f->f_op->poll)
		return DEFAULT_POLLMASK;
	return f->f_op->poll(f, pt);
}

#endif
