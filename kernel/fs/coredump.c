/*
 * kernel/fs/coredump.c: core dumps (Linux's fs/coredump.c, and
 * elf_core_dump of fs/binfmt_elf.c).
 *
 * A signal whose default action dumps core (SIGQUIT, SIGABRT, SIGSEGV...;
 * kernel/signal/signal.c's get_signal) calls do_coredump before the
 * process exits. With RLIMIT_CORE of at least a page and a dumpable mm,
 * it writes an ELF core file named by core_pattern ("core" by default, in
 * the process's working directory, as Linux's default) that the host's
 * gdb opens with the program: one PT_NOTE segment, then a PT_LOAD per
 * region. The notes are Linux's: for every thread (the dumping one first)
 * NT_PRSTATUS (its registers, signal and ids) and NT_FPREGSET (its FXSAVE
 * area); for the process NT_PRPSINFO, NT_SIGINFO (the fatal signal) and
 * NT_AUXV. On success the exit status gets the core bit (0x80), which
 * wait reports as WCOREDUMP and CLD_DUMPED.
 *
 * The dump is a snapshot: on umk's one CPU no other thread runs while the
 * dumping one writes (writes to tmpfs and to the host never sleep), and
 * every other thread's user registers are on its kernel stack, where its
 * last entry left them (pt_regs: docs/design.md "pt_regs is the host's
 * frame"). Memory is read from the regions' host files, not through the
 * window, so that a PROT_NONE region costs no fault; only their extents
 * of data are written, and the holes are holes in the core file (Linux
 * skips pages never touched the same way).
 *
 * Which regions are dumped follows Linux's default coredump_filter (0x33):
 * the process's own memory and shared memory in full, a read-only private
 * file mapping (a library's code) only if it starts with an ELF header,
 * and then only its first page, so that gdb can find the build-id;
 * MADV_DONTDUMP regions not at all.
 */
#include <umk/cred.h>
#include <umk/elf.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/ptrace.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/sched/signal.h>
#include <umk/signal.h>
#include <umk/timer.h>
#include <umk/uapi/fcntl.h>
#include <umk/uapi/stat.h>

#define NT_PRSTATUS	1
#define NT_FPREGSET	2
#define NT_PRPSINFO	3
#define NT_AUXV		6
#define NT_SIGINFO	0x53494749	/* "SIGI" */

/* What the core is named after: Linux's kernel.core_pattern, whose %
 * specifiers format_corename expands. */
char core_pattern[128] = "core";

/* x86-64's struct user_regs_struct, the order of elf_gregset_t. */
struct user_regs_struct {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax,
		ip, cs, flags, sp, ss, fs_base, gs_base, ds, es, fs, gs;
};

struct elf_siginfo {
	int si_signo, si_code, si_errno;
};

struct compat_timeval {
	long tv_sec, tv_usec;
};

/* include/uapi/linux/elfcore.h */
struct elf_prstatus {
	struct elf_siginfo pr_info;
	short pr_cursig;
	unsigned long pr_sigpend;
	unsigned long pr_sighold;
	pid_t pr_pid, pr_ppid, pr_pgrp, pr_sid;
	struct compat_timeval pr_utime, pr_stime, pr_cutime, pr_cstime;
	struct user_regs_struct pr_reg;
	int pr_fpvalid;
};

struct elf_prpsinfo {
	char pr_state, pr_sname, pr_zomb, pr_nice;
	unsigned long pr_flag;
	unsigned int pr_uid, pr_gid;
	pid_t pr_pid, pr_ppid, pr_pgrp, pr_sid;
	char pr_fname[16];
	char pr_psargs[80];
};

_Static_assert(sizeof(struct elf_prstatus) == 336, "Linux's x86-64 elf_prstatus");
_Static_assert(sizeof(struct elf_prpsinfo) == 136, "Linux's x86-64 elf_prpsinfo");

#define FXSAVE_SIZE 512

struct elf_note_hdr {
	Elf64_Word n_namesz, n_descsz, n_type;
};

