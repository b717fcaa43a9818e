/*
 * kernel/fs/exec.c: execve (fs/exec.c); the ELF part is binfmt_elf.c.
 *
 * do_execve() loads an x86-64 ELF program, static or dynamic (ET_DYN: a
 * static-pie or a PIE; or ET_EXEC at its link address), with the dynamic
 * loader its PT_INTERP names (load_interp), or a "#!" script's interpreter,
 * into a new mm, builds the initial stack as Linux's create_elf_tables
 * does, and only then, past the point of no return, replaces current->mm
 * and the user registers. Every failure before that leaves the caller's old
 * mm untouched and returns Linux's errno with a reason for a human.
 *
 * The steps follow Linux's order, so that a program passing both a bad
 * argv and a bad file sees the errno Linux gives:
 *   open_exec          ENOENT, EACCES
 *   copy_args          EFAULT, E2BIG (into a kernel buffer)
 *   check_elf_headers  ENOEXEC
 *   setup_arg_pages    ENOMEM (the new mm is in the window from here)
 *   load_elf_binary    ENOMEM, EIO
 *   create_elf_tables  argc, argv, envp, auxv
 *   exec_mmap          the point of no return
 *
 * The strings are copied out of the old address space before the new one
 * takes the user window (switch_mm): the new stack, image and brk area are
 * built in place there, and the old mm comes back if anything fails.
 */
#include <umk/elf.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/ptrace.h>
#include <umk/resource.h>
#include <umk/rseq.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/uapi/ptrace.h>

#include "binfmts.h"


/* Past the point of no return, once current->mm is the new program's:
 * handlers live in the old program's memory, so caught ones go back to
 * SIG_DFL (a table shared with other threads is copied first, as Linux's
 * unshare_sighand), the altstack is gone, and close-on-exec fds close (a
 * table shared under CLONE_FILES is copied first, unshare_files). */
void setup_new_exec(void)
{
	struct task_struct *tsk = current;

	if (tsk->sighand->count > 1) {
		tsk->sighand->count--;
		tsk->sighand = copy_sighand(tsk->sighand);
	}
	flush_signal_handlers(tsk);
	set_personality_64bit();
	/* POSIX timers and their pending signals do not survive exec
	 * (begin_new_exec); ITIMER_REAL does. */
	exit_itimers(tsk->signal);
	flush_itimer_signals();
	tsk->sas_ss_sp = 0;
	tsk->sas_ss_size = 0;
	tsk->sas_ss_flags = SS_DISABLE;
	resume_flush(tsk);
	if (tsk->files->count > 1) {
		struct files_struct *old = tsk->files;

		tsk->files = dup_fd(old);
		put_files_struct(old);
	}
	do_close_on_exec(tsk->files);
}

/* The reason for the last failure. One CPU and no sleeping inside
 * do_execve: it stays valid until the next exec. */
static char exec_why[256];

int exec_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(exec_why, sizeof(exec_why), fmt, ap);
	va_end(ap);
	return err;
}

const char *err_name(int err)
{
	const char *s = errno_name(err);

	return s ? s : "error";
}

/* Read exactly n bytes at off; the caller has checked off + n <= size, so
 * a short read means the file changed under us. */
int read_exact(struct file *f, void *buf, size_t n, u64 off)
{
	char *p = buf;

	while (n) {
		ssize_t r = f->f_op->read_kernel(f, p, n, (s64)off);

		if (r < 0)
			return (int)r;
		if (r == 0)
			return -EIO;
		p += r;
		off += r;
		n -= r;
	}
	return 0;
}

struct hostmem *exec_file_pages(struct file *f)
{
	int err;

	return f->f_op->get_hostmem ? f->f_op->get_hostmem(f, &err) : NULL;
}

/* fs/exec.c's do_open_execat: a regular file with execute permission,
 * found through the process's view of the files (its cwd, umk's tmpfs,
 * the host's read-only root: kernel/fs/namei.c). */
