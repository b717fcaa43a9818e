#!/usr/bin/env bats
# epoll (kernel/fs/eventpoll.c): epoll_create, epoll_create1, epoll_ctl,
# epoll_wait, epoll_pwait and epoll_pwait2. Every case runs
# build/harness/epoll natively and under umk: the output must be identical,
# and its key lines must be what Linux 6.x does, so that a host (or a
# harness) that behaves otherwise fails the test too. The lines print no
# fd numbers and no times, only "waited >= 40 ms yes" style facts.

load helper

@test "epoll: every call's EINVAL, EPERM, EEXIST, ENOENT, EBADF and EFAULT" {
	same_as_native $H/epoll errors
	assert_line 'epoll_create(0) = -1 EINVAL'
	assert_line 'epoll_create(-1) = -1 EINVAL'
	assert_line 'epoll_create(1) = fd, FD_CLOEXEC 0'
	assert_line 'epoll_create1(EPOLL_CLOEXEC) = fd, FD_CLOEXEC 1'
	assert_line 'epoll_create1(1) = -1 EINVAL'
	assert_line 'epoll_create1(O_NONBLOCK) = -1 EINVAL'
	assert_line 'epoll_ctl(pipe as epfd, ADD, pipe) = -1 EINVAL'
	assert_line 'epoll_ctl(pipe as epfd, ADD, regular file) = -1 EPERM'
	assert_line 'epoll_ctl(epfd, ADD, itself) = -1 EINVAL'
	assert_line 'epoll_ctl(epfd, ADD, regular file) = -1 EPERM'
	assert_line 'epoll_ctl(epfd, ADD, directory) = -1 EPERM'
	assert_line 'epoll_ctl(epfd, op 4, pipe) = -1 EINVAL'
	assert_line 'epoll_ctl(epfd, MOD, unregistered pipe) = -1 ENOENT'
	assert_line 'epoll_ctl(epfd, DEL, unregistered pipe) = -1 ENOENT'
	assert_line 'epoll_ctl(epfd, ADD, pipe) = 0'
	assert_line 'epoll_ctl(epfd, ADD, the same pipe again) = -1 EEXIST'
	assert_line 'epoll_ctl(closed fd as epfd, ADD, pipe) = -1 EBADF'
	assert_line 'epoll_ctl(epfd, ADD, closed fd) = -1 EBADF'
	assert_line 'epoll_ctl(closed fd as epfd, op 4, pipe) = -1 EBADF'
	assert_line 'epoll_ctl(epfd, ADD, O_PATH fd) = -1 EBADF'
	assert_line 'epoll_wait(O_PATH fd) = -1 EBADF'
	assert_line 'epoll_ctl(epfd, ADD, pipe, bad event pointer) = -1 EFAULT'
	assert_line 'epoll_ctl(closed fd as epfd, ADD, pipe, bad event pointer) = -1 EFAULT'
	assert_line 'epoll_ctl(epfd, DEL, registered pipe, bad event pointer) = 0'
	assert_line 'epoll_ctl(epfd, ADD, pipe, EPOLLIN|EPOLLEXCLUSIVE|EPOLLONESHOT) = -1 EINVAL'
	assert_line 'epoll_ctl(epfd, ADD, epoll fd, EPOLLIN|EPOLLEXCLUSIVE) = -1 EINVAL'
	assert_line 'epoll_ctl(epfd, MOD, unregistered pipe, EPOLLIN|EPOLLEXCLUSIVE) = -1 EINVAL'
	assert_line 'epoll_ctl(epfd, ADD, pipe, EPOLLIN|EPOLLEXCLUSIVE|EPOLLET) = 0'
	assert_line 'epoll_ctl(epfd, MOD, exclusive pipe, EPOLLIN) = -1 EINVAL'
	assert_line 'epoll_wait(maxevents 0) = -1 EINVAL'
	assert_line 'epoll_wait(maxevents -1) = -1 EINVAL'
	assert_line 'epoll_wait(closed fd) = -1 EBADF'
	assert_line 'epoll_wait(pipe fd) = -1 EINVAL'
	assert_line 'epoll_wait(kernel events pointer) = -1 EFAULT'
	# A user pointer is only written when there is an event to write.
	assert_line 'epoll_wait(bad events pointer, nothing ready) = 0'
	assert_line 'epoll_wait(bad events pointer, one ready) = -1 EFAULT'
	assert_line 'epoll_wait(the event is still there) = 1: 0x1 EPOLLIN'
	assert_line 'epoll_pwait(sigsetsize 4) = -1 EINVAL'
	assert_line 'epoll_pwait(bad sigmask pointer) = -1 EFAULT'
	assert_line 'epoll_pwait2(bad timespec pointer) = -1 EFAULT'
	assert_line 'epoll_pwait2(tv_nsec 1000000000) = -1 EINVAL'
	assert_line 'epoll_ctl_old = -1 ENOSYS'
}

