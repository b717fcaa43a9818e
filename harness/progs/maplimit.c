/*
 * maplimit: run the host out of memory mappings (vm.max_map_count) by
 * alternating the protection of single pages, then unmap a page from the
 * middle of another mapping, which needs one more. Linux says ENOMEM to
 * both; umk once panicked on the munmap.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>

#include "harness.h"

int main(void)
{
	size_t n = 80000, i;
	char *a = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *b = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int r;

	for (i = 0; i < n; i += 2)
		if (mprotect(b + i * 4096, 4096, PROT_READ))
			break;
	printf("mprotect stopped before the end: %s\n", i < n ? errno_name(errno) : "no");
	r = munmap(a + 4096, 4096);
	printf("munmap(middle page) = %s\n", r ? errno_name(errno) : "0");
	a[0] = a[8191] = 1;	/* the mapping is still whole */
	printf("the mapping is intact\n");
	return 0;
}
