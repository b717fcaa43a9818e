/*
 * kernel/lib/uaccess.c: strings from user memory (lib/strncpy_from_user.c),
 * and structs that grow by versions (include/linux/uaccess.h's
 * copy_struct_from_user, lib/usercopy.c's check_zeroed_user).
 * A string may run past the end of the region it starts in, so each byte is
 * checked; the strings are short (paths, argv).
 */
#include <umk/uaccess.h>

long strncpy_from_user(char *dst, const char __user *src, long count)
{
	long i;

	for (i = 0; i < count; i++) {
		if (copy_from_user(&dst[i], src + i, 1))
			return -EFAULT;
		if (!dst[i])
			return i;
	}
	return -ENAMETOOLONG;
}

/* 1 if the size bytes at from are all zero, 0 if one is not, -EFAULT. */
static int check_zeroed_user(const void __user *from, size_t size)
{
	unsigned char buf[64];
	size_t n, i;

	while (size) {
		n = min(size, sizeof(buf));
		if (copy_from_user(buf, from, n))
			return -EFAULT;
		for (i = 0; i < n; i++)
			if (buf[i])
				return 0;
		from = (const char __user *)from + n;
		size -= n;
	}
	return 1;
}

int copy_struct_from_user(void *dst, size_t ksize, const void __user *src, size_t usize)
{
	size_t size = min(ksize, usize);
	int zeroed;

	if (usize < ksize) {
		memset((char *)dst + size, 0, ksize - size);
	} else if (usize > ksize) {
		zeroed = check_zeroed_user((const char __user *)src + size, usize - size);
		if (zeroed <= 0)
			return zeroed ? zeroed : -E2BIG;
	}
	return copy_from_user(dst, src, size) ? -EFAULT : 0;
}