/* The dump in progress (Linux's coredump_params): the file, where the
 * next byte goes, and how much RLIMIT_CORE still allows. */
struct coredump_params {
	struct file *file;
	u64 pos;
	u64 limit;
	int err;
};

/* Write n bytes at the current position: false once anything failed or
 * the limit is reached (the rest of the dump is dropped, as Linux's
 * dump_emit stops). */
static bool dump_emit(struct coredump_params *cprm, const void *buf, size_t n)
{
	struct kvec kv = { .iov_base = (void *)buf, .iov_len = n };
	struct kiocb kiocb = { .ki_filp = cprm->file, .ki_pos = (s64)cprm->pos };
	struct iov_iter iter;
	ssize_t r;

	if (cprm->err)
		return false;
	if (cprm->pos + n > cprm->limit) {
		cprm->err = -EFBIG;
		return false;
	}
	iov_iter_kvec(&iter, &kv, 1, n);
	r = cprm->file->f_op->write_iter(&kiocb, &iter);
	if (r != (ssize_t)n) {
		cprm->err = r < 0 ? (int)r : -EIO;
		return false;
	}
	cprm->pos += n;
	return true;
}

/* Leave a hole of n bytes (Linux's dump_skip). */
static void dump_skip(struct coredump_params *cprm, u64 n)
{
	cprm->pos += n;
}

static void dump_align(struct coredump_params *cprm, u64 align)
{
	static const char zeros[8];
	u64 pad = ALIGN(cprm->pos, align) - cprm->pos;

	dump_emit(cprm, zeros, pad);
}

/* One note: header, name padded to 4, descriptor padded to 4. */
static void write_note(struct coredump_params *cprm, const char *name, Elf64_Word type,
		       const void *desc, size_t descsz)
{
	struct elf_note_hdr h = { (Elf64_Word)strlen(name) + 1, (Elf64_Word)descsz, type };

	dump_emit(cprm, &h, sizeof(h));
	dump_emit(cprm, name, h.n_namesz);
	dump_align(cprm, 4);
	dump_emit(cprm, desc, descsz);
	dump_align(cprm, 4);
}

static size_t note_size(const char *name, size_t descsz)
{
	return sizeof(struct elf_note_hdr) + ALIGN(strlen(name) + 1, 4) + ALIGN(descsz, 4);
}

/* How many bytes of vma the dump holds (Linux's vma_dump_size under the
 * default filter). */
static unsigned long vma_dump_size(struct mm_struct *mm, struct vm_area_struct *vma)
{
	char magic[SELFMAG];

	if (vma->vm_flags & VM_DONTDUMP)
		return 0;
	if (!vma->private_file)
		return vma->vm_end - vma->vm_start;
	if (os_pread(vma_fd(mm, vma), magic, SELFMAG, vma_offset(vma, vma->vm_start)) == SELFMAG &&
	    !memcmp(magic, ELFMAG, SELFMAG))
		return PAGE_SIZE;
	return 0;
}

static void fill_regs(struct user_regs_struct *u, struct task_struct *t)
{
	const struct pt_regs *r = t->regs;

	memset(u, 0, sizeof(*u));
	if (!r)
		return;
	*u = (struct user_regs_struct){
		.r15 = r->r15, .r14 = r->r14, .r13 = r->r13, .r12 = r->r12, .bp = r->bp,
		.bx = r->bx, .r11 = r->r11, .r10 = r->r10, .r9 = r->r9, .r8 = r->r8,
		.ax = r->ax, .cx = r->cx, .dx = r->dx, .si = r->si, .di = r->di,
		.orig_ax = (unsigned long)t->orig_ax, .ip = r->ip, .cs = 0x33,
		.flags = r->flags, .sp = r->sp, .ss = 0x2b, .fs_base = user_fs_base(r),
	};
}

static struct compat_timeval ns_to_timeval(u64 ns)
{
	return (struct compat_timeval){ (long)(ns / 1000000000), (long)(ns % 1000000000 / 1000) };
}