@test "epoll level-triggered: a pipe's EPOLLIN every wait, EPOLLOUT, EPOLLHUP, EPOLLERR" {
	same_as_native $H/epoll level
	assert_line 'empty pipe: wait = 0'
	assert_line '3 bytes: wait = 1: 0x10 EPOLLIN'
	assert_line '3 bytes: wait again = 1: 0x10 EPOLLIN'
	assert_line '1 byte left: wait = 1: 0x10 EPOLLIN'
	assert_line 'all read: wait = 0'
	assert_line 'written and read before the wait: wait = 0'
	assert_line '1 byte in the pipe: wait = 2: 0x10 EPOLLIN, 0x11 EPOLLOUT'
	assert_line 'full pipe: wait = 1: 0x10 EPOLLIN'
	assert_line 'emptied again: wait = 1: 0x11 EPOLLOUT'
	assert_line 'writer closed, 2 bytes left: wait = 1: 0x10 EPOLLIN|EPOLLHUP'
	assert_line 'writer closed, empty: wait again = 1: 0x10 EPOLLHUP'
	assert_line 'read end closed too: wait = 0'
	assert_line 'reader closed, write end EPOLLOUT: wait again = 1: 0x20 EPOLLOUT|EPOLLERR'
	assert_line 'reader closed, write end MODded to EPOLLIN: wait = 1: 0x21 EPOLLERR'
}

@test "epoll EPOLLET: reported once per write, not again until more data arrives" {
	same_as_native $H/epoll edge
	assert_line '1 byte written: wait = 1: 0x10 EPOLLIN'
	assert_line '1 more byte written (2 unread): wait = 1: 0x10 EPOLLIN'
	assert_line '1 byte read (1 unread): wait = 0'
	assert_line '2 writes: wait = 1: 0x10 EPOLLIN'
	assert_line 'MOD with data unread: wait = 1: 0x11 EPOLLIN'
	assert_line 'writer closed (4 unread): wait = 1: 0x11 EPOLLIN|EPOLLHUP'
	assert_line 'write end: wait = 1: 0x20 EPOLLOUT'
	assert_line '1 byte written to it: wait = 0'
	assert_line 'emptied by reads: wait = 1: 0x20 EPOLLOUT'
	assert_line 'reader closed: wait = 1: 0x20 EPOLLOUT|EPOLLERR'
	# Every report is followed by a wait that gets nothing.
	run grep -c '^nothing new: wait = 0$' <<<"$output"
	assert_output 8
}

@test "epoll EPOLLONESHOT: reported once, then not until EPOLL_CTL_MOD re-arms it" {
	same_as_native $H/epoll oneshot
	assert_line '1 byte written: wait = 1: 0x10 EPOLLIN'
	assert_line 'disarmed, 1 more byte: wait = 0'
	assert_line 'epoll_ctl(ADD, the disarmed fd) = -1 EEXIST'
	assert_line 're-armed: wait = 1: 0x12 EPOLLIN'
	assert_line 'disarmed, writer closed: wait = 0'
	assert_line 're-armed: wait = 1: 0x13 EPOLLIN|EPOLLHUP'
	assert_line 'level-triggered: wait again = 1: 0x14 EPOLLIN|EPOLLHUP'
	assert_line 'oneshot, no events asked: wait = 1: 0x15 EPOLLHUP'
	assert_line 'epoll_ctl(DEL, the disarmed fd) = 0'
}

