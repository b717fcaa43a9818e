/*
 * kernel/mm/mmap.c: the memory system calls brk, mmap, munmap and
 * mprotect (mm/mmap.c, mm/mprotect.c), with RLIMIT_AS and RLIMIT_DATA
 * (may_expand_vm); the regions they change are kernel/mm/vma.c's.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>

#include "internal.h"

/* The bytes of [start, end) in regions that count (is_total_vm, is_data_vm). */
static unsigned long vm_bytes(struct mm_struct *mm, unsigned long start, unsigned long end,
			      bool (*counts)(struct mm_struct *, struct vm_area_struct *))
{
	struct vm_area_struct *vma = vma_above(mm, start);
	unsigned long sum = 0;

	list_for_each_entry_from(vma, &mm->mmap, list) {
		unsigned long s = max(vma->vm_start, start), e = min(vma->vm_end, end);

		if (vma->vm_start >= end)
			break;
		if (counts(mm, vma))
			sum += e - s;
	}
	return sum;
}

/* data_vm, every region's: the private writable ones less the one holding
 * the main stack. */
static unsigned long data_vm_bytes(struct mm_struct *mm)
{
	struct vm_area_struct *stack = find_vma(mm, mm->start_stack);

	if (stack && !is_data_vm(mm, stack) && is_private_writable(stack))
		return mm->pw_vm_bytes - (stack->vm_end - stack->vm_start);
	return mm->pw_vm_bytes;
}

/* May mm grow by len bytes of a mapping with prot (data: it would count in
 * data_vm), replacing [addr, addr + len) if replace? */
bool may_expand_vm(struct mm_struct *mm, unsigned long addr, unsigned long len, bool replace,
		   bool data)
{
	unsigned long total = mm->total_vm_bytes;
	unsigned long old_total = replace ? vm_bytes(mm, addr, addr + len, is_total_vm) : 0;

	if (total - old_total + len > rlimit(RLIMIT_AS))
		return false;
	if (data) {
		unsigned long dat = data_vm_bytes(mm);
		unsigned long old_dat = replace ? vm_bytes(mm, addr, addr + len, is_data_vm) : 0;

		if (dat - old_dat + len > rlimit(RLIMIT_DATA))
			return false;
	}
	return true;
}

/*
 * brk (mm/mmap.c): exec reserves [start_brk, brk_limit) as PROT_NONE
 * VMA_BRK regions; the break moves inside it by changing protections. Like
 * Linux, brk returns the new break on success and the unchanged one on any
 * failure, and pages given back are fresh (zeroed) when taken again.
 */
long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current->mm;
	unsigned long newbrk, oldbrk;

	if (!mm)
		return -ENOMEM;
	if (brk < mm->start_brk || brk > mm->brk_limit)
		return mm->brk;
	newbrk = PAGE_ALIGN(brk);
	oldbrk = PAGE_ALIGN(mm->brk);
	if (newbrk == oldbrk) {
		mm->brk = brk;
		return brk;
	}
	if (newbrk < oldbrk) {
		/* The pages are freed, the reservation kept. */
		if (add_region(mm, newbrk, oldbrk, PROT_NONE, VMA_BRK, NULL, 0, false, 0))
			return mm->brk;
		mm->brk = brk;
		return brk;
	}
	/* Growing: only into the reservation, never over a MAP_FIXED mapping
	 * placed inside it (Linux checks for the next vma the same way). */
	if (!range_is_kind(mm, oldbrk, newbrk, VMA_BRK))
		return mm->brk;
	/* Linux's check_data_rlimit, then may_expand_vm. */
	if (brk - mm->start_brk + (mm->end_data - mm->start_data) > rlimit(RLIMIT_DATA) ||
	    !may_expand_vm(mm, oldbrk, newbrk - oldbrk, false, true) ||
	    !mlock_future_ok(mm, mm->def_flags, newbrk - oldbrk))
		return mm->brk;
	if (mm_protect(mm, oldbrk, newbrk - oldbrk, PROT_READ | PROT_WRITE))
		return mm->brk;
	/* after mlockall(MCL_FUTURE) the heap grows locked (do_brk_flags) */
	if (mm->def_flags & VM_LOCKED)
		mm_lock_range(mm, oldbrk, newbrk);
	mm->brk = brk;
	return brk;
}

/*
 * The pages of a new file mapping (mm/mmap.c's mmap_region with the file's
 * f_op->mmap): MAP_SHARED maps the object holding the file's pages;
 * MAP_PRIVATE copies the file's bytes into fresh private memory (the rest
 * of the last page, and pages past the end of the file, zero). Linux would
 * share the pages until written; umk copies at once.
 */
