/*
 * arch/boot.c: main(), the command line, and the process around the kernel.
 *
 * Boot order (docs/design.md, "Traps"): check the host, install the host signal
 * handlers, enable Syscall User Dispatch, create the host timer, then leave
 * main's stack for the idle task's kernel stack, where start_kernel() runs
 * and never returns. umk ends through os_exit() when pid 1 is gone.
 */
#include "host.h"

#include <asm/prctl.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#include <umk/entry.h>
#include <umk/kernel.h>
#include <umk/os.h>

#ifdef UMK_COVERAGE
void __gcov_dump(void);		/* libgcov's */
#endif

#define UMK_VERSION "0.1.0"

extern char **environ;

static void usage(FILE *f)
{
	fputs("usage: umk [--trace[=FILE]] [--trace-format=FMT] [--timeline FILE]\n"
	      "           [--clock=CLOCK] [--nofsgsbase] [--rw DIR]... [--net=NET]\n"
	      "           [--inject=CALL#N:SIG]\n"
	      "           [--help] [--version] PROGRAM [ARG...]\n"
	      "\n"
	      "Run PROGRAM, an x86-64 Linux executable (static or dynamic) or a #!\n"
	      "script, as pid 1 of the umk kernel.\n"
	      "umk exits with PROGRAM's exit status, or 128+N if a signal N killed it.\n"
	      "\n"
	      "  --trace        write one line per kernel event to stderr\n"
	      "  --trace=FILE   write them to FILE instead\n"
	      "  --trace-format=FMT  text (the default), json (one JSON object per\n"
	      "                 line) or chrome (Chrome trace-event format, for\n"
	      "                 Perfetto and chrome://tracing, drawn by umk-trace)\n"
	      "  --timeline FILE, --timeline=FILE\n"
	      "                 draw the run in FILE as an SVG picture: a lane per\n"
	      "                 task with its states, signals, handlers and restart\n"
	      "                 decisions over time (drawn by umk-trace, complete\n"
	      "                 when umk exits)\n"
	      "  --clock=host   time is the host's (the default)\n"
	      "  --clock=virtual  time stands still while a task can run and jumps\n"
	      "                 to the next timer when none can: the same run gives\n"
	      "                 the same trace every time\n"
	      "  --nofsgsbase   switch the FS base with the host's arch_prctl, as on a\n"
	      "                 host without FSGSBASE, even where rdfsbase/wrfsbase\n"
	      "                 work (as Linux's nofsgsbase boot parameter); programs\n"
	      "                 are then told (AT_HWCAP2) not to use them\n"
	      "  --rw DIR, --rw=DIR\n"
	      "                 make the host directory DIR writable inside umk, at\n"
	      "                 the same path (the rest of the host's files are\n"
	      "                 read-only; /tmp and /dev/shm are umk's own, in memory)\n"
	      "  --inject=CALL#N:SIG\n"
	      "                 while the Nth sleeping occurrence of system call\n"
	      "                 CALL (any task, counted as in the trace) sleeps, umk\n"
	      "                 sends SIG (SIGCHLD, CHLD or 17) to that thread, or\n"
	      "                 with SIG 'stop' SIGSTOP to its process and SIGCONT\n"
	      "                 10 ms later: read#3:SIGCHLD, epoll_wait#1:stop\n"
	      "  --net=host     AF_INET and AF_INET6 sockets are the host's TCP and\n"
	      "                 UDP (the default)\n"
	      "  --net=none     no network: socket(AF_INET or AF_INET6) fails with\n"
	      "                 EAFNOSUPPORT, as on a Linux built without IPv4\n"
	      "  --help         show this help\n"
	      "  --version      show the version\n"
	      "\n"
	      "umk's own exit statuses: 2 usage error, 125 umk failed (host lacks\n"
	      "Syscall User Dispatch, or a kernel oops), 126 PROGRAM cannot be loaded,\n"
	      "127 PROGRAM not found.\n",
	      f);
}

static __noreturn void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "umk: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try 'umk --help')\n");
	exit(UMK_EXIT_USAGE);
}

/* SUD (Linux 5.11) is all umk needs of the host. FSGSBASE only makes the
 * FS base cheaper to switch (arch/fsbase.c). */
static void check_host(void)
{
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0)) {
		fprintf(stderr, "umk: this host lacks Syscall User Dispatch (Linux 5.11 or later "
				"with CONFIG_GENERIC_ENTRY): %s\n", strerror(errno));
		os_exit(UMK_EXIT_FAILURE);	/* the renderers finish first */
	}
}

/* glibc registered an rseq area for umk's host thread (for sched_getcpu,
 * which umk never calls), and the host updates a registered area on every
 * signal it delivers: every trap. Unregistered, a trap costs what it costs
 * a program without rseq. The length must be the one glibc registered:
 * 32 (the original area), or __rseq_size where a larger one was; here
 * __rseq_size is 20, the features in use. Failing leaves it registered:
 * slower, nothing else. */
