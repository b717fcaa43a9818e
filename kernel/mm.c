/*
 * kernel/mm.c: process memory regions, access_ok(), and the memory system
 * calls brk, mmap, munmap and mprotect (mm/nommu.c, mm/mmap.c,
 * mm/mprotect.c).
 *
 * umk is NOMMU: every process lives in the host's one address space. A
 * region (vm_area_struct) is a range of host anonymous memory the process
 * owns; mm->mmap lists them sorted by address, never overlapping, adjacent
 * ones of the same kind and protection merged. The memory system calls
 * only ever map, unmap or protect host memory inside the caller's own
 * regions, so a program cannot unmap the kernel or another process; where
 * Linux would replace whatever lies at a MAP_FIXED address, umk replaces
 * only what the process owns and fails if the rest belongs to someone else.
 *
 * Interface: include/umk/mm.h (mm_alloc, mmput, mm_map, mm_unmap,
 * mm_protect), include/umk/uaccess.h (access_ok) and the sys_* calls in
 * include/umk/syscalls.h.
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/mm.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

_Static_assert(PROT_READ == OS_PROT_READ && PROT_WRITE == OS_PROT_WRITE &&
		       PROT_EXEC == OS_PROT_EXEC,
	       "PROT_* and OS_PROT_* must agree");

#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x) ALIGN((unsigned long)(x), PAGE_SIZE)
#define offset_in_page(p) ((unsigned long)(p) & ~PAGE_MASK)

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kmalloc(sizeof(*mm));

	mm->users = 1;
	mm->dumpable = SUID_DUMP_USER;
	INIT_LIST_HEAD(&mm->mmap);
	return mm;
}

/* Unmap a whole region. A whole host mapping never needs a split, so
 * munmap cannot run out of mappings here. */
static void remove_vma(struct vm_area_struct *vma)
{
	int err = os_munmap((void *)vma->vm_start, vma->vm_end - vma->vm_start);

	if (err)
		panic("remove_vma: munmap [%#lx, %#lx) failed: %d", vma->vm_start,
		      vma->vm_end, err);
	list_del_init(&vma->list);
	kfree(vma);
}

void mmput(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *n;

	if (!mm)
		return;
	if (mm->users <= 0)
		panic("mmput: mm %p has %d users", (void *)mm, mm->users);
	if (--mm->users)
		return;
	list_for_each_entry_safe(vma, n, &mm->mmap, list)
		remove_vma(vma);
	kfree(mm);
}

/* The region containing addr, or NULL. */
static struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, list) {
		if (addr < vma->vm_start)
			return NULL;
		if (addr < vma->vm_end)
			return vma;
	}
	return NULL;
}

/* Is [start, end) entirely covered by mm's regions? start < end. */
static bool range_covered(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, list) {
		if (vma->vm_end <= start)
			continue;
		if (vma->vm_start > start)
			return false;
		start = vma->vm_end;
		if (start >= end)
			return true;
	}
	return false;
}

/* Does any region of mm intersect [start, end)? */
static bool range_intersects(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			return false;
		if (vma->vm_end > start)
			return true;
	}
	return false;
}

/* Is every byte of [start, end) in a region of the given kind? */
static bool range_is_kind(struct mm_struct *mm, unsigned long start, unsigned long end,
			  enum vma_kind kind)
{
	struct vm_area_struct *vma;

	if (!range_covered(mm, start, end))
		return false;
	list_for_each_entry(vma, &mm->mmap, list)
		if (vma->vm_end > start && vma->vm_start < end && vma->kind != kind)
			return false;
	return true;
}

static void insert_vma(struct mm_struct *mm, struct vm_area_struct *new)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, list) {
		if (vma->vm_start >= new->vm_end)
			break;
		if (vma->vm_end > new->vm_start)
			panic("insert_vma: [%#lx, %#lx) overlaps [%#lx, %#lx)", new->vm_start,
			      new->vm_end, vma->vm_start, vma->vm_end);
	}
	/* vma is the first region above new, or the list head itself */
	list_add_tail(&new->list, &vma->list);
}

