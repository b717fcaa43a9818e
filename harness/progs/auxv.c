/* auxv: the initial stack as the loader built it, printed as relations
 * that hold on Linux for any load address: argv/envp/auxv contiguity, the
 * auxiliary vector entries checked against the program's own ELF header,
 * and the stack alignment at entry to main. */
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern char **environ;
extern const ElfW(Ehdr) __ehdr_start;	/* the linker's name for our own ELF header */
extern void _start(void);

static const char *yes(int c) { return c ? "yes" : "no"; }

int main(int argc, char **argv)
{
	const ElfW(Ehdr) *eh = &__ehdr_start;
	char **e = environ;
	const unsigned char *rnd = (const void *)getauxval(AT_RANDOM);
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	int zero = 1;

	while (*e)
		e++;
	printf("argc matches argv: %s\n", yes(argv[argc] == NULL));
	printf("envp follows argv: %s\n", yes(environ == argv + argc + 1));
	printf("auxv follows envp: %s\n", yes(((ElfW(auxv_t) *)(e + 1))->a_type != AT_NULL));
	printf("AT_PAGESZ: %lu\n", getauxval(AT_PAGESZ));
	printf("AT_PHDR is our program headers: %s\n",
	       yes(getauxval(AT_PHDR) == (uintptr_t)eh + eh->e_phoff));
	printf("AT_PHNUM is e_phnum: %s\n", yes(getauxval(AT_PHNUM) == eh->e_phnum));
	printf("AT_PHENT is sizeof(Elf64_Phdr): %s\n", yes(getauxval(AT_PHENT) == sizeof(ElfW(Phdr))));
	printf("AT_ENTRY is _start: %s\n", yes(getauxval(AT_ENTRY) == (uintptr_t)_start));
	for (int i = 0; rnd && i < 16; i++)
		zero &= rnd[i] == 0;
	printf("AT_RANDOM points at 16 bytes, not all zero: %s\n", yes(rnd && !zero));
	printf("AT_UID/EUID/GID/EGID match the id calls: %s\n",
	       yes(getauxval(AT_UID) == getuid() && getauxval(AT_EUID) == geteuid() &&
		   getauxval(AT_GID) == getgid() && getauxval(AT_EGID) == getegid()));
	printf("AT_SECURE: %lu\n", getauxval(AT_SECURE));
	printf("AT_EXECFN is the path we were run as: %s\n", yes(execfn && !strcmp(execfn, argv[0])));
	printf("the stack is 16-byte aligned in main: %s\n",
	       yes((uintptr_t)__builtin_frame_address(0) % 16 == 0));
	return 0;
}
