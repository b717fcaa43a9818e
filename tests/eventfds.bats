#!/usr/bin/env bats
# eventfd, signalfd and timerfd (kernel/fs/eventfd.c, signalfd.c,
# timerfd.c; docs/design.md, "Readiness: poll tables and wake functions"):
# each case of build/harness/eventfds runs natively and under umk, the
# output must be identical, and the lines that state Linux's behaviour are
# asserted, so a host that behaves otherwise fails too.
# Times are never printed: waits are ordered by a helper thread or a child
# that acts 100 ms later, and counts are compared, not durations.

load helper

@test "an eventfd adds what is written and a read takes the whole count" {
	same_as_native $H/eventfds eventfd
	assert_line 'eventfd(3) = fd'
	assert_line 'read = 8, value 3'
	assert_line 'read = 8, value 12'
	assert_line 'write(0) = 8'
	assert_line 'read(16-byte buffer) = 8, value 1'
	assert_line 'eventfd2(0, EFD_NONBLOCK | EFD_CLOEXEC) = fd'
	assert_line 'read = -1 EAGAIN'
}

@test "an eventfd refuses short reads, writes of other than 8 bytes and ULLONG_MAX" {
	same_as_native $H/eventfds eventfd
	assert_line 'read(4-byte buffer) = -1 EINVAL'
	assert_line 'write(4 bytes) = -1 EINVAL'
	assert_line 'write(16 bytes) = -1 EINVAL'
	assert_line 'write(0xffffffffffffffff) = -1 EINVAL'
	assert_line 'write(bad pointer) = -1 EFAULT'
	assert_line 'read(bad pointer) = -1 EFAULT'
	assert_line 'eventfd2(0, EFD_SEMAPHORE << 1) = -1 EINVAL'
	assert_line 'eventfd2(0, O_APPEND) = -1 EINVAL'
}

@test "an eventfd at ULLONG_MAX - 1 is not writable: a write of 1 is EAGAIN, of 0 goes in" {
	same_as_native $H/eventfds eventfd
	assert_line 'write(0xfffffffffffffffe) = 8'
	assert_line 'poll at the limit: POLLIN'
	assert_line 'write(1) at the limit = -1 EAGAIN'
	assert_line 'write(0) at the limit = 8'
	assert_line 'read = 8, value 0xfffffffffffffffe'
}

@test "an eventfd is POLLIN with a count, POLLOUT below the limit, an anon_inode with its flags" {
	same_as_native $H/eventfds eventfd
	assert_line 'poll: POLLIN POLLOUT'
	assert_line 'poll: POLLOUT'
	assert_line 'eventfd flags: O_RDWR'
	assert_line 'eventfd2 flags: O_RDWR O_NONBLOCK FD_CLOEXEC'
	assert_line 'after F_SETFL: O_RDWR FD_CLOEXEC'
	assert_line 'link: anon_inode:[eventfd]'
	assert_line 'fstat(eventfd): mode 0600, type none, nlink 1'
	assert_line 'fstatfs(eventfd): f_type 0x9041934 (ANON_INODE_FS_MAGIC)'
	assert_line 'fdinfo eventfd-count:                3'
	assert_line 'fdinfo eventfd-semaphore: 0'
}

@test "an eventfd in semaphore mode gives 1 per read until the count is 0" {
	same_as_native $H/eventfds semaphore
	assert_output - <<'OUT'
eventfd2(0, EFD_SEMAPHORE | EFD_NONBLOCK) = fd
write(3) = 8
fdinfo eventfd-count:                3
fdinfo eventfd-semaphore: 1
read = 8, value 1
read = 8, value 1
read = 8, value 1
read = -1 EAGAIN, value 0
write(2) = 8
poll: POLLIN POLLOUT
read = 8, value 1
poll: POLLIN POLLOUT
OUT
}

@test "a blocking eventfd read waits for a write, and a write past the limit for a read" {
	same_as_native $H/eventfds eventfd-wait
	assert_output - <<'OUT'
blocking read (a thread writes 1) = 8, value 1
write(0xfffffffffffffffe) = 8
blocking write(5) past the limit (a thread reads) = 8
read = 8, value 5
OUT
}