static long mmap_file(struct mm_struct *mm, struct file *f, unsigned long addr,
		      unsigned long len, int prot, unsigned long flags, u64 off)
{
	const struct file_operations *op = f->f_op;
	struct hostmem *obj = NULL;
	unsigned long done;
	int err = 0;
	/* A device's object (/dev/zero: shmem_zero_setup) is new and empty:
	 * it gets the size of the mapping, a file has its own. */
	bool sized = f->f_inode && S_ISCHR(f->f_inode->i_mode);

	if ((flags & MAP_TYPE) == MAP_SHARED) {
		if (!op->get_hostmem)
			return -ENODEV;
		if ((prot & PROT_WRITE) && !file_writable(f))
			return -EACCES;
		obj = op->get_hostmem(f, &err);
		if (!obj)
			return err ? err : -ENODEV;
		if (sized)
			os_ftruncate(obj->fd, off + len);
		err = add_region(mm, addr, addr + len, prot, VMA_ANON, obj, off, false,
				 file_writable(f) ? VM_MAYWRITE : 0);
		return err ? err : (long)addr;
	}
	if (!op->read_kernel && !op->get_hostmem)
		return -ENODEV;
	/* Not writable: the file's own pages, seen privately, shared with
	 * every process that maps the file (a library's code), until
	 * mprotect makes them writable (materialize). */
	if (!(prot & PROT_WRITE) && op->get_hostmem) {
		obj = op->get_hostmem(f, &err);
		if (!obj)
			return err ? err : -ENODEV;
		if (sized)
			os_ftruncate(obj->fd, off + len);
		err = add_region(mm, addr, addr + len, prot, VMA_ANON, obj, off, true, 0);
		return err ? err : (long)addr;
	}
	if (op->get_hostmem) {
		obj = op->get_hostmem(f, &err);
		if (!obj)
			return err ? err : -ENODEV;
	}
	/* Writable while the bytes go in; the protection asked for after. */
	err = add_region(mm, addr, addr + len, PROT_READ | PROT_WRITE, VMA_ANON, NULL, 0, false, 0);
	for (done = 0; !err && done < len;) {
		ssize_t r = obj ? os_pread(obj->fd, (char *)addr + done, len - done, off + done)
				: op->read_kernel(f, (char *)addr + done, len - done,
						  (s64)(off + done));

		if (r < 0)
			err = (int)r;
		if (r <= 0)
			break;
		done += r;
	}
	hostmem_put(obj);
	if (!err)
		err = mm_protect(mm, addr, len, prot);
	if (err) {
		forget_range(mm, addr, addr + len, true);
		return err;
	}
	return (long)addr;
}

/*
 * mmap (mm/mmap.c's do_mmap). Anonymous private memory is the mm's own;
 * anonymous MAP_SHARED memory is a new shared object (Linux's
 * shmem_zero_setup), which a fork shares; a file is mapped through its
 * file operations (mmap_file). MAP_FIXED replaces whatever the process had
 * there; the window below USER_WINDOW_START and above TASK_SIZE cannot be
 * mapped (EPERM, as below vm.mmap_min_addr, and ENOMEM).
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off)
{
	struct mm_struct *mm = current->mm;
	enum vma_kind kind = (flags & MAP_STACK) ? VMA_STACK : VMA_ANON;
	bool is_file = !(flags & MAP_ANONYMOUS);
	struct file *f = NULL;
	long ret;

	if (offset_in_page(off))
		return -EINVAL;
	if (is_file) {
		f = fget((unsigned int)fd);
		if (!f)
			return -EBADF;
	}
	ret = -EINVAL;
	if (!len)
		goto out;
	len = PAGE_ALIGN(len);
	ret = -ENOMEM;
	if (!len || len > TASK_SIZE || !mm)
		goto out;
	ret = -EOVERFLOW;
	if ((off >> 12) + (len >> 12) < (off >> 12))
		goto out;
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (flags & MAP_FIXED) {
		ret = -EINVAL;
		if (offset_in_page(addr))
			goto out;
		ret = -ENOMEM;
		if (addr > TASK_SIZE - len)
			goto out;
		ret = -EPERM;
		if (addr < USER_WINDOW_START)
			goto out;
		ret = -EEXIST;
		if ((flags & MAP_FIXED_NOREPLACE) && range_intersects(mm, addr, addr + len))
			goto out;
	}
	ret = -EINVAL;
	switch (flags & MAP_TYPE) {
	case MAP_SHARED_VALIDATE:
		/* a file's MAP_SHARED that refuses flags it does not know */
		if (!is_file)
			goto out;
		ret = -EOPNOTSUPP;
		if (flags & ~LEGACY_MAP_MASK)
			goto out;
		flags = (flags & ~MAP_TYPE) | MAP_SHARED;
		break;
	case MAP_SHARED:
	case MAP_PRIVATE:
		break;
	default:
		goto out;
	}
	/* a shared mapping cannot grow (do_mmap) */
	ret = -EINVAL;
	if ((flags & MAP_GROWSDOWN) && (flags & MAP_TYPE) == MAP_SHARED)
		goto out;
	ret = -EPERM;
	if ((flags & MAP_LOCKED) && !rlimit(RLIMIT_MEMLOCK) && !capable(CAP_IPC_LOCK))
		goto out;
	ret = -EAGAIN;
	if (!mlock_future_ok(mm, ((flags & MAP_LOCKED) ? VM_LOCKED : 0) | mm->def_flags, len))
		goto out;
	if (is_file && !file_readable(f)) {
		ret = -EACCES;
		goto out;
	}
	ret = -ENOMEM;
	if (!may_expand_vm(mm, addr, len, (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) == MAP_FIXED,
			   (prot & PROT_WRITE) && (flags & MAP_TYPE) == MAP_PRIVATE))
		goto out;
	if (!(flags & MAP_FIXED)) {
		addr = get_unmapped_area(mm, addr, len);
		if (!addr)
			goto out;
	}
	if (mm->map_count >= DEFAULT_MAP_COUNT_MAX)
		goto out;
	prot &= PROT_READ | PROT_WRITE | PROT_EXEC;
	if (is_file) {
		ret = mmap_file(mm, f, addr, len, (int)prot, flags, off);
	} else if ((flags & MAP_TYPE) == MAP_SHARED) {
		struct hostmem *obj = hostmem_create("umk-shared");

		if (!obj)
			goto out;
		ret = os_ftruncate(obj->fd, len);
		if (!ret)
			ret = add_region(mm, addr, addr + len, (int)prot, kind, obj, 0, false,
					 VM_MAYWRITE);
		else
			hostmem_put(obj);
		if (!ret)
			ret = (long)addr;
	} else {
		ret = add_region(mm, addr, addr + len, (int)prot, kind, NULL, 0, false,
				 (flags & MAP_GROWSDOWN) ? VM_GROWSDOWN : 0);
		if (!ret)
			ret = (long)addr;
	}
	/* MAP_LOCKED: locked and populated, as mlock would (vm_mmap_pgoff) */
	if (ret >= 0 && (flags & MAP_LOCKED))
		mm_lock_range(mm, addr, addr + len);
