/* kernel/mm/internal.h: what the files of kernel/mm/ share and no other
 * folder needs (as Linux's mm/internal.h): the region lookups and changes
 * of vma.c, mmap.c's may_expand_vm, and the window's install_range of
 * window.c. */
#ifndef KERNEL_MM_INTERNAL_H
#define KERNEL_MM_INTERNAL_H

#include <umk/mm.h>

#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x) ALIGN((unsigned long)(x), PAGE_SIZE)
#define offset_in_page(p) ((unsigned long)(p) & ~PAGE_MASK)

/* vma.c: an mm's regions */

/* A new mm over the memory file mem (a reference it takes over). */
struct mm_struct *mm_alloc_mem(struct hostmem *mem);
/* The memory file of the last mm dropped, if one was kept: the caller's. */
struct hostmem *mm_take_spare(void);
/* Free mm and its regions, now that it is out of the window. */
void mmdrop(struct mm_struct *mm);
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
bool range_covered(struct mm_struct *mm, unsigned long start, unsigned long end);
bool range_intersects(struct mm_struct *mm, unsigned long start, unsigned long end);
bool range_is_kind(struct mm_struct *mm, unsigned long start, unsigned long end,
		   enum vma_kind kind);
int forget_range(struct mm_struct *mm, unsigned long start, unsigned long end, bool clear);
int add_region(struct mm_struct *mm, unsigned long start, unsigned long end, int prot,
	       enum vma_kind kind, struct hostmem *shared, u64 off, bool private_file,
	       unsigned long vm_flags);
/* Make start and end region boundaries where they fall inside a region,
 * and merge the regions of [start, end] with neighbours that agree again
 * (madvise's flag changes). */
void split_at(struct mm_struct *mm, unsigned long start, unsigned long end);
void merge_vmas(struct mm_struct *mm, unsigned long start, unsigned long end);
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long hint, size_t len);
/* Which regions count in total_vm and data_vm (RLIMIT_AS, RLIMIT_DATA). */
bool is_total_vm(struct mm_struct *mm, struct vm_area_struct *vma);
bool is_private_writable(struct vm_area_struct *vma);
bool is_data_vm(struct mm_struct *mm, struct vm_area_struct *vma);
/* Add (sign 1) or take away (-1) vma's bytes from mm's sums. */
void vm_account(struct mm_struct *mm, struct vm_area_struct *vma, int sign);

/* mmap.c: may mm grow by len bytes of a mapping (data: one that counts in
 * data_vm), replacing [addr, addr + len) if replace? RLIMIT_AS and
 * RLIMIT_DATA, as Linux's may_expand_vm (mmap, brk, mremap). */
bool may_expand_vm(struct mm_struct *mm, unsigned long addr, unsigned long len, bool replace,
		   bool data);

/* mlock.c: lock [start, end) of mm, as MAP_LOCKED asks: 0 or -errno.
 * May mm lock len bytes more (mlock_future_ok)? */
int mm_lock_range(struct mm_struct *mm, unsigned long start, unsigned long end);
bool mlock_future_ok(struct mm_struct *mm, unsigned long flags, unsigned long len);

/* window.c: the host mapping of the mm in the window */

/* Map [s, e) of vma into the window: 0 or -errno. */
int vma_materialize(struct mm_struct *mm, struct vm_area_struct *vma);	/* vma.c */
int install_range(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long s,
		  unsigned long e);

#endif
