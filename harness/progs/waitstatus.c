/* waitstatus: children that end in every way a process can end, each waited
 * for with wait4 and again (a second child doing the same) with waitid. It
 * prints the raw status word and its decoding, which must match Linux bit
 * for bit. Children are copies of this program started with posix_spawn
 * ("child MODE"), plus vfork children. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static const char *const modes[] = { "exit0", "exit3", "term", "kill", "segv", "abort",
				     "killed-while-sleeping" };

static int child(const char *mode)
{
	/* No core files, whatever the host's core_pattern: WCOREDUMP and
	 * CLD_DUMPED would depend on it. umk answers ENOSYS, which is fine. */
	prctl(PR_SET_DUMPABLE, 0);
	if (strcmp(mode, "exit0") == 0)
		return 0;
	if (strcmp(mode, "exit3") == 0)
		exit(3);
	if (strcmp(mode, "term") == 0)
		rsys(SYS_kill, rsys0(SYS_getpid), SIGTERM);
	if (strcmp(mode, "kill") == 0)
		rsys(SYS_kill, rsys0(SYS_getpid), SIGKILL);
	if (strcmp(mode, "segv") == 0)
		*(volatile int *)0 = 1;
	if (strcmp(mode, "abort") == 0)
		abort();
	if (strcmp(mode, "killed-while-sleeping") == 0 || strcmp(mode, "nap") == 0) {
		struct timespec req = { .tv_sec = 10 };

		rsys(SYS_nanosleep, &req, NULL);
	}
	return 100;	/* not reached when the mode worked */
}

static pid_t start(const char *self, const char *mode)
{
	pid_t pid = spawn(self, (char *[]){ (char *)self, "child", (char *)mode, NULL });

	if (strcmp(mode, "killed-while-sleeping") == 0)
		rsys(SYS_kill, pid, SIGTERM);
	return pid;
}

static void print_wait4(const char *what, pid_t pid)
{
	int st;

	if (wait4(pid, &st, 0, NULL) != pid)
		die("wait4 failed");
	printf("%s: wait4 status=0x%04x WIFEXITED=%d WEXITSTATUS=%d WIFSIGNALED=%d WTERMSIG=%d\n",
	       what, st, !!WIFEXITED(st), WEXITSTATUS(st), !!WIFSIGNALED(st),
	       WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void print_waitid(const char *what, pid_t pid)
{
	siginfo_t si;
	const char *code;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, pid, &si, WEXITED))
		die("waitid failed");
	code = si.si_code == CLD_EXITED ? "CLD_EXITED" :
	       si.si_code == CLD_KILLED ? "CLD_KILLED" :
	       si.si_code == CLD_DUMPED ? "CLD_DUMPED" : "other";
	printf("%s: waitid si_signo=%s si_code=%s si_status=%d si_pid=%s\n", what,
	       signal_name(si.si_signo), code, si.si_status, si.si_pid == pid ? "child" : "wrong");
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "child") == 0)
		return child(argv[2]);

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		print_wait4(modes[i], start(argv[0], modes[i]));
		print_waitid(modes[i], start(argv[0], modes[i]));
	}

	/* A child still sleeping: WNOHANG finds nothing, SIGKILL ends it. */
	pid_t pid = spawn(argv[0], (char *[]){ argv[0], "child", "nap", NULL });

	show("wait4(sleeping child, WNOHANG)", rsys(SYS_wait4, pid, NULL, WNOHANG, NULL));
	rsys(SYS_kill, pid, SIGKILL);
	print_wait4("nap, then SIGKILL", pid);

	fflush(stdout);
	pid = vfork();
	if (pid == 0)
		_exit(5);
	print_wait4("vfork, _exit(5)", pid);

	fflush(stdout);
	pid = vfork();
	if (pid == 0) {
		rsys(SYS_kill, rsys0(SYS_getpid), SIGKILL);
		_exit(100);
	}
	print_wait4("vfork, SIGKILL to itself", pid);

	show("wait4(-1) with no children", rsys(SYS_wait4, -1, NULL, 0, NULL));
	return 0;
}
