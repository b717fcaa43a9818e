/* Shared helpers for the harness programs: see harness.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

long raw_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static const char *const errno_names[] = {
	[EPERM] = "EPERM",   [ENOENT] = "ENOENT", [ESRCH] = "ESRCH",   [EINTR] = "EINTR",
	[EIO] = "EIO",       [ENXIO] = "ENXIO",   [E2BIG] = "E2BIG",   [ENOEXEC] = "ENOEXEC",
	[EBADF] = "EBADF",   [ECHILD] = "ECHILD", [EAGAIN] = "EAGAIN", [ENOMEM] = "ENOMEM",
	[EACCES] = "EACCES", [EFAULT] = "EFAULT", [EBUSY] = "EBUSY",   [EEXIST] = "EEXIST",
	[ENODEV] = "ENODEV", [ENOTDIR] = "ENOTDIR", [EISDIR] = "EISDIR", [EINVAL] = "EINVAL",
	[ENFILE] = "ENFILE", [EMFILE] = "EMFILE", [ENOTTY] = "ENOTTY", [ESPIPE] = "ESPIPE", [EROFS] = "EROFS", [EPIPE] = "EPIPE",
	[ERANGE] = "ERANGE", [ENOSYS] = "ENOSYS", [ETIMEDOUT] = "ETIMEDOUT",
	[EDEADLK] = "EDEADLK", [EOVERFLOW] = "EOVERFLOW",	/* fifolock */
	[ENOTEMPTY] = "ENOTEMPTY", [ELOOP] = "ELOOP", [ENAMETOOLONG] = "ENAMETOOLONG",
	[EXDEV] = "EXDEV", [ENOSPC] = "ENOSPC", [EFBIG] = "EFBIG", [ETXTBSY] = "ETXTBSY", [EOPNOTSUPP] = "EOPNOTSUPP",
	/* sockets (unixsock) */
	[ENOTSOCK] = "ENOTSOCK", [EDESTADDRREQ] = "EDESTADDRREQ", [EMSGSIZE] = "EMSGSIZE",
	[EPROTOTYPE] = "EPROTOTYPE", [ENOPROTOOPT] = "ENOPROTOOPT",
	[EPROTONOSUPPORT] = "EPROTONOSUPPORT", [ESOCKTNOSUPPORT] = "ESOCKTNOSUPPORT",
	[EAFNOSUPPORT] = "EAFNOSUPPORT", [EADDRINUSE] = "EADDRINUSE", [ECONNRESET] = "ECONNRESET",
	[EISCONN] = "EISCONN", [ENOTCONN] = "ENOTCONN", [ECONNREFUSED] = "ECONNREFUSED",
	[EALREADY] = "EALREADY", [EINPROGRESS] = "EINPROGRESS", [EDOM] = "EDOM",
	[ECONNABORTED] = "ECONNABORTED", [ENOBUFS] = "ENOBUFS", [EADDRNOTAVAIL] = "EADDRNOTAVAIL",
};

const char *errno_name(int e)
{
	static char buf[16];

	if (e > 0 && e < (int)(sizeof(errno_names) / sizeof(errno_names[0])) && errno_names[e])
		return errno_names[e];
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static const char *const signal_names[] = {
	[SIGHUP] = "SIGHUP",   [SIGINT] = "SIGINT",   [SIGQUIT] = "SIGQUIT", [SIGILL] = "SIGILL",
	[SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT", [SIGBUS] = "SIGBUS",   [SIGFPE] = "SIGFPE",
	[SIGKILL] = "SIGKILL", [SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
	[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM", [SIGCHLD] = "SIGCHLD",
	[SIGCONT] = "SIGCONT", [SIGSTOP] = "SIGSTOP", [SIGTSTP] = "SIGTSTP", [SIGSYS] = "SIGSYS",
};

const char *signal_name(int sig)
{
	static char buf[16];

	if (sig > 0 && sig < (int)(sizeof(signal_names) / sizeof(signal_names[0])) &&
	    signal_names[sig])
		return signal_names[sig];
	snprintf(buf, sizeof(buf), "SIG%d", sig);
	return buf;
}

long show(const char *call, long ret)
{
	if (ret < 0 && ret > -4096)
		printf("%s = -1 %s\n", call, errno_name((int)-ret));
	else
		printf("%s = %ld\n", call, ret);
	return ret;
}

int check_failures;

void check(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	check_failures += !ok;
}

int run_sections(const char *prog, const struct section *s, size_t n, int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int a = 1; a < argc; a++) {
		size_t i;

		for (i = 0; i < n && strcmp(argv[a], s[i].name); i++)
			;
		if (i == n) {
			fprintf(stderr, "%s: unknown section '%s'\n", prog, argv[a]);
			return 2;
		}
		printf("== %s\n", s[i].name);
		s[i].fn();
	}
	return check_failures ? 1 : 0;
}

const char *status_text(int status)
{
	static char buf[40];

	if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "killed by %s", signal_name(WTERMSIG(status)));
	else
		snprintf(buf, sizeof(buf), "status 0x%04x", status);
	return buf;
}

pid_t fork_or_die(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", errno_name(errno));
	return pid;
}

double now_ms(void)
{
	struct timespec ts;

	if (rsys(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) != 0)
		die("clock_gettime failed");
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("harness: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(99);
}

pid_t spawn(const char *path, char *const args[])
{
	pid_t pid;
	int err;

	fflush(stdout);
	err = posix_spawn(&pid, path, NULL, NULL, args, environ);
	if (err)
		die("posix_spawn %s: %s", path, errno_name(err));
	return pid;
}

int wait_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		die("waitpid %d: %s", (int)pid, errno_name(errno));
	return status;
}

int stat_fields(const char *line, long f[64])
{
	const char *rp = strrchr(line, ')');
	char *s;
	int n;

	if (!rp || !rp[1] || !rp[2])
		return -1;
	for (s = (char *)rp + 3, n = 0; n < 64; n++) {
		while (*s == ' ' || *s == '\n')
			s++;
		if (!*s)
			break;
		f[n] = strtol(s, &s, 10);
	}
	return n;
}

char proc_state(pid_t pid)
{
	char path[64], line[512];
	const char *rp;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	line[n] = 0;
	rp = strrchr(line, ')');
	return rp && rp[1] == ' ' ? rp[2] : 0;
}

const char *dir_of(const char *path)
{
	static char buf[4096];
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	snprintf(buf, sizeof(buf), "%.*s", (int)(slash - path), path);
	return buf;
}
