/* Process memory (include/linux/mm_types.h, mm/mmap.c).
 *
 * Every process has its own address space, an mm_struct, and all of them
 * live in one range of umk's host address space, the user window: only
 * the mm of the task on the CPU is mapped there (switch_mm), as a CPU's
 * page tables hold one address space at a time. A process's private pages
 * are a host memory file (mm->mem) at offsets equal to their addresses,
 * so that the window maps them with MAP_SHARED | MAP_FIXED, fork copies
 * them file to file, and the kernel can read another process's memory
 * without switching (docs/design.md, "Address spaces"). */
#ifndef UMK_MM_H
#define UMK_MM_H

#include <umk/list.h>
#include <umk/types.h>
#include <umk/uapi/mman.h>

/* The x86-64 user address space with 4-level paging
 * (arch/x86/include/asm/page_64_types.h): what a pointer or an FS base
 * may be. */
#define TASK_SIZE_MAX ((1UL << 47) - PAGE_SIZE)

/* The user window: where umk can map a process's memory, [USER_WINDOW_START,
 * TASK_SIZE). Its bottom is Linux's usual vm.mmap_min_addr; its top,
 * USER_WINDOW_MAX, leaves the upper half of the address space to the host,
 * where it puts umk itself (a PIE near 0x555555554000), glibc's heap, the
 * kernel stacks and its own mappings. Under a host address-space limit
 * (ulimit -v) the window is smaller (mm_init). A mapping must end at or
 * below TASK_SIZE, as on Linux. */
#define USER_WINDOW_START 0x10000UL
#ifndef UMK_ASAN
#define USER_WINDOW_MAX 0x400000000000UL	/* 64 TiB */
#else
/* make SANITIZE=address: ASan's shadow of x86-64 is fixed at
 * [0x7fff8000, 0x10007fff8000) (its runtime maps it from the page below,
 * 0x7fff7000), and the part of the address space below it (its LowMem) is
 * what the window can have: about 2 GiB, as a 32-bit process, which still
 * holds static programs at 0x400000, their heaps, mappings and stacks. */
#define USER_WINDOW_MAX 0x7fff0000UL
#endif
extern unsigned long task_size;		/* the window's end, set at boot */
#define TASK_SIZE task_size
#define STACK_TOP TASK_SIZE		/* the main stack ends here */
#define DEFAULT_MAP_COUNT_MAX 65530	/* vm.max_map_count */

/* vm_area_struct->kind, for the trace and the gdb helpers */
enum vma_kind { VMA_IMAGE, VMA_BRK, VMA_STACK, VMA_ANON };

struct hostmem;

/* A region's flags (Linux's include/linux/mm.h values): VM_MAYWRITE on a
 * shared region whose object may be written (anonymous, or a file opened
 * for writing); the rest are set by madvise (kernel/mm/madvise.c). Fork
 * leaves out a VM_DONTCOPY region and gives the child a VM_WIPEONFORK one
 * as zeros (kernel/mm/memory.c). */
#define VM_MAYWRITE	0x00000020UL
#define VM_GROWSDOWN	0x00000100UL	/* MAP_GROWSDOWN, the main stack: expand_downwards */
#define VM_LOCKED	0x00002000UL	/* mlock, mlockall, MAP_LOCKED */
#define VM_LOCKONFAULT	0x00080000UL	/* mlock2's MLOCK_ONFAULT */
#define VM_LOCKED_MASK	(VM_LOCKED | VM_LOCKONFAULT)
#define VM_SEQ_READ	0x00008000UL	/* MADV_SEQUENTIAL */
#define VM_RAND_READ	0x00010000UL	/* MADV_RANDOM */
#define VM_DONTCOPY	0x00020000UL	/* MADV_DONTFORK */
#define VM_WIPEONFORK	0x02000000UL	/* MADV_WIPEONFORK */
#define VM_DONTDUMP	0x04000000UL	/* MADV_DONTDUMP */
#define VM_HUGEPAGE	0x20000000UL	/* MADV_HUGEPAGE */
#define VM_NOHUGEPAGE	0x40000000UL	/* MADV_NOHUGEPAGE */
#define VM_MERGEABLE	0x80000000UL	/* MADV_MERGEABLE */