@test "epoll: the data field comes back as given, EPOLLERR and EPOLLHUP unasked" {
	same_as_native $H/epoll data
	assert_line 'data 0x0: wait = 1: 0x0 EPOLLIN'
	assert_line 'data 0x100000000: wait = 1: 0x100000000 EPOLLIN'
	assert_line 'data 0x123456789abcdef: wait = 1: 0x123456789abcdef EPOLLIN'
	assert_line 'data 0xffffffffffffffff: wait = 1: 0xffffffffffffffff EPOLLIN'
	assert_line 'read end with data, events 0: wait = 0'
	assert_line 'EPOLLIN|EPOLLRDNORM: wait = 1: 0xa1 EPOLLIN|EPOLLRDNORM'
	assert_line 'EPOLLRDNORM: wait = 1: 0xa2 EPOLLRDNORM'
	assert_line 'EPOLLOUT|EPOLLPRI|EPOLLRDBAND|EPOLLWRNORM|EPOLLMSG: wait = 0'
	assert_line 'events 0, writer closed: wait = 1: 0xa5 EPOLLHUP'
	assert_line 'write end, events 0: wait = 0'
	assert_line 'write end, events 0, reader closed: wait = 1: 0xb3 EPOLLERR'
	assert_line '3 fds: wait = 3: 0x42 EPOLLIN, 0x8000000000000042 EPOLLOUT, 0xfedcba9876543210 EPOLLIN'
}

@test "epoll: maxevents below the number ready rotates through the ready fds" {
	same_as_native $H/epoll rotate
	assert_line 'level-triggered a b c, maxevents 1, 7 waits: [a] [b] [c] [a] [b] [c] [a]'
	assert_line 'level-triggered a b c, maxevents 2, 4 waits: [a b] [c a] [b c] [a b]'
	assert_line 'then maxevents 3, 2 waits: [c a b] [c a b]'
	assert_line 'level-triggered added c a b, maxevents 1, 4 waits: [c] [a] [b] [c]'
	assert_line 'level-triggered, written b c a, maxevents 1, 4 waits: [b] [c] [a] [b]'
	assert_line 'edge-triggered a b c, maxevents 1, 4 waits: [a] [b] [c] []'
	assert_line 'written a b c again, maxevents 2, 3 waits: [a b] [c] []'
	assert_line 'written a b c again, b emptied before the wait, maxevents 1, 3 waits: [a] [c] []'
	assert_line 'b emptied, maxevents 1, 4 waits: [c] [a] [c] [a]'
	assert_line '100 ready, maxevents 64: 64 64 (every one reported by the second wait: yes) 64'
}

@test "epoll: a registration lives as long as its file, under its (file, fd) key" {
	same_as_native $H/epoll dup
	assert_line 'registered fd closed, dup open: wait = 1: 0x77 EPOLLIN'
	assert_line 'epoll_ctl(DEL, the dup) = -1 ENOENT'
	assert_line 'epoll_ctl(MOD, the dup) = -1 ENOENT'
	assert_line 'epoll_ctl(DEL, the closed fd) = -1 EBADF'
	assert_line 'after those: wait = 1: 0x77 EPOLLIN'
	assert_line 'the file under two keys: wait = 2: 0x77 EPOLLIN, 0x79 EPOLLIN'
	assert_line "dup's key deleted: wait = 1: 0x77 EPOLLIN"
	assert_line 'dup closed too: wait = 0'
	assert_line 'new pipe written: wait = 0'
	assert_line 'new pipe added: wait = 1: 0x80 EPOLLIN'
}

@test "epoll in epoll: readable when the inner one has an event, ELOOP for loops and depth" {
	same_as_native $H/epoll nested
	assert_line 'inner empty: outer wait = 0'
	assert_line 'pipe written: outer wait = 1: 0x2 EPOLLIN'
	assert_line 'inner wait = 1: 0x1 EPOLLIN'
	assert_line 'pipe read: outer wait = 0'
	assert_line 'written at 20 ms: outer wait(no timeout) = 1: 0x2 EPOLLIN'
	assert_line 'pipe written: edge-triggered outer wait = 1: 0x3 EPOLLIN'
	assert_line 'inner asked for EPOLLOUT: outer wait = 0'
	assert_line 'epoll_ctl(B, ADD, A) = 0'
	assert_line 'epoll_ctl(A, ADD, B) = -1 ELOOP'
	assert_line 'epoll_ctl(B, ADD, A) now = -1 ELOOP'
	assert_line 'epoll_ctl(C, ADD, A) (A in B in C) = -1 ELOOP'
	# EP_MAX_NESTS: 4 levels of epoll in epoll, a fifth is ELOOP.
	assert_line 'epoll_ctl(e4, ADD, e3) = 0'
	assert_line 'epoll_ctl(e5, ADD, e4) = -1 ELOOP'
	assert_line 'epoll fds nested in a chain: 4 levels of epoll in epoll'
	assert_line 'pipe written: e4 wait = 1: 0x104 EPOLLIN'
	assert_line 'built top down: 4 levels of epoll in epoll'
	assert_line 'the written pipe at the bottom: e9 wait = 1: 0x208 EPOLLIN'
}