static void fill_prstatus(struct elf_prstatus *p, struct task_struct *t, int signr)
{
	struct task_struct *parent = t->real_parent;
	u64 utime, stime;

	memset(p, 0, sizeof(*p));
	p->pr_info.si_signo = p->pr_cursig = (short)signr;
	p->pr_sigpend = t->pending.signal.sig;
	p->pr_sighold = t->blocked.sig;
	p->pr_pid = t->pid;
	p->pr_ppid = parent ? parent->tgid : 0;
	p->pr_pgrp = t->signal->pgrp;
	p->pr_sid = t->signal->session;
	task_cputime(t, &utime, &stime);
	p->pr_utime = ns_to_timeval(utime);
	p->pr_stime = ns_to_timeval(stime);
	fill_regs(&p->pr_reg, t);
	p->pr_fpvalid = t->regs && t->regs->fpstate;
}

static void fill_psinfo(struct elf_prpsinfo *p, struct task_struct *t)
{
	struct mm_struct *mm = t->mm;
	unsigned long len = mm->arg_end - mm->arg_start;

	memset(p, 0, sizeof(*p));
	p->pr_state = 0;
	p->pr_sname = 'R';
	p->pr_nice = (char)t->nice;
	p->pr_uid = t->cred.uid;
	p->pr_gid = t->cred.gid;
	p->pr_pid = t->tgid;
	p->pr_ppid = t->real_parent ? t->real_parent->tgid : 0;
	p->pr_pgrp = t->signal->pgrp;
	p->pr_sid = t->signal->session;
	memcpy(p->pr_fname, t->comm, sizeof(p->pr_fname));
	/* the arguments, NULs as spaces (fill_psinfo) */
	if (len >= sizeof(p->pr_psargs))
		len = sizeof(p->pr_psargs) - 1;
	if (access_process_vm(t, mm->arg_start, p->pr_psargs, len) == len)
		for (unsigned long i = 0; i < len; i++)
			if (!p->pr_psargs[i])
				p->pr_psargs[i] = ' ';
}

static size_t auxv_size(struct mm_struct *mm)
{
	size_t i = 0;

	while (i + 2 <= ARRAY_SIZE(mm->saved_auxv) && mm->saved_auxv[i])
		i += 2;
	return (i + 2) * sizeof(unsigned long);	/* with AT_NULL */
}

/* One thread's notes: NT_PRSTATUS, and NT_FPREGSET when its FPU state is
 * in its frame. With process, the process's notes after its NT_PRSTATUS,
 * as Linux orders them for the dumping thread. */
static size_t thread_notes(struct coredump_params *cprm, struct task_struct *t, int signr,
			   const kernel_siginfo_t *info, bool process)
{
	struct elf_prstatus *prstatus = kmalloc(sizeof(*prstatus));
	bool fp = t->regs && t->regs->fpstate;
	size_t size = note_size("CORE", sizeof(*prstatus));

	fill_prstatus(prstatus, t, signr);
	if (cprm)
		write_note(cprm, "CORE", NT_PRSTATUS, prstatus, sizeof(*prstatus));
	kfree(prstatus);
	if (process) {
		struct elf_prpsinfo psinfo;

		fill_psinfo(&psinfo, t);
		size += note_size("CORE", sizeof(psinfo)) + note_size("CORE", sizeof(*info)) +
			note_size("CORE", auxv_size(t->mm));
		if (cprm) {
			write_note(cprm, "CORE", NT_PRPSINFO, &psinfo, sizeof(psinfo));
			write_note(cprm, "CORE", NT_SIGINFO, info, sizeof(*info));
			write_note(cprm, "CORE", NT_AUXV, t->mm->saved_auxv, auxv_size(t->mm));
		}
	}
	if (fp) {
		size += note_size("CORE", FXSAVE_SIZE);
		if (cprm)
			write_note(cprm, "CORE", NT_FPREGSET, t->regs->fpstate, FXSAVE_SIZE);
	}
	return size;
}