struct vm_area_struct {
	struct list_head list;		/* in mm->mmap, by address */
	unsigned long vm_start, vm_end;	/* [start, end), page aligned */
	int prot;			/* PROT_* */
	enum vma_kind kind;
	/* Where the pages are: NULL for private memory (mm->mem, at offset
	 * vm_start); else a shared object (MAP_SHARED), at offset vm_off. */
	struct hostmem *shared;
	u64 vm_off;
	/* shared is a file seen privately (MAP_PRIVATE, not writable): its
	 * pages are the file's, shared with every process mapping it, until
	 * mprotect makes the region writable and copies them into mm->mem. */
	bool private_file;
	/* VM_* below: what madvise sets, and whether a shared region may be
	 * written (its file was opened for writing). */
	unsigned long vm_flags;
	/* In mm->mm_rb (kernel/mm/vma_tree.c): the children, the node's fixed
	 * priority, and what its subtree covers (the first start, the last
	 * end, the largest gap between two of its regions). */
	struct vm_area_struct *rb_left, *rb_right;
	unsigned long rb_prio;
	unsigned long subtree_start, subtree_end, subtree_gap;
};

struct mm_struct {
	int users;			/* shared under CLONE_VM */
	unsigned int id;		/* 1, 2, ... in creation order: names it in
					 * the trace and the gdb helpers */
	struct list_head mmap;		/* regions, by address */
	struct vm_area_struct *mm_rb;	/* the same regions, a search tree */
	int map_count;			/* regions in mmap */
	/* Sums over the regions, in bytes, kept by kernel/mm/mm.c's vm_account
	 * for RLIMIT_AS and RLIMIT_DATA: what counts in total_vm, and the
	 * private writable regions. */
	unsigned long total_vm_bytes, pw_vm_bytes;
	/* The bytes of VM_LOCKED regions (Linux's locked_vm, VmLck), and the
	 * flags every new region gets (def_flags: mlockall's MCL_FUTURE). */
	unsigned long locked_vm_bytes;
	unsigned long def_flags;
	struct vm_area_struct *mmap_cache; /* the last region found */
	unsigned long vmacache_seqnum;	/* +1 whenever a region is freed */
	struct hostmem *mem;		/* private pages, offset == address */
	unsigned long mmap_base;	/* mmap searches down from here */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long start_brk, brk, brk_limit;	/* brk in [start_brk, brk_limit) */
	unsigned long start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;
	/* The auxiliary vector exec gave the program, AT_NULL-terminated
	 * (Linux's mm->saved_auxv): for the core dump's NT_AUXV. */
	unsigned long saved_auxv[2 * 24];
	unsigned long load_base;	/* where the image was placed */
	char exe[256];			/* path the program was executed as */
	/* The program's file (a reference), whose writers it keeps out
	 * while the mm lives (exe_file_deny_write_access): NULL before the
	 * first exec. Holding the file holds its dentry, so that hostfs finds
	 * the same inode again. */
	struct file *exe_file;
	int dumpable;			/* SUID_DUMP_*: PR_GET_DUMPABLE (kernel/sys.c) */
	/* The AIO contexts of io_setup (kernel/fs/aio.c's struct kioctx, by
	 * ctx->list), Linux's ioctx_table: fork leaves them out, the last
	 * mmput ends them (exit_aio). */
	struct list_head ioctx_list;
};

/* The gap a growing stack keeps below it (Linux's stack_guard_gap: 256
 * pages, the stack_guard_gap= boot default). */
#define STACK_GUARD_GAP (256UL * PAGE_SIZE)
/* Where the free range below vma must end (Linux's vm_start_gap): its
 * start, less the guard gap for a region that grows down. */
static inline unsigned long vm_start_gap(const struct vm_area_struct *vma)
{
	if (!(vma->vm_flags & VM_GROWSDOWN))
		return vma->vm_start;
	return vma->vm_start > STACK_GUARD_GAP ? vma->vm_start - STACK_GUARD_GAP : 0;
}

/* The tree of mm's regions (kernel/mm/vma_tree.c), kept beside mm->mmap by
 * kernel/mm/mm.c: O(log n) each. A region is inserted and erased while its
 * start is the one it is found by; after its vm_end or its VM_GROWSDOWN
 * changed (within its neighbours), vma_tree_update recomputes what its
 * ancestors know of it. */
