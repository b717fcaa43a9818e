/*
 * kernel/trace/trace_syscalls.c: system calls in the trace (Linux's
 * kernel/trace/trace_syscalls.c): an "enter" event with the arguments
 * decoded as strace would show them, by the format letters of
 * kernel/syscall_64.tbl, and an "exit" event with the value or the errno's
 * name. Decoding reads user memory and formats, so it happens only while
 * the trace is written out; otherwise the ring keeps the raw arguments.
 */
#include <umk/errno.h>
#include <umk/net.h>
#include <umk/ptrace.h>
#include <umk/signal.h>
#include <umk/syscalls.h>
#include <umk/timer.h>
#include <umk/trace.h>
#include <umk/uaccess.h>
#include <umk/unistd.h>
#include <umk/uapi/sched.h>

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

/* A flag word by name, A|B|C as strace shows it: the bits no name covers
 * as a number after them, 0 as 0. */
struct flag_name {
	u64 flag;
	const char *name;
};

static int decode_flag_names(char *out, size_t n, u64 v, const struct flag_name *names,
			     size_t count)
{
	size_t i, o = 0;
	bool any = false;

	for (i = 0; i < count && o < n; i++) {
		if (!(v & names[i].flag))
			continue;
		o += ksnprintf(out + o, n - o, "%s%s", any ? "|" : "", names[i].name);
		v &= ~names[i].flag;
		any = true;
	}
	if (o < n && (v || !any))
		o += ksnprintf(out + o, n - o, "%s%#llx", any ? "|" : "", (unsigned long long)v);
	return o;
}

/* A sigaction as {handler, flags}: what umk-eintr reads to know a
 * process's handlers and their SA_RESTART (harness/umk-eintr/). */
static int decode_sigaction(char *out, size_t n, const void __user *p)
{
	static const struct flag_name flags[] = {
		{ SA_NOCLDSTOP, "SA_NOCLDSTOP" }, { SA_NOCLDWAIT, "SA_NOCLDWAIT" },
		{ SA_SIGINFO, "SA_SIGINFO" }, { SA_RESUME, "SA_RESUME" },
		{ SA_RESTORER, "SA_RESTORER" }, { SA_ONSTACK, "SA_ONSTACK" },
		{ SA_RESTART, "SA_RESTART" }, { SA_NODEFER, "SA_NODEFER" },
		{ SA_RESETHAND, "SA_RESETHAND" },
	};
	struct { void __user *handler; unsigned long flags; } sa;
	size_t o;

	if (copy_from_user(&sa, p, sizeof(sa)))
		return -1;
	if (sa.handler == SIG_DFL)
		o = ksnprintf(out, n, "{SIG_DFL, ");
	else if (sa.handler == SIG_IGN)
		o = ksnprintf(out, n, "{SIG_IGN, ");
	else
		o = ksnprintf(out, n, "{%#lx, ", (unsigned long)sa.handler);
	if (o < n)
		o += decode_flag_names(out + o, n - o, sa.flags, flags, ARRAY_SIZE(flags));
	if (o < n)
		o += ksnprintf(out + o, n - o, "}");
	return o;
}

/* Sockets (kernel/net/socket.c): families, types and MSG_* flags by
 * name, and an AF_UNIX address as its path ("@" for an abstract name's
 * leading NUL), as strace shows them. */
static int decode_family(char *out, size_t n, int family)
{
	switch (family) {
	case AF_UNSPEC:
		return ksnprintf(out, n, "AF_UNSPEC");
	case AF_UNIX:
		return ksnprintf(out, n, "AF_UNIX");
	case AF_INET:
		return ksnprintf(out, n, "AF_INET");
	case AF_INET6:
		return ksnprintf(out, n, "AF_INET6");
	case AF_NETLINK:
		return ksnprintf(out, n, "AF_NETLINK");
	}
	return ksnprintf(out, n, "%d", family);
}