/* Every thread's notes, the dumping one first: their size without cprm. */
static size_t all_notes(struct coredump_params *cprm, int signr, const kernel_siginfo_t *info)
{
	struct task_struct *t;
	size_t size = thread_notes(cprm, current, signr, info, true);

	for_each_thread(current->signal, t)
		if (t != current && !t->exit_state && t->state != TASK_DEAD)
			size += thread_notes(cprm, t, signr, info, false);
	return size;
}

/* The data of [vma->vm_start, vma->vm_start + size): extent by extent of
 * its host file, holes left as holes. */
static void dump_vma(struct coredump_params *cprm, struct mm_struct *mm,
		     struct vm_area_struct *vma, unsigned long size)
{
	int fd = vma_fd(mm, vma);
	u64 base = vma_offset(vma, vma->vm_start), off = base, end = base + size;
	u64 start = cprm->pos, data, hole;
	char *buf = kmalloc(PAGE_SIZE * 16);

	while (!cprm->err && off < end) {
		int r = os_next_data(fd, off, end, &data, &hole);

		if (r <= 0)
			break;
		cprm->pos = start + (data - base);
		for (off = data; off < hole && !cprm->err;) {
			size_t n = min(hole - off, (u64)PAGE_SIZE * 16);
			ssize_t got = os_pread(fd, buf, n, off);

			if (got <= 0) {
				cprm->err = got < 0 ? (int)got : -EIO;
				break;
			}
			dump_emit(cprm, buf, (size_t)got);
			off += (u64)got;
		}
	}
	kfree(buf);
	cprm->pos = start;
	dump_skip(cprm, size);
}

/* Linux's elf_core_dump: the header, the program headers, the notes,
 * then each region's pages at a page-aligned offset. */
static void elf_core_dump(struct coredump_params *cprm, int signr, const kernel_siginfo_t *info)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	Elf64_Ehdr ehdr;
	Elf64_Phdr phdr;
	size_t notes = all_notes(NULL, signr, info);
	int segs = 1;
	u64 offset;

	list_for_each_entry(vma, &mm->mmap, list)
		segs++;
	memset(&ehdr, 0, sizeof(ehdr));
	memcpy(ehdr.e_ident, ELFMAG, SELFMAG);
	ehdr.e_ident[4] = ELFCLASS64;
	ehdr.e_ident[5] = ELFDATA2LSB;
	ehdr.e_ident[6] = EV_CURRENT;
	ehdr.e_type = ET_CORE;
	ehdr.e_machine = EM_X86_64;
	ehdr.e_version = EV_CURRENT;
	ehdr.e_phoff = sizeof(ehdr);
	ehdr.e_ehsize = sizeof(ehdr);
	ehdr.e_phentsize = sizeof(phdr);
	ehdr.e_phnum = (Elf64_Half)segs;
	dump_emit(cprm, &ehdr, sizeof(ehdr));

	offset = sizeof(ehdr) + (u64)segs * sizeof(phdr);
	phdr = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = offset, .p_filesz = notes,
			     .p_align = 4 };
	dump_emit(cprm, &phdr, sizeof(phdr));
	offset = ALIGN(offset + notes, PAGE_SIZE);
	list_for_each_entry(vma, &mm->mmap, list) {
		unsigned long size = vma_dump_size(mm, vma);

		phdr = (Elf64_Phdr){
			.p_type = PT_LOAD, .p_offset = offset, .p_vaddr = vma->vm_start,
			.p_filesz = size, .p_memsz = vma->vm_end - vma->vm_start,
			.p_flags = (vma->prot & PROT_READ ? PF_R : 0) |
				   (vma->prot & PROT_WRITE ? PF_W : 0) |
				   (vma->prot & PROT_EXEC ? PF_X : 0),
			.p_align = PAGE_SIZE,
		};
		dump_emit(cprm, &phdr, sizeof(phdr));
		offset += size;
	}
	all_notes(cprm, signr, info);
	dump_skip(cprm, ALIGN(cprm->pos, PAGE_SIZE) - cprm->pos);
	list_for_each_entry(vma, &mm->mmap, list)
		dump_vma(cprm, mm, vma, vma_dump_size(mm, vma));
	/* A file ending in a hole still has its full size (Linux's
	 * dump_user_range writes the last byte). */
	if (!cprm->err && cprm->pos > 0) {
		cprm->pos--;
		dump_emit(cprm, "", 1);
	}
}