/* Split vma at addr (strictly inside it); the upper part becomes a new
 * region right after it in the list. */
static void split_vma(struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct *new;

	if (addr <= vma->vm_start || addr >= vma->vm_end || offset_in_page(addr))
		panic("split_vma: %#lx outside [%#lx, %#lx)", addr, vma->vm_start, vma->vm_end);
	new = kmalloc(sizeof(*new));
	*new = *vma;
	new->vm_start = addr;
	vma->vm_end = addr;
	list_add(&new->list, &vma->list);
}

/* Make start and end region boundaries where they fall inside a region. */
static void split_at(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	if (vma && vma->vm_start < start)
		split_vma(vma, start);
	vma = find_vma(mm, end);
	if (vma && vma->vm_start < end)
		split_vma(vma, end);
}

/* Merge neighbours that touch and agree on kind and protection. */
static void merge_vmas(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *n;

	list_for_each_entry_safe(vma, n, &mm->mmap, list) {
		struct vm_area_struct *prev;

		if (vma->list.prev == &mm->mmap)
			continue;
		prev = list_entry(vma->list.prev, struct vm_area_struct, list);
		if (prev->vm_end == vma->vm_start && prev->kind == vma->kind &&
		    prev->prot == vma->prot) {
			prev->vm_end = vma->vm_end;
			list_del_init(&vma->list);
			kfree(vma);
		}
	}
}

/* Forget the regions in [start, end), whose host pages the caller has
 * already unmapped or replaced: the region list changes only after the
 * host call that could fail has succeeded. */
static void forget_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma, *n;

	split_at(mm, start, end);
	list_for_each_entry_safe(vma, n, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (vma->vm_start >= start) {
			list_del_init(&vma->list);
			kfree(vma);
		}
	}
}

/* Record [start, end) as a region, over what was there. */
static void record_range(struct mm_struct *mm, unsigned long start, unsigned long end, int prot,
			 enum vma_kind kind)
{
	struct vm_area_struct *vma = kmalloc(sizeof(*vma));

	forget_range(mm, start, end);
	vma->vm_start = start;
	vma->vm_end = end;
	vma->prot = prot & (PROT_READ | PROT_WRITE | PROT_EXEC);
	vma->kind = kind;
	insert_vma(mm, vma);
	merge_vmas(mm);	/* may free vma */
}

unsigned long mm_map(struct mm_struct *mm, unsigned long addr, size_t len, int prot,
		     bool fixed, enum vma_kind kind)
{
	struct vm_area_struct *vma;
	void *p;

	if (!len)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len || len > TASK_SIZE)
		return -ENOMEM;
	if (fixed && offset_in_page(addr))
		return -EINVAL;
	if (fixed && (addr > TASK_SIZE - len))
		return -ENOMEM;
	p = os_mmap_anon((void *)(fixed ? addr : addr & PAGE_MASK), len, prot, fixed);
	if (IS_ERR_VALUE(p))
		return (unsigned long)p;
	vma = kmalloc(sizeof(*vma));
	vma->vm_start = (unsigned long)p;
	vma->vm_end = vma->vm_start + len;
	vma->prot = prot & (PROT_READ | PROT_WRITE | PROT_EXEC);
	vma->kind = kind;
	insert_vma(mm, vma);
	merge_vmas(mm);	/* may free vma */
	return (unsigned long)p;
}

/* Unmap whatever part of [addr, addr + len) mm owns; the rest is left
 * alone (it is not this process's memory). */
