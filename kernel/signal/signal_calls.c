/*
 * kernel/signal/signal_calls.c: the signal system calls (kernel/signal.c of Linux):
 * sending (kill, tgkill, tkill, rt_sigqueueinfo, rt_tgsigqueueinfo), the
 * mask and handlers (rt_sigprocmask, rt_sigaction, rt_sigpending), and
 * waiting for a signal (pause, rt_sigsuspend, rt_sigtimedwait).
 *
 * A signal from a system call needs permission (check_kill_permission):
 * the sender's real or effective uid must match the target's real or saved
 * one, or the sender hold CAP_KILL; SIGCONT may always go to a process of
 * the same session. The check comes before signal 0 is taken as "does it
 * exist?", so kill(pid, 0) says EPERM too. And a process may not forge a
 * kernel or kill() si_code when signalling another with rt_sigqueueinfo.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/uaccess.h>

#include <umk/sched/signal.h>

int check_kill_permission(int sig, struct task_struct *t)
{
	if (t->tgid == current->tgid || kill_ok_by_cred(t))
		return 0;
	if (sig == SIGCONT && t->signal->session == current->signal->session)
		return 0;
	return -EPERM;
}

/* Send sig to process p, a group leader (group_send_sig_info): 0 also
 * for signal 0 and for a zombie, which nothing more can reach. */
static int group_send_sig_info(int sig, kernel_siginfo_t *info, struct task_struct *p)
{
	int ret = check_kill_permission(sig, p);

	if (ret || !sig)
		return ret;
	if (p->exit_state && list_empty(&p->signal->thread_head))
		return 0;
	return send_signal(sig, info, p, true);
}

/* kill(pid) with pid > 0 (kill_pid_info): the process of the task pid
 * names, the thread group leader or any other thread; the signal goes to
 * the whole process, and the named thread takes it first if it can
 * (complete_signal). */
static int kill_proc(pid_t pid, int sig, kernel_siginfo_t *info)
{
	struct task_struct *p = find_task_by_pid(pid);

	if (!p || p == idle_task)
		return -ESRCH;
	return group_send_sig_info(sig, info, p);
}

/* Every process in group pgrp, zombies included: 0 if one of them could
 * be signalled, else the last error, -ESRCH for a group with no process
 * (__kill_pgrp_info). */
static int __kill_pgrp_info(pid_t pgrp, int sig, kernel_siginfo_t *info)
{
	struct task_struct *p, *n;
	int ret = -ESRCH, err;

	list_for_each_entry_safe(p, n, &task_list, tasks) {
		if (!thread_group_leader(p) || p == idle_task || p->exit_state == EXIT_DEAD ||
		    p->signal->pgrp != pgrp)
			continue;
		err = group_send_sig_info(sig, info, p);
		if (ret)
			ret = err;
	}
	return ret;
}

/* sig to group pgrp from the kernel (priv: a tty's ^C, SIGHUP at a hangup,
 * no permission asked) or on behalf of current (Linux's kill_pgrp). */
int kill_pgrp(pid_t pgrp, int sig, int priv)
{
	struct task_struct *p, *n;
	kernel_siginfo_t info;
	int ret = -ESRCH;

	fill_kill_info(&info, sig, priv ? SI_KERNEL : SI_USER);
	if (!priv)
		return __kill_pgrp_info(pgrp, sig, &info);
	list_for_each_entry_safe(p, n, &task_list, tasks) {
		if (!thread_group_leader(p) || p == idle_task || p->exit_state ||
		    p->signal->pgrp != pgrp)
			continue;
		ret = send_signal(sig, &info, p, true);
	}
	return ret;
}

/*
 * pid > 0: that process; 0: the caller's process group; -pgrp: that group;
 * -1: every process but pid 1 and the caller's own, which gives -ESRCH
 * when there is none and otherwise the last error other than -EPERM
 * (Linux's kill_something_info, which thus returns 0 when every target
 * refused).
 */
