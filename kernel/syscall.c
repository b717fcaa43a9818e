/*
 * kernel/syscall.c: the system-call table and its trace.
 *
 * sys_call_table maps Linux's x86-64 numbers to the implementations, with a
 * format for the trace's decoding of each argument:
 *	d int   u unsigned   x hex   p pointer   s user string
 *	b user buffer whose length is the next argument   t user timespec
 *	S signal number   c clock id   o octal
 * A number without an entry returns -ENOSYS, with a "nosys" trace line.
 */
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/signal.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/unistd.h>

typedef long (*syscall_fn_t)(unsigned long, unsigned long, unsigned long, unsigned long,
			     unsigned long, unsigned long);

struct syscall_desc {
	syscall_fn_t fn;
	const char *args;	/* one format letter per argument */
};

/* Each sys_* takes its arguments in registers as declared; calling it
 * through the six-argument type is what the x86-64 ABI makes safe. */
#define SYSCALL(nr, func, fmt) [__NR_##nr] = { (syscall_fn_t)(void (*)(void))func, fmt }

static const struct syscall_desc sys_call_table[NR_syscalls] = {
	SYSCALL(read, sys_read, "dpu"),
	SYSCALL(write, sys_write, "dbu"),
	SYSCALL(open, sys_open, "sxo"),
	SYSCALL(close, sys_close, "d"),
	SYSCALL(fstat, sys_fstat, "dp"),
	SYSCALL(lseek, sys_lseek, "ddd"),
	SYSCALL(mmap, sys_mmap, "xuxxdx"),
	SYSCALL(mprotect, sys_mprotect, "xux"),
	SYSCALL(munmap, sys_munmap, "xu"),
	SYSCALL(brk, sys_brk, "x"),
	SYSCALL(rt_sigaction, sys_rt_sigaction, "Sppu"),
	SYSCALL(rt_sigprocmask, sys_rt_sigprocmask, "dppu"),
	SYSCALL(rt_sigreturn, sys_rt_sigreturn, ""),
	SYSCALL(ioctl, sys_ioctl, "dxx"),
	SYSCALL(readv, sys_readv, "dpu"),
	SYSCALL(writev, sys_writev, "dpu"),
	SYSCALL(pipe, sys_pipe, "p"),
	SYSCALL(sched_yield, sys_sched_yield, ""),
	SYSCALL(dup, sys_dup, "d"),
	SYSCALL(dup2, sys_dup2, "dd"),
	SYSCALL(nanosleep, sys_nanosleep, "tp"),
	SYSCALL(getpid, sys_getpid, ""),
	SYSCALL(clone, sys_clone, "xpppx"),
	SYSCALL(vfork, sys_vfork, ""),
	SYSCALL(execve, sys_execve, "spp"),
	SYSCALL(exit, sys_exit, "d"),
	SYSCALL(wait4, sys_wait4, "dpxp"),
	SYSCALL(kill, sys_kill, "dS"),
	SYSCALL(uname, sys_uname, "p"),
	SYSCALL(fcntl, sys_fcntl, "ddx"),
	SYSCALL(gettimeofday, sys_gettimeofday, "pp"),
	SYSCALL(getuid, sys_getuid, ""),
	SYSCALL(getgid, sys_getgid, ""),
	SYSCALL(geteuid, sys_geteuid, ""),
	SYSCALL(getegid, sys_getegid, ""),
	SYSCALL(getppid, sys_getppid, ""),
	SYSCALL(sigaltstack, sys_sigaltstack, "pp"),
	SYSCALL(arch_prctl, sys_arch_prctl, "xx"),
	SYSCALL(gettid, sys_gettid, ""),
	SYSCALL(tkill, sys_tkill, "dS"),
	SYSCALL(futex, sys_futex, "pdupqpu"),
	SYSCALL(set_tid_address, sys_set_tid_address, "p"),
	SYSCALL(restart_syscall, sys_restart_syscall, ""),
	SYSCALL(clock_gettime, sys_clock_gettime, "cp"),
	SYSCALL(clock_getres, sys_clock_getres, "cp"),
	SYSCALL(clock_nanosleep, sys_clock_nanosleep, "cxtp"),
	SYSCALL(exit_group, sys_exit_group, "d"),
	SYSCALL(tgkill, sys_tgkill, "ddS"),
	SYSCALL(waitid, sys_waitid, "ddpxp"),
	SYSCALL(dup3, sys_dup3, "ddx"),
	SYSCALL(pipe2, sys_pipe2, "px"),
	SYSCALL(openat, sys_openat, "dsxo"),
	SYSCALL(pause, sys_pause, ""),
	SYSCALL(rt_sigsuspend, sys_rt_sigsuspend, "pu"),
	SYSCALL(rt_sigpending, sys_rt_sigpending, "pu"),
	SYSCALL(rt_sigtimedwait, sys_rt_sigtimedwait, "pptu"),
	SYSCALL(rt_sigqueueinfo, sys_rt_sigqueueinfo, "dSp"),
	SYSCALL(rt_tgsigqueueinfo, sys_rt_tgsigqueueinfo, "ddSp"),
	SYSCALL(alarm, sys_alarm, "u"),
	SYSCALL(setitimer, sys_setitimer, "dpp"),
	SYSCALL(getitimer, sys_getitimer, "dp"),
	SYSCALL(poll, sys_poll, "pud"),
	SYSCALL(ppoll, sys_ppoll, "putpu"),
	SYSCALL(select, sys_select, "dpppp"),
	SYSCALL(pselect6, sys_pselect6, "dppptp"),
};