int mm_unmap(struct mm_struct *mm, unsigned long addr, size_t len)
{
	struct vm_area_struct *vma;
	unsigned long end;

	if (offset_in_page(addr) || addr > TASK_SIZE || len > TASK_SIZE - addr)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len)
		return -EINVAL;
	end = addr + len;
	/* One owned piece at a time, host first: unmapping the middle of a
	 * host mapping splits it, which fails (-ENOMEM, as on Linux) at the
	 * host's vm.max_map_count; then nothing of that piece has changed. */
	for (;;) {
		unsigned long s = 0, e = 0;
		int err;

		list_for_each_entry(vma, &mm->mmap, list) {
			if (vma->vm_start >= end)
				break;
			if (vma->vm_end > addr) {
				s = max(vma->vm_start, addr);
				e = min(vma->vm_end, end);
				break;
			}
		}
		if (s == e)
			return 0;
		err = os_munmap((void *)s, e - s);
		if (err)
			return err;
		forget_range(mm, s, e);
		addr = e;
	}
}

/* Change the protection of [addr, addr + len), which must lie entirely in
 * mm's regions (-ENOMEM otherwise, like mprotect). */
int mm_protect(struct mm_struct *mm, unsigned long addr, size_t len, int prot)
{
	struct vm_area_struct *vma;
	unsigned long end;
	int err;

	if (offset_in_page(addr))
		return -EINVAL;
	if (!len)
		return 0;
	len = PAGE_ALIGN(len);
	end = addr + len;
	if (end <= addr)
		return -ENOMEM;
	if (!range_covered(mm, addr, end))
		return -ENOMEM;
	prot &= PROT_READ | PROT_WRITE | PROT_EXEC;
	err = os_mprotect((void *)addr, len, prot);
	if (err)
		return err;
	split_at(mm, addr, end);
	list_for_each_entry(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (vma->vm_start >= addr)
			vma->prot = prot;
	}
	merge_vmas(mm);
	return 0;
}

/* Kernel threads (no mm) own no user memory. Low addresses are never in a
 * region: the host refuses to map below vm.mmap_min_addr. */
bool access_ok(const void __user *addr, size_t size)
{
	unsigned long start = (unsigned long)addr;
	struct mm_struct *mm = current->mm;

	if (!size)
		return true;
	if (!mm || start + size < start)
		return false;
	return range_covered(mm, start, start + size);
}

/*
 * RLIMIT_AS and RLIMIT_DATA (mm/mmap.c's may_expand_vm). total_vm is every
 * region of the process, but the brk reservation beyond the break (umk's
 * PROT_NONE stand-in for the unmapped space Linux leaves there); data_vm
 * the writable regions but the main stack (Linux's private writable,
 * non-stack mappings; umk cannot tell MAP_SHARED ones, and counts them).
 * Both in bytes, over [start, end) or everything (end 0).
 */
static bool is_total_vm(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return !(vma->kind == VMA_BRK && vma->prot == PROT_NONE);
}

static bool is_data_vm(struct mm_struct *mm, struct vm_area_struct *vma)
{
	if (!(vma->prot & PROT_WRITE))
		return false;
	return !(vma->kind == VMA_STACK && mm->start_stack >= vma->vm_start &&
		 mm->start_stack < vma->vm_end);
}

static unsigned long vm_bytes(struct mm_struct *mm, unsigned long start, unsigned long end,
			      bool (*counts)(struct mm_struct *, struct vm_area_struct *))
{
	struct vm_area_struct *vma;
	unsigned long sum = 0;

	list_for_each_entry(vma, &mm->mmap, list) {
		unsigned long s = vma->vm_start, e = vma->vm_end;

		if (end) {
			s = max(s, start);
			e = min(e, end);
			if (s >= e)
				continue;
		}
		if (counts(mm, vma))
			sum += e - s;
	}
	return sum;
}

/* May mm grow by len bytes of a mapping with prot (data: it would count in
 * data_vm), replacing [addr, addr + len) if replace? */
