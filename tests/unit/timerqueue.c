/*
 * tests/unit/timerqueue.c: kernel/lib/timerqueue.c against a reference. Random
 * adds, deletes, re-arms and pops of up to 4096 timers with few distinct
 * expiries and slacks (so that ties are common); after every step the
 * queue's first timer must be the reference's: the least (expires + slack,
 * order armed). At the end every timer is popped and must come out in the
 * reference's order.
 * Prints one line and exits 0, or names the first difference and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umk/kernel.h>
#include <umk/timer.h>
#include <umk/timerqueue.h>

#define NR 4096
#define STEPS 100000

/* kernel/lib/timerqueue.c's one dependency, arch/mem.c's kgrow. */
void *kgrow(void *p, size_t n, size_t *cap, size_t size)
{
	size_t new_cap;

	if (n < *cap)
		return p;
	new_cap = *cap ? *cap * 2 : 16;
	p = realloc(p, new_cap * size);
	if (!p)
		abort();
	memset((char *)p + *cap * size, 0, (new_cap - *cap) * size);
	*cap = new_cap;
	return p;
}

static struct timer_list timers[NR];
static unsigned long long armed_at[NR];	/* the reference's FIFO order */
static int pending[NR];

/* The latest time t may run: the queue's order. */
static unsigned long long latest(const struct timer_list *t)
{
	return t->expires + t->slack;
}

/* The reference: the pending timer with the least (expires + slack,
 * armed_at). */
static int ref_first(void)
{
	int best = -1;

	for (int i = 0; i < NR; i++)
		if (pending[i] && (best < 0 || latest(&timers[i]) < latest(&timers[best]) ||
				   (latest(&timers[i]) == latest(&timers[best]) &&
				    armed_at[i] < armed_at[best])))
			best = i;
	return best;
}

static int fail(long step, const char *what, int want, struct timer_list *got)
{
	printf("step %ld (%s): first is timer %ld, the reference says %d\n", step, what,
	       got ? (long)(got - timers) : -1L, want);
	return 1;
}

/* Expire the first timer: it must be the reference's. 0, or 1 if not. */
static int pop_first(struct timerqueue_head *q, long step, const char *what)
{
	struct timer_list *t = timerqueue_getnext(q);
	int want = ref_first();

	if (t != &timers[want])
		return fail(step, what, want, t);
	timerqueue_del(q, t);
	pending[want] = 0;
	return 0;
}

int main(void)
{
	struct timerqueue_head q = { 0 };
	unsigned long long clock = 0;
	long step, adds = 0, dels = 0, pops = 0;
	int want, n = 0;

	srand(12345);
	for (step = 0; step < STEPS; step++) {
		int i = rand() % NR, op = rand() % 8;

		if (op < 4 || (op < 6 && pending[i])) {
			/* arm, or re-arm as mod_timer does: delete, then add */
			if (pending[i]) {
				timerqueue_del(&q, &timers[i]);
				n--;
			}
			timers[i].expires = rand() % 64;
			/* half without slack, as most timers; the rest with
			 * some, so that expires order is not slack order */
			timers[i].slack = rand() % 2 ? 0 : rand() % 16;
			timerqueue_add(&q, &timers[i]);
			armed_at[i] = clock++;
			pending[i] = 1;
			n++;
			adds++;
		} else if (op < 7 && pending[i]) {
			timerqueue_del(&q, &timers[i]);
			pending[i] = 0;
			n--;
			dels++;
		} else if (op == 7 && n) {
			if (pop_first(&q, step, "pop"))
				return 1;
			n--;
			pops++;
		}
		want = ref_first();
		if ((size_t)n != q.nr)
			return printf("step %ld: %zu timers queued, the reference has %d\n", step,
				      q.nr, n), 1;
		if (timerqueue_getnext(&q) != (want < 0 ? NULL : &timers[want]))
			return fail(step, "after", want, timerqueue_getnext(&q));
	}
	for (; n; n--)
		if (pop_first(&q, step, "drain"))
			return 1;
	printf("timerqueue: %ld adds, %ld deletes, %ld pops match the reference\n", adds, dels,
	       pops);
	free(q.heap);	/* the kernel's queues live as long as umk; this one ends */
	return 0;
}
