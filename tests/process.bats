#!/usr/bin/env bats
# Processes: an address space per process, fork, exec of programs and
# scripts from the host's files, and busybox's shell on top of them.
# Every check runs natively and under umk with the same output.

load helper

@test "a forked child's writes do not reach the parent, and one fixed address holds different data in two processes" {
	same_as_native $H/forks isolate
	assert_output 'child: global 2, 0x20000000 holds "child'"'"'s"
fork: child exit 0
parent: global 1, 0x20000000 holds "parent'"'"'s"'
}

@test "MAP_SHARED anonymous memory stays shared after fork, and a shared futex in it wakes the other process" {
	same_as_native $H/forks shared
	assert_output 'futex_wake woke 1
child exit 0
the child wrote 20 into the shared page'
}

@test "MAP_SHARED of /dev/zero and of a /dev/shm file stay shared after fork; MAP_PRIVATE of /dev/zero is zeros" {
	same_as_native $H/forks files
	assert_output 'child exit 0
/dev/zero MAP_SHARED after the child wrote: 7
/dev/zero MAP_PRIVATE: 0
/dev/shm file MAP_SHARED holds the child'"'"'s words'
}

@test "children forked one after another get the parent's memory and nothing of the child before" {
	same_as_native $H/forks fresh
	assert_output 'child 0: the parent'"'"'s data copied, 0 stale bytes
child 0 exit 0
child 1: the parent'"'"'s data copied, 0 stale bytes
child 1 exit 0
child 2: the parent'"'"'s data copied, 0 stale bytes
child 2 exit 0
child 3: the parent'"'"'s data copied, 0 stale bytes
child 3 exit 0'
}

@test "200 processes alive at once are all reaped" {
	same_as_native $H/forks many 200
	assert_output '200 children alive at once, 200 reaped (wait: ECHILD), exit codes sum 9900'
}

@test "fork from a second thread gives a child with that one thread" {
	same_as_native $H/forks thread
	assert_output 'child of the thread: getpid() == gettid(): yes
thread: child exit 7'
}

@test "a fork while another thread sleeps leaves its sleep whole" {
	same_as_native $H/forks sleeping
	assert_output 'forked while the other thread sleeps: child exit 3
sleeper: nanosleep = 0, slept at least 300 ms'
}

@test "a child stopped and continued is reported by the parent's waitpid each time" {
	same_as_native $H/forks stopcont
	assert_output 'waitpid(WUNTRACED): status 0x137f
waitpid(WCONTINUED): continued
waitpid: exit 5'
}

@test "a forked child's nanosleep stopped and continued ends at its deadline through restart_syscall" {
	same_as_native --trace $H/forks restart
	assert_output 'child: nanosleep = 0, returned at or after its deadline
child exit 0
parent: nanosleep = 0, slept at least 600 ms'
	# The child (pid 2) was stopped in nanosleep and resumed through
	# restart_syscall; the parent (pid 1) never needed it.
	untimed "$stderr" | grep -qE '^2 enter restart_syscall\(\)$' ||
		fail "the child did not resume through restart_syscall"
	if untimed "$stderr" | grep -qE '^1 enter restart_syscall'; then
		fail "the parent ran restart_syscall"
	fi
}

@test "a pointer into another process's memory is EFAULT to the caller" {
	same_as_native $H/forks efault
	assert_output 'write(1, child'"'"'s 0x30000000, 17) = EFAULT
child exit 0'
}

@test "exec from a process with a second thread running leaves the new program alone" {
	same_as_native $H/forks execmt
	assert_output 'after exec: running, alone'
}

@test "the heap (brk) of a forked child is its own copy" {
	same_as_native $H/forks brk
	assert_output 'child: brk grew by 1028 KiB
child exit 0
parent: "parent heap", brk grew by 4 KiB'
}

@test "the trace shows fork with the new address space and switch_mm when it changes" {
	umk --trace $H/forkcheck
	trace_has '^1 task fork 2 \(mm [0-9]+, copied\)$'
	trace_has '^[0-9]+ task switch_mm mm [0-9]+ -> mm [0-9]+ \([0-9]+ regions, [0-9]+ kept, [0-9]+ host calls\)$'
}

@test "a switch to a forked child keeps the program's read-only segments, its file's pages in both" {
	# forkcheck is static: its code and read-only data are mapped from the
	# file (kernel/fs/binfmt_elf.c), so the parent's and the child's are
	# the same pages at the same addresses and stay mapped (kernel/mm/window.c)
	umk --trace $H/forkcheck
	trace_has '^[0-9]+ task switch_mm mm [0-9]+ -> mm [0-9]+ \([0-9]+ regions, [1-9][0-9]* kept, [0-9]+ host calls\)$'
	# an exec into an empty mm clears the whole window in one call
	umk --trace /bin/busybox sh -c '/bin/busybox true'
	trace_has '^[0-9]+ task switch_mm mm [0-9]+ -> mm [0-9]+ \(0 regions, 0 kept, 1 host calls\)$'
}

# Scripts: "#!" lines, as fs/binfmt_script.c reads them. The test's files
# are in a host directory under /tmp, which umk shows with --rw (its own
# /tmp is its tmpfs).
script() {
	local f=$BATS_TEST_TMPDIR/$1
	printf '%s\n' "$2" >"$f"
	chmod +x "$f"
}

