/*
 * kernel/mm/mremap.c: mremap(2) (Linux's mm/mremap.c): a region grown in
 * place when the space after it is free, shrunk (its tail unmapped), moved
 * (MREMAP_MAYMOVE when it cannot grow in place, MREMAP_FIXED to a given
 * address over whatever was there), moved leaving the old range mapped
 * (MREMAP_DONTUNMAP), or a shared mapping duplicated (old_size 0). The
 * checks, their order and their errors are Linux 6.18's, with its move of
 * several regions at once (MREMAP_FIXED without a change of size).
 *
 * Linux moves page tables; umk moves where the pages are. A shared
 * region's pages are its object's, at vm_off: its move is bookkeeping, a
 * region at the new address naming the same object and offset. A private
 * region's pages are in the mm's memory file at offsets equal to their
 * addresses (kernel/mm/vma.c), so a move changes their offsets: the host
 * copies the old range's data extents to the new offsets inside that file
 * (os_copy_data_at: copy_file_range; untouched pages cost nothing) and the
 * old range is punched. No byte goes through umk's memory or the
 * program's. The window follows the bookkeeping, as for mmap, when the mm
 * is the one in it (add_region, forget_range).
 */
#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/syscalls.h>

#include "internal.h"

/* What the call does to the size (Linux's enum mremap_type). */
enum mremap_type {
	MREMAP_INVALID,
	MREMAP_NO_RESIZE,	/* old_len == new_len: unless moved, nothing */
	MREMAP_SHRINK,		/* old_len > new_len */
	MREMAP_EXPAND,		/* old_len < new_len */
};

/* One mremap as it goes (Linux's struct vma_remap_struct): the caller's
 * arguments, lengths page aligned, and the region addr is in. remap_move
 * reuses it for each region it moves. */
struct vma_remap_struct {
	unsigned long addr, old_len, new_len, flags, new_addr;
	struct vm_area_struct *vma;
	unsigned long delta;		/* |new_len - old_len| */
	enum mremap_type remap_type;
};

/* The brk reservation beyond the break (a PROT_NONE VMA_BRK region) is
 * unmapped space to the program, as in sys_mprotect. */
static bool beyond_break(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return vma->kind == VMA_BRK && vma->prot == PROT_NONE &&
	       vma->vm_start >= PAGE_ALIGN(mm->brk);
}

/* The region holding addr, as the program sees its regions (Linux's
 * vma_lookup), or NULL. */
static struct vm_area_struct *vma_lookup(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	return vma && !beyond_break(mm, vma) ? vma : NULL;
}

/* The first region the program sees that ends above addr and starts below
 * end, or NULL. */
static struct vm_area_struct *next_vma(struct mm_struct *mm, unsigned long addr,
				       unsigned long end)
{
	struct vm_area_struct *vma = vma_above(mm, addr);

	list_for_each_entry_from(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (!beyond_break(mm, vma))
			return vma;
	}
	return NULL;
}

/* The call names the new address: MREMAP_FIXED, or MREMAP_DONTUNMAP (a
 * hint without MREMAP_FIXED). */
static bool vrm_implies_new_addr(struct vma_remap_struct *vrm)
{
	return vrm->flags & (MREMAP_FIXED | MREMAP_DONTUNMAP);
}

static bool vrm_overlaps(struct vma_remap_struct *vrm)
{
	return vrm->addr + vrm->old_len > vrm->new_addr &&
	       vrm->new_addr + vrm->new_len > vrm->addr;
}

/* A region mapped shared (Linux's VM_SHARED | VM_MAYSHARE): the only kind
 * old_len 0 may duplicate. */
static bool vma_is_shared(struct vm_area_struct *vma)
{
	return vma->shared && !vma->private_file;
}

/*
 * The arguments alone (Linux's check_mremap_params), before any region is
 * looked at. The limits are Linux's user address space (TASK_SIZE_MAX):
 * a range valid there but beyond umk's window is ENOMEM later, as for
 * mmap (set_new_addr).
 */
