/*
 * kernel/net/garbage.c: the garbage collector of AF_UNIX sockets in flight
 * (Linux's net/unix/garbage.c, the algorithm Linux used up to 6.9).
 * Interface (kernel/net/af_unix.h): unix_inflight and unix_notinflight,
 * which af_unix_msg.c and af_unix.c call as a file goes into an SCM_RIGHTS
 * message and comes out of it; unix_gc, which af_unix.c calls when
 * a socket is released while files are in flight; wait_for_unix_gc, on
 * each send.
 *
 * The garbage: sockets whose files are referenced only by messages in
 * flight on the receive queues of such sockets. One end of a socketpair
 * sent over the other (into its own queue) and both closed, or two
 * sockets each in flight on the other's queue: each file keeps a count
 * that no fd will ever drop, and reference counting alone never frees
 * them. This is what looks for them.
 *
 * unix_gc, in four steps over the sockets in flight (gc_inflight_list):
 *   1. candidates: those whose file's every reference (f_count) is one of
 *      their in-flight ones (inflight): no fd anywhere holds them;
 *   2. for each message on a candidate's queue (a listener's: on its
 *      embryos' queues), each candidate it carries loses one inflight:
 *      what is left of a candidate's inflight are references from
 *      outside the candidates;
 *   3. a candidate with inflight left is reachable from outside, and so is
 *      every candidate on its queue: they get their inflight back and
 *      leave, the ones they carry are looked at again (moved to the tail
 *      of the list the cursor walks);
 *   4. the rest is garbage: the messages on their queues that carry
 *      candidates are taken off (the hit list), the counts restored, and
 *      the hit list dropped. Dropping a message puts its files; the last
 *      put releases a socket, whose release drops its queue: the cycle
 *      comes apart.
 *
 * umk's kernel runs one task at a time and never preempts kernel code, so
 * Linux's unix_gc_lock and the waiting in wait_for_unix_gc are not needed;
 * gc_in_progress keeps the releases of step 4 from starting another pass.
 */
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/list.h>
#include <umk/net.h>

#include "af_unix.h"

/* Linux's UNIX_INFLIGHT_TRIGGER_GC: a send runs the collector when this
 * many files are in flight. */
#define UNIX_INFLIGHT_TRIGGER_GC 16000

/* Every socket with inflight > 0, outside a pass of unix_gc. */
static LIST_HEAD(gc_inflight_list);
/* During a pass: the candidates still thought garbage. */
static LIST_HEAD(gc_candidates);
static bool gc_in_progress;
/* Files of AF_UNIX sockets in flight, in all. */
long unix_tot_inflight;

struct unix_sock *unix_get_socket(struct file *f)
{
	struct socket *sock = sock_from_file(f);

	if (!sock || !sock->ops || sock->ops->family != AF_UNIX)
		return NULL;
	return sock->sk;
}

void unix_inflight(struct file *f)
{
	struct unix_sock *u = unix_get_socket(f);

	if (!u)
		return;
	if (!u->inflight)
		list_add_tail(&u->gc_link, &gc_inflight_list);
	u->inflight++;
	unix_tot_inflight++;
}

void unix_notinflight(struct file *f)
{
	struct unix_sock *u = unix_get_socket(f);

	if (!u)
		return;
	if (u->inflight <= 0 || list_empty(&u->gc_link))
		panic("unix_notinflight: socket %lu has inflight %ld, on a list %d", u->ino,
		      u->inflight, !list_empty(&u->gc_link));
	if (!--u->inflight)
		list_del_init(&u->gc_link);
	unix_tot_inflight--;
}

/* Calls func on every candidate that a message on x's receive queue
 * carries; with hitlist, also moves those messages there (Linux's
 * scan_inflight). */
static void scan_inflight(struct unix_sock *x, void (*func)(struct unix_sock *),
			  struct list_head *hitlist)
{
	struct sk_buff *skb, *next;

