/*
 * fpframe: the FPU state in a signal frame is the program's, both ways.
 * A handler finds the interrupted xmm0 in its ucontext, rewrites it and
 * MXCSR's rounding mode there, and after sigreturn the program runs with
 * what the handler wrote (Linux restores the FPU from the frame). With
 * `fpframe bad`, the handler writes reserved MXCSR bits instead: Linux's
 * sigreturn refuses that frame and kills the program with SIGSEGV; umk
 * must do the same (and not hand the frame to the host, which would kill
 * umk).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define PATTERN_IN 0x1122334455667788ULL
#define PATTERN_OUT 0x8877665544332211ULL
#define MXCSR_RC_ZERO 0x6000U		/* rounding control: toward zero */

static int bad;
static unsigned long long seen;

static void on_usr1(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned *x = uc->uc_mcontext.fpregs->_xmm[0].element;

	seen = x[0] | (unsigned long long)x[1] << 32;
	x[0] = (unsigned)PATTERN_OUT;
	x[1] = (unsigned)(PATTERN_OUT >> 32);
	if (bad)
		uc->uc_mcontext.fpregs->mxcsr = 0xffffffff;
	else
		uc->uc_mcontext.fpregs->mxcsr |= MXCSR_RC_ZERO;
}

int main(int argc, char **argv)
{
	unsigned long long in = PATTERN_IN, out;
	long nr = SYS_tgkill;
	struct sigaction sa;
	unsigned mxcsr;

	bad = argc > 1 && !strcmp(argv[1], "bad");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	printf("raising\n");
	fflush(stdout);
	/* xmm0 must hold the pattern across the signal: one asm block, with
	 * the system call whose return delivers the signal in the middle. */
	__asm__ volatile("movq %[in], %%xmm0\n\t"
			 "syscall\n\t"
			 "movq %%xmm0, %[out]"
			 : [out] "=r"(out), "+a"(nr)
			 : [in] "r"(in), "D"((long)getpid()), "S"((long)syscall(SYS_gettid)),
			   "d"((long)SIGUSR1)
			 : "rcx", "r11", "xmm0", "memory");
	__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
	printf("handler saw xmm0 %s\n", seen == PATTERN_IN ? "as interrupted" : "changed");
	printf("after sigreturn xmm0 is %s\n", out == PATTERN_OUT ? "what the handler wrote" : "something else");
	printf("rounding toward zero: %s\n", (mxcsr & MXCSR_RC_ZERO) == MXCSR_RC_ZERO ? "yes" : "no");
	return 0;
}
