/*
 * kernel/fs/binfmt_elf.c: the ELF half of execve (fs/binfmt_elf.c): check an
 * x86-64 program's headers, static or dynamic (its PT_INTERP names the
 * dynamic loader, checked and mapped the same way), map its PT_LOAD
 * segments (an ET_DYN program or loader anywhere, a fixed-address program
 * at its link address), reserve the brk area after the program, and lay
 * out the initial stack (argc, argv, envp, auxv) as
 * create_elf_tables does. Nothing here touches the caller's mm: exec.c
 * installs the result past the point of no return.
 */
#include <umk/elf.h>
#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/vdso.h>

#include "binfmts.h"

/* A PT_INTERP segment names the dynamic loader the program needs: a path
 * ending in its one NUL, as load_elf_binary reads it (ENOEXEC otherwise). */
static int read_interp(struct linux_binprm *bprm, const Elf64_Phdr *ph)
{
	char *path;
	int err;

	if (ph->p_filesz > PATH_MAX || ph->p_filesz < 2)
		return bad_elf("PT_INTERP of %lu bytes", (unsigned long)ph->p_filesz);
	if (ph->p_offset > (u64)bprm->size || ph->p_filesz > (u64)bprm->size - ph->p_offset)
		return bad_elf("PT_INTERP beyond the end of the file");
	path = kmalloc(ph->p_filesz);
	err = read_exact(bprm->file, path, ph->p_filesz, ph->p_offset);
	if (err) {
		kfree(path);
		return exec_fail(err, "read error (%s)", err_name(err));
	}
	if (path[ph->p_filesz - 1] != '\0' || strnlen(path, ph->p_filesz) != ph->p_filesz - 1) {
		kfree(path);
		return bad_elf("PT_INTERP is not one NUL-terminated path");
	}
	bprm->elf_interp = path;
	return 0;
}

/*
 * The checks of load_elf_binary and elf_read_phdrs, plus what umk's loader
 * relies on: PT_LOAD segments inside the file, in ascending order without
 * overlap, with p_vaddr and p_offset congruent modulo the page size, and
 * the entry point inside one of them.
 */