@test "a #! script runs with its interpreter, its argument and its path in argv, nested too" {
	script inner '#!/bin/busybox sh
echo "inner: $0 $*"'
	script outer "#!$BATS_TEST_TMPDIR/inner  one arg "
	same_as_native --rw="$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR/inner" a b
	assert_output "inner: $BATS_TEST_TMPDIR/inner a b"
	same_as_native --rw="$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR/outer" a b
	assert_output "inner: $BATS_TEST_TMPDIR/inner one arg $BATS_TEST_TMPDIR/outer a b"
}

@test "execve of a directory, a text file, a script with a missing interpreter or a truncated ELF gives Linux's errno" {
	script text 'just words'
	script noint '#!/no/such/interpreter'
	script empty '#!'
	head -c 100 $H/hello >"$BATS_TEST_TMPDIR/truncated"
	chmod +x "$BATS_TEST_TMPDIR/truncated"
	local f want
	for f in /tmp:EACCES text:ENOEXEC noint:ENOENT empty:ENOEXEC truncated:ENOEXEC; do
		want=${f#*:}
		f=${f%:*}
		[[ $f == /* ]] || f=$BATS_TEST_TMPDIR/$f
		same_as_native --rw="$BATS_TEST_TMPDIR" $H/forks exec "$f"
		assert_output "execve: $want"
	done
}

# busybox's shell: pipelines, subshells, command substitution, jobs. Its
# applets are found through a PATH of links to busybox, the same on both
# sides (Debian's coreutils are dynamically linked: tests/dynamic.bats runs those).
bb() {
	local bin=$BATS_TEST_TMPDIR/bin
	if [[ ! -d $bin ]]; then
		mkdir -p "$bin"
		/bin/busybox --install -s "$bin"
	fi
	PATH=$bin same_as_native --rw="$BATS_TEST_TMPDIR" /bin/busybox sh -c "$1"
}

@test "busybox sh: a pipeline of three stages, a subshell, command substitution" {
	bb 'echo one two three | tr a-z A-Z | wc -w; (echo sub; exit 3); echo "status $?"; x=$(echo hi | rev); echo "got $x"'
	assert_output '3
sub
status 3
got ih'
}

@test "busybox sh: background jobs, wait, a for loop of applets" {
	bb 'for i in 3 1 2; do sleep 0.0$i & done; wait; echo waited; for w in b a c; do echo $w; done | sort | tr -d "\n"; echo'
	assert_output 'waited
abc'
}

@test "when the host has no memory file left for a new address space, fork fails with ENOMEM and umk carries on" {
	require_umk
	# Each address space is a host memfd: with umk's host fds limited to
	# 64, some fork of 200 must find none.
	echo "\$ prlimit --nofile=64 $UMK $H/forks many 200"
	run --separate-stderr timeout -k 5 60 prlimit --nofile=64 $UMK $H/forks many 200
	assert_equal "$status" 99
	assert_equal "$stderr" "harness: fork: ENOMEM"
	assert_equal "$output" ""
}

@test "busybox sh: a script written into umk's /tmp runs from there, with redirections and reads back" {
	bb 'cd /tmp && printf "#!/bin/busybox sh\necho \"script \$0 \$*\"\n" > umk-test-s.sh && chmod +x umk-test-s.sh && ./umk-test-s.sh x y > out.txt; cat out.txt; rm umk-test-s.sh out.txt; pwd'
	assert_output 'script ./umk-test-s.sh x y
/tmp'
}

@test "busybox: ls -l of a host directory, find, stat and date +%Y as natively" {
	bb 'ls -l /usr/share/common-licenses | head -3; find /usr/share/common-licenses -name "GPL*" | sort; stat -c "%n %s %F" /bin/busybox; date +%Y'
	assert_line "$(date +%Y)"
}

@test "busybox ps lists the script's own processes, natively and under umk" {
	# The shell, its background sleep and ps itself, found by parent:
	# natively among the host's processes, under umk among umk's only
	# (awk's process may not have its name yet when ps reads it).
	bb 'sleep 1 & sleep 0.2; ps -o pid,ppid,comm | awk -v me=$$ '"'"'$1 == me || ($2 == me && $3 != "awk" && $3 != "busybox") { print $3 }'"'"'; wait'
	assert_output 'busybox
sleep
ps'
	PATH=$BATS_TEST_TMPDIR/bin umk /bin/busybox sh -c 'sleep 1 & sleep 0.2; ps -o pid,comm; wait'
	assert_output 'PID   COMMAND
    1 busybox
    2 sleep
    4 ps'
}

@test "execveat: a path from AT_FDCWD or a directory fd, fexecve's AT_EMPTY_PATH, a script through an fd, and the errors" {
	same_as_native --rw="$BATS_TEST_TMPDIR" $H/execat "$BATS_TEST_TMPDIR"
	assert_line '  argv[0] execat-child, comm execat, AT_EXECFN /dev/fd/3/execat'
	assert_line '  argv[0] execat-child, comm execat, AT_EXECFN /dev/fd/4'
	assert_line --regexp '^  script: \$0 is /dev/fd/[0-9]+$'
	assert_line '  execveat = -1 ELOOP'
	[ "$(grep -c 'execveat = -1 ENOENT' <<<"$output")" -eq 2 ]
	[ "$(grep -c 'execveat = -1 EACCES' <<<"$output")" -eq 2 ]
	assert_line '  execveat = -1 EBADF'
	assert_line '  execveat = -1 EINVAL'
}
