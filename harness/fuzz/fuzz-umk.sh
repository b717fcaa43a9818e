#!/bin/sh
# harness/fuzz/fuzz-umk.sh UMK FUZZ ARG...: run FUZZ -M ARG... under UMK, with
# the host's map of umk's memory (/proc/PID/maps of umk) on its stdin: the
# fuzzer passes pointers into umk's image, heap and stack, which umk's own
# /proc does not show a program. Exits with umk's status. Used by
# tests/robustness.bats and `make fuzz`.
set -u
umk=$1
fuzz=$2
shift 2
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
mkfifo "$d/maps"
exec 3<>"$d/maps"	# a writer, so that umk's open of the FIFO does not wait
# --net=none: fuzzed socket calls must not reach the host's network (random
# addresses, random ports).
"$umk" --net=none "$fuzz" -M "$@" <"$d/maps" 3>&- &
pid=$!
want=$(readlink -f "$umk")
i=0
while [ "$(readlink "/proc/$pid/exe")" != "$want" ] && [ $i -lt 500 ]; do
	sleep 0.01
	i=$((i + 1))
done
cat "/proc/$pid/maps" >&3
exec 3>&-		# EOF for the fuzzer
wait $pid
