/* orphan: starts a copy of itself that sleeps 5 s and would then print
 * "child still alive", and exits at once. Under umk the first task's exit
 * ends umk and every other task with it, so that line never appears. */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

#include "harness.h"

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		struct timespec req = { .tv_sec = 5 };

		rsys(SYS_nanosleep, &req, NULL);
		printf("child still alive\n");
		return 0;
	}
	spawn(argv[0], (char *[]){ argv[0], "child", NULL });
	printf("parent exits\n");
	return 4;
}
