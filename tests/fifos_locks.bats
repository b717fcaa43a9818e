#!/usr/bin/env bats
# mknod, FIFOs and file locks (kernel/fs/namei.c's sys_mknodat,
# kernel/fs/pipe.c's fifo_open, kernel/fs/locks.c; docs/design.md, "FIFOs
# and file locks"): each case of build/harness/fifolock runs natively and
# under umk, in /tmp (umk's tmpfs under umk) and in a host directory given
# to umk with --rw; the output must be identical, and the lines that state
# Linux's behaviour are asserted, so a host that behaves otherwise fails
# too. No pid, device or time is printed; /proc/locks lines are masked.

load helper

# A host directory for a case, shown to umk writable at the same path.
host_dir() {
	mkdir -p "$BATS_TEST_TMPDIR/d"
	echo "$BATS_TEST_TMPDIR/d"
}

@test "mknod makes FIFOs, regular files and socket nodes in tmpfs, with Linux's errors" {
	same_as_native $H/fifolock mknod
	assert_line 'mknod(S_IFIFO | 0640) = 0'
	assert_line 'stat fifo: fifo, mode 0640'
	assert_line 'mknod again = -1 EEXIST'
	assert_line 'mkfifo(3) = 0'
	assert_line 'stat type 0: regular, mode 0644'
	assert_line 'stat socket: socket, mode 0755'
	assert_line 'mknod(S_IFDIR) = -1 EPERM'
	assert_line 'mknod(bad type 0170000) = -1 EINVAL'
	assert_line 'mknod(bad type and existing name) = -1 EINVAL'
	assert_line 'mknod(missing directory) = -1 ENOENT'
	assert_line 'mknodat(bad dirfd) = -1 EBADF'
}

@test "mknod makes a character device node in tmpfs with CAP_MKNOD" {
	same_as_native $H/fifolock mknod-dev
	assert_output - <<'OUT'
mknod(S_IFCHR, 1:3) = 0
stat char: char, mode 0600, rdev 1:3
OUT
}

@test "mknod makes FIFOs, regular files and socket nodes in a --rw host directory" {
	local d
	d=$(host_dir)
	same_as_native --rw="$d" $H/fifolock mknod "$d"
	assert_line 'stat mkfifo: fifo, mode 0600'
	assert_line 'stat socket: socket, mode 0755'
	assert_line 'mknod(S_IFDIR) = -1 EPERM'
}

@test "a FIFO joins two processes: each open waits for the other end, EOF at the writer's close" {
	same_as_native $H/fifolock fifo
	assert_output - <<'OUT'
mkfifo = 0
open(O_RDONLY) waits for the writer = fd
read: "hello fifo", then 0 (EOF)
/proc/self/fd names the FIFO: yes
fstat: fifo, size 0
open(O_WRONLY) waits for the reader = fd
write = 3
OUT
}

@test "a FIFO made inside umk in a --rw host directory joins two processes" {
	local d
	d=$(host_dir)
	same_as_native --rw="$d" $H/fifolock fifo "$d"
	assert_line 'read: "hello fifo", then 0 (EOF)'
	assert_line 'open(O_WRONLY) waits for the reader = fd'
}

@test "a FIFO a host program made in a --rw directory joins two processes under umk" {
	local d
	d=$(host_dir)
	mkfifo -m 0644 "$d/hostfifo"
	same_as_native --rw="$d" $H/fifolock hostfifo "$d/hostfifo"
	assert_output - <<'OUT'
stat host fifo: fifo, mode 0644
open(O_RDONLY) waits for the writer = fd
read: "hello fifo", then 0 (EOF)
/proc/self/fd names the FIFO: yes
fstat: fifo, size 0
OUT
}

