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

# sorted LIST: the numbers of a space-separated list, one a line, in order.
sorted() {
	tr ' ' '\n' <<<"$1" | grep . | sort -g
}
median() {
	sorted "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

declare -A mins meds
for i in "${!names[@]}"; do
	mins[$i]=$(sorted "${results[$i]}" | head -n 1)
	meds[$i]=$(median "${results[$i]}")
	printf '%-34s %7d / %7d\n' "${names[$i]}" "${mins[$i]}" "${meds[$i]}"
done
for i in 1 2; do
	awk -v n="${names[$i]}" -v a="${mins[$i]}" -v b="${mins[0]}" -v c="${meds[$i]}" -v d="${meds[0]}" \
		'BEGIN { printf "%-34s %.2fx the floor (min), %.2fx (median)\n", n, a / b, c / d }'
done

# Sleepers: how late a sleep wakes with K sleepers in the timer queue.
echo "sleepers: overshoot of 1 ms sleeps in us, median / p99 (median of $ROUNDS rounds)"
for k in 10 100 1000; do
	for side in native umk; do
		late="" p99s=""
		for ((r = 0; r < ROUNDS; r++)); do
			if [[ $side == umk ]]; then
				out=$(taskset -c "$CPU" build/umk $H/sleepers "$k" "$SLEEPS")
			else
				out=$(taskset -c "$CPU" $H/sleepers "$k" "$SLEEPS")
			fi
			late+="$(sed -n 's/.*median \([0-9.]*\) us.*/\1/p' <<<"$out") "
			p99s+="$(sed -n 's/.*p99 \([0-9.]*\) us.*/\1/p' <<<"$out") "
		done
		printf '%-34s %9s / %9s\n' "sleepers $k ($side)" "$(median "$late")" "$(median "$p99s")"
	done
done
