/* sigfault: signals a program brings on itself, one scenario per argument:
 *   faults        SIGSEGV, SIGFPE, SIGILL and SIGTRAP caught by SA_SIGINFO
 *                 handlers that siglongjmp out; the program goes on
 *   frames MODE.. a child per MODE, whose wait status is printed:
 *                 no-restorer (a handler installed without SA_RESTORER),
 *                 sigreturn-zeros, sigreturn-ones, sigreturn-0xab
 *                 (rt_sigreturn on a stack of those bytes), blocked-segv,
 *                 ignored-segv (a NULL write with SIGSEGV blocked/ignored)
 * Only si_code numbers (with Linux's names) and addresses relative to a
 * known one are printed, never an address itself. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"

/* ---- faults ---- */

static sigjmp_buf env;
static struct {
	int sig, code;
	unsigned long addr, ip;
} seen;

static void fault_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	seen.sig = sig;
	seen.code = si->si_code;
	seen.addr = (unsigned long)si->si_addr;
	seen.ip = uc->uc_mcontext.gregs[REG_RIP];
	siglongjmp(env, 1);
}

static const char *code_name(int sig, int code)
{
	if (code == SI_KERNEL)
		return "SI_KERNEL";
	if (code == SI_USER)
		return "SI_USER";
	switch (sig) {
	case SIGSEGV:
		return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "?";
	case SIGFPE:
		return code == FPE_INTDIV ? "FPE_INTDIV" : code == FPE_INTOVF ? "FPE_INTOVF" : "?";
	case SIGILL:
		return code == ILL_ILLOPN ? "ILL_ILLOPN" : code == ILL_ILLOPC ? "ILL_ILLOPC" : "?";
	case SIGTRAP:
		return code == TRAP_BRKPT ? "TRAP_BRKPT" : code == TRAP_TRACE ? "TRAP_TRACE" : "?";
	}
	return "?";
}

/* The faulting instructions, each with a label at its start. */
extern char ud2_insn[], int3_insn[], div_insn[];

static __attribute__((noinline)) void do_ud2(void)
{
	__asm__ volatile("ud2_insn: ud2");
}

static __attribute__((noinline)) void do_int3(void)
{
	__asm__ volatile("int3_insn: int3");
}

static __attribute__((noinline)) void do_div(void)
{
	__asm__ volatile("xor %%ecx, %%ecx\n\tmov $1, %%eax\n\tcdq\n"
			 "div_insn: idiv %%ecx" ::: "eax", "ecx", "edx");
}

static char *ro_page;
/* A page unmapped between two mapped ones: no region there. */
static char *hole;

/* Through a volatile pointer: gcc may drop a store it can see is to NULL. */
static int *volatile null_ptr;

static __attribute__((noinline)) void write_null(void) { *null_ptr = 1; }
static __attribute__((noinline)) void write_0x1008(void) { *(volatile int *)0x1008 = 1; }
static __attribute__((noinline)) void write_ro(void) { *(volatile char *)(ro_page + 8) = 1; }
static __attribute__((noinline)) void write_hole(void) { *(volatile char *)(hole + 8) = 1; }

/* Where si_addr points, relative to the faulting instruction or page. */
static void print_addr(unsigned long addr, const char *insn)
{
	if (insn && addr == (unsigned long)insn)
		printf(" si_addr=the instruction");
	else if (ro_page && addr == (unsigned long)ro_page + 8)
		printf(" si_addr=page+8");
	else if (hole && addr == (unsigned long)hole + 8)
		printf(" si_addr=hole+8");
	else if (addr < 0x10000)
		printf(" si_addr=%#lx", addr);
	else
		printf(" si_addr=elsewhere");
}

static void try_fault(const char *what, void (*fn)(void), const char *insn)
{
	memset(&seen, 0, sizeof(seen));
	if (sigsetjmp(env, 1) == 0) {
		fn();
		printf("%s: no signal\n", what);
		return;
	}
	printf("%s: %s si_code=%d (%s)", what, signal_name(seen.sig), seen.code,
	       code_name(seen.sig, seen.code));
	print_addr(seen.addr, insn);
	if (insn)
		printf(" rip=%s", seen.ip == (unsigned long)insn ? "the instruction" :
			       seen.ip == (unsigned long)insn + 1 ? "after it" : "elsewhere");
	putchar('\n');
}

