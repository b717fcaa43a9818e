/* forkcheck: calls fork() once; the child exits at once ("fork: ok"), or
 * fork fails ("fork: ENOSYS" from a kernel without fork). */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "harness.h"

int main(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		printf("fork: %s\n", errno_name(errno));
		return 0;
	}
	if (pid == 0)
		_exit(0);
	printf("fork: ok, child %s\n", status_text(wait_status(pid)));
	return 0;
}
