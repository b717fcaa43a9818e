/*
 * kernel/exec.c: execve and the ELF loader (fs/exec.c, fs/binfmt_elf.c).
 *
 * do_execve() loads a static x86-64 ELF program (static-pie ET_DYN, or
 * ET_EXEC at its link address) into a new mm, builds the initial stack as
 * Linux's create_elf_tables does, and only then, past the point of no
 * return, replaces current->mm and the user registers. Every failure before
 * that leaves the caller's old mm untouched and returns Linux's errno with
 * a reason for a human.
 *
 * The steps follow Linux's order, so that a program passing both a bad
 * argv and a bad file sees the errno Linux gives:
 *   open_exec          ENOENT, EACCES
 *   copy_strings       EFAULT, E2BIG (into the new stack, still unused)
 *   check_elf_headers  ENOEXEC
 *   load_elf_binary    ENOMEM, EIO
 *   create_elf_tables  argc, argv, envp, auxv
 *   exec_mmap          the point of no return
 *
 * NOMMU: the new image, brk area and stack are new host mappings; strings
 * are copied from the old process's memory (still current->mm) straight
 * into the new stack, both being in the one host address space.
 */
#include <umk/arch.h>
#include <umk/elf.h>
#include <umk/errno.h>
#include <umk/mm.h>
#include <umk/ptrace.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>

#define PATH_MAX 4096
#define TASK_SIZE ((1UL << 47) - PAGE_SIZE)

#define STACK_SIZE (8UL << 20)		/* the user stack, like RLIMIT_STACK */
/* Linux's bprm_stack_limits with an 8 MiB stack rlimit: argument and
 * environment strings plus their pointers may use a quarter of it. */
#define ARG_LIMIT (STACK_SIZE / 4)
#define MAX_ARG_STRLEN (32 * PAGE_SIZE)	/* one string, NUL included */
#define MAX_ARG_STRINGS 0x7FFFFFFF
#define BRK_RESERVE (64UL << 20)	/* PROT_NONE until brk() grows into it */
#define IMAGE_MAX (1UL << 30)		/* span of the PT_LOAD segments */

#define ELF_PLATFORM "x86_64"
#define ELF_EXEC_PAGESIZE 4096
#define CLOCKS_PER_SEC 100		/* USER_HZ */
/* umk's user signal frame: the host's xsave area (2692 bytes on the
 * reference host) plus the frame, as measured for AT_MINSIGSTKSZ there. */
#define UMK_MINSIGSTKSZ 3632

#define __USER_CS 0x33
#define __USER_DS 0x2b

struct linux_binprm {
	const char *filename;		/* the path, as given */
	int fd;				/* host fd of the file */
	s64 size;			/* its size in bytes */
	Elf64_Ehdr ehdr;
	Elf64_Phdr *phdrs;		/* kmalloc'ed, ehdr.e_phnum entries */
	bool from_user;
	const char *const *argv, *const *envp;
	int argc, envc;
	struct mm_struct *mm;		/* the new program's, until exec_mmap */
	unsigned long stack_base;	/* lowest address of the stack region */
	unsigned long p;		/* lowest byte of the strings */
	unsigned long argv_len, envp_len; /* bytes of their strings */
	unsigned long exec;		/* AT_EXECFN: the filename on the stack */
	unsigned long load_bias;
	unsigned long entry, phdr_addr;
	unsigned long sp;		/* the initial user rsp */
};

/* The reason for the last failure. One CPU and no sleeping inside
 * do_execve: it stays valid until the next exec. */
static char exec_why[256];

static int __printf(2, 3) exec_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(exec_why, sizeof(exec_why), fmt, ap);
	va_end(ap);
	return err;
}

