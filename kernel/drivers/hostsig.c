/*
 * kernel/drivers/hostsig.c: IRQ_HOSTSIG, the signals umk itself was sent
 * on the host (^C on its terminal, a kill of umk): what the terminal's
 * line discipline does with ^C, done for every process.
 */
#include <umk/fs.h>
#include <umk/sched.h>
#include <umk/sched/signal.h>
#include <umk/trace.h>
#include <umk/tty.h>

/* The tty's ISIG (n_tty's isig): signals umk itself was sent, ^C on its
 * terminal or a kill from the host, go to every process, as the tty driver's
 * kill_pgrp sends ^C to the foreground process group (umk's processes form
 * one group), with si_code SI_KERNEL as from the tty. */
void host_signals_interrupt(unsigned long sigs)
{
	struct task_struct *p;
	kernel_siginfo_t info;
	int sig;

	if (console_tty) {
		tty_host_signals(sigs);
		return;
	}
	for (sig = 1; sig <= _NSIG; sig++) {
		if (!(sigs & sigmask(sig)))
			continue;
		trace_with(TR_SIGNAL, &(struct trace_fields){ .other = -1, .sig = sig, .what = "host" },
			   "%s from the host -> every process", signal_name(sig));
		fill_kill_info(&info, sig, SI_KERNEL);
		list_for_each_entry(p, &task_list, tasks) {
			if (thread_group_leader(p) && p != idle_task && !p->exit_state)
				send_signal(sig, &info, p, true);
		}
	}
}