@test "a signalfd reads kill, tgkill and sigqueue signals with their sender, code and value" {
	same_as_native $H/eventfds signalfd
	assert_line 'nothing pending: read = -1 EAGAIN'
	assert_line --partial 'kill: read = 128 (1 siginfo)'
	assert_line '  signo SIGUSR1, errno 0, code 0, pid self, uid mine, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0'
	assert_line '  signo SIGUSR1, errno 0, code -6, pid self, uid mine, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0'
	assert_line '  signo SIG35, errno 0, code -1, pid self, uid mine, int 42, ptr 42, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0'
	assert_line '  signo SIGCHLD, errno 0, code 1, pid other, uid mine, status 3, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0'
}

@test "a signalfd read returns as many as fit, the thread's before the process's" {
	same_as_native $H/eventfds signalfd
	local out=$output
	run grep -A3 '^four pending' <<<"$out"
	assert_output - <<'OUT'
four pending, room for three: read = 384 (3 siginfo)
  signo SIGUSR2, errno 0, code -6, pid self, uid mine, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0
  signo SIGUSR1, errno 0, code 0, pid self, uid mine, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0
  signo SIG35, errno 0, code -1, pid self, uid mine, int 42, ptr 42, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0
OUT
	run grep -A1 '^the fourth' <<<"$out"
	assert_line --index 1 --partial 'int 43, ptr 43'
}

@test "a signalfd's set drops SIGKILL and SIGSTOP and can be changed; its errors are Linux's" {
	same_as_native $H/eventfds signalfd
	assert_line 'fdinfo sigmask:	0000000400010a00'
	assert_line 'fdinfo sigmask:	fffffffffffbfeff'
	assert_line 'signalfd(fd, {SIGUSR2}) = fd'
	assert_line 'poll with SIGUSR1 pending: 0'
	assert_line 'SIGUSR1 outside the set: read = -1 EAGAIN'
	assert_line 'SIGUSR1 in the set again: read = 128 (1 siginfo)'
	assert_line 'link: anon_inode:[signalfd]'
	assert_line 'signalfd flags: O_RDWR FD_CLOEXEC'
	assert_line 'read(127-byte buffer) = -1 EINVAL'
	assert_line 'write = -1 EINVAL'
	assert_line 'signalfd4(eventfd, ...) = -1 EINVAL'
	assert_line 'signalfd4(fd 999, ...) = -1 EBADF'
	assert_line 'signalfd4(-1, sizemask 4) = -1 EINVAL'
	assert_line 'signalfd4(-1, bad pointer) = -1 EFAULT'
	assert_line 'signalfd4(-1, flags O_APPEND) = -1 EINVAL'
}

@test "a blocking signalfd read wakes for a signal from a thread or another process; an unblocked one goes to its handler" {
	same_as_native $H/eventfds signalfd-wait
	assert_output - <<'OUT'
blocking read, a thread kills the process: read = 128 (1 siginfo)
  signo SIGUSR1, errno 0, code 0, pid self, uid mine, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0
blocking read, a child kills its parent: read = 128 (1 siginfo)
  signo SIGUSR1, errno 0, code 0, pid other, uid mine, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0
child: exit 0
kill(self, SIGUSR1) unblocked, with a handler = 0
handler ran 1
fcntl(F_SETFL, O_NONBLOCK) = 0
after the handler: read = -1 EAGAIN
OUT
}

@test "after fork a signalfd reads the child's own signals" {
	same_as_native $H/eventfds signalfd-fork
	assert_line 'child: the parent'"'"'s SIGUSR1: read = 128 (1 siginfo)'
	assert_line '  signo SIGUSR1, errno 0, code 0, pid other, uid mine, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0'
	assert_line 'parent: poll = 0, revents 0 (nothing pending here)'
}

@test "a signalfd stays open and works across exec, a close-on-exec one does not" {
	same_as_native $H/eventfds signalfd-exec
	assert_output - <<'OUT'
after exec: fcntl(close-on-exec signalfd, F_GETFD) = -1 EBADF
after exec: signalfd flags: O_RDWR
after exec: link anon_inode:[signalfd]
after exec: kill(self, SIGUSR1) = 0
after exec: read = 128 (1 siginfo)
  signo SIGUSR1, errno 0, code 0, pid self, uid mine, fd 0, tid 0, band 0, overrun 0, trapno 0, addr 0
OUT
}

