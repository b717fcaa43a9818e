/*
 * kernel/exit.c: task exit, zombies, reaping and wait (kernel/exit.c).
 *
 * A dying task gives up its memory and files, leaves its thread group and,
 * if it is a group leader whose group is gone, becomes a zombie and tells
 * its parent (SIGCHLD and a wakeup on wait_chldexit). Its kernel stack is
 * freed by the next task to run (finish_task_switch); the task_struct by
 * whoever reaps it: its parent's wait, or itself when nobody will wait
 * (threads, or a parent that ignores SIGCHLD).
 *
 * When pid 1's thread group is gone, umk exits with its status: 128+N if a
 * signal N killed it, else its exit code. Other tasks are not waited for.
 */
#include <umk/entry.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/ipc.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/tty.h>
#include <umk/uaccess.h>
#include <umk/uapi/ptrace.h>
#include <umk/uapi/wait.h>

#include <umk/sched/signal.h>

/* The task gives up its memory: a vfork parent and pthread_join's futex
 * learn of it first (exit_mm_release). */
static void exit_mm(struct task_struct *tsk)
{
	exit_mm_release(tsk, tsk->mm);
	if (tsk->mm) {
		mmput(tsk->mm);
		tsk->mm = NULL;
	}
}

/* The group's exit is reported once its last thread has exited and been
 * reaped, when its leader died before (Linux's release_task: the leader's
 * report waits while other threads are there). */
static void notify_dead_group(struct task_struct *leader)
{
	struct signal_struct *sig = leader->signal;

	if (sig->nr_threads || sig->zombie_threads || leader->exit_state != EXIT_ZOMBIE)
		return;
	if (do_notify_parent(leader, leader->exit_signal))
		release_task(leader);
}

/* Free what is left of a task nobody will wait for any more. */
void release_task(struct task_struct *p)
{
	struct task_struct *leader = p->group_leader;
	bool zombie_thread = p != leader && p->exit_state == EXIT_ZOMBIE;

	if (p->ptrace)
		__ptrace_unlink(p);
	list_del_init(&p->tasks);
	detach_pid(p);
	list_del_init(&p->sibling);
	p->exit_state = EXIT_DEAD;
	if (zombie_thread) {
		/* a traced thread its tracer reaped: the last may let the
		 * group's exit be reported */
		leader->signal->zombie_threads--;
		notify_dead_group(leader);
	}
	if (p->state != TASK_DEAD || p->stack)
		return;		/* still on its stack: finish_task_switch frees it */
	task_count_dec();	/* a zombie counts until reaped, as on Linux */
	exit_creds(p);
	flush_sigqueue(&p->pending);
	if (thread_group_leader(p) && list_empty(&p->signal->thread_head)) {
		flush_sigqueue(&p->signal->shared_pending);
		kfree(p->signal);
	}
	kfree(p);
}

/* ---- orphaned process groups (POSIX 2.2.2.52) ----
 *
 * A group is orphaned when no member has a parent in another group of the
 * same session: nobody is left to continue a stopped job there, so the
 * kernel sends it SIGHUP and SIGCONT when it becomes so, SIGTSTP, SIGTTIN
 * and SIGTTOU do not stop it (get_signal), and a tty refuses it
 * job-control stops (-EIO). Two departures: umk's pid 1 is an ordinary
 * parent here too (Linux does not count init's children, is_global_init,
 * and under umk init is often the interactive shell, whose jobs must stop
 * with ^Z), and pid 1's own parent is outside umk, as the shell that
 * started umk: it links pid 1's group. */

bool will_become_orphaned_pgrp(pid_t pgrp, struct task_struct *ignored_task)
{
	struct task_struct *p, *parent;

	list_for_each_entry(p, &task_list, tasks) {
		if (!thread_group_leader(p) || p == idle_task || p->signal->pgrp != pgrp)
			continue;
		if (p == ignored_task || p->exit_state)
			continue;
		parent = p->real_parent;
		if (parent == idle_task)
			return false;	/* pid 1: its parent is outside umk */
		if (!parent)
			continue;
		if (parent->signal->pgrp != pgrp && parent->signal->session == p->signal->session)
			return false;
	}
	return true;
}

