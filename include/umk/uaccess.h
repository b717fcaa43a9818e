/* Access to user memory (include/linux/uaccess.h). Every kernel access to
 * user memory goes through these. A range outside the current process's
 * memory regions (access_ok) fails at once; a host fault inside one (an
 * unmapped or protected page) is caught by arch/'s exception table, and the
 * copy stops there. Nothing a program passes can fault the kernel. */
#ifndef UMK_UACCESS_H
#define UMK_UACCESS_H

#include <umk/errno.h>
#include <umk/types.h>

/* kernel/mm/mm.c: does [addr, addr + size) lie in the current mm's regions? */
bool access_ok(const void __user *addr, size_t size);

/* arch/uaccess.S: copy with fault fixup; return the bytes NOT copied. */
unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long raw_copy_to_user(void __user *to, const void *from, unsigned long n);
unsigned long raw_clear_user(void __user *to, unsigned long n);

static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	if (!access_ok(from, n)) {
		memset(to, 0, n);
		return n;
	}
	return raw_copy_from_user(to, from, n);
}

static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return raw_copy_to_user(to, from, n);
}

static inline unsigned long clear_user(void __user *to, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return raw_clear_user(to, n);
}

/* 0 or -EFAULT */
#define get_user(x, ptr)                                                       \
	({                                                                     \
		__typeof__(*(ptr)) __gu_val;                                   \
		int __gu_err = copy_from_user(&__gu_val, (ptr), sizeof(__gu_val)) \
				       ? -EFAULT                               \
				       : 0;                                    \
		(x) = __gu_err ? (__typeof__(*(ptr)))0 : __gu_val;             \
		__gu_err;                                                      \
	})

#define put_user(x, ptr)                                                       \
	({                                                                     \
		__typeof__(*(ptr)) __pu_val = (x);                             \
		copy_to_user((ptr), &__pu_val, sizeof(__pu_val)) ? -EFAULT : 0; \
	})

/* Copy a NUL-terminated string of at most count - 1 bytes plus the NUL.
 * Returns its length, -EFAULT, or -ENAMETOOLONG when no NUL is found within
 * count bytes. */
long strncpy_from_user(char *dst, const char __user *src, long count);

/* A struct that grows by versions (clone3's clone_args): usize bytes of the
 * caller's into the kernel's ksize. A shorter one is zero-extended; a longer
 * one is taken only if the bytes past ksize are zero, else -E2BIG (they ask
 * for something this kernel does not know). 0, -E2BIG or -EFAULT. */
int copy_struct_from_user(void *dst, size_t ksize, const void __user *src, size_t usize);

#endif
