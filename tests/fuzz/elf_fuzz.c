/*
 * tests/fuzz/elf_fuzz.c: kernel/fs/binfmt_elf.c's header checks
 * (check_elf_headers) and loading (load_elf_binary, into a fake address
 * space) on arbitrary bytes, in a host program.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined it is a libFuzzer
 * target (make fuzz); built with -DELF_REPLAY by any compiler it is
 * elf_replay FILE..., which runs the same checks on each FILE and prints
 * "FILE: ok" or "FILE: <why exec fails>", one line each
 * (tests/elf_loader.bats). binfmt_elf.c is linked as it is: the program
 * file is the input buffer, which read_exact below reads as exec.c's reads
 * the host file; mm_map, mm_unmap and mm_protect keep a list of fake
 * regions, add_file_region checks that a segment's file pages are inside
 * them and the file, and the other kernel functions it calls are stubs
 * that must not be reached.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/ptrace.h>
#include <umk/vdso.h>

#include "../../kernel/fs/binfmts.h"

static const uint8_t *input;	/* the "file" being checked */
static size_t input_size;
static char why[256];		/* the last exec_fail message */

int exec_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return err;
}

const char *err_name(int err)
{
	return err == -EIO ? "EIO" : "error";
}

/*
 * The new program's memory, as load_elf_binary sees it: regions of a fake
 * address space, never touched. mm_map, mm_unmap and mm_protect keep the
 * list; reading the file into memory outside it, or protecting memory
 * outside it, is a loader bug (umk's mm_protect would fail there and
 * load_elf_binary panic), and aborts.
 */
#define NREGIONS 8
static struct region {
	unsigned long start, end;
} regions[NREGIONS];
static int nregions;
static bool loading;		/* read_exact's buf is a fake user address */

static bool covered(unsigned long start, unsigned long end)
{
	int i;

	for (i = 0; i < nregions; i++)
		if (start >= regions[i].start && end <= regions[i].end)
			return true;
	return false;
}

static bool overlaps(unsigned long start, unsigned long end)
{
	int i;

	for (i = 0; i < nregions; i++)
		if (start < regions[i].end && end > regions[i].start)
			return true;
	return false;
}

/* As exec.c's: exactly n bytes at off, -EIO past the end of the file. */
int read_exact(struct file *f, void *buf, size_t n, u64 off)
{
	if (off > input_size || n > input_size - off)
		return -EIO;
	if (loading) {
		if ((unsigned long)buf + n < (unsigned long)buf ||
		    !covered((unsigned long)buf, (unsigned long)buf + n))
			abort();
		return 0;
	}
	memcpy(buf, input + off, n);
	return 0;
}

/*
 * The program file as a file whose pages can be mapped (hostfs's): one
 * object, whose references are counted, and add_file_region checks that
 * the pages it is asked to map are whole pages of the file inside the
 * image's regions. A reference left at the end of a check is a leak.
 */
static struct hostmem file_obj;

struct hostmem *exec_file_pages(struct file *f)
{
	return hostmem_get(&file_obj);
}

void hostmem_put(struct hostmem *h)
{
	if (h && (h != &file_obj || h->count <= 0))
		abort();
	if (h)
		h->count--;
}

int add_file_region(struct mm_struct *mm, unsigned long start, unsigned long end, int prot,
		    struct hostmem *obj, u64 off)
{
	if (obj != &file_obj || ((start | end | off) & (PAGE_SIZE - 1)) || start >= end ||
	    !covered(start, end) || off >= input_size || end - start > ALIGN(input_size, PAGE_SIZE) - off)
		abort();
	hostmem_put(obj);
	return 0;
}

/* kernel/mm/mm.c's: the user window's end, as umk has it on most hosts. */
unsigned long task_size = USER_WINDOW_MAX;

unsigned long mm_map(struct mm_struct *mm, unsigned long addr, size_t len, int prot,
		     bool fixed, enum vma_kind kind)
{
	const unsigned long top = TASK_SIZE / 2;
	unsigned long start = fixed ? addr : top - ALIGN(len, PAGE_SIZE);

	if (!len || len > (1UL << 40) || nregions == NREGIONS)
		return (unsigned long)-ENOMEM;
	if (start & (PAGE_SIZE - 1) || start + len > TASK_SIZE)
		return (unsigned long)-EINVAL;
	if (!fixed)
		while (overlaps(start, start + len))
			start -= 1UL << 32;
	else if (overlaps(start, start + len))
		return (unsigned long)-EEXIST;
	regions[nregions].start = start;
	regions[nregions++].end = start + ALIGN(len, PAGE_SIZE);
	return start;
}

/* Only the tail of a region is given back (load_elf_binary's brk room). */
int mm_unmap(struct mm_struct *mm, unsigned long addr, size_t len)
{
	int i;

	for (i = 0; i < nregions; i++)
		if (addr > regions[i].start && addr + len == regions[i].end) {
			regions[i].end = addr;
			return 0;
		}
	abort();
}

int mm_protect(struct mm_struct *mm, unsigned long addr, size_t len, int prot)
{
	if (addr & (PAGE_SIZE - 1) || !covered(addr, addr + len))
		abort();
	return 0;
}

void *kmalloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		abort();
	return p;
}

void kfree(const void *p)
{
	free((void *)p);
}

/* include/umk/syscalls.h's, whose signal types clash with the host's */
long sys_getuid(void);
long sys_geteuid(void);
long sys_getgid(void);
long sys_getegid(void);

/* Only create_elf_tables calls these. */
#define UNREACHED(decl) decl { abort(); }
UNREACHED(void os_random(void *buf, size_t n))
UNREACHED(unsigned long vdso_image_base(void))
UNREACHED(unsigned long arch_user_hwcap2(void))
UNREACHED(long sys_getuid(void))
UNREACHED(long sys_geteuid(void))
UNREACHED(long sys_getgid(void))
UNREACHED(long sys_getegid(void))

void panic(const char *fmt, ...)
{
	abort();
}

/*
 * One exec's checks and loading, as do_execve makes them, on
 * data[0..size). On success the span [lo, hi) must be page-aligned,
 * non-empty and within IMAGE_MAX, and the entry point mapped.
 */
static int check(const uint8_t *data, size_t size)
{
	struct linux_binprm bprm = { .filename = "input", .size = (s64)size };
	static struct mm_struct mm;
	unsigned long lo = 0, hi = 0;
	int err;

	input = data;
	input_size = size;
	why[0] = '\0';
	nregions = 0;
	memset(&mm, 0, sizeof(mm));
	bprm.mm = &mm;
	err = check_elf_headers(&bprm, &lo, &hi);
	if (!err && (lo >= hi || hi - lo > IMAGE_MAX || (lo | hi) & (PAGE_SIZE - 1)))
		abort();
	if (!err) {
		loading = true;
		err = load_elf_binary(&bprm, lo, hi);
		loading = false;
		if (!err && !covered(bprm.entry, bprm.entry + 1))
			abort();
	}
	kfree(bprm.phdrs);
	kfree(bprm.elf_interp);
	if (err && !why[0])
		abort();	/* every failure says why */
	if (file_obj.count)
		abort();	/* a reference to the file's pages leaked */
	return err;
}

#ifdef ELF_REPLAY
int main(int argc, char **argv)
{
	int i, status = 0;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static uint8_t buf[1 << 24];
		size_t n;

		if (!f) {
			perror(argv[i]);
			status = 2;
			continue;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		printf("%s: %s\n", argv[i], check(buf, n) ? why : "ok");
	}
	return status;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size);
	return 0;
}
#endif
