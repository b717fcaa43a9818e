/* include/umk/uapi/signal.h: signal numbers, sigprocmask's how,
 * sigaction's flags and sigaltstack's flags and minimum size, in Linux's
 * x86-64 values (include/uapi/asm-generic/signal.h, signal-defs.h). */
#ifndef UMK_UAPI_SIGNAL_H
#define UMK_UAPI_SIGNAL_H

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

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

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
/*
 * umk's own flag, not Linux's: a system call interrupted for this handler
 * continues after the handler returns (docs/design.md, "Resuming over a
 * handler"). Bit 20 is used by no sa_flags of x86 Linux (uapi: 0x1, 0x2,
 * 0x4, 0x400, 0x800, 0x04000000-0x80000000; kernel-internal SA_IMMUTABLE:
 * 0x00800000; the old SA_INTERRUPT: 0x20000000). Linux 5.11 and later
 * clear it (UAPI_SA_FLAGS), so sigaction's oldact shows it gone there.
 * User programs take it from harness/lib/umk_resume.h.
 */
#define SA_RESUME 0x00100000

#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1U << 31)

#define MINSIGSTKSZ 2048

#endif
