/*
 * kernel/fork.c: creating tasks (kernel/fork.c of Linux).
 *
 * A thread or a vfork child (CLONE_VM) shares its parent's address space;
 * fork and clone without CLONE_VM give the child a copy (dup_mm,
 * kernel/mm/mm.c). A child starts in ret_from_fork() on its own kernel stack and
 * returns to user mode through a host frame crafted there, holding a copy of
 * the parent's registers with rax = 0.
 */
#include <umk/cred.h>
#include <umk/entry.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/ipc.h>
#include <umk/futex.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/rseq.h>
#include <umk/sched.h>
#include <umk/timer.h>
#include <umk/uapi/ptrace.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/tty.h>
#include <umk/uaccess.h>
#include <umk/uapi/sched.h>
#include <umk/sched/signal.h>

/* What umk implements; namespaces, pidfds and the like are refused. The
 * exit signal is no flag: clone passes it in the flags' low byte (CSIGNAL),
 * clone3 in a field of its own, and both hand it to kernel_clone apart.
 * CLONE_INTO_CGROUP is taken and refused later, as Linux refuses a file
 * that is no cgroup directory (copy_process). */
#define CLONE_SUPPORTED                                                        \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_VFORK |     \
	 CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |          \
	 CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | CLONE_DETACHED |         \
	 CLONE_UNTRACED | CLONE_CHILD_SETTID | CLONE_PTRACE |                  \
	 CLONE_CLEAR_SIGHAND | CLONE_INTO_CGROUP)

/* The deepest nesting of pid namespaces, the most pids clone3's set_tid may
 * name (Linux's MAX_PID_NS_LEVEL). umk has one pid namespace, level 0. */
#define MAX_PID_NS_LEVEL 32

/* What fork, vfork, clone and clone3 ask kernel_clone for (Linux's struct
 * kernel_clone_args, include/linux/sched/task.h). */
struct kernel_clone_args {
	u64 flags;		/* CLONE_*, without the exit signal */
	int exit_signal;	/* sent to the parent when the child exits; 0: none */
	unsigned long stack;	/* the child's stack pointer; 0: the parent's */
	unsigned long stack_size; /* clone3: stack is the lowest byte until
				   * clone3_stack_valid points it at the top */
	unsigned long tls;	/* CLONE_SETTLS: the child's FS base */
	int __user *parent_tid;	/* CLONE_PARENT_SETTID */
	int __user *child_tid;	/* CLONE_CHILD_SETTID, CLONE_CHILD_CLEARTID */
	pid_t *set_tid;		/* clone3: the child's pid in each pid namespace, */
	size_t set_tid_size;	/* innermost first; none when 0 */
};

/* threads-max (MAX_THREADS, include/umk/sched.h): umk's own budget of
 * kernel stacks; past it clone fails with -EAGAIN, as Linux's copy_process
 * does. Apart from it, RLIMIT_NPROC limits the tasks of every user together
 * (every task: nr_threads, which counts all but pid 1, plus one) to the
 * creator's soft limit. */
/* kernel.pid_max and kernel.threads-max (/proc/sys, kernel/fs/proc_sysctl.c):
 * the pids wrap at pid_max, Linux's default for one CPU; past max_threads
 * tasks (or umk's own budget, MAX_THREADS, whichever is lower) clone fails. */
int pid_max = PID_MAX_DEFAULT;
int max_threads = MAX_THREADS;
static int nr_threads;
static pid_t last_pid;

/* The next free pid after the last one, wrapping at pid_max; 0 if none
 * is free (cannot happen below MAX_THREADS, but never loop forever). */
static pid_t alloc_pid(void)
{
	int tries;

	for (tries = 0; tries < PID_MAX_LIMIT; tries++) {
		if (++last_pid >= pid_max)
			last_pid = 2;
		if (!find_task_by_pid(last_pid))
			return last_pid;
	}
	return 0;
}

struct sighand_struct *copy_sighand(struct sighand_struct *old)
{
	struct sighand_struct *sh = kmalloc(sizeof(*sh));

