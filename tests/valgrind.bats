#!/usr/bin/env bats
# The host's valgrind under umk: a program that runs another program on a
# synthetic CPU, with its own signal handling, its own stack growth (on a
# SIGSEGV with si_code SEGV_MAPERR, kernel/mm/memory.c's user_fault_code)
# and its own preloaded malloc. Its report must be the native one, but for
# the pid in each line's "==PID==" prefix.

load helper

setup() {
	command -v valgrind >/dev/null || skip "no valgrind on this host (make installs it)"
	# valgrind places its tool above 2 GiB, beyond the ASan build's window
	! umk_asan || skip "valgrind needs more than the ASan build's 2 GiB user window"
}

@test "valgrind -q /bin/true is silent and exits 0, as natively" {
	same_as_native /usr/bin/valgrind -q /bin/true
	assert_output ''
	assert_equal "$stderr" ''
}

# The report goes to stdout (--log-fd=1) without its pid prefix; the
# exit status is valgrind's --error-exitcode when it found errors.
VALGRIND_LEAK='set -o pipefail
valgrind --leak-check=full --error-exitcode=3 --log-fd=1 "$1" | sed "s/^==[0-9]*==//"'

@test "valgrind --leak-check=full finds leak's lost block and its uninitialized read, as natively" {
	same_as_native -s 3 /bin/bash -c "$VALGRIND_LEAK" valgrind-leak $B/dyn/leak
	assert_line ' Conditional jump or move depends on uninitialised value(s)'
	assert_line ' 100 bytes in 1 blocks are definitely lost in loss record 1 of 1'
	assert_line ' ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)'
	assert_line 'kept: yes'
}
