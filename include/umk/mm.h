/* Process memory (include/linux/mm_types.h, in NOMMU form).
 *
 * umk is a NOMMU kernel like uClinux: every process lives in the host
 * process's one address space, and each loaded program has its own copy of
 * its image. An mm_struct records the regions a process owns, with their
 * protections, so that access_ok() can tell user memory from the kernel's,
 * and so that a later step can give each process its own address space. */
#ifndef UMK_MM_H
#define UMK_MM_H

#include <umk/list.h>
#include <umk/types.h>
#include <umk/uapi/mman.h>

/* The x86-64 user address space with 4-level paging
 * (arch/x86/include/asm/page_64_types.h). */
#define TASK_SIZE_MAX ((1UL << 47) - PAGE_SIZE)
#define TASK_SIZE TASK_SIZE_MAX

/* vm_area_struct->kind, for the trace and the gdb helpers */
enum vma_kind { VMA_IMAGE, VMA_BRK, VMA_STACK, VMA_ANON };

struct vm_area_struct {
	struct list_head list;		/* in mm->mmap, by address */
	unsigned long vm_start, vm_end;	/* [start, end), page aligned */
	int prot;			/* PROT_* */
	enum vma_kind kind;
};

struct mm_struct {
	int users;			/* shared under CLONE_VM */
	struct list_head mmap;		/* regions, by address */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long start_brk, brk, brk_limit;	/* brk in [start_brk, brk_limit) */
	unsigned long start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;
	unsigned long load_base;	/* where the image was placed */
	char exe[256];			/* path the program was executed as */
	int dumpable;			/* SUID_DUMP_*: PR_GET_DUMPABLE (kernel/sys.c) */
};

/* mm->dumpable (include/linux/sched/coredump.h) */
#define SUID_DUMP_DISABLE 0
#define SUID_DUMP_USER 1

/* Memory that mappings share: anonymous MAP_SHARED memory, a tmpfs file's
 * pages. A host memfd; an offset in it is an offset in the object (a page
 * of a file at file offset off is at off). Refcounted: every vma mapping it
 * and every tmpfs inode holding it has a reference (kernel/mm.c). */
struct hostmem {
	int count;
	int fd;				/* the host memfd */
};

/* A new empty object (size 0: the owner sets it with os_ftruncate), or
 * NULL when the host refuses one (out of fds or memory). */
struct hostmem *hostmem_create(const char *name);
static inline struct hostmem *hostmem_get(struct hostmem *h)
{
	h->count++;
	return h;
}
void hostmem_put(struct hostmem *h);	/* closes the memfd at 0 */

struct mm_struct *mm_alloc(void);
void mmput(struct mm_struct *mm);	/* drop a user; free regions at 0 */
/* Map len bytes of anonymous memory for mm; addr is a hint, or where it must
 * go when fixed. Returns the address or -errno (IS_ERR_VALUE). */
unsigned long mm_map(struct mm_struct *mm, unsigned long addr, size_t len, int prot,
		     bool fixed, enum vma_kind kind);
int mm_unmap(struct mm_struct *mm, unsigned long addr, size_t len);
int mm_protect(struct mm_struct *mm, unsigned long addr, size_t len, int prot);

/* Read len bytes at addr of tsk's memory into buf, wherever tsk's address
 * space is (mm/memory.c's access_process_vm, read only): the bytes read,
 * short where the range leaves tsk's regions, 0 for a task without an mm.
 * For /proc/PID/cmdline and environ. */
size_t access_process_vm(struct task_struct *tsk, unsigned long addr, void *buf, size_t len);

/* kernel/exec.c */
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
/* kernel/exec.c: what do_execve resets once current->mm is the new one. */
void setup_new_exec(void);

#endif
