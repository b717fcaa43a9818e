/*
 * kernel/sys.c: small system calls about the task and the system
 * (kernel/sys.c, arch/x86/kernel/process_64.c): pids, user and group ids,
 * uname, arch_prctl, prctl, process groups and sessions.
 *
 * Every task has its own credentials (include/umk/cred.h); pid 1 starts
 * as root, and the set*id calls below change them with Linux's rules.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/tty.h>
#include <umk/uaccess.h>
#include <umk/uapi/prctl.h>

#include <umk/sched/signal.h>

long sys_getpid(void)
{
	return current->tgid;
}

long sys_gettid(void)
{
	return current->pid;
}

long sys_getppid(void)
{
	struct task_struct *parent = current->group_leader->real_parent;

	return parent ? parent->tgid : 0;
}

/* ---- user and group ids (Linux's kernel/sys.c) ----
 *
 * The rules are Linux's: a task holding CAP_SETUID (CAP_SETGID for the
 * gids) may set any id; any other may only move ids among the values its
 * real, effective and saved ids already hold, else -EPERM. (uid_t)-1 means
 * "leave it", and is -EINVAL where an id is required. The capability
 * changes that follow are in kernel/cred.c. */

#define INVALID_ID ((unsigned int)-1)

long sys_getuid(void)
{
	return current->cred.uid;
}

long sys_geteuid(void)
{
	return current->cred.euid;
}

long sys_getgid(void)
{
	return current->cred.gid;
}

long sys_getegid(void)
{
	return current->cred.egid;
}

long sys_setuid(uid_t uid)
{
	const struct cred *old = &current->cred;
	struct cred new = *old;

	if (uid == INVALID_ID)
		return -EINVAL;
	if (capable(CAP_SETUID))
		new.suid = new.uid = uid;
	else if (uid != old->uid && uid != old->suid)
		return -EPERM;
	new.fsuid = new.euid = uid;
	cap_emulate_setxuid(&new, old);
	commit_creds(&new);
	return 0;
}

long sys_setgid(gid_t gid)
{
	const struct cred *old = &current->cred;
	struct cred new = *old;

	if (gid == INVALID_ID)
		return -EINVAL;
	if (capable(CAP_SETGID))
		new.gid = new.egid = new.sgid = new.fsgid = gid;
	else if (gid == old->gid || gid == old->sgid)
		new.egid = new.fsgid = gid;
	else
		return -EPERM;
	commit_creds(&new);
	return 0;
}

/* The saved id becomes the new effective one when the real id is set, or
 * the effective one is set to something other than the old real id. */
long sys_setreuid(uid_t ruid, uid_t euid)
{
	const struct cred *old = &current->cred;
	struct cred new = *old;

	if (ruid != INVALID_ID) {
		new.uid = ruid;
		if (ruid != old->uid && ruid != old->euid && !capable(CAP_SETUID))
			return -EPERM;
	}
	if (euid != INVALID_ID) {
		new.euid = euid;
		if (euid != old->uid && euid != old->euid && euid != old->suid &&
		    !capable(CAP_SETUID))
			return -EPERM;
	}
	if (ruid != INVALID_ID || (euid != INVALID_ID && euid != old->uid))
		new.suid = new.euid;
	new.fsuid = new.euid;
	cap_emulate_setxuid(&new, old);
	commit_creds(&new);
	return 0;
}

long sys_setregid(gid_t rgid, gid_t egid)
{
	const struct cred *old = &current->cred;
	struct cred new = *old;

	if (rgid != INVALID_ID) {
		if (rgid != old->gid && rgid != old->egid && !capable(CAP_SETGID))
			return -EPERM;
		new.gid = rgid;
	}
	if (egid != INVALID_ID) {
		if (egid != old->gid && egid != old->egid && egid != old->sgid &&
		    !capable(CAP_SETGID))
			return -EPERM;
		new.egid = egid;
	}
	if (rgid != INVALID_ID || (egid != INVALID_ID && egid != old->gid))
		new.sgid = new.egid;
	new.fsgid = new.egid;
	commit_creds(&new);
	return 0;
}

/* Whether id is none of the three: a value that needs the capability. */
static bool new_id(unsigned int id, unsigned int r, unsigned int e, unsigned int s)
{
	return id != INVALID_ID && id != r && id != e && id != s;
}

