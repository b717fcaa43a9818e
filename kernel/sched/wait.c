/*
 * kernel/sched/wait.c: wait queues and completions (Linux's
 * kernel/sched/wait.c and completion.c, include/linux/wait.h).
 */
#include <umk/errno.h>
#include <umk/sched.h>

/* Non-exclusive entries go before the first exclusive one, in the order
 * they came (a wake-up wakes them all first); exclusive ones at the tail. */
static void queue_entry(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	struct wait_queue_entry *pos;

	if (!(w->flags & WQ_FLAG_EXCLUSIVE)) {
		list_for_each_entry(pos, &wq->head, entry) {
			if (pos->flags & WQ_FLAG_EXCLUSIVE) {
				list_add_tail(&w->entry, &pos->entry);
				return;
			}
		}
	}
	list_add_tail(&w->entry, &wq->head);
}

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	w->flags &= ~WQ_FLAG_EXCLUSIVE;
	queue_entry(wq, w);
}

void add_wait_queue_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	w->flags |= WQ_FLAG_EXCLUSIVE;
	queue_entry(wq, w);
}

void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	list_del_init(&w->entry);
}

static void prepare_to_wait_flags(struct wait_queue_head *wq, struct wait_queue_entry *w,
				  long state, unsigned int flags)
{
	w->task = current;
	if (list_empty(&w->entry)) {
		w->flags = flags;
		queue_entry(wq, w);
	}
	set_current_state(state);
}

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, long state)
{
	prepare_to_wait_flags(wq, w, state, 0);
}

void prepare_to_wait_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *w,
			       long state)
{
	prepare_to_wait_flags(wq, w, state, WQ_FLAG_EXCLUSIVE);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	set_current_state(TASK_RUNNING);
	if (!list_empty(&w->entry))
		list_del_init(&w->entry);
}

int default_wake_function(struct wait_queue_entry *w, unsigned int mode, void *key)
{
	return wake_up_state(w->task, mode);
}

/* An entry's func may take itself off the queue (a poller that is done),
 * so the walk holds the next entry first (Linux's __wake_up_common). */
void __wake_up(struct wait_queue_head *wq, unsigned int mode, void *key)
{
	struct wait_queue_entry *w, *next;

	list_for_each_entry_safe(w, next, &wq->head, entry) {
		unsigned int flags = w->flags;

		if (w->func(w, mode, key) && (flags & WQ_FLAG_EXCLUSIVE))
			break;
	}
}

void wake_up(struct wait_queue_head *wq)
{
	__wake_up(wq, TASK_NORMAL, NULL);
}

void wake_up_poll(struct wait_queue_head *wq, unsigned int events)
{
	__wake_up(wq, TASK_NORMAL, (void *)(unsigned long)events);
}

void init_completion(struct completion *c)
{
	c->done = false;
	init_waitqueue_head(&c->wait);
}

void complete(struct completion *c)
{
	c->done = true;
	wake_up(&c->wait);
}

int wait_for_completion_killable(struct completion *c)
{
	DEFINE_WAIT(w);
	int ret = 0;

	for (;;) {
		prepare_to_wait(&c->wait, &w, TASK_KILLABLE);
		if (c->done)
			break;
		if (sigismember(&current->pending.signal, SIGKILL)) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	finish_wait(&c->wait, &w);
	return ret;
}
