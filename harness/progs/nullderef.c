/* nullderef: prints "before", then writes through a NULL pointer. Both
 * natively and under umk it dies of SIGSEGV (shell status 139). */
#include <stdio.h>

int main(void)
{
	printf("before\n");
	fflush(stdout);
	*(volatile int *)0 = 1;
	printf("after\n");
	return 0;
}