long sys_kill(pid_t pid, int sig)
{
	kernel_siginfo_t info;
	struct task_struct *p, *n;
	int ret = 0, count = 0, err;

	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	fill_kill_info(&info, sig, SI_USER);
	if (pid > 0)
		return kill_proc(pid, sig, &info);
	if (pid == -2147483647 - 1)	/* -INT_MIN is undefined */
		return -ESRCH;
	if (pid != -1)
		return __kill_pgrp_info(pid ? -pid : current->signal->pgrp, sig, &info);
	list_for_each_entry_safe(p, n, &task_list, tasks) {
		if (!thread_group_leader(p) || p == idle_task || p->exit_state == EXIT_DEAD ||
		    p->tgid <= 1 || p->tgid == current->tgid)
			continue;
		err = group_send_sig_info(sig, &info, p);
		count++;
		if (err != -EPERM)
			ret = err;
	}
	return count ? ret : -ESRCH;
}

static long do_tkill(pid_t tgid, pid_t pid, int sig)
{
	kernel_siginfo_t info;
	struct task_struct *p = find_task_by_pid(pid);
	int ret;

	if (!p || p == idle_task || (tgid > 0 && p->tgid != tgid) || p->exit_state)
		return -ESRCH;
	ret = check_kill_permission(sig, p);
	if (ret || !sig)
		return ret;
	fill_kill_info(&info, sig, SI_TKILL);
	return send_signal(sig, &info, p, false);
}

long sys_tgkill(pid_t tgid, pid_t pid, int sig)
{
	if (pid <= 0 || tgid <= 0)
		return -EINVAL;
	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	return do_tkill(tgid, pid, sig);
}

long sys_tkill(pid_t pid, int sig)
{
	if (pid <= 0)
		return -EINVAL;
	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	return do_tkill(0, pid, sig);
}

