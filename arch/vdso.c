/*
 * arch/vdso.c: the vDSO's one mapping (Linux's arch/x86/entry/vdso/vma.c).
 *
 * It lies above the user window, where no address space maps anything, so
 * one copy of the image serves every process (docs/design.md, "The vDSO").
 * At boot it is copied from umk's own data
 * (arch/vdso_image.S) into a fresh mapping, behind its data page: the page
 * stays writable (the kernel keeps it current), the image becomes
 * read-only and executable.
 */
#include "host.h"

#include <string.h>
#include <sys/mman.h>

#include <umk/kernel.h>
#include <umk/os.h>

extern const char vdso_image_start[], vdso_image_end[];

static void *vdso_data_page;
static unsigned long vdso_image;

unsigned long arch_vdso_map(void **data, unsigned long *size)
{
	size_t len = (size_t)(vdso_image_end - vdso_image_start);
	size_t span = (len + 4095) & ~4095UL;
	char *p;

	if (!vdso_image) {
		p = mmap(NULL, 4096 + span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p == MAP_FAILED)
			panic("arch_vdso_map: no memory for the vDSO");
		memcpy(p + 4096, vdso_image_start, len);
		if (mprotect(p + 4096, span, PROT_READ | PROT_EXEC))
			panic("arch_vdso_map: mprotect failed");
		vdso_data_page = p;
		vdso_image = (unsigned long)(p + 4096);
	}
	*data = vdso_data_page;
	*size = span;
	return vdso_image;
}
