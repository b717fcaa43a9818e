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
 *
 * SIGIO is the console's interrupt both ways: input arrived on fd 0, or room
 * came free on an output fd (0, 1 or 2) that can be full. It is also the
 * host sockets' (arch/net.c sets O_ASYNC on each): trap.c records
 * IRQ_NET with IRQ_CONSOLE for every SIGIO. irq_init sets
 * O_ASYNC on them; irq_exit_host puts every flag back. Those file
 * descriptions are shared with whoever started umk (and fds 0, 1 and 2 may
 * all be one description, a terminal's): every original flag is read before
 * any is changed, and they are restored in reverse order, so each ends as it
 * was. O_NONBLOCK is never set: a console write polls for room first
 * (kernel/drivers/console.c). After a SIGKILL of umk nothing restores them.
 */
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <umk/os.h>

static volatile unsigned long irq_pending;
static volatile unsigned long host_signals_pending;	/* bit sig - 1 */
#define CONSOLE_FDS 3
/* fds 0, 1 and 2's flags before irq_init, -1 where unchanged */
static int console_saved_flags[CONSOLE_FDS] = { -1, -1, -1 };
/* fds whose writes may have to wait for room and that raise SIGIO when it
 * comes: pipes, FIFOs, sockets and terminals, once O_ASYNC is set */
static bool console_out_waits[CONSOLE_FDS];

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

/* Every return to user mode asks, and there is seldom anything: a plain
 * load first. The exchange is a locked instruction, which waits for every
 * store before it to complete (the trace ring's among them); an interrupt
 * recorded just after the load is found at the next check, as one that
 * came a moment later would be. */
unsigned long __tls_free arch_take_pending_irqs(void)
{
	if (!irq_pending)
		return 0;
	return __atomic_exchange_n(&irq_pending, 0, __ATOMIC_SEQ_CST);
}

/* The host signals that are interrupts (trap.c's table). */
static const int irq_signals[] = { SIGALRM, SIGIO, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGWINCH };

/* The same as a host signal mask (bit sig - 1). */
static unsigned long __tls_free irq_signal_mask(void)
{
	unsigned long mask = 0;
	unsigned int i;

	for (i = 0; i < sizeof(irq_signals) / sizeof(irq_signals[0]); i++)
		mask |= 1UL << (irq_signals[i] - 1);
	return mask;
}

/* With the host's own calls, not glibc's (errno), and __tls_free: idle
 * runs no glibc, so a task that sleeps and is woken with nothing run in
 * between goes back to user mode on the FS base it left, without the two
 * arch_prctl of a load of glibc's (docs/design.md, "The FS base"). */
void __tls_free arch_idle(void)
{
	unsigned long irqs = irq_signal_mask(), old, wait;

	host_syscall4(SYS_rt_sigprocmask, SIG_BLOCK, (unsigned long)&irqs, (unsigned long)&old,
		      sizeof(old));
	if (!irq_pending) {
		/* Computed, not assumed: idle may run in a context that entered
		 * through a handler with one of them blocked. */
		wait = old & ~irqs;
		host_syscall2(SYS_rt_sigsuspend, (unsigned long)&wait, sizeof(wait));
	}
	host_syscall4(SYS_rt_sigprocmask, SIG_SETMASK, (unsigned long)&old, 0, sizeof(old));
}

/* Wait on the host until fd has room or an interrupt arrives, with the
 * same race closed as arch_idle: a host signal that comes between the look
 * at host_signals_pending and the wait still ends the wait. Returns true
 * when umk was sent a host signal. */
static bool wait_output_room(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	sigset_t irqs, old, wait;
	bool sent;
	unsigned int i;

	sigemptyset(&irqs);
	for (i = 0; i < sizeof(irq_signals) / sizeof(irq_signals[0]); i++)
		sigaddset(&irqs, irq_signals[i]);
	sigprocmask(SIG_BLOCK, &irqs, &old);
	sent = host_signals_pending != 0;
	if (!sent) {
		wait = old;
		for (i = 0; i < sizeof(irq_signals) / sizeof(irq_signals[0]); i++)
			sigdelset(&wait, irq_signals[i]);
		ppoll(&p, 1, NULL, &wait);
		sent = host_signals_pending != 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return sent;
}

/* Each write is at most PIPE_BUF bytes and made only when poll says POLLOUT,
 * so on a pipe it never blocks and lines stay whole; a terminal or socket
 * may still block it briefly. A timer tick meanwhile stays pending for the
 * kernel to replay. */
ssize_t os_write_wait(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	size_t done = 0;

	while (done < n) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		ssize_t r;

		if (poll(&pfd, 1, 0) == 0) {
			if (wait_output_room(fd))
				return -EINTR;
			continue;
		}
		r = write(fd, p + done, n - done < PIPE_BUF ? n - done : PIPE_BUF);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		done += r;
	}
	return n;
}

/* Can a write to fd find it full (a pipe, a FIFO, a socket, a terminal)?
 * Regular files and other devices (/dev/null, /dev/full) take every write
 * at once or fail it. */
static bool output_can_fill(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return false;
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || (S_ISCHR(st.st_mode) && isatty(fd));
}

/* Console input and room on a full console output raise SIGIO (O_ASYNC on
 * the host's fds 0, 1 and 2). Where an fd cannot do that (a regular file,
 * /dev/null), neither reads nor writes ever have to wait anyway. */
void irq_init(void)
{
	int flags[CONSOLE_FDS];
	int fd;

	for (fd = 0; fd < CONSOLE_FDS; fd++)
		flags[fd] = fcntl(fd, F_GETFL);
	for (fd = 0; fd < CONSOLE_FDS; fd++) {
		bool out = fd > 0 || (flags[fd] >= 0 && (flags[fd] & O_ACCMODE) != O_RDONLY);

		if (flags[fd] < 0 || (fd > 0 && !output_can_fill(fd)))
			continue;
		if (fcntl(fd, F_SETOWN, getpid()) || fcntl(fd, F_SETFL, flags[fd] | O_ASYNC))
			continue;
		console_saved_flags[fd] = flags[fd];
		console_out_waits[fd] = out && output_can_fill(fd);
	}
}

bool os_output_waits(int fd)
{
	return fd >= 0 && fd < CONSOLE_FDS && console_out_waits[fd];
}

/* The console fds' open file descriptions are shared with whoever started
 * umk: in reverse order, so that a description behind several fds ends with
 * the flags it had before irq_init. */
void irq_exit_host(void)
{
	int fd;

	for (fd = CONSOLE_FDS - 1; fd >= 0; fd--)
		if (console_saved_flags[fd] >= 0)
			fcntl(fd, F_SETFL, console_saved_flags[fd]);
}
