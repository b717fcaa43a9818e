/* leak: a dynamically linked host program (gcc, glibc) that loses one
 * 100-byte block and reads one uninitialized byte, for tests/valgrind.bats:
 * valgrind --leak-check=full under umk must report both as natively. */
#include <stdio.h>
#include <stdlib.h>

static void *lose(size_t n)
{
	char *p = malloc(n);

	p[0] = 'x';
	return p;
}

int main(void)
{
	char *kept = malloc(16);
	int *unset = malloc(sizeof(*unset));

	lose(100);
	/* a conditional jump on an uninitialized value */
	if (*unset == 42)
		puts("forty-two");
	free(unset);
	printf("kept: %s\n", kept ? "yes" : "no");
	free(kept);
	return 0;
}
