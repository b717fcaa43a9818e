# Shared helper for umk's Bats tests; every tests/*.bats loads it first.
#
#   umk [-s STATUS] ARG...     run build/umk ARG... and fail unless it exits
#                              STATUS (default 0; '*' accepts any status)
#   native [-s STATUS] PROG ARG...   the same, running PROG on the host
#   run_umk ARG...             run build/umk ARG..., checking only for a hang
#   same_as_native [--OPTION...] PROG ARG...   run PROG natively and under
#                              umk (with umk's --OPTIONs): stdout and exit
#                              status must be identical
#
# UMK_OPTS, when set, holds options given to umk before every command line
# run_umk runs (make test's second pass uses it for --nofsgsbase).
#
# Each echoes the command it runs (shown when a test fails), runs it under
# `timeout` so a hang fails the test instead of stalling CI, and uses
# `run --separate-stderr`: $output is stdout, $stderr is stderr (umk's trace
# and error messages), $status the exit status.

bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
cd "$ROOT" || exit 1
UMK=${UMK:-build/umk}
H=build/harness
UMK_TIMEOUT=${UMK_TIMEOUT:-20}

# _timed CMD...: run CMD under timeout. A hang ends with status 124 (killed
# by SIGTERM) or 137 (SIGKILL 5 s later); 137 is also a program killed by
# SIGKILL, so the elapsed time tells them apart.
_timed() {
	local t0=$SECONDS
	run "$@"
	if [[ $status -eq 124 ]] || [[ $status -eq 137 && $((SECONDS - t0)) -ge $UMK_TIMEOUT ]]; then
		fail "timed out after ${UMK_TIMEOUT}s (status $status): a hang"
	fi
}

# _expect STATUS: fail with the command's output unless $status is STATUS.
_expect() {
	if [[ $1 != '*' && $status -ne $1 ]]; then
		printf 'stdout: %s\nstderr: %s\n' "$output" "$stderr"
		fail "exit status $status, expected $1"
	fi
}

# run_umk [-127] ARG...: -127 tells Bats that status 127 (not found) is expected.
run_umk() {
	local flags=(--separate-stderr)
	if [[ $1 == -127 ]]; then flags=(-127 --separate-stderr); shift; fi
	[[ -x $UMK ]] || fail "$UMK is missing: run make"
	echo "\$ $UMK ${UMK_OPTS:+$UMK_OPTS }$*"
	# shellcheck disable=SC2086 # UMK_OPTS is a list of options
	_timed "${flags[@]}" timeout -k 5 "$UMK_TIMEOUT" "$UMK" ${UMK_OPTS:-} "$@"
}

umk() {
	local want=0
	if [[ $1 == -s ]]; then want=$2; shift 2; fi
	if [[ $want == 127 ]]; then run_umk -127 "$@"; else run_umk "$@"; fi
	_expect "$want"
}

native() {
	local want=0
	if [[ $1 == -s ]]; then want=$2; shift 2; fi
	echo "\$ $*"
	_timed --separate-stderr timeout -k 5 "$UMK_TIMEOUT" "$@"
	_expect "$want"
}

same_as_native() {
	local opts=()
	while [[ $1 == --?* ]]; do opts+=("$1"); shift; done
	native -s '*' "$@"
	local n_out=$output n_status=$status
	umk -s '*' "${opts[@]}" "$@"
	assert_equal "$output" "$n_out"
	assert_equal "$status" "$n_status"
}

# untimed ARG...: print the lines of "$1" with the time field removed, so
# "0.000120 1 enter write(...)" becomes "1 enter write(...)".
untimed() {
	sed 's/^[0-9]*\.[0-9]* //' <<<"$1"
}