static void host_rseq_off(void)
{
	unsigned long tp;	/* the thread pointer, asked of the host: umk's
				 * own code never reads %fs (the wall) */
	void *area;

	if (!__rseq_size || syscall(SYS_arch_prctl, ARCH_GET_FS, &tp))
		return;		/* not registered (glibc.pthread.rseq=0) */
	area = (char *)tp + __rseq_offset;
	if (syscall(SYS_rseq, area, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG))
		syscall(SYS_rseq, area, __rseq_size, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
}

/* The command line's options for the kernel (include/umk/entry.h). */
static struct boot_options boot_options;

static void boot_kernel(void *arg)
{
	start_kernel(arg);
}

/* Events go to fd as they happen, in JSON lines or text. */
static void add_trace_sink(int fd, bool json, const char *name)
{
	struct boot_options *o = &boot_options;

	if (o->nr_trace_sinks == BOOT_MAX_TRACE_SINKS)
		panic("add_trace_sink: more than %d", BOOT_MAX_TRACE_SINKS);
	o->trace_sinks[o->nr_trace_sinks].fd = fd;
	o->trace_sinks[o->nr_trace_sinks].json = json;
	o->trace_sinks[o->nr_trace_sinks].name = name;
	o->nr_trace_sinks++;
}


/* --clock=virtual promises the same trace run after run, and the trace
 * shows addresses (a handler's, a frame's): run umk again with the host's
 * address-space randomisation off, as `setarch -R` (and gdb) would. */
static void fixed_addresses(char **argv)
{
	int persona = personality(0xffffffff);
	int i;

	/* Before any option has opened a file: the new image opens its own. */
	for (i = 1; argv[i] && argv[i][0] == '-' && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--clock=virtual"))
			break;
		if ((!strcmp(argv[i], "--timeline") || !strcmp(argv[i], "--rw")) && argv[i + 1])
			i++;		/* its FILE or DIR */
	}
	if (!argv[i] || strcmp(argv[i], "--clock=virtual"))
		return;

	if (persona < 0 || (persona & ADDR_NO_RANDOMIZE))
		return;
	if (personality(persona | ADDR_NO_RANDOMIZE) < 0)
		return;
	execv("/proc/self/exe", argv);
	/* Not fatal: the run is still correct, its addresses just vary. */
	personality(persona);
}

/* A file umk writes (--trace=FILE, --timeline): one that cannot be created
 * is a usage error naming it. */
static int open_output(const char *file)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0) {
		fprintf(stderr, "umk: %s: %s\n", file, strerror(errno));
		exit(UMK_EXIT_USAGE);
	}
	return fd;
}

/* --rw DIR: an existing host directory, by its absolute path without
 * symlinks, as the kernel mounts it (kernel/fs/namespace.c). */
static void add_rw_dir(const char *dir)
{
	struct boot_options *o = &boot_options;
	struct stat st;
	char *abs;

	if (o->nr_rw_dirs == BOOT_MAX_RW_DIRS)
		usage_error("more than %s --rw directories", "8");
	abs = realpath(dir, NULL);
	if (!abs || stat(abs, &st)) {
		fprintf(stderr, "umk: --rw %s: %s\n", dir, strerror(errno));
		exit(UMK_EXIT_USAGE);
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "umk: --rw %s: %s\n", dir, strerror(ENOTDIR));
		exit(UMK_EXIT_USAGE);
	}
	o->rw_dirs[o->nr_rw_dirs++] = abs;
}

/* --trace-format: text and JSON lines come from the kernel; the Chrome
 * trace is drawn by umk-trace from JSON lines. */
enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CHROME };

static enum format parse_trace_format(const char *fmt)
{
	if (!strcmp(fmt, "text"))
		return FORMAT_TEXT;
	if (!strcmp(fmt, "json"))
		return FORMAT_JSON;
	if (!strcmp(fmt, "chrome"))
		return FORMAT_CHROME;
	usage_error("unknown trace format '%s': text, json or chrome", fmt);
}

/* A renderer that writes out_fd, fed JSON lines; opt is the option that
 * wants it. A missing tool is a usage error: umk was not built whole. */
static void start_renderer(const char *cmd, int out_fd, const char *opt)
{
	int fd = os_render_start(cmd, out_fd);

	if (fd < 0) {
		fprintf(stderr, "umk: %s: %s (%s needs it)\n", os_render_tool(), strerror(-fd), opt);
		os_exit(UMK_EXIT_USAGE);	/* a renderer already started finishes */
	}
	close(out_fd);
	add_trace_sink(fd, true, opt);
}