static int open_exec(struct linux_binprm *bprm)
{
	const char *path = bprm->interp;
	struct file *f = bprm->file;
	int err;

	/* execveat opened the first file itself */
	if (f)
		goto check;
	if (strnlen(path, PATH_MAX) >= PATH_MAX)
		return exec_fail(-ENAMETOOLONG, "path too long");
	f = filp_open(path, O_RDONLY | __FMODE_EXEC, 0, &err);
	if (!f && err == -ENOENT)
		return exec_fail(err, "no such file");
	if (!f)
		return exec_fail(err, "cannot open it (%s)", err_name(err));
	bprm->file = f;
check:
	if (!f->f_inode || !S_ISREG(f->f_inode->i_mode))
		return exec_fail(-EACCES, "not a regular file");
	err = inode_permission(&f->f_path, MAY_EXEC);
	if (err == -EACCES)
		return exec_fail(err, "permission denied: not executable");
	if (err)
		return exec_fail(err, "cannot check permissions (%s)", err_name(err));
	if (!f->f_op->read_kernel)
		return exec_fail(-EACCES, "a file umk cannot read a program from");
	/* no writer while it loads (do_open_execat) */
	if (deny_write_access(f->f_inode))
		return exec_fail(-ETXTBSY, "it is open for writing");
	bprm->write_denied = true;
	bprm->size = f->f_inode->i_size;
	return 0;
}

/* Let the file being loaded go (do_close_execat). */
static void close_exec_file(struct linux_binprm *bprm)
{
	if (bprm->write_denied)
		allow_write_access(bprm->file->f_inode);
	bprm->write_denied = false;
	fput(bprm->file);
	bprm->file = NULL;
}

void set_mm_exe_file(struct mm_struct *mm, struct file *file)
{
	if (mm->exe_file) {
		allow_write_access(mm->exe_file->f_inode);
		fput(mm->exe_file);
	}
	mm->exe_file = NULL;
	/* cannot fail: file is a program running or being loaded, so it
	 * already has no writers */
	if (file && !deny_write_access(file->f_inode))
		mm->exe_file = get_file(file);
}

/* Count a NULL-terminated array of string pointers (fs/exec.c's count).
 * Each pointer costs 8 bytes of the argument space, hence the bound. */
/* argv[i], from the caller's memory or the kernel's (get_user_arg_ptr). */
static int get_arg_ptr(struct linux_binprm *bprm, const char *const *argv, int i, const char **s)
{
	if (bprm->from_user)
		return get_user(*s, (const char **)argv + i);
	*s = argv[i];
	return 0;
}

static int count(struct linux_binprm *bprm, const char *const *argv)
{
	int i;

	if (!argv)
		return 0;
	for (i = 0;; i++) {
		const char *s;

		if (get_arg_ptr(bprm, argv, i, &s))
			return exec_fail(-EFAULT, "bad address in argv or envp");
		if (!s)
			return i;
		if (i >= MAX_ARG_STRINGS || (unsigned long)i >= ARG_LIMIT / sizeof(void *))
			return exec_fail(-E2BIG, "argument list too long");
	}
}

/* Append one string at dst + *used, with at most limit bytes in all. */
static int copy_string(struct linux_binprm *bprm, char *dst, unsigned long *used,
		       unsigned long limit, const char *src, bool user)
{
	unsigned long room = limit - *used;
	long len;

	if (!room)
		return exec_fail(-E2BIG, "argument list too long");
	if (user) {
		len = strncpy_from_user(dst + *used, src, (long)min(room, MAX_ARG_STRLEN));
		if (len == -EFAULT)
			return exec_fail(-EFAULT, "bad address in argv or envp");
		if (len < 0)
			return exec_fail(-E2BIG, "argument list too long");
	} else {
		len = (long)strnlen(src, MAX_ARG_STRLEN);
		if ((unsigned long)len + 1 > min(room, MAX_ARG_STRLEN))
			return exec_fail(-E2BIG, "argument list too long");
		memcpy(dst + *used, src, len + 1);
	}
	*used += len + 1;
	return 0;
}

