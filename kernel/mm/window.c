/*
 * kernel/mm/window.c: the user window, the host range that shows one
 * address space at a time (arch/x86/mm/tlb.c's switch_mm; Linux's
 * per-CPU loaded_mm).
 *
 * The window is a host reservation made at boot (mm_init). The mm in it
 * has each region mapped from its file, PROT_NONE reservation between
 * them; switch_mm maps the next mm over it. An mm whose last user is gone
 * stays there, dead, until the next switch (mmput). The region
 * bookkeeping is kernel/mm/vma.c's; this file only follows it on the host.
 * docs/design.md, "Address spaces".
 */
#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/trace.h>

#include "internal.h"

_Static_assert(PROT_READ == OS_PROT_READ && PROT_WRITE == OS_PROT_WRITE &&
		       PROT_EXEC == OS_PROT_EXEC,
	       "PROT_* and OS_PROT_* must agree");

/* The mm in the window (Linux's per-CPU loaded_mm). */
static struct mm_struct *loaded_mm;

struct mm_struct *active_mm(void)
{
	return loaded_mm;
}

unsigned long task_size;

/* Reserve [USER_WINDOW_START, end) on the host: 0 or -errno. */
static int reserve_window(unsigned long end)
{
	void *p = os_mmap_anon((void *)USER_WINDOW_START, end - USER_WINDOW_START, PROT_NONE,
			       true);

	return IS_ERR_VALUE(p) ? (int)(long)p : 0;
}

/*
 * The user window, reserved PROT_NONE (MAP_NORESERVE: it costs no memory).
 * A host limit on umk's address space (ulimit -v) counts it all the same:
 * then the window is half the largest power of two that fits, leaving the
 * other half of what is left to the kernel's own memory (kernel stacks).
 */
int mm_init(void)
{
	unsigned long size;
	int err = reserve_window(USER_WINDOW_MAX);

	if (!err) {
		task_size = USER_WINDOW_MAX;
		return 0;
	}
	if (err != -ENOMEM)
		return err;
	for (size = USER_WINDOW_MAX / 2; size >= (16UL << 20); size /= 2) {
		if (reserve_window(USER_WINDOW_START + size))
			continue;
		os_munmap((void *)USER_WINDOW_START, size);
		task_size = USER_WINDOW_START + size / 2;
		return reserve_window(task_size);
	}
	return -ENOMEM;
}

/* Map [s, e) of vma into the window: its pages, or a reservation for a
 * PROT_NONE region (nothing there can be touched). Private pages the
 * program cannot write are mapped MAP_PRIVATE: the same pages, but a
 * debugger may still plant a breakpoint there (the host lets ptrace write
 * to a read-only private mapping, never to a read-only shared one). Such
 * a write lasts until the range is mapped again (docs/gdb-walkthrough.md). */
int install_range(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long s,
			 unsigned long e)
{
	bool shared = vma->shared ? !vma->private_file : (vma->prot & PROT_WRITE);

	if (vma->prot == PROT_NONE)
		return os_mmap_replace((void *)s, e - s, PROT_NONE);
	return os_mmap_file((void *)s, e - s, vma->prot, vma_fd(mm, vma), vma_offset(vma, s),
			    shared);
}

/* Empty the whole window at once: one unmap of all of it, which splits
 * no host mapping and so cannot fail for want of mappings, then the
 * reservation again. */
static void reset_window(void)
{
	int err = os_munmap((void *)USER_WINDOW_START, TASK_SIZE - USER_WINDOW_START);

	if (!err)
		err = reserve_window(TASK_SIZE);
	if (err)
		panic("reset_window: %d", err);
}

/*
 * An mm whose last user is gone while it is in the window stays there,
 * dead, until the next switch_mm maps over it, as Linux keeps a dead mm as
 * a CPU's active_mm until the next switch (finish_task_switch's mmdrop):
 * an exit costs no host call, and a process forked from the same parent
 * replaces the same regions.
 */
static struct mm_struct *dead_mm;

void mmput(struct mm_struct *mm)
{
	if (!mm)
		return;
	if (mm->users <= 0)
		panic("mmput: mm %p has %d users", (void *)mm, mm->users);
	if (--mm->users)
		return;
	exit_aio(mm);
	set_mm_exe_file(mm, NULL);
	if (mm == loaded_mm) {
		loaded_mm = NULL;
		dead_mm = mm;
		return;
	}
	mmdrop(mm);
}

/* What a switch did on the host (the trace's switch_mm line): regions
 * kept as they were, and host calls made. */
struct switch_count {
	int kept, calls;
};

/* The next region of mm from v on that is mapped (not PROT_NONE). */
static struct vm_area_struct *next_mapped(struct mm_struct *mm, struct vm_area_struct *v)
{
	while (&v->list != &mm->mmap && v->prot == PROT_NONE)
		v = list_next_entry(v, list);
	return v;
}

/* Does old, a region of the mm in the window, show vma's pages already,
 * mapped as install_range maps vma? Only a shared object can be in both
 * mms (private pages are each mm's own file): the same one, at the same
 * offset for the same address, with the same protection and sharing.
 * old may be larger than vma (it is then one mapping on the host, still
 * showing the same pages over vma's range). */
static bool shows_same(struct vm_area_struct *old, struct vm_area_struct *vma)
{
	return vma->shared && old->shared == vma->shared && old->prot == vma->prot &&
	       old->private_file == vma->private_file && old->vm_start <= vma->vm_start &&
	       vma->vm_end <= old->vm_end &&
	       vma_offset(old, vma->vm_start) == vma_offset(vma, vma->vm_start);
}

