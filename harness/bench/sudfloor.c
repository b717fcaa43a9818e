/* sudfloor N [fsbase]: the floor of any kernel built on Syscall User
 * Dispatch, in ns per trapped system call. Runs natively only (it turns SUD
 * on for itself).
 *
 * The program does what umk's trap path does at the least: a `syscall`
 * outside the allowed region raises a host SIGSYS, the handler sets rax (the
 * "kernel's" getpid result) and returns through a restorer inside the
 * allowed region, whose rt_sigreturn is therefore not trapped. No kernel
 * logic, no altstack, no FS base: what is left is the host's signal delivery
 * and sigreturn, the price every SUD kernel pays per call. harness/bench/bench.sh
 * prints umk's getpid beside it.
 *
 * With "fsbase", the restorer also sets the FS base with the host's
 * arch_prctl(ARCH_SET_FS) before its rt_sigreturn, as umk's __restore_rt
 * does when it returns to another task than the one that trapped on a host
 * without FSGSBASE (docs/design.md, "The FS base"): the floor of a task
 * switch there, beside which harness/bench/bench.sh prints umk's sched_yield. It
 * sets the thread pointer the program already has: a hypervisor may charge
 * the write of the FS base MSR (microseconds), and on the AMD EPYC PVM guest
 * this was measured on, writing the same value or another cost the same. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "harness.h"

#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_ON 1
#define PR_SYS_DISPATCH_OFF 0
#define SELECTOR_ALLOW 0
#define SELECTOR_BLOCK 1
#define SA_RESTORER 0x04000000

static volatile unsigned char selector = SELECTOR_ALLOW;
unsigned long floor_fs;		/* "fsbase": the FS base the restorer sets */

/* The allowed region: only the restorer. */
void floor_restorer(void);
extern char floor_allowed_start[], floor_allowed_end[];
__asm__(".text\n"
	"floor_allowed_start:\n"
	"	nop\n"
	"floor_restorer:\n"
	"	movq floor_fs(%rip), %rsi\n"
	"	testq %rsi, %rsi\n"
	"	jz 1f\n"
	"	movl $0x1002, %edi\n"	/* ARCH_SET_FS */
	"	movl $158, %eax\n"	/* arch_prctl */
	"	syscall\n"
	"1:	movl $15, %eax\n"	/* rt_sigreturn */
	"	syscall\n"
	"	ud2\n"
	"floor_allowed_end:\n");

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	uc->uc_mcontext.gregs[REG_RAX] = 1;	/* getpid of pid 1 */
}

struct kernel_sigaction {
	void *handler;
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

/* The trapped call: a `syscall` outside the allowed region. */
static long trapped_getpid(void)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"((long)SYS_getpid) : "rcx", "r11", "memory");
	return ret;
}

int main(int argc, char **argv)
{
	struct kernel_sigaction ka = {
		.handler = (void *)on_sigsys,
		.flags = SA_SIGINFO | SA_RESTORER,
		.restorer = floor_restorer,
	};
	long rounds = argc >= 2 ? atol(argv[1]) : 0;
	int fsbase = argc == 3 && !strcmp(argv[2], "fsbase");
	double t0, t1;

	if (rounds <= 0 || (argc == 3 && !fsbase) || argc > 3)
		die("usage: sudfloor N [fsbase]");
	if (fsbase && rsys(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, &floor_fs))
		die("arch_prctl(ARCH_GET_FS) failed");
	if (rsys(SYS_rt_sigaction, SIGSYS, &ka, NULL, 8))
		die("rt_sigaction failed");
	if (rsys(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON,
		 floor_allowed_start, floor_allowed_end - floor_allowed_start, &selector))
		die("this host lacks Syscall User Dispatch");

	t0 = now_ms();		/* a raw syscall: selector is still ALLOW */
	selector = SELECTOR_BLOCK;
	for (long i = 0; i < rounds; i++)
		if (trapped_getpid() != 1)
			die("the trap did not return the handler's value");
	selector = SELECTOR_ALLOW;
	t1 = now_ms();
	rsys(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0);
	printf("sud floor%s: %.0f ns/op (%ld calls)\n", fsbase ? " with an FS base switch" : "",
	       (t1 - t0) * 1e6 / rounds, rounds);
	return 0;
}
