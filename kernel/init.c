/*
 * kernel/init.c: start_kernel() and pid 1 (init/main.c).
 *
 * arch/ boots onto the idle task's kernel stack and calls start_kernel(),
 * which creates pid 1 and becomes the idle loop. pid 1 starts in kernel mode,
 * loads the program like execve, and enters user mode through the frame
 * crafted on its kernel stack. If the program cannot be loaded, umk says why
 * in one line and exits: 127 when it does not exist, 126 otherwise.
 */
#include <umk/entry.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/mm.h>
#include <umk/net.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/tty.h>
#include <umk/vdso.h>

static char **init_argv, **init_envp;

static void kernel_init(void *unused)
{
	struct task_struct *tsk = current;
	const char *why = NULL;
	char msg[512];
	int err;

	schedule_tail(NULL);
	tsk->fs = copy_fs_struct(idle_task->fs);	/* as if forked from it */
	tsk->regs = arch_init_user_frame(tsk, NULL);
	tsk->orig_ax = -1;
	err = do_execve(init_argv[0], (const char *const *)init_argv,
			(const char *const *)init_envp, false, tsk->regs, &why);
	if (err) {
		ksnprintf(msg, sizeof(msg), "umk: %s: %s\n", init_argv[0],
			 why ? why : errno_name(-err));
		os_console_err(msg);
		os_exit(err == -ENOENT ? UMK_EXIT_NOENT : UMK_EXIT_NOEXEC);
	}
	exit_to_user_mode_loop(tsk->regs);
	arch_enter_user(tsk->regs);
}

/*
 * PROGRAM on umk's command line is a host file. If umk's own file systems
 * hide it (a program under /tmp, which is umk's tmpfs), its host directory
 * is shown read-only at the same path, as --rw would show it writable, so
 * that pid 1 can be loaded and finds its neighbours where it was told.
 */
static void show_program_dir(const char *program, const char *cwd)
{
	char path[PATH_MAX], *slash;
	struct stat st;
	struct path p;
	int n;

	n = program[0] == '/' ? ksnprintf(path, sizeof(path), "%s", program)
			      : ksnprintf(path, sizeof(path), "%s/%s", cwd, program);
	if (n <= 0 || n >= (int)sizeof(path) || os_lstat(path, &st))
		return;		/* not on the host: exec says why */
	if (!kern_path_at(AT_FDCWD, path, 0, &p)) {
		path_put(&p);
		return;		/* seen already */
	}
	slash = strrchr(path, '/');
	if (slash == path)
		return;
	*slash = '\0';
	vfs_mount_host_dir(path, true);
}

void start_kernel(const struct boot_options *opts)
{
	int i;

	init_argv = opts->argv;
	init_envp = opts->envp;
	clock_virtual = opts->clock_virtual;
	for (i = 0; i < opts->nr_trace_sinks; i++)
		trace_add_sink(opts->trace_sinks[i].fd,
			       opts->trace_sinks[i].json ? TRACE_JSON : TRACE_TEXT,
			       opts->trace_sinks[i].name);
	ktime_since_boot();
	i = mm_init();
	if (i) {
		char msg[160];

		ksnprintf(msg, sizeof(msg),
			 "umk: cannot reserve the user window at %#lx on the host: %s\n",
			 USER_WINDOW_START, errno_name(i) ? errno_name(i) : "error");
		os_console_err(msg);
		os_exit(UMK_EXIT_FAILURE);
	}
	vdso_init();
	sched_init();
	vfs_init(opts->rw_dirs, opts->nr_rw_dirs, opts->cwd);
	show_program_dir(opts->argv[0], opts->cwd);
	console_tty_init();
	af_unix_init();		/* the socket families (include/umk/net.h) */
	inet_host_init(!opts->net_none);
	create_init_task(kernel_init, NULL);
	cpu_idle();
}