static bool has_stopped_jobs(pid_t pgrp)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks) {
		if (thread_group_leader(p) && p != idle_task && !p->exit_state &&
		    p->signal->pgrp == pgrp && (p->signal->flags & SIGNAL_STOP_STOPPED))
			return true;
	}
	return false;
}

/* tsk is exiting (parent NULL: its own parent was its group's link
 * outside), or tsk's parent is (then parent is that parent, and tsk's
 * group may have lost its link through it): a group orphaned with stopped
 * jobs gets SIGHUP, then SIGCONT (kill_orphaned_pgrp). */
static void kill_orphaned_pgrp(struct task_struct *tsk, struct task_struct *parent)
{
	pid_t pgrp = tsk->signal->pgrp;
	struct task_struct *ignored_task = tsk;

	if (!parent)
		parent = tsk->real_parent;
	else
		ignored_task = NULL;
	if (!parent || parent == idle_task)
		return;
	if (parent->signal->pgrp != pgrp && parent->signal->session == tsk->signal->session &&
	    will_become_orphaned_pgrp(pgrp, ignored_task) && has_stopped_jobs(pgrp)) {
		kill_pgrp(pgrp, SIGHUP, 1);
		kill_pgrp(pgrp, SIGCONT, 1);
	}
}

/* Children of a dying process go to pid 1, as Linux's reaper; each of
 * their threads that asked for it (PR_SET_PDEATHSIG) gets its signal, sent
 * to its process as by the dying parent's kill. Linux sends it when the
 * parent thread exits; umk's parent is the process, so when it is gone. */
/* Who adopts father's children (find_new_reaper): the nearest ancestor
 * process that made itself a child subreaper (PR_SET_CHILD_SUBREAPER)
 * and has a living thread, else pid 1. */
static struct task_struct *find_new_reaper(struct task_struct *father)
{
	struct task_struct *reaper, *t;

	if (father->signal->has_child_subreaper) {
		for (reaper = father->real_parent; reaper && reaper != idle_task && reaper->pid != 1;
		     reaper = reaper->real_parent) {
			if (!reaper->signal->is_child_subreaper)
				continue;
			for_each_thread(reaper->signal, t)
				if (!t->exit_state && t->state != TASK_DEAD)
					return t->group_leader;
		}
	}
	return find_task_by_pid(1);
}

static void forget_original_parent(struct task_struct *father)
{
	struct task_struct *reaper = find_new_reaper(father), *p, *n, *t;
	kernel_siginfo_t info;

	if (!reaper || reaper->tgid == father->tgid)
		return;
	list_for_each_entry_safe(p, n, &father->children, sibling) {
		list_del_init(&p->sibling);
		p->real_parent = reaper;
		list_add_tail(&p->sibling, &reaper->children);
		for_each_thread(p->signal, t) {
			if (!t->pdeath_signal || check_kill_permission(t->pdeath_signal, t))
				continue;
			fill_kill_info(&info, t->pdeath_signal, SI_USER);
			send_signal(t->pdeath_signal, &info, t, true);
		}
		if (p->exit_state == EXIT_ZOMBIE && list_empty(&p->signal->thread_head)) {
			if (do_notify_parent(p, p->exit_signal)) {
				release_task(p);
				continue;
			}
		}
		kill_orphaned_pgrp(p, father);
	}
}

/* umk's status when pid 1 is gone: what a shell would report. */
static __noreturn void umk_halt(int code)
{
	int status = (code & 0x7f) ? 128 + (code & 0x7f) : (code >> 8) & 0xff;

	trace_with(TR_TASK, &(struct trace_fields){ .other = 1, .ret = status, .what = "halt" },
		   "halt: pid 1 is gone, umk exits with %d", status);
	os_exit(status);
}