/* Clear [s, e) of the window, if not empty: one host call. */
static int clear_range(unsigned long s, unsigned long e, struct switch_count *n)
{
	if (e <= s)
		return 0;
	n->calls++;
	return os_mmap_replace((void *)s, e - s, PROT_NONE);
}

/* Clear what prev has mapped where mm has nothing mapped: within each gap
 * between two of mm's mapped regions, one call from the start of prev's
 * first mapping there to the end of its last (what lies between them is
 * reservation already), walking both sorted lists once. cs, ce: the range
 * to clear gathered so far; gap: the end of mm's last mapped region passed,
 * which the range cannot grow over. */
static int clear_rest(struct mm_struct *prev, struct mm_struct *mm, struct switch_count *n)
{
	struct vm_area_struct *vma, *v;
	unsigned long cs = 0, ce = 0, gap = 0;
	int err;

	v = next_mapped(mm, list_first_entry(&mm->mmap, struct vm_area_struct, list));
	list_for_each_entry(vma, &prev->mmap, list) {
		unsigned long s = vma->vm_start;

		if (vma->prot == PROT_NONE)
			continue;
		while (s < vma->vm_end) {
			unsigned long e = vma->vm_end;

			while (&v->list != &mm->mmap && v->vm_end <= s) {
				gap = v->vm_end;
				v = next_mapped(mm, list_next_entry(v, list));
			}
			if (&v->list != &mm->mmap && v->vm_start <= s) {
				s = min(v->vm_end, e);	/* mm has s mapped */
				continue;
			}
			if (&v->list != &mm->mmap && v->vm_start < e)
				e = v->vm_start;
			if (ce > cs && gap <= ce) {
				ce = e;		/* no mapping of mm in between */
			} else {
				err = clear_range(cs, ce, n);
				if (err)
					return err;
				cs = s;
				ce = e;
			}
			s = e;
		}
	}
	return clear_range(cs, ce, n);
}

/* Map [s, e) of mm, from vma on, if not empty: one host call. */
static int install_run(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long s,
		       unsigned long e, struct switch_count *n)
{
	if (e <= s)
		return 0;
	n->calls++;
	return install_range(mm, vma, s, e);
}

/* Map mm's regions into the window but those prev (the mm in it, or NULL
 * for an empty window) shows the same already (a forked program's code,
 * its libraries: a file's pages at the same address), which keep their
 * host mapping and the pages the host has there. Adjacent private regions
 * with one protection (a program's data and its heap) are one run of
 * mm's file, mapped in one call. PROT_NONE regions are reservation. */
static int install_differing(struct mm_struct *prev, struct mm_struct *mm,
			     struct switch_count *n)
{
	struct vm_area_struct *vma, *old = NULL, *run = NULL;
	unsigned long rs = 0, re = 0;
	int err;

	if (prev)
		old = list_first_entry(&prev->mmap, struct vm_area_struct, list);
	list_for_each_entry(vma, &mm->mmap, list) {
		if (vma->prot == PROT_NONE)
			continue;
		while (old && &old->list != &prev->mmap && old->vm_end <= vma->vm_start)
			old = list_next_entry(old, list);
		if (old && &old->list != &prev->mmap && shows_same(old, vma)) {
			n->kept++;
			continue;
		}
		if (run && !run->shared && !vma->shared && run->prot == vma->prot &&
		    re == vma->vm_start) {
			re = vma->vm_end;
			continue;
		}
		err = install_run(mm, run, rs, re, n);
		if (err)
			return err;
		run = vma;
		rs = vma->vm_start;
		re = vma->vm_end;
	}
	return install_run(mm, run, rs, re, n);
}

/* mm over prev in the window: mm's regions that differ, then what prev had
 * mapped and mm has not is cleared. */
static int map_over(struct mm_struct *prev, struct mm_struct *mm, struct switch_count *n)
{
	int err = install_differing(prev, mm, n);

	return err ? err : clear_rest(prev, mm, n);
}

/*
 * Put mm in the window (arch/x86/mm/tlb.c's switch_mm_irqs_off). Its
 * regions are mapped over the old mm's, but those the old mm shows the
 * same already, then what the old mm had where mm has nothing is cleared:
 * two processes with the same layout (a fork) cost one host call per
 * region that is not a file's code or data both map. If the host runs out
 * of mappings meanwhile (the two layouts interleave near
 * vm.max_map_count), the window is emptied and mm mapped afresh.
 */
bool switch_mm(struct mm_struct *mm)
{
	struct mm_struct *prev = loaded_mm ? loaded_mm : dead_mm;
	struct switch_count n = { 0, 0 };
	int err;

	if (mm == loaded_mm)
		return false;
	loaded_mm = mm;
	if (!mm) {
		reset_window();
	} else {
		err = prev ? map_over(prev, mm, &n) : install_differing(NULL, mm, &n);
		if (err) {
			reset_window();
			n.kept = 0;
			n.calls += 2;
			err = install_differing(NULL, mm, &n);
			if (err)
				panic("switch_mm: cannot map the address space of mm %u: %d",
				      mm->id, err);
		}
		trace_with(TR_TASK, &(struct trace_fields){ .what = "switch_mm" },
			   "switch_mm mm %u -> mm %u (%d regions, %d kept, %d host calls)",
			   prev ? prev->id : 0, mm->id, mm->map_count, n.kept, n.calls);
	}
	if (dead_mm) {
		mmdrop(dead_mm);
		dead_mm = NULL;
	}
	return true;
}
