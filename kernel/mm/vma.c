/*
 * kernel/mm/vma.c: the bookkeeping of address spaces: an mm's regions and
 * the host memory objects their pages live in (Linux's mm/mmap.c and
 * mm/mprotect.c, the region side).
 *
 * A process's memory is a list of regions (vm_area_struct), sorted by
 * address, never overlapping, adjacent ones that agree merged, indexed by
 * a tree (kernel/mm/vma_tree.c). Their pages are in host memory files:
 * private ones in the mm's own file at offsets equal to their addresses,
 * shared ones (MAP_SHARED) in a shared object. The bookkeeping is always
 * done on the mm; the host mapping (kernel/mm/window.c) follows it only
 * when the mm is the one in the user window (active_mm()); another mm is
 * mapped at its next switch_mm. A page given back (munmap, brk down) has
 * its file range punched, so that it reads as zeros when mapped again.
 *
 * Interface: include/umk/mm.h (mm_alloc, mm_map, mm_unmap, mm_protect,
 * hostmem_*), and kernel/mm/internal.h for the rest of kernel/mm/.
 * docs/design.md, "Address spaces".
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>

#include "internal.h"

static LIST_HEAD(hostmem_list);

struct hostmem *hostmem_of_fd(int fd)
{
	struct hostmem *h = kmalloc(sizeof(*h));

	h->count = 1;
	h->fd = fd;
	list_add_tail(&h->list, &hostmem_list);
	return h;
}

void hostmem_usage(unsigned long *anon_bytes, unsigned long *shmem_bytes)
{
	struct hostmem *h;
	struct stat st;

	*anon_bytes = *shmem_bytes = 0;
	list_for_each_entry(h, &hostmem_list, list) {
		if (os_fstat(h->fd, &st))
			continue;
		*(h->anon ? anon_bytes : shmem_bytes) += (unsigned long)st.st_blocks * 512;
	}
}

struct hostmem *hostmem_create(const char *name)
{
	int fd = os_memfd_create(name);

	return fd < 0 ? NULL : hostmem_of_fd(fd);
}

void hostmem_put(struct hostmem *h)
{
	if (!h)
		return;
	if (h->count <= 0)
		panic("hostmem_put: object %p has %d references", (void *)h, h->count);
	if (--h->count)
		return;
	list_del_init(&h->list);
	os_close(h->fd);
	kfree(h);
}

/* The file and offset of address addr in vma. */
int vma_fd(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return vma->shared ? vma->shared->fd : mm->mem->fd;
}

u64 vma_offset(struct vm_area_struct *vma, unsigned long addr)
{
	return vma->shared ? vma->vm_off + (addr - vma->vm_start) : addr;
}

static unsigned int last_mm_id;

/*
 * The memory file of the last mm dropped, kept for the next fork instead
 * of closed: a fork copies its parent's pages into it, over the pages it
 * still holds, and punches the rest (dup_mm). Allocating a page for a new
 * file and freeing it at exit cost the host more than copying it (more
 * than 1 us a page on a KVM guest), and a shell forks one child after
 * another. Only a file of at most SPARE_MEM_MAX_KIB is kept: it is memory
 * no process owns.
 */
static struct hostmem *spare_mem;

#define SPARE_MEM_MAX_KIB (64 * 1024)

/* The spare memory file, now the caller's (dup_mm), or NULL. */
struct hostmem *mm_take_spare(void)
{
	struct hostmem *spare = spare_mem;

	spare_mem = NULL;
	return spare;
}

struct mm_struct *mm_alloc_mem(struct hostmem *mem)
{
	struct mm_struct *mm = kmalloc(sizeof(*mm));

	mm->id = ++last_mm_id;
	mm->users = 1;
	mm->dumpable = SUID_DUMP_USER;
	INIT_LIST_HEAD(&mm->mmap);
	INIT_LIST_HEAD(&mm->ioctx_list);
	mm->mm_rb = NULL;
	mm->mem = mem;
	mem->anon = true;
	mm->mmap_base = STACK_TOP;
	return mm;
}