static int copy_strings(struct linux_binprm *bprm, int from, int n, const char *const *argv,
			char *dst, unsigned long *used, unsigned long limit)
{
	int i, err;

	for (i = from; i < n; i++) {
		const char *s;

		if (get_arg_ptr(bprm, argv, i, &s))
			return exec_fail(-EFAULT, "bad address in argv or envp");
		err = copy_string(bprm, dst, used, limit, s, bprm->from_user);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Copy the argument and environment strings out of the caller's memory
 * (Linux's copy_strings) into bprm->strings, a kernel buffer: the new
 * stack is in the new address space, which is not in the window while the
 * old one is. In the order the new stack wants them: argv strings, envp
 * strings, the filename (for AT_EXECFN).
 */
static int copy_args(struct linux_binprm *bprm)
{
	unsigned long ptr_size, limit, used = 0, argv_end, envp_end;
	unsigned long stack_size = rlimit(RLIMIT_STACK);
	int err, i, skip, nargs;

	bprm->argc = count(bprm, bprm->argv);
	if (bprm->argc < 0)
		return bprm->argc;
	bprm->envc = count(bprm, bprm->envp);
	if (bprm->envc < 0)
		return bprm->envc;
	/* RLIMIT_STACK (exec keeps the limits: current's are the new
	 * program's); strings and pointers take at most a quarter of it, and
	 * of STACK_SIZE (Linux's bprm_stack_limits, with ARG_MAX, 128 KiB, a
	 * quarter of STACK_SIZE_MIN, as its floor). */
	stack_size = min(max(stack_size, STACK_SIZE_MIN), STACK_SIZE_MAX) & ~(PAGE_SIZE - 1);
	bprm->stack_size = stack_size;
	/* A script's interpreter, argument and path replace argv[0]. */
	skip = bprm->drop_argv0 && bprm->argc > 0;
	nargs = bprm->nprefix + bprm->argc - skip;
	ptr_size = ((unsigned long)max(nargs, 1) + bprm->envc) * sizeof(void *);
	if (min(ARG_LIMIT, stack_size / 4) <= ptr_size)
		return exec_fail(-E2BIG, "argument list too long");
	limit = min(ARG_LIMIT, stack_size / 4) - ptr_size;
	/* Up to 2 MiB, of which a few hundred bytes are used as a rule: a
	 * zeroed buffer cost the host a fault per page at every exec. */
	bprm->strings = kvmalloc(limit);

	for (i = 0; i < bprm->nprefix; i++) {
		err = copy_string(bprm, bprm->strings, &used, limit, bprm->prefix[i], false);
		if (err)
			return err;
	}
	err = copy_strings(bprm, skip, bprm->argc, bprm->argv, bprm->strings, &used, limit);
	if (err)
		return err;
	bprm->argc = nargs;
	/* Linux 5.18+: an empty argv gets "" as argv[0], so that programs
	 * reading argv[1] never walk into envp. */
	if (bprm->argc == 0) {
		err = copy_string(bprm, bprm->strings, &used, limit, "", false);
		if (err)
			return err;
		bprm->argc = 1;
	}
	argv_end = used;
	err = copy_strings(bprm, 0, bprm->envc, bprm->envp, bprm->strings, &used, limit);
	if (err)
		return err;
	envp_end = used;
	err = copy_string(bprm, bprm->strings, &used, limit, bprm->filename, false);
	if (err)
		return err;
	bprm->strings_len = used;
	bprm->argv_len = argv_end;
	bprm->envp_len = envp_end - argv_end;
	return 0;
}

/*
 * Map the new stack at the top of the new address space, in the window
 * now, and put the strings at its top with one zero word above them, as
 * Linux leaves them before create_elf_tables. As Linux's setup_arg_pages,
 * the region holds the strings (here also the pointers and the auxiliary
 * vector create_elf_tables puts below them) and 128 KiB more, within the
 * stack limit; it is VM_GROWSDOWN, and grows on a fault below it up to
 * RLIMIT_STACK (expand_downwards, kernel/mm/vma.c). mmap's top-down search
 * starts below the stack and its growth gap (mm/util.c's mmap_base: the
 * stack limit, at least 128 MiB).
 */
static int setup_arg_pages(struct linux_binprm *bprm)
{
	struct mm_struct *mm = bprm->mm;
	unsigned long used = bprm->strings_len + (bprm->argc + bprm->envc + 4) * sizeof(void *);
	unsigned long size = ALIGN(used + 2 * PAGE_SIZE, PAGE_SIZE) + STACK_EXPAND;
	unsigned long top = STACK_TOP, base, gap;
	struct vm_area_struct *vma;

	size = min(size, bprm->stack_size);
	base = mm_map(mm, top - size, size, PROT_READ | PROT_WRITE, true, VMA_STACK);
	if (IS_ERR_VALUE(base))
		return exec_fail(-ENOMEM, "cannot map the %lu KiB stack", size >> 10);
	/* alone at the top of a new mm: nothing to merge with */
	vma = vma_above(mm, base);
	vma->vm_flags |= VM_GROWSDOWN;
	vma_tree_update(mm, vma);
	gap = min(max(rlimit(RLIMIT_STACK), 128UL << 20), (TASK_SIZE - USER_WINDOW_START) / 6 * 5);
	mm->mmap_base = ALIGN_DOWN(top - gap - (1UL << 20), PAGE_SIZE);
	bprm->stack_base = base;
	bprm->p = top - sizeof(void *) - bprm->strings_len;
	memcpy((void *)bprm->p, bprm->strings, bprm->strings_len);
	bprm->exec = bprm->p + bprm->argv_len + bprm->envp_len;
	return 0;
}

/*
 * The program's interpreter (PT_INTERP: the dynamic loader), loaded into
 * the new mm beside it as fs/binfmt_elf.c's load_elf_interp does: checked
 * as an ELF executable, placed where mmap would put it; the program starts
 * at its entry, and AT_BASE tells it where it is. An interpreter that is
 * missing is ENOENT; one that is not a usable ELF file, ELIBBAD.
 */
static int load_interp(struct linux_binprm *bprm)
{
	struct linux_binprm ib = {
		.filename = bprm->elf_interp, .mm = bprm->mm, .is_interp = true,
	};
	unsigned long lo = 0, hi = 0;
	char why[sizeof(exec_why)];
	struct file *f;
	int err;

	f = filp_open(bprm->elf_interp, O_RDONLY | __FMODE_EXEC, 0, &err);
	if (!f)
		return exec_fail(err, "its interpreter %s: %s", bprm->elf_interp,
				 err == -ENOENT ? "no such file" : err_name(err));
	ib.file = f;
	if (!f->f_inode || !S_ISREG(f->f_inode->i_mode) || !f->f_op->read_kernel)
		err = exec_fail(-EACCES, "not a regular file");
	else
		err = inode_permission(&f->f_path, MAY_EXEC);
	if (!err) {
		ib.size = f->f_inode->i_size;
		err = check_elf_headers(&ib, &lo, &hi);
		if (err == -ENOEXEC)
			err = -ELIBBAD;
	}
	if (!err)
		err = load_elf_binary(&ib, lo, hi);
	if (!err) {
		bprm->interp_base = ib.load_bias;
		bprm->interp_entry = ib.entry;
	} else {
		ksnprintf(why, sizeof(why), "%s", exec_why);
		exec_fail(err, "its interpreter %s: %s", bprm->elf_interp, why);
	}
	kfree(ib.phdrs);
	fput(f);
	return err;
}

/* kbasename(), truncated to TASK_COMM_LEN - 1 like __set_task_comm. */
static void set_task_comm(struct task_struct *tsk, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strnlen(base, sizeof(tsk->comm) - 1);
	memcpy(tsk->comm, base, n);
	tsk->comm[n] = '\0';
}

/*
 * Make the caller the only thread of its process (fs/exec.c's de_thread):
 * the others are killed and waited for, and a caller that is not the group
 * leader takes over the leader's pid and its place under the parent, the
 * old leader, now a zombie, being released unreported. -EINTR if the
 * caller is killed meanwhile.
 */
static int de_thread(struct task_struct *tsk)
{
	struct signal_struct *sig = tsk->signal;
	struct task_struct *leader = tsk->group_leader, *t, *n;
	int ret = 0;

	if (sig->nr_threads == 1 && thread_group_leader(tsk))
		return 0;
	sig->group_exec_task = tsk;
	zap_other_threads(tsk, sig);
	while (sig->nr_threads > 1) {
		set_current_state(TASK_KILLABLE);
		if (sigismember(&tsk->pending.signal, SIGKILL)) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	set_current_state(TASK_RUNNING);
	sig->group_exec_task = NULL;
	if (ret || thread_group_leader(tsk))
		return ret;

	/* Become the leader: its pid, its parent, its children. The old
	 * leader exited (nr_threads counts it no more): a zombie whose kernel
	 * stack is gone, so it can be released here. */
	trace_with(TR_TASK, &(struct trace_fields){ .other = leader->pid, .what = "exec" },
		   "exec: thread %d takes over pid %d", tsk->pid, leader->pid);
	change_pid(tsk, leader->pid);
	tsk->group_leader = tsk;
	sig->leader = tsk;
	tsk->real_parent = leader->real_parent;
	tsk->exit_signal = leader->exit_signal;
	list_add_tail(&tsk->sibling, &leader->sibling);
	list_del_init(&leader->sibling);
	list_for_each_entry_safe(t, n, &leader->children, sibling) {
		list_del_init(&t->sibling);
		t->real_parent = tsk;
		list_add_tail(&t->sibling, &tsk->children);
	}
	change_pid(leader, -leader->pid);	/* no longer found by pid */
	leader->exit_state = EXIT_DEAD;
	release_task(leader);
	return 0;
}

/* /proc/PID/exe: the absolute path of the file loaded (the interpreter of
 * a script), as Linux's d_path of mm->exe_file; glibc's loader reads it
 * for $ORIGIN. */
static void set_mm_exe_name(struct mm_struct *mm, struct linux_binprm *bprm)
{
	char *buf = kmalloc(PATH_MAX), *p;
	int err;

	p = d_path(&bprm->file->f_path, buf, PATH_MAX, &err);
	ksnprintf(mm->exe, sizeof(mm->exe), "%s", p ? p : bprm->interp);
	kfree(buf);
}

/*
 * The point of no return (fs/exec.c's exec_mmap and begin_new_exec). On a
 * 0 return from sys_execve, do_syscall_64 returns to user mode through the
 * replaced *regs; exec_mm_release has already woken a vfork parent, and
 * setup_new_exec has reset handlers and closed close-on-exec fds.
 */
static void exec_mmap(struct linux_binprm *bprm, struct pt_regs *regs)
{
	struct task_struct *tsk = current;
	struct mm_struct *old_mm = tsk->mm;

	exec_mm_release(tsk, old_mm);
	tsk->mm = bprm->mm;
	bprm->mm = NULL;
	/* The region the task found last is old_mm's, freed below: the new
	 * mm's seqnum may well equal the one the cache was taken at (Linux's
	 * vmacache_flush in exec_mmap). */
	tsk->vmacache = NULL;
	switch_mm(tsk->mm);	/* again, if de_thread slept */
	mmput(old_mm);
	set_mm_exe_name(tsk->mm, bprm);
	set_mm_exe_file(tsk->mm, bprm->file);
	/* fexecve's program is named after its file, not "/dev/fd/N" */
	set_task_comm(tsk, bprm->comm_from_dentry ? bprm->file->f_path.dentry->d_name
						  : bprm->filename);
	start_thread(regs, bprm->elf_interp ? bprm->interp_entry : bprm->entry, bprm->sp);
	setup_new_exec();
	tsk->did_exec = true;	/* setpgid on it is EACCES from now on */
	exec_creds(tsk);
	rseq_execve(tsk);
}

/* The exec of what bprm_in names (filename, argv, envp, and the file
 * already open for execveat), into *regs: 0, or -errno with why set to
 * the reason in words. */
static int bprm_execve(const struct linux_binprm *bprm_in, struct pt_regs *regs,
		       const char **why)
{
	struct linux_binprm bprm = *bprm_in;
	const char *path = bprm.filename;
	unsigned long lo = 0, hi = 0;
	pid_t old_vpid = current->pid;	/* the event's message (exec_binprm) */
	int err;

	if (!regs)
		panic("do_execve: no pt_regs to load %s into", path);
	exec_why[0] = '\0';
	/* The file, or the interpreter of a "#!" script (binfmt_script.c),
	 * or its interpreter... */
	for (;;) {
		err = open_exec(&bprm);
		if (err)
			goto out;
		err = load_script(&bprm);
		if (err <= 0)
			break;
		close_exec_file(&bprm);
	}
	if (err)
		goto out;
	err = copy_args(&bprm);
	if (err)
		goto out;
	err = check_elf_headers(&bprm, &lo, &hi);
	if (err)
		goto out;
	bprm.mm = mm_alloc();
	if (!bprm.mm) {
		err = exec_fail(-ENOMEM, "no host memory file for a new address space");
		goto out;
	}
	/* Build the new program in the window; the old one comes back there
	 * if anything fails. */
	switch_mm(bprm.mm);
	err = setup_arg_pages(&bprm);
	if (err)
		goto out;
	err = load_elf_binary(&bprm, lo, hi);
	if (!err && bprm.elf_interp)
		err = load_interp(&bprm);
	if (err)
		goto out;
	create_elf_tables(&bprm);
	err = de_thread(current);
	if (err)
		goto out;
	exec_mmap(&bprm, regs);
	trace_with(TR_TASK, &(struct trace_fields){ .other = current->pid, .what = "exec" }, "exec %s", path);
	/* PTRACE_EVENT_EXEC with the pid before de_thread, or the legacy SIGTRAP */
	ptrace_event(PTRACE_EVENT_EXEC, old_vpid);
out:
	if (bprm.file)
		close_exec_file(&bprm);
	kfree(bprm.phdrs);
	kfree(bprm.strings);
	kfree(bprm.elf_interp);
	while (bprm.nscripts)
		kfree(bprm.script_bufs[--bprm.nscripts]);
	if (bprm.mm) {
		switch_mm(current->mm);
		mmput(bprm.mm);
	}
	if (err) {
		trace(TR_TASK, "exec %s failed: %s: %s", path, err_name(err), exec_why);
		if (why)
			*why = exec_why;
	}
	return err;
}

/*
 * execveat (fs/exec.c's do_execveat_common and alloc_bprm): the program
 * is the file the fd names (AT_EMPTY_PATH with an empty path: fexecve), or
 * the path relative to the directory dfd names; AT_SYMLINK_NOFOLLOW
 * refuses a final symlink (ELOOP). Its name in the new program (argv's
 * filename, AT_EXECFN, what a script's interpreter opens) is then
 * "/dev/fd/N" or "/dev/fd/N/PATH"; when N is close-on-exec, no
 * interpreter could open it after the exec, so a script fails at once
 * with ENOENT.
 */
int do_execve(const char *path, const char *const *argv, const char *const *envp,
	      bool from_user, struct pt_regs *regs, const char **why)
{
	struct linux_binprm bprm = {
		.filename = path, .interp = path, .from_user = from_user,
		.argv = argv, .envp = envp,
	};

	return bprm_execve(&bprm, regs, why);
}

long sys_execveat(int dfd, const char __user *filename, const char __user *const __user *argv,
		  const char __user *const __user *envp, int flags)
{
	struct linux_binprm bprm = { .from_user = true, .argv = (const char *const *)argv,
				     .envp = (const char *const *)envp };
	char *path = kmalloc(PATH_MAX), *name = kmalloc(PATH_MAX + 32);
	struct path p;
	long ret;
	int err;

	ret = -EINVAL;
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		goto out;
	ret = strncpy_from_user(path, filename, PATH_MAX);
	if (ret < 0)
		goto out;
	if (dfd == AT_FDCWD || path[0] == '/') {
		ksnprintf(name, PATH_MAX, "%s", path);
	} else if (!path[0]) {
		struct file *f;

		ret = -ENOENT;
		if (!(flags & AT_EMPTY_PATH))
			goto out;
		ret = -EBADF;
		f = fget((unsigned int)dfd);
		if (!f)
			goto out;
		ksnprintf(name, PATH_MAX + 32, "/dev/fd/%d", dfd);
		bprm.comm_from_dentry = true;
		ret = -EACCES;	/* a pipe or a socket: no file to load */
		if (f->f_path.dentry)
			bprm.file = dentry_open(&f->f_path, O_RDONLY, &err);
		fput(f);
		if (!bprm.file)
			goto out;
	} else {
		ksnprintf(name, PATH_MAX + 32, "/dev/fd/%d/%s", dfd, path);
	}
	if (!bprm.file) {
		ret = user_path_at(dfd, filename, flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW, &p);
		if (ret)
			goto out;
		if (S_ISLNK(p.dentry->d_inode->i_mode)) {
			path_put(&p);
			ret = -ELOOP;
			goto out;
		}
		bprm.file = dentry_open(&p, O_RDONLY, &err);
		path_put(&p);
		ret = err;
		if (!bprm.file)
			goto out;
	}
	if (dfd != AT_FDCWD && path[0] != '/' && get_close_on_exec(current->files, dfd))
		bprm.path_inaccessible = true;
	bprm.filename = bprm.interp = name;
	ret = bprm_execve(&bprm, current->regs, NULL);
out:
	kfree(path);
	kfree(name);
	return ret;
}

long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp)
{
	char *path = kmalloc(PATH_MAX);
	long ret = strncpy_from_user(path, filename, PATH_MAX);

	if (ret >= 0)
		ret = do_execve(path, (const char *const *)argv, (const char *const *)envp, true,
				current->regs, NULL);
	kfree(path);
	return ret;
}
