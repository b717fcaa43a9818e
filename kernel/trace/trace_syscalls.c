/*
 * kernel/trace/trace_syscalls.c: system calls in the trace (Linux's
 * kernel/trace/trace_syscalls.c): an "enter" event with the arguments
 * decoded as strace would show them, by the format letters of
 * kernel/syscall_64.tbl, and an "exit" event with the value or the errno's
 * name. Decoding reads user memory and formats, so it happens only while
 * the trace is written out; otherwise the ring keeps the raw arguments.
 */
#include <umk/errno.h>
#include <umk/ptrace.h>
#include <umk/signal.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/unistd.h>

/* Append s to the trace line, escaped as strace does, at most max bytes. */
static int put_escaped(char *out, size_t n, const char *s, size_t len, size_t max)
{
	size_t i, o = 0;

	o += ksnprintf(out + o, n - o, "\"");
	for (i = 0; i < len && i < max && o + 6 < n; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			o += ksnprintf(out + o, n - o, "\\n");
		else if (c == '\t')
			o += ksnprintf(out + o, n - o, "\\t");
		else if (c == '"' || c == '\\')
			o += ksnprintf(out + o, n - o, "\\%c", c);
		else if (c < 32 || c >= 127)
			o += ksnprintf(out + o, n - o, "\\%o", c);
		else
			out[o++] = c;
	}
	o += ksnprintf(out + o, n - o, "\"%s", i < len ? "..." : "");
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
		return ksnprintf(out, n, "%d", (int)v);
	case 'u':
		return ksnprintf(out, n, "%lu", v);
	case 'S':
		name = signal_name((int)v);
		return name ? ksnprintf(out, n, "%s", name) : ksnprintf(out, n, "%d", (int)v);
	case 'c':
		return ksnprintf(out, n, "%d", (int)v);
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
		return ksnprintf(out, n, "{%lld, %ld}", (long long)ts.tv_sec, ts.tv_nsec);
	case 'x':
		return ksnprintf(out, n, "%#lx", v);
	case 'o':
		return ksnprintf(out, n, "%#lo", v);
	}
	/* pointers, and the arguments above that could not be read */
	return v ? ksnprintf(out, n, "%#lx", v) : ksnprintf(out, n, "NULL");
}

void trace_sys_enter(long nr, const char *fmt, const struct pt_regs *regs)
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
	o = ksnprintf(line, sizeof(line), "%s(", syscall_name(nr));
	for (i = 0; fmt[i] && i < 6 && o < sizeof(line); i++) {
		if (i)
			o += ksnprintf(line + o, sizeof(line) - o, ", ");
		if (o < sizeof(line))
			o += decode_arg(line + o, sizeof(line) - o, fmt[i], a[i],
					i < 5 ? a[i + 1] : 0);
	}
	if (o < sizeof(line))
		ksnprintf(line + o, sizeof(line) - o, ")");
	trace_with(TR_ENTER, &(struct trace_fields){ .nr = nr }, "%s", line);
}

void trace_sys_exit(long nr, long ret)
{
	const char *err = IS_ERR_VALUE(ret) ? errno_name(-ret) : NULL;
	struct trace_fields f = { .nr = nr, .ret = ret };

	if (!trace_writing()) {
		trace_syscall(TR_EXIT, nr, ret, NULL);
		return;
	}
	if (err)
		trace_with(TR_EXIT, &f, "%s = -1 %s", syscall_name(nr), err);
	else if (nr == __NR_mmap || nr == __NR_mremap || nr == __NR_brk)
		trace_with(TR_EXIT, &f, "%s = %#lx", syscall_name(nr), ret);
	else
		trace_with(TR_EXIT, &f, "%s = %ld", syscall_name(nr), ret);
}