struct mm_struct *mm_alloc(void)
{
	struct hostmem *mem = hostmem_create("umk-mm");

	if (!mem)
		return NULL;
	if (os_ftruncate(mem->fd, TASK_SIZE)) {
		hostmem_put(mem);
		return NULL;
	}
	return mm_alloc_mem(mem);
}

/*
 * RLIMIT_AS and RLIMIT_DATA (mm/mmap.c's may_expand_vm). total_vm is every
 * region of the process, but the brk reservation beyond the break (umk's
 * PROT_NONE stand-in for the unmapped space Linux leaves there); data_vm
 * the private writable regions but the main stack (Linux's private
 * writable, non-stack mappings).
 * mm keeps the sums over every region (vm_account); vm_bytes counts a
 * range.
 */
bool is_total_vm(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return !(vma->kind == VMA_BRK && vma->prot == PROT_NONE);
}

bool is_private_writable(struct vm_area_struct *vma)
{
	return (vma->prot & PROT_WRITE) && !vma->shared;
}

bool is_data_vm(struct mm_struct *mm, struct vm_area_struct *vma)
{
	if (!is_private_writable(vma))
		return false;
	return !(vma->kind == VMA_STACK && mm->start_stack >= vma->vm_start &&
		 mm->start_stack < vma->vm_end);
}

/* vma's bytes join (sign 1) or leave (-1) mm's sums: when it is inserted or
 * freed, and around any change of its range, protection or pages. */
void vm_account(struct mm_struct *mm, struct vm_area_struct *vma, int sign)
{
	unsigned long size = vma->vm_end - vma->vm_start;

	if (is_total_vm(mm, vma))
		mm->total_vm_bytes += sign > 0 ? size : -size;
	if (is_private_writable(vma))
		mm->pw_vm_bytes += sign > 0 ? size : -size;
	if (vma->vm_flags & VM_LOCKED)
		mm->locked_vm_bytes += sign > 0 ? size : -size;
}

static void free_vma(struct mm_struct *mm, struct vm_area_struct *vma)
{
	vm_account(mm, vma, -1);
	if (mm->mmap_cache == vma)
		mm->mmap_cache = NULL;
	mm->vmacache_seqnum++;	/* every task's vmacache may point at it */
	vma_tree_erase(mm, vma);
	list_del_init(&vma->list);
	hostmem_put(vma->shared);
	mm->map_count--;
	kfree(vma);
}

void mmdrop(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *n;

	list_for_each_entry_safe(vma, n, &mm->mmap, list)
		free_vma(mm, vma);
	if (!spare_mem && mm->mem->count == 1 && mm_rss_kib(mm) <= SPARE_MEM_MAX_KIB)
		spare_mem = mm->mem;
	else
		hostmem_put(mm->mem);
	kfree(mm);
}

/*
 * The first region that ends above addr (Linux's find_vma), or the list
 * head's entry when there is none: where every walk over a range starts.
 * The task's vmacache and mm->mmap_cache, the last region found (Linux
 * 2.6's mmap_cache), answer at once when they contain addr; else the tree
 * (kernel/mm/vma_tree.c) in O(log n).
 */
struct vm_area_struct *vma_above(struct mm_struct *mm, unsigned long addr)
{
	struct task_struct *t = current;
	struct vm_area_struct *vma = NULL;
	bool mine = t->mm == mm;

	if (mine && t->vmacache && t->vmacache_seqnum == mm->vmacache_seqnum)
		vma = t->vmacache;
	if (vma && vma->vm_start <= addr && addr < vma->vm_end)
		return vma;
	vma = mm->mmap_cache;
	if (vma && vma->vm_start <= addr && addr < vma->vm_end)
		return vma;
	vma = vma_tree_above(mm, addr);
	if (!vma)	/* the head's entry: a walk from it ends at once */
		return list_entry(&mm->mmap, struct vm_area_struct, list);
	mm->mmap_cache = vma;
	if (mine) {
		t->vmacache = vma;
		t->vmacache_seqnum = mm->vmacache_seqnum;
	}
	return vma;
}

