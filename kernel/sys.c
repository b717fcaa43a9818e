/*
 * kernel/sys.c: small system calls about the task and the system
 * (kernel/sys.c, arch/x86/kernel/process_64.c).
 *
 * umk has one user: every task runs as root (uid and gid 0).
 */
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/mm.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/prctl.h>

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

long sys_getuid(void)
{
	return 0;
}

long sys_geteuid(void)
{
	return 0;
}

long sys_getgid(void)
{
	return 0;
}

long sys_getegid(void)
{
	return 0;
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
	/* The release is the modern ABI umk implements; libcs check it. */
	static const struct new_utsname uts = {
		.sysname = "Linux",
		.nodename = "umk",
		.release = "6.12.0-umk",
		.version = "#1 umk 0.1.0",
		.machine = "x86_64",
		.domainname = "(none)",
	};

	return copy_to_user(name, &uts, sizeof(uts)) ? -EFAULT : 0;
}

/* The FS base lives in the trap frame (arch/: loaded on the way out). GS is
 * not switched by umk's entry code, and nothing in umk uses it. As Linux, a
 * base outside the user address space is refused: the CPU would fault on
 * loading a non-canonical one. */
long sys_arch_prctl(int option, unsigned long arg2)
{
	struct pt_regs *regs = current->regs;

	switch (option) {
	case ARCH_SET_FS:
		if (arg2 >= TASK_SIZE_MAX)
			return -EPERM;
		set_user_fs_base(regs, arg2);
		return 0;
	case ARCH_GET_FS:
		return put_user(user_fs_base(regs), (unsigned long __user *)arg2);
	default:
		return -EINVAL;
	}
}

long sys_set_tid_address(int __user *tidptr)
{
	current->clear_child_tid = tidptr;
	return current->pid;
}
