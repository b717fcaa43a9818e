#!/usr/bin/env bats
# The restart decision in isolation (kernel/signal/restart.c): every return code
# against every kind of delivery, as Linux's handle_signal and
# arch_do_signal_or_restart decide, and umk's SA_RESUME column: it changes
# only -ERESTARTNOHAND and -ERESTART_RESTARTBLOCK of a call that takes part
# (/resumable), and only while there is room (/full gives EINTR).

load helper

@test "the restart decision matches Linux's table in every cell, and SA_RESUME changes only its own" {
	run --separate-stderr timeout 10 $B/tests/restart_decision
	assert_success
	assert_output "ERESTARTSYS no-handler restart
ERESTARTSYS handler EINTR
ERESTARTSYS handler+SA_RESTART restart
ERESTARTSYS handler+SA_RESTART+others restart
ERESTARTSYS no-handler+SA_RESUME/resumable restart
ERESTARTSYS handler/resumable EINTR
ERESTARTSYS handler+SA_RESTART/resumable restart
ERESTARTSYS handler+SA_RESUME EINTR
ERESTARTSYS handler+SA_RESUME/resumable EINTR
ERESTARTSYS handler+SA_RESUME/full EINTR
ERESTARTSYS handler+SA_RESUME+SA_RESTART/resumable restart
ERESTARTSYS handler+SA_RESUME+SA_RESTART/full restart
ERESTARTSYS handler+SA_RESUME+others/resumable EINTR
ERESTARTNOINTR no-handler restart
ERESTARTNOINTR handler restart
ERESTARTNOINTR handler+SA_RESTART restart
ERESTARTNOINTR handler+SA_RESTART+others restart
ERESTARTNOINTR no-handler+SA_RESUME/resumable restart
ERESTARTNOINTR handler/resumable restart
ERESTARTNOINTR handler+SA_RESTART/resumable restart
ERESTARTNOINTR handler+SA_RESUME restart
ERESTARTNOINTR handler+SA_RESUME/resumable restart
ERESTARTNOINTR handler+SA_RESUME/full restart
ERESTARTNOINTR handler+SA_RESUME+SA_RESTART/resumable restart
ERESTARTNOINTR handler+SA_RESUME+SA_RESTART/full restart
ERESTARTNOINTR handler+SA_RESUME+others/resumable restart
ERESTARTNOHAND no-handler restart
ERESTARTNOHAND handler EINTR
ERESTARTNOHAND handler+SA_RESTART EINTR
ERESTARTNOHAND handler+SA_RESTART+others EINTR
ERESTARTNOHAND no-handler+SA_RESUME/resumable restart
ERESTARTNOHAND handler/resumable EINTR
ERESTARTNOHAND handler+SA_RESTART/resumable EINTR
ERESTARTNOHAND handler+SA_RESUME EINTR
ERESTARTNOHAND handler+SA_RESUME/resumable resume_call
ERESTARTNOHAND handler+SA_RESUME/full EINTR
ERESTARTNOHAND handler+SA_RESUME+SA_RESTART/resumable resume_call
ERESTARTNOHAND handler+SA_RESUME+SA_RESTART/full EINTR
ERESTARTNOHAND handler+SA_RESUME+others/resumable resume_call
ERESTART_RESTARTBLOCK no-handler restart_syscall
ERESTART_RESTARTBLOCK handler EINTR
ERESTART_RESTARTBLOCK handler+SA_RESTART EINTR
ERESTART_RESTARTBLOCK handler+SA_RESTART+others EINTR
ERESTART_RESTARTBLOCK no-handler+SA_RESUME/resumable restart_syscall
ERESTART_RESTARTBLOCK handler/resumable EINTR
ERESTART_RESTARTBLOCK handler+SA_RESTART/resumable EINTR
ERESTART_RESTARTBLOCK handler+SA_RESUME EINTR
ERESTART_RESTARTBLOCK handler+SA_RESUME/resumable resume
ERESTART_RESTARTBLOCK handler+SA_RESUME/full EINTR
ERESTART_RESTARTBLOCK handler+SA_RESUME+SA_RESTART/resumable resume
ERESTART_RESTARTBLOCK handler+SA_RESUME+SA_RESTART/full EINTR
ERESTART_RESTARTBLOCK handler+SA_RESUME+others/resumable resume
EINTR no-handler none
EINTR handler none
EINTR handler+SA_RESTART none
EINTR handler+SA_RESTART+others none
EINTR no-handler+SA_RESUME/resumable none
EINTR handler/resumable none
EINTR handler+SA_RESTART/resumable none
EINTR handler+SA_RESUME none
EINTR handler+SA_RESUME/resumable none
EINTR handler+SA_RESUME/full none
EINTR handler+SA_RESUME+SA_RESTART/resumable none
EINTR handler+SA_RESUME+SA_RESTART/full none
EINTR handler+SA_RESUME+others/resumable none
0 no-handler none
0 handler none
0 handler+SA_RESTART none
0 handler+SA_RESTART+others none
0 no-handler+SA_RESUME/resumable none
0 handler/resumable none
0 handler+SA_RESTART/resumable none
0 handler+SA_RESUME none
0 handler+SA_RESUME/resumable none
0 handler+SA_RESUME/full none
0 handler+SA_RESUME+SA_RESTART/resumable none
0 handler+SA_RESUME+SA_RESTART/full none
0 handler+SA_RESUME+others/resumable none
5 no-handler none
5 handler none
5 handler+SA_RESTART none
5 handler+SA_RESTART+others none
5 no-handler+SA_RESUME/resumable none
5 handler/resumable none
5 handler+SA_RESTART/resumable none
5 handler+SA_RESUME none
5 handler+SA_RESUME/resumable none
5 handler+SA_RESUME/full none
5 handler+SA_RESUME+SA_RESTART/resumable none
5 handler+SA_RESUME+SA_RESTART/full none
5 handler+SA_RESUME+others/resumable none
ENOIOCTLCMD no-handler none
ENOIOCTLCMD handler none
ENOIOCTLCMD handler+SA_RESTART none
ENOIOCTLCMD handler+SA_RESTART+others none
ENOIOCTLCMD no-handler+SA_RESUME/resumable none
ENOIOCTLCMD handler/resumable none
ENOIOCTLCMD handler+SA_RESTART/resumable none
ENOIOCTLCMD handler+SA_RESUME none
ENOIOCTLCMD handler+SA_RESUME/resumable none
ENOIOCTLCMD handler+SA_RESUME/full none
ENOIOCTLCMD handler+SA_RESUME+SA_RESTART/resumable none
ENOIOCTLCMD handler+SA_RESUME+SA_RESTART/full none
ENOIOCTLCMD handler+SA_RESUME+others/resumable none"
}
