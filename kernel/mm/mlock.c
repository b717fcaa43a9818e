/*
 * kernel/mm/mlock.c: mlock, mlock2, munlock, mlockall and munlockall
 * (Linux's mm/mlock.c).
 *
 * A locked region has VM_LOCKED (and VM_LOCKONFAULT for MLOCK_ONFAULT and
 * MCL_ONFAULT); locking splits the regions to the range and merges them
 * again after, as madvise's flags do. mm->locked_vm_bytes sums the locked
 * regions (vm_account), which RLIMIT_MEMLOCK bounds for a process without
 * CAP_IPC_LOCK and /proc/PID/status shows as VmLck. mlockall(MCL_FUTURE)
 * puts VM_LOCKED in mm->def_flags, which every new region gets (add_region).
 * Locks are not inherited by fork, and exec starts without them.
 *
 * Locking a page keeps it in memory: umk's pages are in host memory files,
 * which the host may swap like any other of its memory; umk locks nothing
 * on the host. What the lock does show is Linux's: the pages of a region
 * locked without MLOCK_ONFAULT are populated at once (they count in VmRSS),
 * as mm_populate faults them in.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uapi/mman.h>

#include "internal.h"

/* mlock2's flag and mlockall's (include/uapi/asm-generic/mman-common.h) */
#define MLOCK_ONFAULT	0x01
#define MCL_CURRENT	1
#define MCL_FUTURE	2
#define MCL_ONFAULT	4

/* A process may lock memory with a RLIMIT_MEMLOCK above 0 or CAP_IPC_LOCK. */
static bool can_do_mlock(void)
{
	return rlimit(RLIMIT_MEMLOCK) != 0 || capable(CAP_IPC_LOCK);
}

/* vma's new lock flags (mlock_fixup), its bytes moved in or out of
 * locked_vm. */
static void mlock_fixup(struct mm_struct *mm, struct vm_area_struct *vma,
			unsigned long newflags)
{
	if (vma->vm_flags == newflags)
		return;
	vm_account(mm, vma, -1);
	vma->vm_flags = newflags;
	vm_account(mm, vma, 1);
}

/* Give a newly locked region's pages their memory (mm_populate): the
 * writable ones, as their first writes would; a read of a page that was
 * never written reads zeros without a page of its own. */
static void populate(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = vma_above(mm, start);

	list_for_each_entry_from(vma, &mm->mmap, list) {
		unsigned long s = max(start, vma->vm_start), e = min(end, vma->vm_end);

		if (vma->vm_start >= end)
			break;
		if ((vma->vm_flags & VM_LOCKONFAULT) || !(vma->prot & PROT_WRITE) ||
		    vma->private_file)
			continue;
		os_allocate(vma_fd(mm, vma), vma_offset(vma, s), e - s);
	}
}

/* The lock flags of every region in [start, start + len), which must all
 * be mapped (-ENOMEM otherwise, the regions before the hole changed, as
 * Linux's apply_vma_lock_flags leaves them). */
static int apply_vma_lock_flags(struct mm_struct *mm, unsigned long start, size_t len,
				unsigned long flags)
{
	unsigned long end = start + len, next = start;
	struct vm_area_struct *vma;
	int err = 0;

	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	if (mm->map_count + 2 > DEFAULT_MAP_COUNT_MAX)
		return -ENOMEM;
	split_at(mm, start, end);
	vma = vma_above(mm, start);
	list_for_each_entry_from(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (vma->vm_start != next) {
			err = -ENOMEM;
			break;
		}
		mlock_fixup(mm, vma, (vma->vm_flags & ~VM_LOCKED_MASK) | flags);
		next = vma->vm_end;
	}
	if (!err && next < end)
		err = -ENOMEM;
	merge_vmas(mm, start, end);
	return err;
}

