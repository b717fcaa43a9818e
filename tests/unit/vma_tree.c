/*
 * tests/unit/vma_tree.c: kernel/mm/vma_tree.c against a reference. Random
 * inserts, erases and changed ends of up to NR regions in a small address
 * space of pages (so that regions touch, gaps of every size exist and the
 * top bound falls everywhere); after every step the tree must answer as
 * the reference, a sorted array walked from its start:
 *   - vma_tree_above(addr), the first region ending above addr, for
 *     random addresses;
 *   - vma_tree_gap(low, len, top), the highest free range that fits below
 *     top, for random lengths and tops;
 *   - every node's subtree fields, recomputed from scratch.
 * Prints one line and exits 0, or names the first difference and exits 1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umk/kernel.h>
#include <umk/mm.h>

#define NR 300
#define PAGES 2048		/* the address space: [LOW, LOW + PAGES pages) */
#define LOW 0x10000UL
#define PG 4096UL
#define STEPS 40000

/* kernel/mm/vma_tree.c's one dependency. */
void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

static struct mm_struct mm;
static struct vm_area_struct *ref[NR];	/* the reference, by address */
static int n;

static unsigned long rnd(unsigned long below)
{
	return (unsigned long)random() % below;
}

/* The index in ref of the first region ending above addr, n if none. */
static int ref_above(unsigned long addr)
{
	int i = 0;

	while (i < n && ref[i]->vm_end <= addr)
		i++;
	return i;
}

/* The reference's highest start for len bytes in [low, top), 0 if none. */
static unsigned long ref_gap(unsigned long low, unsigned long len, unsigned long top)
{
	unsigned long best = 0, gap_start = low;
	int i;

	for (i = 0; i <= n; i++) {
		unsigned long gap_end = i < n ? min(ref[i]->vm_start, top) : top;

		if (gap_end > gap_start && gap_end - gap_start >= len)
			best = gap_end - len;
		if (i < n)
			gap_start = max(gap_start, ref[i]->vm_end);
	}
	return best;
}

/* Check the subtree of t from scratch; returns its region count. */
static int check_node(struct vm_area_struct *t, long step)
{
	int l, r, first, last, i;
	unsigned long gap = 0;

	if (!t)
		return 0;
	l = check_node(t->rb_left, step);
	r = check_node(t->rb_right, step);
	/* the subtree is ref[first..last]: find t, count back and on */
	for (i = 0; i < n && ref[i] != t; i++)
		;
	if (i == n)
		panic("step %ld: a node [%#lx, %#lx) is not in the reference", step, t->vm_start,
		      t->vm_end);
	first = i - l;
	last = i + r;
	for (i = first + 1; i <= last; i++)
		gap = max(gap, ref[i]->vm_start - ref[i - 1]->vm_end);
	if (t->subtree_start != ref[first]->vm_start || t->subtree_end != ref[last]->vm_end ||
	    t->subtree_gap != gap)
		panic("step %ld: node [%#lx, %#lx) says start %#lx end %#lx gap %#lx, "
		      "the reference %#lx %#lx %#lx", step, t->vm_start, t->vm_end,
		      t->subtree_start, t->subtree_end, t->subtree_gap, ref[first]->vm_start,
		      ref[last]->vm_end, gap);
	if ((t->rb_left && t->rb_left->rb_prio > t->rb_prio) ||
	    (t->rb_right && t->rb_right->rb_prio > t->rb_prio))
		panic("step %ld: a child outranks node [%#lx, %#lx)", step, t->vm_start, t->vm_end);
	return l + r + 1;
}

static void check(long step)
{
	int k;

	if (check_node(mm.mm_rb, step) != n)
		panic("step %ld: the tree does not hold the %d regions", step, n);
	for (k = 0; k < 8; k++) {
		unsigned long addr = LOW + rnd(PAGES * PG + 2 * PG) - PG;
		int i = ref_above(addr);
		struct vm_area_struct *got = vma_tree_above(&mm, addr);

		if (got != (i < n ? ref[i] : NULL))
			panic("step %ld: above %#lx: the tree says %#lx, the reference %#lx", step,
			      addr, got ? got->vm_start : 0, i < n ? ref[i]->vm_start : 0);
	}
	for (k = 0; k < 8; k++) {
		unsigned long len = (1 + rnd(k < 4 ? 4 : 64)) * PG;
		unsigned long top = LOW + rnd(PAGES + 1) * PG;
		unsigned long got = vma_tree_gap(&mm, LOW, len, top);

		if (got != ref_gap(LOW, len, top))
			panic("step %ld: gap of %#lx below %#lx: the tree says %#lx, the "
			      "reference %#lx", step, len, top, got, ref_gap(LOW, len, top));
	}
}

int main(void)
{
	long step, inserts = 0, erases = 0, updates = 0, most = 0;

	srandom(13);
	for (step = 0; step < STEPS; step++) {
		/* grow for the first half, then as many erases as inserts */
		int op = (int)rnd(step < STEPS / 2 ? 4 : 3) % 3, i;

		if (op == 0 && n < NR) {	/* a new region in a random gap */
			unsigned long s = LOW + rnd(PAGES) * PG, e;
			struct vm_area_struct *v;

			i = ref_above(s);
			if (i < n && ref[i]->vm_start <= s)
				continue;
			e = i < n ? ref[i]->vm_start : LOW + PAGES * PG;
			e = s + (1 + rnd((e - s) / PG)) * PG;
			v = calloc(1, sizeof(*v));
			v->vm_start = s;
			v->vm_end = e;
			memmove(&ref[i + 1], &ref[i], (n - i) * sizeof(ref[0]));
			ref[i] = v;
			n++;
			vma_tree_insert(&mm, v);
			inserts++;
		} else if (op == 1 && n) {	/* erase one */
			i = (int)rnd(n);
			vma_tree_erase(&mm, ref[i]);
			free(ref[i]);
			memmove(&ref[i], &ref[i + 1], (n - i - 1) * sizeof(ref[0]));
			n--;
			erases++;
		} else if (op == 2 && n) {	/* move an end within its neighbours */
			unsigned long limit;

			i = (int)rnd(n);
			limit = i + 1 < n ? ref[i + 1]->vm_start : LOW + PAGES * PG;
			ref[i]->vm_end = ref[i]->vm_start + (1 + rnd((limit - ref[i]->vm_start) / PG)) * PG;
			vma_tree_update(&mm, ref[i]);
			updates++;
		}
		check(step);
		most = max(most, n);
	}
	printf("vma_tree: %ld inserts, %ld erases, %ld changed ends (up to %ld regions) match "
	       "the reference\n", inserts, erases, updates, most);
	return 0;
}