@test "epoll_wait, epoll_pwait and epoll_pwait2 time out, or not at all" {
	same_as_native $H/epoll timeouts
	assert_line 'epoll_wait(timeout 0) = 0, under 1 s yes'
	assert_line 'epoll_wait(timeout 50 ms) = 0, waited >= 40 ms yes, < 5 s yes'
	assert_line 'epoll_pwait(timeout 50 ms, no sigmask) = 0, waited >= 40 ms yes, < 5 s yes'
	assert_line 'epoll_pwait2(50 ms timespec) = 0, waited >= 40 ms yes, < 5 s yes, timespec still 0.050000000'
	assert_line 'epoll_pwait2(0 timespec) = 0, under 1 s yes'
	assert_line 'epoll_pwait2(read-only 50 ms timespec) = 0, waited >= 40 ms yes, < 5 s yes'
	assert_line 'ready: epoll_wait(timeout INT_MIN) = 1: 0x1 EPOLLIN'
	assert_line 'ready: epoll_pwait2(NULL timespec) = 1: 0x1 EPOLLIN'
	assert_line 'the ready waits took under 1 s: yes'
	assert_line 'written at 20 ms: epoll_pwait2(4 s) = 1: 0x1 EPOLLIN'
	run grep -c '^woken before the 4 s timeout: yes$' <<<"$output"
	assert_output 2
}

@test "epoll_pwait's mask is the wait's; a handler ends any epoll wait with EINTR" {
	same_as_native $H/epoll sigmask
	assert_line 'epoll_pwait(1 s, mask unblocking SIGUSR1) = -1 EINTR, handler ran 1, SIGUSR1 blocked after 1'
	assert_line 'epoll_pwait2(1 s, mask unblocking SIGUSR1) = -1 EINTR, handler ran 2, SIGUSR1 blocked after 1'
	assert_line 'SIGUSR1 pending, fd ready: epoll_pwait(mask unblocking SIGUSR1) = 1: 0x1 EPOLLIN'
	assert_line 'handler ran 2, SIGUSR1 blocked after 1'
	assert_line 'SIGUSR1 pending: epoll_pwait(50 ms, mask blocking SIGUSR1) = 0, waited >= 40 ms yes, < 5 s yes, handler ran 3'
	assert_line 'handler ran 5 as epoll_pwait returned'
	assert_line 'SIGUSR1 at 50 ms, write at 100 ms: epoll_pwait(no timeout, mask blocking SIGUSR1) = 1: 0x1 EPOLLIN'
	assert_line 'handler ran 6 as epoll_pwait2 returned'
	assert_line 'SIGUSR1 during epoll_wait(no timeout), SA_RESTART: = -1 EINTR, handler ran yes'
	assert_line 'SIGUSR1 during epoll_pwait(4 s), SA_RESTART: = -1 EINTR, handler ran yes'
}

@test "epoll_wait is woken by another thread's and another process's write or close" {
	same_as_native $H/epoll wakeup
	assert_line 'another thread writes at 20 ms: epoll_wait(no timeout) = 1: 0x5 EPOLLIN'
	assert_line 'another process writes at 20 ms: epoll_wait(no timeout) = 1: 0x5 EPOLLIN'
	assert_line 'child exit 0'
	assert_line 'another thread closes the writer at 20 ms: epoll_wait(no timeout) = 1: 0x5 EPOLLHUP'
	assert_line 'another thread closes the reader at 20 ms: epoll_wait(no timeout) = 1: 0x6 EPOLLERR'
}

@test "an epoll fd shared across fork is one instance for parent and child" {
	same_as_native $H/epoll fork
	assert_line 'child: ready before the fork: wait = 1: 0x1 EPOLLIN'
	assert_line 'child: read it: wait = 0'
	assert_line 'parent: the child read the byte: wait = 0'
	assert_line "child: after the parent's ADD and write: wait(no timeout) = 1: 0x2 EPOLLIN"
	assert_line 'child: epoll_ctl(DEL, the first pipe) = 0'
	assert_line 'parent: both pipes written, the first deleted by the child: wait = 1: 0x2 EPOLLIN'
	assert_line 'parent: wait = 1: 0x2 EPOLLIN'
}

