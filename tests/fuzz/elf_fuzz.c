/*
 * tests/fuzz/elf_fuzz.c: kernel/binfmt_elf.c's header checks
 * (check_elf_headers) on arbitrary bytes, in a host program.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined it is a libFuzzer
 * target (make fuzz); built with -DELF_REPLAY by any compiler it is
 * elf_replay FILE..., which runs the same checks on each FILE and prints
 * "FILE: ok" or "FILE: <why exec fails>", one line each
 * (tests/elf_loader.bats). binfmt_elf.c is linked as it is: the program
 * file is the input buffer, which read_exact below reads as exec.c's reads
 * the host file, and the few other kernel functions it calls are stubs
 * that must not be reached by the checks.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umk/arch.h>
#include <umk/errno.h>
#include <umk/ptrace.h>
#include <umk/vdso.h>

#include "../../kernel/binfmts.h"

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

/* As exec.c's: exactly n bytes at off, -EIO past the end of the file. */
int read_exact(int fd, void *buf, size_t n, u64 off)
{
	if (off > input_size || n > input_size - off)
		return -EIO;
	memcpy(buf, input + off, n);
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

/* Only load_elf_binary and create_elf_tables call these. */
#define UNREACHED(decl) decl { abort(); }
UNREACHED(unsigned long mm_map(struct mm_struct *mm, unsigned long addr, size_t len, int prot,
			       bool fixed, enum vma_kind kind))
UNREACHED(int mm_unmap(struct mm_struct *mm, unsigned long addr, size_t len))
UNREACHED(int mm_protect(struct mm_struct *mm, unsigned long addr, size_t len, int prot))
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
 * One exec's checks, as do_execve makes them, on data[0..size). On success
 * the span [lo, hi) must be page-aligned, non-empty and within IMAGE_MAX.
 */
static int check(const uint8_t *data, size_t size)
{
	struct linux_binprm bprm = { .filename = "input", .fd = -1, .size = (s64)size };
	unsigned long lo = 0, hi = 0;
	int err;

	input = data;
	input_size = size;
	why[0] = '\0';
	err = check_elf_headers(&bprm, &lo, &hi);
	kfree(bprm.phdrs);
	if (!err && (lo >= hi || hi - lo > IMAGE_MAX || (lo | hi) & (PAGE_SIZE - 1)))
		abort();
	if (err && !why[0])
		abort();	/* every failure says why */
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
