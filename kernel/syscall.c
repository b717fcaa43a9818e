/*
 * kernel/syscall.c: the system-call table (its trace: kernel/trace/trace_syscalls.c).
 *
 * sys_call_table maps Linux's x86-64 numbers to the implementations, each
 * with its name and a format for the trace's decoding of each argument
 * (the letters are listed in kernel/syscall_64.tbl). Its entries are
 * generated from that table into build/include/generated/syscalls_64.h. A
 * number without an entry point returns -ENOSYS, with a "nosys" trace line.
 */
#include <umk/errno.h>
#include <umk/inject.h>
#include <umk/sched.h>
#include <umk/signal.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/unistd.h>

typedef long (*syscall_fn_t)(unsigned long, unsigned long, unsigned long, unsigned long,
			     unsigned long, unsigned long);

struct syscall_desc {
	syscall_fn_t fn;	/* NULL: not implemented */
	const char *args;	/* one format letter per argument */
	const char *name;
};

/* Each sys_* takes its arguments in registers as declared; calling it
 * through the six-argument type is what the x86-64 ABI makes safe. */
#define __SYSCALL(nr, call, entry, fmt) \
	[nr] = { .fn = (syscall_fn_t)(void (*)(void))entry, .args = fmt, .name = #call },
#define __SYSCALL_NOSYS(nr, call) [nr] = { .name = #call },

static const struct syscall_desc sys_call_table[NR_syscalls] = {
#include <generated/syscalls_64.h>
};

#undef __SYSCALL
#undef __SYSCALL_NOSYS

const char *syscall_name(long nr)
{
	static char buf[24];

	if (nr >= 0 && nr < NR_syscalls && sys_call_table[nr].name)
		return sys_call_table[nr].name;
	ksnprintf(buf, sizeof(buf), "syscall_%ld", nr);
	return buf;
}

long invoke_syscall(struct pt_regs *regs, long nr)
{
	const struct syscall_desc *d;
	long ret;

	if (nr < 0 || nr >= NR_syscalls || !sys_call_table[nr].fn) {
		trace_with(TR_NOSYS, &(struct trace_fields){ .nr = nr }, "%s", syscall_name(nr));
		return -ENOSYS;
	}
	d = &sys_call_table[nr];
	trace_sys_enter(nr, d->args, regs);
	/* --clock=virtual: each call is CPU time (docs/design.md, "Deterministic runs") */
	virtual_cpu_charge();
	inject_syscall_enter(nr);
	ret = d->fn(regs->di, regs->si, regs->dx, regs->r10, regs->r8, regs->r9);
	trace_sys_exit(nr, ret);
	inject_syscall_exit();
	virtual_cpu_check();
	return ret;
}
