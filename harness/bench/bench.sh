#!/usr/bin/env bash
# make bench: umk's costs beside the host's, the SUD floor's and the peers'.
#
# Runs every probe of harness/bench/bench.probes natively, under umk (both FS
# base paths) and under each peer of PEERS, ROUNDS times, pinned to one CPU
# (taskset -c $CPU). Each round interleaves them: for every probe, the host
# columns one after the other; then each peer boots once and runs the whole
# list (harness/benchrun is its first process). So drift from a noisy
# neighbour hits every column alike. The records go to $OUT/raw.tsv, the
# host and versions to $OUT/meta.tsv; harness/bench/bench_report.py turns them
# into $OUT/BENCH.md (medians with min-max, ratios to native and to the
# floor) and $OUT/bench.svg.
#
# Peers (none unless asked; this script installs nothing):
#   uml      User-Mode Linux (Debian user-mode-linux: `linux`), booted with
#            the host's / read-only as its root over hostfs and benchrun as init
#   gvisor   gVisor (Debian runsc): runsc --platform=ptrace --network=none do
# A peer that is not installed, or does not boot, gets its reason in every
# cell of its column. BASELINE=PATH (another build of umk, say main's, copied
# aside) adds a column "baseline" run the way the umk column is, interleaved
# with it, so that a change's before and after are measured in one run. A probe that times out in a column is not run there
# again in later rounds (it shows as FAILED: timed out).
#
# Environment: N (calls per probe run, 50000), ROUNDS (5), CPU (0),
# SLEEPS (1 ms sleeps of the nanosleep probe, 200), WAKES (wake-ups per
# sleepers run, 20000: 20 sleeps each, at least 2), STOPS (stops of the
# stop/continue probe, 20), SORTS (runs of the sort pipeline probe, 3), RUNS
# (runs of the real-program probes, 3), PEERS ("uml gvisor"), BASELINE,
# PROBES (ids to run, all by default), PROBE_LIST (harness/bench/bench.probes), BUILD (build), OUT
# ($BUILD/bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

die() {
	echo "bench: $*" >&2
	exit 2
}

