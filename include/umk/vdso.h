/* The vDSO, kernel side (kernel/vdso.c; Linux's arch/x86/entry/vdso/vma.c
 * and kernel/time/vsyscall.c). The image and its data page are mapped once
 * by arch/vdso.c; the layout of the page is include/umk/uapi/vdso.h. */
#ifndef UMK_VDSO_H
#define UMK_VDSO_H

#include <umk/types.h>

/* At boot, after clock_virtual is set and before the first exec: map the
 * vDSO and fill its data page. */
void vdso_init(void);
/* The image's address for AT_SYSINFO_EHDR. */
unsigned long vdso_image_base(void);
/* Its size in bytes; the data page (vvar) is the page just below it. */
unsigned long vdso_image_size(void);
/* The virtual CLOCK_MONOTONIC moved to ns (kernel/time/time.c, every change). */
void update_vsyscall(u64 ns);

#endif