@test "timerfd_settime arms and disarms, gettime gives the time left, and the old value is returned" {
	same_as_native $H/eventfds timerfd
	assert_line 'new: value 0, interval 0.000000000'
	assert_line 'old: value 0, interval 0'
	assert_line 'armed: value in (9 s, 10 s], interval 2.000000000'
	assert_line 'not expired: read = -1 EAGAIN, expirations 0'
	assert_line 'old: value in (9 s, 10 s], interval 2'
	assert_line 'disarmed: value 0, interval 0.000000000'
	assert_line 'poll after it fired: POLLIN'
	assert_line 'fired: read = 8, expirations 1'
	assert_line 'again: read = -1 EAGAIN, expirations 0'
	assert_line 'fdinfo clockid: 1'
	assert_line 'fdinfo it_interval: (2, 0)'
}

@test "timerfds on CLOCK_MONOTONIC, CLOCK_REALTIME and CLOCK_BOOTTIME fire, relative or absolute" {
	same_as_native $H/eventfds timerfd
	local clock
	for clock in 'CLOCK_MONOTONIC 50 ms' 'CLOCK_MONOTONIC absolute +50 ms' 'CLOCK_REALTIME 50 ms' \
		'CLOCK_REALTIME absolute +50 ms' 'CLOCK_REALTIME absolute +50 ms, cancel on set' \
		'CLOCK_BOOTTIME 50 ms' 'CLOCK_BOOTTIME absolute +50 ms'; do
		assert_line "$clock: settime = 0"
		assert_line "$clock: read = 8, expirations 1"
		assert_line "$clock: value 0, interval 0.000000000"
	done
	# an absolute time 10.5 s ago, every second: the expirations since
	assert_line 'read = 8, expirations 11 (or 12)'
	assert_line 'fdinfo settime flags: 01'
}

@test "timerfd errors are Linux's, and the alarm clocks need CAP_WAKE_ALARM" {
	same_as_native $H/eventfds timerfd
	assert_line 'timerfd_create(CLOCK_PROCESS_CPUTIME_ID) = -1 EINVAL'
	assert_line 'timerfd_create(CLOCK_MONOTONIC_RAW) = -1 EINVAL'
	assert_line 'timerfd_create(flags TFD_TIMER_ABSTIME) = -1 EINVAL'
	assert_line 'TFD_CLOEXEC | TFD_NONBLOCK: O_RDWR O_NONBLOCK FD_CLOEXEC'
	assert_line 'settime(flags 4) = -1 EINVAL'
	assert_line 'settime(tv_nsec 1000000000) = -1 EINVAL'
	assert_line 'settime(interval tv_sec -1) = -1 EINVAL'
	assert_line 'settime(bad new pointer) = -1 EFAULT'
	# the timer is set before the old value fails to be written back
	assert_line 'settime(bad old pointer) = -1 EFAULT'
	assert_line 'set all the same: value in (9 s, 10 s], interval 0.000000000'
	assert_line 'settime(eventfd) = -1 EINVAL'
	assert_line 'gettime(fd 999) = -1 EBADF'
	assert_line 'read(4-byte buffer) = -1 EINVAL'
	assert_line 'link: anon_inode:[timerfd]'
	assert_line 'CLOCK_REALTIME_ALARM as the caller: a working timer, or EPERM'
	assert_line 'timerfd_create(CLOCK_REALTIME_ALARM) without CAP_WAKE_ALARM = -1 EPERM'
	assert_line 'timerfd_create(CLOCK_BOOTTIME_ALARM) without CAP_WAKE_ALARM = -1 EPERM'
}

@test "a 1 ms interval timer read after 20 ms counts its overruns" {
	same_as_native $H/eventfds overrun
	assert_output - <<'OUT'
settime(1 ms, interval 1 ms) = 0
after 20 ms: read = 8, expirations >= 5
after 20 ms: read = 8, expirations >= 5
interval timer: value <= 1 ms, interval 0.001000000
blocking read = 8, expirations >= 1
OUT
}