/* The region containing addr, or NULL. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma = vma_above(mm, addr);

	return &vma->list != &mm->mmap && vma->vm_start <= addr ? vma : NULL;
}

/* Is [start, end) entirely covered by mm's regions? start < end. */
bool range_covered(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = vma_above(mm, start);

	list_for_each_entry_from(vma, &mm->mmap, list) {
		if (vma->vm_start > start)
			return false;
		start = vma->vm_end;
		if (start >= end)
			return true;
	}
	return false;
}

/* Does any region of mm intersect [start, end)? */
bool range_intersects(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = vma_above(mm, start);

	return &vma->list != &mm->mmap && vma->vm_start < end;
}

/* Is every byte of [start, end) in a region of the given kind? */
bool range_is_kind(struct mm_struct *mm, unsigned long start, unsigned long end,
			  enum vma_kind kind)
{
	struct vm_area_struct *vma;

	if (!range_covered(mm, start, end))
		return false;
	vma = vma_above(mm, start);
	list_for_each_entry_from(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (vma->kind != kind)
			return false;
	}
	return true;
}

static void insert_vma(struct mm_struct *mm, struct vm_area_struct *new)
{
	struct vm_area_struct *vma = vma_above(mm, new->vm_start);

	if (&vma->list != &mm->mmap && vma->vm_start < new->vm_end)
		panic("insert_vma: [%#lx, %#lx) overlaps [%#lx, %#lx)", new->vm_start,
		      new->vm_end, vma->vm_start, vma->vm_end);
	/* vma is the first region above new, or the list head itself */
	list_add_tail(&new->list, &vma->list);
	vma_tree_insert(mm, new);
	vm_account(mm, new, 1);
	mm->map_count++;
}

/* Split vma at addr (strictly inside it); the upper part becomes a new
 * region right after it in the list. */
static void split_vma(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct *new;

	if (addr <= vma->vm_start || addr >= vma->vm_end || offset_in_page(addr))
		panic("split_vma: %#lx outside [%#lx, %#lx)", addr, vma->vm_start, vma->vm_end);
	new = kmalloc(sizeof(*new));
	*new = *vma;
	new->vm_start = addr;
	if (new->shared) {
		hostmem_get(new->shared);
		new->vm_off += addr - vma->vm_start;
	}
	vma->vm_end = addr;
	vma_tree_update(mm, vma);
	list_add(&new->list, &vma->list);
	vma_tree_insert(mm, new);
	mm->map_count++;
}

/* Make start and end region boundaries where they fall inside a region. */
void split_at(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	if (vma && vma->vm_start < start)
		split_vma(mm, vma, start);
	vma = find_vma(mm, end);
	if (vma && vma->vm_start < end)
		split_vma(mm, vma, end);
}

/* Can b, which starts where a ends, join a? Same kind, protection, flags
 * and pages: both private, or one shared object at consecutive offsets. */
static bool can_merge(struct vm_area_struct *a, struct vm_area_struct *b)
{
	if (a->vm_end != b->vm_start || a->kind != b->kind || a->prot != b->prot ||
	    a->vm_flags != b->vm_flags)
		return false;
	if (a->shared != b->shared || a->private_file != b->private_file)
		return false;
	return !a->shared || a->vm_off + (a->vm_end - a->vm_start) == b->vm_off;
}

/* Merge the regions in [start, end] with neighbours that touch and agree;
 * the rest of the list was merged already. */