void do_exit(long code)
{
	struct task_struct *tsk = current;
	struct signal_struct *sig = tsk->signal;
	struct task_struct *leader = tsk->group_leader;
	bool group_dead;

	if (tsk->pid == 0)
		panic("do_exit: the idle task cannot exit");
	if (sig->flags & SIGNAL_GROUP_EXIT)
		code = sig->group_exit_code;
	ptrace_event(PTRACE_EVENT_EXIT, code);
	tsk->exit_code = code;
	trace_with(TR_TASK, &(struct trace_fields){ .other = tsk->pid, .ret = code, .what = "exit" },
		   "exit %d status=0x%04lx", tsk->pid, code);

	account_exit(tsk);
	exit_sem(tsk);
	exit_mm(tsk);
	put_files_struct(tsk->files);
	tsk->files = NULL;
	exit_fs(tsk);
	if (--tsk->sighand->count == 0) {
		signalfd_cleanup(tsk->sighand);
		kfree(tsk->sighand);
	}
	list_del_init(&tsk->thread_node);
	posix_timers_exit_thread(tsk);
	exit_ptrace(tsk);	/* its tracees are detached, or killed (EXITKILL) */
	group_dead = --sig->nr_threads == 0;
	if (group_dead && tsk->tgid == 1)
		umk_halt(code);
	/* The last of the others out wakes a thread waiting in de_thread. */
	if (sig->group_exec_task && sig->nr_threads == 1)
		wake_up_process(sig->group_exec_task);

	/* A group stop waits for this thread no longer (exit_signals). */
	if (!group_dead)
		task_participate_group_stop(tsk);
	if (group_dead) {
		del_timer(&sig->real_timer);
		exit_itimers(sig);
		disassociate_ctty(1);
		forget_original_parent(leader);
		kill_orphaned_pgrp(leader, NULL);
	}

	/* The last thread out gives a leader that died before it its code. */
	if (group_dead && tsk != leader && leader->exit_state == EXIT_ZOMBIE)
		leader->exit_code = code;
	if (thread_group_leader(tsk)) {
		tsk->exit_state = EXIT_ZOMBIE;
		if (group_dead && !sig->zombie_threads && do_notify_parent(tsk, tsk->exit_signal))
			release_task(tsk);
	} else if (tsk->ptrace) {
		/* A traced thread is a zombie its tracer waits for, told with
		 * SIGCHLD (exit_notify); its release may report the group. */
		tsk->exit_state = EXIT_ZOMBIE;
		sig->zombie_threads++;
		do_notify_parent(tsk, SIGCHLD);
	} else {
		tsk->exit_state = EXIT_DEAD;
		list_del_init(&tsk->tasks);
		detach_pid(tsk);
		notify_dead_group(leader);
	}

	tsk->state = TASK_DEAD;
	schedule();
	panic("do_exit: dead task %d ran again", tsk->pid);
}

void do_group_exit(int exit_code)
{
	struct signal_struct *sig = current->signal;

	if (sig->flags & SIGNAL_GROUP_EXIT) {
		exit_code = sig->group_exit_code;
	} else {
		sig->flags = SIGNAL_GROUP_EXIT;
		sig->group_exit_code = exit_code;
		zap_other_threads(current, sig);
	}
	do_exit(exit_code);
}

long sys_exit(int error_code)
{
	do_exit((error_code & 0xff) << 8);
}

long sys_exit_group(int error_code)
{
	do_group_exit((error_code & 0xff) << 8);
}

/* ---- wait ---- */

struct wait_opts {
	int which;		/* P_ALL, P_PID, P_PGID */
	pid_t pid;
	int options;
	kernel_siginfo_t info;	/* what waitid reports */
	int status;		/* what wait4 reports */
	struct rusage rusage;	/* the child's, for wait4 and waitid */
};

/* ptrace: p is one of our tracees (any thread), not a child. */
static bool eligible_child(struct wait_opts *wo, struct task_struct *p, bool ptrace)
{
	if (wo->which == P_PID && (ptrace ? p->pid : p->tgid) != wo->pid)
		return false;
	if (wo->which == P_PGID && p->signal->pgrp != wo->pid)
		return false;
	/* __WCLONE waits only for children that do not signal SIGCHLD; a
	 * tracee is waited for whatever it signals. */
	if (!ptrace && !(wo->options & __WALL) &&
	    ((p->exit_signal != SIGCHLD) ^ !!(wo->options & __WCLONE)))
		return false;
	return true;
}

