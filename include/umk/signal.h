/* Signals: Linux x86-64 numbers, flags and structures (include/uapi/asm-generic/
 * signal*.h, include/uapi/asm-generic/siginfo.h, include/linux/signal.h). */
#ifndef UMK_SIGNAL_H
#define UMK_SIGNAL_H

#include <umk/types.h>
#include <umk/uapi/signal.h>
#include <umk/uapi/siginfo.h>

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

#define SIG_DFL ((void __user *)0)
#define SIG_IGN ((void __user *)1)

/* The x86-64 kernel sigaction (struct sigaction in the kernel ABI). */
struct k_sigaction {
	void __user *handler;
	unsigned long flags;
	void __user *restorer;
	sigset_t mask;
};

typedef struct {
	void __user *ss_sp;
	int ss_flags;
	size_t ss_size;
} stack_t;

typedef union sigval {
	int sival_int;
	void __user *sival_ptr;
} sigval_t;

/* timer_create's (include/uapi/asm-generic/siginfo.h): 64 bytes. */
struct sigevent {
	sigval_t sigev_value;
	int sigev_signo;
	int sigev_notify;		/* SIGEV_* */
	union {
		int _pad[12];
		int _tid;		/* SIGEV_THREAD_ID */
	} _sigev_un;
};
#define sigev_notify_thread_id _sigev_un._tid

_Static_assert(sizeof(struct sigevent) == 64, "sigevent is 64 bytes");

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
		struct {		/* SI_TIMER: a POSIX timer's */
			int tid;	/* si_timerid */
			int overrun;
			sigval_t sigval;
		} _timer;
		struct {		/* SIGIO, F_SETSIG's signal (fasync) */
			long band;	/* si_band: poll's events */
			int fd;		/* si_fd */
		} _sigpoll;
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