@test "a FIFO's open rules: O_NONBLOCK reader opens, writer ENXIO, O_RDWR never waits, a blocking open waits" {
	same_as_native $H/fifolock openrules
	assert_output - <<'OUT'
open(O_WRONLY | O_NONBLOCK), no reader = -1 ENXIO
open(O_RDONLY | O_NONBLOCK), no writer = fd
read, no writer yet = 0
poll reader before any writer = 0: none
epoll_wait, nothing yet = 0
open(O_WRONLY | O_NONBLOCK), a reader = fd
poll writer = 1: POLLOUT
read, writer, no data = -1 EAGAIN
write = 2
poll reader with data = 1: POLLIN
epoll_wait = 1: EPOLLIN
read = 2
close writer = 0
poll reader after the writer left = 1: POLLHUP
read after the writer left = 0
open(O_RDWR) never waits = fd
poll O_RDWR = 1: POLLOUT
close O_RDWR = 0
close reader = 0
poll writer after the reader left = 1: POLLOUT POLLERR
write without a reader: killed by SIGPIPE
write without a reader, SIGPIPE ignored = -1 EPIPE
open(O_RDONLY), no writer, SIGALRM handler = -1 EINTR
open(O_WRONLY), no reader, SIGALRM handler = -1 EINTR
unlink = 0
open of the FIFO after unlink = -1 ENOENT
OUT
}

@test "a FIFO's open rules are the same in a --rw host directory" {
	local d
	d=$(host_dir)
	same_as_native --rw="$d" $H/fifolock openrules "$d"
	assert_line 'open(O_WRONLY | O_NONBLOCK), no reader = -1 ENXIO'
	assert_line 'poll reader after the writer left = 1: POLLHUP'
}

@test "flock: shared and exclusive across processes, LOCK_NB, one lock per open file kept by fork and dup" {
	same_as_native $H/fifolock flock
	assert_line 'child: flock(own fd, LOCK_SH | LOCK_NB) = -1 EAGAIN'
	assert_line 'child: flock(inherited a, LOCK_EX | LOCK_NB) = 0'
	assert_line 'flock(c, LOCK_SH | LOCK_NB), dup of a open = -1 EAGAIN'
	assert_line 'flock(c, LOCK_SH | LOCK_NB), last close done = 0'
	assert_line 'flock(e, LOCK_EX | LOCK_NB) = -1 EAGAIN'
	assert_line "child: flock(LOCK_EX) after the parent's unlocks = 0"
	assert_line 'child: flock(own fd, LOCK_EX), SIGALRM handler = -1 EINTR'
	assert_line 'flock(c, LOCK_SH | LOCK_EX) = -1 EINVAL'
	assert_line 'flock(bad fd, 0) = -1 EINVAL'
	assert_line 'flock(O_PATH fd, LOCK_SH) = -1 EBADF'
	assert_line 'flock(other end of the pipe, LOCK_EX | LOCK_NB) = -1 EAGAIN'
}

@test "flock in a --rw host directory" {
	local d
	d=$(host_dir)
	same_as_native --rw="$d" $H/fifolock flock "$d"
	assert_line 'flock(c, LOCK_SH | LOCK_NB), last close done = 0'
}

@test "POSIX locks: ranges split and merge, F_GETLK shows the holder, EAGAIN, EBADF and EINVAL as Linux" {
	same_as_native $H/fifolock posix
	assert_line 'child: F_GETLK [10, 20) F_WRLCK: F_RDLCK start 10 len 10 whence 0 pid holder'
	assert_line 'child: F_GETLK [40, 60) F_WRLCK: F_UNLCK'
	assert_line 'child: F_GETLK [100, EOF) F_WRLCK: F_RDLCK start 60 len 0 whence 0 pid holder'
	assert_line 'child: F_GETLK [40, 60) F_WRLCK: F_WRLCK start 0 len 60 whence 0 pid holder'
	assert_line 'child: F_SETLK [5, 6) F_WRLCK = -1 EAGAIN'
	assert_line 'F_SETLK start overflow = -1 EOVERFLOW'
	assert_line 'F_SETLK F_WRLCK on an O_RDONLY fd = -1 EBADF'
	assert_line 'F_SETLK F_RDLCK on an O_WRONLY fd = -1 EBADF'
	assert_line 'F_SETLK on an O_PATH fd = -1 EBADF'
	assert_line 'F_GETLK F_UNLCK = -1 EINVAL'
}

@test "a POSIX lock goes when its process closes another fd of the file, or a dup" {
	same_as_native $H/fifolock posix
	assert_line 'close(another fd of the file) = 0'
	assert_line 'close(a dup) = 0'
	refute_line --partial 'child: F_GETLK [0, EOF) F_WRLCK: F_WRLCK'
}

