/*
 * kernel/syscall.c: the system-call table and its trace.
 *
 * sys_call_table maps Linux's x86-64 numbers to the implementations, each
 * with its name and a format for the trace's decoding of each argument
 * (the letters are listed in kernel/syscall_64.tbl). Its entries are
 * generated from that table into build/include/generated/syscalls_64.h. A
 * number without an entry point returns -ENOSYS, with a "nosys" trace line.
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