static long check_mremap_params(struct vma_remap_struct *vrm)
{
	unsigned long flags = vrm->flags;

	if (flags & ~(unsigned long)(MREMAP_FIXED | MREMAP_MAYMOVE | MREMAP_DONTUNMAP))
		return -EINVAL;
	if (offset_in_page(vrm->addr))
		return -EINVAL;
	/* old_len 0 duplicates a shared mapping; new_len 0 means nothing. */
	if (!vrm->new_len || vrm->new_len > TASK_SIZE_MAX)
		return -EINVAL;
	if (!vrm_implies_new_addr(vrm))
		return 0;
	if (vrm->new_addr > TASK_SIZE_MAX - vrm->new_len)
		return -EINVAL;
	if (offset_in_page(vrm->new_addr))
		return -EINVAL;
	if (!(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if ((flags & MREMAP_DONTUNMAP) && vrm->old_len != vrm->new_len)
		return -EINVAL;
	if (vrm_overlaps(vrm))
		return -EINVAL;
	return 0;
}

/*
 * The region found, and whether it may be resized or moved as asked
 * (Linux's check_prep_vma): EFAULT when addr is in no region or the range
 * to move leaves it, ENOMEM when growing passes RLIMIT_AS or RLIMIT_DATA
 * (may_expand_vm, as mmap). A shrink may unmap across regions.
 */
static long check_prep_vma(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	struct vm_area_struct *vma = vrm->vma;
	unsigned long old_len = vrm->old_len, new_len = vrm->new_len;

	if (!vma)
		return -EFAULT;
	vrm->delta = old_len > new_len ? old_len - new_len : new_len - old_len;
	vrm->remap_type = !vrm->delta ? MREMAP_NO_RESIZE
			  : old_len > new_len ? MREMAP_SHRINK : MREMAP_EXPAND;
	if (!vrm_implies_new_addr(vrm))
		vrm->new_addr = vrm->addr;
	/* Nothing new is mapped: a shrink or no change, in place. */
	if (vrm->remap_type != MREMAP_EXPAND && !vrm_implies_new_addr(vrm))
		return 0;
	if (!old_len && !vma_is_shared(vma))
		return -EINVAL;	/* a private "duplicate" would share nothing */
	if (vrm->remap_type == MREMAP_SHRINK)
		old_len = new_len;
	if (old_len > vma->vm_end - vrm->addr)
		return -EFAULT;
	if (new_len == old_len)
		return 0;
	if (!may_expand_vm(mm, 0, vrm->delta, false, is_data_vm(mm, vma)))
		return -ENOMEM;
	return 0;
}

/* Unmap the tail [addr + new_len, addr + old_len), whatever regions it
 * covers (Linux's shrink_vma); vrm->vma is the region at addr after. */
static long shrink_vma(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	int err = mm_unmap(mm, vrm->addr + vrm->new_len, vrm->delta);

	if (err)
		return err;
	vrm->vma = vma_lookup(mm, vrm->addr);
	return vrm->vma ? 0 : -EFAULT;
}

/*
 * Where the moved range goes (Linux's vrm_set_new_addr): new_addr itself
 * with MREMAP_FIXED, which must lie in the window as for mmap's MAP_FIXED
 * (ENOMEM above it, EPERM below USER_WINDOW_START); else a free range, at
 * new_addr if it is free and the call is MREMAP_DONTUNMAP, otherwise
 * where mmap would put it.
 */
static long set_new_addr(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	unsigned long len = vrm->new_len, addr;

	if (len > TASK_SIZE)
		return -ENOMEM;
	if (vrm->flags & MREMAP_FIXED) {
		if (vrm->new_addr > TASK_SIZE - len)
			return -ENOMEM;
		if (vrm->new_addr < USER_WINDOW_START)
			return -EPERM;
		return 0;
	}
	addr = get_unmapped_area(mm, vrm_implies_new_addr(vrm) ? vrm->new_addr : 0, len);
	if (!addr)
		return -ENOMEM;
	vrm->new_addr = addr;
	return 0;
}

/*
 * Move [addr, addr + old_len) of vrm->vma to new_addr as a region of
 * new_len bytes, the rest zeros (Linux's move_vma). new_addr's range is
 * free. A private region's data goes to its new offsets in mm->mem inside
 * the host, first, so that a failure changes nothing; then the new region
 * is mapped and the old range unmapped or, with MREMAP_DONTUNMAP, left
 * mapped and emptied (private pages punched: zeros, as Linux leaves an
 * anonymous range whose pages moved; a shared range still shows its
 * object, which Linux would fault in again).
 */
static long move_vma(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	struct vm_area_struct *vma = vrm->vma;
	unsigned long old = vrm->addr, new = vrm->new_addr, old_len = vrm->old_len;
	/* The region at the new address is no longer the heap. */
	enum vma_kind kind = vma->kind == VMA_BRK ? VMA_ANON : vma->kind;
	struct hostmem *obj = vma->shared;
	u64 off = obj ? vma_offset(vma, old) : 0;
	bool private_file = vma->private_file;
	unsigned long vm_flags = vma->vm_flags;
	int prot = vma->prot, fd = mm->mem->fd, err;

	/* Room for a new region and a split of the old one. */
	if (mm->map_count + 2 > DEFAULT_MAP_COUNT_MAX)
		return -ENOMEM;
	if (!obj && old_len) {
		err = os_copy_data_at(fd, old, fd, new, old_len);
		if (err) {
			os_punch_hole(fd, new, old_len);
			return -ENOMEM;
		}
	}
	/* vma may be merged away from here on: only its values are used. */
	err = add_region(mm, new, new + vrm->new_len, prot, kind, obj ? hostmem_get(obj) : NULL,
			 off, private_file, vm_flags);
	if (err) {
		if (!obj)
			os_punch_hole(fd, new, old_len);
		return err;
	}
	if (!old_len)
		return (long)new;	/* a duplicate: the old range stays */
	if (!(vrm->flags & MREMAP_DONTUNMAP)) {
		if (!forget_range(mm, old, old + old_len, true))
			return (long)new;
		/* The host could not clear the old range (out of mappings):
		 * it stays mapped without its private pages, as Linux leaves
		 * a range it failed to unmap after moving its pages. */
	}
	if (!obj)
		os_punch_hole(fd, old, old_len);
	return (long)new;
}

/* Can vma grow by delta bytes where it is: free space after it, inside
 * the window (Linux's vma_expandable)? The brk reservation beyond the
 * break is no free space here, as for mmap, where Linux has none. */
static bool vma_expandable(struct mm_struct *mm, struct vm_area_struct *vma,
			   unsigned long delta)
{
	unsigned long end = vma->vm_end + delta;

	if (end < vma->vm_end || end > TASK_SIZE)
		return false;
	return !range_intersects(mm, vma->vm_end, end);
}

/* Grow vma by delta bytes where it is (Linux's expand_vma_in_place): a
 * region over the free space after it, with its pages' next offsets, that
 * add_region merges into it. Private pages there are holes: zeros. */
static long expand_vma_in_place(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	struct vm_area_struct *vma = vrm->vma;
	unsigned long end = vma->vm_end;
	struct hostmem *obj = vma->shared ? hostmem_get(vma->shared) : NULL;

	return add_region(mm, end, end + vrm->delta, vma->prot, vma->kind, obj,
			  obj ? vma_offset(vma, end) : 0, vma->private_file, vma->vm_flags);
}

/* Grow without a new address given: in place if the range ends the
 * region and the space after it is free, else moved where mmap would map
 * it if MREMAP_MAYMOVE allows (Linux's expand_vma). */
static long expand_vma(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	long err;

	if (vrm->vma->vm_end - vrm->addr == vrm->old_len &&
	    vma_expandable(mm, vrm->vma, vrm->delta)) {
		err = expand_vma_in_place(mm, vrm);
		return err ? err : (long)vrm->addr;
	}
	if (!(vrm->flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	err = set_new_addr(mm, vrm);
	if (err)
		return err;
	return move_vma(mm, vrm);
}

/* No new address given (Linux's mremap_at). */
static long mremap_at(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	long err;

	switch (vrm->remap_type) {
	case MREMAP_NO_RESIZE:
		return (long)vrm->addr;
	case MREMAP_SHRINK:
		err = shrink_vma(mm, vrm);
		return err ? err : (long)vrm->addr;
	case MREMAP_EXPAND:
		return expand_vma(mm, vrm);
	case MREMAP_INVALID:
		break;
	}
	panic("mremap_at: remap type %d of [%#lx, +%#lx)", vrm->remap_type, vrm->addr,
	      vrm->old_len);
}

/*
 * A move to a new address (Linux's mremap_to): with MREMAP_FIXED whatever
 * was at new_addr is unmapped first, as by MAP_FIXED; a shrink unmaps the
 * tail, and the rest moves. MREMAP_DONTUNMAP keeps the old range, so the
 * whole length counts against the limits.
 */
static long mremap_to(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	long err;

	if (vrm->flags & MREMAP_FIXED) {
		err = mm_unmap(mm, vrm->new_addr, vrm->new_len);
		if (err)
			return err;
		/* The unmap may have split the region addr is in. */
		vrm->vma = vma_lookup(mm, vrm->addr);
		if (!vrm->vma)
			return -EFAULT;
	}
	if (vrm->remap_type == MREMAP_SHRINK) {
		err = shrink_vma(mm, vrm);
		if (err)
			return err;
		vrm->old_len = vrm->new_len;
	}
	if ((vrm->flags & MREMAP_DONTUNMAP) &&
	    !may_expand_vm(mm, 0, vrm->old_len, false, is_data_vm(mm, vrm->vma)))
		return -ENOMEM;
	err = set_new_addr(mm, vrm);
	if (err)
		return err;
	return move_vma(mm, vrm);
}

/*
 * MREMAP_FIXED without a change of size moves every region in [addr,
 * addr + old_len), each one as a call of its own (Linux's remap_move,
 * since 6.17): a gap between two regions stays the same gap at the new
 * address (what is mapped there stays), a gap at the start is EFAULT. It
 * stops at the first failure, what moved before it staying moved. Returns
 * the new address of the first.
 */
static long remap_move(struct mm_struct *mm, struct vma_remap_struct *vrm)
{
	unsigned long start = vrm->addr, end = vrm->addr + vrm->old_len;
	unsigned long target = vrm->new_addr, addr = start, last_end = 0;
	struct vm_area_struct *vma;
	long res = -EFAULT;
	bool seen = false;

	while (addr < end && (vma = next_vma(mm, addr, end))) {
		unsigned long a = max(vma->vm_start, start);
		unsigned long len = min(end, vma->vm_end) - a;
		unsigned long gap = seen ? vma->vm_start - last_end : 0;
		long r;

		if (!seen && start < vma->vm_start)
			return -EFAULT;
		last_end = vma->vm_end;
		vrm->vma = vma;
		vrm->addr = a;
		vrm->new_addr = target + gap;
		vrm->old_len = vrm->new_len = len;
		r = check_prep_vma(mm, vrm);
		if (!r)
			r = mremap_to(mm, vrm);
		if (IS_ERR_VALUE(r))
			return r;
		if (!seen)
			res = r;
		seen = true;
		target = (unsigned long)r + len;
		addr = a + len;
	}
	return res;
}

long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr)
{
	struct mm_struct *mm = current->mm;
	struct vma_remap_struct vrm = {
		.addr = addr,
		.old_len = PAGE_ALIGN(old_len),
		.new_len = PAGE_ALIGN(new_len),
		.flags = flags,
		.new_addr = new_addr,
		.remap_type = MREMAP_INVALID,
	};
	long res = check_mremap_params(&vrm);

	if (res)
		return res;
	if (!mm)
		return -EFAULT;
	/* Room for the worst case (Linux's check_map_count_against_split_early):
	 * the unmaps of the tail and of the target split a region each, the
	 * move adds one and splits the old one. */
	if (mm->map_count + 4 > DEFAULT_MAP_COUNT_MAX)
		return -ENOMEM;
	if ((flags & MREMAP_FIXED) && vrm.old_len == vrm.new_len)
		return remap_move(mm, &vrm);
	vrm.vma = vma_lookup(mm, addr);
	res = check_prep_vma(mm, &vrm);
	if (res)
		return res;
	return vrm_implies_new_addr(&vrm) ? mremap_to(mm, &vrm) : mremap_at(mm, &vrm);
}
