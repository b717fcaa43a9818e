#!/usr/bin/env bats
# The test suite itself (tests/helper.bash): its comparisons fail when umk
# and the host differ, and on a host where umk cannot start it says why
# once and skips what needs umk. Each test runs bats on a small fixture.

load helper

# fixture NAME BODY: write a test file NAME.bats loading this helper, with
# BODY after it, into $BATS_TEST_TMPDIR; its path is in $FIXTURE. BODY's
# tests start with TEST, made @test here: bats would take a line starting
# with @test for one of this file's tests, even inside a string.
fixture() {
	FIXTURE=$BATS_TEST_TMPDIR/$1.bats
	{
		printf 'load %q\n' "$ROOT/tests/helper"
		sed 's/^TEST /@test /' <<<"$2"
	} >"$FIXTURE"
}

# run_fixture [VAR=VALUE...]: run bats --tap on $FIXTURE, with the
# environment changed by the VAR=VALUEs and without this run's BATS_*
# variables (the inner bats would take them for its own).
run_fixture() {
	local unset=() v
	for v in $(compgen -e); do
		if [[ $v == BATS_* ]]; then unset+=(-u "$v"); fi
	done
	echo "\$ $* bats --tap $FIXTURE"
	run --separate-stderr timeout 120 env "${unset[@]}" "$@" bats --tap "$FIXTURE"
	echo "$output"
}

@test "same_as_native fails on a missing program, a status other than the one expected, and different stdout" {
	require_umk
	fixture strict '
TEST "missing" { same_as_native $H/no-such-program; }
TEST "both killed by SIGSEGV, 0 expected" { same_as_native $H/nullderef; }
TEST "both killed by SIGSEGV, as expected" { same_as_native -s 139 $H/nullderef; }
TEST "virtual time is not host time" { same_as_native --clock=virtual $H/clocks; }
TEST "the same input on both sides" { same_as_native -i "echo hi" $H/conread; }'
	run_fixture
	assert_failure
	assert_line 'not ok 1 missing'
	assert_line "# native: no program $H/no-such-program (run make?)"
	assert_line 'not ok 2 both killed by SIGSEGV, 0 expected'
	assert_line '# exit status 139, expected 0'
	assert_line 'ok 3 both killed by SIGSEGV, as expected'
	assert_line 'not ok 4 virtual time is not host time'
	assert_line '# stdout under umk differs from the native run'"'"'s (diff above)'
	assert_line 'ok 5 the same input on both sides'
}

@test "on a host without Syscall User Dispatch the suite says so once and skips only the tests that run umk" {
	# build/tests/nosud fakes such a host (see boot.bats).
	local fake=$BATS_TEST_TMPDIR/umk-nosud real=$UMK
	[[ $real == /* ]] || real=$ROOT/$real
	printf '#!/bin/sh\nexec %q %q "$@"\n' "$ROOT/$B/tests/nosud" "$real" >"$fake"
	chmod +x "$fake"
	fixture nosud '
TEST "umk runs hello" { umk $H/hello; }
TEST "hello is the same under umk" { same_as_native $H/hello; }
TEST "strace sees umk trap" { require_umk; }
TEST "hello runs natively" { native $H/hello; assert_output "hello, world"; }'
	run_fixture UMK="$fake"
	assert_success
	assert_line 'ok 1 umk runs hello # skip umk cannot start on this host (the reason is printed above)'
	assert_line --regexp '^ok 2 hello is the same under umk # skip '
	assert_line --regexp '^ok 3 strace sees umk trap # skip '
	assert_line 'ok 4 hello runs natively'
	assert_equal "$(grep -c 'Syscall User Dispatch' <<<"$output")" 1
	assert_line '# umk: this host lacks Syscall User Dispatch (Linux 5.11 or later with CONFIG_GENERIC_ENTRY): Invalid argument'
	# Where umk starts, nothing is skipped and nothing is said.
	if ! _umk_cannot_start; then
		run_fixture
		assert_success
		refute_output --partial '# skip'
		refute_output --partial 'Syscall User Dispatch'
	fi
}
