/* creds: user and group ids and the permission checks made with them.
 * Must start as root (umk's pid 1 is; the tests run natively as root).
 *
 *   creds SCENARIO
 *
 * Each scenario changes ids with raw system calls (no C library setxid
 * broadcast: the process has one thread) and prints what the kernel
 * returned and the ids that result, as numbers: umk and the host start
 * from the same root ids. The ids used (1000, 2000, 3000, 54321...) are
 * chosen to own no process on the host. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sched.h>
#include <unistd.h>

#include "harness.h"

static void ids(const char *when)
{
	unsigned int r, e, s, gr, ge, gs;
	long fsuid = rsys(SYS_setfsuid, -1), fsgid = rsys(SYS_setfsgid, -1);

	rsys(SYS_getresuid, &r, &e, &s);
	rsys(SYS_getresgid, &gr, &ge, &gs);
	printf("%s: uid %u %u %u fsuid %ld, gid %u %u %u fsgid %ld\n", when, r, e, s, fsuid, gr, ge,
	       gs, fsgid);
}

static void groups(void)
{
	unsigned int g[16];
	long n = rsys(SYS_getgroups, 16, g), i;

	printf("groups:");
	for (i = 0; i < n; i++)
		printf(" %u", g[i]);
	printf("%s\n", n < 0 ? " error" : "");
}

/* setuid as root sets all four uids and drops every capability. */
static void scenario_setuid(void)
{
	show("setuid(-1)", rsys(SYS_setuid, -1));
	show("setuid(1000)", rsys(SYS_setuid, 1000));
	ids("after setuid(1000)");
	show("setuid(0)", rsys(SYS_setuid, 0));
	show("setuid(1000) again", rsys(SYS_setuid, 1000));
	show("setgid(5) without CAP_SETGID", rsys(SYS_setgid, 5));
	show("setgroups(0) without CAP_SETGID", rsys(SYS_setgroups, 0, NULL));
	show("setresuid(2000, -1, -1)", rsys(SYS_setresuid, 2000, -1, -1));
	ids("at the end");
}

/* A saved uid of 0 keeps the capabilities: an effective uid can go back. */
static void scenario_saved(void)
{
	show("setresuid(1000, 1000, 0)", rsys(SYS_setresuid, 1000, 1000, 0));
	ids("with saved uid 0");
	show("setgroups(0) with euid 1000", rsys(SYS_setgroups, 0, NULL));
	show("setresuid(-1, 0, -1)", rsys(SYS_setresuid, -1, 0, -1));
	ids("effective root again");
	show("setgroups(0, bad) with euid 0", rsys(SYS_setgroups, 0, 8));
	show("getgroups(4, bad) with no groups", rsys(SYS_getgroups, 4, 8));
	show("setresuid(2000, 3000, 4000) as root", rsys(SYS_setresuid, 2000, 3000, 4000));
	ids("after setresuid(2000, 3000, 4000)");
	show("setresuid(3000, 4000, 2000) (a permutation)", rsys(SYS_setresuid, 3000, 4000, 2000));
	show("setresuid(5000, -1, -1)", rsys(SYS_setresuid, 5000, -1, -1));
	show("setresuid(-1, -1, -1)", rsys(SYS_setresuid, -1, -1, -1));
	ids("at the end");
}

/* setreuid's saved-uid rule, and unprivileged swaps. */
static void scenario_setreuid(void)
{
	show("setreuid(1000, 2000)", rsys(SYS_setreuid, 1000, 2000));
	ids("after setreuid(1000, 2000)");
	show("setreuid(2000, 1000) (a swap)", rsys(SYS_setreuid, 2000, 1000));
	ids("after the swap");
	show("setreuid(-1, 2000)", rsys(SYS_setreuid, -1, 2000));
	ids("after setreuid(-1, 2000)");
	show("setreuid(3000, -1)", rsys(SYS_setreuid, 3000, -1));
	show("setreuid(-1, 3000)", rsys(SYS_setreuid, -1, 3000));
	show("setuid(1000) (the saved uid)", rsys(SYS_setuid, 1000));
	ids("at the end");
}

