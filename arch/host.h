/* arch/host.h: what the files of arch/ share among themselves. Only arch/
 * includes this (and host headers). */
#ifndef ARCH_HOST_H
#define ARCH_HOST_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <ucontext.h>

/* Syscall User Dispatch (include/uapi/linux/prctl.h) */
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_OFF 0
#define PR_SYS_DISPATCH_ON 1
#define SYSCALL_DISPATCH_FILTER_ALLOW 0	/* kernel mode */
#define SYSCALL_DISPATCH_FILTER_BLOCK 1	/* user mode */
#define SYS_USER_DISPATCH 2		/* si_code of a SUD SIGSYS */

/* Linux ABI values glibc's headers do not export. */
#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31)
#endif
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif
#include <umk/uapi/ucontext.h>

/* Marks a function of arch/ that runs with whatever FS base is loaded,
 * the user's included: it gets no -finstrument-functions hook (fsbase.c),
 * so it must touch no thread-local state and call no glibc function that
 * does. Keep such functions few and small. */
#define __tls_free __attribute__((no_instrument_function))

/* A host system call that touches no thread-local state (no errno): returns
 * the kernel's value, -errno on failure. */
static inline __tls_free long host_syscall2(long nr, unsigned long a1, unsigned long a2)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a1), "S"(a2)
			 : "rcx", "r11", "memory");
	return ret;
}

/* The same with four arguments. */
static inline __tls_free long host_syscall4(long nr, unsigned long a1, unsigned long a2,
					    unsigned long a3, unsigned long a4)
{
	register unsigned long r10 __asm__("r10") = a4;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

/* fsbase.c: whose FS base the CPU holds */
extern bool have_fsgsbase;		/* the stubs use rdfsbase/wrfsbase */
extern unsigned long kernel_fs_base;	/* glibc's TLS, for kernel mode */
extern unsigned long cpu_fs_base;	/* without FSGSBASE: what the CPU holds */
void fs_base_init(bool force_legacy);

/* entry.S */
extern volatile uint8_t sud_selector;	/* the privilege level */
extern char kentry_start[], kentry_end[];
void entry_SIGSYS(int, siginfo_t *, void *);
void entry_SIGALRM(int, siginfo_t *, void *);
void entry_SIGIO(int, siginfo_t *, void *);
void entry_fault(int, siginfo_t *, void *);
void entry_hostsig(int, siginfo_t *, void *);
void entry_SIGWINCH(int, siginfo_t *, void *);
void __restore_rt(void);

/* A trap came from user mode iff the selector was BLOCK and the
 * interrupted instruction is outside the entry code: the host may deliver
 * an interrupt on the first instruction of a stub, before it sets ALLOW. */
static inline __tls_free int trap_from_user(const ucontext_t *uc, unsigned int oldsel)
{
	uintptr_t ip = uc->uc_mcontext.gregs[REG_RIP];

	return oldsel == SYSCALL_DISPATCH_FILTER_BLOCK &&
	       !(ip >= (uintptr_t)kentry_start && ip < (uintptr_t)kentry_end);
}

/* trap.c: the C halves of the entry stubs */
void handle_sigsys(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel);
void handle_sigalrm(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel);
void handle_sigio(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel);
void handle_hostsig(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel);
void handle_sigwinch(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel);
void handle_fault(int sig, siginfo_t *si, ucontext_t *uc, unsigned int oldsel);
void trap_init(void);

/* tty.c: when stdin is the terminal umk runs in the foreground of, make it
 * raw for the kernel's tty (os_tty_restore undoes it). */
void host_tty_init(void);
void sud_enable(void);
void oops(const char *what, int sig, const siginfo_t *si, const ucontext_t *uc);

/* process.c */
struct task_struct;
void arch_boot_switch(struct task_struct *idle, void (*fn)(void *), void *arg) __attribute__((noreturn));

/* asan.c (make SANITIZE=address): what ASan must know of kernel stacks */
#ifdef UMK_ASAN
void asan_switch_start(void **save, const void *bottom, unsigned long size);
void asan_switch_finish(void *save);
void asan_unpoison(const void *addr, unsigned long size);
#else
static inline __tls_free void asan_switch_start(void **save, const void *bottom,
						unsigned long size)
{
}
static inline __tls_free void asan_switch_finish(void *save)
{
}
static inline __tls_free void asan_unpoison(const void *addr, unsigned long size)
{
}
#endif

/* irq.c */
void irq_record(int irq);
void irq_record_host_signal(int sig);
void irq_init(void);		/* console input and output room raise SIGIO */
void irq_exit_host(void);	/* undo irq_init's changes to the host fds */

/* time.c */
void time_init(int clockid);
void os_random_fix(void);	/* arch/file.c: --clock=virtual's repeatable bytes */

#endif
