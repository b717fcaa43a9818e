#!/usr/bin/env bats
# Debugging umk with gdb and harness/gdb/umk.gdb: the script must let a
# breakpoint on a system call's kernel function stop there and unwind from
# the kernel through the host signal frame into the user program.

load helper

@test "a breakpoint on sys_nanosleep stops there and bt reaches the user program" {
	[[ -x $UMK ]] || fail "$UMK is missing: run make"
	run timeout -k 5 120 gdb -nx -batch -x harness/gdb/umk.gdb \
		-ex 'break sys_nanosleep' -ex run -ex bt -ex kill \
		--args $UMK $H/sleeper 10
	echo "$output"
	assert_output --regexp 'Breakpoint 1, (0x[0-9a-f]+ in )?sys_nanosleep'
	assert_output --regexp '#0 +(0x[0-9a-f]+ in )?sys_nanosleep'
	assert_output --partial '<signal handler called>'
	refute_output --partial 'received signal SIGSYS'
}

@test "the gdb script passes SIGSYS, SIGALRM and SIGIO silently" {
	run timeout 60 gdb -nx -batch -x harness/gdb/umk.gdb -ex 'info signals SIGSYS' \
		-ex 'info signals SIGALRM' -ex 'info signals SIGIO' -ex 'show pagination'
	assert_success
	assert_line --regexp '^SIGSYS[[:space:]]+No[[:space:]]+No[[:space:]]+Yes'
	assert_line --regexp '^SIGALRM[[:space:]]+No[[:space:]]+No[[:space:]]+Yes'
	assert_line --regexp '^SIGIO[[:space:]]+No[[:space:]]+No[[:space:]]+Yes'
	assert_output --partial 'State of pagination is off'
}

@test "a kernel fault is an oops naming the signal, address, ip, task and backtrace" {
	# No program can make umk's kernel fault, so gdb makes it: in
	# sys_getppid, jump to address 0.
	run timeout -k 5 120 gdb -nx -batch -x harness/gdb/umk.gdb \
		-ex 'break sys_getppid' -ex run -ex 'set var $pc = 0' \
		-ex 'handle SIGSEGV nostop noprint pass' -ex continue \
		--args $UMK $H/ids
	echo "$output"
	assert_output --regexp 'umk: oops: kernel fault: Segmentation fault \(11\) at address (0x0|\(nil\))'
	assert_output --regexp 'umk: oops: ip 0x0 sp 0x[0-9a-f]+ task 1 \(ids\)'
	assert_output --regexp 'umk: oops:   0x[0-9a-f]+ handle_sigsys\+0x[0-9a-f]+'
	assert_output --regexp 'umk: oops:   0x[0-9a-f]+ do_syscall_64\+0x[0-9a-f]+'
	assert_output --partial 'exited with code 0175'
}

@test "ps() called from gdb lists every task with its state and system call" {
	run timeout -k 5 120 gdb -nx -batch -x harness/gdb/umk.gdb \
		-ex 'break sys_wait4' -ex run -ex 'call ps()' -ex kill \
		--args $UMK $H/demo
	echo "$output"
	assert_output --regexp '  PID  TGID  PPID STATE +CMD +SYSCALL'
	assert_output --regexp '    0     0     0 idle +swapper +-'
	assert_output --regexp '    1     1     0 running +demo +wait4'
	assert_output --regexp '    3     3     1 zombie +demo +exit_group'
}
