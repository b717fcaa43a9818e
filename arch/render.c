/*
 * arch/render.c: the renderers that draw a run as it is traced.
 *
 * The kernel draws nothing: it writes JSON lines (kernel/trace/trace_json.c), and
 * harness/umk-trace turns them into a Chrome trace or an SVG timeline. For
 * --trace-format=chrome and --timeline, umk starts that tool at boot, found
 * next to umk itself (dirname(/proc/self/exe)/harness/umk-trace), with a
 * pipe as its stdin and the output file as its stdout; the kernel writes
 * JSON lines into the pipe like into any other trace sink.
 *
 * At exit (os_exit, which every exit goes through, oops and panic included)
 * the pipes are closed and umk waits for each renderer, so the files are
 * complete when umk has exited. A renderer needs nothing but EOF on its
 * stdin to finish, so even a SIGKILL of umk, which closes the pipes too,
 * leaves complete files (written just after umk is gone).
 *
 * A renderer runs in a process group of its own, with no signal blocked or
 * ignored: a ^C on umk's terminal (or a kill of umk's group) is for the
 * program under umk, which umk passes it to, not for the renderer.
 */
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <umk/os.h>

#define MAX_RENDERERS 2

static struct renderer {
	pid_t pid;
	int fd;				/* the write end of its stdin */
} renderers[MAX_RENDERERS];
static int nr_renderers;

extern char **environ;

const char *os_render_tool(void)
{
	static char path[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		n = 0;
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/harness/umk-trace", n ? dirname(exe) : ".");
	return path;
}

int os_render_start(const char *cmd, int out_fd)
{
	const char *tool = os_render_tool();
	char *argv[] = { (char *)tool, (char *)cmd, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	int p[2], err;
	pid_t pid;

	if (nr_renderers == MAX_RENDERERS)
		return -EBUSY;
	if (access(tool, X_OK))
		return -errno;
	/* Close-on-exec: no renderer may hold another's pipe, or its own
	 * write end, open; each would then wait for an EOF that never comes. */
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	err = posix_spawn(&pid, tool, &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(p[0]);
	if (err) {
		close(p[1]);
		return -err;
	}
	renderers[nr_renderers++] = (struct renderer){ .pid = pid, .fd = p[1] };
	return p[1];
}

void os_render_finish(void)
{
	int i, st;

	for (i = 0; i < nr_renderers; i++)
		close(renderers[i].fd);
	for (i = 0; i < nr_renderers; i++) {
		while (waitpid(renderers[i].pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	nr_renderers = 0;
}