void merge_vmas(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = vma_above(mm, start ? start - 1 : 0), *n;

	list_for_each_entry_safe_from(vma, n, &mm->mmap, list) {
		struct vm_area_struct *prev;

		if (vma->vm_start > end)
			break;
		if (vma->list.prev == &mm->mmap)
			continue;
		prev = list_entry(vma->list.prev, struct vm_area_struct, list);
		if (can_merge(prev, vma)) {
			unsigned long end = vma->vm_end;

			vm_account(mm, prev, -1);
			free_vma(mm, vma);
			prev->vm_end = end;
			vma_tree_update(mm, prev);
			vm_account(mm, prev, 1);
		}
	}
}

/* Give back [start, end): the window shows nothing there if mm is in it
 * and clear is set (add_region maps over it instead), the private pages'
 * file range is punched (they read as zeros if mapped again) and the
 * regions are forgotten. Returns 0, or -ENOMEM with nothing changed when
 * the host cannot clear the window (unmapping the middle of a host mapping
 * splits it in two: one mapping too many at the host's vm.max_map_count). */
int forget_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			bool clear)
{
	struct vm_area_struct *vma, *n;

	if (clear && mm == active_mm()) {
		int err = os_mmap_replace((void *)start, end - start, PROT_NONE);

		if (err)
			return err;
	}
	split_at(mm, start, end);
	vma = vma_above(mm, start);
	list_for_each_entry_safe_from(vma, n, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (!vma->shared)
			os_punch_hole(mm->mem->fd, vma->vm_start, vma->vm_end - vma->vm_start);
		free_vma(mm, vma);
	}
	return 0;
}

/* A new region [start, end) of mm, over whatever was there, mapped into
 * the window if mm is there. shared (a reference the region takes over) is
 * NULL for private memory, which starts as zeros. 0 or -errno. */
int add_region(struct mm_struct *mm, unsigned long start, unsigned long end, int prot,
		      enum vma_kind kind, struct hostmem *shared, u64 off, bool private_file,
		      unsigned long vm_flags)
{
	struct vm_area_struct *vma;
	int err = 0;

	forget_range(mm, start, end, false);
	vma = kmalloc(sizeof(*vma));
	vma->vm_start = start;
	vma->vm_end = end;
	vma->prot = prot & (PROT_READ | PROT_WRITE | PROT_EXEC);
	vma->kind = kind;
	vma->shared = shared;
	vma->vm_off = off;
	vma->private_file = private_file;
	/* def_flags (mlockall's MCL_FUTURE) are for what the program maps;
	 * the reservation beyond the break is not mapped to it */
	vma->vm_flags = vm_flags;
	if (kind != VMA_BRK || prot != PROT_NONE)
		vma->vm_flags |= mm->def_flags;
	if (mm == active_mm())
		err = install_range(mm, vma, start, end);
	if (err) {
		/* The old regions there are gone, as after a failed MAP_FIXED
		 * mmap on Linux; the window keeps whatever the host left. */
		os_mmap_replace((void *)start, end - start, PROT_NONE);
		hostmem_put(shared);
		kfree(vma);
		return err;
	}
	insert_vma(mm, vma);
	merge_vmas(mm, start, end);	/* may free vma */
	return 0;
}

bool vma_is_brk_reserve(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return vma->kind == VMA_BRK && vma->vm_start >= ALIGN(mm->brk, PAGE_SIZE);
}

/*
 * The fault below a VM_GROWSDOWN region made it grow (mm/mmap.c's
 * expand_downwards and acct_stack_growth): not into the first page of the
 * window, not within STACK_GUARD_GAP of an accessible region below that
 * does not grow itself, not past RLIMIT_STACK (the region's whole size,
 * checked against the limit at the fault) nor RLIMIT_AS or RLIMIT_DATA.
 * The new part is a region of its own, which merges with vma.
 */