static int decode_socktype(char *out, size_t n, unsigned long v)
{
	static const char *const types[] = {
		[SOCK_STREAM] = "SOCK_STREAM", [SOCK_DGRAM] = "SOCK_DGRAM",
		[SOCK_RAW] = "SOCK_RAW", [SOCK_SEQPACKET] = "SOCK_SEQPACKET",
	};
	unsigned int t = v & SOCK_TYPE_MASK;
	size_t o;

	if (t < ARRAY_SIZE(types) && types[t])
		o = ksnprintf(out, n, "%s", types[t]);
	else
		o = ksnprintf(out, n, "%u", t);
	if (o < n && (v & SOCK_NONBLOCK))
		o += ksnprintf(out + o, n - o, "|SOCK_NONBLOCK");
	if (o < n && (v & SOCK_CLOEXEC))
		o += ksnprintf(out + o, n - o, "|SOCK_CLOEXEC");
	if (o < n && (v & ~(unsigned long)(SOCK_TYPE_MASK | SOCK_NONBLOCK | SOCK_CLOEXEC)))
		o += ksnprintf(out + o, n - o, "|%#lx",
			       v & ~(unsigned long)(SOCK_TYPE_MASK | SOCK_NONBLOCK | SOCK_CLOEXEC));
	return o;
}

static int decode_msg_flags(char *out, size_t n, unsigned long v)
{
	static const struct flag_name flags[] = {
		{ MSG_OOB, "MSG_OOB" }, { MSG_PEEK, "MSG_PEEK" }, { MSG_DONTROUTE, "MSG_DONTROUTE" },
		{ MSG_CTRUNC, "MSG_CTRUNC" }, { MSG_TRUNC, "MSG_TRUNC" },
		{ MSG_DONTWAIT, "MSG_DONTWAIT" }, { MSG_EOR, "MSG_EOR" },
		{ MSG_WAITALL, "MSG_WAITALL" }, { MSG_NOSIGNAL, "MSG_NOSIGNAL" },
		{ MSG_MORE, "MSG_MORE" }, { MSG_WAITFORONE, "MSG_WAITFORONE" },
		{ MSG_CMSG_CLOEXEC, "MSG_CMSG_CLOEXEC" },
	};

	return decode_flag_names(out, n, v, flags, ARRAY_SIZE(flags));
}

/* An address of len bytes: -1 when it cannot be read. */
static int decode_sockaddr(char *out, size_t n, const void __user *p, unsigned long len)
{
	struct sockaddr_un sun;
	size_t o, plen;

	if (!p || len < sizeof(sa_family_t) || len > sizeof(sun))
		return -1;
	memset(&sun, 0, sizeof(sun));
	if (copy_from_user(&sun, p, len))
		return -1;
	o = ksnprintf(out, n, "{sa_family=");
	o += decode_family(out + o, n - o, sun.sun_family);
	if (sun.sun_family == AF_UNIX && len > sizeof(sa_family_t) && o < n) {
		plen = len - sizeof(sa_family_t);
		o += ksnprintf(out + o, n - o, ", sun_path=%s", sun.sun_path[0] ? "" : "@");
		if (sun.sun_path[0])
			plen = strnlen(sun.sun_path, plen);
		else if (plen)
			plen--;
		if (o < n)
			o += put_escaped(out + o, n - o, sun.sun_path + !sun.sun_path[0], plen, 64);
	}
	if (o < n)
		o += ksnprintf(out + o, n - o, "}");
	return o;
}

/* clone3's struct of size bytes as strace shows it, {flags=CLONE_VM|...,
 * exit_signal=SIGCHLD, stack=..., stack_size=..., tls=...}: the first
 * version's fields that say what the child is. -1 when it cannot be read,
 * or is too short to be one. */