static void faults(void)
{
	struct sigaction sa = { .sa_sigaction = fault_handler, .sa_flags = SA_SIGINFO };
	const int sigs[] = { SIGSEGV, SIGFPE, SIGILL, SIGTRAP };
	sigset_t mask;

	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 4; i++)
		if (sigaction(sigs[i], &sa, NULL))
			die("sigaction failed");
	ro_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro_page == MAP_FAILED)
		die("mmap failed");
	hole = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (hole == MAP_FAILED)
		die("mmap failed");
	hole += 4096;
	if (munmap(hole, 4096))
		die("munmap failed");

	try_fault("write to NULL", write_null, NULL);
	try_fault("write to 0x1008", write_0x1008, NULL);
	try_fault("write to a PROT_READ page", write_ro, NULL);
	try_fault("write to an unmapped page between two regions", write_hole, NULL);
	try_fault("idiv by zero", do_div, div_insn);
	try_fault("ud2", do_ud2, ud2_insn);
	try_fault("int3", do_int3, int3_insn);
	/* Twice: siglongjmp restored the mask, so the handler runs again. */
	try_fault("write to NULL again", write_null, NULL);

	sigprocmask(SIG_SETMASK, NULL, &mask);
	printf("after the siglongjmps: SIGSEGV blocked: %s\n", sigismember(&mask, SIGSEGV) ? "yes" : "no");
	printf("the program continues\n");
}

/* ---- broken frames, each in a child ---- */

struct k_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

static void plain_handler(int sig)
{
	(void)sig;
}

static char garbage[8192] __attribute__((aligned(64)));

static void child(const char *mode)
{
	/* No core files, whatever the host's core_pattern. */
	prctl(PR_SET_DUMPABLE, 0);
	if (strcmp(mode, "no-restorer") == 0) {
		struct k_sigaction ka = { .handler = plain_handler };

		show("child: rt_sigaction(SIGUSR1) without SA_RESTORER", rsys(SYS_rt_sigaction, SIGUSR1, &ka, NULL, 8));
		fflush(stdout);
		rsys(SYS_kill, rsys0(SYS_getpid), SIGUSR1);
	} else if (strcmp(mode, "blocked-segv") == 0) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGSEGV);
		sigprocmask(SIG_BLOCK, &set, NULL);
		printf("child: SIGSEGV blocked, writing to NULL\n");
		fflush(stdout);
		write_null();
	} else if (strcmp(mode, "ignored-segv") == 0) {
		signal(SIGSEGV, SIG_IGN);
		printf("child: SIGSEGV ignored, writing to NULL\n");
		fflush(stdout);
		write_null();
	} else {
		int fill = strcmp(mode, "sigreturn-zeros") == 0 ? 0 :
			   strcmp(mode, "sigreturn-ones") == 0 ? 0xff : 0xab;

		memset(garbage, fill, sizeof(garbage));
		printf("child: rt_sigreturn on a stack of 0x%02x bytes\n", fill);
		fflush(stdout);
		/* The frame rt_sigreturn reads starts 8 bytes below rsp. */
		__asm__ volatile("mov %0, %%rsp\n\tmov $15, %%eax\n\tsyscall\n\tud2"
				 :: "r"(garbage + 4096) : "memory");
	}
	printf("child: still alive\n");
	exit(0);
}

static void frames(const char *self, char **modes, int n)
{
	for (int i = 0; i < n; i++) {
		pid_t pid = spawn(self, (char *[]){ (char *)self, "child", modes[i], NULL });

		printf("%s: %s\n", modes[i], status_text(wait_status(pid)));
	}
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "child") == 0)
		child(argv[2]);
	else if (argc == 2 && strcmp(argv[1], "faults") == 0)
		faults();
	else if (argc >= 3 && strcmp(argv[1], "frames") == 0)
		frames(argv[0], argv + 2, argc - 2);
	else
		die("usage: sigfault faults | frames MODE... | child MODE");
	return 0;
}
