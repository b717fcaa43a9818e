/* Ordered timers (kernel/lib/timerqueue.c; Linux's include/linux/timerqueue.h
 * holds an rbtree, this a binary min-heap, see the file). The earliest is
 * first; timers with equal expiry come out in the order they were added,
 * so that the trace's timer events keep their order. */
#ifndef UMK_TIMERQUEUE_H
#define UMK_TIMERQUEUE_H

#include <umk/types.h>

struct timer_list;

struct timerqueue_head {
	struct timer_list **heap;	/* heap[0] is the earliest */
	size_t nr, cap;
	u64 next_seq;			/* FIFO order among equal expiries */
};

/* Add t, whose expires is set and which is in no queue: O(log n). */
void timerqueue_add(struct timerqueue_head *head, struct timer_list *t);
/* Remove t, which is in head: O(log n). */
void timerqueue_del(struct timerqueue_head *head, struct timer_list *t);
/* The earliest timer, or NULL: O(1). */
static inline struct timer_list *timerqueue_getnext(struct timerqueue_head *head)
{
	return head->nr ? head->heap[0] : NULL;
}

#endif
