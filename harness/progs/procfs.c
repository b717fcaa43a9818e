/* procfs: /proc of this process, of one of its threads and of a child,
 * printed so that the lines are the same natively and under umk (no pids,
 * times or addresses: each is compared with what the process knows).
 *
 *   procfs self ARG...   /proc/self/{stat,status,cmdline,comm,exe,fd}
 *   procfs threads       a second thread shows in stat and status
 *   procfs child         a child started with posix_spawn (vfork + execve)
 *                        that waits on a pipe: its cmdline, comm, stat and
 *                        status, then as a zombie, and ENOENT once reaped
 *   procfs sched         stat's priority, nice, rt_priority and policy
 *                        fields after setpriority and sched_setscheduler
 *   procfs wait          (the child) say "ready", wait for stdin to close */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

/* The whole of a /proc file, NUL-terminated; its length in *len. */
static char *slurp(const char *path, ssize_t *len)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n = 0, r;

	if (fd < 0) {
		*len = -errno;
		return NULL;
	}
	while ((r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* /proc/PID/stat: comm, state, and the numeric fields 4 (ppid) and 20
 * (num_threads), checked against what the caller knows. */
static void show_stat(const char *dir, pid_t pid, pid_t ppid)
{
	char path[64], comm[32], state;
	long f[64];
	ssize_t len;
	char *s, *rp;
	int n = 0;

	snprintf(path, sizeof(path), "%s/stat", dir);
	s = slurp(path, &len);
	if (!s) {
		printf("%s = -1 %s\n", path, errno_name((int)-len));
		return;
	}
	rp = strrchr(s, ')');
	if (!rp || strtol(s, NULL, 10) != pid) {
		printf("stat: bad line or pid\n");
		return;
	}
	snprintf(comm, sizeof(comm), "%.*s", (int)(rp - strchr(s, '(') - 1), strchr(s, '(') + 1);
	state = rp[2];
	n = stat_fields(s, f);
	printf("stat: pid ok, comm %s, state %c, ppid %s, threads %ld, %d fields\n", comm, state,
	       f[0] == ppid ? "ok" : "WRONG", f[16], n + 3);
}

/* /proc/PID/status lines that do not vary: names, states, ids, counts. */
static void show_status(const char *dir, pid_t pid, pid_t ppid)
{
	char path[64], *s, *line;
	ssize_t len;

	snprintf(path, sizeof(path), "%s/status", dir);
	s = slurp(path, &len);
	if (!s) {
		printf("%s = -1 %s\n", path, errno_name((int)-len));
		return;
	}
	for (line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "Name:", 5) || !strncmp(line, "State:", 6) ||
		    !strncmp(line, "Uid:", 4) || !strncmp(line, "Threads:", 8) ||
		    !strncmp(line, "Umask:", 6))
			printf("status: %s\n", line);
		else if (!strncmp(line, "Pid:", 4) || !strncmp(line, "Tgid:", 5))
			printf("status: %.4s %s\n", line, strtol(strchr(line, ':') + 1, NULL, 10) == pid
						? "ok" : "WRONG");
		else if (!strncmp(line, "PPid:", 5))
			printf("status: PPid %s\n", strtol(line + 5, NULL, 10) == ppid ? "ok" : "WRONG");
	}
}

static void show_cmdline(const char *dir)
{
	char path[64], *s;
	ssize_t len, i;

	snprintf(path, sizeof(path), "%s/cmdline", dir);
	s = slurp(path, &len);
	if (!s) {
		printf("%s = -1 %s\n", path, errno_name((int)-len));
		return;
	}
	printf("cmdline:");
	for (i = 0; i < len; i += strlen(s + i) + 1)
		printf(" [%s]", i ? s + i : strrchr(s, '/') ? strrchr(s, '/') + 1 : s);
	printf("\n");
}

/* Whether the environment in /proc holds PROCFS_TEST's entry, and as many
 * entries as environ. */
static void show_environ(const char *dir)
{
	char path[64], *s, want[128];
	ssize_t len, i;
	int n = 0, found = 0;

	snprintf(path, sizeof(path), "%s/environ", dir);
	snprintf(want, sizeof(want), "PROCFS_TEST=%s", getenv("PROCFS_TEST") ? getenv("PROCFS_TEST") : "");
	s = slurp(path, &len);
	if (!s) {
		printf("%s = -1 %s\n", path, errno_name((int)-len));
		return;
	}
	for (i = 0; i < len; i += strlen(s + i) + 1, n++)
		found |= !strcmp(s + i, want);
	for (i = 0; environ[i]; i++)
		;
	printf("environ: %s, %s\n", found ? "has PROCFS_TEST" : "lacks PROCFS_TEST",
	       n == i ? "as many entries as environ" : "WRONG count");
}

static void show_comm(const char *dir)
{
	char path[64], *s;
	ssize_t len;

	snprintf(path, sizeof(path), "%s/comm", dir);
	s = slurp(path, &len);
	printf("comm: %s", s ? s : "(none)\n");
}


/* readlink(path), compared with want, or its last component shown. The
 * label stands for path in the line (an fd's number varies). */
static void show_link_as(const char *label, const char *path, const char *want)
{
	char buf[4096];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0) {
		printf("readlink(%s) = -1 %s\n", label, errno_name(errno));
		return;
	}
	buf[n] = '\0';
	if (want)
		printf("readlink(%s) %s\n", label, strcmp(buf, want) ? "WRONG" : "ok");
	else
		printf("readlink(%s) ends in %s\n", label, strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf);
}

static void show_link(const char *path, const char *want)
{
	show_link_as(path, path, want);
}

