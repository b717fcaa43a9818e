#!/usr/bin/env bats
# make bench's tooling: the probe runner (harness/benchrun), the driver
# (harness/bench/bench.sh) and the renderer (harness/bench/bench_report.py). No test
# asserts a speed: these machines are shared and noisy. They check that
# every outcome of a probe reaches the table as what it was, and that a
# failure is never shown as a number.

# Bats's run sets $output, $stderr and $status.
# shellcheck disable=SC2154
load helper

REPORT=harness/bench/bench_report.py

# canned DIR: a bench directory with records of every kind of outcome.
canned() {
	local d=$1
	mkdir -p "$d"
	cat >"$d/probes" <<-'EOF'
		# canned probes
		floor | native | 60 | sudfloor $N | SUD trap floor
		floorfs | native | 60 | sudfloor $N fsbase | SUD trap floor with an FS base switch
		getpid | all | 60 | bench getpid $N | getpid
		yield | all | 60 | bench yield $N10 | sched_yield between threads
		forkwait | all | 60 | bench forkwait $N1000 | fork+exit+wait
		pipe | all | 60 | bench pipe $N10 | pipe round trip
		sleepers10 | all | 60 | sleepers 10 $M10 | 10 sleepers
		sleepers100 | all | 60 | sleepers 100 $M100 | 100 sleepers
		sleepprocs10 | all | 60 | sleepers procs 10 $M10 random | 10 sleeping processes
		sleepprocs1000 | all | 120 | sleepers procs 1000 $M1000 random | 1000 sleeping processes
	EOF
	printf '%s\t%s\n' date '2026-12-03 15:00 UTC' cpu 'Test CPU' cpus 2 fsgsbase yes \
		kernel 'Linux 6.1' umk v0-test uml 6.1.0 peers uml settings 'N=10' \
		'load before' '0.1 0.2 0.3' 'load after' '0.1 0.2 0.3' seconds 5 >"$d/meta.tsv"
	local t=$'\t'
	cat >"$d/raw.tsv" <<-EOF
		1${t}native${t}floor${t}exit 0${t}sud floor: 1000 ns/op (10 calls)\\n
		2${t}native${t}floor${t}exit 0${t}sud floor: 1200 ns/op (10 calls)\\n
		1${t}native${t}floorfs${t}exit 0${t}sud floor with an FS base switch: 3000 ns/op (10 calls)\\n
		2${t}native${t}floorfs${t}exit 0${t}sud floor with an FS base switch: 3200 ns/op (10 calls)\\n
		1${t}umk-nofsgsbase${t}yield${t}exit 0${t}sched_yield: 3500 ns/op (1 yields by each of 2 threads)\\n
		2${t}umk-nofsgsbase${t}yield${t}exit 0${t}sched_yield: 3600 ns/op (1 yields by each of 2 threads)\\n
		1${t}native${t}getpid${t}exit 0${t}getpid: 100 ns/op (10 calls)\\n
		2${t}native${t}getpid${t}exit 0${t}getpid: 140 ns/op (10 calls)\\n
		1${t}umk${t}getpid${t}exit 0${t}getpid: 1500 ns/op (10 calls)\\n
		2${t}umk${t}getpid${t}exit 0${t}getpid: 1700 ns/op (10 calls)\\n
		1${t}umk${t}forkwait${t}exit 0${t}fork+exit+wait: n/a (no fork: fork returned ENOSYS)\\n
		2${t}umk${t}forkwait${t}exit 0${t}fork+exit+wait: n/a (no fork: fork returned ENOSYS)\\n
		1${t}native${t}forkwait${t}exit 0${t}fork+exit+wait: 70000 ns/op (10 cycles)\\n
		2${t}native${t}forkwait${t}exit 0${t}fork+exit+wait: 72000 ns/op (10 cycles)\\n
		1${t}native${t}pipe${t}exit 0${t}pipe: 3000 ns/op (1 round trips between 2 threads)\\n
		2${t}native${t}pipe${t}exit 0${t}pipe: 3100 ns/op (1 round trips between 2 threads)\\n
		1${t}umk${t}pipe${t}exit 0${t}pipe: 9000 ns/op (1 round trips between 2 threads)\\n
		2${t}umk${t}pipe${t}exit 99${t}harness: pipe round trip 3: sent 3, got 5 back\\n
		1${t}umk-nofsgsbase${t}pipe${t}signal 11${t}
		2${t}umk-nofsgsbase${t}pipe${t}exit 139${t}
		1${t}umk-nofsgsbase${t}getpid${t}timeout 60${t}
		2${t}umk-nofsgsbase${t}getpid${t}skipped${t}timed out in round 1: not run again
		1${t}uml${t}getpid${t}peer-down${t}did not run: no hostfs
		2${t}uml${t}getpid${t}peer-down${t}did not run: no hostfs
		1${t}native${t}sleepers10${t}exit 0${t}sleepers: 10 x 20 sleeps of 1000 us: overshoot median 80.0 us, p99 200.0 us, 3000 ns CPU per wake-up\\n
		2${t}native${t}sleepers10${t}exit 0${t}sleepers: 10 x 20 sleeps of 1000 us: overshoot median 90.0 us, p99 250.0 us, 3200 ns CPU per wake-up\\n
		1${t}native${t}sleepers100${t}exit 0${t}sleepers: 100 x 20 sleeps of 1000 us: overshoot median 95.0 us, p99 300.0 us, 3300 ns CPU per wake-up\\n
		2${t}native${t}sleepers100${t}exit 0${t}sleepers: 100 x 20 sleeps of 1000 us: overshoot median 99.0 us, p99 320.0 us, 3400 ns CPU per wake-up\\n
		1${t}umk${t}sleepers10${t}exit 0${t}sleepers: 10 x 20 sleeps of 1000 us: overshoot median 60.0 us, p99 150.0 us, 5000 ns CPU per wake-up\\n
		2${t}umk${t}sleepers10${t}exit 0${t}sleepers: 10 x 20 sleeps of 1000 us: overshoot median 70.0 us, p99 160.0 us, 5400 ns CPU per wake-up\\n
		1${t}umk${t}sleepers100${t}exit 0${t}sleepers: n/a (EAGAIN creating thread 4 of 100: the kernel's task limit)\\n
		2${t}umk${t}sleepers100${t}exit 0${t}sleepers: 100 x 20 sleeps of 1000 us: no figures here\\n
		1${t}native${t}sleepprocs10${t}exit 0${t}sleepers: 10 processes x 20 sleeps of 1000 to 20000 us: overshoot median 110.0 us, p99 900.0 us, 40000 ns CPU per wake-up\\n
		1${t}umk${t}sleepprocs10${t}exit 0${t}sleepers: 10 processes x 20 sleeps of 1000 to 20000 us: overshoot median 400.0 us, p99 5000.0 us, 190000 ns CPU per wake-up\\n
		1${t}native${t}sleepprocs1000${t}exit 0${t}sleepers: 1000 processes x 20 sleeps of 1000 to 20000 us: overshoot median 40000.0 us, p99 400000.0 us, 50000 ns CPU per wake-up\\n
		1${t}umk${t}sleepprocs1000${t}exit 0${t}sleepers: 1000 processes x 20 sleeps of 1000 to 20000 us: overshoot median 200000.0 us, p99 400000.0 us, 237500 ns CPU per wake-up\\n
	EOF
}

# row LABEL: the table row whose probe column is LABEL.
row() {
	grep -F "| $1 |" "$D/BENCH.md" | head -n 1
}

setup() {
	D=$BATS_TEST_TMPDIR/bench
}

@test "the renderer shows medians with min-max, and every failure as a verdict, not a number" {
	canned "$D"
	run --separate-stderr python3 $REPORT "$D"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(row 'SUD trap floor (ns)')" '| SUD trap floor (ns) | 1,100 (1,000–1,200) | — | — | — |'
	# umk --nofsgsbase timed out, then was skipped; UML did not boot
	assert_equal "$(row 'getpid (ns)')" \
		'| getpid (ns) | 120 (100–140) | 1,600 (1,500–1,700) | **FAILED** (2 of 2 runs): timed out after 60 s | **FAILED** (2 of 2 runs): did not run: no hostfs |'
	assert_equal "$(row 'fork+exit+wait (ns)')" \
		'| fork+exit+wait (ns) | 71,000 (70,000–72,000) | n/a (no fork: fork returned ENOSYS) | — | — |'
	# one bad round of two is enough to fail the cell; a crash under umk
	# is its exit status 128+N
	assert_equal "$(row 'pipe round trip (ns)')" \
		'| pipe round trip (ns) | 3,050 (3,000–3,100) | **FAILED** (1 of 2 runs): exit 99: harness: pipe round trip 3: sent 3, got 5 back | **FAILED** (2 of 2 runs): crashed: killed by SIGSEGV | — |'
	# a line without its figures, and an n/a among the rounds, fail too
	run row '100 sleepers (how late: median / p99, µs)'
	assert_output --partial '| 97.0 / 310 (95.0–99.0 / 300–320) | **FAILED** (2 of 2 runs): '
	assert_output --partial '**FAILED** (2 of 2 runs): no figure in its output: sleepers: 100 x 20 sleeps of 1000 us: no figures here'
	assert_equal "$(row '10 sleepers (CPU per wake-up, ns)')" \
		'| 10 sleepers (CPU per wake-up, ns) | 3,100 (3,000–3,200) | 5,200 (5,000–5,400) | — | — |'
	assert_equal "$(grep "^|" "$D/BENCH.md" | grep -o FAILED | wc -l)" 6
	grep -qF -- '- getpid under umk within 1.2x the SUD floor (1,100 ns): 1,600 ns = 1.45x — missed' "$D/BENCH.md"
	# a switch on the arch_prctl path against the floor that pays for it
	grep -qF -- '- sched_yield between threads under umk --nofsgsbase within the floor with an FS base switch + 300 ns (3,400 ns): 3,550 ns = that floor + 450 ns — missed' "$D/BENCH.md"
	# umk's own column switches with wrfsbase on this (canned) host
	run grep -c 'under umk within the floor with an FS base switch' "$D/BENCH.md"
	assert_output 0
	grep -qF '| getpid (ns) | 13.33x | — | — |' "$D/BENCH.md"
	grep -qF 'Versions: umk v0-test; UML 6.1.0.' "$D/BENCH.md"
	# sleeping processes: their own target and flatness, not the threads'
	grep -qF -- "- 1000 sleeping processes' median overshoot under umk within 2x native's: 200,000 µs vs 40,000 µs native (5.00x) — missed" "$D/BENCH.md"
	grep -qF -- '- CPU per wake-up under umk, 10 to 1000 sleeping processes: 190,000 ns to 237,500 ns (1.25x; flat is the target)' "$D/BENCH.md"
	# the threads' line stops at their 100: the processes' 1000 is not theirs
	grep -qF -- '- CPU per wake-up under native, 10 to 100 sleepers: 3,100 ns to 3,350 ns (1.08x; flat is the target)' "$D/BENCH.md"
}

@test "the renderer's chart is valid SVG with a bar or a verdict for every cell" {
	canned "$D"
	run --separate-stderr python3 $REPORT "$D"
	assert_success
	run xmllint --noout "$D/bench.svg"
	assert_success
	assert_equal "$(grep -c '>✗ FAILED: ' "$D/bench.svg")" 6
	grep -qF '>n/a: no fork: fork returned ENOSYS<' "$D/bench.svg"
	grep -qF '<title>native, 100 sleepers: 3,350 ns</title>' "$D/bench.svg"
	grep -qF '<title>umk: 1,600 (1,500–1,700)</title>' "$D/bench.svg"
}

@test "the renderer refuses bad input with one line on stderr" {
	canned "$D"
	printf '1\tnative\tgetpid\n' >>"$D/raw.tsv"
	run --separate-stderr python3 $REPORT "$D"
	assert_failure 1
	assert_equal "$stderr" "bench_report: $D/raw.tsv:37: not ROUND<TAB>COLUMN<TAB>ID<TAB>HOW<TAB>OUTPUT"
	canned "$D"
	printf '1\tnative\tnosuch\texit 0\tx\n' >>"$D/raw.tsv"
	run --separate-stderr python3 $REPORT "$D"
	assert_failure 1
	assert_equal "$stderr" "bench_report: $D/raw.tsv:37: probe 'nosuch' is not in the probe list"
	run --separate-stderr python3 $REPORT "$BATS_TEST_TMPDIR/none"
	assert_failure 1
	assert_equal "$stderr" "bench_report: $BATS_TEST_TMPDIR/none/probes: cannot read: No such file or directory"
	run --separate-stderr python3 $REPORT
	assert_failure 2
	assert_equal "$stderr" "usage: bench_report.py DIR"
}

@test "benchrun reports an exit, a crash and a timeout as they happened" {
	local l=$BATS_TEST_TMPDIR/list
	printf '%s\t%s\t%s\n' ok 10 "$H/bench getpid 10" bad 10 "$H/bench getpid 0" \
		crash 10 "$H/nullderef" hang 1 "$H/sleepers 1 1 5000000" >"$l"
	run --separate-stderr timeout 30 "$H"/benchrun "$l"
	assert_success
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 --regexp $'^BENCH\tok\texit 0\tgetpid: [0-9]+ ns/op \\(10 calls\\)\\\\n$'
	assert_line --index 1 $'BENCH\tbad\texit 99\tharness: N must be positive\\n'
	assert_line --index 2 --regexp $'^BENCH\tcrash\tsignal 11\t'
	assert_line --index 3 $'BENCH\thang\ttimeout 1\t'
	run --separate-stderr timeout 30 "$H"/benchrun "$l" nosuch
	assert_failure 2
	assert_equal "$stderr" "benchrun: no probe nosuch in the list"
}

@test "make bench runs getpid, fork+exit+wait and sleeping processes natively and under umk on both FS base paths" {
	require_umk
	run --separate-stderr timeout 300 make -s bench N=200 ROUNDS=1 WAKES=100 \
		PROBES="getpid forkwait sleepprocs10" OUT="$D"
	assert_success
	assert_line "bench: the table is $D/BENCH.md, the chart $D/bench.svg"
	run row 'getpid (ns)'
	assert_output --regexp '^\| getpid \(ns\) \| [0-9,.]+ \([0-9,.]+–[0-9,.]+\) \| [0-9,.]+ \([0-9,.]+–[0-9,.]+\) \| [0-9,.]+ \([0-9,.]+–[0-9,.]+\) \|$'
	run row 'fork+exit+wait (ns)'
	assert_output --regexp '^\| fork\+exit\+wait \(ns\) \| [0-9,.]+ \([0-9,.]+–[0-9,.]+\) \| [0-9,.]+ \([0-9,.]+–[0-9,.]+\) \| [0-9,.]+ \([0-9,.]+–[0-9,.]+\) \|$'
	row '10 sleeping processes, 1-20 ms sleeps (how late: median / p99, µs)' |
		grep -qE '^(\| [^|]+ ){1}(\| [0-9,.]+ / [0-9,.]+ \([0-9,.–]+ / [0-9,.–]+\) ){3}\|$'
	row '10 sleeping processes, 1-20 ms sleeps (CPU per wake-up, ns)' | cells 3
	run xmllint --noout "$D/bench.svg"
	assert_success
	grep -qE $'^date\t[0-9]{4}-[0-9]{2}-[0-9]{2} ' "$D/meta.tsv"
}

# cells N: the table row on stdin has N cells, each a median with its min-max
cells() {
	local re='^\| [^|]+ ' i
	for ((i = 0; i < $1; i++)); do
		re+='\| [0-9,.]+ \([0-9,.]+–[0-9,.]+\) '
	done
	grep -qE "$re\\|$"
}

@test "the real-program probes and the pipe between processes run everywhere, and BASELINE adds a column" {
	require_umk
	# the same umk as its own baseline: what matters is that the column is
	# there, run as umk's is, beside it
	run --separate-stderr timeout 600 make -s bench N=200 ROUNDS=1 RUNS=1 \
		PROBES="pipeproc shloop bashloop pystart pyloop" BASELINE=build/umk OUT="$D"
	assert_success
	grep -qF '| probe | native | umk baseline | umk | umk --nofsgsbase |' "$D/BENCH.md"
	grep -qF "; umk baseline $PWD/build/umk." "$D/BENCH.md"
	row 'pipe round trip between processes (ns)' | cells 4
	row 'busybox sh: 200 x (echo, piped to busybox md5sum) (ns)' | cells 4
	row 'bash: 100 x /bin/true (ns)' | cells 4
	row 'python3 -c pass (ns)' | cells 4
	row 'python3: sum of 2 million squares (ns)' | cells 4
	# the probes PROBES leaves out have no row
	run grep -c '^| getpid' "$D/BENCH.md"
	assert_output 0
}

@test "a peer that cannot boot says why in its column" {
	require_umk
	local fake=$BATS_TEST_TMPDIR/fakebin
	mkdir -p "$fake"
	printf '#!/bin/sh\necho "fake linux: cannot start: no /dev/shm" >&2\nexit 1\n' >"$fake/linux"
	chmod +x "$fake/linux"
	run --separate-stderr env PATH="$fake:$PATH" OUT="$D" N=100 ROUNDS=1 PROBES=getpid PEERS=uml \
		timeout 120 harness/bench/bench.sh
	assert_success
	assert_equal "$(row 'getpid (ns)' | sed 's/.*| //; s/ |$//')" \
		'**FAILED** (1 of 1 runs): did not run: fake linux: cannot start: no /dev/shm'
}

@test "bench.sh refuses bad settings with one line on stderr" {
	local bad
	for bad in N=abc ROUNDS=0 RUNS=-1 PEERS=qemu PROBES=nosuch CPU=x PROBE_LIST=/nonexistent \
		BASELINE=/nonexistent BASELINE=harness; do
		run --separate-stderr env "$bad" OUT="$D" timeout 30 harness/bench/bench.sh
		assert_failure 2
		assert_equal "${#stderr_lines[@]}" 1
		assert_regex "$stderr" '^bench: '
	done
	[[ ! -e $D ]] || fail "a refused run left $D"
}

@test "the SUD floor traps once per call, and its fsbase variant adds one arch_prctl(ARCH_SET_FS) per call" {
	# What the floors of BENCH.md pay for, counted by strace: each trap's
	# rt_sigreturn, and with "fsbase" the FS base write before it that umk's
	# __restore_rt makes on a switch without FSGSBASE.
	run timeout 60 strace -qq -e trace=arch_prctl,rt_sigreturn -o "$BATS_TEST_TMPDIR/s" $H/sudfloor 500
	assert_success
	assert_output --regexp '^sud floor: [0-9]+ ns/op \(500 calls\)$'
	assert_equal "$(grep -c '^rt_sigreturn' "$BATS_TEST_TMPDIR/s")" 500
	# musl sets the thread pointer once at start
	assert_equal "$(grep -c '^arch_prctl(ARCH_SET_FS' "$BATS_TEST_TMPDIR/s")" 1
	run timeout 60 strace -qq -e trace=arch_prctl,rt_sigreturn -o "$BATS_TEST_TMPDIR/s" $H/sudfloor 500 fsbase
	assert_success
	assert_output --regexp '^sud floor with an FS base switch: [0-9]+ ns/op \(500 calls\)$'
	assert_equal "$(grep -c '^rt_sigreturn' "$BATS_TEST_TMPDIR/s")" 500
	assert_equal "$(grep -c '^arch_prctl(ARCH_SET_FS' "$BATS_TEST_TMPDIR/s")" 501
	run --separate-stderr $H/sudfloor 500 fs
	assert_failure
	assert_equal "$stderr" "harness: usage: sudfloor N [fsbase]"
}

@test "sleepers in processes give their figures through the shared mapping, natively and under umk, and refuse bad input" {
	# Each sleeping process checks its own sleeps (none early, each
	# returning 0) and exits 0; the parent fails on any other status.
	local re='^sleepers: 20 processes x 3 sleeps of (1000 to 20000|2000) us: overshoot median [0-9.]+ us, p99 [0-9.]+ us, [0-9]+ ns CPU per wake-up$'
	run --separate-stderr timeout 60 $H/sleepers procs 20 3 random
	assert_success
	assert_output --regexp "$re"
	run --separate-stderr timeout 120 $UMK $H/sleepers procs 20 3 random
	assert_success
	assert_output --regexp "$re"
	run --separate-stderr timeout 120 $UMK $H/sleepers procs 20 3 2000
	assert_success
	assert_output --regexp "$re"
	local bad
	for bad in "procs 0 3" "procs 2 0" "procs 2 2 0" "procs 2 2 -5" "procs 2 2 rand" "procs 2" "procs"; do
		# shellcheck disable=SC2086 # the words are the arguments
		run --separate-stderr $H/sleepers $bad
		assert_failure 99
		assert_equal "${#stderr_lines[@]}" 1
		assert_regex "$stderr" '^harness: (usage: sleepers|N, M and US must be positive)'
	done
}

@test "sockrtt echoes every byte over each family, between threads and processes, and under umk" {
	# Each round trip's byte must come back incremented (sockrtt dies
	# otherwise); the count in its line is the one asked for.
	local fam mode
	for fam in unix tcp; do
		for mode in threads procs; do
			run --separate-stderr timeout 60 $H/sockrtt $fam $mode 200
			assert_success
			assert_output --regexp "^(unix stream|tcp loopback) round trip between (threads|processes): [0-9]+ ns/op \\(200 round trips between 2 (threads|processes)\\)$"
			run --separate-stderr timeout 120 $UMK $H/sockrtt $fam $mode 200
			assert_success
			assert_output --regexp ": [0-9]+ ns/op \\(200 round trips between 2 ${mode/procs/processes}"
		done
	done
	run --separate-stderr timeout 60 $UMK --net=none $H/sockrtt tcp threads 10
	assert_success
	assert_output 'tcp loopback round trip between threads: n/a (socket: EAFNOSUPPORT)'
	run --separate-stderr $H/sockrtt udp threads 10
	assert_failure 99
	assert_equal "$stderr" 'harness: usage: sockrtt unix|tcp threads|procs N'
}