long sys_rt_sigprocmask(int how, sigset_t __user *nset, sigset_t __user *oset, size_t sigsetsize)
{
	sigset_t old = current->blocked, new;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (nset) {
		if (copy_from_user(&new, nset, sizeof(new)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			new.sig |= old.sig;
			break;
		case SIG_UNBLOCK:
			new.sig = old.sig & ~new.sig;
			break;
		case SIG_SETMASK:
			break;
		default:
			return -EINVAL;
		}
		set_current_blocked(&new);
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

#define UAPI_SA_FLAGS                                                          \
	(SA_NOCLDSTOP | SA_NOCLDWAIT | SA_SIGINFO | SA_ONSTACK | SA_RESTART |   \
	 SA_NODEFER | SA_RESETHAND | SA_EXPOSE_TAGBITS | SA_RESTORER | SA_RESUME)

long sys_rt_sigaction(int sig, const struct k_sigaction __user *act,
		      struct k_sigaction __user *oact, size_t sigsetsize)
{
	struct k_sigaction new, old;
	struct k_sigaction *k;
	struct task_struct *t;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (sig < 1 || sig > _NSIG || (act && sig_kernel_only(sig)))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	k = sig_action(current, sig);
	old = *k;
	if (act) {
		new.flags &= UAPI_SA_FLAGS;
		new.mask.sig &= ~SIG_KERNEL_ONLY_MASK;
		*k = new;
		/* POSIX: setting a pending signal to be ignored discards it. */
		if (sig_handler_ignored(new.handler, sig)) {
			flush_sigqueue_mask(sigmask(sig), &current->signal->shared_pending);
			for_each_thread(current->signal, t)
				flush_sigqueue_mask(sigmask(sig), &t->pending);
			recalc_sigpending();
		} else if (old.handler == SIG_IGN) {
			/* Periodic timers that fired while it was ignored. */
			posixtimer_sig_unignore(current, sig);
		}
	}
	if (oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigpending(sigset_t __user *uset, size_t sigsetsize)
{
	sigset_t pending;

	if (sigsetsize > sizeof(sigset_t))
		return -EINVAL;
	pending.sig = (current->pending.signal.sig | current->signal->shared_pending.signal.sig) &
		      current->blocked.sig;
	return copy_to_user(uset, &pending, sigsetsize) ? -EFAULT : 0;
}

/* Sleep until a signal is pending (TASK_INTERRUPTIBLE ends then). */
static void sleep_until_signal(void)
{
	while (!signal_pending(current)) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
	set_current_state(TASK_RUNNING);
}

/* -ERESTARTNOHAND: a handler makes it return EINTR; a stop and continue
 * (or an ignored signal) make it wait again. */
long sys_pause(void)
{
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

long sys_rt_sigsuspend(sigset_t __user *unewset, size_t sigsetsize)
{
	sigset_t newset;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&newset, unewset, sizeof(newset)))
		return -EFAULT;
	current->saved_sigmask = current->blocked;
	set_current_blocked(&newset);
	sleep_until_signal();
	/* The old mask returns after the handler's frame has saved it. */
	set_ti_flag(current_thread_info(), TIF_RESTORE_SIGMASK);
	return -ERESTARTNOHAND;
}

/* Wait for one of the signals in these. Not restartable, as on Linux: a
 * signal outside the set ends it with -EINTR; the timeout with -EAGAIN. */
long sys_rt_sigtimedwait(const sigset_t __user *uthese, kernel_siginfo_t __user *uinfo,
			 const struct __kernel_timespec __user *uts, size_t sigsetsize)
{
	struct task_struct *tsk = current;
	struct hrtimer_sleeper st = { .task = tsk };
	struct __kernel_timespec ts;
	kernel_siginfo_t info;
	sigset_t these, mask;
	bool timed_out = false;
	int sig;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	if (uts) {
		if (get_timespec64(&ts, uts))
			return -EFAULT;
		if (!timespec64_valid(&ts))
			return -EINVAL;
	}
	these.sig &= ~SIG_KERNEL_ONLY_MASK;
	mask.sig = ~these.sig;

	sig = dequeue_signal(&mask, &info);
	if (!sig && !(uts && !timespec_to_ns(&ts))) {
		/* Unblock the awaited signals while sleeping, so that their
		 * arrival wakes us; real_blocked keeps them from being taken as
		 * ignored meanwhile. */
		tsk->real_blocked = tsk->blocked;
		tsk->blocked.sig &= ~these.sig;
		recalc_sigpending();
		if (uts)
			hrtimer_sleeper_start(&st, ktime_add_safe(ktime_get(), timespec_to_ns(&ts)),
					      "rt_sigtimedwait");
		while (!signal_pending(tsk) && (!uts || st.task)) {
			set_current_state(TASK_INTERRUPTIBLE);
			schedule();
		}
		set_current_state(TASK_RUNNING);
		if (uts) {
			hrtimer_sleeper_cancel(&st);
			timed_out = !st.task;
		}
		tsk->blocked = tsk->real_blocked;
		tsk->real_blocked.sig = 0;
		recalc_sigpending();
		sig = dequeue_signal(&mask, &info);
	}
	if (!sig)
		return uts && (timed_out || !timespec_to_ns(&ts)) ? -EAGAIN : -EINTR;
	if (uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return sig;
}

static long do_sigqueueinfo(pid_t tgid, pid_t pid, int sig, kernel_siginfo_t __user *uinfo)
{
	kernel_siginfo_t info;
	struct task_struct *p;
	int ret;

	if (copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	/* Not even root may pose as the kernel or kill() to another task:
	 * Linux compares the target with the caller's own thread id. */
	if ((info.si_code >= 0 || info.si_code == SI_TKILL) &&
	    (pid > 0 ? pid : tgid) != current->pid)
		return -EPERM;
	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	info.si_signo = sig;
	p = find_task_by_pid(pid > 0 ? pid : tgid);
	/* rt_sigqueueinfo's pid may name any thread: the signal goes to its
	 * process, as kill's */
	if (!p || p == idle_task || p->exit_state || (pid > 0 && tgid > 0 && p->tgid != tgid))
		return -ESRCH;
	ret = check_kill_permission(sig, p);
	if (ret || !sig)
		return ret;
	return send_signal(sig, &info, p, pid <= 0);
}

long sys_rt_sigqueueinfo(pid_t pid, int sig, kernel_siginfo_t __user *uinfo)
{
	return do_sigqueueinfo(pid, 0, sig, uinfo);
}

long sys_rt_tgsigqueueinfo(pid_t tgid, pid_t pid, int sig, kernel_siginfo_t __user *uinfo)
{
	if (pid <= 0 || tgid <= 0)
		return -EINVAL;
	return do_sigqueueinfo(tgid, pid, sig, uinfo);
}
