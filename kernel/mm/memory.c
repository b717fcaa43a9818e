/*
 * kernel/mm/memory.c: reaching into an address space from outside its
 * regions' own calls: fork's copy (kernel/fork.c's dup_mm, mm/mmap.c's
 * dup_mmap), another task's memory (mm/memory.c's access_process_vm),
 * access_ok(), futex keys of shared memory, the resident size, and the
 * si_code of a user page fault.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/uaccess.h>
#include <umk/vdso.h>

#include "internal.h"

/*
 * The private pages of old into mm's file, whose regions are old's: runs of
 * adjacent private regions in one go, each extent of data copied once by
 * the host, file to file. With dirty (a spare file, which holds a dead
 * process's pages), everything of mm's file that is not old's data is
 * punched. 0 or -errno.
 */
static int copy_run(struct mm_struct *old, struct mm_struct *mm, unsigned long s, unsigned long e,
		    bool dirty, unsigned long *done)
{
	int err = 0;

	if (dirty && s > *done)
		err = os_punch_hole(mm->mem->fd, *done, s - *done);
	if (!err)
		err = os_copy_data(old->mem->fd, mm->mem->fd, s, e - s, dirty);
	*done = e;
	return err;
}

static int copy_private(struct mm_struct *old, struct mm_struct *mm, bool dirty)
{
	struct vm_area_struct *vma;
	unsigned long run_s = 0, run_e = 0, done = 0;
	int err;

	list_for_each_entry(vma, &old->mmap, list) {
		/* Shared pages are the object's; a region fork leaves out
		 * (MADV_DONTFORK) or wipes (MADV_WIPEONFORK) has none to copy. */
		if (vma->shared || (vma->vm_flags & (VM_DONTCOPY | VM_WIPEONFORK)))
			continue;
		if (vma->vm_start == run_e) {
			run_e = vma->vm_end;
			continue;
		}
		if (run_e > run_s) {
			err = copy_run(old, mm, run_s, run_e, dirty, &done);
			if (err)
				return err;
		}
		run_s = vma->vm_start;
		run_e = vma->vm_end;
	}
	if (run_e > run_s) {
		err = copy_run(old, mm, run_s, run_e, dirty, &done);
		if (err)
			return err;
	}
	if (dirty && TASK_SIZE > done)
		return os_punch_hole(mm->mem->fd, done, TASK_SIZE - done);
	return 0;
}

/*
 * fork's copy of an address space (kernel/fork.c's dup_mm, mm/mmap.c's
 * dup_mmap): the same regions, private pages copied (only their data
 * extents: untouched memory costs nothing), shared objects shared, into
 * the spare file of the last mm dropped if there is one. A VM_DONTCOPY
 * region is left out, a VM_WIPEONFORK one is the child's as zeros
 * (madvise). Copy-on-write would copy less but cost more on the host (a
 * fault a page: docs/design.md, "What a process switch and a fork cost").
 */
struct mm_struct *dup_mm(struct mm_struct *old)
{
	struct hostmem *spare = mm_take_spare();
	struct mm_struct *mm;
	struct vm_area_struct *vma;
	struct hostmem *mem;
	unsigned int id;

	mm = spare ? mm_alloc_mem(spare) : mm_alloc();
	if (!mm)
		return NULL;
	mem = mm->mem;
	id = mm->id;
	*mm = *old;	/* brk, stack, argument and exe fields */
	mm->id = id;
	mm->exe_file = NULL;
	set_mm_exe_file(mm, old->exe_file);
	INIT_LIST_HEAD(&mm->mmap);
	INIT_LIST_HEAD(&mm->ioctx_list);	/* AIO contexts stay the parent's */
	mm->mm_rb = NULL;
	mm->mmap_cache = NULL;
	mm->mem = mem;
	mm->users = 1;
	mm->map_count = 0;
	/* memory locks are not inherited (dup_mmap, mm_init) */
	mm->locked_vm_bytes = 0;
	mm->def_flags = 0;
	list_for_each_entry(vma, &old->mmap, list) {
		struct vm_area_struct *new;

		if (vma->vm_flags & VM_DONTCOPY) {
			struct vm_area_struct unlocked = *vma;

			/* out of the sums copied from old (not locked_vm:
			 * the child's starts at 0) */
			unlocked.vm_flags &= ~VM_LOCKED_MASK;
			vm_account(mm, &unlocked, -1);
			continue;
		}
		new = kmalloc(sizeof(*new));
		*new = *vma;
		new->vm_flags &= ~VM_LOCKED_MASK;
		if (new->shared)
			hostmem_get(new->shared);
		list_add_tail(&new->list, &mm->mmap);
		vma_tree_insert(mm, new);
		mm->map_count++;
	}
	if (copy_private(old, mm, spare != NULL)) {
		mmput(mm);
		return NULL;
	}
	return mm;
}

