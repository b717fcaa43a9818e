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