static bool may_expand_vm(struct mm_struct *mm, unsigned long addr, unsigned long len,
			  bool replace, bool data)
{
	unsigned long total = vm_bytes(mm, 0, 0, is_total_vm);
	unsigned long old_total = replace ? vm_bytes(mm, addr, addr + len, is_total_vm) : 0;

	if (total - old_total + len > rlimit(RLIMIT_AS))
		return false;
	if (data) {
		unsigned long dat = vm_bytes(mm, 0, 0, is_data_vm);
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
		/* Fresh PROT_NONE pages over the given-back ones, in one host
		 * call: the memory is freed and the reservation kept. */
		if (os_mmap_replace((void *)newbrk, oldbrk - newbrk, PROT_NONE))
			return mm->brk;
		record_range(mm, newbrk, oldbrk, PROT_NONE, VMA_BRK);
		mm->brk = brk;
		return brk;
	}
	/* Growing: only into the reservation, never over a MAP_FIXED mapping
	 * placed inside it (Linux checks for the next vma the same way). */
	if (!range_is_kind(mm, oldbrk, newbrk, VMA_BRK))
		return mm->brk;
	/* Linux's check_data_rlimit, then may_expand_vm. */
	if (brk - mm->start_brk + (mm->end_data - mm->start_data) > rlimit(RLIMIT_DATA) ||
	    !may_expand_vm(mm, oldbrk, newbrk - oldbrk, false, true))
		return mm->brk;
	if (mm_protect(mm, oldbrk, newbrk - oldbrk, PROT_READ | PROT_WRITE))
		return mm->brk;
	mm->brk = brk;
	return brk;
}

/*
 * MAP_FIXED over [addr, addr + len): Linux replaces whatever is there. In
 * one shared address space umk may only replace what this process owns, so
 * first claim every gap between its regions (MAP_FIXED_NOREPLACE on the
 * host: fails if anyone else's memory is there), then drop the whole range
 * and map it afresh. On failure nothing the process owned has changed.
 */
static long mmap_fixed_replace(struct mm_struct *mm, unsigned long addr, unsigned long len,
			       int prot, enum vma_kind kind)
{
	struct vm_area_struct *vma;
	unsigned long end = addr + len, pos = addr;
	unsigned long claimed[16][2];
	int nclaimed = 0, i;
	long ret;

	list_for_each_entry(vma, &mm->mmap, list) {
		if (pos >= end)
			break;
		if (vma->vm_end <= pos)
			continue;
		if (vma->vm_start > pos) {
			unsigned long gap_end = min(vma->vm_start, end);

			if (nclaimed == ARRAY_SIZE(claimed)) {
				ret = -ENOMEM;
				goto undo;
			}
			ret = (long)os_mmap_anon((void *)pos, gap_end - pos, PROT_NONE, true);
			if (IS_ERR_VALUE(ret))
				goto undo_enomem;
			claimed[nclaimed][0] = pos;
			claimed[nclaimed++][1] = gap_end - pos;
		}
		pos = vma->vm_end;
	}
	if (pos < end) {
		if (nclaimed == ARRAY_SIZE(claimed)) {
			ret = -ENOMEM;
			goto undo;
		}
		ret = (long)os_mmap_anon((void *)pos, end - pos, PROT_NONE, true);
		if (IS_ERR_VALUE(ret))
			goto undo_enomem;
		claimed[nclaimed][0] = pos;
		claimed[nclaimed++][1] = end - pos;
	}
	/* The whole range is now host memory this process may replace: one
	 * host call does it, claims and old regions alike. */
	ret = os_mmap_replace((void *)addr, len, prot);
	if (ret)
		goto undo;
	record_range(mm, addr, end, prot, kind);
	return addr;

undo_enomem:
	/* Someone else's memory (the kernel's, another process's) is there:
	 * to this process the range is unavailable. */
	ret = -ENOMEM;
undo:
	for (i = 0; i < nclaimed; i++)
		os_munmap((void *)claimed[i][0], claimed[i][1]);
	return ret;
}