int check_elf_headers(struct linux_binprm *bprm, unsigned long *lo, unsigned long *hi)
{
	Elf64_Ehdr *eh = &bprm->ehdr;
	unsigned char head[sizeof(Elf64_Ehdr)] = { 0 };
	unsigned long phsize, prev_end = 0;
	bool entry_ok = false;
	int i, err, nload = 0, prev = -1;

	err = read_exact(bprm->file, head, min((u64)bprm->size, sizeof(head)), 0);
	if (err)
		return exec_fail(err, "read error (%s)", err_name(err));
	if (bprm->size < SELFMAG || memcmp(head, ELFMAG, SELFMAG))
		return exec_fail(-ENOEXEC, "not an ELF file");
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
	err = read_exact(bprm->file, bprm->phdrs, phsize, eh->e_phoff);
	if (err)
		return exec_fail(err, "read error (%s)", err_name(err));

	for (i = 0; i < eh->e_phnum; i++)
		if (bprm->phdrs[i].p_type == PT_INTERP && !bprm->elf_interp && !bprm->is_interp) {
			err = read_interp(bprm, &bprm->phdrs[i]);
			if (err)
				return err;
		}

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
 * The pages of segment i, [*fs, *fe), that can be the file's own pages
 * (seen privately, shared with every process running the file, as a
 * library mmapped read-only is: kernel/mm/mmap.c), rather than a copy: a
 * segment the program cannot write whose bytes are all in the file, but
 * for a page it shares with the segment before or after it, which gets
 * both segments' bytes and so stays a copy. As Linux maps it, the pages
 * show the file's bytes around the segment's too (the ELF header before
 * the first). Empty when none.
 */
static void file_pages(struct linux_binprm *bprm, int i, unsigned long prev_e,
		       unsigned long *fs, unsigned long *fe)
{
	const Elf64_Phdr *ph = &bprm->phdrs[i];
	unsigned long vaddr = bprm->load_bias + ph->p_vaddr;

	*fs = *fe = 0;
	if ((ph->p_flags & PF_W) || ph->p_filesz != ph->p_memsz)
		return;
	*fs = ALIGN_DOWN(vaddr, PAGE_SIZE);
	*fe = ALIGN(vaddr + ph->p_memsz, PAGE_SIZE);
	if (*fs < prev_e)
		*fs += PAGE_SIZE;
	for (i++; i < bprm->ehdr.e_phnum; i++) {
		const Elf64_Phdr *next = &bprm->phdrs[i];

		if (next->p_type != PT_LOAD || next->p_memsz == 0)
			continue;
		if (ALIGN_DOWN(bprm->load_bias + next->p_vaddr, PAGE_SIZE) < *fe)
			*fe -= PAGE_SIZE;
		break;
	}
	if (*fe <= *fs)
		*fs = *fe = 0;
}

/* Copy [from, to) of the segment at vaddr (its file bytes at off) into
 * the image, where it is not empty: 0 or -errno. */
static int copy_bytes(struct linux_binprm *bprm, unsigned long vaddr, u64 off,
		      unsigned long from, unsigned long to)
{
	if (to <= from)
		return 0;
	return read_exact(bprm->file, (void *)from, to - from, off + (from - vaddr));
}

/*
 * Map the span [lo, hi) of the PT_LOAD segments: ET_DYN anywhere, with the
 * brk area reserved in the same host mapping so that it follows the image;
 * ET_EXEC at its link address. Copy each segment's file bytes (the rest,
 * bss included, is fresh zeroed memory), then give each segment its
 * p_flags protection; a page two segments share gets both, and pages
 * between segments none. Writable segments stay writable: a static-pie
 * relocates its GNU_RELRO part itself after it starts. The pages of a
 * segment the program cannot write are the file's own where the file can
 * be mapped (file_pages): no copy at exec or fork, and a switch between
 * two processes running the file keeps them (kernel/mm/window.c).
 */
int load_elf_binary(struct linux_binprm *bprm, unsigned long lo, unsigned long hi)
{
	struct mm_struct *mm = bprm->mm;
	Elf64_Ehdr *eh = &bprm->ehdr;
	unsigned long span = hi - lo, base, prev_e = 0, brk_end = 0;
	unsigned long start_code = ~0UL, end_code = 0, start_data = 0, end_data = 0;
	struct hostmem *obj;
	int i, err, prev_prot = PROT_NONE;
	bool first = true;

	if (eh->e_type == ET_DYN) {
		/* Where Linux puts it: a program with an interpreter at
		 * ELF_ET_DYN_BASE, the interpreter and a static-pie where mmap
		 * would (top down). Only a program gets a brk area after it. */
		unsigned long hint = bprm->elf_interp ? ELF_ET_DYN_BASE : 0;
		unsigned long room = bprm->is_interp ? 0 : BRK_RESERVE;

		base = mm_map(mm, hint, span + room, PROT_READ | PROT_WRITE, false, VMA_IMAGE);
		if (!IS_ERR_VALUE(base)) {
			/* Give the tail back and take it again as the brk
			 * area: nothing maps in between (one CPU). */
			if (room)
				mm_unmap(mm, base + span, room);
		} else {
			base = mm_map(mm, hint, span, PROT_READ | PROT_WRITE, false, VMA_IMAGE);
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

	obj = exec_file_pages(bprm->file);
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = &bprm->phdrs[i];
		unsigned long vaddr = bprm->load_bias + ph->p_vaddr, s, e, fs = 0, fe = 0;
		int prot = elf_prot(ph->p_flags);

		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if (ph->p_offset <= eh->e_phoff && eh->e_phoff < ph->p_offset + ph->p_filesz)
			bprm->phdr_addr = vaddr + (eh->e_phoff - ph->p_offset);
		if (obj)
			file_pages(bprm, i, first ? 0 : prev_e, &fs, &fe);
		if (fs < fe)	/* the bytes of the pages around the file's */
			err = copy_bytes(bprm, vaddr, ph->p_offset, vaddr, fs) ?:
			      copy_bytes(bprm, vaddr, ph->p_offset, fe, vaddr + ph->p_filesz);
		else
			err = copy_bytes(bprm, vaddr, ph->p_offset, vaddr, vaddr + ph->p_filesz);
		if (err) {
			hostmem_put(obj);
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
		if (fs < fe) {
			err = add_file_region(mm, fs, fe, prot, hostmem_get(obj),
					      ALIGN_DOWN(ph->p_offset, PAGE_SIZE) + (fs - s));
			if (err) {
				hostmem_put(obj);
				return exec_fail(err, "cannot map the program's pages (%s)",
						 err_name(err));
			}
		}
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
	hostmem_put(obj);
	bprm->entry = bprm->load_bias + eh->e_entry;
	if (bprm->is_interp)
		return 0;
	mm->start_code = start_code == ~0UL ? 0 : start_code;
	mm->end_code = end_code;
	mm->start_data = start_data;
	mm->end_data = end_data;
	mm->load_base = bprm->load_bias + lo;
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
 * with rsp pointing at argc and 16-byte aligned. AT_SYSINFO_EHDR is the
 * one vDSO image every process shares (kernel/vdso.c).
 */
void create_elf_tables(struct linux_binprm *bprm)
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

	NEW_AUX_ENT(AT_SYSINFO_EHDR, vdso_image_base());
	NEW_AUX_ENT(AT_MINSIGSTKSZ, UMK_MINSIGSTKSZ);
	NEW_AUX_ENT(AT_HWCAP, elf_hwcap());
	NEW_AUX_ENT(AT_PAGESZ, ELF_EXEC_PAGESIZE);
	NEW_AUX_ENT(AT_CLKTCK, CLOCKS_PER_SEC);
	NEW_AUX_ENT(AT_PHDR, bprm->phdr_addr);
	NEW_AUX_ENT(AT_PHENT, sizeof(Elf64_Phdr));
	NEW_AUX_ENT(AT_PHNUM, bprm->ehdr.e_phnum);
	NEW_AUX_ENT(AT_BASE, bprm->interp_base);
	NEW_AUX_ENT(AT_FLAGS, 0);
	NEW_AUX_ENT(AT_ENTRY, bprm->entry);
	NEW_AUX_ENT(AT_UID, (unsigned long)sys_getuid());
	NEW_AUX_ENT(AT_EUID, (unsigned long)sys_geteuid());
	NEW_AUX_ENT(AT_GID, (unsigned long)sys_getgid());
	NEW_AUX_ENT(AT_EGID, (unsigned long)sys_getegid());
	NEW_AUX_ENT(AT_SECURE, 0);
	NEW_AUX_ENT(AT_RANDOM, u_rand_bytes);
	NEW_AUX_ENT(AT_HWCAP2, arch_user_hwcap2());
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
	memcpy(mm->saved_auxv, auxv, ei * sizeof(unsigned long));
	mm->start_stack = bprm->sp;
}

/* arch/x86/kernel/process_64.c's start_thread: a fresh register set. The
 * arch/ fields of the frame (cr2: the selector to return with; err,
 * oldmask, reserved1) are left as they are. */
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp)
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
