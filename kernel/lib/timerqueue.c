/*
 * kernel/lib/timerqueue.c: the kernel's timers in expiry order.
 *
 * A binary min-heap in an array, each timer keeping its own index in it
 * (timer_list.index), rather than Linux's rbtree: adding and removing any
 * timer are O(log n), the earliest is heap[0], and the code is a third of
 * an rbtree's. A heap is not stable, so each timer takes a sequence number
 * when added and the order is (expires + slack, seq): equal expiries leave
 * in the order they were armed, as the sorted lists this replaces did.
 *
 * The array grows with kgrow and never shrinks: its size is the most timers
 * ever pending at once. No dependency but kgrow: tests/unit/timerqueue.c
 * runs it against a reference.
 */
#include <umk/kernel.h>
#include <umk/timer.h>
#include <umk/timerqueue.h>

/* By the latest time each may run (expires + slack, include/umk/timer.h):
 * the host timer is set for the first's. */
static bool before(const struct timer_list *a, const struct timer_list *b)
{
	u64 ea = a->expires + a->slack, eb = b->expires + b->slack;

	return ea < eb || (ea == eb && a->seq < b->seq);
}

static void place(struct timerqueue_head *head, struct timer_list *t, size_t i)
{
	head->heap[i] = t;
	t->index = i;
}

static void sift_up(struct timerqueue_head *head, struct timer_list *t, size_t i)
{
	while (i) {
		size_t parent = (i - 1) / 2;

		if (!before(t, head->heap[parent]))
			break;
		place(head, head->heap[parent], i);
		i = parent;
	}
	place(head, t, i);
}

static void sift_down(struct timerqueue_head *head, struct timer_list *t, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= head->nr)
			break;
		if (c + 1 < head->nr && before(head->heap[c + 1], head->heap[c]))
			c++;
		if (!before(head->heap[c], t))
			break;
		place(head, head->heap[c], i);
		i = c;
	}
	place(head, t, i);
}

void timerqueue_add(struct timerqueue_head *head, struct timer_list *t)
{
	/* Only to grow: kgrow is arch/, and calling it would load glibc's FS
	 * base without FSGSBASE (docs/design.md, "The FS base") at every
	 * timer armed, the slice timer at every switch included. */
	if (head->nr >= head->cap)
		head->heap = kgrow(head->heap, head->nr, &head->cap, sizeof(*head->heap));
	t->seq = head->next_seq++;
	head->nr++;
	sift_up(head, t, head->nr - 1);
}

void timerqueue_del(struct timerqueue_head *head, struct timer_list *t)
{
	size_t i = t->index;
	struct timer_list *last = head->heap[--head->nr];

	if (last == t)
		return;
	/* last takes t's place and moves whichever way restores the order */
	if (i && before(last, head->heap[(i - 1) / 2]))
		sift_up(head, last, i);
	else
		sift_down(head, last, i);
}