long sys_setresuid(uid_t ruid, uid_t euid, uid_t suid)
{
	const struct cred *old = &current->cred;
	struct cred new = *old;

	/* nothing to change (the fsuid follows euid) */
	if ((ruid == INVALID_ID || ruid == old->uid) &&
	    (euid == INVALID_ID || (euid == old->euid && euid == old->fsuid)) &&
	    (suid == INVALID_ID || suid == old->suid))
		return 0;
	if ((new_id(ruid, old->uid, old->euid, old->suid) ||
	     new_id(euid, old->uid, old->euid, old->suid) ||
	     new_id(suid, old->uid, old->euid, old->suid)) && !capable(CAP_SETUID))
		return -EPERM;
	if (ruid != INVALID_ID)
		new.uid = ruid;
	if (euid != INVALID_ID)
		new.euid = euid;
	if (suid != INVALID_ID)
		new.suid = suid;
	new.fsuid = new.euid;
	cap_emulate_setxuid(&new, old);
	commit_creds(&new);
	return 0;
}

long sys_setresgid(gid_t rgid, gid_t egid, gid_t sgid)
{
	const struct cred *old = &current->cred;
	struct cred new = *old;

	if ((rgid == INVALID_ID || rgid == old->gid) &&
	    (egid == INVALID_ID || (egid == old->egid && egid == old->fsgid)) &&
	    (sgid == INVALID_ID || sgid == old->sgid))
		return 0;
	if ((new_id(rgid, old->gid, old->egid, old->sgid) ||
	     new_id(egid, old->gid, old->egid, old->sgid) ||
	     new_id(sgid, old->gid, old->egid, old->sgid)) && !capable(CAP_SETGID))
		return -EPERM;
	if (rgid != INVALID_ID)
		new.gid = rgid;
	if (egid != INVALID_ID)
		new.egid = egid;
	if (sgid != INVALID_ID)
		new.sgid = sgid;
	new.fsgid = new.egid;
	commit_creds(&new);
	return 0;
}

long sys_getresuid(uid_t __user *ruidp, uid_t __user *euidp, uid_t __user *suidp)
{
	const struct cred *c = &current->cred;

	if (put_user(c->uid, ruidp) || put_user(c->euid, euidp) || put_user(c->suid, suidp))
		return -EFAULT;
	return 0;
}

long sys_getresgid(gid_t __user *rgidp, gid_t __user *egidp, gid_t __user *sgidp)
{
	const struct cred *c = &current->cred;

	if (put_user(c->gid, rgidp) || put_user(c->egid, egidp) || put_user(c->sgid, sgidp))
		return -EFAULT;
	return 0;
}

/* setfsuid and setfsgid never fail: they return the old fs id whether or
 * not they changed it. */
long sys_setfsuid(uid_t uid)
{
	const struct cred *old = &current->cred;
	uid_t old_fsuid = old->fsuid;
	struct cred new = *old;

	if (uid == INVALID_ID || uid == old->fsuid)
		return old_fsuid;
	if (uid == old->uid || uid == old->euid || uid == old->suid || capable(CAP_SETUID)) {
		new.fsuid = uid;
		cap_emulate_setfsuid(&new, old);
		commit_creds(&new);
	}
	return old_fsuid;
}

long sys_setfsgid(gid_t gid)
{
	const struct cred *old = &current->cred;
	gid_t old_fsgid = old->fsgid;
	struct cred new = *old;

	if (gid == INVALID_ID || gid == old->fsgid)
		return old_fsgid;
	if (gid == old->gid || gid == old->egid || gid == old->sgid || capable(CAP_SETGID)) {
		new.fsgid = gid;
		commit_creds(&new);
	}
	return old_fsgid;
}

struct new_utsname {
	char sysname[65];
	char nodename[65];
	char release[65];
	char version[65];
	char machine[65];
	char domainname[65];
};

long sys_uname(struct new_utsname __user *name)
{
	static const struct new_utsname uts = {
		.sysname = "Linux",
		.nodename = UTS_NODENAME,
		.release = UTS_RELEASE,
		.version = UTS_VERSION,
		.machine = "x86_64",
		.domainname = "(none)",
	};

	return copy_to_user(name, &uts, sizeof(uts)) ? -EFAULT : 0;
}

/* The FS base lives in the trap frame (arch/: loaded on the way out). GS is
 * not switched by umk's entry code, and nothing in umk uses it: one base
 * for every task, the host's (0 unless a program ran wrgsbase), which
 * ARCH_GET_GS reads and ARCH_SET_GS may not change
 * (docs/linux-differences.md). As Linux, an FS base outside the user
 * address space is refused: the CPU would fault on loading a
 * non-canonical one. */
long do_arch_prctl_64(struct task_struct *task, int option, unsigned long arg2)
{
	struct pt_regs *regs = task->regs;

	switch (option) {
	case ARCH_SET_FS:
		if (arg2 >= TASK_SIZE_MAX)
			return -EPERM;
		set_user_fs_base(regs, arg2);
		return 0;
	case ARCH_GET_FS:
		return put_user(user_fs_base(regs), (unsigned long __user *)arg2);
	case ARCH_GET_GS:
		return put_user(arch_user_gs_base(), (unsigned long __user *)arg2);
	default:
		return -EINVAL;
	}
}

long sys_arch_prctl(int option, unsigned long arg2)
{
	return do_arch_prctl_64(current, option, arg2);
}

long sys_set_tid_address(int __user *tidptr)
{
	current->clear_child_tid = tidptr;
	return current->pid;
}

/* The options umk implements; any other is -EINVAL, as Linux's default.
 * The name is the task's (a thread names itself only); the death signal
 * is sent when the parent process exits (kernel/exit.c); dumpable is the
 * mm's, shared under CLONE_VM. The timer slack is the thread's; a child
 * subreaper adopts its orphaned descendants (kernel/exit.c); no_new_privs
 * is kept for good. */
long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5)
{
	struct task_struct *me = current;
	char comm[sizeof(me->comm)];

	switch (option) {
	case PR_SET_PDEATHSIG:
		if (!valid_signal(arg2))
			return -EINVAL;
		me->pdeath_signal = (int)arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		return put_user(me->pdeath_signal, (int __user *)arg2);
	case PR_GET_DUMPABLE:
		return me->mm->dumpable;
	case PR_SET_DUMPABLE:
		if (arg2 != SUID_DUMP_DISABLE && arg2 != SUID_DUMP_USER)
			return -EINVAL;
		me->mm->dumpable = (int)arg2;
		return 0;
	case PR_SET_NAME:
		/* at most 15 bytes; a longer name is cut, not refused
		 * (umk's strncpy_from_user says -ENAMETOOLONG for that) */
		memset(comm, 0, sizeof(comm));
		if (strncpy_from_user(comm, (const char __user *)arg2, sizeof(comm) - 1) == -EFAULT)
			return -EFAULT;
		strcpy_comm(me, comm);
		return 0;
	case PR_GET_NAME:
		memcpy(comm, me->comm, sizeof(comm));
		return copy_to_user((char __user *)arg2, comm, sizeof(comm)) ? -EFAULT : 0;
	case PR_GET_TIMERSLACK:
		return (long)me->timer_slack_ns;
	case PR_SET_TIMERSLACK:
		/* real-time tasks keep none; 0 (or less) is the default again */
		if (rt_policy(me->policy))
			return 0;
		me->timer_slack_ns = (long)arg2 <= 0 ? me->default_timer_slack_ns : arg2;
		return 0;
	case PR_SET_CHILD_SUBREAPER:
		me->signal->is_child_subreaper = !!arg2;
		if (arg2)
			me->signal->has_child_subreaper = true;
		return 0;
	case PR_GET_CHILD_SUBREAPER:
		return put_user((int)me->signal->is_child_subreaper, (int __user *)arg2);
	case PR_SET_NO_NEW_PRIVS:
		if (arg2 != 1 || arg3 || arg4 || arg5)
			return -EINVAL;
		me->no_new_privs = true;
		return 0;
	case PR_GET_NO_NEW_PRIVS:
		if (arg2 || arg3 || arg4 || arg5)
			return -EINVAL;
		return me->no_new_privs;
	case PR_GET_TID_ADDRESS:
		return put_user((unsigned long)me->clear_child_tid, (unsigned long __user *)arg2);
	default:
		return -EINVAL;
	}
}

/* ---- process groups and sessions (Linux's kernel/sys.c) ----
 *
 * A process's group and session ids live in its signal_struct, shared by
 * its threads and copied by clone. pid 1 starts as the leader of session
 * 1 and group 1. A group or session exists while some process, zombies
 * included, is in it. */

/* A process (thread group leader, zombie or not) in group pgrp, or NULL
 * (Linux's pid_task(pgrp, PIDTYPE_PGID)). */
struct task_struct *pgrp_task(pid_t pgrp)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks) {
		if (thread_group_leader(p) && p != idle_task && p->exit_state != EXIT_DEAD &&
		    p->signal->pgrp == pgrp)
			return p;
	}
	return NULL;
}

/* p leads a new session and group named after it (set_special_pids). */
void set_special_pids(struct task_struct *p)
{
	p->signal->session = p->tgid;
	p->signal->pgrp = p->tgid;
	p->signal->session_leader = true;
}

/*
 * Move process pid (0: the caller) into group pgid (0: pid's own), in the
 * caller's session. pid must be the caller or one of its children that has
 * not exec'd (EACCES) in the caller's session (EPERM); a session leader
 * cannot move (EPERM), nor can anyone join a group of another session.
 */
long sys_setpgid(pid_t pid, pid_t pgid)
{
	struct task_struct *group_leader = current->group_leader, *p, *g;

	if (!pid)
		pid = group_leader->tgid;
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	p = find_task_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (!thread_group_leader(p))
		return -EINVAL;
	if (p->real_parent && p->real_parent->tgid == group_leader->tgid) {
		if (p->signal->session != group_leader->signal->session)
			return -EPERM;
		if (p->did_exec)
			return -EACCES;
	} else if (p != group_leader) {
		return -ESRCH;
	}
	if (p->signal->session_leader)
		return -EPERM;
	if (pgid != pid) {
		g = pgrp_task(pgid);
		if (!g || g->signal->session != group_leader->signal->session)
			return -EPERM;
	}
	p->signal->pgrp = pgid;
	return 0;
}

long sys_getpgid(pid_t pid)
{
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;

	if (!p || p == idle_task)
		return -ESRCH;
	return p->signal->pgrp;
}

long sys_getpgrp(void)
{
	return current->signal->pgrp;
}

long sys_getsid(pid_t pid)
{
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;

	if (!p || p == idle_task)
		return -ESRCH;
	return p->signal->session;
}

/* A new session and group, both named after the caller's pid, without a
 * controlling terminal; EPERM for a session leader, or while a group of
 * that number exists. */
long sys_setsid(void)
{
	struct task_struct *group_leader = current->group_leader;

	if (group_leader->signal->session_leader)
		return -EPERM;
	if (pgrp_task(group_leader->tgid))
		return -EPERM;
	set_special_pids(group_leader);
	proc_clear_tty(group_leader);
	return group_leader->tgid;
}

/*
 * Resource usage (kernel/sys.c's getrusage, kernel/exit.c's accounting).
 * umk knows each task's user and system time (kernel/sched/cputime.c)
 * and its context switches; a
 * process's resident size is what its private memory takes on the host
 * (mm_rss_kib), sampled when it is asked for and when a thread leaves its
 * memory, the largest kept as ru_maxrss. Page faults are the host's: umk
 * never sees them, and counts none.
 */
static void sample_rss(struct task_struct *t)
{
	unsigned long kib = mm_rss_kib(t->mm);

	if (kib > t->signal->maxrss)
		t->signal->maxrss = kib;
}

void account_exit(struct task_struct *tsk)
{
	struct signal_struct *sig = tsk->signal;
	u64 utime, stime;

	sample_rss(tsk);
	task_cputime(tsk, &utime, &stime);
	sig->dead_exec_ns += utime + stime;
	sig->dead_stime_ns += stime;
	sig->dead_nvcsw += tsk->nvcsw;
	sig->dead_nivcsw += tsk->nivcsw;
	/* Counted once: a zombie leader's time is in dead_exec_ns now. */
	tsk->sum_exec_ns = tsk->stime_ns = 0;
	tsk->last_ran = tsk->vtime_start = ktime_get();
	tsk->nvcsw = tsk->nivcsw = 0;
}