	sh->count = 1;
	init_waitqueue_head(&sh->signalfd_wqh);
	if (old)
		memcpy(sh->action, old->action, sizeof(sh->action));
	return sh;
}

/* A new process's signal_struct; its limits are a copy of old's (clone
 * without CLONE_THREAD), or the boot limits for pid 1 (old NULL). */
static struct signal_struct *alloc_signal(struct signal_struct *old)
{
	struct signal_struct *sig = kmalloc(sizeof(*sig));

	if (old) {
		memcpy(sig->rlim, old->rlim, sizeof(sig->rlim));
		sig->pgrp = old->pgrp;
		sig->session = old->session;
		sig->has_child_subreaper = old->has_child_subreaper || old->is_child_subreaper;
		sig->tty = old->tty;
	} else {
		rlimit_init(sig->rlim);
	}

	INIT_LIST_HEAD(&sig->thread_head);
	init_waitqueue_head(&sig->wait_chldexit);
	INIT_LIST_HEAD(&sig->shared_pending.list);
	itimer_init(sig);
	posix_timers_init(sig);
	return sig;
}

/* A task_struct and a kernel stack, with nothing else shared or copied. */
static struct task_struct *alloc_task(void)
{
	struct task_struct *p = kmalloc(sizeof(*p));
	void *stack = arch_alloc_kstack();

	if (!stack) {
		kfree(p);
		return NULL;
	}
	init_thread_info(p, stack);
	INIT_LIST_HEAD(&p->tasks);
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->thread_node);
	INIT_LIST_HEAD(&p->pending.list);
	INIT_LIST_HEAD(&p->pid_chain);
	INIT_LIST_HEAD(&p->ptraced);
	INIT_LIST_HEAD(&p->ptrace_entry);
	p->orig_ax = -1;
	p->sas_ss_flags = SS_DISABLE;
	return p;
}

/* The first thing every new task runs on its kernel stack. */
static void ret_from_fork(void *arg)
{
	struct task_struct *tsk = current;

	schedule_tail(NULL);
	if (tsk->set_child_tid)
		put_user(tsk->pid, tsk->set_child_tid);
	exit_to_user_mode_loop(tsk->regs);
	arch_enter_user(tsk->regs);
}

/* clone3's set_tid, as Linux's alloc_pid checks it in umk's one pid
 * namespace: one pid at most, in range, asked for by a task that may
 * (checkpoint_restore_ns_capable), and free. 0 or the error. */
static int check_set_tid(const struct kernel_clone_args *args)
{
	pid_t tid;

	if (!args->set_tid_size)
		return 0;
	if (args->set_tid_size > 1)	/* one pid per namespace level */
		return -EINVAL;
	tid = args->set_tid[0];
	if (tid < 1 || tid >= pid_max)
		return -EINVAL;
	if (!capable(CAP_SYS_ADMIN) && !capable(CAP_CHECKPOINT_RESTORE))
		return -EPERM;
	if (find_task_by_pid(tid))
		return -EEXIST;
	return 0;
}

static struct task_struct *copy_process(const struct kernel_clone_args *args, long *err)
{
	struct task_struct *parent = current, *p;
	struct mm_struct *mm = NULL;
	u64 flags = args->flags;