/* The locked bytes of [start, start + len) (count_mm_mlocked_page_nr). */
static unsigned long locked_in(struct mm_struct *mm, unsigned long start, size_t len)
{
	struct vm_area_struct *vma = vma_above(mm, start);
	unsigned long end = start + len, sum = 0;

	list_for_each_entry_from(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (vma->vm_flags & VM_LOCKED)
			sum += min(end, vma->vm_end) - max(start, vma->vm_start);
	}
	return sum;
}

static long do_mlock(unsigned long start, size_t len, unsigned long flags)
{
	struct mm_struct *mm = current->mm;
	unsigned long locked;
	int err;

	if (!can_do_mlock())
		return -EPERM;
	len = PAGE_ALIGN(len + offset_in_page(start));
	start &= PAGE_MASK;
	if (!mm)
		return -ENOMEM;
	locked = len + mm->locked_vm_bytes;
	if (locked > rlimit(RLIMIT_MEMLOCK) && !capable(CAP_IPC_LOCK)) {
		/* what the range has locked already is not locked twice */
		locked -= locked_in(mm, start, len);
		if (locked > rlimit(RLIMIT_MEMLOCK))
			return -ENOMEM;
	}
	err = apply_vma_lock_flags(mm, start, len, flags);
	if (!err)
		populate(mm, start, start + len);
	return err;
}

int mm_lock_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	int err = apply_vma_lock_flags(mm, start, end - start, VM_LOCKED);

	if (!err)
		populate(mm, start, end);
	return err;
}

bool mlock_future_ok(struct mm_struct *mm, unsigned long flags, unsigned long len)
{
	if (!(flags & VM_LOCKED) || capable(CAP_IPC_LOCK))
		return true;
	return len + mm->locked_vm_bytes <= rlimit(RLIMIT_MEMLOCK);
}

long sys_mlock(unsigned long start, size_t len)
{
	return do_mlock(start, len, VM_LOCKED);
}

long sys_mlock2(unsigned long start, size_t len, int flags)
{
	if (flags & ~MLOCK_ONFAULT)
		return -EINVAL;
	return do_mlock(start, len, VM_LOCKED | (flags & MLOCK_ONFAULT ? VM_LOCKONFAULT : 0));
}

long sys_munlock(unsigned long start, size_t len)
{
	struct mm_struct *mm = current->mm;

	len = PAGE_ALIGN(len + offset_in_page(start));
	start &= PAGE_MASK;
	if (!mm)
		return -ENOMEM;
	return apply_vma_lock_flags(mm, start, len, 0);
}

/* mlockall's and munlockall's flags (apply_mlockall_flags): def_flags for
 * the regions to come, and every region's lock flags now. */
static void apply_mlockall_flags(struct mm_struct *mm, int flags)
{
	unsigned long to_add = 0;
	struct vm_area_struct *vma;

	mm->def_flags &= ~VM_LOCKED_MASK;
	if (flags & MCL_FUTURE)
		mm->def_flags |= VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
	if (flags & MCL_CURRENT)
		to_add = VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
	else if (flags & MCL_FUTURE)
		return;
	list_for_each_entry(vma, &mm->mmap, list)
		mlock_fixup(mm, vma, (vma->vm_flags & ~VM_LOCKED_MASK) | to_add);
	merge_vmas(mm, 0, TASK_SIZE);
}

long sys_mlockall(int flags)
{
	struct mm_struct *mm = current->mm;

	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
		return -EINVAL;
	if (!can_do_mlock())
		return -EPERM;
	if (!mm)
		return -ENOMEM;
	if ((flags & MCL_CURRENT) && mm->total_vm_bytes > rlimit(RLIMIT_MEMLOCK) &&
	    !capable(CAP_IPC_LOCK))
		return -ENOMEM;
	apply_mlockall_flags(mm, flags);
	if (flags & MCL_CURRENT)
		populate(mm, 0, TASK_SIZE);
	return 0;
}

long sys_munlockall(void)
{
	if (current->mm)
		apply_mlockall_flags(current->mm, 0);
	return 0;
}
