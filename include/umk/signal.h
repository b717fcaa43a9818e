/* Signals: Linux x86-64 numbers, flags and structures (include/uapi/asm-generic/
 * signal*.h, include/uapi/asm-generic/siginfo.h, include/linux/signal.h). */
#ifndef UMK_SIGNAL_H
#define UMK_SIGNAL_H

#include <umk/types.h>

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPWR 30
#define SIGSYS 31
#define SIGRTMIN 32
#define SIGRTMAX 64
#define _NSIG 64

typedef struct {
	unsigned long sig;	/* bit (n - 1) for signal n */
} sigset_t;

#define sigmask(sig) (1UL << ((sig) - 1))

static inline void sigaddset(sigset_t *set, int sig) { set->sig |= sigmask(sig); }
static inline void sigdelset(sigset_t *set, int sig) { set->sig &= ~sigmask(sig); }
static inline bool sigismember(const sigset_t *set, int sig)
{
	return set->sig & sigmask(sig);
}

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

#define SIG_DFL ((void __user *)0)
#define SIG_IGN ((void __user *)1)

#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO 0x00000004
#define SA_UNSUPPORTED 0x00000400
#define SA_EXPOSE_TAGBITS 0x00000800
#define SA_RESTORER 0x04000000
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000

/* The x86-64 kernel sigaction (struct sigaction in the kernel ABI). */
struct k_sigaction {
	void __user *handler;
	unsigned long flags;
	void __user *restorer;
	sigset_t mask;
};

#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1U << 31)

typedef struct {
	void __user *ss_sp;
	int ss_flags;
	size_t ss_size;
} stack_t;

/* si_code values */
#define SI_USER 0
#define SI_KERNEL 0x80
#define SI_QUEUE -1
#define SI_TIMER -2
#define SI_TKILL -6
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRERR 2
#define ILL_ILLOPN 2
#define FPE_INTDIV 1
#define TRAP_BRKPT 1
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_TRAPPED 4
#define CLD_STOPPED 5
#define CLD_CONTINUED 6

/* siginfo as user space sees it: 128 bytes, the union at offset 16. */
typedef struct kernel_siginfo {
	int si_signo;
	int si_errno;
	int si_code;
	int __pad0;
	union {
		int _pad[28];
		struct {		/* kill, tkill, sigqueue */
			pid_t pid;
			uid_t uid;
			long value;
		} _kill;
		struct {		/* SIGCHLD */
			pid_t pid;
			uid_t uid;
			int status;
			long utime;
			long stime;
		} _sigchld;
		struct {		/* SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP */
			void __user *addr;
		} _sigfault;
		struct {		/* SIGSYS */
			void __user *call_addr;
			int syscall;
			unsigned int arch;
		} _sigsys;
	};
} kernel_siginfo_t;

_Static_assert(sizeof(kernel_siginfo_t) == 128, "siginfo is 128 bytes");

const char *signal_name(int sig);	/* "SIGTERM", or NULL */

#endif
