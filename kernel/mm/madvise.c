/*
 * kernel/mm/madvise.c: madvise(2), as Linux's mm/madvise.c.
 *
 * Advice either changes a region's flags (the region split to the range
 * first, merged with its neighbours again after: MADV_DONTFORK and the
 * rest of madvise_vma_behavior's flag cases), or acts on the pages
 * (MADV_DONTNEED, MADV_FREE, MADV_REMOVE, MADV_POPULATE_*), or is a hint
 * umk has no use for (MADV_WILLNEED, MADV_COLD, MADV_PAGEOUT: 0, as a
 * Linux whose memory is never swapped answers). A range with a hole is
 * -ENOMEM, the advice applied to the regions there all the same.
 *
 * Pages live in host memory files (docs/design.md "Address spaces"), so
 * dropping private pages is punching their range of mm->mem: the window
 * maps that file, and the range reads zeros at once, as Linux's zero-fill
 * on the next touch. MADV_FREE drops them the same way, at once, as Linux
 * does under memory pressure. MADV_REMOVE punches a shared mapping's
 * object, which every process mapping it sees, and the file too.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uapi/mman.h>

#include "internal.h"

/* Linux 6.12's advice, with its configuration (KSM and transparent huge
 * pages built in; memory-failure injection: see madvise_inject_error). */
static bool madvise_behavior_valid(int behavior)
{
	switch (behavior) {
	case MADV_DOFORK:
	case MADV_DONTFORK:
	case MADV_NORMAL:
	case MADV_SEQUENTIAL:
	case MADV_RANDOM:
	case MADV_REMOVE:
	case MADV_WILLNEED:
	case MADV_DONTNEED:
	case MADV_DONTNEED_LOCKED:
	case MADV_FREE:
	case MADV_COLD:
	case MADV_PAGEOUT:
	case MADV_POPULATE_READ:
	case MADV_POPULATE_WRITE:
	case MADV_MERGEABLE:
	case MADV_UNMERGEABLE:
	case MADV_HUGEPAGE:
	case MADV_NOHUGEPAGE:
	case MADV_COLLAPSE:
	case MADV_DONTDUMP:
	case MADV_DODUMP:
	case MADV_WIPEONFORK:
	case MADV_KEEPONFORK:
	case MADV_SOFT_OFFLINE:
	case MADV_HWPOISON:
		return true;
	default:
		return false;
	}
}

/* Does the advice change the regions' flags (and so split them)? */
static bool madvise_sets_flags(int behavior)
{
	switch (behavior) {
	case MADV_NORMAL:
	case MADV_SEQUENTIAL:
	case MADV_RANDOM:
	case MADV_DONTFORK:
	case MADV_DOFORK:
	case MADV_WIPEONFORK:
	case MADV_KEEPONFORK:
	case MADV_DONTDUMP:
	case MADV_DODUMP:
	case MADV_MERGEABLE:
	case MADV_UNMERGEABLE:
	case MADV_HUGEPAGE:
	case MADV_NOHUGEPAGE:
		return true;
	default:
		return false;
	}
}

/* A region of the process's own pages (Linux's vma_is_anonymous). A file
 * mapped privately and writable counts too: umk copied the file's bytes
 * into the process's pages at mmap (kernel/mm/mmap.c). */
static bool vma_is_anonymous(struct vm_area_struct *vma)
{
	return !vma->shared;
}

/* MADV_DONTNEED and MADV_FREE on [start, end) of vma: private pages are
 * punched and read zeros; a shared region's and a private file's pages
 * are their object's, and stay (Linux drops only its page tables). */
static int madvise_dontneed_free(struct mm_struct *mm, struct vm_area_struct *vma,
				 unsigned long start, unsigned long end, int behavior)
{
	if (behavior == MADV_FREE && !vma_is_anonymous(vma))
		return -EINVAL;
	if (vma_is_anonymous(vma))
		return os_punch_hole(mm->mem->fd, start, end - start);
	return 0;
}

/* MADV_REMOVE (madvise_remove): the shared object's range punched, as
 * fallocate(FALLOC_FL_PUNCH_HOLE) on the file; only where the mapping may
 * write it. */
static int madvise_remove(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	if (!vma->shared)
		return -EINVAL;		/* no file behind private memory */
	if (vma->private_file || !(vma->vm_flags & VM_MAYWRITE))
		return -EACCES;
	return os_punch_hole(vma->shared->fd, vma_offset(vma, start), end - start);
}

/* The region's flags as the advice leaves them, or -errno (Linux's
 * madvise_vma_behavior, flag cases). */
static long new_vm_flags(struct vm_area_struct *vma, int behavior)
{
	unsigned long flags = vma->vm_flags;

	switch (behavior) {
	case MADV_NORMAL:
		return (long)(flags & ~(VM_RAND_READ | VM_SEQ_READ));
	case MADV_SEQUENTIAL:
		return (long)((flags & ~VM_RAND_READ) | VM_SEQ_READ);
	case MADV_RANDOM:
		return (long)((flags & ~VM_SEQ_READ) | VM_RAND_READ);
	case MADV_DONTFORK:
		return (long)(flags | VM_DONTCOPY);
	case MADV_DOFORK:
		return (long)(flags & ~VM_DONTCOPY);
	case MADV_WIPEONFORK:
		/* only anonymous memory can be wiped */
		if (!vma_is_anonymous(vma))
			return -EINVAL;
		return (long)(flags | VM_WIPEONFORK);
	case MADV_KEEPONFORK:
		return (long)(flags & ~VM_WIPEONFORK);
	case MADV_DONTDUMP:
		return (long)(flags | VM_DONTDUMP);
	case MADV_DODUMP:
		return (long)(flags & ~VM_DONTDUMP);
	case MADV_MERGEABLE:
		/* KSM merges private pages only (ksm_madvise) */
		return (long)(vma->shared ? flags : flags | VM_MERGEABLE);
	case MADV_UNMERGEABLE:
		return (long)(flags & ~VM_MERGEABLE);
	case MADV_HUGEPAGE:
		return (long)((flags & ~VM_NOHUGEPAGE) | VM_HUGEPAGE);
	case MADV_NOHUGEPAGE:
		return (long)((flags & ~VM_HUGEPAGE) | VM_NOHUGEPAGE);
	}
	return -EINVAL;
}