#define bad_elf(fmt, ...) \
	exec_fail(-ENOEXEC, "truncated or inconsistent ELF headers: " fmt, ##__VA_ARGS__)

static const char *err_name(int err)
{
	const char *s = errno_name(err);

	return s ? s : "error";
}

/* Read exactly n bytes at off; the caller has checked off + n <= size, so
 * a short read means the file changed under us. */
static int read_exact(int fd, void *buf, size_t n, u64 off)
{
	char *p = buf;

	while (n) {
		ssize_t r = os_pread(fd, p, n, off);

		if (r < 0)
			return (int)r;
		if (r == 0)
			return -EIO;
		p += r;
		off += r;
		n -= r;
	}
	return 0;
}

/* fs/exec.c's do_open_execat: a regular file with execute permission. */
static int open_exec(struct linux_binprm *bprm)
{
	const char *path = bprm->filename;
	int r;

	if (strnlen(path, PATH_MAX) >= PATH_MAX)
		return exec_fail(-ENAMETOOLONG, "path too long");
	r = os_is_regular(path);
	if (r == -ENOENT)
		return exec_fail(r, "no such file");
	if (r < 0)
		return exec_fail(r, "cannot look it up (%s)", err_name(r));
	if (r == 0)
		return exec_fail(-EACCES, "not a regular file");
	r = os_access_exec(path);
	if (r == -EACCES)
		return exec_fail(r, "permission denied: not executable");
	if (r < 0)
		return exec_fail(r, "cannot check permissions (%s)", err_name(r));
	r = os_open_read(path);
	if (r < 0)
		return exec_fail(r, "cannot open it (%s)", err_name(r));
	bprm->fd = r;
	bprm->size = os_file_size(bprm->fd);
	if (bprm->size < 0)
		return exec_fail((int)bprm->size, "cannot stat it (%s)", err_name((int)bprm->size));
	return 0;
}

/* Count a NULL-terminated array of string pointers (fs/exec.c's count).
 * Each pointer costs 8 bytes of the argument space, hence the bound. */
static int count(struct linux_binprm *bprm, const char *const *argv)
{
	int i;

	if (!argv)
		return 0;
	for (i = 0;; i++) {
		const char *s;

		if (bprm->from_user) {
			if (get_user(s, (const char **)argv + i))
				return exec_fail(-EFAULT, "bad address in argv or envp");
		} else {
			s = argv[i];
		}
		if (!s)
			return i;
		if (i >= MAX_ARG_STRINGS || (unsigned long)i >= ARG_LIMIT / sizeof(void *))
			return exec_fail(-E2BIG, "argument list too long");
	}
}

/* Append one string at dst + *used, with at most limit bytes in all. */
static int copy_string(struct linux_binprm *bprm, char *dst, unsigned long *used,
		       unsigned long limit, const char *src, bool user)
{
	unsigned long room = limit - *used;
	long len;

	if (!room)
		return exec_fail(-E2BIG, "argument list too long");
	if (user) {
		len = strncpy_from_user(dst + *used, src, (long)min(room, MAX_ARG_STRLEN));
		if (len == -EFAULT)
			return exec_fail(-EFAULT, "bad address in argv or envp");
		if (len < 0)
			return exec_fail(-E2BIG, "argument list too long");
	} else {
		len = (long)strnlen(src, MAX_ARG_STRLEN);
		if ((unsigned long)len + 1 > min(room, MAX_ARG_STRLEN))
			return exec_fail(-E2BIG, "argument list too long");
		memcpy(dst + *used, src, len + 1);
	}
	*used += len + 1;
	return 0;
}

static int copy_strings(struct linux_binprm *bprm, int n, const char *const *argv, char *dst,
			unsigned long *used, unsigned long limit)
{
	int i, err;

	for (i = 0; i < n; i++) {
		const char *s;

		if (bprm->from_user) {
			if (get_user(s, (const char **)argv + i))
				return exec_fail(-EFAULT, "bad address in argv or envp");
		} else {
			s = argv[i];
		}
		err = copy_string(bprm, dst, used, limit, s, bprm->from_user);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Map the new stack and put the strings at its top, as Linux leaves them
 * before create_elf_tables: argv strings, envp strings, the filename (for
 * AT_EXECFN), then one zero word at the very top. Linux builds them
 * downwards; umk, not knowing their total length beforehand, copies them
 * upwards into the bottom of the stack and moves them up.
 */
static int setup_arg_pages(struct linux_binprm *bprm)
{
	unsigned long base, top, ptr_size, limit, used = 0, argv_end, envp_end;
	char *staging;
	int err;

	bprm->argc = count(bprm, bprm->argv);
	if (bprm->argc < 0)
		return bprm->argc;
	bprm->envc = count(bprm, bprm->envp);
	if (bprm->envc < 0)
		return bprm->envc;
	ptr_size = ((unsigned long)max(bprm->argc, 1) + bprm->envc) * sizeof(void *);
	if (ARG_LIMIT <= ptr_size)
		return exec_fail(-E2BIG, "argument list too long");
	limit = ARG_LIMIT - ptr_size;

	base = mm_map(bprm->mm, 0, STACK_SIZE, PROT_READ | PROT_WRITE, false, VMA_STACK);
	if (IS_ERR_VALUE(base))
		return exec_fail(-ENOMEM, "cannot map the %lu MiB stack", STACK_SIZE >> 20);
	/* A guard page: in one address space an overflow must not run into
	 * whatever lies below. */
	err = mm_protect(bprm->mm, base, PAGE_SIZE, PROT_NONE);
	if (err)
		panic("setup_arg_pages: guard page: %d", err);
	bprm->stack_base = base;
	top = base + STACK_SIZE;
	staging = (char *)(base + PAGE_SIZE);

	err = copy_strings(bprm, bprm->argc, bprm->argv, staging, &used, limit);
	if (err)
		return err;
	/* Linux 5.18+: an empty argv gets "" as argv[0], so that programs
	 * reading argv[1] never walk into envp. */
	if (bprm->argc == 0) {
		err = copy_string(bprm, staging, &used, limit, "", false);
		if (err)
			return err;
		bprm->argc = 1;
	}
	argv_end = used;
	err = copy_strings(bprm, bprm->envc, bprm->envp, staging, &used, limit);
	if (err)
		return err;
	envp_end = used;
	err = copy_string(bprm, staging, &used, limit, bprm->filename, false);
	if (err)
		return err;

	/* used <= ARG_LIMIT, a quarter of the stack: the areas do not overlap */
	bprm->p = top - sizeof(void *) - used;
	memcpy((void *)bprm->p, staging, used);
	memset(staging, 0, used);
	bprm->argv_len = argv_end;
	bprm->envp_len = envp_end - argv_end;
	bprm->exec = bprm->p + envp_end;
	return 0;
}

/* A PT_INTERP segment names the dynamic loader the program needs. */
static int check_interp(struct linux_binprm *bprm, const Elf64_Phdr *ph)
{
	static char interp[128];
	size_t n = min(ph->p_filesz, sizeof(interp) - 1);

	memset(interp, 0, sizeof(interp));
	if (ph->p_offset > (u64)bprm->size || n > (u64)bprm->size - ph->p_offset ||
	    read_exact(bprm->fd, interp, n, ph->p_offset) || !interp[0])
		snprintf(interp, sizeof(interp), "an interpreter");
	return exec_fail(-ENOEXEC, "dynamically linked (needs %s): umk runs static programs only",
			 interp);
}

/*
 * The checks of load_elf_binary and elf_read_phdrs, plus what umk's loader
 * relies on: PT_LOAD segments inside the file, in ascending order without
 * overlap, with p_vaddr and p_offset congruent modulo the page size, and
 * the entry point inside one of them.
 */
static int check_elf_headers(struct linux_binprm *bprm, unsigned long *lo, unsigned long *hi)
{
	Elf64_Ehdr *eh = &bprm->ehdr;
	unsigned char head[sizeof(Elf64_Ehdr)] = { 0 };
	unsigned long phsize, prev_end = 0;
	bool entry_ok = false;
	int i, err, nload = 0, prev = -1;

	err = read_exact(bprm->fd, head, min((u64)bprm->size, sizeof(head)), 0);
	if (err)
		return exec_fail(err, "read error (%s)", err_name(err));
	if (bprm->size < SELFMAG || memcmp(head, ELFMAG, SELFMAG)) {
		if (head[0] == '#' && head[1] == '!')
			return exec_fail(-ENOEXEC, "a script (#!): umk runs ELF programs only");
		return exec_fail(-ENOEXEC, "not an ELF file");
	}
	memcpy(eh, head, sizeof(*eh));
	if (bprm->size < 20)
		return bad_elf("file ends inside the ELF header");
	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		return exec_fail(-ENOEXEC, "not an x86-64 executable (%s ELF)",
				 eh->e_ident[EI_CLASS] == ELFCLASS32 ? "32-bit" : "unknown class of");
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return exec_fail(-ENOEXEC, "not an x86-64 executable (big-endian ELF)");
	if (eh->e_machine != EM_X86_64)
		return exec_fail(-ENOEXEC, "not an x86-64 executable (e_machine %u)",
				 eh->e_machine);
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return exec_fail(-ENOEXEC, "not an executable program (ELF type %u%s)", eh->e_type,
				 eh->e_type == ET_REL ? ", an object file" :
				 eh->e_type == ET_CORE ? ", a core dump" : "");
	if (bprm->size < (s64)sizeof(*eh))
		return bad_elf("file ends inside the ELF header");
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return bad_elf("e_phentsize is %u, not %zu", eh->e_phentsize, sizeof(Elf64_Phdr));
	phsize = (unsigned long)eh->e_phnum * sizeof(Elf64_Phdr);
	if (phsize == 0)
		return bad_elf("no program headers");
	if (phsize > PAGE_SIZE)
		return bad_elf("%u program headers, too many", eh->e_phnum);
	if (eh->e_phoff > (u64)bprm->size || phsize > (u64)bprm->size - eh->e_phoff)
		return bad_elf("program headers beyond the end of the file");
	bprm->phdrs = kmalloc(phsize);
	err = read_exact(bprm->fd, bprm->phdrs, phsize, eh->e_phoff);
	if (err)
		return exec_fail(err, "read error (%s)", err_name(err));

	for (i = 0; i < eh->e_phnum; i++)
		if (bprm->phdrs[i].p_type == PT_INTERP)
			return check_interp(bprm, &bprm->phdrs[i]);

	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = &bprm->phdrs[i];

		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if (ph->p_filesz > ph->p_memsz)
			return bad_elf("segment %d: p_filesz > p_memsz", i);
		if (ph->p_offset > (u64)bprm->size || ph->p_filesz > (u64)bprm->size - ph->p_offset)
			return bad_elf("segment %d extends beyond the end of the file", i);
		if ((ph->p_vaddr - ph->p_offset) & (PAGE_SIZE - 1))
			return bad_elf("segment %d: p_vaddr and p_offset misaligned", i);
		if (ph->p_vaddr >= TASK_SIZE || ph->p_memsz > TASK_SIZE - ph->p_vaddr)
			return bad_elf("segment %d outside the user address space", i);
		if (nload && ph->p_vaddr < prev_end)
			return bad_elf("segment %d overlaps or precedes segment %d", i, prev);
		if (!nload)
			*lo = ALIGN_DOWN(ph->p_vaddr, PAGE_SIZE);
		prev_end = ph->p_vaddr + ph->p_memsz;
		prev = i;
		nload++;
		if (eh->e_entry >= ph->p_vaddr && eh->e_entry < prev_end)
			entry_ok = true;
	}
	if (!nload)
		return bad_elf("no PT_LOAD segment");
	if (!entry_ok)
		return bad_elf("entry point %#lx outside every PT_LOAD segment",
			       (unsigned long)eh->e_entry);
	*hi = ALIGN(prev_end, PAGE_SIZE);
	if (*hi - *lo > IMAGE_MAX)
		return exec_fail(-ENOMEM, "needs %lu MiB, more than umk can give (%lu MiB)",
				 (*hi - *lo + (1UL << 20) - 1) >> 20, IMAGE_MAX >> 20);
	return 0;
}

/* Reserve the brk area at hint (right after the image) if it is free,
 * else anywhere; without one, brk() just never moves and musl's malloc
 * falls back to mmap. */
static void setup_brk(struct linux_binprm *bprm, unsigned long hint)
{
	struct mm_struct *mm = bprm->mm;
	unsigned long a = mm_map(mm, hint, BRK_RESERVE, PROT_NONE, true, VMA_BRK);

	if (IS_ERR_VALUE(a))
		a = mm_map(mm, hint, BRK_RESERVE, PROT_NONE, false, VMA_BRK);
	if (IS_ERR_VALUE(a)) {
		mm->start_brk = mm->brk = mm->brk_limit = hint;
		return;
	}
	mm->start_brk = mm->brk = a;
	mm->brk_limit = a + BRK_RESERVE;
}

static int elf_prot(u32 p_flags)
{
	return ((p_flags & PF_R) ? PROT_READ : 0) | ((p_flags & PF_W) ? PROT_WRITE : 0) |
	       ((p_flags & PF_X) ? PROT_EXEC : 0);
}

/*
 * Map the span [lo, hi) of the PT_LOAD segments: ET_DYN anywhere, with the
 * brk area reserved in the same host mapping so that it follows the image;
 * ET_EXEC at its link address. Copy each segment's file bytes (the rest,
 * bss included, is fresh zeroed memory), then give each segment its
 * p_flags protection; a page two segments share gets both, and pages
 * between segments none. Writable segments stay writable: a static-pie
 * relocates its GNU_RELRO part itself after it starts.
 */
static int load_elf_binary(struct linux_binprm *bprm, unsigned long lo, unsigned long hi)
{
	struct mm_struct *mm = bprm->mm;
	Elf64_Ehdr *eh = &bprm->ehdr;
	unsigned long span = hi - lo, base, prev_e = 0, brk_end = 0;
	unsigned long start_code = ~0UL, end_code = 0, start_data = 0, end_data = 0;
	int i, err, prev_prot = PROT_NONE;
	bool first = true;

	if (eh->e_type == ET_DYN) {
		base = mm_map(mm, 0, span + BRK_RESERVE, PROT_READ | PROT_WRITE, false, VMA_IMAGE);
		if (!IS_ERR_VALUE(base)) {
			/* Give the tail back and take it again as the brk
			 * area: nothing maps in between (one CPU). */
			mm_unmap(mm, base + span, BRK_RESERVE);
		} else {
			base = mm_map(mm, 0, span, PROT_READ | PROT_WRITE, false, VMA_IMAGE);
		}
		if (IS_ERR_VALUE(base))
			return exec_fail(-ENOMEM, "cannot map %lu MiB for the image (%s)",
					 (span + (1UL << 20) - 1) >> 20, err_name((int)base));
		bprm->load_bias = base - lo;
	} else {
		base = mm_map(mm, lo, span, PROT_READ | PROT_WRITE, true, VMA_IMAGE);
		if (base == (unsigned long)-EEXIST)
			return exec_fail(-ENOMEM, "address range %#lx-%#lx in use (linked at a "
					 "fixed address that umk or another program occupies)",
					 lo, hi);
		if (IS_ERR_VALUE(base))
			return exec_fail(-ENOMEM, "cannot map %#lx-%#lx for the image (%s)", lo, hi,
					 err_name((int)base));
		bprm->load_bias = 0;
	}

	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = &bprm->phdrs[i];
		unsigned long vaddr = bprm->load_bias + ph->p_vaddr, s, e;
		int prot = elf_prot(ph->p_flags);

		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if (ph->p_offset <= eh->e_phoff && eh->e_phoff < ph->p_offset + ph->p_filesz)
			bprm->phdr_addr = vaddr + (eh->e_phoff - ph->p_offset);
		if (ph->p_filesz) {
			err = read_exact(bprm->fd, (void *)vaddr, ph->p_filesz, ph->p_offset);
			if (err)
				return exec_fail(err, "read error (%s)", err_name(err));
		}
		s = ALIGN_DOWN(vaddr, PAGE_SIZE);
		e = ALIGN(vaddr + ph->p_memsz, PAGE_SIZE);
		err = 0;
		if (!first && s > prev_e)
			err = mm_protect(mm, prev_e, s - prev_e, PROT_NONE);
		if (!err)
			err = mm_protect(mm, s, e - s, prot);
		if (!err && !first && s < prev_e)
			err = mm_protect(mm, s, PAGE_SIZE, prot | prev_prot);
		if (err)
			panic("load_elf_binary: mm_protect in the new image: %d", err);
		prev_e = e;
		prev_prot = prot;
		first = false;

		/* mm fields, as load_elf_binary computes them */
		if ((ph->p_flags & PF_X) && vaddr < start_code)
			start_code = vaddr;
		if (start_data < vaddr)
			start_data = vaddr;
		if ((ph->p_flags & PF_X) && end_code < vaddr + ph->p_filesz)
			end_code = vaddr + ph->p_filesz;
		if (end_data < vaddr + ph->p_filesz)
			end_data = vaddr + ph->p_filesz;
		brk_end = e;
	}
	mm->start_code = start_code == ~0UL ? 0 : start_code;
	mm->end_code = end_code;
	mm->start_data = start_data;
	mm->end_data = end_data;
	mm->load_base = bprm->load_bias + lo;
	bprm->entry = bprm->load_bias + eh->e_entry;
	setup_brk(bprm, brk_end);
	return 0;
}

/* CPUID.1:EDX, what Linux gives as AT_HWCAP on x86 (ELF_HWCAP). */
static unsigned long elf_hwcap(void)
{
	u32 a = 1, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return d;
}

/*
 * The initial stack, as fs/binfmt_elf.c's create_elf_tables leaves it
 * (without ASLR), from the top down:
 *   a zero word, the filename, envp strings, argv strings  (setup_arg_pages)
 *   "x86_64" (AT_PLATFORM), 16 random bytes (AT_RANDOM), 16-byte aligned
 *   auxv pairs ending with AT_NULL, NULL, envp[], NULL, argv[], argc
 * with rsp pointing at argc and 16-byte aligned. No AT_SYSINFO_EHDR: umk
 * gives no vDSO, so clock_gettime and friends trap.
 */
static void create_elf_tables(struct linux_binprm *bprm)
{
	struct mm_struct *mm = bprm->mm;
	unsigned long p = bprm->p, u_platform, u_rand_bytes, auxv[2 * 24], *sp, s;
	int ei = 0, items, i;

#define NEW_AUX_ENT(id, val)                                                   \
	do {                                                                   \
		auxv[ei++] = (id);                                             \
		auxv[ei++] = (val);                                            \
	} while (0)

	p = ALIGN_DOWN(p, 16);
	p -= sizeof(ELF_PLATFORM);
	u_platform = p;
	memcpy((void *)u_platform, ELF_PLATFORM, sizeof(ELF_PLATFORM));
	p -= 16;
	u_rand_bytes = p;
	os_random((void *)u_rand_bytes, 16);

	NEW_AUX_ENT(AT_MINSIGSTKSZ, UMK_MINSIGSTKSZ);
	NEW_AUX_ENT(AT_HWCAP, elf_hwcap());
	NEW_AUX_ENT(AT_PAGESZ, ELF_EXEC_PAGESIZE);
	NEW_AUX_ENT(AT_CLKTCK, CLOCKS_PER_SEC);
	NEW_AUX_ENT(AT_PHDR, bprm->phdr_addr);
	NEW_AUX_ENT(AT_PHENT, sizeof(Elf64_Phdr));
	NEW_AUX_ENT(AT_PHNUM, bprm->ehdr.e_phnum);
	NEW_AUX_ENT(AT_BASE, 0);
	NEW_AUX_ENT(AT_FLAGS, 0);
	NEW_AUX_ENT(AT_ENTRY, bprm->entry);
	NEW_AUX_ENT(AT_UID, (unsigned long)sys_getuid());
	NEW_AUX_ENT(AT_EUID, (unsigned long)sys_geteuid());
	NEW_AUX_ENT(AT_GID, (unsigned long)sys_getgid());
	NEW_AUX_ENT(AT_EGID, (unsigned long)sys_getegid());
	NEW_AUX_ENT(AT_SECURE, 0);
	NEW_AUX_ENT(AT_RANDOM, u_rand_bytes);
	NEW_AUX_ENT(AT_HWCAP2, HWCAP2_FSGSBASE);
	NEW_AUX_ENT(AT_EXECFN, bprm->exec);
	NEW_AUX_ENT(AT_PLATFORM, u_platform);
	NEW_AUX_ENT(AT_NULL, 0);
#undef NEW_AUX_ENT
	if ((size_t)ei > ARRAY_SIZE(auxv))
		panic("create_elf_tables: auxv overflow (%d)", ei);

	items = (bprm->argc + 1) + (bprm->envc + 1) + 1 + ei;
	p = ALIGN_DOWN(p - (unsigned long)items * sizeof(unsigned long), 16);
	bprm->sp = p;
	sp = (unsigned long *)p;

	*sp++ = bprm->argc;
	s = bprm->p;
	mm->arg_start = s;
	for (i = 0; i < bprm->argc; i++) {
		*sp++ = s;
		s += strlen((const char *)s) + 1;
	}
	*sp++ = 0;
	mm->arg_end = mm->env_start = s;
	for (i = 0; i < bprm->envc; i++) {
		*sp++ = s;
		s += strlen((const char *)s) + 1;
	}
	*sp++ = 0;
	mm->env_end = s;
	if (mm->arg_end != bprm->p + bprm->argv_len || s != bprm->exec)
		panic("create_elf_tables: strings moved (%#lx/%#lx, %#lx/%#lx)", mm->arg_end,
		      bprm->p + bprm->argv_len, s, bprm->exec);
	memcpy(sp, auxv, ei * sizeof(unsigned long));
	mm->start_stack = bprm->sp;
}

/* arch/x86/kernel/process_64.c's start_thread: a fresh register set. The
 * arch/ fields of the frame (cr2: the selector to return with; err,
 * oldmask, reserved1) are left as they are. */
static void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp)
{
	regs->r8 = regs->r9 = regs->r10 = regs->r11 = 0;
	regs->r12 = regs->r13 = regs->r14 = regs->r15 = 0;
	regs->di = regs->si = regs->bp = regs->bx = 0;
	regs->dx = regs->ax = regs->cx = 0;
	regs->ip = ip;
	regs->sp = sp;
	regs->flags = X86_EFLAGS_IF | 0x2;
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	regs->fs = regs->gs = 0;
	set_user_fs_base(regs, 0);
	regs->fpstate = NULL;	/* the host sigreturn gives a fresh FPU */
}