static void fill_info(struct wait_opts *wo, struct task_struct *p, int code, int status)
{
	memset(&wo->info, 0, sizeof(wo->info));
	wo->info.si_signo = SIGCHLD;
	wo->info.si_code = code;
	wo->info._sigchld.pid = p->tgid;
	wo->info._sigchld.uid = p->cred.uid;
	wo->info._sigchld.status = status;
}

/* wo's report of p's exit with code, its rusage too (wait_task_zombie). */
static void fill_exit(struct wait_opts *wo, struct task_struct *p, int code)
{
	wo->status = code;
	getrusage_task(p, RUSAGE_BOTH, &wo->rusage);
	if (code & 0x7f)
		fill_info(wo, p, code & 0x80 ? CLD_DUMPED : CLD_KILLED, code & 0x7f);
	else
		fill_info(wo, p, CLD_EXITED, (code >> 8) & 0xff);
}

/* Returns the child's pid if it had something to report, else 0. ptrace:
 * p is a tracee of ours that is not our child (kernel/ptrace.c). */
static pid_t wait_consider_task(struct wait_opts *wo, struct task_struct *p, bool ptrace)
{
	struct signal_struct *sig = p->signal;
	pid_t pid = p->tgid;
	/* A tracer sees its tracee's ptrace stops and exit first. */
	bool traced_by_us = p->ptrace && p->parent && p->parent->tgid == current->tgid;

	if (p->ptrace && !traced_by_us && p->exit_state == EXIT_ZOMBIE)
		return 0;	/* its tracer has to release it first */
	if (traced_by_us && (p->state & __TASK_TRACED) && p->exit_code &&
	    !(p->jobctl & JOBCTL_LISTENING)) {
		int code = p->exit_code;

		wo->status = (code << 8) | 0x7f;
		fill_info(wo, p, CLD_TRAPPED, code);
		wo->info._sigchld.pid = p->pid;
		getrusage_task(p, RUSAGE_BOTH, &wo->rusage);
		if (!(wo->options & WNOWAIT))
			p->exit_code = 0;
		return p->pid;
	}
	if (ptrace && p->exit_state == EXIT_ZOMBIE && !thread_group_leader(p)) {
		/* A traced thread but the leader: its exit is its tracer's
		 * alone to see, by its tid, and release (wait_task_zombie);
		 * once its process exits as a whole, with the group's code. */
		int code = (sig->flags & SIGNAL_GROUP_EXIT) ? sig->group_exit_code : p->exit_code;
		pid_t tid = p->pid;

		if (!(wo->options & WEXITED))
			return 0;
		fill_exit(wo, p, code);
		wo->info._sigchld.pid = tid;
		if (!(wo->options & WNOWAIT))
			release_task(p);
		return tid;
	}
	if (ptrace && p->exit_state == EXIT_ZOMBIE && list_empty(&sig->thread_head) &&
	    !sig->zombie_threads) {
		/* Not our child: we release it to its real parent. */
		int code = p->exit_code;

		if (!(wo->options & WEXITED))
			return 0;
		fill_exit(wo, p, code);
		if (!(wo->options & WNOWAIT)) {
			__ptrace_unlink(p);
			if (do_notify_parent(p, p->exit_signal))
				release_task(p);
		}
		return pid;
	}
	if (ptrace)
		return 0;

	if (p->exit_state == EXIT_ZOMBIE && list_empty(&sig->thread_head) && !sig->zombie_threads) {
		int code = p->exit_code;

		if (!(wo->options & WEXITED))
			return 0;
		fill_exit(wo, p, code);
		if (!(wo->options & WNOWAIT))
			account_reaped_child(current, p);
		if (!(wo->options & WNOWAIT)) {
			trace_with(TR_TASK, &(struct trace_fields){ .other = pid, .ret = code, .what = "reap" },
				   "reap %d status=0x%04x", pid, code);
			release_task(p);
		}
		return pid;
	}
	getrusage_task(p, RUSAGE_BOTH, &wo->rusage);
	if ((wo->options & WSTOPPED) && (sig->flags & SIGNAL_STOP_STOPPED) && sig->stop_report &&
	    !traced_by_us) {
		wo->status = (sig->stop_report << 8) | 0x7f;
		fill_info(wo, p, CLD_STOPPED, sig->stop_report);
		if (!(wo->options & WNOWAIT))
			sig->stop_report = 0;
		return pid;
	}
	if ((wo->options & WCONTINUED) && (sig->flags & SIGNAL_STOP_CONTINUED)) {
		wo->status = 0xffff;
		fill_info(wo, p, CLD_CONTINUED, SIGCONT);
		if (!(wo->options & WNOWAIT))
			sig->flags &= ~SIGNAL_STOP_CONTINUED;
		return pid;
	}
	return 0;
}

