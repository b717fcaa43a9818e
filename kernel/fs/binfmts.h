/* kernel/fs/binfmts.h: what exec.c (fs/exec.c: execve, arguments, the point
 * of no return) shares with binfmt_elf.c (fs/binfmt_elf.c: checking and
 * loading the ELF image, the initial stack). */
#ifndef KERNEL_BINFMTS_H
#define KERNEL_BINFMTS_H

#include <umk/elf.h>
#include <umk/mm.h>
#include <umk/ptrace.h>
#include <umk/uapi/limits.h>

#define STACK_SIZE (8UL << 20)		/* _STK_LIM: ARG_LIMIT's base */
/* exec bounds the arguments by the soft RLIMIT_STACK of the process,
 * taken within these bounds (an unlimited one gets the largest), and maps
 * the stack no larger. */
#define STACK_SIZE_MIN (4 * 128 * 1024UL)	/* four times ARG_MAX */
#define STACK_SIZE_MAX (256UL << 20)
#define STACK_EXPAND (128 * 1024UL)	/* setup_arg_pages's stack_expand */
/* Linux's bprm_stack_limits with an 8 MiB stack rlimit: argument and
 * environment strings plus their pointers may use a quarter of it. */
#define ARG_LIMIT (STACK_SIZE / 4)
#define MAX_ARG_STRLEN (32 * PAGE_SIZE)	/* one string, NUL included */
#define MAX_ARG_STRINGS 0x7FFFFFFF
#define BRK_RESERVE (64UL << 20)	/* PROT_NONE until brk() grows into it */
#define IMAGE_MAX (1UL << 30)		/* span of the PT_LOAD segments */
/* Where a program with an interpreter goes (arch/x86's ELF_ET_DYN_BASE:
 * two thirds of the address space, 16 MiB aligned; umk does not add
 * Linux's random offset). */
#define ELF_ET_DYN_BASE ((TASK_SIZE / 3 * 2) & ~((16UL << 20) - 1))

#define ELF_PLATFORM "x86_64"
#define ELF_EXEC_PAGESIZE 4096
#define CLOCKS_PER_SEC 100		/* USER_HZ */
/* umk's user signal frame: the host's xsave area (2692 bytes on the
 * reference host) plus the frame, as measured for AT_MINSIGSTKSZ there. */
#define UMK_MINSIGSTKSZ 3632

#define __USER_CS 0x33
#define __USER_DS 0x2b

/* binfmt_script: at most this many nested interpreters, each adding its
 * name, its optional argument and the script's path to argv. */
#define BINPRM_MAX_SCRIPTS 4
#define BINPRM_BUF_SIZE 256		/* the "#!" line is read from this */

struct linux_binprm {
	const char *filename;		/* the path, as given (argv, AT_EXECFN) */
	const char *interp;		/* the file loaded: filename or its
					 * interpreter (/proc/PID/exe) */
	struct file *file;		/* the file being loaded */
	bool write_denied;		/* file holds deny_write_access */
	/* argv[0] of the program is replaced by these (scripts) */
	const char *prefix[3 * BINPRM_MAX_SCRIPTS];
	int nprefix;
	bool drop_argv0;		/* the caller's argv[0] is replaced */
	char *script_bufs[BINPRM_MAX_SCRIPTS];	/* kmalloc'ed "#!" lines */
	int nscripts;
	s64 size;			/* its size in bytes */
	Elf64_Ehdr ehdr;
	Elf64_Phdr *phdrs;		/* kmalloc'ed, ehdr.e_phnum entries */
	bool from_user;
	const char *const *argv, *const *envp;
	int argc, envc;
	struct mm_struct *mm;		/* the new program's, until exec_mmap */
	char *strings;			/* argv, envp strings, filename (kmalloc) */
	unsigned long strings_len;
	unsigned long stack_size;	/* of the new main stack */
	unsigned long stack_base;	/* lowest address of the stack region */
	unsigned long p;		/* lowest byte of the strings */
	unsigned long argv_len, envp_len; /* bytes of their strings */
	unsigned long exec;		/* AT_EXECFN: the filename on the stack */
	unsigned long load_bias;
	char *elf_interp;		/* PT_INTERP's path (kmalloc), or NULL */
	bool is_interp;			/* this is the interpreter being loaded */
	/* execveat: the program is named after its file (fexecve), and no
	 * interpreter could open its /dev/fd path after the exec. */
	bool comm_from_dentry, path_inaccessible;
	unsigned long interp_base;	/* AT_BASE: the interpreter's load bias */
	unsigned long interp_entry;	/* where the program starts, if one */
	unsigned long entry, phdr_addr;
	unsigned long sp;		/* the initial user rsp */
};

/* exec.c: record why exec failed, for a human; returns err. */
int exec_fail(int err, const char *fmt, ...) __printf(2, 3);
#define bad_elf(fmt, ...) \
	exec_fail(-ENOEXEC, "truncated or inconsistent ELF headers: " fmt, ##__VA_ARGS__)
/* exec.c: "ENOENT", or "error" */
const char *err_name(int err);
/* exec.c: read exactly n bytes of the program at off. */
struct file;
int read_exact(struct file *f, void *buf, size_t n, u64 off);
/* exec.c: the host memory holding the program's pages at their file
 * offsets (a reference), to map its read-only segments from; NULL when
 * its file system has none (they are copied then). */
struct hostmem;
struct hostmem *exec_file_pages(struct file *f);

/* binfmt_script.c: if the open file is a "#!" script, make its
 * interpreter the file to load: 1 if so, 0 if not a script, -errno. */
int load_script(struct linux_binprm *bprm);

/* binfmt_elf.c, in the order do_execve calls them */
int check_elf_headers(struct linux_binprm *bprm, unsigned long *lo, unsigned long *hi);
int load_elf_binary(struct linux_binprm *bprm, unsigned long lo, unsigned long hi);
void create_elf_tables(struct linux_binprm *bprm);
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp);

#endif
