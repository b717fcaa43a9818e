/* ids: process and user identities, printed as relations between them
 * (never raw numbers, which differ between the host and umk), and uname. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness.h"

static const char *yes(int c) { return c ? "yes" : "no"; }

static long thread_tid, thread_pid, thread_ppid;

static void *thread(void *arg)
{
	thread_tid = rsys0(SYS_gettid);
	thread_pid = rsys0(SYS_getpid);
	thread_ppid = rsys0(SYS_getppid);
	return arg;
}

int main(int argc, char **argv)
{
	long pid = rsys0(SYS_getpid), tid = rsys0(SYS_gettid), ppid = rsys0(SYS_getppid);

	if (argc > 2 && strcmp(argv[1], "child") == 0) {
		/* argv[2] is the parent's pid, as the parent saw it */
		printf("child: getppid==parent's getpid: %s\n", yes(ppid == atol(argv[2])));
		printf("child: getpid!=parent's getpid: %s\n", yes(pid != atol(argv[2])));
		return 0;
	}

	printf("getpid>0: %s\n", yes(pid > 0));
	printf("gettid==getpid: %s\n", yes(tid == pid));
	printf("getppid!=getpid: %s\n", yes(ppid != pid));
	printf("getpid is stable: %s\n", yes(rsys0(SYS_getpid) == pid && getpid() == pid));
	printf("getuid==geteuid: %s\n", yes(rsys0(SYS_getuid) == rsys0(SYS_geteuid)));
	printf("getgid==getegid: %s\n", yes(rsys0(SYS_getgid) == rsys0(SYS_getegid)));
	printf("getuid>=0: %s\n", yes(rsys0(SYS_getuid) >= 0));

	pthread_t t;

	if (pthread_create(&t, NULL, thread, NULL))
		die("pthread_create failed");
	pthread_join(t, NULL);
	printf("thread: gettid!=getpid: %s\n", yes(thread_tid != pid));
	printf("thread: getpid==main's getpid: %s\n", yes(thread_pid == pid));
	printf("thread: getppid==main's getppid: %s\n", yes(thread_ppid == ppid));

	char pidarg[32];

	snprintf(pidarg, sizeof(pidarg), "%ld", pid);
	pid_t child = spawn(argv[0], (char *[]){ argv[0], "child", pidarg, NULL });

	printf("spawned child pid!=getpid: %s\n", yes(child != pid && child > 0));
	printf("child: %s\n", status_text(wait_status(child)));

	struct utsname u;

	if (uname(&u))
		die("uname failed");
	printf("uname sysname=%s machine=%s\n", u.sysname, u.machine);
	printf("uname release and version are set: %s\n", yes(u.release[0] && u.version[0]));
	return 0;
}
