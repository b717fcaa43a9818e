/* include/umk/kernel.h: the kernel stack's size, and the kernel's own
 * memory allocator and panic, for every kernel file (Linux's include/linux/slab.h and panic.h). They are
 * implemented in arch/ (arch/mem.c, arch/boot.c) but are no host service:
 * including this header does not make a file one that touches the host
 * (that is include/umk/os.h). */
#ifndef UMK_KERNEL_H
#define UMK_KERNEL_H

#include <umk/types.h>

/* The kernel stack: THREAD_SIZE-aligned, thread_info at its base. */
#define THREAD_SIZE (64 * 1024UL)
#define STACK_END_MAGIC 0x57AC6E9DUL

void *kmalloc(size_t size);	/* zeroed; panics when out of memory */
/* Not zeroed, for a large buffer the caller fills before it reads (exec's
 * strings): only the pages written are touched. Freed with kfree. */
void *kvmalloc(size_t size);
void kfree(const void *p);
/* Room for element n of the growing array p (*cap elements of size bytes,
 * from kgrow; NULL and 0 at first): when n has reached *cap, the array
 * moves to one of twice the size, its new elements zeroed. Returns it. */
void *kgrow(void *p, size_t n, size_t *cap, size_t size);

/* Stop umk with a message on its stderr and the kernel's state (an oops):
 * for what must never happen. */
void panic(const char *fmt, ...) __printf(1, 2) __noreturn;

/* What uname reports (kernel/sys.c), and /proc/sys/kernel's osrelease,
 * version and hostname; %h of core_pattern. The release is the modern ABI
 * umk implements; libcs check it. */
#define UTS_NODENAME "umk"
#define UTS_RELEASE "6.12.0-umk"
#define UTS_VERSION "#1 umk 0.1.0"

#endif
