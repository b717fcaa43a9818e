/*
 * kernel/signal/restart.c: what becomes of a system call that returned an -ERESTART
 * code when the task goes back to user mode (Linux 2.5.51's mechanism), and
 * umk's SA_RESUME column.
 *
 *                        no handler       handler   handler+SA_RESTART  handler+SA_RESUME
 * -ERESTARTSYS           restart          -EINTR    restart             (as without it)
 * -ERESTARTNOINTR        restart          restart   restart             restart
 * -ERESTARTNOHAND        restart          -EINTR    -EINTR              resume_call
 * -ERESTART_RESTARTBLOCK restart_syscall  -EINTR    -EINTR              resume
 *
 * "No handler" covers a signal that was ignored, a stop followed by a
 * continue, and a signal pending no more by the time it is looked at.
 *
 * The SA_RESUME column applies only to a call that takes part
 * (RESUME_ROOM: kernel/signal/resume.c's list) with room left for one more
 * saved continuation; RESUME_FULL makes it -EINTR, as the footnote of the
 * mail that introduced restart_block proposed for nesting; RESUME_NO (any
 * other call) leaves Linux's columns. Without SA_RESUME the table is
 * exactly Linux's, whatever rc says.
 *
 * This file depends on nothing else, so tests/unit checks it cell by cell.
 */
#include <umk/errno.h>
#include <umk/restart.h>
#include <umk/signal.h>

enum restart_action restart_decision(long ret, bool handler, unsigned long sa_flags,
				     enum resume_ctx rc)
{
	if (handler) {
		switch (ret) {
		case -ERESTART_RESTARTBLOCK:
		case -ERESTARTNOHAND:
			if (!(sa_flags & SA_RESUME) || rc != RESUME_ROOM)
				return RESTART_EINTR;
			return ret == -ERESTARTNOHAND ? RESTART_RESUME_CALL : RESTART_RESUME;
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
		[RESTART_RESUME] = "resume",
		[RESTART_RESUME_CALL] = "resume_call",
	};

	return names[a];
}