static const char *const syscall_names[] = {
#define X(name) [__NR_##name] = #name,
	SYSCALL_NAMES(X)
#undef X
};

const char *syscall_name(long nr)
{
	static char buf[24];

	if (nr >= 0 && nr < (long)ARRAY_SIZE(syscall_names) && syscall_names[nr])
		return syscall_names[nr];
	snprintf(buf, sizeof(buf), "syscall_%ld", nr);
	return buf;
}

/* Append s to the trace line, escaped as strace does, at most max bytes. */
static int put_escaped(char *out, size_t n, const char *s, size_t len, size_t max)
{
	size_t i, o = 0;

	o += snprintf(out + o, n - o, "\"");
	for (i = 0; i < len && i < max && o + 6 < n; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			o += snprintf(out + o, n - o, "\\n");
		else if (c == '\t')
			o += snprintf(out + o, n - o, "\\t");
		else if (c == '"' || c == '\\')
			o += snprintf(out + o, n - o, "\\%c", c);
		else if (c < 32 || c >= 127)
			o += snprintf(out + o, n - o, "\\%o", c);
		else
			out[o++] = c;
	}
	o += snprintf(out + o, n - o, "\"%s", i < len ? "..." : "");
	return o;
}

static int decode_arg(char *out, size_t n, char fmt, unsigned long v, unsigned long next)
{
	char buf[40];
	struct __kernel_timespec ts;
	const char *name;
	long len;

	switch (fmt) {
	case 'd':
		return snprintf(out, n, "%d", (int)v);
	case 'u':
		return snprintf(out, n, "%lu", v);
	case 'S':
		name = signal_name((int)v);
		return name ? snprintf(out, n, "%s", name) : snprintf(out, n, "%d", (int)v);
	case 'c':
		return snprintf(out, n, "%d", (int)v);
	case 's':
		len = strncpy_from_user(buf, (const char __user *)v, sizeof(buf));
		if (len == -EFAULT)
			break;
		return put_escaped(out, n, buf, len < 0 ? sizeof(buf) : (size_t)len, 32);
	case 'b':
		len = min(next, sizeof(buf));
		if (copy_from_user(buf, (const void __user *)v, len))
			break;
		return put_escaped(out, n, buf, next, sizeof(buf));
	case 't':
		if (copy_from_user(&ts, (const void __user *)v, sizeof(ts)))
			break;
		return snprintf(out, n, "{%lld, %ld}", (long long)ts.tv_sec, ts.tv_nsec);
	case 'x':
		return snprintf(out, n, "%#lx", v);
	case 'o':
		return snprintf(out, n, "%#lo", v);
	}
	/* pointers, and the arguments above that could not be read */
	return v ? snprintf(out, n, "%#lx", v) : snprintf(out, n, "NULL");
}

static void trace_enter(long nr, const struct syscall_desc *d, const struct pt_regs *regs)
{
	unsigned long a[6] = { regs->di, regs->si, regs->dx, regs->r10, regs->r8, regs->r9 };
	char line[TRACE_MSG_LEN];
	size_t o;
	int i;

	/* Decoding reads user memory and formats: only when the trace is
	 * being written out. The ring always records the call. */
	if (!trace_writing()) {
		trace_syscall(TR_ENTER, nr, 0, a);
		return;
	}
	o = snprintf(line, sizeof(line), "%s(", syscall_name(nr));
	for (i = 0; d->args[i] && i < 6 && o < sizeof(line); i++) {
		if (i)
			o += snprintf(line + o, sizeof(line) - o, ", ");
		if (o < sizeof(line))
			o += decode_arg(line + o, sizeof(line) - o, d->args[i], a[i],
					i < 5 ? a[i + 1] : 0);
	}
	if (o < sizeof(line))
		snprintf(line + o, sizeof(line) - o, ")");
	trace_with(TR_ENTER, &(struct trace_fields){ .nr = nr }, "%s", line);
}

static void trace_exit(long nr, long ret)
{
	const char *err = IS_ERR_VALUE(ret) ? errno_name(-ret) : NULL;
	struct trace_fields f = { .nr = nr, .ret = ret };

	if (!trace_writing()) {
		trace_syscall(TR_EXIT, nr, ret, NULL);
		return;
	}
	if (err)
		trace_with(TR_EXIT, &f, "%s = -1 %s", syscall_name(nr), err);
	else if (nr == __NR_mmap || nr == __NR_brk)
		trace_with(TR_EXIT, &f, "%s = %#lx", syscall_name(nr), ret);
	else
		trace_with(TR_EXIT, &f, "%s = %ld", syscall_name(nr), ret);
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
	trace_enter(nr, d, regs);
	ret = d->fn(regs->di, regs->si, regs->dx, regs->r10, regs->r8, regs->r9);
	trace_exit(nr, ret);
	return ret;
}
