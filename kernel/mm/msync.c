/*
 * kernel/mm/msync.c: msync and mincore (Linux's mm/msync.c and
 * mm/mincore.c).
 *
 * msync: a region's pages are its host file's pages already (the window
 * maps the file itself: docs/design.md "Address spaces"), so there is
 * nothing to write back into the file; MS_SYNC makes a shared region's
 * object durable as fsync does the file. MS_INVALIDATE on a locked region
 * is EBUSY.
 *
 * mincore: whether each page is in memory, which for umk's pages is
 * whether the host has the page of the region's file: the host's own
 * mincore over the window's mapping of it, which is the current mm's.
 */
#include <umk/errno.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/mman.h>

#include "internal.h"

#define MS_ASYNC	1
#define MS_INVALIDATE	2
#define MS_SYNC		4

long sys_msync(unsigned long start, size_t len, int flags)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long end;
	int unmapped_error = 0;

	if (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC))
		return -EINVAL;
	if (offset_in_page(start))
		return -EINVAL;
	if ((flags & MS_ASYNC) && (flags & MS_SYNC))
		return -EINVAL;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end < start)
		return -ENOMEM;
	if (end == start)
		return 0;
	if (!mm)
		return -ENOMEM;
	/* A hole is -ENOMEM at the end; the regions after it are synced all
	 * the same, as Linux's loop goes on. */
	vma = vma_above(mm, start);
	list_for_each_entry_from(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (start < vma->vm_start)
			unmapped_error = -ENOMEM;
		if ((flags & MS_INVALIDATE) && (vma->vm_flags & VM_LOCKED))
			return -EBUSY;
		if ((flags & MS_SYNC) && vma->shared && !vma->private_file) {
			int err = os_fsync(vma->shared->fd);

			if (err)
				return err;
		}
		start = vma->vm_end;
		if (start >= end)
			return unmapped_error;
	}
	return -ENOMEM;
}

long sys_mincore(unsigned long start, size_t len, unsigned char __user *vec)
{
	struct mm_struct *mm = current->mm;
	unsigned long pages, end;
	unsigned char *buf;
	int err;

	if (offset_in_page(start))
		return -EINVAL;
	/* the range must be the process's: past TASK_SIZE is ENOMEM */
	if (start >= TASK_SIZE_MAX || len > TASK_SIZE_MAX - start)
		return -ENOMEM;
	pages = PAGE_ALIGN(len) >> 12;
	if (!access_ok(vec, pages))
		return -EFAULT;
	if (!pages)
		return 0;
	end = start + (pages << 12);
	/* unmapped, or the brk reservation that stands for unmapped space */
	if (!mm || !range_covered(mm, start, end) ||
	    (start < mm->brk_limit && end > PAGE_ALIGN(mm->brk) &&
	     range_is_kind(mm, max(start, PAGE_ALIGN(mm->brk)), min(end, mm->brk_limit), VMA_BRK)))
		return -ENOMEM;
	buf = kmalloc(pages);
	err = os_mincore((void *)start, pages << 12, buf);
	if (!err && copy_to_user(vec, buf, pages))
		err = -EFAULT;
	kfree(buf);
	return err;
}