B=${BUILD:-build}
OUT=${OUT:-$B/bench}
[[ $OUT == /* ]] || OUT=$ROOT/$OUT  # the peers read their lists by absolute path
N=${N:-50000}
ROUNDS=${ROUNDS:-5}
CPU=${CPU:-0}
SLEEPS=${SLEEPS:-200}
WAKES=${WAKES:-20000}
STOPS=${STOPS:-20}
SORTS=${SORTS:-3}
RUNS=${RUNS:-3}
BASELINE=${BASELINE:-}
PEERS=${PEERS:-}
PROBES=${PROBES:-}
PROBE_LIST=${PROBE_LIST:-harness/bench/bench.probes}
[[ -r $PROBE_LIST ]] || die "PROBE_LIST=$PROBE_LIST: cannot read it"
for v in N ROUNDS SLEEPS WAKES STOPS SORTS RUNS; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v=${!v}: not a positive number"
done
[[ $CPU =~ ^[0-9]+$ ]] || die "CPU=$CPU: not a CPU number"
for p in $PEERS; do
	[[ $p == uml || $p == gvisor ]] || die "PEERS: unknown peer '$p' (uml, gvisor)"
done
H=$ROOT/$B/harness
for f in $B/umk $H/bench $H/benchrun $H/sudfloor $H/sleepers; do
	[[ -x $f ]] || die "$f is missing: run make"
done
if [[ -n $BASELINE ]]; then
	[[ -x $BASELINE && ! -d $BASELINE ]] || die "BASELINE=$BASELINE: not an executable file"
	[[ $BASELINE == /* ]] || BASELINE=$ROOT/$BASELINE
fi
taskset -c "$CPU" true 2>/dev/null || die "cannot pin to CPU $CPU (taskset -c $CPU)"

at_least_1() { echo $(($1 > 0 ? $1 : 1)); }
# N10 N100 N1000 M10 ... M10000: read through ${!v} below
declare "N10=$(at_least_1 $((N / 10)))" "N100=$(at_least_1 $((N / 100)))" \
	"N1000=$(at_least_1 $((N / 1000)))"
for k in 10 100 1000 10000; do
	m=$((WAKES / k))
	m=$((m > 20 ? 20 : m))
	declare "M$k=$((m < 2 ? 2 : m))"
done

# The probes: ids, where they run, timeouts and commands, from the list.
ids=() where=() secs=() cmds=()
while IFS='|' read -r id w s c _; do
	# read trims the spaces around each field
	read -r id <<<"$id"
	[[ -z $id || $id == '#'* ]] && continue
	read -r w <<<"$w"
	read -r s <<<"$s"
	read -r c <<<"$c"
	if [[ -n $PROBES && " $PROBES " != *" $id "* ]]; then continue; fi
	# longest first: $N1000 is not $N followed by 1000
	for v in M10000 M1000 M100 M10 N1000 N100 N10 SLEEPS STOPS SORTS RUNS N; do
		c=${c//\$$v/${!v}}
	done
	[[ $c != *'$'* ]] || die "$PROBE_LIST: $id: unknown variable in '$c'"
	ids+=("$id") where+=("$w") secs+=("$s") cmds+=("$H/$c")
done < <(grep -v '^#' "$PROBE_LIST")
for p in $PROBES; do
	[[ " ${ids[*]} " == *" $p "* ]] || die "PROBES: no probe '$p' in $PROBE_LIST"
done
[[ ${#ids[@]} -gt 0 ]] || die "no probes to run"

mkdir -p "$OUT" || die "OUT=$OUT: cannot create it"
rm -f "$OUT"/raw.tsv "$OUT"/meta.tsv "$OUT"/probes "$OUT"/BENCH.md "$OUT"/bench.svg \
	"$OUT"/*.list "$OUT"/*.log
raw=$OUT/raw.tsv
: >"$raw"
# The table's rows: the probes run (with PROBES, only those).
while IFS= read -r line; do
	id=${line%%|*}
	read -r id <<<"$id"
	[[ -z $id || $id == '#'* || " ${ids[*]} " == *" $id "* ]] && printf '%s\n' "$line"
done <"$PROBE_LIST" >"$OUT/probes"

# The lists benchrun reads: one per host column, one for the peers.
write_list() { # FILE PREFIX WHERE...: the probes that run WHERE
	local file=$1 prefix=$2 i
	shift 2
	for i in "${!ids[@]}"; do
		if [[ " $* " == *" ${where[$i]} "* ]]; then
			printf '%s\t%s\t%s%s\n' "${ids[$i]}" "${secs[$i]}" "$prefix" "${cmds[$i]}"
		fi
	done >"$file"
}
write_list "$OUT/native.list" "" native all
write_list "$OUT/umk.list" "$ROOT/$B/umk " all
write_list "$OUT/umk-nofsgsbase.list" "$ROOT/$B/umk --nofsgsbase " all
cols=(native umk umk-nofsgsbase)
if [[ -n $BASELINE ]]; then
	write_list "$OUT/baseline.list" "$BASELINE " all
	cols=(native baseline umk umk-nofsgsbase)
fi
write_list "$OUT/peer.list" "" all

# Peers: check they are there; a missing one's reason fills its column.
declare -A peer_down
for p in $PEERS; do
	case $p in
	uml) command -v linux >/dev/null ||
		peer_down[$p]="not installed (Debian package user-mode-linux)" ;;
	gvisor) command -v runsc >/dev/null ||
		peer_down[$p]="not installed (Debian package runsc)" ;;
	esac
done

# record ROUND COLUMN < benchrun's lines: prefix them into raw.tsv.
record() {
	local line
	while IFS= read -r line; do
		line=${line%$'\r'}
		[[ $line == BENCH$'\t'* ]] && printf '%s\t%s\t%s\n' "$1" "$2" "${line#BENCH$'\t'}"
	done >>"$raw"
	return 0
}

# A probe that timed out in a column is not run there again (a timeout
# costs its whole SECONDS each round): later rounds record it skipped.
declare -A timed_out  # "COLUMN ID" -> the round it timed out in
skip_record() { # ROUND COLUMN ID
	printf '%s\t%s\t%s\tskipped\ttimed out in round %s: not run again\n' \
		"$1" "$2" "$3" "${timed_out[$2 $3]}" >>"$raw"
}
note_timeouts() { # ROUND COLUMN < benchrun's lines
	local line id
	while IFS= read -r line; do
		if [[ $line == BENCH$'\t'*$'\t'timeout\ * ]]; then
			id=${line#BENCH$'\t'}
			timed_out[$2 ${id%%$'\t'*}]=$1
		fi
	done
	return 0
}

# peer_down_records ROUND PEER REASON: the whole column failed this round.
peer_down_records() {
	local i
	for i in "${!ids[@]}"; do
		[[ ${where[$i]} == all ]] && printf '%s\t%s\t%s\tpeer-down\t%s\n' "$1" "$2" "${ids[$i]}" "$3"
	done >>"$raw"
}

# run_peer ROUND PEER: one boot of PEER running the whole list.
run_peer() {
	local r=$1 p=$2 total=30 i log got why missing='' list
	log=$OUT/$p.$r.log
	list=$OUT/$p.list
	: >"$list"
	for i in "${!ids[@]}"; do
		[[ ${where[$i]} == all ]] || continue
		if [[ -n ${timed_out[$p ${ids[$i]}]:-} ]]; then
			skip_record "$r" "$p" "${ids[$i]}"
		else
			grep $'^'"${ids[$i]}"$'\t' "$OUT/peer.list" >>"$list"
			total=$((total + secs[i]))
		fi
	done
	[[ -s $list ]] || return 0
	case $p in
	uml)
		# hostfs root, read-only: the probes write nothing, and UML runs
		# as root, which must not change the host's files; benchrun as init gets
		# BENCH_LIST (init's environment); its console is our stdout.
		timeout -k 5 "$total" taskset -c "$CPU" linux mem=1024M rootfstype=hostfs rootflags=/ ro \
			quiet con=null con0=fd:0,fd:1 init="$H/benchrun" BENCH_LIST="$list" \
			</dev/null >"$log" 2>&1 || true ;;
	gvisor)
		timeout -k 5 "$total" taskset -c "$CPU" runsc --platform=ptrace --network=none \
			"do" "$H/benchrun" "$list" </dev/null >"$log" 2>&1 || true ;;
	esac
	got=$(grep -c $'^BENCH\t' "$log" || true)
	record "$r" "$p" <"$log"
	note_timeouts "$r" "$p" < <(tr -d '\r' <"$log")
	# why it stopped: the log's last line that is not blank, on one line
	why=$(grep -av '^\s*$' "$log" | tail -n 1 | tr -d '\r\t' | cut -c1-200)
	if [[ $got -eq 0 ]]; then
		peer_down[$p]="did not run: $why"
		peer_down_records "$r" "$p" "${peer_down[$p]}"
		return
	fi
	for i in "${!ids[@]}"; do
		if grep -q $'^'"${ids[$i]}"$'\t' "$list" && ! grep -q $'^BENCH\t'"${ids[$i]}"$'\t' "$log"; then
			missing+=$(printf '%s\t%s\t%s\tmissing\tthe peer stopped before it: %s' \
				"$r" "$p" "${ids[$i]}" "$why")$'\n'
		fi
	done
	printf '%s' "$missing" >>"$raw"
}

# peer_version COMMAND [PREFIX]: the first line of COMMAND --version,
# without PREFIX. Read whole first: under pipefail, a head that closes the
# pipe early failed the version pipeline (SIGPIPE) and added a second line.
peer_version() {
	local out
	if ! command -v "$1" >/dev/null; then
		echo 'not installed'
		return
	fi
	out=$("$1" --version 2>/dev/null) || true
	out=${out%%$'\n'*}
	out=${out#"${2:-}"}
	echo "${out:-unknown}"
}

model=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
if grep -qw fsgsbase /proc/cpuinfo; then fsgs=yes; else fsgs=no; fi
{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'cpu\t%s\n' "$model"
	printf 'cpus\t%s\n' "$(nproc)"
	printf 'fsgsbase\t%s\n' "$fsgs"
	printf 'kernel\t%s\n' "$(uname -sr)"
	printf 'umk\t%s\n' "$(git describe --always --dirty 2>/dev/null || echo unknown)"
	for p in $PEERS; do
		case $p in
		uml) printf 'uml\t%s\n' "$(peer_version linux)" ;;
		gvisor) printf 'gvisor\t%s\n' "$(peer_version runsc 'runsc version ')" ;;
		esac
	done
	printf 'peers\t%s\n' "$PEERS"
	[[ -z $BASELINE ]] || printf 'baseline\t%s\n' "$BASELINE"
	printf 'settings\tN=%s ROUNDS=%s CPU=%s SLEEPS=%s WAKES=%s STOPS=%s SORTS=%s RUNS=%s\n' \
		"$N" "$ROUNDS" "$CPU" "$SLEEPS" "$WAKES" "$STOPS" "$SORTS" "$RUNS"
	printf 'load before\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/meta.tsv"

echo "bench: ${#ids[@]} probes, $ROUNDS rounds, pinned to CPU $CPU; peers: ${PEERS:-none}"
t0=$SECONDS
for ((r = 1; r <= ROUNDS; r++)); do
	for i in "${!ids[@]}"; do
		for col in "${cols[@]}"; do
			[[ $col != native && ${where[$i]} == native ]] && continue
			if [[ -n ${timed_out[$col ${ids[$i]}]:-} ]]; then
				skip_record "$r" "$col" "${ids[$i]}"
				continue
			fi
			out=$(taskset -c "$CPU" "$H/benchrun" "$OUT/$col.list" "${ids[$i]}")
			record "$r" "$col" <<<"$out"
			note_timeouts "$r" "$col" <<<"$out"
		done
	done
	for p in $PEERS; do
		if [[ -n ${peer_down[$p]:-} ]]; then
			peer_down_records "$r" "$p" "${peer_down[$p]}"
		else
			run_peer "$r" "$p"
		fi
	done
	echo "bench: round $r of $ROUNDS done ($((SECONDS - t0)) s)"
done
printf 'load after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/meta.tsv"
printf 'seconds\t%s\n' "$((SECONDS - t0))" >>"$OUT/meta.tsv"

python3 harness/bench/bench_report.py "$OUT"
echo "bench: the table is $OUT/BENCH.md, the chart $OUT/bench.svg"
