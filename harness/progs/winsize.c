/* winsize: ask the console for its size (TIOCGWINSZ), as `stty size` does. */
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "harness.h"

int main(void)
{
	struct winsize ws = { 0 };
	long ret = rsys(SYS_ioctl, 1, TIOCGWINSZ, &ws);

	if (ret < 0)
		printf("winsize = -1 %s\n", errno_name(-ret));
	else
		printf("winsize = %ld rows=%d cols=%d\n", ret, ws.ws_row, ws.ws_col);
	return 0;
}
