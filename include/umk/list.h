/* Doubly linked circular lists, after Linux's include/linux/list.h. */
#ifndef UMK_LIST_H
#define UMK_LIST_H

#include <umk/types.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

/* Take e off its list and put it at the head of head. */
static inline void list_move(struct list_head *e, struct list_head *head)
{
	list_del_init(e);
	list_add(e, head);
}

/* Take e off its list and put it at the tail of head. */
static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del_init(e);
	list_add_tail(e, head);
}

/* Join list's entries at the head of head (list_splice), and leave list
 * empty (list_splice_init). */
static inline void list_splice(const struct list_head *list, struct list_head *head)
{
	struct list_head *first = list->next, *last = list->prev, *at = head->next;

	if (list->next == list)
		return;
	first->prev = head;
	head->next = first;
	last->next = at;
	at->prev = last;
}

static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	list_splice(list, head);
	INIT_LIST_HEAD(list);
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)
#define list_for_each_entry(pos, head, member)                                   \
	for (pos = list_entry((head)->next, __typeof__(*pos), member);           \
	     &pos->member != (head);                                             \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_safe(pos, n, head, member)                           \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),           \
	    n = list_entry(pos->member.next, __typeof__(*pos), member);          \
	     &pos->member != (head);                                             \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))
#define list_next_entry(pos, member) list_entry((pos)->member.next, typeof(*(pos)), member)
/* The same walks, from pos on (pos may be the head's entry: nothing). */
#define list_for_each_entry_from(pos, head, member)                              \
	for (; &pos->member != (head);                                           \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_safe_from(pos, n, head, member)                      \
	for (n = list_entry(pos->member.next, __typeof__(*pos), member);         \
	     &pos->member != (head);                                             \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif
