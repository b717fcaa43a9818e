/*
 * kernel/cred.c: credentials of tasks (kernel/cred.c, the capability
 * rules of security/commoncap.c) and the checks made with them.
 *
 * Linux gives a task a pointer to an immutable, shared struct cred and
 * replaces it on a change (prepare_creds, commit_creds). umk has one CPU
 * and a kernel that is never preempted, so each task simply holds its own
 * copy in task->cred and a change edits it in place once it has been
 * validated; only the supplementary groups are shared, by reference count.
 * include/umk/cred.h says what the fields and the capabilities mean.
 */
#include <umk/cred.h>
#include <umk/sched.h>
#include <umk/mm.h>

static struct group_info init_groups = { .usage = 1, .ngroups = 0 };

void init_creds(struct task_struct *p)
{
	p->cred = (struct cred){
		.cap_permitted = CAP_FULL_SET,
		.cap_effective = CAP_FULL_SET,
		.group_info = &init_groups,
	};
	init_groups.usage++;
}

void copy_creds(struct task_struct *p, struct task_struct *parent)
{
	p->cred = parent->cred;
	p->cred.group_info->usage++;
}

void put_group_info(struct group_info *gi)
{
	if (--gi->usage == 0)
		kfree(gi);
}

void exit_creds(struct task_struct *p)
{
	if (p->cred.group_info) {
		put_group_info(p->cred.group_info);
		p->cred.group_info = NULL;
	}
}

/* security/commoncap.c's cap_emulate_setxuid: capabilities follow a change
 * of the real, effective or saved uid (setuid, setreuid, setresuid). */
void cap_emulate_setxuid(struct cred *new, const struct cred *old)
{
	if ((old->uid == 0 || old->euid == 0 || old->suid == 0) &&
	    new->uid != 0 && new->euid != 0 && new->suid != 0) {
		new->cap_permitted = 0;
		new->cap_effective = 0;
	}
	if (old->euid == 0 && new->euid != 0)
		new->cap_effective = 0;
	if (old->euid != 0 && new->euid == 0)
		new->cap_effective = new->cap_permitted;
}

/* The same for a change of the fsuid alone (setfsuid): only the
 * capabilities of CAP_FS_MASK follow it. */
void cap_emulate_setfsuid(struct cred *new, const struct cred *old)
{
	if (old->fsuid == 0 && new->fsuid != 0)
		new->cap_effective &= ~CAP_FS_MASK;
	if (old->fsuid != 0 && new->fsuid == 0)
		new->cap_effective |= new->cap_permitted & CAP_FS_MASK;
}

/* Install new as current's credentials (commit_creds). A change of the
 * effective or filesystem ids makes the process not dumpable
 * (suid_dumpable, 0 by default) and forgets PR_SET_PDEATHSIG. new's
 * group_info reference passes to current. */
void commit_creds(struct cred *new)
{
	struct task_struct *tsk = current;
	struct cred *old = &tsk->cred;

	if (old->euid != new->euid || old->egid != new->egid || old->fsuid != new->fsuid ||
	    old->fsgid != new->fsgid) {
		if (tsk->mm)
			tsk->mm->dumpable = SUID_DUMP_DISABLE;
		tsk->pdeath_signal = 0;
	}
	if (old->group_info != new->group_info)
		put_group_info(old->group_info);
	*old = *new;
}

/* cap_bprm_creds_from_file for a file without capabilities or set-id
 * bits: root (real or effective) gets the full bounding set as permitted,
 * effective only with euid 0; anyone else has none. */
void exec_creds(struct task_struct *p)
{
	struct cred *c = &p->cred;

	c->cap_permitted = (c->euid == 0 || c->uid == 0) ? CAP_FULL_SET : 0;
	c->cap_effective = c->euid == 0 ? c->cap_permitted : 0;
	c->suid = c->fsuid = c->euid;
	c->sgid = c->fsgid = c->egid;
	/* begin_new_exec: a program running with ids not its own is not dumpable */
	if (p->mm)
		p->mm->dumpable = c->euid == c->uid && c->egid == c->gid ? SUID_DUMP_USER
									 : SUID_DUMP_DISABLE;
}

bool capable(int cap)
{
	return current->cred.cap_effective & (1ULL << cap);
}

bool kill_ok_by_cred(struct task_struct *t)
{
	const struct cred *c = &current->cred, *tc = &t->cred;

	return c->euid == tc->suid || c->euid == tc->uid || c->uid == tc->suid ||
	       c->uid == tc->uid || capable(CAP_KILL);
}

bool check_same_owner(struct task_struct *t)
{
	const struct cred *c = &current->cred, *tc = &t->cred;

	return c->euid == tc->euid || c->euid == tc->uid;
}

/* __ptrace_may_access for PTRACE_MODE_READ_REALCREDS: the caller's real
 * ids must be every one of the target's, and the target dumpable, unless
 * the caller holds CAP_SYS_PTRACE. Its own threads it may always read. */
bool ptrace_may_access(struct task_struct *t)
{
	const struct cred *c = &current->cred, *tc = &t->cred;

	if (t->tgid == current->tgid)
		return true;
	if (capable(CAP_SYS_PTRACE))
		return true;
	if (c->uid != tc->uid || c->uid != tc->euid || c->uid != tc->suid ||
	    c->gid != tc->gid || c->gid != tc->egid || c->gid != tc->sgid)
		return false;
	return t->mm && t->mm->dumpable == SUID_DUMP_USER;
}