@test "a deadlock between two processes' POSIX locks is EDEADLK" {
	same_as_native $H/fifolock posix
	assert_line 'F_SETLKW [1, 2), the child'"'"'s, which waits for ours = -1 EDEADLK'
	assert_line "child: F_SETLKW [0, 1), the parent's = 0"
}

@test "F_SETLKW is EINTR after a handler without SA_RESTART and goes on waiting with it" {
	same_as_native $H/fifolock posix
	assert_line 'child: F_SETLKW [0, 1), SIGALRM handler = -1 EINTR'
	assert_line 'child: F_SETLKW [0, 1), SA_RESTART handler, then the unlock = 0'
}

@test "POSIX locks in a --rw host directory" {
	local d
	d=$(host_dir)
	same_as_native --rw="$d" $H/fifolock posix "$d"
}

@test "OFD locks belong to the open file: they conflict within a process, survive fork, dup and other closes" {
	same_as_native $H/fifolock ofd
	assert_output - <<'OUT'
F_OFD_SETLK a [0, 10) = 0
F_OFD_SETLK b [5, 6): another open file = -1 EAGAIN
F_SETLK b [5, 6): POSIX against OFD = -1 EAGAIN
F_OFD_GETLK b [0, 10): F_WRLCK start 0 len 10 whence 0 pid -1
F_GETLK b [0, 10): F_WRLCK start 0 len 10 whence 0 pid -1
F_OFD_GETLK a [0, 10): its own: F_UNLCK
F_OFD_SETLK with l_pid 1 = -1 EINVAL
F_OFD_GETLK with l_pid 1 = -1 EINVAL
F_OFD_GETLK F_UNLCK: F_WRLCK start 0 len 10 whence 0 pid -1
child: F_OFD_GETLK on the inherited fd: F_UNLCK
child: F_OFD_SETLK on the inherited fd = 0
child: F_GETLK (POSIX) [0, 10): F_WRLCK start 0 len 10 whence 0 pid -1
close(b): a's lock stays = 0
F_OFD_GETLK new fd: F_WRLCK start 0 len 10 whence 0 pid -1
close(a), a dup stays = 0
F_OFD_GETLK new fd: F_WRLCK start 0 len 10 whence 0 pid -1
close(the dup): the last close = 0
F_OFD_GETLK new fd: F_UNLCK
OUT
}

@test "/proc/locks lists POSIX, OFD and FLOCK locks and a waiter in Linux's format" {
	same_as_native $H/fifolock proclocks
	assert_output - <<'OUT'
/proc/locks, none: 0 lines
/proc/locks, POSIX split in three: 3 lines
  POSIX  ADVISORY  READ PID DEV:INO 10 19
  POSIX  ADVISORY  WRITE PID DEV:INO 0 9
  POSIX  ADVISORY  WRITE PID DEV:INO 20 99
/proc/locks, merged again: 1 lines
  POSIX  ADVISORY  WRITE PID DEV:INO 0 99
/proc/locks, OFD and FLOCK: 2 lines
  FLOCK  ADVISORY  WRITE PID DEV:INO 0 EOF
  OFDLCK ADVISORY  READ -1 DEV:INO 200 EOF
/proc/locks, a POSIX waiter on the OFD lock: 3 lines
  -> POSIX  ADVISORY  WRITE PID DEV:INO 300 304
  FLOCK  ADVISORY  WRITE PID DEV:INO 0 EOF
  OFDLCK ADVISORY  READ -1 DEV:INO 200 EOF
child: F_SETLKW [300, 305) once the OFD lock went = 0
/proc/locks, the waiter exited: 1 lines
  FLOCK  ADVISORY  WRITE PID DEV:INO 0 EOF
/proc/locks, all closed: 0 lines
OUT
}