/* kbasename(), truncated to TASK_COMM_LEN - 1 like __set_task_comm. */
static void set_task_comm(struct task_struct *tsk, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strnlen(base, sizeof(tsk->comm) - 1);
	memcpy(tsk->comm, base, n);
	tsk->comm[n] = '\0';
}

/*
 * The point of no return (fs/exec.c's exec_mmap and begin_new_exec). The
 * caller (the lead's entry code) must, on a 0 return from sys_execve,
 * return to user mode through the replaced *regs; exec_mm_release has
 * already woken a vfork parent, and setup_new_exec has reset handlers and
 * closed close-on-exec fds.
 */
static void exec_mmap(struct linux_binprm *bprm, struct pt_regs *regs)
{
	struct task_struct *tsk = current;
	struct mm_struct *old_mm = tsk->mm;

	exec_mm_release(tsk, old_mm);
	tsk->mm = bprm->mm;
	bprm->mm = NULL;
	mmput(old_mm);
	snprintf(tsk->mm->exe, sizeof(tsk->mm->exe), "%s", bprm->filename);
	set_task_comm(tsk, bprm->filename);
	start_thread(regs, bprm->entry, bprm->sp);
	setup_new_exec();
}

int do_execve(const char *path, const char *const *argv, const char *const *envp,
	      bool from_user, struct pt_regs *regs, const char **why)
{
	struct linux_binprm bprm = {
		.filename = path, .fd = -1, .from_user = from_user,
		.argv = argv, .envp = envp,
	};
	unsigned long lo = 0, hi = 0;
	int err;

	if (!regs)
		panic("do_execve: no pt_regs to load %s into", path);
	exec_why[0] = '\0';
	err = open_exec(&bprm);
	if (err)
		goto out;
	bprm.mm = mm_alloc();
	err = setup_arg_pages(&bprm);
	if (err)
		goto out;
	err = check_elf_headers(&bprm, &lo, &hi);
	if (err)
		goto out;
	err = load_elf_binary(&bprm, lo, hi);
	if (err)
		goto out;
	create_elf_tables(&bprm);
	exec_mmap(&bprm, regs);
	trace(TR_TASK, "exec %s", path);
out:
	if (bprm.fd >= 0)
		os_close(bprm.fd);
	kfree(bprm.phdrs);
	mmput(bprm.mm);
	if (err) {
		trace(TR_TASK, "exec %s failed: %s: %s", path, err_name(err), exec_why);
		if (why)
			*why = exec_why;
	}
	return err;
}

long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp)
{
	char *path = kmalloc(PATH_MAX);
	long ret = strncpy_from_user(path, filename, PATH_MAX);

	if (ret >= 0)
		ret = do_execve(path, (const char *const *)argv, (const char *const *)envp, true,
				current->regs, NULL);
	kfree(path);
	return ret;
}