/* setfsuid and setfsgid return the old value, changed or not. */
static void scenario_fsids(void)
{
	printf("setfsuid(1234) = %ld\n", rsys(SYS_setfsuid, 1234));
	printf("setfsuid(-1) = %ld\n", rsys(SYS_setfsuid, -1));
	printf("setfsgid(4321) = %ld\n", rsys(SYS_setfsgid, 4321));
	ids("fs ids set");
	show("setresuid(1000, 1000, 1000)", rsys(SYS_setresuid, 1000, 1000, 1000));
	ids("after setresuid (fsuid follows euid)");
	printf("setfsuid(5) unprivileged = %ld\n", rsys(SYS_setfsuid, 5));
	printf("setfsgid(5) unprivileged = %ld\n", rsys(SYS_setfsgid, 5));
	ids("at the end");
}

/* The gid calls, and supplementary groups. */
static void scenario_gids(void)
{
	unsigned int g[4] = { 30, 10, 20, 10 }, small[2];

	show("setgid(-1)", rsys(SYS_setgid, -1));
	show("setresgid(10, 20, 30)", rsys(SYS_setresgid, 10, 20, 30));
	ids("after setresgid(10, 20, 30)");
	show("setregid(-1, 30)", rsys(SYS_setregid, -1, 30));
	ids("after setregid(-1, 30)");
	show("setregid(40, -1)", rsys(SYS_setregid, 40, -1));
	ids("after setregid(40, -1)");
	show("setgid(50)", rsys(SYS_setgid, 50));
	ids("after setgid(50)");
	show("setgroups(4, {30, 10, 20, 10})", rsys(SYS_setgroups, 4, g));
	groups();
	show("getgroups(0, NULL)", rsys(SYS_getgroups, 0, NULL));
	show("getgroups(2, small)", rsys(SYS_getgroups, 2, small));
	show("getgroups(-1, small)", rsys(SYS_getgroups, -1, small));
	show("setgroups(65537, g)", rsys(SYS_setgroups, 65537, g));
	show("setgroups(-1, g)", rsys(SYS_setgroups, -1, g));
	show("setgroups(2, bad)", rsys(SYS_setgroups, 2, 8));
	show("getgroups(4, bad)", rsys(SYS_getgroups, 4, 8));
	groups();
	show("setuid(1000)", rsys(SYS_setuid, 1000));
	show("setgid(50) unprivileged (its own)", rsys(SYS_setgid, 50));
	show("setgid(60) unprivileged", rsys(SYS_setgid, 60));
	show("setresgid(-1, 50, -1) unprivileged", rsys(SYS_setresgid, -1, 50, -1));
	show("setregid(50, 70) unprivileged", rsys(SYS_setregid, 50, 70));
	show("getresgid(bad, ...)", rsys(SYS_getresgid, 8, 8, 8));
	show("getresuid(bad, ...)", rsys(SYS_getresuid, 8, 8, 8));
	ids("at the end");
}

/* What a non-root process may not do to root's. The parent, root, waits
 * in wait4 for this child. */