bool mm_shared_key(struct mm_struct *mm, unsigned long addr, struct hostmem **obj, u64 *off)
{
	struct vm_area_struct *vma = mm ? find_vma(mm, addr) : NULL;

	if (!vma || !vma->shared || vma->private_file)
		return false;
	*obj = vma->shared;
	*off = vma_offset(vma, addr);
	return true;
}

bool mm_futex_page_ok(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma = mm ? find_vma(mm, addr) : NULL;

	if (!vma || vma->vm_start > addr)
		return false;
	/* writable, or a file's page (get_futex_key's read-only retry finds a
	 * page with a mapping; private memory never written has none) */
	return (vma->prot & PROT_WRITE) || (vma->shared && (vma->prot & PROT_READ));
}

size_t access_process_vm(struct task_struct *tsk, unsigned long addr, void *buf, size_t len)
{
	struct mm_struct *mm = tsk->mm;
	struct vm_area_struct *vma;
	size_t done = 0;

	if (!mm)
		return 0;
	while (done < len) {
		unsigned long a = addr + done;
		size_t n;
		ssize_t r;

		/* The vDSO is no region of mm: one image at the same place in
		 * every process (kernel/vdso.c), read where it is (gdb reads
		 * its ELF headers and symbols). */
		if (a >= vdso_image_base() && a < vdso_image_base() + vdso_image_size()) {
			n = min(len - done, vdso_image_base() + vdso_image_size() - a);
			memcpy((char *)buf + done, (const void *)a, n);
			done += n;
			continue;
		}
		vma = find_vma(mm, a);
		if (!vma || !(vma->prot & PROT_READ))
			break;
		n = min(len - done, vma->vm_end - a);
		r = os_pread(vma_fd(mm, vma), (char *)buf + done, n, vma_offset(vma, a));
		if (r <= 0)
			break;
		done += r;
	}
	return done;
}

size_t access_process_vm_write(struct task_struct *tsk, unsigned long addr, const void *buf,
			       size_t len)
{
	struct mm_struct *mm = tsk->mm;
	struct vm_area_struct *vma;
	size_t done = 0;

	if (!mm)
		return 0;
	while (done < len) {
		unsigned long a = addr + done;
		size_t n;
		ssize_t r;

		vma = find_vma(mm, a);
		if (!vma)
			break;
		/* Never into the file a private mapping shows (FOLL_FORCE's
		 * copy-on-write): the region's pages become the process's. */
		if (vma->private_file && vma_materialize(mm, vma))
			break;
		if (vma->shared && !(vma->prot & PROT_WRITE))
			break;
		n = min(len - done, vma->vm_end - a);
		r = os_pwrite(vma_fd(mm, vma), (const char *)buf + done, n, vma_offset(vma, a));
		if (r <= 0)
			break;
		done += r;
	}
	return done;
}

/* Kernel threads (no mm) own no user memory. Low addresses are never in a
 * region: the host refuses to map below vm.mmap_min_addr. A range that
 * starts below a stack grows it first, as Linux's fault on that address
 * from kernel mode would (a buffer on the stack the program has not yet
 * touched, handed to read). */
bool access_ok(const void __user *addr, size_t size)
{
	unsigned long start = (unsigned long)addr;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	if (!size)
		return true;
	if (!mm || start + size < start)
		return false;
	if (range_covered(mm, start, start + size))
		return true;
	vma = vma_above(mm, start);
	if (&vma->list == &mm->mmap || start >= vma->vm_start ||
	    expand_downwards(mm, vma, start))
		return false;
	return range_covered(mm, start, start + size);
}

unsigned long mm_rss_kib(struct mm_struct *mm)
{
	struct stat st;

	if (!mm || os_fstat(mm->mem->fd, &st))
		return 0;
	return st.st_blocks / 2;	/* 512-byte blocks */
}

/*
 * The host's SIGSEGV for a user access umk's regions did not allow. The
 * window holds every address of the window, PROT_NONE where the program
 * has nothing, so the host's si_code says SEGV_ACCERR even there: an
 * address in no region is SEGV_MAPERR, as on Linux, unless it is just
 * below a VM_GROWSDOWN region that can grow to it (a stack: Linux's
 * expand_stack). In a region, the host's code stands.
 */
int do_user_addr_fault(unsigned long address, int *code)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	if (!mm)
		return -EFAULT;
	vma = vma_above(mm, address);
	if (&vma->list != &mm->mmap && vma_is_brk_reserve(mm, vma))
		vma = list_entry(vma->list.next, struct vm_area_struct, list);
	if (&vma->list != &mm->mmap && vma->vm_start <= address)
		return -EFAULT;
	if (&vma->list != &mm->mmap && !expand_downwards(mm, vma, address))
		return 0;
	*code = SEGV_MAPERR;
	return -EFAULT;
}

