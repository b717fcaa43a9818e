/*
 * kernel/mm/vma_tree.c: the index of an mm's regions, for lookups and for
 * mmap's search of a free range in O(log n) (Linux 2.6 to 6.0's mm_rb, an
 * rbtree augmented with rb_subtree_gap; the maple tree since).
 *
 * mm->mmap stays the ordered list every walk follows; this tree holds the
 * same regions, by address, so that finding the region at an address or
 * the highest gap that fits does not walk the list. It is a treap: a
 * binary search tree on vm_start whose nodes also carry a priority, fixed
 * and pseudo-random, with every parent's priority above its children's,
 * so that its expected depth is O(log n) whatever order the regions come
 * in. Its balancing is two recursive functions, split and merge, instead
 * of an rbtree's colour cases; the augmentation is Linux's idea.
 *
 * Every node also describes its subtree, the regions vma_first..vma_last
 * that it covers in address order (vma_pull):
 *   - subtree_start, the first region's vm_start_gap (its start, less the
 *     stack guard gap below a region that grows down);
 *   - subtree_end, the last region's vm_end;
 *   - subtree_gap, the largest free range between two consecutive
 *     regions of the subtree, up to the upper one's vm_start_gap (0 for
 *     one region).
 * These depend on the subtree alone, so a node whose vm_end changes only
 * needs its ancestors recomputed (vma_tree_update).
 *
 * Interface: include/umk/mm.h. docs/design.md, "Address spaces".
 */
#include <umk/kernel.h>
#include <umk/mm.h>

/* The priority of a new node: splitmix64 over a counter, so a run is
 * reproducible, and any order of insertion gives a balanced tree. */
static unsigned long next_priority(void)
{
	static unsigned long counter;
	unsigned long z = (counter += 0x9e3779b97f4a7c15UL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
	return z ^ (z >> 31);
}

/* The free range from end up to start: none when a guard gap reaches
 * below end. */
static unsigned long span(unsigned long start, unsigned long end)
{
	return start > end ? start - end : 0;
}

/* Recompute n's subtree fields from its own range and its children's. */
static void vma_pull(struct vm_area_struct *n)
{
	struct vm_area_struct *l = n->rb_left, *r = n->rb_right;
	unsigned long gap = 0;

	n->subtree_start = l ? l->subtree_start : vm_start_gap(n);
	n->subtree_end = r ? r->subtree_end : n->vm_end;
	if (l)
		gap = max(l->subtree_gap, span(vm_start_gap(n), l->subtree_end));
	if (r) {
		gap = max(gap, r->subtree_gap);
		gap = max(gap, span(r->subtree_start, n->vm_end));
	}
	n->subtree_gap = gap;
}

/* Split the tree t into the regions below addr (*lo) and the others (*hi). */
static void split(struct vm_area_struct *t, unsigned long addr, struct vm_area_struct **lo,
		  struct vm_area_struct **hi)
{
	if (!t) {
		*lo = *hi = NULL;
	} else if (t->vm_start < addr) {
		split(t->rb_right, addr, &t->rb_right, hi);
		vma_pull(t);
		*lo = t;
	} else {
		split(t->rb_left, addr, lo, &t->rb_left);
		vma_pull(t);
		*hi = t;
	}
}

/* Join two trees, every region of lo below every region of hi. */
static struct vm_area_struct *merge(struct vm_area_struct *lo, struct vm_area_struct *hi)
{
	if (!lo)
		return hi;
	if (!hi)
		return lo;
	if (lo->rb_prio > hi->rb_prio) {
		lo->rb_right = merge(lo->rb_right, hi);
		vma_pull(lo);
		return lo;
	}
	hi->rb_left = merge(lo, hi->rb_left);
	vma_pull(hi);
	return hi;
}

static struct vm_area_struct *insert(struct vm_area_struct *t, struct vm_area_struct *vma)
{
	if (!t || vma->rb_prio > t->rb_prio) {
		split(t, vma->vm_start, &vma->rb_left, &vma->rb_right);
		vma_pull(vma);
		return vma;
	}
	if (vma->vm_start < t->vm_start)
		t->rb_left = insert(t->rb_left, vma);
	else
		t->rb_right = insert(t->rb_right, vma);
	vma_pull(t);
	return t;
}

void vma_tree_insert(struct mm_struct *mm, struct vm_area_struct *vma)
{
	vma->rb_prio = next_priority();
	vma->rb_left = vma->rb_right = NULL;
	mm->mm_rb = insert(mm->mm_rb, vma);
}

static struct vm_area_struct *erase(struct vm_area_struct *t, struct vm_area_struct *vma)
{
	if (!t)
		panic("vma_tree_erase: [%#lx, %#lx) is not in the tree", vma->vm_start,
		      vma->vm_end);
	if (t == vma)
		return merge(t->rb_left, t->rb_right);
	if (vma->vm_start < t->vm_start)
		t->rb_left = erase(t->rb_left, vma);
	else
		t->rb_right = erase(t->rb_right, vma);
	vma_pull(t);
	return t;
}

void vma_tree_erase(struct mm_struct *mm, struct vm_area_struct *vma)
{
	mm->mm_rb = erase(mm->mm_rb, vma);
	vma->rb_left = vma->rb_right = NULL;
}

/* vma's vm_start is where it was when inserted: find it by it. */
static void update(struct vm_area_struct *t, struct vm_area_struct *vma)
{
	if (!t)
		panic("vma_tree_update: [%#lx, %#lx) is not in the tree", vma->vm_start,
		      vma->vm_end);
	if (t != vma)
		update(vma->vm_start < t->vm_start ? t->rb_left : t->rb_right, vma);
	vma_pull(t);
}

void vma_tree_update(struct mm_struct *mm, struct vm_area_struct *vma)
{
	update(mm->mm_rb, vma);
}

struct vm_area_struct *vma_tree_above(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *n = mm->mm_rb, *best = NULL;

	while (n) {
		if (n->vm_end > addr) {
			best = n;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return best;
}

/*
 * The highest start for len bytes in a gap of subtree t that ends at or
 * below top, the gap before t's first region beginning at prev_end; 0 when
 * none. Each subtree that cannot hold len (its largest gap, and the one
 * before it, too small) is skipped whole, and one lying entirely above top
 * only offers the gap before it.
 */
static unsigned long highest_gap(struct vm_area_struct *t, unsigned long prev_end, size_t len,
				 unsigned long top)
{
	unsigned long pred_end, gap_end, found;

	if (!t)
		return 0;
	if (t->subtree_gap < len && span(t->subtree_start, prev_end) < len)
		return 0;
	if (t->subtree_start >= top)
		return top > prev_end && top - prev_end >= len ? top - len : 0;
	found = highest_gap(t->rb_right, t->vm_end, len, top);
	if (found)
		return found;
	pred_end = t->rb_left ? t->rb_left->subtree_end : prev_end;
	gap_end = min(vm_start_gap(t), top);
	if (gap_end > pred_end && gap_end - pred_end >= len)
		return gap_end - len;
	return highest_gap(t->rb_left, prev_end, len, top);
}

unsigned long vma_tree_gap(struct mm_struct *mm, unsigned long low, size_t len,
			   unsigned long top)
{
	struct vm_area_struct *t = mm->mm_rb;
	unsigned long last_end = t ? max(t->subtree_end, low) : low;

	/* Above the last region first, then the gaps between and below. */
	if (last_end < top && top - last_end >= len)
		return top - len;
	return highest_gap(t, low, len, top);
}