@test "poll and select see an epoll fd readable when it has an event" {
	same_as_native $H/epoll pollable
	assert_line 'nothing ready: poll(epfd, POLLIN|POLLOUT, 0) = 0, revents 0'
	assert_line 'nothing ready: select(epfd) readable 0'
	assert_line 'pipe written: poll(epfd, POLLIN, 0) = 1, revents POLLIN'
	assert_line 'pipe written: poll(epfd, POLLIN|POLLRDNORM|POLLOUT, 0) = 1, revents POLLIN|POLLRDNORM'
	assert_line 'pipe written: select(epfd) readable 1'
	assert_line 'pipe read: poll(epfd, POLLIN, 0) = 0, revents 0'
	assert_line 'written then read: poll(epfd, POLLIN, 0) = 0, revents 0'
	assert_line 'written at 20 ms by a thread: poll(epfd, POLLIN, no timeout) = 1, revents POLLIN'
	assert_line 'written at 20 ms by a thread: select(epfd, 4 s) readable 1'
	assert_line 'edge-triggered, reported: poll(epfd, POLLIN, 0) = 0, revents 0'
	assert_line 'nested: poll(outer, POLLIN, 0) = 1, revents POLLIN'
}

@test "a pipe accepts EPOLLRDHUP but never reports it" {
	same_as_native $H/epoll rdhup
	assert_line 'epoll_ctl(ADD, read end, EPOLLIN|EPOLLRDHUP) = 0'
	assert_line 'writer closed, 1 byte left: wait = 1: 0x1 EPOLLIN|EPOLLHUP'
	assert_line 'writer closed, empty: wait = 1: 0x1 EPOLLHUP'
	assert_line 'EPOLLRDHUP only, writer closed: wait = 1: 0x2 EPOLLHUP'
	assert_line 'reader closed: wait = 1: 0x3 EPOLLOUT|EPOLLERR'
	refute_line --regexp 'wait = .*EPOLLRDHUP'
}

@test "/proc/self/fd of an epoll fd reads anon_inode:[eventpoll], and fstat shows the anonymous inode" {
	same_as_native $H/epoll proc
	assert_line 'readlink(/proc/self/fd/EPFD) = "anon_inode:[eventpoll]"'
	assert_line 'readlink(/proc/self/fd/EPFD2) = "anon_inode:[eventpoll]"'
	assert_line 'fstat(EPFD): mode 0600, nlink 1'
}

@test "an epoll wait stopped and continued ends with EINTR, not restarted" {
	same_as_native $H/epoll stop
	assert_line 'epoll_wait(no timeout): child sleeping in it yes'
	assert_line 'epoll_pwait(no timeout, empty mask): child sleeping in it yes'
	assert_line 'epoll_pwait2(4 s): child sleeping in it yes'
	local out=$output
	run grep -c '^child stopped yes$' <<<"$out"
	assert_output 3
	run grep -c '^child: stopped and continued = -1 EINTR$' <<<"$out"
	assert_output 3
}

@test "/proc/self/fdinfo of an epoll fd lists each item's events and data" {
	same_as_native $H/epoll fdinfo
	assert_line '  flags:	02000002'
	assert_line '  flags:	02'
	# The events as stored: EPOLLERR|EPOLLHUP added, a reported one-shot
	# item's poll events cleared.
	assert_line '  tfd p0 events 40000019 data 1234 pos 0 ino sdev'
	assert_line '  tfd p1 events 8000001c data ffffffffffffffff pos 0 ino sdev'
	assert_line '  tfd q0 events 18 data 0 pos 0 ino sdev'
	assert_line '  tfd ep2 events 59 data 42 pos 0 ino sdev'
	assert_line '  tfd p0 events 40000000 data 1234 pos 0 ino sdev'
	assert_line '  tfd p0 events 19 data 5678 pos 0 ino sdev'
	# p1 closed: its item is gone.
	run sed -n '/^p1 closed:/,/^ep2/p' <<<"$output"
	refute_line --partial 'tfd p1'
	assert_line --partial 'tfd p0'
}
