#!/usr/bin/env bats
# Resource limits (getrlimit, setrlimit, prlimit64) and their enforcement,
# natively and under umk (harness/progs/rlimits.c).

load helper

@test "getrlimit, setrlimit and prlimit64: NULL arguments, bad resource, soft > hard, bad pid, sharing and inheritance" {
	same_as_native $H/rlimits calls
	assert_line 'prlimit64(0, NOFILE, NULL, NULL) = 0'
	assert_line 'prlimit64(0, 16, NULL, NULL) = -1 EINVAL'
	assert_line 'setrlimit(NOFILE, 100 > 50) = -1 EINVAL'
	assert_line 'prlimit64(-1, NOFILE, NULL, &old) = -1 ESRCH'
	assert_line 'old cur=64 max=128'
	assert_line 'CORE set by a thread cur=0 max=4096'
	assert_line 'child NOFILE cur=32 max=128'
}

@test "umk's root holds CAP_SYS_RESOURCE: a hard limit may be raised again" {
	umk $H/rlimits raise
	assert_output 'setrlimit(CORE, 0/2048) after a hard limit of 1024 = 0
getrlimit CORE cur=0 max=2048'
}

@test "RLIMIT_NOFILE: EMFILE at open, openat, dup, F_DUPFD and pipe; EBADF at dup2 past it; EINVAL for F_DUPFD past it" {
	same_as_native $H/rlimits nofile
	assert_output 'opened 5, last fd 7, then open: EMFILE
openat = -1 EMFILE
dup(0) = -1 EMFILE
dup2(0, 8) = -1 EBADF
dup3(0, 8, 0) = -1 EBADF
dup2(0, 7) = 7
fcntl(0, F_DUPFD, 8) = -1 EINVAL
fcntl(0, F_DUPFD_CLOEXEC, 100) = -1 EINVAL
fcntl(0, F_DUPFD, 3) = -1 EMFILE
pipe = -1 EMFILE
pipe with one fd free = -1 EMFILE
pipe with two fds free = 0
close(7) below a limit of 4 = 0
dup(0) with limit 4 = -1 EMFILE
prlimit64(0, NOFILE, 4/past nr_open, NULL) = -1 EPERM'
}

@test "RLIMIT_SIGPENDING: sigqueue of a real-time signal past it is EAGAIN; other signals still arrive" {
	same_as_native $H/rlimits sigpending
	assert_output 'queued at most 500 SIGRTMIN, then sigqueue: EAGAIN
sigqueue(SIGUSR1) past the limit = 0
kill(SIGRTMIN) past the limit = 0
limit 503: 3 more, then sigqueue: EAGAIN'
}

@test "RLIMIT_AS: mmap and brk past it fail with ENOMEM" {
	same_as_native $H/rlimits as
	assert_output 'mmap 1 GiB: ENOMEM
mmap 1 GiB PROT_NONE: ENOMEM
brk +1 GiB: unchanged
64 MiB mappings under 512 MiB: 7, then ENOMEM
after raising to 1 GiB: ok'
}

@test "RLIMIT_DATA: brk and private writable mappings past it fail; read-only ones do not count" {
	same_as_native $H/rlimits data
	assert_output 'brk +32 MiB: unchanged
brk +1 MiB: moved
mmap 32 MiB private writable: ENOMEM
mmap 32 MiB read-only: ok
mmap 8 MiB private writable: ok
mmap 8 MiB more private writable: ENOMEM'
}

@test "RLIMIT_STACK: an exec'd child gets a stack of its size (56 MiB used of 64)" {
	same_as_native $H/rlimits stack
	assert_output 'child STACK cur=67108864 max=inf
child used 56 MiB of stack
child stack-child: exit 0
child STACK cur=1048576 max=inf
child used 768 KiB of stack
child stack-child: exit 0'
}

@test "RLIMIT_CPU: SIGXCPU at the soft limit (which grows by a second), SIGKILL at the hard one" {
	same_as_native $H/rlimits cpu
	assert_output 'SIGXCPU 1, soft limit now 2
child cpu-child: killed by SIGKILL'
}

@test "RLIMIT_CPU under --clock=virtual too" {
	same_as_native --clock=virtual $H/rlimits cpu
	assert_output 'SIGXCPU 1, soft limit now 2
child cpu-child: killed by SIGKILL'
}

@test "RLIMIT_NPROC: vfork and pthread_create past it fail with EAGAIN" {
	same_as_native $H/rlimits nproc
	assert_output 'vfork with NPROC 1: EAGAIN
pthread_create with NPROC 1: EAGAIN
vfork with NPROC 2: ok
child: exit 0'
}

@test "pid 1 inherits umk's own limits from the host" {
	ulimit -S -s 4096
	run_umk $H/rlimits stack-child 0
	assert_success
	assert_line 'child STACK cur=4194304 max=inf'
}

@test "the limit calls are traced with their arguments" {
	umk --trace $H/rlimits stack-child 0
	[[ $stderr == *' enter prlimit64(0, 3, '* || $stderr == *' enter getrlimit(3, '* ]] ||
		fail 'no limit call in the trace'
}