/*
 * mmap: anonymous memory only. MAP_SHARED|MAP_ANONYMOUS is treated as
 * private: NOMMU has one address space, so a CLONE_VM or vfork child
 * already sees the same pages, and fork (the only case where the two
 * differ) returns -ENOSYS. File mappings fail with -ENODEV, as Linux gives
 * for a file without an mmap operation (umk's console and pipes).
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off)
{
	struct mm_struct *mm = current->mm;
	enum vma_kind kind = (flags & MAP_STACK) ? VMA_STACK : VMA_ANON;
	bool is_file = !(flags & MAP_ANONYMOUS);
	unsigned long ret;

	if (offset_in_page(off))
		return -EINVAL;
	if (is_file) {
		struct file *f = fget((unsigned int)fd);

		if (!f)
			return -EBADF;
		fput(f);
	}
	if (!len)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len || len > TASK_SIZE)
		return -ENOMEM;
	if ((off >> 12) + (len >> 12) < (off >> 12))
		return -EOVERFLOW;
	if (!mm)
		return -ENOMEM;
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (flags & MAP_FIXED) {
		if (offset_in_page(addr))
			return -EINVAL;
		if (addr > TASK_SIZE - len)
			return -ENOMEM;
		if ((flags & MAP_FIXED_NOREPLACE) && range_intersects(mm, addr, addr + len))
			return -EEXIST;
	}
	switch (flags & MAP_TYPE) {
	case MAP_SHARED:
	case MAP_PRIVATE:
		break;
	default:
		return -EINVAL;
	}
	if (is_file)
		return -ENODEV;
	if (!may_expand_vm(mm, addr, len, (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) == MAP_FIXED,
			   (prot & PROT_WRITE) && (flags & MAP_TYPE) == MAP_PRIVATE))
		return -ENOMEM;

	if (!(flags & MAP_FIXED))
		return (long)mm_map(mm, addr, len, prot, false, kind);
	if (flags & MAP_FIXED_NOREPLACE) {
		/* -EEXIST from the host means another process or the kernel
		 * has memory there: in use, as far as this process can tell. */
		ret = mm_map(mm, addr, len, prot, true, kind);
		return (long)ret;
	}
	return mmap_fixed_replace(mm, addr, len, prot, kind);
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
	/* The brk reservation beyond the break is unmapped as far as the
	 * program can tell: only brk() may make it accessible. */
	if (start < mm->brk_limit && start + PAGE_ALIGN(len) > PAGE_ALIGN(mm->brk) &&
	    range_is_kind(mm, max(start, PAGE_ALIGN(mm->brk)),
			  min(start + PAGE_ALIGN(len), mm->brk_limit), VMA_BRK))
		return -ENOMEM;
	return mm_protect(mm, start, len, (int)(prot & (PROT_READ | PROT_WRITE | PROT_EXEC)));
}

struct hostmem *hostmem_create(const char *name)
{
	int fd = os_memfd_create(name);
	struct hostmem *h;

	if (fd < 0)
		return NULL;
	h = kmalloc(sizeof(*h));
	h->count = 1;
	h->fd = fd;
	return h;
}

void hostmem_put(struct hostmem *h)
{
	if (!h)
		return;
	if (h->count <= 0)
		panic("hostmem_put: object %p has %d references", (void *)h, h->count);
	if (--h->count)
		return;
	os_close(h->fd);
	kfree(h);
}

size_t access_process_vm(struct task_struct *tsk, unsigned long addr, void *buf, size_t len)
{
	struct mm_struct *mm = tsk->mm;
	struct vm_area_struct *vma;
	size_t done = 0;

	if (!mm)
		return 0;
	while (done < len) {
		size_t n;

		vma = find_vma(mm, addr + done);
		if (!vma || !(vma->prot & PROT_READ))
			break;
		n = min(len - done, vma->vm_end - (addr + done));
		memcpy((char *)buf + done, (const void *)(addr + done), n);
		done += n;
	}
	return done;
}
