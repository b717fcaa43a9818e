#!/usr/bin/env bats
# System calls: bad user pointers, identities, memory, pipes and fork.

load helper

@test "NULL and wild pointers make write, read, nanosleep and clock_gettime return EFAULT" {
	umk $H/efault
	assert_line 'write(1, NULL, 5) = -1 EFAULT'
	assert_line 'write(1, 1, 5) = -1 EFAULT'
	assert_line 'read(pipe, NULL, 4) = -1 EFAULT'
	assert_line 'nanosleep(NULL, NULL) = -1 EFAULT'
	assert_line 'nanosleep(1, NULL) = -1 EFAULT'
	assert_line 'clock_gettime(MONOTONIC, NULL) = -1 EFAULT'
	assert_line 'clock_gettime(MONOTONIC, 1) = -1 EFAULT'
	assert_line 'read(pipe, buf, 16) after them = 8'
}

@test "bad pointers give exactly the host's results for every call" {
	same_as_native $H/efault
}

@test "the first task is pid 1 and identities relate as on Linux" {
	umk $H/ids
	assert_line 'gettid==getpid: yes'
	assert_line 'thread: gettid!=getpid: yes'
	assert_line 'child: getppid==parent'"'"'s getpid: yes'
	assert_line 'uname sysname=Linux machine=x86_64'
	refute_output --partial ': no'
	umk --trace $H/exitcode 0
	untimed "$stderr" | grep -E '^1 enter exit_group\(0\)$' || fail "exit_group not traced as pid 1"
}

@test "malloc, brk, mmap, munmap and mprotect all work" {
	umk $H/memory
	refute_output --partial 'FAILED'
	assert_line 'malloc 1 B .. 16 MiB, 16-byte aligned, no overlap: ok'
	assert_line 'brk grows by 64 KiB: ok'
	assert_line 'read(2) into a read-only page is EFAULT: ok'
	assert_line 'munmap the rest: ok'
}

@test "pipes carry data intact to a spawned child's dup2'd stdout and to a thread" {
	umk $H/pipes
	assert_line 'child through dup2: 100000 bytes, checksum 08dee84e54b34819, intact: yes, child exit 0'
	assert_line 'thread: 204800 bytes, checksum a786749862c4dfb7, intact: yes'
	assert_line 'read with no writer left: 0'
}

@test "fork makes a child that exits and is reaped, natively and under umk" {
	same_as_native $H/forkcheck
	assert_output 'fork: ok, child exit 0'
}

@test "posix_spawn, vfork, execve, clone and pthreads create tasks" {
	umk $H/spawn
	assert_line 'posix_spawn: exit 0'
	assert_line 'vfork+_exit: exit 42'
	assert_line 'from vfork+execve'
	assert_line 'clone: exit 7, shared memory written: yes'
	assert_line 'pthreads: counter 40000'
}

@test "wait4 and waitid encode every kind of child exit as Linux does" {
	umk $H/waitstatus
	assert_line 'exit3: wait4 status=0x0300 WIFEXITED=1 WEXITSTATUS=3 WIFSIGNALED=0 WTERMSIG=0'
	assert_line 'term: wait4 status=0x000f WIFEXITED=0 WEXITSTATUS=0 WIFSIGNALED=1 WTERMSIG=15'
	assert_line 'abort: waitid si_signo=SIGCHLD si_code=CLD_KILLED si_status=6 si_pid=child'
	assert_line 'wait4(sleeping child, WNOHANG) = 0'
}

@test "a shared futex wake does not wake a private waiter; a private futex needs no page, a shared one a page it can be keyed on" {
	same_as_native $H/futexkey
	assert_output "futex(FUTEX_WAKE) of a private waiter = 0
futex(FUTEX_WAKE_PRIVATE) = 1
futex(FUTEX_WAIT_PRIVATE) = 0
FUTEX_WAKE_PRIVATE, unmapped = 0
FUTEX_WAKE, unmapped = -1 EFAULT
FUTEX_WAKE_PRIVATE, PROT_NONE = 0
FUTEX_WAKE, PROT_NONE = -1 EFAULT
FUTEX_WAKE, private read-only = -1 EFAULT
FUTEX_WAKE_PRIVATE, a kernel address = -1 EFAULT
FUTEX_WAIT_PRIVATE, unmapped = -1 EFAULT
FUTEX_WAIT, private read-only = -1 EFAULT
FUTEX_WAKE_PRIVATE, misaligned = -1 EINVAL"
}

