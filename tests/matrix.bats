#!/usr/bin/env bats
# The restart matrix of signal(7): each blocking call of its two lists (a
# row of harness/progs/matrix.c) interrupted by a handler without
# SA_RESTART, by one with SA_RESTART, and by SIGSTOP then SIGCONT with no
# handler (docs/design.md, "The restart path"). build/harness/matrix prints
# "ROW COLUMN OUTCOME" per cell; the run under umk must print what the
# native one does (the host kernel is the reference), and the native run
# must print Linux's matrix, so that a program that goes wrong the same way
# on both sides fails too. docs/linux-differences.md lists where Linux
# departs from the manual page; docs/testing.md describes the matrix.

load helper

# Linux's matrix (6.x), row by row: handler, restart, stop.
LINUX_MATRIX='read EINTR restarted restarted
write EINTR restarted restarted
readv EINTR restarted restarted
wait4 EINTR restarted restarted
waitid EINTR restarted restarted
futex_wait EINTR restarted restarted
futex_wait_timed EINTR EINTR restarted
nanosleep EINTR EINTR restarted
clock_nanosleep EINTR EINTR restarted
pause EINTR EINTR restarted
sigsuspend EINTR EINTR restarted
rt_sigtimedwait EINTR EINTR EINTR
rt_sigtimedwait_timed EINTR EINTR EINTR
poll EINTR EINTR restarted
ppoll EINTR EINTR restarted
select EINTR EINTR restarted
pselect6 EINTR EINTR restarted
epoll_wait EINTR EINTR EINTR
epoll_pwait EINTR EINTR EINTR
io_getevents EINTR EINTR EINTR
io_pgetevents EINTR EINTR restarted
eventfd_read EINTR restarted restarted
signalfd_read EINTR restarted restarted
timerfd_read EINTR restarted restarted
fifo_open_read EINTR restarted restarted
fifo_open_write EINTR restarted restarted
fifo_read EINTR restarted restarted
flock EINTR restarted restarted
fcntl_setlkw EINTR restarted restarted
fcntl_ofd_setlkw EINTR restarted restarted
inotify_read EINTR restarted restarted
msgrcv EINTR EINTR restarted
msgsnd_full EINTR EINTR restarted
semop EINTR EINTR EINTR
semtimedop EINTR EINTR EINTR
mq_receive EINTR restarted restarted
mq_timedreceive EINTR restarted restarted
mq_send_full EINTR restarted restarted
recv EINTR restarted restarted
recv_rcvtimeo EINTR EINTR EINTR
send EINTR restarted restarted
send_sndtimeo EINTR EINTR EINTR
accept EINTR restarted restarted
connect_backlog EINTR restarted restarted'

# cells MATRIX: the matrix of the table form above, one cell a line, as
# the program prints it.
cells() {
	local row a b c
	while read -r row a b c; do
		printf '%s handler %s\n%s restart %s\n%s stop %s\n' "$row" "$a" "$row" "$b" "$row" "$c"
	done <<<"$1"
}

@test "every cell of signal(7)'s restart matrix is the same under umk as natively" {
	native $H/matrix
	local n_cmp=$output
	umk $H/matrix
	local u_cmp=$output
	if [[ $u_cmp != "$n_cmp" ]]; then
		diff -u --label native --label umk <(printf '%s\n' "$n_cmp") <(printf '%s\n' "$u_cmp") || true
		fail "the matrix under umk differs from the native one (diff above)"
	fi
}

@test "natively the matrix is Linux's: a pipe read restarts with SA_RESTART, sleeps and multiplexers do not, epoll and sigtimedwait are EINTR even across a stop" {
	native $H/matrix
	# A few cells by name, as the tests state them elsewhere...
	assert_line 'read handler EINTR'
	assert_line 'read restart restarted'
	assert_line 'read stop restarted'
	assert_line 'nanosleep restart EINTR'
	assert_line 'nanosleep stop restarted'
	assert_line 'futex_wait restart restarted'
	assert_line 'futex_wait_timed restart EINTR'
	assert_line 'rt_sigtimedwait_timed restart EINTR'
	assert_line 'epoll_wait stop EINTR'
	# ...and all of them, in the program's order.
	assert_output "$(cells "$LINUX_MATRIX")"
}

@test "matrix ROW runs only that row, and an unknown row is a harness error" {
	native $H/matrix nanosleep pause
	assert_output "$(cells "$(grep -E '^(nanosleep|pause) ' <<<"$LINUX_MATRIX")")"
	native -s 99 $H/matrix no_such_row
}