void vma_tree_insert(struct mm_struct *mm, struct vm_area_struct *vma);
void vma_tree_erase(struct mm_struct *mm, struct vm_area_struct *vma);
void vma_tree_update(struct mm_struct *mm, struct vm_area_struct *vma);
/* The first region that ends above addr, or NULL. */
struct vm_area_struct *vma_tree_above(struct mm_struct *mm, unsigned long addr);
/* The highest start of a free range of len bytes within [low, top), or 0:
 * one that ends at the vm_start_gap of the region above it. */
unsigned long vma_tree_gap(struct mm_struct *mm, unsigned long low, size_t len,
			   unsigned long top);

/* kernel/fs/exec.c: mm takes (file NULL: gives up) its program's file. */
struct file;
void set_mm_exe_file(struct mm_struct *mm, struct file *file);

/* mm->dumpable (include/linux/sched/coredump.h) */
#define SUID_DUMP_DISABLE 0
#define SUID_DUMP_USER 1

/* Memory that mappings share: anonymous MAP_SHARED memory, a tmpfs file's
 * pages. A host memfd; an offset in it is an offset in the object (a page
 * of a file at file offset off is at off). Refcounted: every vma mapping it
 * and every tmpfs inode holding it has a reference (kernel/mm/mm.c). */
struct hostmem {
	int count;
	int fd;				/* the host memfd */
	/* On hostmem_list while it exists: /proc/meminfo sums them. anon:
	 * an mm's private memory (AnonPages), else shared memory or a tmpfs
	 * file's pages (Shmem). */
	struct list_head list;
	bool anon;
};
/* Every memory object umk holds, and what their pages take (/proc/meminfo). */
void hostmem_usage(unsigned long *anon_bytes, unsigned long *shmem_bytes);

/* A new empty object (size 0: the owner sets it with os_ftruncate), or
 * NULL when the host refuses one (out of fds or memory). */
struct hostmem *hostmem_create(const char *name);
/* The object over a host fd of the caller's, which it takes over (a host
 * file that mappings share: kernel/fs/hostfs.c). */
struct hostmem *hostmem_of_fd(int fd);
static inline struct hostmem *hostmem_get(struct hostmem *h)
{
	h->count++;
	return h;
}
void hostmem_put(struct hostmem *h);	/* closes the memfd at 0 */

/* A new empty address space, or NULL when the host has no memory file
 * to give (out of fds or memory). */
struct mm_struct *mm_alloc(void);
void mmput(struct mm_struct *mm);	/* drop a user; free regions at 0 */
/* kernel/fs/aio.c: the last user of mm is gone; end its AIO contexts. */
void exit_aio(struct mm_struct *mm);
/* Map len bytes of obj, from its offset 0, into mm where there is room,
 * shared and read-write (Linux's do_mmap of a file with MAP_SHARED, from
 * the kernel: AIO's completion ring). Takes its own reference on obj.
 * The address, or -ENOMEM. */
long mm_map_shared(struct mm_struct *mm, struct hostmem *obj, size_t len);
/* fork without CLONE_VM: a copy of mm, every private page copied, shared
 * objects shared. NULL when out of memory. */
struct mm_struct *dup_mm(struct mm_struct *mm);
/* Make mm the address space in the user window (a no-op if it is there):
 * the scheduler for the next task, exec while it builds the new image.
 * Returns whether the window changed (host calls were made). */
bool switch_mm(struct mm_struct *mm);
/* The mm in the window now (Linux's cpu_tlbstate.loaded_mm), or NULL. */
struct mm_struct *active_mm(void);
/* A futex's key in shared memory: if addr lies in a MAP_SHARED region of
 * mm, the object and the offset there, and true. */
bool mm_shared_key(struct mm_struct *mm, unsigned long addr, struct hostmem **obj, u64 *off);
/* Has addr a page a shared futex can be keyed on (get_futex_key's
 * get_user_pages): mapped, and writable or a file's? */
bool mm_futex_page_ok(struct mm_struct *mm, unsigned long addr);
/* The memory mm's private pages take on the host now, in KiB: what
 * getrusage reports as its resident size. */