int expand_downwards(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long address)
{
	struct vm_area_struct *prev = NULL;
	unsigned long grow;

	if (!(vma->vm_flags & VM_GROWSDOWN))
		return -EFAULT;
	address &= ~(PAGE_SIZE - 1);
	if (address < USER_WINDOW_START)
		return -EPERM;
	if (vma->list.prev != &mm->mmap)
		prev = list_entry(vma->list.prev, struct vm_area_struct, list);
	if (prev && !(prev->vm_flags & VM_GROWSDOWN) && prev->prot != PROT_NONE &&
	    address - prev->vm_end < STACK_GUARD_GAP)
		return -ENOMEM;
	grow = vma->vm_start - address;
	if (!may_expand_vm(mm, address, grow, false, is_data_vm(mm, vma)))
		return -ENOMEM;
	if (vma->vm_end - address > rlimit(RLIMIT_STACK))
		return -ENOMEM;
	if (!mlock_future_ok(mm, vma->vm_flags, grow))
		return -ENOMEM;
	return add_region(mm, address, vma->vm_start, vma->prot, vma->kind, NULL, 0, false,
			  vma->vm_flags);
}

/*
 * A free range of len bytes for a mapping without MAP_FIXED (mm/mmap.c's
 * get_unmapped_area): at the hint if it is free, else the highest gap
 * below mm->mmap_base, as Linux's top-down allocator; neither within the
 * stack guard gap below a region that grows down. 0 when none.
 */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long hint, size_t len)
{
	unsigned long top = mm->mmap_base;

	hint &= PAGE_MASK;
	if (hint >= USER_WINDOW_START && hint <= TASK_SIZE - len &&
	    !range_intersects(mm, hint, hint + len)) {
		struct vm_area_struct *next = vma_above(mm, hint);

		/* nor within the guard gap of a stack above it */
		if (&next->list == &mm->mmap || hint + len <= vm_start_gap(next))
			return hint;
	}
	return vma_tree_gap(mm, USER_WINDOW_START, len, top);
}

unsigned long mm_map(struct mm_struct *mm, unsigned long addr, size_t len, int prot,
		     bool fixed, enum vma_kind kind)
{
	int err;

	if (!len)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len || len > TASK_SIZE)
		return -ENOMEM;
	if (fixed && offset_in_page(addr))
		return -EINVAL;
	if (fixed && (addr > TASK_SIZE - len))
		return -ENOMEM;
	if (fixed && addr < USER_WINDOW_START)
		return -EPERM;
	if (fixed && range_intersects(mm, addr, addr + len))
		return -EEXIST;
	if (!fixed)
		addr = get_unmapped_area(mm, addr, len);
	if (!addr)
		return -ENOMEM;
	if (mm->map_count >= DEFAULT_MAP_COUNT_MAX)
		return -ENOMEM;
	err = add_region(mm, addr, addr + len, prot, kind, NULL, 0, false, 0);
	return err ? (unsigned long)(long)err : addr;
}

int add_file_region(struct mm_struct *mm, unsigned long start, unsigned long end, int prot,
		    struct hostmem *obj, u64 off)
{
	return add_region(mm, start, end, prot, VMA_IMAGE, obj, off, true, 0);
}

/* Unmap whatever part of [addr, addr + len) mm has. */
int mm_unmap(struct mm_struct *mm, unsigned long addr, size_t len)
{
	struct vm_area_struct *vma;
	unsigned long end;

	if (offset_in_page(addr) || addr > TASK_SIZE_MAX || len > TASK_SIZE_MAX - addr)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (!len)
		return -EINVAL;
	end = addr + len;
	/* Unmapping the middle of a region splits it in two: one more region,
	 * which may be one too many (Linux's ENOMEM at vm.max_map_count). */
	vma = find_vma(mm, addr);
	if (vma && vma->vm_start < addr && vma->vm_end > end &&
	    mm->map_count >= DEFAULT_MAP_COUNT_MAX)
		return -ENOMEM;
	if (!range_intersects(mm, addr, end))
		return 0;
	return forget_range(mm, addr, end, true);
}