out:
	if (f)
		fput(f);
	return ret;
}

long mm_map_shared(struct mm_struct *mm, struct hostmem *obj, size_t len)
{
	unsigned long addr;
	int err;

	len = PAGE_ALIGN(len);
	if (!may_expand_vm(mm, 0, len, false, false) || mm->map_count >= DEFAULT_MAP_COUNT_MAX)
		return -ENOMEM;
	addr = get_unmapped_area(mm, 0, len);
	if (!addr)
		return -ENOMEM;
	err = add_region(mm, addr, addr + len, PROT_READ | PROT_WRITE, VMA_ANON, hostmem_get(obj),
			 0, false, VM_MAYWRITE);
	return err ? err : (long)addr;
}

long sys_munmap(unsigned long addr, size_t len)
{
	struct mm_struct *mm = current->mm;

	if (!mm)
		return -EINVAL;
	return mm_unmap(mm, addr, len);
}

long sys_mprotect(unsigned long start, size_t len, unsigned long prot)
{
	struct mm_struct *mm = current->mm;
	unsigned long grows = prot & (PROT_GROWSDOWN | PROT_GROWSUP);

	prot &= ~grows;
	if (grows == (PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	if (offset_in_page(start))
		return -EINVAL;
	if (!len)
		return 0;
	if (PAGE_ALIGN(len) == 0 || start + PAGE_ALIGN(len) <= start)
		return -ENOMEM;
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM))
		return -EINVAL;
	if (!mm)
		return -ENOMEM;
	/* PROT_GROWSDOWN: from the start of the VM_GROWSDOWN region at start
	 * (do_mprotect_pkey) */
	if (grows & PROT_GROWSDOWN) {
		struct vm_area_struct *vma = vma_above(mm, start);

		if (&vma->list == &mm->mmap || vma->vm_start >= start + PAGE_ALIGN(len))
			return -ENOMEM;
		if (!(vma->vm_flags & VM_GROWSDOWN))
			return -EINVAL;
		len = PAGE_ALIGN(len) + (start - vma->vm_start);
		start = vma->vm_start;
	}
	/* The brk reservation beyond the break is unmapped as far as the
	 * program can tell: only brk() may make it accessible. */
	if (start < mm->brk_limit && start + PAGE_ALIGN(len) > PAGE_ALIGN(mm->brk) &&
	    range_is_kind(mm, max(start, PAGE_ALIGN(mm->brk)),
			  min(start + PAGE_ALIGN(len), mm->brk_limit), VMA_BRK))
		return -ENOMEM;
	return mm_protect(mm, start, len, (int)(prot & (PROT_READ | PROT_WRITE | PROT_EXEC)));
}
