/* needlib: a dynamically linked host program (gcc, glibc) that needs
 * libumkdyn.so from its own directory ($ORIGIN), for tests/dynamic.bats:
 * a missing, truncated or foreign library must fail in the loader, as
 * natively. */
#include <stdio.h>

extern int umkdyn_answer;
int umkdyn_twice(int x);

int main(void)
{
	printf("libumkdyn: answer %d, twice 21 = %d\n", umkdyn_answer, umkdyn_twice(21));
	return 0;
}
