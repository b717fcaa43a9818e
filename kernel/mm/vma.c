/*
 * kernel/mm/mm.c: address spaces, access_ok(), and the memory system calls
 * brk, mmap, munmap and mprotect (mm/mmap.c, mm/mprotect.c, kernel/fork.c's
 * dup_mm, arch/x86/mm/tlb.c's switch_mm).
 *
 * A process's memory is a list of regions (vm_area_struct), sorted by
 * address, never overlapping, adjacent ones that agree merged. Their pages
 * are in host memory files: private ones in the mm's own file at offsets
 * equal to their addresses, shared ones (MAP_SHARED) in a shared object.
 * The user window, a host reservation made at boot, shows one mm at a
 * time: each region mapped from its file, PROT_NONE reservation between
 * them. So the bookkeeping is always done on the mm, and the host mapping
 * follows it only when the mm is the one in the window (active); another
 * mm is mapped at its next switch_mm. A page given back (munmap, brk down)
 * has its file range punched, so that it reads as zeros when mapped again.
 *
 * Interface: include/umk/mm.h, include/umk/uaccess.h (access_ok) and the
 * sys_* calls in include/umk/syscalls.h. docs/design.md, "Address spaces".
 */
#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/mm.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>

_Static_assert(PROT_READ == OS_PROT_READ && PROT_WRITE == OS_PROT_WRITE &&
		       PROT_EXEC == OS_PROT_EXEC,
	       "PROT_* and OS_PROT_* must agree");

#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x) ALIGN((unsigned long)(x), PAGE_SIZE)
#define offset_in_page(p) ((unsigned long)(p) & ~PAGE_MASK)

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

struct hostmem *hostmem_of_fd(int fd)
{
	struct hostmem *h = kmalloc(sizeof(*h));

	h->count = 1;
	h->fd = fd;
	return h;
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
	os_close(h->fd);
	kfree(h);
}

/* The file and offset of address addr in vma. */
static int vma_fd(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return vma->shared ? vma->shared->fd : mm->mem->fd;
}

static u64 vma_offset(struct vm_area_struct *vma, unsigned long addr)
{
	return vma->shared ? vma->vm_off + (addr - vma->vm_start) : addr;
}

/* Map [s, e) of vma into the window: its pages, or a reservation for a
 * PROT_NONE region (nothing there can be touched). Private pages the
 * program cannot write are mapped MAP_PRIVATE: the same pages, but a
 * debugger may still plant a breakpoint there (the host lets ptrace write
 * to a read-only private mapping, never to a read-only shared one). Such
 * a write lasts until the range is mapped again (docs/gdb-walkthrough.md). */
