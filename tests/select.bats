#!/usr/bin/env bats
# poll, ppoll, select, pselect6 (kernel/fs/select.c) and timed futex waits:
# timeouts, readiness, errors, and what a signal or a stop does to a wait.
# Every case runs build/harness/pollwait natively and under umk: the output
# (times rounded to 50 ms) must be identical, and it must be what Linux
# documents, so a host that behaves unexpectedly fails the test too.

load helper

@test "poll, ppoll, select, pselect6 and futex time out after the time asked" {
	same_as_native $H/pollwait timeouts
	assert_line 'poll(none, 100 ms) = 0 after 100 ms'
	assert_line 'select(none, 100 ms) = 0 after 100 ms, left 0 ms'
	assert_line 'pselect6(empty pipe, 150 ms) = 0 after 150 ms, left 0 ms, in set 0'
	assert_line 'ppoll(empty pipe, 150 ms) = 0 after 150 ms, left 0 ms'
	assert_line 'futex_wait(150 ms) = -1 ETIMEDOUT after 150 ms'
	assert_line 'poll(empty pipe, 0 ms) = 0 after 0 ms'
	# A timeval select cannot write back does not fail it.
	assert_line 'select(empty pipe, read-only 100 ms) = 0 after 100 ms, timeout still 100 ms'
}

@test "a pipe written later wakes every call, and the time left is written back" {
	same_as_native $H/pollwait ready
	assert_line 'poll(pipe written at 100 ms, 300 ms) = 1 after 100 ms, revents POLLIN'
	assert_line 'ppoll(pipe written at 100 ms, 300 ms) = 1 after 100 ms, left 200 ms, revents POLLIN'
	assert_line 'select(pipe written at 100 ms, 300 ms) = 1 after 100 ms, left 200 ms, in set 1'
	assert_line 'pselect6(pipe written at 100 ms, 300 ms) = 1 after 100 ms, left 200 ms, in set 1'
	assert_line 'poll(pipe written at 100 ms, no timeout) = 1 after 100 ms, revents POLLIN'
	assert_line 'poll(the same fd twice, written at 100 ms) = 2 after 100 ms, revents POLLIN POLLIN'
}

@test "pipe ends report POLLOUT, POLLHUP and POLLERR, and a negative fd is ignored" {
	same_as_native $H/pollwait ends
	assert_line 'poll(read end, write end, fd -1) = 1, revents 0 POLLOUT 0'
	assert_line 'select(both ends for in and out) = 1, in 0 0, out 0 1'
	assert_line 'poll(read end, no writer, events 0) = 1, revents POLLHUP'
	assert_line 'select(read end, no writer) = 1, in set 1'
	assert_line 'poll(write end, no reader) = 1, revents POLLOUT|POLLERR'
}

@test "a closed fd is POLLNVAL to poll and EBADF to select" {
	same_as_native $H/pollwait errors
	assert_line 'poll(closed fd, empty pipe) = 1, revents POLLNVAL 0'
	assert_line 'ppoll(closed fd) = 1, revents POLLNVAL'
	assert_line 'select(closed fd) = -1 EBADF, left 1000 ms'
	assert_line 'pselect6(closed fd) = -1 EBADF, left 1000 ms'
	assert_line 'select(n below the closed fd) = 0'
}

@test "bad pointers give EFAULT and bad arguments EINVAL" {
	same_as_native $H/pollwait errors
	assert_line 'poll(bad pollfd pointer) = -1 EFAULT'
	assert_line 'poll(bad pointer, nfds 0) = 0'
	assert_line 'poll(nfds UINT_MAX) = -1 EINVAL'
	assert_line 'ppoll(bad timespec pointer) = -1 EFAULT'
	assert_line 'ppoll(bad sigmask pointer) = -1 EFAULT'
	assert_line 'ppoll(sigsetsize 4) = -1 EINVAL'
	assert_line 'ppoll(tv_nsec 1000000000) = -1 EINVAL'
	assert_line 'select(bad readfds pointer) = -1 EFAULT'
	assert_line 'select(bad timeval pointer) = -1 EFAULT'
	assert_line 'select(n -1) = -1 EINVAL'
	assert_line 'select(tv_usec -1) = -1 EINVAL'
	assert_line 'select(tv_sec -1, tv_usec 1100000) = 0 after 100 ms, left 0 ms'
	assert_line 'pselect6(bad sigset argument) = -1 EFAULT'
	assert_line 'pselect6(bad sigmask pointer) = -1 EFAULT'
	assert_line 'poll(read-only pollfd, ready) = -1 EFAULT'
	assert_line 'select(read-only fd_set, nothing ready) = -1 EFAULT'
}