int main(int argc, char **argv)
{
	bool nofsgsbase = false;
	int trace_fd = -1, timeline_fd = -1;
	const char *trace_name = NULL;
	enum format format = FORMAT_TEXT;
	int i, injected = 0;

	fixed_addresses(argv);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			puts("umk " UMK_VERSION);
			return 0;
		} else if (!strcmp(a, "--trace")) {
			trace_fd = dup(2);
			trace_name = "stderr";
		} else if (!strncmp(a, "--trace=", 8)) {
			trace_fd = open_output(a + 8);
			trace_name = a + 8;
		} else if (!strcmp(a, "--clock=virtual")) {
			boot_options.clock_virtual = true;
		} else if (!strcmp(a, "--nofsgsbase")) {
			nofsgsbase = true;
		} else if (!strcmp(a, "--clock=host")) {
			boot_options.clock_virtual = false;
		} else if (!strncmp(a, "--clock=", 8)) {
			usage_error("unknown clock '%s': host or virtual", a + 8);
		} else if (!strcmp(a, "--net=none")) {
			boot_options.net_none = true;
		} else if (!strcmp(a, "--net=host")) {
			boot_options.net_none = false;
		} else if (!strncmp(a, "--net=", 6)) {
			usage_error("unknown network '%s': host or none", a + 6);
		} else if (!strncmp(a, "--inject=", 9)) {
			const char *why;
			char msg[256];

			if (injected++)
				usage_error("%s--inject given twice: one interruption per run", "");
			why = inject_setup(a + 9);
			if (why) {
				snprintf(msg, sizeof(msg), "--inject=%s %s", a + 9, why);
				usage_error("%s", msg);
			}
		} else if (!strncmp(a, "--trace-format=", 15)) {
			format = parse_trace_format(a + 15);
		} else if (!strcmp(a, "--rw") || !strncmp(a, "--rw=", 5)) {
			if (a[4] != '=' && i + 1 == argc)
				usage_error("%s--rw needs a DIR", "");
			add_rw_dir(a[4] == '=' ? a + 5 : argv[++i]);
		} else if (!strcmp(a, "--timeline") || !strncmp(a, "--timeline=", 11)) {
			if (a[10] != '=' && i + 1 == argc)
				usage_error("%s--timeline needs a FILE", "");
			timeline_fd = open_output(a[10] == '=' ? a + 11 : argv[++i]);
		} else {
			usage_error("unknown option '%s'", a);
		}
	}
	if (i >= argc)
		usage_error("%sno PROGRAM given", "");
	if (trace_fd >= 0 && format == FORMAT_CHROME)
		start_renderer("chrome", trace_fd, "--trace-format=chrome");
	else if (trace_fd >= 0)
		add_trace_sink(trace_fd, format == FORMAT_JSON, trace_name);
	if (timeline_fd >= 0)
		start_renderer("timeline", timeline_fd, "--timeline");

	check_host();
	boot_options.argv = argv + i;
	boot_options.envp = environ;
	boot_options.cwd = getcwd(NULL, 0);
	if (!boot_options.cwd)
		boot_options.cwd = "/";
	/* Modes of files made in --rw directories are the program's, its
	 * umask already applied by the kernel: the host's must not apply too. */
	umask(0);

	host_rseq_off();
	fs_base_init(nofsgsbase);
	trap_init();
	sud_enable();
	time_init(boot_options.clock_virtual ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC);
	if (boot_options.clock_virtual)
		os_random_fix();
	irq_init();
	host_tty_init();
	void *stack = arch_alloc_kstack();
	if (!stack)
		panic("main: no memory for the idle task's stack");
	arch_boot_switch(idle_task_init(stack), boot_kernel, &boot_options);
}

void os_exit(int status)
{
	os_render_finish();
	os_tty_restore();
	irq_exit_host();
	fflush(stdout);
#ifdef UMK_COVERAGE
	__gcov_dump();	/* make COVERAGE=1: kernel/'s counters, before _exit */
#endif
	_exit(status);
}

void os_console_err(const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(2, s, n);

		if (w <= 0)
			break;
		s += w;
		n -= w;
	}
}

void os_console_err_try(const char *s)
{
	struct pollfd p = { .fd = 2, .events = POLLOUT };

	if (poll(&p, 1, 0) == 1 && (p.revents & POLLOUT))
		os_console_err(s);
}

void panic(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "umk: kernel panic: ");
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	va_end(ap);
	strcat(buf, "\n");
	os_console_err(buf);
	os_exit(UMK_EXIT_FAILURE);
}

int os_getrlimit(int resource, unsigned long *cur, unsigned long *max)
{
	struct rlimit r;

	if (getrlimit(resource, &r))
		return -errno;
	*cur = r.rlim_cur;
	*max = r.rlim_max;
	return 0;
}
