#!/usr/bin/env bats
# Linux's native AIO (kernel/fs/aio.c): io_setup and its ring mapped at the
# context id, io_submit's requests on files and pipes, io_getevents,
# IOCB_CMD_POLL and io_cancel, IOCB_FLAG_RESFD with an eventfd, the limits
# of fs.aio-max-nr, io_destroy and the end of contexts at exit and exec.
# Each runs natively and under umk with the same output
# (harness/progs/aio.c); the restarts are in tests/matrix.bats.

load helper

@test "io_setup checks its arguments, maps the ring at the context id and counts fs.aio-nr; io_destroy ends the context" {
	same_as_native $H/aio setup
	assert_line 'io_setup(8, NULL) = -1 EFAULT'
	assert_line 'io_setup(0) = -1 EINVAL'
	assert_line 'io_setup(0x10000000) = -1 EINVAL'
	assert_line 'io_setup(fs.aio-max-nr + 1) = -1 EAGAIN'
	assert_line 'fs.aio-nr grew by 8'
	assert_line 'ring: id=0 nr=127 head=0 tail=0 magic=0xa10a10a1 compat=1 incompat=0 header_length=32'
	assert_line 'second ring: id=1 nr=511'
	assert_line 'io_destroy(first) again = -1 EINVAL'
	assert_line 'io_getevents(destroyed) = -1 EINVAL'
	assert_line 'fs.aio-nr back: yes'
}

@test "PWRITE, PREAD, PWRITEV and PREADV on a file complete with their byte counts, io_submit writing aio_key 0" {
	same_as_native $H/aio rw
	assert_line 'aio_key after io_submit: 0'
	assert_line '  event data=102 iocb=#2 res=9 res2=0'
	assert_line "PREAD read 'world', PREADV read 'rld' and 'vector'"
	assert_line '  event data=104 iocb=#0 res=0 res2=0'
}

@test "the events can be reaped from the ring in user space, as libaio does, and io_getevents then finds none" {
	same_as_native $H/aio ring
	assert_line 'ring head=0 tail=3'
	assert_line "  from the ring: data=202 res=4 buf='ijkl'"
	assert_line 'io_getevents after the ring was reaped = 0'
}

@test "io_getevents waits for min_nr events until its timeout, and checks min_nr, nr and its pointers" {
	same_as_native $H/aio wait
	assert_line 'io_getevents(min_nr 1, 50 ms, nothing submitted) = 0'
	assert_line 'it waited the 50 ms: yes'
	assert_line 'io_getevents(min_nr 2 > nr 1) = -1 EINVAL'
	assert_line 'io_getevents(events NULL) = -1 EFAULT'
	assert_line 'io_getevents(min_nr 2, nr 4, 50 ms: one event there) = 1'
}

@test "io_pgetevents's signal mask lets a pending signal in, whose handler ends the wait with EINTR, and comes back after it" {
	same_as_native $H/aio pgetevents
	assert_line 'io_pgetevents(sigsetsize 4) = -1 EINVAL'
	assert_line 'io_pgetevents(a bad aio_sigset pointer) = -1 EFAULT'
	assert_line 'io_pgetevents(a mask unblocking SIGUSR1, which is pending) = -1 EINTR'
	assert_line 'handler ran: yes'
	assert_line 'SIGUSR1 blocked again after it: yes'
	assert_line 'io_pgetevents(the mask, an event ready) = 1'
}

@test "IOCB_CMD_POLL completes when the pipe becomes ready, and io_cancel of a waiting poll is EINPROGRESS with its event in the ring" {
	same_as_native $H/aio poll
	assert_line 'io_getevents: nothing yet = 0'
	assert_line '  event data=401 iocb=#1 res=65 res2=0'
	assert_line 'io_cancel(the waiting POLL) = -1 EINPROGRESS'
	assert_line '  event data=402 iocb=#2 res=0 res2=0'
	assert_line 'io_cancel(a PREAD that completed) = -1 EINVAL'
	assert_line 'io_submit(POLL with events past 16 bits) = -1 EINVAL'
	assert_line '  event data=407 iocb=#1 res=16 res2=0'
	assert_line '  event data=408 iocb=#2 res=65 res2=0'
}