static int decode_clone_args(char *out, size_t n, const void __user *p, unsigned long size)
{
	static const struct flag_name flags[] = {
		{ CLONE_VM, "CLONE_VM" }, { CLONE_FS, "CLONE_FS" },
		{ CLONE_FILES, "CLONE_FILES" }, { CLONE_SIGHAND, "CLONE_SIGHAND" },
		{ CLONE_PIDFD, "CLONE_PIDFD" }, { CLONE_PTRACE, "CLONE_PTRACE" },
		{ CLONE_VFORK, "CLONE_VFORK" }, { CLONE_PARENT, "CLONE_PARENT" },
		{ CLONE_THREAD, "CLONE_THREAD" }, { CLONE_SYSVSEM, "CLONE_SYSVSEM" },
		{ CLONE_SETTLS, "CLONE_SETTLS" }, { CLONE_PARENT_SETTID, "CLONE_PARENT_SETTID" },
		{ CLONE_CHILD_CLEARTID, "CLONE_CHILD_CLEARTID" },
		{ CLONE_UNTRACED, "CLONE_UNTRACED" }, { CLONE_CHILD_SETTID, "CLONE_CHILD_SETTID" },
		{ CLONE_CLEAR_SIGHAND, "CLONE_CLEAR_SIGHAND" },
		{ CLONE_INTO_CGROUP, "CLONE_INTO_CGROUP" },
	};
	struct clone_args args;
	const char *sig;
	size_t o;

	if (size < CLONE_ARGS_SIZE_VER0 || copy_from_user(&args, p, CLONE_ARGS_SIZE_VER0))
		return -1;
	o = ksnprintf(out, n, "{flags=");
	if (o < n)
		o += decode_flag_names(out + o, n - o, args.flags, flags, ARRAY_SIZE(flags));
	sig = args.exit_signal <= _NSIG ? signal_name((int)args.exit_signal) : NULL;
	if (o < n)
		o += sig ? ksnprintf(out + o, n - o, ", exit_signal=%s", sig)
			 : ksnprintf(out + o, n - o, ", exit_signal=%llu",
				     (unsigned long long)args.exit_signal);
	if (o < n)
		o += ksnprintf(out + o, n - o, ", stack=%#llx, stack_size=%#llx, tls=%#llx}",
			       (unsigned long long)args.stack,
			       (unsigned long long)args.stack_size,
			       (unsigned long long)args.tls);
	return o;
}

/* fcntl's commands by name (include/umk/uapi/fcntl.h), as strace shows
 * them; a command umk does not know as its number. */
static int decode_fcntl_cmd(char *out, size_t n, unsigned int cmd)
{
	static const struct { unsigned int cmd; const char *name; } cmds[] = {
		{ F_DUPFD, "F_DUPFD" }, { F_GETFD, "F_GETFD" }, { F_SETFD, "F_SETFD" },
		{ F_GETFL, "F_GETFL" }, { F_SETFL, "F_SETFL" }, { F_GETLK, "F_GETLK" },
		{ F_SETLK, "F_SETLK" }, { F_SETLKW, "F_SETLKW" }, { F_SETOWN, "F_SETOWN" },
		{ F_GETOWN, "F_GETOWN" }, { F_SETSIG, "F_SETSIG" }, { F_GETSIG, "F_GETSIG" },
		{ F_SETOWN_EX, "F_SETOWN_EX" }, { F_GETOWN_EX, "F_GETOWN_EX" },
		{ F_OFD_GETLK, "F_OFD_GETLK" }, { F_OFD_SETLK, "F_OFD_SETLK" },
		{ F_OFD_SETLKW, "F_OFD_SETLKW" }, { F_SETLEASE, "F_SETLEASE" },
		{ F_GETLEASE, "F_GETLEASE" }, { F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC" },
		{ F_SETPIPE_SZ, "F_SETPIPE_SZ" }, { F_GETPIPE_SZ, "F_GETPIPE_SZ" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (cmds[i].cmd == cmd)
			return ksnprintf(out, n, "%s", cmds[i].name);
	return ksnprintf(out, n, "%u", cmd);
}

static int decode_arg(char *out, size_t n, char fmt, unsigned long v, unsigned long next)
{
	int r;

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
	case 'A':
		if (!v || (r = decode_sigaction(out, n, (const void __user *)v)) < 0)
			break;
		return r;
	case 'F':
		return decode_family(out, n, (int)v);
	case 'T':
		return decode_socktype(out, n, v);
	case 'm':
		return decode_msg_flags(out, n, v);
	case 'f':
		return decode_fcntl_cmd(out, n, (unsigned int)v);
	case 'a':
		if ((r = decode_sockaddr(out, n, (const void __user *)v, next)) < 0)
			break;
		return r;
	case 'C':
		if ((r = decode_clone_args(out, n, (const void __user *)v, next)) < 0)
			break;
		return r;
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
