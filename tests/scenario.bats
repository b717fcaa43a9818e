#!/usr/bin/env bats
# The scenario shell itself (build/harness/scenario, language documented in
# harness/scenarios/README): its errors, its rounding, its output order.
# The scenarios about the restart mechanism are in restart.bats.

load helper

# scenario_text NAME TEXT: write TEXT to a script NAME.scn and run it
# natively and under umk; both must exit 0 with the same stdout. The script
# is in the host's /tmp, which umk shows only with --rw (its own /tmp is
# tmpfs).
scenario_text() {
	SCN=$BATS_TEST_TMPDIR/$1.scn
	printf '%s\n' "$2" >"$SCN"
	same_as_native --rw="$BATS_TEST_TMPDIR" $H/scenario "$SCN"
}

@test "a missing script is one line on stderr naming it, with status 2" {
	native -s 2 $H/scenario no/such.scn
	assert_output ''
	assert_equal "$stderr" 'scenario: no/such.scn: cannot open: ENOENT'
}

@test "without a script the shell prints its usage, with status 2" {
	native -s 2 $H/scenario
	assert_output ''
	assert_equal "$stderr" 'usage: scenario SCRIPT|- (see harness/scenarios/README)'
	umk -s 2 $H/scenario
	assert_equal "$stderr" 'usage: scenario SCRIPT|- (see harness/scenarios/README)'
}

@test "a script read from stdin as - runs as it does from its path" {
	native $H/scenario harness/scenarios/sigterm.scn
	local by_path=$output
	native $H/scenario - <harness/scenarios/sigterm.scn
	assert_equal "$output" "$by_path"
}

@test "a syntax error is one line naming the script and the line, with status 2, and nothing runs" {
	local cases=(
		$'# a comment\n\nfrobnicate now'
		"3: unknown action 'frobnicate'"
		$'task A\n    nanosleep 5parsecs\nend'
		"2: nanosleep needs a duration like 500ms or 2s, got '5parsecs'"
		$'task A\n    pause\nend\nat 100ms kill A SIGFOO'
		"4: kill needs a signal like SIGUSR1, got 'SIGFOO' (usage: kill TASK SIG)"
		$'task A\n    pause\nend\nat 100ms kill Z SIGUSR1'
		"4: unknown task 'Z'"
		$'tolerance 50ms\ntask A\n    handler SIGUSR1 do\n        pause\n'
		"3: 'handler ... do' has no 'end'"
		$'task A\nend\npause'
		"3: 'pause' is a task action"
		$'task A\n    stop A\nend'
		"2: 'stop' is a controller action"
		$'end'
		"1: 'end' without a task or handler to close"
		$'tolerance 0ms'
		"1: tolerance must be at least 1ms"
		$'task A\n    handler SIGUSR1 sometimes\nend'
		"2: handler: unknown option 'sometimes' (usage: handler SIG [print|count] [restart] [nodefer] [resethand] [onstack] [resume] [do])"
	)
	local k msg
	for ((k = 0; k < ${#cases[@]}; k += 2)); do
		msg=${cases[k + 1]}
		printf '%s\n' "${cases[k]}" >"$BATS_TEST_TMPDIR/bad.scn"
		native -s 2 $H/scenario "$BATS_TEST_TMPDIR/bad.scn"
		assert_output ''
		assert_equal "$stderr" "scenario: $BATS_TEST_TMPDIR/bad.scn:$msg"
		umk -s 2 $H/scenario - <"$BATS_TEST_TMPDIR/bad.scn"
		assert_output ''
		assert_equal "$stderr" "scenario: stdin:$msg"
	done
}

@test "times are printed rounded to the nearest multiple of the tolerance" {
	scenario_text coarse $'tolerance 100ms\ntask A\n    nanosleep 320ms\nend'
	assert_output - <<'OUT'
A nanosleep(320ms) = 0 rem=untouched at=300ms
wait A = exited 0 at=300ms
OUT
	scenario_text fine $'tolerance 40ms\ntask A\n    nanosleep 320ms\nend'
	assert_line 'A nanosleep(320ms) = 0 rem=untouched at=320ms'
	# rmtp too: about 370 ms left at about 130 ms.
	scenario_text rem $'tolerance 100ms
task A
    handler SIGUSR1 count
    nanosleep 500ms
end
at 130ms kill A SIGUSR1'
	assert_line 'A nanosleep(500ms) = -1 EINTR rem=400ms at=100ms'
}

@test "lines of several tasks and the controller come out whole, in time order" {
	scenario_text order $'tolerance 50ms  # comments may follow a statement
task A
    at 100ms say one
    at 300ms say three
end
task B
    at 200ms say two
    at 400ms say four
end
at 250ms say between'
	assert_output - <<'OUT'
A say one at=100ms
B say two at=200ms
say between at=250ms
A say three at=300ms
wait A = exited 0 at=300ms
B say four at=400ms
wait B = exited 0 at=400ms
OUT
}

@test "the controller waits at the end for the tasks it has not reaped and prints how they ended" {
	scenario_text ends $'tolerance 50ms
task A
    exit 3
end
task B
    nanosleep 1s
end
at 100ms kill B SIGUSR2'
	assert_output - <<'OUT'
wait A = exited 3 at=100ms
wait B = killed by SIGUSR2 at=100ms
OUT
}

@test "wait reports stopped and continued with untraced and continued" {
	scenario_text jobs $'tolerance 50ms
task A
    nanosleep 400ms
end
at 100ms stop A
wait A untraced
at 200ms cont A
wait A continued
wait A'
	assert_output - <<'OUT'
wait A = stopped by SIGSTOP at=100ms
wait A = continued at=200ms
A nanosleep(400ms) = 0 rem=300ms at=400ms
wait A = exited 0 at=400ms
OUT
}