static void scenario_kill(void)
{
	pid_t parent = getppid();
	struct rlimit rl;
	int sig = SIGCONT;
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_code = SI_QUEUE;
	show("setresuid(54321, 54321, 54321)", rsys(SYS_setresuid, 54321, 54321, 54321));
	show("kill(parent, 0)", rsys(SYS_kill, parent, 0));
	show("kill(parent, SIGTERM)", rsys(SYS_kill, parent, SIGTERM));
	show("tkill(parent, SIGTERM)", rsys(SYS_tkill, parent, SIGTERM));
	show("tgkill(parent, parent, SIGTERM)", rsys(SYS_tgkill, parent, parent, SIGTERM));
	show("rt_sigqueueinfo(parent, SIGTERM)", rsys(SYS_rt_sigqueueinfo, parent, SIGTERM, &si));
	show("kill(parent, SIGCONT) in its session", rsys(SYS_kill, parent, sig));
	show("kill(self, 0)", rsys(SYS_kill, getpid(), 0));
	show("kill(99999, 0)", rsys(SYS_kill, 99999, 0));
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_max++;
	show("setrlimit raising NOFILE's hard limit", rsys(SYS_setrlimit, RLIMIT_NOFILE, &rl));
	rl.rlim_max -= 2;
	if (rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	show("setrlimit lowering it", rsys(SYS_setrlimit, RLIMIT_NOFILE, &rl));
	show("prlimit64(parent, NOFILE, NULL, &old)", rsys(SYS_prlimit64, parent, RLIMIT_NOFILE, NULL, &rl));
	show("setpriority(PRIO_PROCESS, 0, 5)", rsys(SYS_setpriority, PRIO_PROCESS, 0, 5));
	show("setpriority(PRIO_PROCESS, 0, 4)", rsys(SYS_setpriority, PRIO_PROCESS, 0, 4));
	show("setpriority(PRIO_PROCESS, parent, 5)", rsys(SYS_setpriority, PRIO_PROCESS, parent, 5));
	show("sched_setscheduler(0, SCHED_FIFO, 1)",
	     rsys(SYS_sched_setscheduler, 0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 }));
	show("sched_setscheduler(parent, SCHED_BATCH, 0)",
	     rsys(SYS_sched_setscheduler, parent, SCHED_BATCH, &(struct sched_param){ 0 }));
	show("sched_setscheduler(0, SCHED_BATCH, 0)",
	     rsys(SYS_sched_setscheduler, 0, SCHED_BATCH, &(struct sched_param){ 0 }));
	show("get_robust_list(parent, ...)", rsys(SYS_get_robust_list, parent, &si, &rl));
	show("setsid()", rsys0(SYS_setsid) > 0 ? 0 : -1);
	show("kill(parent, SIGCONT) from another session", rsys(SYS_kill, parent, sig));
}

/* Start the child above and wait for it: waitid tells its real uid. */
static void kill_scenario(const char *self)
{
	pid_t pid = spawn(self, (char *[]){ (char *)self, "kill-child", NULL });
	siginfo_t si;

	if (waitid(P_PID, pid, &si, WEXITED))
		die("waitid failed");
	printf("child: exit %d, its uid %u\n", si.si_status, (unsigned int)si.si_uid);
}

/* exec keeps the real and effective ids, makes the saved ones the
 * effective ones, and the auxiliary vector tells the new program. */
static void scenario_exec(const char *self)
{
	show("setresgid(7, 8, 9)", rsys(SYS_setresgid, 7, 8, 9));
	show("setresuid(1000, 2000, 3000)", rsys(SYS_setresuid, 1000, 2000, 3000));
	fflush(stdout);
	/* through /proc/self/exe, which leads to the file without searching
	 * the directories on its path: those of a test tree made by mktemp -d
	 * are closed to uid 1000 */
	execl("/proc/self/exe", self, "after-exec", (char *)NULL);
	die("execl failed");
}

static void scenario_after_exec(void)
{
	ids("after exec");
	printf("AT_UID %lu AT_EUID %lu AT_GID %lu AT_EGID %lu\n", getauxval(AT_UID),
	       getauxval(AT_EUID), getauxval(AT_GID), getauxval(AT_EGID));
	show("setresuid(-1, 3000, -1) (the old saved uid)", rsys(SYS_setresuid, -1, 3000, -1));
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (rsys0(SYS_geteuid) != 0 && strcmp(what, "after-exec"))
		die("creds: must start as root");
	if (!strcmp(what, "start")) {
		ids("at start");
		groups();
	} else if (!strcmp(what, "setuid"))
		scenario_setuid();
	else if (!strcmp(what, "saved"))
		scenario_saved();
	else if (!strcmp(what, "setreuid"))
		scenario_setreuid();
	else if (!strcmp(what, "fsids"))
		scenario_fsids();
	else if (!strcmp(what, "gids"))
		scenario_gids();
	else if (!strcmp(what, "kill"))
		kill_scenario(argv[0]);
	else if (!strcmp(what, "kill-child"))
		scenario_kill();
	else if (!strcmp(what, "exec"))
		scenario_exec(argv[0]);
	else if (!strcmp(what, "after-exec"))
		scenario_after_exec();
	else
		die("usage: creds start|setuid|saved|setreuid|fsids|gids|kill|exec");
	return 0;
}
