/*
 * arch/irq.c: interrupts as UML does them.
 *
 * umk's kernel always runs with interrupts "off" in software: a host SIGALRM
 * or SIGIO that arrives in kernel mode does one atomic OR into irq_pending and
 * returns. The kernel replays what is pending (irq_replay in kernel/entry.c)
 * on every way back to user mode and in the idle loop. The idle task sleeps
 * on the host with the classic race closed: block the interrupt signals, look
 * at irq_pending, and only then sigsuspend with them unblocked, so an
 * interrupt that arrives between the look and the wait still wakes it.
 */
#include "host.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <umk/arch.h>

static volatile unsigned long irq_pending;
static volatile unsigned long host_signals_pending;	/* bit sig - 1 */
static int console_saved_flags = -1;	/* fd 0's flags before irq_init */

void __tls_free irq_record(int irq)
{
	__atomic_or_fetch(&irq_pending, 1UL << irq, __ATOMIC_SEQ_CST);
}

void __tls_free irq_record_host_signal(int sig)
{
	__atomic_or_fetch(&host_signals_pending, 1UL << (sig - 1), __ATOMIC_SEQ_CST);
	irq_record(IRQ_HOSTSIG);
}

unsigned long __tls_free arch_take_host_signals(void)
{
	return __atomic_exchange_n(&host_signals_pending, 0, __ATOMIC_SEQ_CST);
}

unsigned long __tls_free arch_take_pending_irqs(void)
{
	return __atomic_exchange_n(&irq_pending, 0, __ATOMIC_SEQ_CST);
}

/* The host signals that are interrupts (trap.c's table). */
static const int irq_signals[] = { SIGALRM, SIGIO, SIGINT, SIGQUIT, SIGTERM, SIGHUP };

void arch_idle(void)
{
	sigset_t irqs, old, wait;
	unsigned int i;

	sigemptyset(&irqs);
	for (i = 0; i < sizeof(irq_signals) / sizeof(irq_signals[0]); i++)
		sigaddset(&irqs, irq_signals[i]);
	sigprocmask(SIG_BLOCK, &irqs, &old);
	if (!irq_pending) {
		/* Computed, not assumed: idle may run in a context that entered
		 * through a handler with one of them blocked. */
		wait = old;
		for (i = 0; i < sizeof(irq_signals) / sizeof(irq_signals[0]); i++)
			sigdelset(&wait, irq_signals[i]);
		sigsuspend(&wait);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Console input raises SIGIO (O_ASYNC on the host's fd 0). Where fd 0 cannot
 * do that (a regular file, /dev/null), reads never have to wait anyway. */
void irq_init(void)
{
	int flags = fcntl(0, F_GETFL);

	if (flags < 0)
		return;
	if (fcntl(0, F_SETOWN, getpid()) == 0 && fcntl(0, F_SETFL, flags | O_ASYNC) == 0)
		console_saved_flags = flags;
}

/* fd 0's open file description is shared with whoever started umk. */
void irq_exit_host(void)
{
	if (console_saved_flags >= 0)
		fcntl(0, F_SETFL, console_saved_flags);
}
