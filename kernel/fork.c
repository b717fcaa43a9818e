/*
 * kernel/fork.c: creating tasks (kernel/fork.c of Linux).
 *
 * A thread or a vfork child (CLONE_VM) shares its parent's address space;
 * fork and clone without CLONE_VM give the child a copy (dup_mm,
 * kernel/mm/mm.c). A child starts in ret_from_fork() on its own kernel stack and
 * returns to user mode through a host frame crafted there, holding a copy of
 * the parent's registers with rax = 0.
 */
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

/* What umk implements; namespaces, pidfds and the like are refused. */
#define CLONE_SUPPORTED                                                        \
	(CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |         \
	 CLONE_VFORK | CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM |           \
	 CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID |           \
	 CLONE_DETACHED | CLONE_UNTRACED | CLONE_CHILD_SETTID | CLONE_PTRACE)

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

static struct task_struct *copy_process(unsigned long flags, unsigned long newsp,
					int __user *child_tid, unsigned long tls, long *err)
{
	struct task_struct *parent = current, *p;
	struct mm_struct *mm = NULL;

	/* As Linux's copy_thread: a TLS that ARCH_SET_FS would refuse. */
	if ((flags & CLONE_SETTLS) && tls >= TASK_SIZE_MAX) {
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
	p->pid = alloc_pid();
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
		p->exit_signal = flags & CSIGNAL;
	}
	p->signal->nr_threads++;
	list_add_tail(&p->thread_node, &p->signal->thread_head);
	if (flags & (CLONE_PARENT | CLONE_THREAD))
		p->real_parent = parent->group_leader->real_parent;
	else
		p->real_parent = parent->group_leader;
	if (thread_group_leader(p))
		list_add_tail(&p->sibling, &p->real_parent->children);

	p->set_child_tid = flags & CLONE_CHILD_SETTID ? child_tid : NULL;
	p->clear_child_tid = flags & CLONE_CHILD_CLEARTID ? child_tid : NULL;

	p->regs = arch_init_user_frame(p, parent->regs);
	p->regs->ax = 0;
	if (newsp)
		p->regs->sp = newsp;
	if (flags & CLONE_SETTLS)
		set_user_fs_base(p->regs, tls);
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

static long kernel_clone(unsigned long flags, unsigned long newsp, int __user *parent_tid,
			 int __user *child_tid, unsigned long tls)
{
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
	trace = ptrace_clone_event(flags, flags & CSIGNAL);
	p = copy_process(flags, newsp, child_tid, tls, &err);
	if (!p)
		return err;
	ptrace_init_task(p, trace || (flags & CLONE_PTRACE));
	pid = p->pid;
	trace_with(TR_TASK, &(struct trace_fields){ .other = pid, .what = flags & CLONE_THREAD ? "thread" : "fork" },
		   "%s %d (mm %u%s)", flags & CLONE_THREAD ? "thread" : "fork", pid, p->mm->id,
		   flags & CLONE_VM ? ", shared" : ", copied");
	if (flags & CLONE_PARENT_SETTID)
		put_user(pid, parent_tid);
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

long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       int __user *child_tidptr, unsigned long tls)
{
	return kernel_clone(clone_flags, newsp, parent_tidptr, child_tidptr, tls);
}

long sys_fork(void)
{
	return kernel_clone(SIGCHLD, 0, NULL, NULL, 0);
}

long sys_vfork(void)
{
	return kernel_clone(CLONE_VFORK | CLONE_VM | SIGCHLD, 0, NULL, NULL, 0);
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
