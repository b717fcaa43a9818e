/*
 * kernel/restart.c: what becomes of a system call that returned an -ERESTART
 * code when the task goes back to user mode (Linux 2.5.51's mechanism).
 *
 *                        no handler         handler          handler+SA_RESTART
 * -ERESTARTSYS           restart            -EINTR           restart
 * -ERESTARTNOINTR        restart            restart          restart
 * -ERESTARTNOHAND        restart            -EINTR           -EINTR
 * -ERESTART_RESTARTBLOCK restart_syscall    -EINTR           -EINTR
 *
 * "No handler" covers a signal that was ignored, a stop followed by a
 * continue, and a signal pending no more by the time it is looked at.
 * This file depends on nothing else, so tests/unit checks it cell by cell.
 */
#include <umk/errno.h>
#include <umk/restart.h>
#include <umk/signal.h>

enum restart_action restart_decision(long ret, bool handler, unsigned long sa_flags)
{
	if (handler) {
		switch (ret) {
		case -ERESTART_RESTARTBLOCK:
		case -ERESTARTNOHAND:
			return RESTART_EINTR;
		case -ERESTARTSYS:
			if (!(sa_flags & SA_RESTART))
				return RESTART_EINTR;
			return RESTART_SYSCALL;
		case -ERESTARTNOINTR:
			return RESTART_SYSCALL;
		}
		return RESTART_NONE;
	}

	switch (ret) {
	case -ERESTARTNOHAND:
	case -ERESTARTSYS:
	case -ERESTARTNOINTR:
		return RESTART_SYSCALL;
	case -ERESTART_RESTARTBLOCK:
		return RESTART_RESTARTBLOCK;
	}
	return RESTART_NONE;
}

const char *restart_action_name(enum restart_action a)
{
	static const char *const names[] = {
		[RESTART_NONE] = "none",
		[RESTART_EINTR] = "EINTR",
		[RESTART_SYSCALL] = "restart",
		[RESTART_RESTARTBLOCK] = "restart_syscall",
	};

	return names[a];
}