@test "a handler without SA_RESTART makes every wait return EINTR, select with the time left" {
	same_as_native $H/pollwait eintr
	assert_line 'poll(300 ms) = -1 EINTR after 100 ms, handler ran 1'
	assert_line 'poll(no timeout) = -1 EINTR after 100 ms, handler ran 2'
	assert_line 'ppoll(300 ms) = -1 EINTR after 100 ms, left 200 ms, handler ran 3'
	assert_line 'select(300 ms) = -1 EINTR after 100 ms, left 200 ms, handler ran 4'
	assert_line 'pselect6(300 ms) = -1 EINTR after 100 ms, left 200 ms, handler ran 5'
	assert_line 'futex_wait(300 ms) = -1 EINTR after 100 ms, handler ran 6'
	assert_line 'futex_wait(no timeout, woken at 200 ms) = -1 EINTR after 100 ms, handler ran 7'
}

@test "SA_RESTART restarts only the untimed futex wait: the rest return EINTR" {
	same_as_native $H/pollwait eintr restart
	assert_line 'poll(300 ms) = -1 EINTR after 100 ms, handler ran 1'
	assert_line 'poll(no timeout) = -1 EINTR after 100 ms, handler ran 2'
	assert_line 'select(300 ms) = -1 EINTR after 100 ms, left 200 ms, handler ran 4'
	assert_line 'futex_wait(300 ms) = -1 EINTR after 100 ms, handler ran 6'
	assert_line 'futex_wait(no timeout, woken at 200 ms) = 0 after 200 ms, handler ran 7'
}

@test "ppoll and pselect6 wait under their temporary mask and put the old one back" {
	same_as_native $H/pollwait sigmask
	assert_line 'ppoll(300 ms, mask unblocking SIGUSR1) = -1 EINTR after 0 ms, left 300 ms, handler ran 1, SIGUSR1 blocked after 1'
	assert_line 'ppoll(300 ms, mask blocking SIGUSR1 sent at 100 ms) = 0 after 300 ms, left 0 ms, handler ran 2'
	assert_line 'pselect6(300 ms, mask blocking SIGUSR1 sent at 100 ms) = 0 after 300 ms, left 0 ms, handler ran 3'
}

@test "a stopped and continued poll ends at its absolute end time" {
	same_as_native $H/pollwait stop poll
	assert_line 'poll(400 ms, stopped at 100 ms, continued at 200 ms) = 0 after 400 ms'
}

@test "a stopped and continued poll without a timeout keeps waiting for its data" {
	same_as_native $H/pollwait stop poll-forever
	assert_line 'poll(no timeout, written at 400 ms, stopped at 100 ms, continued at 200 ms) = 1 after 400 ms, revents POLLIN'
}

@test "a stopped and continued timed futex wait ends at its absolute end time" {
	same_as_native $H/pollwait stop futex
	assert_line 'futex(400 ms, stopped at 100 ms, continued at 200 ms) = -1 ETIMEDOUT after 400 ms'
}

@test "a stopped and continued select, pselect6 or ppoll restarts with the time it wrote back" {
	for call in select pselect6 ppoll; do
		same_as_native $H/pollwait stop $call
		assert_line "$call(400 ms, stopped at 100 ms, continued at 200 ms) = 0 after 500 ms, left 0 ms"
	done
}

@test "the trace shows poll restarted through restart_syscall and do_restart_poll" {
	umk --trace $H/pollwait stop poll
	run untimed "$stderr"
	assert_line --regexp '^[0-9]+ exit poll = -1 ERESTART_RESTARTBLOCK$'
	assert_line --regexp '^[0-9]+ restart poll ERESTART_RESTARTBLOCK -> restart_syscall'
	assert_line --regexp '^[0-9]+ restart restart_syscall -> do_restart_poll$'
	assert_line --regexp '^[0-9]+ exit restart_syscall = 0$'
}

@test "the trace shows a timed futex wait restarted through futex_wait_restart" {
	umk --trace $H/pollwait stop futex
	run untimed "$stderr"
	assert_line --regexp '^[0-9]+ exit futex = -1 ERESTART_RESTARTBLOCK$'
	assert_line --regexp '^[0-9]+ restart restart_syscall -> futex_wait_restart$'
	assert_line --regexp '^[0-9]+ exit restart_syscall = -1 ETIMEDOUT$'
}

@test "the trace shows select restarted as itself, not through restart_syscall" {
	umk --trace $H/pollwait stop select
	run untimed "$stderr"
	assert_line --regexp '^[0-9]+ exit select = -1 ERESTARTNOHAND$'
	assert_line --regexp '^[0-9]+ restart select ERESTARTNOHAND -> restart'
	refute_line --partial 'restart_syscall'
}

@test "with a handler the trace shows poll's and futex's restart block turned into EINTR" {
	umk --trace $H/pollwait eintr restart
	run untimed "$stderr"
	assert_line --regexp '^[0-9]+ restart poll ERESTART_RESTARTBLOCK -> EINTR'
	assert_line --regexp '^[0-9]+ restart futex ERESTART_RESTARTBLOCK -> EINTR'
	assert_line --regexp '^[0-9]+ restart futex ERESTARTSYS -> restart'
	refute_line --partial 'restart restart_syscall'
}