/* The tracees of every thread of ours that are not our children
 * (Linux's ptrace_do_wait); our traced children were seen with the others. */
static pid_t wait_ptraced(struct wait_opts *wo, bool *any)
{
	struct task_struct *t, *p, *n;
	pid_t ret;

	for_each_thread(current->signal, t) {
		list_for_each_entry_safe(p, n, &t->ptraced, ptrace_entry) {
			if (p->real_parent && p->real_parent->tgid == current->tgid &&
			    thread_group_leader(p))
				continue;
			if (!eligible_child(wo, p, true))
				continue;
			*any = true;
			ret = wait_consider_task(wo, p, true);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static long do_wait(struct wait_opts *wo)
{
	struct task_struct *parent = current->group_leader, *p, *n;
	DEFINE_WAIT(w);
	long ret;

	for (;;) {
		bool any = false;

		prepare_to_wait(&current->signal->wait_chldexit, &w, TASK_INTERRUPTIBLE);
		ret = 0;
		list_for_each_entry_safe(p, n, &parent->children, sibling) {
			if (!eligible_child(wo, p, false))
				continue;
			any = true;
			ret = wait_consider_task(wo, p, false);
			if (ret)
				break;
		}
		if (ret)
			break;
		ret = wait_ptraced(wo, &any);
		if (ret)
			break;
		if (!any) {
			ret = -ECHILD;
			break;
		}
		if (wo->options & WNOHANG) {
			ret = 0;
			break;
		}
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(&current->signal->wait_chldexit, &w);
	return ret;
}

long sys_wait4(pid_t upid, int __user *stat_addr, int options, struct rusage __user *ru)
{
	struct wait_opts wo = { .options = options | WEXITED };
	struct rusage r;
	long ret;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	/* -INT_MIN is undefined (Linux: -ESRCH) */
	if (upid == -2147483647 - 1)
		return -ESRCH;
	if (upid == -1)
		wo.which = P_ALL;
	else if (upid < 0)
		wo.which = P_PGID, wo.pid = -upid;
	else if (upid == 0)
		wo.which = P_PGID, wo.pid = current->signal->pgrp;
	else
		wo.which = P_PID, wo.pid = upid;

	ret = do_wait(&wo);
	if (ret > 0 && stat_addr && put_user(wo.status, stat_addr))
		return -EFAULT;
	if (ret > 0 && ru) {
		r = wo.rusage;
		if (copy_to_user(ru, &r, sizeof(r)))
			return -EFAULT;
	}
	return ret;
}

long sys_waitid(int which, pid_t upid, kernel_siginfo_t __user *infop, int options,
		struct rusage __user *ru)
{
	struct wait_opts wo = { .which = which, .pid = upid, .options = options };
	struct rusage r;
	long ret;

	if (options & ~(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED | __WNOTHREAD |
			__WCLONE | __WALL))
		return -EINVAL;
	if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;
	switch (which) {
	case P_ALL:
		break;
	case P_PID:
		if (upid <= 0)
			return -EINVAL;
		break;
	case P_PGID:
		if (upid < 0)
			return -EINVAL;
		if (!upid)
			wo.pid = current->signal->pgrp;	/* the caller's group */
		break;
	default:
		return -EINVAL;
	}

	ret = do_wait(&wo);
	if (ret < 0)
		return ret;
	if (!ret)	/* WNOHANG and nothing to report: a zeroed siginfo */
		memset(&wo.info, 0, sizeof(wo.info));
	if (infop && copy_to_user(infop, &wo.info, 32))
		return -EFAULT;
	if (ru) {
		r = wo.rusage;
		if (!ret)
			memset(&r, 0, sizeof(r));
		if (copy_to_user(ru, &r, sizeof(r)))
			return -EFAULT;
	}
	return 0;
}