void account_reaped_child(struct task_struct *parent, struct task_struct *child)
{
	struct signal_struct *ps = parent->signal, *cs = child->signal;

	ps->child_exec_ns += cs->dead_exec_ns + cs->child_exec_ns;
	ps->child_stime_ns += cs->dead_stime_ns + cs->child_stime_ns;
	ps->child_nvcsw += cs->dead_nvcsw + cs->child_nvcsw;
	ps->child_nivcsw += cs->dead_nivcsw + cs->child_nivcsw;
	ps->child_maxrss = max(ps->child_maxrss, max(cs->maxrss, cs->child_maxrss));
}

static void ns_to_timeval(u64 ns, long *sec, long *usec)
{
	*sec = (long)(ns / NSEC_PER_SEC);
	*usec = (long)(ns % NSEC_PER_SEC / 1000);
}

void getrusage_task(struct task_struct *p, int who, struct rusage *r)
{
	struct signal_struct *sig = p->signal;
	struct task_struct *t;
	u64 utime = 0, stime = 0;

	memset(r, 0, sizeof(*r));
	if (who == RUSAGE_THREAD) {
		task_cputime(p, &utime, &stime);
		r->ru_nvcsw = p->nvcsw;
		r->ru_nivcsw = p->nivcsw;
		sample_rss(p);
		r->ru_maxrss = sig->maxrss;
	}
	if (who == RUSAGE_CHILDREN || who == RUSAGE_BOTH) {
		utime += sig->child_exec_ns - sig->child_stime_ns;
		stime += sig->child_stime_ns;
		r->ru_nvcsw += sig->child_nvcsw;
		r->ru_nivcsw += sig->child_nivcsw;
		r->ru_maxrss = sig->child_maxrss;
	}
	if (who == RUSAGE_SELF || who == RUSAGE_BOTH) {
		u64 u, s;

		thread_group_cputime(sig, &u, &s);
		utime += u;
		stime += s;
		r->ru_nvcsw += sig->dead_nvcsw;
		r->ru_nivcsw += sig->dead_nivcsw;
		list_for_each_entry(t, &sig->thread_head, thread_node) {
			r->ru_nvcsw += t->nvcsw;
			r->ru_nivcsw += t->nivcsw;
		}
		if (!list_empty(&sig->thread_head))
			sample_rss(list_first_entry(&sig->thread_head, struct task_struct,
						    thread_node));
		r->ru_maxrss = max((unsigned long)r->ru_maxrss, sig->maxrss);
	}
	ns_to_timeval(utime, &r->ru_utime_sec, &r->ru_utime_usec);
	ns_to_timeval(stime, &r->ru_stime_sec, &r->ru_stime_usec);
}

long sys_getrusage(int who, struct rusage __user *ru)
{
	struct rusage r;

	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD)
		return -EINVAL;
	getrusage_task(current, who, &r);
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}

/* times: the process's and its reaped children's user and system time in
 * clock ticks, and the ticks since boot as the return value (Linux's
 * jiffies_64_to_clock_t(get_jiffies_64()), which starts 5 minutes before 0
 * on Linux: umk starts at boot). */
long sys_times(struct tms __user *tbuf)
{
	struct signal_struct *sig = current->signal;

	if (tbuf) {
		struct tms t = { 0 };
		u64 utime, stime;

		thread_group_cputime(sig, &utime, &stime);
		t.tms_utime = nsec_to_clock_t(utime);
		t.tms_stime = nsec_to_clock_t(stime);
		t.tms_cutime = nsec_to_clock_t(sig->child_exec_ns - sig->child_stime_ns);
		t.tms_cstime = nsec_to_clock_t(sig->child_stime_ns);
		if (copy_to_user(tbuf, &t, sizeof(t)))
			return -EFAULT;
	}
	return (long)nsec_to_clock_t(ktime_get());
}

long sys_sysinfo(struct sysinfo __user *info)
{
	struct sysinfo si;
	unsigned long totalram, freeram, totalswap, freeswap;

	memset(&si, 0, sizeof(si));
	si.uptime = (long)((ktime_get() + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
	get_avenrun(si.loads);
	if (!os_meminfo(&totalram, &freeram, &totalswap, &freeswap)) {
		si.totalram = totalram;
		si.freeram = freeram;
		si.totalswap = totalswap;
		si.freeswap = freeswap;
	}
	si.procs = (unsigned short)min(nr_tasks(), 65535);
	si.mem_unit = 1;
	return copy_to_user(info, &si, sizeof(si)) ? -EFAULT : 0;
}