@test "host files open read-only and read, seek and stat as on Linux" {
	same_as_native $H/readfile harness/progs/hello.c
	assert_line "lines $(wc -l < harness/progs/hello.c)"
	assert_line "fstat = 0"
	assert_line "regular yes, size matches lseek: yes"
	assert_line "read 4 = 4"
	assert_line "lseek(fd, -1, SEEK_SET) = -1 EINVAL"
	assert_line "open(missing) = -1 ENOENT"
	assert_line "open(NULL) = -1 EFAULT"
	assert_line "lseek(pipe) = -1 ESPIPE"
	assert_line "fstat(bad fd) = -1 EBADF"
}

@test "opening a host file for writing fails with EROFS: umk's files are read-only" {
	local f=$ROOT/$B/created-by-umk
	rm -f "$f"
	umk $H/readfile /dev/null "$f"
	assert_line "open(O_WRONLY|O_CREAT) = -1 EROFS"
	[[ ! -e $f ]] || fail "umk created a host file"
}

@test "a pipe write interrupted after some bytes returns them; before any, EINTR or a restart" {
	same_as_native $H/pipepartial
	assert_output "partial: write(262144) after 0 queued = 65536
partial: handler ran 1 time(s)
partial SA_RESTART: write(262144) after 0 queued = 65536
partial SA_RESTART: handler ran 1 time(s)
none written: write(100) after 65536 queued = -1 EINTR
none written: handler ran 1 time(s)
none written SA_RESTART: write(100) after 65536 queued = 100
none written SA_RESTART: handler ran 1 time(s)"
}

@test "execve from the main thread kills the other threads, natively too" {
	same_as_native $H/execthread leader
	assert_output "pid kept: yes
thread leader: yes
alone after 300 ms"
}

@test "execve from a second thread makes it the leader with the process's pid" {
	same_as_native $H/execthread thread
	assert_output "pid kept: yes
thread leader: yes
alone after 300 ms"
}

@test "preadv, pwritev, preadv2 and pwritev2: offsets, the file position, errors and RWF_ flags, in tmpfs and a host directory" {
	same_as_native $H/vecio /tmp
	assert_line '  read "1AB" "Cdef"'
	assert_line 'preadv(a pipe) = -1 ESPIPE'
	assert_line 'pwritev2(RWF_APPEND | RWF_NOAPPEND) = -1 EINVAL'
	assert_line '  file: "01ABCdefg9ABCdefgABC", position 17'
	assert_line 'preadv2(an empty pipe, RWF_NOWAIT) = -1 EAGAIN'
	local tmpfs=$output
	same_as_native --rw="$BATS_TEST_TMPDIR" $H/vecio "$BATS_TEST_TMPDIR"
	assert_equal "$output" "$tmpfs"
}

@test "prctl: the timer slack and its default, a child subreaper adopting an orphaned grandchild, no_new_privs, the tid address" {
	same_as_native $H/prctls
	assert_line 'prctl(PR_GET_TIMERSLACK) = 50000'
	assert_line 'child: prctl(PR_GET_TIMERSLACK), back to its default = 1000'
	assert_line 'grandchild: its parent is the subreaper'
	assert_line 'subreaper: wait() reaps the grandchild: yes'
	assert_line 'prctl(PR_SET_NO_NEW_PRIVS, 2) = -1 EINVAL'
	assert_line 'child: prctl(PR_GET_NO_NEW_PRIVS) = 1'
	assert_line '  the address set_tid_address gave: yes'
}

@test "every read of a directory is EISDIR: read, pread64, readv, preadv" {
	same_as_native $H/vecio /tmp
	assert_line 'read(a directory) = -1 EISDIR'
	assert_line 'pread64(a directory) = -1 EISDIR'
	assert_line 'readv(a directory) = -1 EISDIR'
	assert_line 'preadv(a directory) = -1 EISDIR'
}

@test "FIONREAD, O_NONBLOCK, readv/writev, dup3 and tkill behave as on Linux" {
	same_as_native $H/fdmisc
	assert_line "FIONREAD says 5"
	assert_line 'read "ab" then "cde"'
	assert_line "fcntl(F_GETFD) = 1"
	assert_line "handler got SIGUSR2"
	assert_line "tkill(self, 65) = -1 EINVAL"
}