	/* A signal that came before the child exists is the parent's alone:
	 * take it first, then make the call again (Linux's copy_process, for
	 * a process group's signal: delivered before the fork, or after it to
	 * both). */
	recalc_sigpending();
	if (signal_pending(current)) {
		*err = -ERESTARTNOINTR;
		return NULL;
	}
	/* As Linux's copy_thread: a TLS that ARCH_SET_FS would refuse. */
	if ((flags & CLONE_SETTLS) && args->tls >= TASK_SIZE_MAX) {
		*err = -EPERM;
		return NULL;
	}
	if (nr_threads >= min(max_threads, MAX_THREADS)) {
		*err = -EAGAIN;
		return NULL;
	}
	/* Linux counts the real uid's tasks and exempts root (INIT_USER,
	 * CAP_SYS_RESOURCE); umk counts every task and exempts nobody
	 * (docs/linux-differences.md). */
	if ((unsigned long)nr_threads + 1 >= rlimit(RLIMIT_NPROC)) {
		*err = -EAGAIN;
		return NULL;
	}
	*err = check_set_tid(args);
	if (*err)
		return NULL;
	/* umk has no cgroup file system: no file is a cgroup directory, and
	 * Linux's cgroup_css_set_fork refuses any other with EBADF. */
	if (flags & CLONE_INTO_CGROUP) {
		*err = -EBADF;
		return NULL;
	}
	/* fork: a copy of the parent's address space (dup_mm). */
	if (!(flags & CLONE_VM)) {
		mm = dup_mm(parent->mm);
		if (!mm) {
			*err = -ENOMEM;
			return NULL;
		}
	}
	p = alloc_task();
	if (!p) {
		mmput(mm);
		*err = -ENOMEM;
		return NULL;
	}
	p->pid = args->set_tid_size ? args->set_tid[0] : alloc_pid();
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	p->personality = parent->personality;
	copy_creds(p, parent);
	p->no_new_privs = parent->no_new_privs;
	sched_fork(p, parent);
	rseq_fork(p, flags);
	p->blocked = parent->blocked;
	if ((flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM) {
		p->sas_ss_sp = parent->sas_ss_sp;
		p->sas_ss_size = parent->sas_ss_size;
		p->sas_ss_flags = parent->sas_ss_flags;
	}

	if (mm) {
		p->mm = mm;
	} else {
		p->mm = parent->mm;
		p->mm->users++;
	}
	if (flags & CLONE_FILES) {
		p->files = parent->files;
		p->files->count++;
	} else {
		p->files = dup_fd(parent->files);
	}
	copy_fs(flags, p);
	copy_semundo(flags, p);
	if (flags & CLONE_SIGHAND) {
		p->sighand = parent->sighand;
		p->sighand->count++;
	} else {
		p->sighand = copy_sighand(parent->sighand);
		/* clone3: handlers back to SIG_DFL, the ignored ones kept, as exec. */
		if (flags & CLONE_CLEAR_SIGHAND)
			flush_signal_handlers(p);
	}

	if (flags & CLONE_THREAD) {
		p->tgid = parent->tgid;
		p->group_leader = parent->group_leader;
		p->signal = parent->signal;
		p->exit_signal = -1;
	} else {
		p->tgid = p->pid;
		p->group_leader = p;
		p->signal = alloc_signal(parent->signal);
		p->signal->leader = p;
		p->exit_signal = args->exit_signal;
	}
	p->signal->nr_threads++;
	list_add_tail(&p->thread_node, &p->signal->thread_head);
	if (flags & (CLONE_PARENT | CLONE_THREAD))
		p->real_parent = parent->group_leader->real_parent;
	else
		p->real_parent = parent->group_leader;
	if (thread_group_leader(p))
		list_add_tail(&p->sibling, &p->real_parent->children);

	p->set_child_tid = flags & CLONE_CHILD_SETTID ? args->child_tid : NULL;
	p->clear_child_tid = flags & CLONE_CHILD_CLEARTID ? args->child_tid : NULL;

	p->regs = arch_init_user_frame(p, parent->regs);
	p->regs->ax = 0;
	if (args->stack)
		p->regs->sp = args->stack;
	if (flags & CLONE_SETTLS)
		set_user_fs_base(p->regs, args->tls);
	if (arch_setup_kthread(p, ret_from_fork, NULL))
		panic("copy_process: no host memory for pid %d's context", p->pid);
	list_add_tail(&p->tasks, &task_list);
	attach_pid(p);
	nr_threads++;
	return p;
}

int nr_tasks(void)
{
	return nr_threads + 1;	/* nr_threads does not count pid 1 */
}

/* A task is gone for good: reaped, or released by itself. */
void task_count_dec(void)
{
	nr_threads--;
}

static long kernel_clone(const struct kernel_clone_args *args)
{
	u64 flags = args->flags;
	struct completion vfork;
	struct task_struct *p;
	long err = 0;
	int trace;
	pid_t pid;

	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* Siblings of init would have no parent to reap them (copy_process). */
	if ((flags & CLONE_PARENT) && current->group_leader->real_parent == idle_task)
		return -EINVAL;

	/* The PTRACE_EVENT_* the tracer asked to see for this clone, if any. */
	trace = ptrace_clone_event(flags, args->exit_signal);
	p = copy_process(args, &err);
	if (!p)
		return err;
	ptrace_init_task(p, trace || (flags & CLONE_PTRACE));
	pid = p->pid;
	trace_with(TR_TASK, &(struct trace_fields){ .other = pid, .what = flags & CLONE_THREAD ? "thread" : "fork" },
		   "%s %d (mm %u%s)", flags & CLONE_THREAD ? "thread" : "fork", pid, p->mm->id,
		   flags & CLONE_VM ? ", shared" : ", copied");
	if (flags & CLONE_PARENT_SETTID)
		put_user(pid, args->parent_tid);
	if (flags & CLONE_VFORK) {
		init_completion(&vfork);
		p->vfork_done = &vfork;
	}
	wake_up_new_task(p);
	if (trace)
		ptrace_event(trace, pid);
	if (flags & CLONE_VFORK) {
		/* Until the child execs or exits, it runs on our memory and our
		 * stack: wait. Killed first, we must take our completion back
		 * from a child that would complete it on our freed stack
		 * (wait_for_vfork_done); p itself may be gone by then. */
		if (wait_for_completion_killable(&vfork)) {
			p = find_task_by_pid(pid);
			if (p && p->vfork_done == &vfork)
				p->vfork_done = NULL;
		} else {
			ptrace_event(PTRACE_EVENT_VFORK_DONE, pid);
		}
	}
	return pid;
}

/* clone's flags are 32 bits, the low byte the exit signal; the upper half
 * of the register is ignored, as Linux's lower_32_bits. */
long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       int __user *child_tidptr, unsigned long tls)
{
	struct kernel_clone_args args = {
		.flags = (u32)clone_flags & ~CSIGNAL,
		.exit_signal = clone_flags & CSIGNAL,
		.stack = newsp,
		.tls = tls,
		.parent_tid = parent_tidptr,
		.child_tid = child_tidptr,
	};

	return kernel_clone(&args);
}