@test "timerfds follow the virtual clock" {
	same_as_native --clock=virtual $H/eventfds overrun
	same_as_native --clock=virtual $H/eventfds timerfd
	assert_line 'read = 8, expirations 11 (or 12)'
}

@test "poll and select on each fd wake when another thread or process makes it ready" {
	same_as_native $H/eventfds poll
	assert_line 'poll(eventfd, a thread writes) = 1, revents POLLIN'
	assert_line 'poll(eventfd, a child writes) = 1, revents POLLIN'
	assert_line 'poll(eventfd at the limit, a thread reads) = 1, revents POLLOUT'
	assert_line 'select(eventfd, a thread writes) = 1, in set 1'
	assert_line 'poll(timerfd, a thread sets it to 1 ms) = 1, revents POLLIN'
	assert_line 'select(timerfd, 100 ms) = 1, in set 1'
	assert_line 'poll(signalfd, a thread kills the process) = 1, revents POLLIN'
	assert_line 'poll(signalfd, a thread signals this thread) = 1, revents POLLIN'
	assert_line 'select(signalfd, a child kills its parent) = 1, in set 1'
}

@test "epoll_wait on each fd wakes when another thread makes it ready" {
	same_as_native $H/eventfds epoll
	assert_line 'epoll_wait(none ready) = 0'
	assert_line 'epoll_wait(a thread writes the eventfd) = 1, eventfd EPOLLIN'
	assert_line 'epoll_wait(a thread sets the timerfd) = 1, timerfd EPOLLIN'
	assert_line 'epoll_wait(a thread kills the process) = 1, signalfd EPOLLIN'
	assert_line 'epoll_wait(all read) = 0'
}

# Regression: the epoll's entry on the signal handlers' queue outlived the
# handlers of the process that added it (freed at its exit): closing the
# epoll wrote to freed memory (the ASan build reports it).
@test "an epoll watching a signalfd outlives the process that added it" {
	same_as_native $H/eventfds epoll
	assert_line 'epoll_wait(its adder reaped) = 0'
	assert_line 'its adder reaped, then SIGUSR1: read = 128 (1 siginfo)'
	assert_line 'epoll closed: 0'
}

@test "a blocking read of each fd interrupted by a handler without SA_RESTART gives EINTR" {
	same_as_native $H/eventfds eintr
	assert_output - <<'OUT'
read(eventfd) = -1 EINTR, handler ran 1
read(eventfd) again = 8
read(timerfd) = -1 EINTR, handler ran 1
read(timerfd) again = 8
read(signalfd) = -1 EINTR, handler ran 1
read(signalfd) again = 128
OUT
}

@test "a blocking read of each fd interrupted by a handler with SA_RESTART restarts" {
	same_as_native --trace $H/eventfds eintr restart
	assert_output - <<'OUT'
read(eventfd) = 8, handler ran 1
read(timerfd) = 8, handler ran 1
read(signalfd) = 128, handler ran 1
OUT
	trace_has '^[0-9]+ exit read = -1 ERESTARTSYS$'
	trace_has '^[0-9]+ restart read ERESTARTSYS -> restart \(handler, SA_RESTART\)'
}

@test "the trace decodes the new calls" {
	umk --trace $H/eventfds timerfd
	trace_has '^1 enter timerfd_create\(1, 0\)$'
	trace_has '^1 enter timerfd_settime\(3, 0, 0x[0-9a-f]+, 0x[0-9a-f]+\)$'
	trace_has '^1 enter timerfd_gettime\(3, 0x[0-9a-f]+\)$'
	trace_has '^1 enter eventfd\(0\)$'
	trace_has '^[0-9]+ timer timerfd expired$'
	umk --trace $H/eventfds signalfd
	trace_has '^1 enter signalfd4\(-1, 0x[0-9a-f]+, 8, 0x800\)$'
	trace_has '^1 enter signalfd\(3, 0x[0-9a-f]+, 8\)$'
	umk --trace $H/eventfds semaphore
	trace_has '^1 enter eventfd2\(0, 0x801\)$'
}