/*
 * A private file region about to become writable: its pages become the
 * mm's own, copied from the file (Linux copies each page at its first
 * write instead). Past the end of the file they are zeros. 0 or -errno.
 */
static int materialize(struct mm_struct *mm, struct vm_area_struct *vma)
{
	const size_t chunk = 64 * 1024;
	unsigned long len = vma->vm_end - vma->vm_start, done = 0;
	char *buf = kmalloc(chunk);
	int err = 0;

	while (done < len) {
		ssize_t r = os_pread(vma->shared->fd, buf, min(len - done, chunk),
				     vma->vm_off + done);

		if (r <= 0) {
			err = (int)r;
			break;
		}
		r = os_pwrite(mm->mem->fd, buf, r, vma->vm_start + done);
		if (r < 0) {
			err = (int)r;
			break;
		}
		done += r;
	}
	kfree(buf);
	if (err) {
		os_punch_hole(mm->mem->fd, vma->vm_start, len);
		return err;
	}
	hostmem_put(vma->shared);
	vma->shared = NULL;
	vma->vm_off = 0;
	vma->private_file = false;
	return 0;
}

/* A write from outside (access_process_vm_write) into a private region
 * whose pages are still the file's: they become mm's own, and the window
 * shows them if mm is in it. 0 or -errno. */
int vma_materialize(struct mm_struct *mm, struct vm_area_struct *vma)
{
	int err = materialize(mm, vma);

	if (!err && mm == active_mm())
		err = install_range(mm, vma, vma->vm_start, vma->vm_end);
	return err;
}

/* One region's new protection, its pages made its own first if it becomes
 * writable: 0, or -errno with the protection unchanged. */
static int change_prot(struct mm_struct *mm, struct vm_area_struct *vma, int prot)
{
	int err;

	if ((prot & PROT_WRITE) && vma->private_file) {
		err = materialize(mm, vma);
		if (err)
			return err;
	}
	if (mm == active_mm()) {
		int old = vma->prot;

		vma->prot = prot;
		err = install_range(mm, vma, vma->vm_start, vma->vm_end);
		if (err) {
			vma->prot = old;
			return err;
		}
	}
	vma->prot = prot;
	return 0;
}

/* Change the protection of [addr, addr + len), which must lie entirely in
 * mm's regions (-ENOMEM otherwise, like mprotect). The window is changed
 * first, region by region; if the host refuses (out of mappings), the
 * regions already changed keep their new protection, as Linux's
 * mprotect_fixup leaves them. */
int mm_protect(struct mm_struct *mm, unsigned long addr, size_t len, int prot)
{
	struct vm_area_struct *vma;
	unsigned long end;
	int err = 0;

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
	/* A shared mapping of a file opened read-only cannot become writable
	 * (Linux's mprotect_fixup: VM_WRITE without VM_MAYWRITE). */
	vma = vma_above(mm, addr);
	list_for_each_entry_from(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if ((prot & PROT_WRITE) && vma->shared && !vma->private_file &&
		    !(vma->vm_flags & VM_MAYWRITE))
			return -EACCES;
	}
	if (mm->map_count + 2 > DEFAULT_MAP_COUNT_MAX) {
		struct vm_area_struct *last = find_vma(mm, end - 1);

		vma = find_vma(mm, addr);
		if ((vma->vm_start < addr) + (last->vm_end > end) + mm->map_count >
		    DEFAULT_MAP_COUNT_MAX)
			return -ENOMEM;
	}
	split_at(mm, addr, end);
	vma = vma_above(mm, addr);
	list_for_each_entry_from(vma, &mm->mmap, list) {
		if (vma->vm_start >= end)
			break;
		if (vma->prot == prot)
			continue;
		vm_account(mm, vma, -1);
		err = change_prot(mm, vma, prot);
		vm_account(mm, vma, 1);
		if (err)
			break;
	}
	merge_vmas(mm, addr, end);
	return err;
}
