/*
 * kernel/lib/uaccess.c: strings from user memory (lib/strncpy_from_user.c).
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
