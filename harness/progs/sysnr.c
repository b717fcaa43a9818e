/* sysnr: `sysnr NR...` makes system call NR with every argument 0, for each
 * NR in turn, printing "NR = RET" (or "NR = -1 ENAME"). Under umk only: the
 * tests give it the numbers umk does not implement, which return ENOSYS
 * there but could do anything on the host. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		show(argv[i], rsys0(strtol(argv[i], NULL, 10)));
	return 0;
}