static int self(void)
{
	char fdpath[64], name[] = "/tmp/procfs-XXXXXX", pid[16], buf[64];
	int p[2], fd;
	ssize_t n;

	show_stat("/proc/self", getpid(), getppid());
	show_status("/proc/self", getpid(), getppid());
	show_cmdline("/proc/self");
	show_comm("/proc/self");
	show_environ("/proc/self");
	show_link("/proc/self/exe", NULL);
	snprintf(pid, sizeof(pid), "%d", getpid());
	show_link("/proc/self", pid);
	fd = mkstemp(name);
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	show_link_as("/proc/self/fd/FILE", fdpath, name);
	unlink(name);
	snprintf(buf, sizeof(buf), "%s (deleted)", name);
	show_link_as("/proc/self/fd/FILE, unlinked", fdpath, buf);
	pipe(p);
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", p[0]);
	n = readlink(fdpath, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	printf("a pipe is %.6s...]: %d\n", buf, buf[n - 1] == ']');
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", 99);
	show_link(fdpath, NULL);
	show_link("/proc/self/nothing", NULL);
	return 0;
}

static int go[2];

static void *thread(void *arg)
{
	char c;

	read(go[0], &c, 1);	/* until main is done looking */
	return NULL;
}

static int threads(void)
{
	pthread_t t;

	pipe(go);
	pthread_create(&t, NULL, thread, NULL);
	show_stat("/proc/self", getpid(), getppid());
	show_status("/proc/self", getpid(), getppid());
	write(go[1], "x", 1);
	pthread_join(t, NULL);
	show_stat("/proc/self", getpid(), getppid());
	return 0;
}

/* Until the process of /proc dir is in state (the child sleeping in its
 * read, or a zombie), for at most 5 s: natively it may still be on its way
 * there, on another CPU. */
static void wait_state(const char *dir, char state)
{
	char path[64], *s;
	ssize_t len;
	int i;

	snprintf(path, sizeof(path), "%s/stat", dir);
	for (i = 0; i < 5000; i++) {
		s = slurp(path, &len);
		if (s && strrchr(s, ')') && strrchr(s, ')')[2] == state)
			return;
		usleep(1000);
	}
}

static int child(const char *self_path)
{
	posix_spawn_file_actions_t fa;
	char *args[] = { (char *)self_path, "wait", "an argument", NULL };
	int in[2], out[2], status;
	char dir[32], c[8];
	pid_t pid;

	pipe(in);
	pipe(out);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	if (posix_spawn(&pid, self_path, &fa, NULL, args, environ))
		die("posix_spawn failed");
	close(in[0]);
	close(out[1]);
	if (read(out[0], c, 6) != 6)
		die("the child did not say ready");
	snprintf(dir, sizeof(dir), "/proc/%d", pid);
	wait_state(dir, 'S');
	show_stat(dir, pid, getpid());
	show_status(dir, pid, getpid());
	show_cmdline(dir);
	show_comm(dir);
	close(in[1]);
	wait_state(dir, 'Z');
	show_stat(dir, pid, getpid());
	show_cmdline(dir);
	waitpid(pid, &status, 0);
	printf("child: %s\n", status_text(status));
	strcat(dir, "/cmdline");
	printf("open(/proc/PID/cmdline) once reaped = %s\n",
	       open(dir, O_RDONLY) < 0 ? errno_name(errno) : "an fd");
	return 0;
}

/* Fields 18 (priority), 19 (nice), 40 (rt_priority) and 41 (policy) of
 * /proc/self/stat. */
static void show_sched(const char *after)
{
	ssize_t len;
	char *s = slurp("/proc/self/stat", &len);
	long f[64];

	if (!s || stat_fields(s, f) < 38) {
		printf("/proc/self/stat: no line\n");
		return;
	}
	printf("after %s: priority %ld, nice %ld, rt_priority %ld, policy %ld\n", after, f[14],
	       f[15], f[36], f[37]);
}

static int sched(void)
{
	struct sched_param p = { 0 };

	show_sched("start");
	setpriority(PRIO_PROCESS, 0, 7);
	show_sched("nice 7");
	rsys(SYS_sched_setscheduler, 0, SCHED_BATCH, &p);
	show_sched("SCHED_BATCH");
	rsys(SYS_sched_setscheduler, 0, SCHED_IDLE, &p);
	show_sched("SCHED_IDLE");
	p.sched_priority = 10;
	if (rsys(SYS_sched_setscheduler, 0, SCHED_FIFO, &p))
		printf("SCHED_FIFO 10: failed\n");
	show_sched("SCHED_FIFO 10");
	p.sched_priority = 99;
	rsys(SYS_sched_setscheduler, 0, SCHED_RR, &p);
	show_sched("SCHED_RR 99");
	p.sched_priority = 0;
	rsys(SYS_sched_setscheduler, 0, SCHED_OTHER, &p);
	show_sched("SCHED_OTHER");
	return 0;
}

int main(int argc, char **argv)
{
	char c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "self"))
		return self();
	if (argc == 2 && !strcmp(argv[1], "threads"))
		return threads();
	if (argc == 2 && !strcmp(argv[1], "child"))
		return child(argv[0]);
	if (argc == 2 && !strcmp(argv[1], "sched"))
		return sched();
	if (argc >= 2 && !strcmp(argv[1], "wait")) {
		write(1, "ready\n", 6);
		while (read(0, &c, 1) > 0)
			;
		return 0;
	}
	fprintf(stderr, "usage: procfs self ARG... | threads | child | sched\n");
	return 2;
}
