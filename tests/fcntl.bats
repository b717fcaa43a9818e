#!/usr/bin/env bats
# fcntl's commands beyond descriptors and record locks
# (harness/progs/fcntl.c): pipe sizes and fs.pipe-max-size, signal-driven
# I/O (O_ASYNC, the owner, F_SETSIG's siginfo; include/umk/fasync.h),
# leases (kernel/fs/leases.c) and the trace's names for the commands. Natively the
# tests run as root, as umk's pid 1 is; the parts where permission
# matters run again as nobody (65534) in a child. The host's /proc/sys is
# only ever read: the section that writes fs.pipe-max-size runs under umk
# alone.

load helper

# Does the host's root hold CAP_SYS_RESOURCE (bit 24 of CapEff)? A
# container may have taken it.
host_has_cap_sys_resource() {
	local eff
	eff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
	(( (16#$eff >> 24) & 1 ))
}

@test "F_SETPIPE_SZ rounds up to a power of two pages, is EBUSY below the data held and keeps it" {
	same_as_native $H/fcntl pipe-size
	assert_line 'F_GETPIPE_SZ (new pipe) = 65536'
	assert_line 'F_SETPIPE_SZ(0) = 4096'
	assert_line 'F_SETPIPE_SZ(4097) = 8192'
	assert_line 'F_SETPIPE_SZ(12289) = 16384'
	assert_line 'F_SETPIPE_SZ(2^31 + 1) = -1 EINVAL'
	assert_line 'F_SETPIPE_SZ(2^32 + 4096) = 4096'
	assert_line 'F_SETPIPE_SZ(4096 (5000 bytes held)) = -1 EBUSY'
	assert_line 'the bytes kept their order across the resize: ok'
	assert_line 'write 10000 (non-blocking, 1 page) = 4096'
	assert_line 'F_GETPIPE_SZ (a regular file) = -1 EBADF'
}

@test "a FIFO's size belongs to its pipe: another open file of it sees F_SETPIPE_SZ" {
	same_as_native $H/fcntl fifo-size
	assert_line 'F_GETPIPE_SZ (another open file of it) = 8192'
}

@test "without CAP_SYS_RESOURCE a pipe cannot grow past fs.pipe-max-size (EPERM)" {
	same_as_native $H/fcntl pipe-max-nobody
	assert_line 'F_SETPIPE_SZ(max) = max'
	assert_line 'F_SETPIPE_SZ(2 * max) = -1 EPERM'
}

@test "with CAP_SYS_RESOURCE (umk's root) a pipe grows past fs.pipe-max-size" {
	umk $H/fcntl pipe-max-root
	assert_line 'F_SETPIPE_SZ(2 * max) = 2 * max'
	assert_line 'F_GETPIPE_SZ = 2 * max'
	if host_has_cap_sys_resource; then
		native $H/fcntl pipe-max-root
		assert_line 'F_SETPIPE_SZ(2 * max) = 2 * max'
	fi
}

@test "past fs.pipe-user-pages-soft an unprivileged user's pipes cannot grow, and new ones have 2 pages" {
	same_as_native $H/fcntl pipe-user-pages
	assert_output '== pipe-user-pages
-- as nobody
pipes grown to 1 MiB: soft / 256 = 1
the next one'"'"'s F_SETPIPE_SZ(1 MiB) = -1 EPERM
its F_SETPIPE_SZ(8192) (a shrink is allowed) = 8192
a new pipe'"'"'s F_GETPIPE_SZ = 8192
its F_SETPIPE_SZ(16384) (a growth is not) = -1 EPERM'
}

@test "past fs.pipe-user-pages-hard an unprivileged user gets no new pipe (ENFILE) nor FIFO (ENOMEM) (umk only: writes /proc/sys)" {
	umk $H/fcntl pipe-pages-hard
	assert_output '== pipe-pages-hard
write 32 to pipe-user-pages-hard = 2
-- as nobody
pipe 1 (16 pages) = 0
pipe 2 (16 pages) = 0
pipe 3 (16 pages) = -1 ENFILE
open a new FIFO (0: an fd) = -1 ENOMEM
-- as root
pipe 1 (16 pages) = 0
pipe 2 (16 pages) = 0
pipe 3 (16 pages) = 0
open a new FIFO (0: an fd) = 0
write 0 to pipe-user-pages-hard = 1'
}

@test "root writes fs.pipe-max-size (rounded as Linux rounds it), nobody cannot, and nobody's pipes obey it (umk only: never the host's /proc/sys)" {
	umk $H/fcntl pipe-max-set
	assert_output '== pipe-max-set
write "5000" to pipe-max-size = 4
pipe-max-size: 8192
write "0" to pipe-max-size = 1
pipe-max-size: 4096
write "2147483649" to pipe-max-size = -1 EINVAL
pipe-max-size: 4096
write "-4096" to pipe-max-size = -1 EINVAL
pipe-max-size: 4096
write "12x" to pipe-max-size = -1 EINVAL
pipe-max-size: 4096
write "8192\n" to pipe-max-size = 5
pipe-max-size: 8192
-- as nobody
write "8192" to pipe-max-size = -1 EACCES
-- as root
F_GETPIPE_SZ (new pipe) = 65536
F_SETPIPE_SZ(16384) = 16384
F_SETPIPE_SZ(4096) = 4096
-- as nobody
F_GETPIPE_SZ (new pipe) = 8192
F_SETPIPE_SZ(16384) = -1 EPERM
F_SETPIPE_SZ(4096) = 4096
write "1048576" to pipe-max-size = 7
pipe-max-size: 1048576'
}

@test "O_ASYNC on a pipe: SIGIO to the owner on data, room and close; F_SETSIG's signal carries si_fd and si_band" {
	same_as_native $H/fcntl sigio-pipe
	assert_line 'write (no O_ASYNC) = 1'
	assert_line '  -> 1 x SIGIO, si_code SI_KERNEL'
	assert_line '  -> 1 x SIGRTMIN+1, si_code POLL_IN, si_fd fd, si_band 0x41'
	assert_line '  -> 1 x SIGIO, si_code POLL_IN, si_fd fd, si_band 0x41'
	assert_line '  -> 1 x SIGRTMIN+1, si_code POLL_OUT, si_fd fd, si_band 0x304'
	refute_line --partial 'is not fd'
	run grep -c -- '-> none' <<<"$output"
	assert_output 3
}

@test "F_SETOWN, F_SETOWN_EX and F_SETSIG: pids, groups, threads, and their errors" {
	same_as_native $H/fcntl owner
	assert_line 'F_SETOWN 999999 (no such process) = -1 ESRCH'
	assert_line 'F_GETOWN is -getpgrp() = 1'
	assert_line '  type 0 (F_OWNER_TID 0)'
	assert_line 'F_SETOWN_EX type 3 = -1 EINVAL'
	assert_line 'F_SETSIG 65 = -1 EINVAL'
	assert_line 'F_GETSIG = 64'
	assert_line 'ioctl FIOASYNC on (a regular file) = -1 ENOTTY'
}

@test "an owner that is a process group: each process in it gets SIGIO, none outside it" {
	same_as_native $H/fcntl sigio-pgrp
	assert_line 'member: SIGIO'
	assert_line 'leader: SIGIO'
	assert_line "the test's own process (another group): nothing"
}

@test "sigio_perm: an owner set by nobody does not signal root; one set by root signals nobody" {
	same_as_native $H/fcntl sigio-perm
	assert_output '== sigio-perm
-- as nobody
nobody: F_SETOWN getppid() (root) = 0
nobody: F_SETFL O_ASYNC = 0
root: write 1 byte = 1
root: nothing
root: F_SETOWN getpid() = 0
root: write 1 byte = 1
root: SIGIO
root: F_SETOWN the nobody child = 0
root: write 1 byte = 1
nobody: SIGIO'
}

@test "O_ASYNC on an AF_UNIX socket: data, room after a full send buffer, the peer's shutdown and close" {
	same_as_native $H/fcntl sigio-unix
	assert_line '  the owner is getpid(): 1'
	assert_line '  -> 1 x SIGRTMIN+2, si_code POLL_OUT, si_fd fd, si_band 0x304'
	assert_line '  -> 1 x SIGRTMIN+2, si_code POLL_HUP, si_fd fd, si_band 0x18'
	refute_line --partial 'is not fd'
}

@test "O_ASYNC on inotify: a signal per event queued, none for an event merged into the last" {
	same_as_native $H/fcntl sigio-inotify
	run grep -c 'si_code POLL_IN, si_fd fd, si_band 0x41' <<<"$output"
	assert_output 2
}

@test "the trace names fcntl's commands, the new ones included" {
	umk --trace $H/fcntl owner pipe-size lease
	trace_has 'enter fcntl\([0-9]+, F_SETOWN_EX, '
	trace_has 'enter fcntl\([0-9]+, F_SETLEASE, 0x1\)'
	trace_has 'enter fcntl\([0-9]+, F_GETSIG, '
	trace_has 'enter fcntl\([0-9]+, F_SETPIPE_SZ, 0x2000\)'
	trace_has 'enter fcntl\([0-9]+, F_GETFL, '
}

@test "F_SETLEASE and F_GETLEASE: read and write leases, their conflicts, a non-blocking break, /proc/locks" {
	same_as_native $H/fcntl lease
	assert_line 'F_SETLEASE F_WRLCK (another reader) = -1 EAGAIN'
	assert_line 'F_SETLEASE F_RDLCK (a writer is open) = -1 EAGAIN'
	assert_line 'F_SETLEASE F_UNLCK (none held) = -1 EAGAIN'
	assert_line 'open O_RDONLY|O_NONBLOCK = -1 EAGAIN'
	assert_line '  -> 1 x SIGRTMIN+1, si_code 3, si_fd fd, si_band 0x441'
	assert_line '/proc/locks: LEASE BREAKING READ ... 0 EOF'
	assert_line 'F_GETOWN (the release cleared it) = 0'
	assert_line 'F_SETLEASE F_RDLCK (a directory) = -1 EINVAL'
}

@test "a lease is for the file's owner: nobody cannot take one on root's file" {
	same_as_native $H/fcntl lease-nobody
	assert_line 'nobody: F_SETLEASE F_RDLCK (root'"'"'s file) = -1 EACCES'
	assert_line 'nobody: F_SETLEASE F_RDLCK (its own file) = 0'
}

@test "an open and a truncate wait for the holder to answer the lease break" {
	same_as_native $H/fcntl lease-break
	assert_output '== lease-break
open O_RDONLY (waits for the downgrade) = 0
truncate to 5 (waits for the release) = 0
holder: break 1: POLL_MSG, wants F_RDLCK, set = 0
holder: break 2: POLL_MSG, wants F_UNLCK, set = 0'
}

@test "an open blocked by a lease and interrupted by a handler is EINTR, or restarts under SA_RESTART" {
	same_as_native $H/fcntl lease-restart
	assert_line 'open O_RDONLY, no SA_RESTART: handler ran 1 time(s), open = -1 EINTR'
	assert_line 'open O_RDONLY, SA_RESTART: handler ran 1 time(s), open = 0'
}

@test "a holder that does not answer loses its lease after fs.lease-break-time; leases-enable 0 refuses new ones (umk only: writes /proc/sys)" {
	umk $H/fcntl lease-timeout
	assert_line '/proc/locks: LEASE BREAKING UNLCK ... 0 EOF'
	assert_line '/proc/locks: -> LEASE BREAKER WRITE ... 0 EOF'
	assert_line 'open O_WRONLY after about a second: 1'
	assert_line 'open O_WRONLY (the lease timed out) = 0'
	assert_line 'holder: 1 signal(s), F_GETLEASE = F_UNLCK'
	assert_line 'F_SETLEASE F_RDLCK (leases-enable 0) = -1 EINVAL'
	assert_line 'F_SETLEASE F_RDLCK (leases-enable 1) = 0'
}

@test "F_OWNER_TID sends SIGIO to that thread; F_OWNER_PID to a thread of the process that does not block it" {
	same_as_native $H/fcntl sigio-tid
	assert_output '== sigio-tid
F_SETOWN_EX F_OWNER_TID (the other thread) = 0
F_SETFL O_ASYNC = 0
write 1 byte = 1
handled by: the owner thread
F_SETOWN_EX F_OWNER_PID (the process), SIGIO blocked here = 0
write 1 byte = 1
handled by: the other thread'
}
