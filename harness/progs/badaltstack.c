/*
 * badaltstack: fault with a SIGSEGV handler whose frame cannot be written.
 * The sigaltstack is a PROT_NONE mapping, so building the handler's frame
 * for the NULL dereference faults in the kernel (inside the handling of the
 * program's own SIGSEGV); Linux then kills the program with SIGSEGV. umk
 * died of it once: its fault handler was blocked while it ran, so the
 * host killed umk instead of letting the exception table catch the fault.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static void on_segv(int sig)
{
	printf("handler ran: wrong\n");
}

int main(void)
{
	stack_t ss = { .ss_size = 65536 };
	struct sigaction sa;

	ss.ss_sp = mmap(NULL, ss.ss_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGSEGV, &sa, NULL);
	printf("faulting\n");
	fflush(stdout);
	*(volatile int *)0 = 1;
	return 0;
}
