/*
 * acflag: system calls made with EFLAGS.AC (alignment check) set. A program
 * may set it; the kernel must not run with it (the CPU's syscall entry
 * clears it; umk's entry stubs must too, or umk's own unaligned accesses
 * fault). Regression test: umk died of SIGBUS here once.
 */
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define X86_EFLAGS_AC 0x40000UL

static void set_ac(int on)
{
	unsigned long f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	f = on ? f | X86_EFLAGS_AC : f & ~X86_EFLAGS_AC;
	__asm__ volatile("pushq %0; popfq" : : "r"(f) : "cc");
}

static volatile int handled;

static void on_usr1(int sig)
{
	handled++;
}

int main(void)
{
	static const char msg[8] __attribute__((aligned(8))) = "with AC\n";
	struct timespec ts __attribute__((aligned(16))) = { 0, 1000000 };
	struct sigaction sa;
	long pid, w, slept;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	set_ac(1);
	pid = rsys0(SYS_getpid);
	w = rsys(SYS_write, 1, msg, 8);
	slept = rsys(SYS_nanosleep, &ts, NULL);		/* a timer interrupt too */
	rsys(SYS_kill, pid, SIGUSR1);			/* a handler: a frame */
	set_ac(0);
	show("write", w);
	show("nanosleep", slept);
	show("handler runs", handled);
	return 0;
}
