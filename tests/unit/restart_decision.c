/*
 * tests/unit/restart_decision.c: prints kernel/restart.c's decision for every
 * return code a system call can leave and every kind of delivery, one line
 * each; tests/restart_decision.bats holds the table it must print.
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
		const char *name;
	} columns[] = {
		{ false, 0, "no-handler" },
		{ true, 0, "handler" },
		{ true, SA_RESTART, "handler+SA_RESTART" },
		{ true, SA_RESTART | SA_NODEFER | SA_SIGINFO, "handler+SA_RESTART+others" },
	};
	unsigned int i, j;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		for (j = 0; j < sizeof(columns) / sizeof(columns[0]); j++)
			printf("%s %s %s\n", codes[i].name, columns[j].name,
			       restart_action_name(restart_decision(codes[i].ret, columns[j].handler,
								    columns[j].flags)));
	return 0;
}
