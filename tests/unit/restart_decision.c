/*
 * tests/unit/restart_decision.c: prints kernel/signal/restart.c's decision for every
 * return code a system call can leave and every kind of delivery, one line
 * each; tests/restart_decision.bats holds the table it must print. A column
 * is the handler and its flags, then, after '/', what kernel/signal/resume.c says
 * about the call: "resumable" (RESUME_ROOM), "full" (RESUME_DEPTH
 * continuations saved already) or nothing (the call does not take part).
 */
#include <stdio.h>

#include <umk/errno.h>
#include <umk/restart.h>
#include <umk/signal.h>

int main(void)
{
	static const struct {
		long ret;
		const char *name;
	} codes[] = {
		{ -ERESTARTSYS, "ERESTARTSYS" },
		{ -ERESTARTNOINTR, "ERESTARTNOINTR" },
		{ -ERESTARTNOHAND, "ERESTARTNOHAND" },
		{ -ERESTART_RESTARTBLOCK, "ERESTART_RESTARTBLOCK" },
		{ -EINTR, "EINTR" },
		{ 0, "0" },
		{ 5, "5" },
		{ -ENOIOCTLCMD, "ENOIOCTLCMD" },
	};
	static const struct {
		bool handler;
		unsigned long flags;
		enum resume_ctx rc;
		const char *name;
	} columns[] = {
		{ false, 0, RESUME_NO, "no-handler" },
		{ true, 0, RESUME_NO, "handler" },
		{ true, SA_RESTART, RESUME_NO, "handler+SA_RESTART" },
		{ true, SA_RESTART | SA_NODEFER | SA_SIGINFO, RESUME_NO, "handler+SA_RESTART+others" },
		{ false, SA_RESUME, RESUME_ROOM, "no-handler+SA_RESUME/resumable" },
		{ true, 0, RESUME_ROOM, "handler/resumable" },
		{ true, SA_RESTART, RESUME_ROOM, "handler+SA_RESTART/resumable" },
		{ true, SA_RESUME, RESUME_NO, "handler+SA_RESUME" },
		{ true, SA_RESUME, RESUME_ROOM, "handler+SA_RESUME/resumable" },
		{ true, SA_RESUME, RESUME_FULL, "handler+SA_RESUME/full" },
		{ true, SA_RESUME | SA_RESTART, RESUME_ROOM, "handler+SA_RESUME+SA_RESTART/resumable" },
		{ true, SA_RESUME | SA_RESTART, RESUME_FULL, "handler+SA_RESUME+SA_RESTART/full" },
		{ true, SA_RESUME | SA_NODEFER | SA_SIGINFO | SA_ONSTACK, RESUME_ROOM,
		  "handler+SA_RESUME+others/resumable" },
	};
	unsigned int i, j;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		for (j = 0; j < sizeof(columns) / sizeof(columns[0]); j++)
			printf("%s %s %s\n", codes[i].name, columns[j].name,
			       restart_action_name(restart_decision(codes[i].ret, columns[j].handler,
								    columns[j].flags, columns[j].rc)));
	return 0;
}