@test "IOCB_FLAG_RESFD adds 1 to an eventfd per completion, which wakes an epoll on it" {
	same_as_native $H/aio resfd
	assert_line 'epoll_wait on the eventfd = 1'
	assert_line 'eventfd count: 2'
	assert_line 'epoll_wait after a write to the polled pipe = 1'
	assert_line 'io_submit(IOCB_FLAG_RESFD naming a pipe) = -1 EINVAL'
	assert_line 'io_submit(IOCB_FLAG_RESFD naming no file) = -1 EBADF'
}

@test "io_submit checks each iocb in Linux's order and returns the count before the first bad one" {
	same_as_native $H/aio errors
	assert_line 'io_submit(iocbpp NULL) = -1 EFAULT'
	assert_line 'io_submit(IOCB_CMD_NOOP) = -1 EINVAL'
	assert_line 'io_submit(PWRITE on a read-only fd) = -1 EBADF'
	assert_line 'io_submit(PREAD at offset -1) = -1 EINVAL'
	assert_line 'io_submit(PREAD into a kernel address) = -1 EFAULT'
	assert_line 'io_submit(FSYNC on a pipe) = -1 EINVAL'
	assert_line 'io_submit(PREAD with IOCB_FLAG_IOPRIO, class 5) = -1 EINVAL'
	assert_line 'io_submit(a good PREAD, then one on no file) = 1'
	assert_line '  event data=616 iocb=#1 res=0 res2=0'
}

@test "a context takes at least the requests io_setup asked for, then EAGAIN until its events are reaped" {
	same_as_native $H/aio eagain
	assert_line 'the first io_submit that failed = -1 EAGAIN'
	assert_line 'requests taken before: at least 8: yes, below ring nr 127: yes'
	assert_line 'io_submit after the reaping = 1'
}

@test "io_destroy waits for a read still in io_submit in another thread, and ends another thread's io_getevents with EINVAL" {
	same_as_native $H/aio destroy
	assert_line 'io_destroy returned after the pipe was written: yes'
	assert_line 'the other thread'"'"'s io_submit = 1'
	assert_line 'the other thread'"'"'s io_getevents = -1 EINVAL'
}

@test "a process's contexts end with its exit and its exec, and a forked child cannot use its parent's" {
	same_as_native $H/aio exit
	assert_line 'after the child'"'"'s exit, fs.aio-nr back: yes'
	assert_line 'after the exec, fs.aio-nr back: yes'
	assert_line 'child: io_getevents on its parent'"'"'s context = -1 EINVAL'
}

# umk only: the host's /proc/sys is never written.
@test "fs.aio-max-nr, written in umk's /proc/sys, bounds the sum of io_setup's counts (EAGAIN)" {
	umk /bin/sh -c 'echo 12 > /proc/sys/fs/aio-max-nr && exec '"$H"'/aio limit'
	assert_output '== limit
fs.aio-max-nr: 12
io_setup(8) = 0
io_setup(8) again = -1 EAGAIN
io_setup(4) = 0
fs.aio-nr: 12
io_setup(13), past fs.aio-max-nr alone = -1 EAGAIN'
}

@test "the trace decodes the AIO calls" {
	umk --trace $H/aio ring
	trace_has 'enter io_setup\(4, 0x[0-9a-f]+\)'
	trace_has 'enter io_submit\(0x[0-9a-f]+, 3, 0x[0-9a-f]+\)'
	trace_has 'exit io_submit = 3'
	trace_has 'enter io_getevents\(0x[0-9a-f]+, 0, 4, 0x[0-9a-f]+, \{0, 0\}\)'
	trace_has 'exit io_destroy = 0'
}

@test "Debian's libaio works, and answers a zero-timeout io_getevents on an empty ring from the ring's header, without the call" {
	[[ -x $B/dyn/libaio ]] || skip "no $B/dyn/libaio (make installs libaio-dev)"
	same_as_native $B/dyn/libaio
	assert_output 'io_getevents on an empty ring, zero timeout: 0
io_getevents: 2
  the write: res 5
  the read: res 5
read back: hello'
	umk --trace $B/dyn/libaio
	[[ $(untimed "$stderr" | grep -c 'enter io_getevents') -eq 1 ]] ||
		fail "libaio made the zero-timeout io_getevents call: $(untimed "$stderr" | grep io_getevents)"
}