/* The advice on [start, end), a part of vma (the whole of it for flag
 * changes, which split the regions first). */
static int madvise_vma_behavior(struct mm_struct *mm, struct vm_area_struct *vma,
				unsigned long start, unsigned long end, int behavior)
{
	long flags;

	switch (behavior) {
	case MADV_REMOVE:
		return madvise_remove(vma, start, end);
	case MADV_WILLNEED:
	case MADV_COLD:
	case MADV_PAGEOUT:
		return 0;	/* nothing is ever swapped out */
	case MADV_FREE:
	case MADV_DONTNEED:
	case MADV_DONTNEED_LOCKED:
		return madvise_dontneed_free(mm, vma, start, end, behavior);
	case MADV_COLLAPSE:
		/* The pages are in host memory files, which have no huge
		 * pages: Linux's answer for memory that cannot have them. */
		return -EINVAL;
	}
	flags = new_vm_flags(vma, behavior);
	if (flags < 0)
		return (int)flags;
	vma->vm_flags = (unsigned long)flags;
	return 0;
}

/*
 * Call the advice on each region in [start, end) (Linux's
 * madvise_walk_vmas): the first error ends the walk; a hole is -ENOMEM at
 * the end, the regions after it advised all the same.
 */
static int madvise_walk_vmas(struct mm_struct *mm, unsigned long start, unsigned long end,
			     int behavior)
{
	struct vm_area_struct *vma = vma_above(mm, start);
	int unmapped_error = 0;

	list_for_each_entry_from(vma, &mm->mmap, list) {
		unsigned long s, e;
		int err;

		if (vma->vm_start >= end)
			break;
		if (start < vma->vm_start)
			unmapped_error = -ENOMEM;
		s = max(start, vma->vm_start);
		e = min(end, vma->vm_end);
		err = madvise_vma_behavior(mm, vma, s, e, behavior);
		if (err)
			return err;
		start = e;
		if (start >= end)
			return unmapped_error;
	}
	return -ENOMEM;		/* the range runs past the last region */
}

/*
 * MADV_POPULATE_READ and _WRITE (madvise_populate): fault the pages in as
 * a read or a write would, stopping at the first hole (-ENOMEM) or at a
 * region that access would not be allowed in (-EINVAL). A read needs
 * nothing more: a page of a host memory file reads zeros until written.
 * A write gives the pages their memory now, as the first writes would
 * (they count in VmRSS).
 */
static int madvise_populate(struct mm_struct *mm, unsigned long start, unsigned long end,
			    int behavior)
{
	bool write = behavior == MADV_POPULATE_WRITE;
	struct vm_area_struct *vma = vma_above(mm, start);

	list_for_each_entry_from(vma, &mm->mmap, list) {
		unsigned long e;
		int err;

		if (vma->vm_start > start)
			break;
		if (!(vma->prot & (write ? PROT_WRITE : PROT_READ)))
			return -EINVAL;
		e = min(end, vma->vm_end);
		if (write) {
			err = os_allocate(vma_fd(mm, vma), vma_offset(vma, start), e - start);
			if (err)
				return err == -ENOSPC ? -ENOMEM : err;
		}
		start = e;
		if (start >= end)
			return 0;
	}
	return -ENOMEM;
}

/* MADV_HWPOISON and MADV_SOFT_OFFLINE test memory-failure handling on the
 * physical pages behind the range; only an administrator may. umk's pages
 * are a host file's, which it cannot fail: the administrator gets EINVAL,
 * as from a Linux built without CONFIG_MEMORY_FAILURE. */
static int madvise_inject_error(void)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return -EINVAL;
}

long sys_madvise(unsigned long start, size_t len_in, int behavior)
{
	struct mm_struct *mm = current->mm;
	unsigned long end;
	size_t len;
	int err;

	if (!madvise_behavior_valid(behavior))
		return -EINVAL;
	if (offset_in_page(start))
		return -EINVAL;
	len = PAGE_ALIGN(len_in);
	/* len_in rounded up from a small negative value to zero */
	if (len_in && !len)
		return -EINVAL;
	end = start + len;
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	if (behavior == MADV_HWPOISON || behavior == MADV_SOFT_OFFLINE)
		return madvise_inject_error();
	if (!mm)
		return -ENOMEM;
	if (behavior == MADV_POPULATE_READ || behavior == MADV_POPULATE_WRITE)
		return madvise_populate(mm, start, end, behavior);
	if (!madvise_sets_flags(behavior))
		return madvise_walk_vmas(mm, start, end, behavior);
	/* Two splits may be needed, one region too many for the host
	 * (Linux's split fails with ENOMEM, which madvise reports as EAGAIN). */
	if (mm->map_count + 2 > DEFAULT_MAP_COUNT_MAX)
		return -EAGAIN;
	split_at(mm, start, end);
	err = madvise_walk_vmas(mm, start, end, behavior);
	merge_vmas(mm, start, end);
	return err;
}