static int install_range(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long s,
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

static struct mm_struct *mm_alloc_mem(struct hostmem *mem)
{
	struct mm_struct *mm = kmalloc(sizeof(*mm));

	mm->id = ++last_mm_id;
	mm->users = 1;
	mm->dumpable = SUID_DUMP_USER;
	INIT_LIST_HEAD(&mm->mmap);
	mm->mm_rb = NULL;
	mm->mem = mem;
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
static bool is_total_vm(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return !(vma->kind == VMA_BRK && vma->prot == PROT_NONE);
}

static bool is_private_writable(struct vm_area_struct *vma)
{
	return (vma->prot & PROT_WRITE) && !vma->shared;
}

static bool is_data_vm(struct mm_struct *mm, struct vm_area_struct *vma)
{
	if (!is_private_writable(vma))
		return false;
	return !(vma->kind == VMA_STACK && mm->start_stack >= vma->vm_start &&
		 mm->start_stack < vma->vm_end);
}

/* vma's bytes join (sign 1) or leave (-1) mm's sums: when it is inserted or
 * freed, and around any change of its range, protection or pages. */
static void vm_account(struct mm_struct *mm, struct vm_area_struct *vma, int sign)
{
	unsigned long size = vma->vm_end - vma->vm_start;

	if (is_total_vm(mm, vma))
		mm->total_vm_bytes += sign > 0 ? size : -size;
	if (is_private_writable(vma))
		mm->pw_vm_bytes += sign > 0 ? size : -size;
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

/*
 * An mm whose last user is gone while it is in the window stays there,
 * dead, until the next switch_mm maps over it, as Linux keeps a dead mm as
 * a CPU's active_mm until the next switch (finish_task_switch's mmdrop):
 * an exit costs no host call, and a process forked from the same parent
 * replaces the same regions.
 */
static struct mm_struct *dead_mm;

static void mmdrop(struct mm_struct *mm)
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

void mmput(struct mm_struct *mm)
{
	if (!mm)
		return;
	if (mm->users <= 0)
		panic("mmput: mm %p has %d users", (void *)mm, mm->users);
	if (--mm->users)
		return;
	if (mm == loaded_mm) {
		loaded_mm = NULL;
		dead_mm = mm;
		return;
	}
	mmdrop(mm);
}

/*
 * The first region that ends above addr (Linux's find_vma), or the list
 * head's entry when there is none: where every walk over a range starts.
 * The task's vmacache and mm->mmap_cache, the last region found (Linux
 * 2.6's mmap_cache), answer at once when they contain addr; else the tree
 * (kernel/mm/vma_tree.c) in O(log n).
 */
static struct vm_area_struct *vma_above(struct mm_struct *mm, unsigned long addr)
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
static struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma = vma_above(mm, addr);

	return &vma->list != &mm->mmap && vma->vm_start <= addr ? vma : NULL;
}

/* Is [start, end) entirely covered by mm's regions? start < end. */
static bool range_covered(struct mm_struct *mm, unsigned long start, unsigned long end)
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
static bool range_intersects(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = vma_above(mm, start);

	return &vma->list != &mm->mmap && vma->vm_start < end;
}

/* Is every byte of [start, end) in a region of the given kind? */
static bool range_is_kind(struct mm_struct *mm, unsigned long start, unsigned long end,
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
static void split_at(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	if (vma && vma->vm_start < start)
		split_vma(mm, vma, start);
	vma = find_vma(mm, end);
	if (vma && vma->vm_start < end)
		split_vma(mm, vma, end);
}

/* Can b, which starts where a ends, join a? Same kind, protection and
 * pages: both private, or one shared object at consecutive offsets. */
static bool can_merge(struct vm_area_struct *a, struct vm_area_struct *b)
{
	if (a->vm_end != b->vm_start || a->kind != b->kind || a->prot != b->prot)
		return false;
	if (a->shared != b->shared || a->private_file != b->private_file)
		return false;
	return !a->shared || a->vm_off + (a->vm_end - a->vm_start) == b->vm_off;
}

/* Merge the regions in [start, end] with neighbours that touch and agree;
 * the rest of the list was merged already. */
static void merge_vmas(struct mm_struct *mm, unsigned long start, unsigned long end)
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
static int forget_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			bool clear)
{
	struct vm_area_struct *vma, *n;

	if (clear && mm == loaded_mm) {
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
static int add_region(struct mm_struct *mm, unsigned long start, unsigned long end, int prot,
		      enum vma_kind kind, struct hostmem *shared, u64 off, bool private_file)
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
	if (mm == loaded_mm)
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

/*
 * A free range of len bytes for a mapping without MAP_FIXED (mm/mmap.c's
 * get_unmapped_area): at the hint if it is free, else the highest gap
 * below mm->mmap_base, as Linux's top-down allocator. 0 when none.
 */
static unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long hint, size_t len)
{
	unsigned long top = mm->mmap_base;

	hint &= PAGE_MASK;
	if (hint >= USER_WINDOW_START && hint <= TASK_SIZE - len &&
	    !range_intersects(mm, hint, hint + len))
		return hint;
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
	err = add_region(mm, addr, addr + len, prot, kind, NULL, 0, false);
	return err ? (unsigned long)(long)err : addr;
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
	if (mm == loaded_mm) {
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

/* Map every region of mm into a window that holds nothing else: 0 or
 * -errno. A PROT_NONE region is reservation already. */
static int install_all(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	int err;

	list_for_each_entry(vma, &mm->mmap, list) {
		if (vma->prot == PROT_NONE)
			continue;
		err = install_range(mm, vma, vma->vm_start, vma->vm_end);
		if (err)
			return err;
	}
	return 0;
}

/* The next region of mm from v on that is mapped (not PROT_NONE). */
static struct vm_area_struct *next_mapped(struct mm_struct *mm, struct vm_area_struct *v)
{
	while (&v->list != &mm->mmap && v->prot == PROT_NONE)
		v = list_next_entry(v, list);
	return v;
}

/* mm's mapped regions over prev's, then what prev had mapped and mm has
 * not cleared: each of prev's mapped regions minus mm's, walking both
 * sorted lists once. PROT_NONE regions are reservation on both sides. */
static int map_over(struct mm_struct *prev, struct mm_struct *mm)
{
	struct vm_area_struct *vma, *v;
	int err = install_all(mm);

	if (err)
		return err;
	v = next_mapped(mm, list_first_entry(&mm->mmap, struct vm_area_struct, list));
	list_for_each_entry(vma, &prev->mmap, list) {
		unsigned long s = vma->vm_start;

		if (vma->prot == PROT_NONE)
			continue;
		while (&v->list != &mm->mmap && v->vm_end <= s)
			v = next_mapped(mm, list_next_entry(v, list));
		while (s < vma->vm_end) {
			unsigned long e = vma->vm_end;

			if (&v->list != &mm->mmap && v->vm_start < e) {
				if (v->vm_start > s) {
					err = os_mmap_replace((void *)s, v->vm_start - s, PROT_NONE);
					if (err)
						return err;
				}
				s = min(v->vm_end, vma->vm_end);
				if (v->vm_end <= vma->vm_end)
					v = next_mapped(mm, list_next_entry(v, list));
				continue;
			}
			err = os_mmap_replace((void *)s, e - s, PROT_NONE);
			if (err)
				return err;
			s = e;
		}
	}
	return 0;
}

/*
 * Put mm in the window (arch/x86/mm/tlb.c's switch_mm_irqs_off). Its
 * regions are mapped over the old mm's, then what the old mm had where mm
 * has nothing is cleared: two processes with the same layout (a fork) cost
 * one host call per region. If the host runs out of mappings meanwhile
 * (the two layouts interleave near vm.max_map_count), the window is
 * emptied and mm mapped afresh.
 */
bool switch_mm(struct mm_struct *mm)
{
	struct mm_struct *prev = loaded_mm ? loaded_mm : dead_mm;
	int err;

	if (mm == loaded_mm)
		return false;
	loaded_mm = mm;
	if (!mm) {
		reset_window();
	} else {
		err = prev ? map_over(prev, mm) : install_all(mm);
		if (err) {
			reset_window();
			err = install_all(mm);
			if (err)
				panic("switch_mm: cannot map the address space of mm %u: %d",
				      mm->id, err);
		}
		trace_with(TR_TASK, &(struct trace_fields){ .what = "switch_mm" },
			   "switch_mm mm %u -> mm %u (%d regions)", prev ? prev->id : 0, mm->id,
			   mm->map_count);
	}
	if (dead_mm) {
		mmdrop(dead_mm);
		dead_mm = NULL;
	}
	return true;
}

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
		if (vma->shared)
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
 * the spare file of the last mm dropped if there is one. Copy-on-write
 * would copy less; a later optimisation.
 */
struct mm_struct *dup_mm(struct mm_struct *old)
{
	struct hostmem *spare = spare_mem;
	struct mm_struct *mm;
	struct vm_area_struct *vma;
	struct hostmem *mem;
	unsigned int id;

	spare_mem = NULL;
	mm = spare ? mm_alloc_mem(spare) : mm_alloc();
	if (!mm)
		return NULL;
	mem = mm->mem;
	id = mm->id;
	*mm = *old;	/* brk, stack, argument and exe fields */
	mm->id = id;
	INIT_LIST_HEAD(&mm->mmap);
	mm->mm_rb = NULL;
	mm->mmap_cache = NULL;
	mm->mem = mem;
	mm->users = 1;
	mm->map_count = 0;
	list_for_each_entry(vma, &old->mmap, list) {
		struct vm_area_struct *new = kmalloc(sizeof(*new));

		*new = *vma;
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
static bool may_expand_vm(struct mm_struct *mm, unsigned long addr, unsigned long len,
			  bool replace, bool data)
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
		if (add_region(mm, newbrk, oldbrk, PROT_NONE, VMA_BRK, NULL, 0, false))
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
	    !may_expand_vm(mm, oldbrk, newbrk - oldbrk, false, true))
		return mm->brk;
	if (mm_protect(mm, oldbrk, newbrk - oldbrk, PROT_READ | PROT_WRITE))
		return mm->brk;
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
		err = add_region(mm, addr, addr + len, prot, VMA_ANON, obj, off, false);
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
		err = add_region(mm, addr, addr + len, prot, VMA_ANON, obj, off, true);
		return err ? err : (long)addr;
	}
	if (op->get_hostmem) {
		obj = op->get_hostmem(f, &err);
		if (!obj)
			return err ? err : -ENODEV;
	}
	/* Writable while the bytes go in; the protection asked for after. */
	err = add_region(mm, addr, addr + len, PROT_READ | PROT_WRITE, VMA_ANON, NULL, 0, false);
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
	case MAP_SHARED:
	case MAP_PRIVATE:
		break;
	default:
		goto out;
	}
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
			ret = add_region(mm, addr, addr + len, (int)prot, kind, obj, 0, false);
		else
			hostmem_put(obj);
		if (!ret)
			ret = (long)addr;
	} else {
		ret = add_region(mm, addr, addr + len, (int)prot, kind, NULL, 0, false);
		if (!ret)
			ret = (long)addr;
	}
out:
	if (f)
		fput(f);
	return ret;
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


unsigned long mm_rss_kib(struct mm_struct *mm)
{
	struct stat st;

	if (!mm || os_fstat(mm->mem->fd, &st))
		return 0;
	return st.st_blocks / 2;	/* 512-byte blocks */
}
