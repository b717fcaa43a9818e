#!/usr/bin/env bats
# The scheduler and time: preemption by the host timer, precise sleeps, an
# idle umk that uses no CPU, and round-robin order on umk's one CPU.

load helper

@test "two CPU-bound threads both progress under preemption" {
	umk $H/cpuhog
	assert_output $'A progressed\nB progressed'
}

@test "a 100 ms sleep wakes within 5 ms of its deadline" {
	local try ms
	for try in 1 2 3; do	# the machine is noisy: three chances
		umk $H/sleeper 100
		assert_output --regexp '^slept [0-9]+\.[0-9] ms$'
		ms=$(awk '{ print $2 }' <<<"$output")
		echo "try $try: $ms ms"
		if awk -v ms="$ms" 'BEGIN { exit !(ms >= 100 && ms < 105) }'; then
			return 0
		fi
	done
	fail "slept $ms ms, outside [100, 105) in all three tries"
}

@test "umk uses under 5% of a CPU while its only task sleeps for a second" {
	require_umk
	local TIMEFORMAT='%3U %3S %3R' times user sys real
	times=$( { time timeout -k 5 "$UMK_TIMEOUT" $UMK $H/sleeper 1000 >/dev/null 2>&1; } 2>&1 )
	read -r user sys real <<<"$times"
	echo "user ${user}s sys ${sys}s real ${real}s"
	awk -v u="$user" -v s="$sys" -v r="$real" 'BEGIN { exit !(r >= 1.0 && r < 2.0) }' ||
		fail "the sleep took ${real}s"
	awk -v u="$user" -v s="$sys" -v r="$real" 'BEGIN { exit !(u + s < 0.05 * r) }' ||
		fail "umk used $user s user + $sys s system CPU in $real s"
}

@test "10000 threads are created and each sleeps and wakes twice, natively and under umk" {
	# Past the old 4096-task cap; every nanosleep must return 0, never
	# early (harness/progs/sleepers.c checks). Speed is the bench's, not this.
	local line='^sleepers: 10000 x 2 sleeps of 1000 us: overshoot median [0-9.]+ us, p99 [0-9.]+ us, [0-9]+ ns CPU per wake-up$'
	native $H/sleepers 10000 2
	assert_output --regexp "$line"
	umk $H/sleepers 10000 2
	assert_output --regexp "$line"
}

@test "two sleepers due 40 us apart wake in one timer interrupt: the second is within the first's timer slack" {
	local want=$'first clock_nanosleep = 0\nfirst woke at or after its deadline\nsecond clock_nanosleep = 0\nsecond woke at or after its deadline'
	same_as_native $H/slack
	assert_output "$want"
	umk --trace="$BATS_TEST_TMPDIR/trace" $H/slack
	assert_output "$want"
	# Between the two expiries: their wake-ups only, no switch to a woken
	# sleeper (which a second host timer interrupt would come after).
	run awk '$3 == "timer" && $4 == "nanosleep" { n++; next } n == 1 { print $3 }' \
		"$BATS_TEST_TMPDIR/trace"
	assert_output "wakeup"
}

@test "under --clock=virtual a sleeper has no slack: sleepers due 40 us apart wake 40 us apart" {
	umk --clock=virtual --trace="$BATS_TEST_TMPDIR/trace" $H/slack
	run awk '$3 == "timer" && $4 == "nanosleep" { t[n++] = $1 }
		END { if (n == 2) printf "%.0f us apart\n", (t[1] - t[0]) * 1e6 }' "$BATS_TEST_TMPDIR/trace"
	assert_output "40 us apart"
}

@test "sched_yield alternates two threads round robin" {
	umk $H/yield
	local lines
	mapfile -t lines <<<"$output"
	assert_equal "${#lines[@]}" 10
	for ((i = 1; i < 10; i++)); do
		[[ ${lines[i]:0:1} != "${lines[i - 1]:0:1}" ]] ||
			fail "line $i '${lines[i]}' follows '${lines[i - 1]}': no alternation"
	done
	assert_equal "$(grep -c '^A' <<<"$output")" 5
}

@test "bench measures a trapped getpid and a sched_yield switch" {
	umk $H/bench getpid 10000
	assert_output --regexp '^getpid: [0-9]+ ns/op \(10000 calls\)$'
	umk $H/bench yield 1000
	assert_output --regexp '^sched_yield: [0-9]+ ns/op \(1000 yields by each of 2 threads\)$'
}
