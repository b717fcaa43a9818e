/* forkcheck: calls fork() once. umk is a NOMMU kernel and answers ENOSYS
 * ("fork: ENOSYS"); natively the child exits at once ("fork: ok"). */
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