	list_for_each_entry_safe(skb, next, &x->receive_queue, list) {
		bool hit = false;

		if (!skb->fp)
			continue;
		for (int i = 0; i < skb->fp->count; i++) {
			struct unix_sock *u = unix_get_socket(skb->fp->fp[i]);

			if (u && u->gc_candidate) {
				hit = true;
				func(u);
			}
		}
		if (hit && hitlist) {
			if (x->oob_skb == skb)
				x->oob_skb = NULL;
			skb_unlink(x, skb);
			list_add_tail(&skb->list, hitlist);
		}
	}
}

/* scan_inflight on x, or for a listener on each connection it has not
 * accepted: those hold the messages sent to it (Linux's scan_children). */
static void scan_children(struct unix_sock *x, void (*func)(struct unix_sock *),
			  struct list_head *hitlist)
{
	struct sk_buff *skb;

	if (x->state != TCP_LISTEN) {
		scan_inflight(x, func, hitlist);
		return;
	}
	list_for_each_entry(skb, &x->receive_queue, list)
		if (skb->embryo)
			scan_inflight(skb->embryo, func, hitlist);
}

static void dec_inflight(struct unix_sock *u)
{
	u->inflight--;
}

static void inc_inflight(struct unix_sock *u)
{
	u->inflight++;
}

/* A candidate reachable from outside: so is u, which the cursor of step 3
 * must see again if it was passed already. */
static void inc_inflight_move_tail(struct unix_sock *u)
{
	u->inflight++;
	if (u->gc_maybe_cycle)
		list_move_tail(&u->gc_link, &gc_candidates);
}

void unix_gc(void)
{
	struct unix_sock *u, *next;
	struct list_head cursor, hitlist, not_cycle_list;

	if (gc_in_progress)
		return;
	gc_in_progress = true;
	INIT_LIST_HEAD(&hitlist);
	INIT_LIST_HEAD(&not_cycle_list);

	/* 1. An in-flight socket's file is alive (the message holds it), so
	 * u->sock and its file are there. */
	list_for_each_entry_safe(u, next, &gc_inflight_list, gc_link) {
		long total_refs = u->sock->file->f_count;

		if (total_refs < u->inflight)
			panic("unix_gc: socket %lu has f_count %ld < inflight %ld", u->ino,
			      total_refs, u->inflight);
		if (total_refs == u->inflight) {
			list_move_tail(&u->gc_link, &gc_candidates);
			u->gc_candidate = true;
			u->gc_maybe_cycle = true;
		}
	}

	/* 2. */
	list_for_each_entry(u, &gc_candidates, gc_link)
		scan_children(u, dec_inflight, NULL);

	/* 3. The cursor walks gc_candidates, to which inc_inflight_move_tail
	 * may move candidates back behind it. */
	list_add(&cursor, &gc_candidates);
	while (cursor.next != &gc_candidates) {
		u = list_entry(cursor.next, struct unix_sock, gc_link);
		list_move(&cursor, &u->gc_link);
		if (u->inflight) {
			list_move_tail(&u->gc_link, &not_cycle_list);
			u->gc_maybe_cycle = false;
			scan_children(u, inc_inflight_move_tail, NULL);
		}
	}
	list_del_init(&cursor);

	/* 4. */
	list_for_each_entry(u, &gc_candidates, gc_link)
		scan_children(u, inc_inflight, &hitlist);
	while (!list_empty(&not_cycle_list)) {
		u = list_first_entry(&not_cycle_list, struct unix_sock, gc_link);
		u->gc_candidate = false;
		list_move_tail(&u->gc_link, &gc_inflight_list);
	}
	while (!list_empty(&hitlist)) {
		struct sk_buff *skb = list_first_entry(&hitlist, struct sk_buff, list);

		list_del_init(&skb->list);
		kfree_skb(skb);
	}
	/* Each candidate left gc_candidates when its last in-flight message
	 * was dropped (unix_notinflight). */
	if (!list_empty(&gc_candidates))
		panic("unix_gc: socket %lu is still a candidate after the hit list",
		      list_first_entry(&gc_candidates, struct unix_sock, gc_link)->ino);
	gc_in_progress = false;
}

void wait_for_unix_gc(void)
{
	if (unix_tot_inflight > UNIX_INFLIGHT_TRIGGER_GC && !gc_in_progress)
		unix_gc();
}
