/*
 * execat DIR: execveat(2), each case in a forked child, the same natively
 * and under umk (tests/process.bats). The program run is this one with
 * "show": it prints its argv[0], its name (/proc/self/comm) and AT_EXECFN.
 * DIR is a writable directory for a symlink and a script.
 *
 *   a path from AT_FDCWD; a path relative to a directory fd (its name is
 *   /dev/fd/N/PATH); fexecve's AT_EMPTY_PATH (/dev/fd/N, named after the
 *   file); a script through an fd, and through a close-on-exec one
 *   (ENOENT); the errors: an empty path without AT_EMPTY_PATH, unknown
 *   flags, AT_SYMLINK_NOFOLLOW on a symlink, a closed fd, a pipe, a
 *   directory
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

static char self[4096];

static void show_self(char *argv0)
{
	char comm[32] = "";
	int fd = open("/proc/self/comm", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, comm, sizeof(comm) - 1);

	comm[n > 0 ? n - 1 : 0] = 0;
	printf("  argv[0] %s, comm %s, AT_EXECFN %s\n", argv0, comm, (char *)getauxval(AT_EXECFN));
}

/* In a child: set up with prep (which returns the dfd), then execveat;
 * print what it returned if it did. */
static void run(const char *what, int dfd, const char *path, int flags)
{
	char *const argv[] = { "execat-child", "show", NULL };
	char *const envp[] = { NULL };
	int status;
	pid_t pid;

	printf("%s:\n", what);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long r = rsys(SYS_execveat, dfd, path, argv, envp, flags);

		printf("  execveat = -1 %s\n", errno_name((int)-r));
		fflush(stdout);
		_exit(1);
	}
	waitpid(pid, &status, 0);
}

int main(int argc, char **argv)
{
	char buf[4200], *slash;
	int dir, fd, p[2], sfd, cfd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "show")) {
		show_self(argv[0]);
		return 0;
	}
	if (argc != 2)
		die("usage: execat DIR");
	/* the fds it opens are named in the output: start from 3 */
	for (int i = 3; i < 256; i++)
		close(i);
	if (!realpath("/proc/self/exe", self))
		die("no /proc/self/exe");
	run("a path, AT_FDCWD", AT_FDCWD, self, 0);

	strcpy(buf, self);
	slash = strrchr(buf, '/');
	*slash = 0;
	dir = open(buf, O_RDONLY | O_DIRECTORY);
	run("a path relative to a directory fd", dir, slash + 1, 0);

	fd = open(self, O_RDONLY);
	run("fexecve: the fd, AT_EMPTY_PATH", fd, "", AT_EMPTY_PATH);
	run("an empty path without AT_EMPTY_PATH", fd, "", 0);
	run("unknown flags", AT_FDCWD, self, 0x8000);
	run("a closed fd, AT_EMPTY_PATH", 99, "", AT_EMPTY_PATH);
	if (pipe(p))
		die("pipe failed");
	run("a pipe, AT_EMPTY_PATH", p[0], "", AT_EMPTY_PATH);
	run("a directory, AT_EMPTY_PATH", dir, "", AT_EMPTY_PATH);

	snprintf(buf, sizeof(buf), "%s/execat-link", argv[1]);
	unlink(buf);
	if (symlink(self, buf))
		die("symlink failed");
	run("a symlink", AT_FDCWD, buf, 0);
	run("a symlink, AT_SYMLINK_NOFOLLOW", AT_FDCWD, buf, AT_SYMLINK_NOFOLLOW);
	unlink(buf);

	snprintf(buf, sizeof(buf), "%s/execat-script", argv[1]);
	sfd = open(buf, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (sfd < 0 || write(sfd, "#!/bin/sh\necho \"  script: \\$0 is $0\"\n", 38) != 38)
		die("cannot write the script");
	close(sfd);
	sfd = open(buf, O_RDONLY);
	cfd = open(buf, O_RDONLY | O_CLOEXEC);
	run("a script through an fd, AT_EMPTY_PATH", sfd, "", AT_EMPTY_PATH);
	run("a script through a close-on-exec fd, AT_EMPTY_PATH", cfd, "", AT_EMPTY_PATH);
	unlink(buf);
	return 0;
}