@test "the trace decodes mknodat, flock and inotify_add_watch" {
	run_umk --trace $H/fifolock flock
	[[ $status -eq 0 ]] || fail "umk exited $status"
	grep -q 'enter flock(3, 0x2)' <<<"$stderr" || fail "no flock(3, 0x2) in the trace"
	run_umk --trace $H/fifolock mknod
	grep -Eq 'enter mknodat\(-100, "/tmp/fifolock\.[A-Za-z0-9]+/f", 010640, 0\)' <<<"$stderr" ||
		fail "no decoded mknodat in the trace"
	run_umk --trace $H/fifolock inotify
	grep -Eq 'enter inotify_add_watch\(3, "/tmp/fifolock\.[A-Za-z0-9]+", 0xfff\)' <<<"$stderr" ||
		fail "no decoded inotify_add_watch in the trace"
}

@test "inotify: errors, and the events of a directory and a file changed by this process and another" {
	same_as_native $H/fifolock inotify
	assert_output - <<'OUT'
inotify_init1(bad flags) = -1 EINVAL
inotify_init1(IN_NONBLOCK) = fd
inotify_add_watch(mask 0) = -1 EINVAL
inotify_add_watch(unknown bit) = -1 EINVAL
inotify_add_watch(bad fd) = -1 EBADF
inotify_add_watch(not inotify) = -1 EINVAL
inotify_add_watch(IN_MASK_ADD | IN_MASK_CREATE) = -1 EINVAL
inotify_add_watch(missing) = -1 ENOENT
inotify_add_watch(dir, IN_ALL_EVENTS) = 1
inotify_add_watch(dir) again = 1
inotify_add_watch(dir, IN_MASK_CREATE) = -1 EEXIST
read, nothing queued = -1 EAGAIN
FIONREAD = 0: 128 bytes
read into 8 bytes = -1 EINVAL
events of another process's new file:
  wd 1 IN_CREATE "g" (len 16)
  wd 1 IN_OPEN "g" (len 16)
  wd 1 IN_MODIFY "g" (len 16)
  wd 1 IN_CLOSE_WRITE "g" (len 16)
inotify_add_watch(file, IN_MODIFY | IN_ATTRIB | IN_OPEN | IN_CLOSE) = 2
inotify_add_watch(file, IN_ONLYDIR) = -1 ENOTDIR
open, read, close, chmod, truncate of the file, watched twice:
  wd 1 IN_OPEN "g" (len 16)
  wd 2 IN_OPEN
  wd 1 IN_ACCESS "g" (len 16)
  wd 1 IN_CLOSE_NOWRITE "g" (len 16)
  wd 2 IN_CLOSE_NOWRITE
  wd 1 IN_ATTRIB "g" (len 16)
  wd 2 IN_ATTRIB
  wd 1 IN_MODIFY "g" (len 16)
  wd 2 IN_MODIFY
rename, unlink, mkdir, rmdir:
  wd 1 IN_MOVED_FROM "g" (len 16) cookie new
  wd 1 IN_MOVED_TO "c" (len 16) cookie same
  wd 2 IN_ATTRIB
  wd 2 IN_IGNORED
  wd 1 IN_DELETE "c" (len 16)
  wd 1 IN_CREATE|IN_ISDIR "s" (len 16)
  wd 1 IN_DELETE|IN_ISDIR "s" (len 16)
inotify_rm_watch(the file's) = -1 EINVAL
inotify_rm_watch(it again) = -1 EINVAL
inotify_rm_watch(not inotify) = -1 EINVAL
  (no events)
blocking read, IN_ONESHOT, woken by another process's mknod:
  wd 1 IN_CREATE "g" (len 16)
  wd 1 IN_IGNORED
  (no events)
open(the new FIFO, O_WRONLY | O_NONBLOCK) = -1 ENXIO
the first instance: the FIFO made, no open nor close of it
  wd 1 IN_CREATE "g" (len 16)
blocking read, SIGALRM handler = -1 EINTR
close(inotify) = 0
fdinfo: inotify wd:1 mask:fff, ino the directory's
close(inotify) = 0
OUT
}

@test "inotify in a --rw host directory sees the changes made inside umk" {
	local d
	d=$(host_dir)
	same_as_native --rw="$d" $H/fifolock inotify "$d"
	assert_line '  wd 1 IN_CREATE "g" (len 16)'
	assert_line '  wd 1 IN_MOVED_TO "c" (len 16) cookie same'
	assert_line '  wd 2 IN_IGNORED'
}