/* clone3's struct (Linux's copy_clone_args_from_user): any size from the
 * first version's up to a page, the fields umk does not know zero. */
static long copy_clone_args_from_user(struct kernel_clone_args *kargs,
				      struct clone_args __user *uargs, size_t usize)
{
	struct clone_args args;
	long err;

	if (usize > PAGE_SIZE)
		return -E2BIG;
	if (usize < CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	err = copy_struct_from_user(&args, sizeof(args), uargs, usize);
	if (err)
		return err;
	if (args.set_tid_size > MAX_PID_NS_LEVEL)
		return -EINVAL;
	if (!args.set_tid != !args.set_tid_size)
		return -EINVAL;
	/* a signal number, in CSIGNAL's byte (valid_signal) */
	if ((args.exit_signal & ~(u64)CSIGNAL) || args.exit_signal > _NSIG)
		return -EINVAL;
	/* an fd (INT_MAX at most), in the third version's field */
	if ((args.flags & CLONE_INTO_CGROUP) &&
	    (args.cgroup > 0x7fffffff || usize < CLONE_ARGS_SIZE_VER2))
		return -EINVAL;

	kargs->flags = args.flags;
	kargs->exit_signal = args.exit_signal;
	kargs->stack = args.stack;
	kargs->stack_size = args.stack_size;
	kargs->tls = args.tls;
	kargs->parent_tid = (int __user *)args.parent_tid;
	kargs->child_tid = (int __user *)args.child_tid;
	kargs->set_tid_size = args.set_tid_size;
	if (args.set_tid_size &&
	    copy_from_user(kargs->set_tid, (const void __user *)args.set_tid,
			   args.set_tid_size * sizeof(pid_t)))
		return -EFAULT;
	return 0;
}

/* clone3's stack is given by its lowest byte and its size, both or neither,
 * inside the user address space (Linux's access_ok, a range check: the
 * memory need not be mapped yet); the child starts at its top. */
static bool clone3_stack_valid(struct kernel_clone_args *kargs)
{
	if (!kargs->stack)
		return !kargs->stack_size;
	if (!kargs->stack_size)
		return false;
	if (kargs->stack_size >= TASK_SIZE_MAX ||
	    kargs->stack >= TASK_SIZE_MAX - kargs->stack_size)
		return false;
	kargs->stack += kargs->stack_size;
	return true;
}

/* Linux's clone3_args_valid: clone3 has no use for the bits clone spent on
 * the exit signal and CLONE_DETACHED (CSIGNAL's but CLONE_NEWTIME, a
 * namespace umk refuses in kernel_clone). */
static bool clone3_args_valid(struct kernel_clone_args *kargs)
{
	if (kargs->flags & ~(0xffffffffULL | CLONE_CLEAR_SIGHAND | CLONE_INTO_CGROUP))
		return false;
	if (kargs->flags & (CLONE_DETACHED | (CSIGNAL & ~CLONE_NEWTIME)))
		return false;
	if ((kargs->flags & (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND)) ==
	    (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND))
		return false;
	/* a thread or a sibling signals its parent's parent, as the parent does */
	if ((kargs->flags & (CLONE_THREAD | CLONE_PARENT)) && kargs->exit_signal)
		return false;
	return clone3_stack_valid(kargs);
}

long sys_clone3(struct clone_args __user *uargs, size_t size)
{
	pid_t set_tid[MAX_PID_NS_LEVEL];
	struct kernel_clone_args kargs = { .set_tid = set_tid };
	long err;

	err = copy_clone_args_from_user(&kargs, uargs, size);
	if (err)
		return err;
	if (!clone3_args_valid(&kargs))
		return -EINVAL;
	return kernel_clone(&kargs);
}

long sys_fork(void)
{
	struct kernel_clone_args args = { .exit_signal = SIGCHLD };

	return kernel_clone(&args);
}

long sys_vfork(void)
{
	struct kernel_clone_args args = {
		.flags = CLONE_VFORK | CLONE_VM,
		.exit_signal = SIGCHLD,
	};

	return kernel_clone(&args);
}

/* The task gives up its memory (exit, exec): tell a vfork parent, and clear
 * the child tid word and wake its futex for pthread_join (mm_release). */
static void mm_release(struct task_struct *tsk)
{
	if (tsk->clear_child_tid) {
		if (!put_user(0, tsk->clear_child_tid))
			futex_wake((u32 __user *)tsk->clear_child_tid, 1);
		tsk->clear_child_tid = NULL;
	}
	if (tsk->vfork_done) {
		complete(tsk->vfork_done);
		tsk->vfork_done = NULL;
	}
}

void exec_mm_release(struct task_struct *tsk, struct mm_struct *old_mm)
{
	futex_exec_release(tsk);
	mm_release(tsk);
}

void exit_mm_release(struct task_struct *tsk, struct mm_struct *mm)
{
	futex_exit_release(tsk);
	mm_release(tsk);
}

/* pid 1: created by the idle task at boot, with the console as fds 0-2. */
struct task_struct *create_init_task(void (*fn)(void *), void *arg)
{
	struct task_struct *p = alloc_task();

	if (!p)
		panic("create_init_task: no memory");
	p->pid = p->tgid = alloc_pid();
	strcpy_comm(p, "init");
	p->group_leader = p;
	p->real_parent = idle_task;
	p->exit_signal = SIGCHLD;
	p->files = files_init_console();
	p->sighand = copy_sighand(NULL);
	p->signal = alloc_signal(NULL);
	p->signal->leader = p;
	set_special_pids(p);
	console_tty_set_init(p);
	init_creds(p);
	p->timer_slack_ns = p->default_timer_slack_ns = TIMER_SLACK_NS;
	p->signal->nr_threads = 1;
	list_add_tail(&p->thread_node, &p->signal->thread_head);
	p->mm = mm_alloc();
	if (arch_setup_kthread(p, fn, arg))
		panic("create_init_task: no memory");
	list_add_tail(&p->tasks, &task_list);
	attach_pid(p);
	wake_up_new_task(p);
	return p;
}
