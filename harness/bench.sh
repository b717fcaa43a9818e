#!/usr/bin/env bash
# make bench: what a trap costs under umk, beside what it costs at the least.
#
# Every measurement runs pinned to one CPU (taskset -c $CPU), and the rounds
# interleave the programs, so that a noisy neighbour slows them alike: read
# the ratios, which hold from run to run, more than the nanoseconds, which
# do not. Prints the host (CPU model, FSGSBASE or not), then min and median
# ns per operation over ROUNDS rounds, and umk's ratios to the SUD floor.
#
#   sud floor           build/harness/sudfloor: a native program that traps
#                       its own `syscall` through Syscall User Dispatch and
#                       returns from the SIGSYS handler: the least any kernel
#                       built on SUD can cost per call
#   getpid (umk)        build/harness/bench getpid under umk, default path
#   getpid (umk --nofsgsbase)   the same on the arch_prctl path
#   getpid (native)     the host's own system call
#   yield ...           a sched_yield switch between two threads
#   clock_gettime ...   build/harness/vdso loop: the C library's
#                       clock_gettime, which the vDSO answers without a trap
#   sleepers K          build/harness/sleepers: K threads each sleeping
#                       SLEEPS times for 1 ms; the median and p99 of how late
#                       they woke, in us, native beside umk (median of the
#                       rounds' figures)
#
# Environment: N (calls per run, 200000), ROUNDS (7), CPU (0), SLEEPS (20).
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-200000}
ROUNDS=${ROUNDS:-7}
CPU=${CPU:-0}
H=build/harness
SLEEPS=${SLEEPS:-20}
for f in build/umk $H/bench $H/sudfloor $H/vdso $H/sleepers; do
	[[ -x $f ]] || { echo "bench: $f is missing: run make" >&2; exit 1; }
done

model=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
if grep -qw fsgsbase /proc/cpuinfo; then fsgs=yes; else fsgs=no; fi
echo "host: $model; fsgsbase in /proc/cpuinfo: $fsgs; $(uname -r)"
echo "each figure: ns per operation, min / median of $ROUNDS rounds, pinned to CPU $CPU"

declare -A results
names=("sud floor" "getpid (umk)" "getpid (umk --nofsgsbase)" "getpid (native)"
	"yield (umk)" "yield (umk --nofsgsbase)" "yield (native)"
	"clock_gettime (umk)" "clock_gettime (umk --nofsgsbase)" "clock_gettime (native)")
commands=("$H/sudfloor $N"
	"build/umk $H/bench getpid $N"
	"build/umk --nofsgsbase $H/bench getpid $N"
	"$H/bench getpid $N"
	"build/umk $H/bench yield $((N / 10))"
	"build/umk --nofsgsbase $H/bench yield $((N / 10))"
	"$H/bench yield $((N / 10))"
	"build/umk $H/vdso loop $N"
	"build/umk --nofsgsbase $H/vdso loop $N"
	"$H/vdso loop $N")

for ((r = 0; r < ROUNDS; r++)); do
	for i in "${!names[@]}"; do
		# shellcheck disable=SC2086 # each command is a word list
		out=$(taskset -c "$CPU" ${commands[$i]})
		ns=$(sed -n 's/.*: \([0-9]*\) ns\/op.*/\1/p' <<<"$out")
		[[ -n $ns ]] || { echo "bench: no figure from '${commands[$i]}': $out" >&2; exit 1; }
		results[$i]+="$ns "
	done
done

stat() {	# "min median" of a list of numbers
	tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)] }'
}

for i in "${!names[@]}"; do
	read -r mn md < <(stat "${results[$i]}")
	printf '%-34s %7d / %7d\n' "${names[$i]}" "$mn" "$md"
	eval "min_$i=$mn med_$i=$md"
done
# shellcheck disable=SC2154 # set by the eval above
for i in 1 2; do
	awk -v n="${names[$i]}" -v a="$(eval echo "\$min_$i")" -v b="$min_0" \
		-v c="$(eval echo "\$med_$i")" -v d="$med_0" \
		'BEGIN { printf "%-34s %.2fx the floor (min), %.2fx (median)\n", n, a / b, c / d }'
done

# Sleepers: how late a sleep wakes with K sleepers in the timer queue.
echo "sleepers: overshoot of 1 ms sleeps in us, median / p99 (median of $ROUNDS rounds)"
for k in 10 100 1000; do
	for side in native umk; do
		meds="" p99s=""
		for ((r = 0; r < ROUNDS; r++)); do
			if [[ $side == umk ]]; then
				out=$(taskset -c "$CPU" build/umk $H/sleepers "$k" "$SLEEPS")
			else
				out=$(taskset -c "$CPU" $H/sleepers "$k" "$SLEEPS")
			fi
			meds+="$(sed -n 's/.*median \([0-9.]*\) us.*/\1/p' <<<"$out") "
			p99s+="$(sed -n 's/.*p99 \([0-9.]*\) us.*/\1/p' <<<"$out") "
		done
		printf '%-34s %9s / %9s\n' "sleepers $k ($side)" \
			"$(tr ' ' '\n' <<<"$meds" | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
			"$(tr ' ' '\n' <<<"$p99s" | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
	done
done