unsigned long mm_rss_kib(struct mm_struct *mm);
/* Create the user window, at boot: 0 or -errno. */
int mm_init(void);
/* Map len bytes of anonymous memory for mm; addr is a hint, or where it must
 * go when fixed. Returns the address or -errno (IS_ERR_VALUE). */
unsigned long mm_map(struct mm_struct *mm, unsigned long addr, size_t len, int prot,
		     bool fixed, enum vma_kind kind);
int mm_unmap(struct mm_struct *mm, unsigned long addr, size_t len);
/* Grow vma, a VM_GROWSDOWN region, down to address (Linux's
 * expand_downwards): 0, or -errno with nothing changed. vma may be freed
 * (merged into the new part). */
int expand_downwards(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long address);
/* The brk reservation above the break: a region of umk's, no mapping to
 * the program (kernel/mm/mmap.c's sys_brk). */
bool vma_is_brk_reserve(struct mm_struct *mm, struct vm_area_struct *vma);
/* kernel/mm/memory.c: a SIGSEGV the host raised at address in user mode
 * (Linux's do_user_addr_fault). 0 when it is resolved (a stack grew: the
 * instruction runs again), else -EFAULT with *code the si_code the
 * program's SIGSEGV gets: SEGV_MAPERR where no region is. */
int do_user_addr_fault(unsigned long address, int *code);
/* The first region that ends above addr (Linux's find_vma), or the list
 * head's entry when there is none: where a walk over a range starts. */
struct vm_area_struct *vma_above(struct mm_struct *mm, unsigned long addr);
/* exec (kernel/fs/binfmt_elf.c): [start, end) of mm's image, over what was
 * there, becomes the pages of a file's object obj (a reference it takes
 * over) from offset off, seen privately: a segment the program cannot
 * write. 0 or -errno. */
int add_file_region(struct mm_struct *mm, unsigned long start, unsigned long end, int prot,
		    struct hostmem *obj, u64 off);
/* The host file holding vma's pages, and the offset in it of address addr
 * in vma (the core dump and /proc/PID/pagemap read regions from there). */
int vma_fd(struct mm_struct *mm, struct vm_area_struct *vma);
u64 vma_offset(struct vm_area_struct *vma, unsigned long addr);
int mm_protect(struct mm_struct *mm, unsigned long addr, size_t len, int prot);

struct task_struct;
struct pt_regs;

/* Read len bytes at addr of tsk's memory into buf, wherever tsk's address
 * space is (mm/memory.c's access_process_vm, read only): the bytes read,
 * short where the range leaves tsk's regions and the vDSO, 0 for a task
 * without an mm.
 * For /proc/PID/cmdline and environ. */
size_t access_process_vm(struct task_struct *tsk, unsigned long addr, void *buf, size_t len);
/* The same for writing (ptrace's POKEDATA, process_vm_writev): into a
 * private region even if the program cannot write it (a breakpoint in
 * its code), its pages made the process's own first when they are still
 * a file's; into a shared one only if it is writable. */
size_t access_process_vm_write(struct task_struct *tsk, unsigned long addr, const void *buf,
			       size_t len);

/* kernel/fs/exec.c */
struct linux_binprm;
/* Load path as the current task's new program, replacing its mm; on
 * success *regs holds the new user registers (ip, sp, fs base and the rest
 * zeroed). argv and envp are user pointers when from_user, else kernel
 * arrays. On failure returns -errno and, if why is not NULL, sets *why to a
 * short reason for a human ("not an ELF file", "dynamically linked"). */
int do_execve(const char *path, const char *const *argv, const char *const *envp,
	      bool from_user, struct pt_regs *regs, const char **why);

/* A task gives up its memory (kernel/fork.c): exec_mm_release() runs in
 * do_execve past the point of no return, before the old mm is dropped
 * (old_mm may be NULL for a task that had none), exit_mm_release() in
 * exit_mm(): both wake a vfork parent (tsk->vfork_done) and clear the
 * child tid word, waking its futex, as Linux's mm_release does. */
struct task_struct;
void exec_mm_release(struct task_struct *tsk, struct mm_struct *old_mm);
void exit_mm_release(struct task_struct *tsk, struct mm_struct *mm);
/* kernel/fs/exec.c: what do_execve resets once current->mm is the new one. */
void setup_new_exec(void);

#endif
