/*
 * kernel/sched/wait.c: wait queues and completions (Linux's
 * kernel/sched/wait.c and completion.c, include/linux/wait.h).
 */
#include <umk/errno.h>
#include <umk/sched.h>

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, long state)
{
	w->task = current;
	if (list_empty(&w->entry))
		list_add_tail(&w->entry, &wq->head);
	set_current_state(state);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	set_current_state(TASK_RUNNING);
	if (!list_empty(&w->entry))
		list_del_init(&w->entry);
}

void wake_up(struct wait_queue_head *wq)
{
	struct wait_queue_entry *w;

	list_for_each_entry(w, &wq->head, entry)
		wake_up_state(w->task, TASK_NORMAL);
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
