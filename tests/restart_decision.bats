#!/usr/bin/env bats
# The restart decision in isolation (kernel/restart.c): every return code
# against every kind of delivery, as Linux's handle_signal and
# arch_do_signal_or_restart decide.

load helper

@test "the restart decision matches Linux's table in every cell" {
	run --separate-stderr timeout 10 build/tests/restart_decision
	assert_success
	assert_output "ERESTARTSYS no-handler restart
ERESTARTSYS handler EINTR
ERESTARTSYS handler+SA_RESTART restart
ERESTARTSYS handler+SA_RESTART+others restart
ERESTARTNOINTR no-handler restart
ERESTARTNOINTR handler restart
ERESTARTNOINTR handler+SA_RESTART restart
ERESTARTNOINTR handler+SA_RESTART+others restart
ERESTARTNOHAND no-handler restart
ERESTARTNOHAND handler EINTR
ERESTARTNOHAND handler+SA_RESTART EINTR
ERESTARTNOHAND handler+SA_RESTART+others EINTR
ERESTART_RESTARTBLOCK no-handler restart_syscall
ERESTART_RESTARTBLOCK handler EINTR
ERESTART_RESTARTBLOCK handler+SA_RESTART EINTR
ERESTART_RESTARTBLOCK handler+SA_RESTART+others EINTR
EINTR no-handler none
EINTR handler none
EINTR handler+SA_RESTART none
EINTR handler+SA_RESTART+others none
0 no-handler none
0 handler none
0 handler+SA_RESTART none
0 handler+SA_RESTART+others none
5 no-handler none
5 handler none
5 handler+SA_RESTART none
5 handler+SA_RESTART+others none
ENOIOCTLCMD no-handler none
ENOIOCTLCMD handler none
ENOIOCTLCMD handler+SA_RESTART none
ENOIOCTLCMD handler+SA_RESTART+others none"
}
