/* demo: what `make run` shows. Says hello, starts two copies of itself with
 * posix_spawn, one that sleeps 50 ms and one that computes for a few
 * milliseconds, waits for both and prints how each ended. The computing
 * worker finishes well before the sleeping one, so its line comes first. */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

#include "harness.h"

static int worker(const char *what)
{
	if (strcmp(what, "sleep") == 0) {
		struct timespec req = { .tv_nsec = 50 * 1000000L };

		if (rsys(SYS_nanosleep, &req, NULL))
			return 1;
		printf("sleep worker: woke after 50 ms\n");
		return 0;
	}
	volatile unsigned long sum = 0;

	for (unsigned long i = 0; i < 1000000; i++)
		sum += i;
	printf("compute worker: sum %lu\n", (unsigned long)sum);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return worker(argv[1]);

	printf("hello from the demo\n");
	pid_t sleeper = spawn(argv[0], (char *[]){ argv[0], "sleep", NULL });
	pid_t computer = spawn(argv[0], (char *[]){ argv[0], "compute", NULL });
	int st_sleep = wait_status(sleeper);
	int st_compute = wait_status(computer);

	printf("sleep worker: %s\n", status_text(st_sleep));
	printf("compute worker: %s\n", status_text(st_compute));
	return 0;
}
