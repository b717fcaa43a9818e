#!/usr/bin/env bats
# --clock=virtual: time stands still while a task can run and jumps to the
# next timer when none can (docs/design.md, "Interrupts"), so a run's trace is the
# same every time and a stop in gdb fires no timer.

load helper

@test "the same scenario under --clock=virtual gives a byte-identical trace in 20 consecutive runs" {
	# (not $i: Bats's run uses it)
	local scn=harness/scenarios/nanosleep-stop-cont.scn first n
	for n in $(seq 20); do
		umk --clock=virtual --trace="$BATS_TEST_TMPDIR/t$n" $H/scenario $scn
		echo "$output" >>"$BATS_TEST_TMPDIR/t$n"
	done
	first=$(md5sum <"$BATS_TEST_TMPDIR/t1")
	grep -q 'restart restart_syscall -> hrtimer_nanosleep_restart' "$BATS_TEST_TMPDIR/t1" \
		|| fail "the trace does not show the restart"
	for n in $(seq 2 20); do
		[[ $(md5sum <"$BATS_TEST_TMPDIR/t$n") == "$first" ]] \
			|| fail "run $n differs: $(diff "$BATS_TEST_TMPDIR/t1" "$BATS_TEST_TMPDIR/t$n" | head)"
	done
	# The comparison can fail: on the host's clock two runs never match.
	umk --trace="$BATS_TEST_TMPDIR/h1" $H/scenario $scn
	umk --trace="$BATS_TEST_TMPDIR/h2" $H/scenario $scn
	if cmp -s "$BATS_TEST_TMPDIR/h1" "$BATS_TEST_TMPDIR/h2"; then
		fail "two runs on the host's clock gave the same trace: the md5sum comparison proves nothing"
	fi
}

@test "the demo's JSON and Chrome traces are identical run after run under --clock=virtual" {
	local f
	for f in json chrome; do
		umk --clock=virtual --trace="$BATS_TEST_TMPDIR/a.$f" --trace-format=$f $H/demo
		umk --clock=virtual --trace="$BATS_TEST_TMPDIR/b.$f" --trace-format=$f $H/demo
		cmp "$BATS_TEST_TMPDIR/a.$f" "$BATS_TEST_TMPDIR/b.$f"
	done
}

@test "virtual clocks start at boot and at 2026-01-01 and move only with sleeps" {
	umk --clock=virtual $H/clocks
	assert_output 'monotonic 0.000000000
realtime 1767225600.000000000
gettimeofday 1767225600.000000
after nanosleep(1.5 s): monotonic moved 1.500000000
after nanosleep(1.5 s): realtime moved 1.500000000
after a spin: monotonic moved 0.000000000'
	# natively the same program sees the host's clocks move
	native $H/clocks
	assert_line --regexp '^after nanosleep\(1\.5 s\): monotonic moved 1\.5[0-9]{8}$'
	refute_line 'after a spin: monotonic moved 0.000000000'
}

@test "under --clock=virtual a 100-second sleep returns at once, 100 s later on the program's clock" {
	umk --clock=virtual $H/sleeper 100000
	assert_output 'slept 100000.0 ms'
}

@test "under --clock=virtual the trace's times are the virtual clock's" {
	umk --clock=virtual --trace $H/sleeper 250
	assert_line --index 0 'slept 250.0 ms'
	grep -qx '0.250000 0 timer nanosleep expired' <<<"$stderr" || fail "no timer at 0.250000: $stderr"
}

@test "a program spinning on the CPU is still preempted under --clock=virtual, and its sleeper wakes" {
	umk --clock=virtual $H/cpuhog
	assert_output 'A progressed
B progressed'
}

@test "alarms, itimers, poll, futex and wait timeouts behave as on Linux under --clock=virtual" {
	local args
	while read -r args; do
		# shellcheck disable=SC2086
		same_as_native --clock=virtual $H/$args
	done <<'EOF_PROGS'
sigcalls alarm-sicode
sigcalls itimer
sigcalls itimer-cpu
sigcalls timedwait
pollwait timeouts
pollwait eintr
pollwait stop poll
pollwait stop futex
sigchld
waitstatus
demo
EOF_PROGS
}

@test "a stop in gdb fires no timer under --clock=virtual" {
	# gdb stops umk for 2 s with the sleep's timer armed. On the virtual
	# clock the program still sleeps exactly its 100 ms; on the host's,
	# the stop is part of the sleep.
	require_umk
	local gdb=(timeout -k 5 120 gdb -nx -batch -x harness/gdb/umk.gdb
		-ex 'break hrtimer_sleeper_start' -ex run -ex finish -ex 'shell sleep 2'
		-ex 'delete' -ex continue)
	run "${gdb[@]}" --args $UMK --clock=virtual $H/sleeper 100
	echo "$output"
	assert_output --partial 'slept 100.0 ms'
	run "${gdb[@]}" --args $UMK --clock=host $H/sleeper 100
	echo "$output"
	assert_output --regexp 'slept (2[0-9]{3}|[3-9][0-9]{3})\.[0-9] ms'
}

@test "an unknown clock is a usage error naming it" {
	umk -s 2 --clock=tsc $H/hello
	assert_equal "$stderr" "umk: unknown clock 'tsc': host or virtual (try 'umk --help')"
	assert_output ''
}

@test "every scenario but spin tells the same story under --clock=virtual as natively" {
	# spin times its computation with the TSC, the host's clock, which
	# virtual time does not follow (docs/trace.md). A handler with umk's
	# SA_RESUME ('resume') tells umk's own story, which Linux does not
	# (tests/resume.bats checks those under both clocks).
	local scn
	for scn in harness/scenarios/*.scn; do
		[[ $scn == */spin.scn ]] && continue
		grep -qE '^[^#]*handler .* resume( |$)' "$scn" && continue
		same_as_native --clock=virtual $H/scenario "$scn"
	done
}