/* core_pattern with its specifiers expanded (format_corename): %p pid,
 * %P the same, %i tid, %u uid, %g gid, %s signal, %t seconds since the
 * epoch, %h the host name, %e the command name, %% a %. */
static void format_corename(char *buf, size_t size, int signr)
{
	size_t n = 0;

	for (const char *p = core_pattern; *p && n + 1 < size; p++) {
		if (*p != '%' || !p[1]) {
			buf[n++] = *p;
			continue;
		}
		switch (*++p) {
		case 'p':
		case 'P':
			n += ksnprintf(buf + n, size - n, "%d", current->tgid);
			break;
		case 'i':
			n += ksnprintf(buf + n, size - n, "%d", current->pid);
			break;
		case 'u':
			n += ksnprintf(buf + n, size - n, "%u", current->cred.uid);
			break;
		case 'g':
			n += ksnprintf(buf + n, size - n, "%u", current->cred.gid);
			break;
		case 's':
			n += ksnprintf(buf + n, size - n, "%d", signr);
			break;
		case 't':
			n += ksnprintf(buf + n, size - n, "%lld",
				       (long long)(clock_get_ns(CLOCK_REALTIME) / NSEC_PER_SEC));
			break;
		case 'h':
			n += ksnprintf(buf + n, size - n, "%s", UTS_NODENAME);
			break;
		case 'e':
			n += ksnprintf(buf + n, size - n, "%s", current->comm);
			break;
		case '%':
			buf[n++] = '%';
			break;
		default:	/* an unknown specifier is dropped, as Linux's */
			break;
		}
		if (n >= size)
			n = size - 1;
	}
	buf[n] = 0;
}

static bool pattern_has_pid(void)
{
	for (const char *p = core_pattern; *p; p++)
		if (p[0] == '%' && p[1] && *++p == 'p')
			return true;
	return false;
}

/*
 * Dump core for the fatal signal info->si_signo if the process may
 * (RLIMIT_CORE of a page or more, a dumpable mm, a pattern that is not a
 * pipe): true when the core file was written, for the exit status's core
 * bit. A file that exists is replaced only if it is a regular file of the
 * caller's with one link, as Linux checks.
 */
bool do_coredump(const kernel_siginfo_t *info)
{
	struct coredump_params cprm = { .limit = rlimit(RLIMIT_CORE) };
	struct mm_struct *mm = current->mm;
	char name[256];
	struct stat st;
	int err;

	if (!mm || cprm.limit < PAGE_SIZE || mm->dumpable == SUID_DUMP_DISABLE ||
	    core_pattern[0] == '|' || !core_pattern[0])
		return false;
	format_corename(name, sizeof(name), info->si_signo);
	/* kernel.core_uses_pid: ".PID" after a pattern without %p */
	if (core_uses_pid() && !pattern_has_pid())
		ksnprintf(name + strlen(name), sizeof(name) - strlen(name), ".%d", current->tgid);
	cprm.file = filp_open(name, O_CREAT | O_WRONLY | O_TRUNC | O_NOFOLLOW | O_LARGEFILE,
			      0600, &err);
	if (!cprm.file)
		return false;
	if (vfs_fstat(cprm.file, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != current->cred.fsuid || !cprm.file->f_op->write_iter) {
		fput(cprm.file);
		return false;
	}
	elf_core_dump(&cprm, info->si_signo, info);
	fput(cprm.file);
	return !cprm.err;
}
