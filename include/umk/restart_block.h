/* The continuation a system call leaves for sys_restart_syscall, as in
 * include/linux/restart_block.h: fn plus one union member per restartable
 * call. It lives in thread_info; sigreturn resets fn to
 * do_no_restart_syscall. */
#ifndef UMK_RESTART_BLOCK_H
#define UMK_RESTART_BLOCK_H

#include <umk/types.h>

struct __kernel_timespec;
struct pollfd;

struct restart_block {
	unsigned long arch_data;
	long (*fn)(struct restart_block *);
	const char *fn_name;	/* umk: fn's name, for the trace */
	union {
		/* For futex_wait() */
		struct {
			u32 __user *uaddr;
			u32 val;
			u32 flags;
			u32 bitset;
			u64 time;
		} futex;
		/* For nanosleep() and clock_nanosleep() */
		struct {
			int clockid;
			struct __kernel_timespec __user *rmtp;
			u64 expires;	/* absolute, on clockid */
		} nanosleep;
		/* For poll() */
		struct {
			struct pollfd __user *ufds;
			int nfds;
			int has_timeout;
			unsigned long tv_sec;
			unsigned long tv_nsec;
		} poll;
	};
};

long do_no_restart_syscall(struct restart_block *parm);

#define set_restart_fn(restart, func)                                          \
	do {                                                                   \
		(restart)->fn = (func);                                        \
		(restart)->fn_name = #func;                                    \
	} while (0)

#endif
