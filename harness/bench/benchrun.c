/* benchrun LIST [ID...]: run make bench's probes and report each one's
 * output and how it ended, in a form harness/bench/bench_report.py reads. The
 * same static program runs the probes everywhere: natively and around umk
 * on the host (harness/bench/bench.sh, one probe at a time, pinned), and inside
 * the peers as their first process: User-Mode Linux's init, gVisor's
 * `runsc do` command. As pid 1 it powers the machine off at the end.
 *
 * LIST has one probe a line, "ID<TAB>TIMEOUT<TAB>PROG ARG...", the words
 * of the command separated by spaces (no quoting); blank lines and lines
 * starting with # are skipped. With IDs, only those probes run, in the
 * order given; an ID the list lacks is an error. For each probe, one line:
 *
 *     BENCH<TAB>ID<TAB>HOW<TAB>OUTPUT
 *
 * HOW is "exit N", "signal N" (killed by it) or "timeout S" (killed after
 * S seconds); OUTPUT is the probe's stdout and stderr, in the order
 * written, with backslash, newline and tab written as \\, \n and \t, and
 * carriage returns dropped. Bad usage or an unreadable LIST: one line on
 * stderr, status 2.
 *
 * As pid 1 with BENCH_LIST=PATH in its environment (UML's init, given
 * BENCH_LIST=PATH on the kernel command line, which also adds arguments
 * of its own), benchrun runs the whole list PATH and ignores its
 * arguments. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define MAX_PROBES 64
#define MAX_ARGS 32

struct probe {
	char *id;
	int timeout;
	char *argv[MAX_ARGS + 1];
};

static struct probe probes[MAX_PROBES];
static int nprobes;

static void usage_error(const char *fmt, const char *what)
{
	fputs("benchrun: ", stderr);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	exit(2);
}

static void load(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;

	if (!f)
		usage_error("cannot read %s", path);
	while (getline(&line, &cap, f) > 0) {
		char *tab1, *tab2, *w, *save;
		struct probe *p;
		int n = 0;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		tab1 = strchr(line, '\t');
		tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
		if (!tab2 || nprobes == MAX_PROBES)
			usage_error("%s: a line is not ID<TAB>TIMEOUT<TAB>COMMAND (or too many)", path);
		*tab1 = *tab2 = 0;
		p = &probes[nprobes++];
		p->id = strdup(line);
		p->timeout = atoi(tab1 + 1);
		if (p->timeout <= 0)
			usage_error("%s: a timeout is not a positive number of seconds", path);
		for (w = strtok_r(tab2 + 1, " ", &save); w && n < MAX_ARGS; w = strtok_r(NULL, " ", &save))
			p->argv[n++] = strdup(w);
		if (n == 0 || w)
			usage_error("%s: a command is empty or has too many words", path);
	}
	free(line);
	fclose(f);
}

static void put_escaped(const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (buf[i]) {
		case '\\': fputs("\\\\", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		case '\r': break;
		default: putchar(buf[i]);
		}
	}
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run(const struct probe *p)
{
	static char out[1 << 16];
	size_t len = 0;
	int fd[2], status, timed_out = 0;
	posix_spawn_file_actions_t fa;
	double deadline;
	pid_t pid;
	int err;

	if (pipe2(fd, O_CLOEXEC))
		die("pipe2: %s", errno_name(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
	fflush(stdout);
	err = posix_spawn(&pid, p->argv[0], &fa, NULL, p->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (err) {
		int n = snprintf(out, sizeof(out), "benchrun: cannot run %s: %s\n", p->argv[0],
				 errno_name(err));

		printf("BENCH\t%s\texit 127\t", p->id);
		put_escaped(out, n);
		putchar('\n');
		close(fd[0]);
		return;
	}
	deadline = mono_s() + p->timeout;
	for (;;) {
		struct pollfd pfd = { fd[0], POLLIN, 0 };
		double left = deadline - mono_s();
		ssize_t n;

		if (!timed_out && left <= 0) {
			kill(pid, SIGKILL);
			timed_out = 1;
		}
		if (poll(&pfd, 1, timed_out ? -1 : (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", errno_name(errno));
		}
		if (!pfd.revents)
			continue;
		n = read(fd[0], out + len, sizeof(out) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
		if (len == sizeof(out))	/* far more than a probe says: keep the start */
			break;
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", errno_name(errno));
	if (timed_out)
		printf("BENCH\t%s\ttimeout %d\t", p->id, p->timeout);
	else if (WIFSIGNALED(status))
		printf("BENCH\t%s\tsignal %d\t", p->id, WTERMSIG(status));
	else
		printf("BENCH\t%s\texit %d\t", p->id, WEXITSTATUS(status));
	put_escaped(out, len);
	putchar('\n');
	fflush(stdout);
}

/* As UML's init, nothing has brought the loopback interface up: the TCP
 * probes (harness/bench/sockrtt.c) need it. What `ip link set lo up` does;
 * a failure leaves them to say "n/a" or fail on their own. */
static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		return;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			fprintf(stderr, "benchrun: lo up: %s\n", errno_name(errno));
	}
	close(fd);
}

int main(int argc, char **argv)
{
	const char *list = getenv("BENCH_LIST");

	/* As UML's init, the list comes from the kernel command line's
	 * BENCH_LIST=PATH (the environment), and the arguments are the ones
	 * UML adds (root=, console=): run the whole list. */
	if (getpid() == 1 && list) {
		argc = 1;
		loopback_up();
	}
	else if (argc < 2)
		usage_error("%s", "usage: benchrun LIST [ID...]");
	else
		list = argv[1];
	load(list);
	if (argc <= 2) {
		for (int i = 0; i < nprobes; i++)
			run(&probes[i]);
	} else {
		for (int a = 2; a < argc; a++) {
			int i;

			for (i = 0; i < nprobes && strcmp(probes[i].id, argv[a]); i++)
				;
			if (i == nprobes)
				usage_error("no probe %s in the list", argv[a]);
			run(&probes[i]);
		}
	}
	fflush(stdout);
	if (getpid() == 1) {	/* UML's init: power off rather than panic */
		sync();
		reboot(RB_POWER_OFF);
	}
	return 0;
}
