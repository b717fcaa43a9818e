# Shared helper for umk's Bats tests; every tests/*.bats loads it first.
#
#   umk [-s STATUS] ARG...     run build/umk ARG... and fail unless it exits
#                              STATUS (default 0; '*' accepts any status)
#   native [-s STATUS] PROG ARG...   the same, running PROG on the host; a
#                              PROG that does not exist fails the test
#   run_umk ARG...             run build/umk ARG..., checking only for a hang
#   same_as_native [-s STATUS] [-i INPUT] [-k SIG:SECS] [-p] [--OPTION...] PROG ARG...
#                              run PROG natively and under umk (with umk's
#                              --OPTIONs, each one word: --timeline=FILE):
#                              both must exit STATUS (default 0; '*' accepts
#                              any, but the same on both sides) with the same
#                              stdout. With -i, each side reads the output of
#                              the shell command INPUT on stdin, as it comes.
#                              With -k, each side is sent SIG (INT, TERM...)
#                              after SECS seconds, umk from the host.
#                              With -p, the native run is pinned to CPU 0
#                              (taskset), as umk has one CPU.
#                              $output, $stderr and $status are umk's.
#   umk_asan                   succeed when $UMK is the ASan build (make
#                              SANITIZE=address: it links libasan)
#   umk_window_mib             print the size of umk's user window in MiB
#                              (include/umk/mm.h): 64 TiB, or the 2 GiB below
#                              ASan's shadow in the ASan build
#   require_umk                skip the test when umk cannot start on this
#                              host (no Syscall User Dispatch); umk, run_umk
#                              and same_as_native call it, and so must a test
#                              that runs $UMK by itself. The reason is
#                              printed once per bats run.
#   strace_lines FILE          strace -f's output in FILE normalized: each
#                              process's calls, pids and addresses replaced
#                              (tests/ptrace.bats and tests/tty.bats)
#
# UMK_OPTS, when set, holds options given to umk before every command line
# run_umk runs (make test's second pass uses it for --nofsgsbase).
#
# Each echoes the command it runs (shown when a test fails), runs it under
# `timeout` so a hang fails the test instead of stalling CI, and uses
# `run --separate-stderr`: $output is stdout, $stderr is stderr (umk's trace
# and error messages), $status the exit status.

# Bats's run sets $output, $stderr and $status for the functions below.
# shellcheck disable=SC2154

bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

# The tree this file is in, so that a test file elsewhere (a fixture in a
# temporary directory) can load it too.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1
# UMK_BUILD: the build to test (make SANITIZE=undefined test: build-ubsan).
B=${UMK_BUILD:-build}
UMK=${UMK:-$B/umk}
H=$B/harness
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

# _umk_cannot_start: succeed when umk cannot start on this host, that is
# when it refuses to run build/harness/hello with status 125 and a message
# about Syscall User Dispatch. Any other failure is umk's own, for the tests
# to report. The probe runs once per bats run: its verdict is cached in
# $BATS_RUN_TMPDIR (the reason, or an empty file when umk starts), and the
# run that makes it prints the reason, once.
_umk_cannot_start() {
	local cache=$BATS_RUN_TMPDIR/umk-cannot-start err st=0
	if [[ ! -e $cache ]]; then
		[[ -x $UMK ]] || fail "$UMK is missing: run make"
		err=$(timeout -k 5 "$UMK_TIMEOUT" "$UMK" "$H/hello" 2>&1 >/dev/null) || st=$?
		if [[ $st -eq 125 && $err == *'Syscall User Dispatch'* ]]; then
			printf '%s\n' "$err" >"$cache.$$"
			printf '# umk cannot start on this host; the tests that run it are skipped:\n# %s\n' \
				"$err" >&3
		else
			: >"$cache.$$"
		fi
		mv -f "$cache.$$" "$cache"
	fi
	[[ -s $cache ]]
}

umk_asan() {
	readelf -d "$UMK" 2>/dev/null | grep -q 'NEEDED.*libasan'
}

umk_window_mib() {
	if umk_asan; then
		echo $(((0x7fff0000 - 0x10000) >> 20))
	else
		echo $((0x400000000000 >> 20))
	fi
}

require_umk() {
	if _umk_cannot_start; then
		skip "umk cannot start on this host (the reason is printed above)"
	fi
}

# run_umk [-127] ARG...: -127 tells Bats that status 127 (not found) is expected.
run_umk() {
	local flags=(--separate-stderr)
	if [[ $1 == -127 ]]; then flags=(-127 --separate-stderr); shift; fi
	require_umk
	echo "\$ ${_kill_after[*]}${_kill_after:+ }$UMK ${UMK_OPTS:+$UMK_OPTS }$*"
	# shellcheck disable=SC2086 # UMK_OPTS is a list of options
	_timed "${flags[@]}" timeout -k 5 "$UMK_TIMEOUT" "${_kill_after[@]}" "$UMK" ${UMK_OPTS:-} "$@"
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
	if [[ $1 == */* ]]; then
		[[ -f $1 && -x $1 ]] || fail "native: no program $1 (run make?)"
	else
		command -v -- "$1" >/dev/null || fail "native: no program $1"
	fi
	echo "\$ $*"
	local flags=(--separate-stderr)
	[[ $want == 127 ]] && flags=(-127 --separate-stderr)
	_timed "${flags[@]}" timeout -k 5 "$UMK_TIMEOUT" "$@"
	_expect "$want"
}

# _kill_after, set by same_as_native -k for run_umk: the command that
# sends the signal, put before umk's command line.
_kill_after=()

same_as_native() {
	local want=0 input='' opts=() _kill_after=() pin=()
	while [[ $1 == -[sikp] ]]; do
		case $1 in
		-s) want=$2 ;;
		-i) input=$2 ;;
		-k) _kill_after=(timeout --preserve-status -s "${2%%:*}" "${2#*:}") ;;
		-p) pin=(taskset -c 0); shift; continue ;;
		esac
		shift 2
	done
	while [[ $1 == --?* ]]; do opts+=("$1"); shift; done
	[[ $# -gt 0 ]] || fail "same_as_native: no PROG"
	require_umk
	if [[ ${#pin[@]} -gt 0 ]]; then
		[[ -f $1 && -x $1 ]] || fail "native: no program $1 (run make?)"
	fi
	if [[ -n $input ]]; then
		echo "(stdin: $input)"
		native -s "$want" "${pin[@]}" "$@" < <(bash -c "$input")
	elif [[ ${#_kill_after[@]} -gt 0 ]]; then
		[[ -f $1 && -x $1 ]] || fail "native: no program $1 (run make?)"
		native -s "$want" "${_kill_after[@]}" "${pin[@]}" "$@"
	else
		native -s "$want" "${pin[@]}" "$@"
	fi
	local n_out=$output n_status=$status
	if [[ -n $input ]]; then
		umk -s "$want" "${opts[@]}" "$@" < <(bash -c "$input")
	else
		umk -s "$want" "${opts[@]}" "$@"
	fi
	if [[ $output != "$n_out" ]]; then
		diff -u --label native --label umk <(printf '%s\n' "$n_out") <(printf '%s\n' "$output") || true
		fail "stdout under umk differs from the native run's (diff above)"
	fi
	assert_equal "$status" "$n_status"
}

# untimed ARG...: print the lines of "$1" with the time field removed, so
# "0.000120 1 enter write(...)" becomes "1 enter write(...)".
untimed() {
	# shellcheck disable=SC2001 # line by line: ^ anchors each line
	sed 's/^[0-9]*\.[0-9]* //' <<<"$1"
}

# trace_has REGEX: some line of the untimed trace in $stderr matches REGEX.
trace_has() {
	untimed "$stderr" | grep -qE "$1" || fail "no trace line matching '$1' in:
$stderr"
}

# strace_lines FILE: strace -f's output in FILE, one process after the
# other: M, the first traced process, then its children (C1, C2... in the
# order of their pids), each call whole (an "<unfinished ...>" joined
# with its "<... resumed>"), with pids, addresses and times replaced: what
# the two kernels must agree on, whatever order two processes' lines
# interleave in. A child is a pid strace says it attached, a fork's result,
# or a SIGCHLD's sender; every other pid, and unprefixed lines, are M's.
strace_lines() {
	python3 - "$1" <<'PY'
import re, sys
lines = [l.rstrip('\n') for l in open(sys.argv[1]) if l.strip()]
children = set()
for l in lines:
    children.update(re.findall(r'Process (\d+) attached', l))
    children.update(re.findall(r'si_signo=SIGCHLD.*?si_pid=(\d+)', l))
    m = re.search(r'(?:vfork|fork|clone3?)(?:\(.*\)| resumed>.*\)) += (\d+)$', l)
    if m:
        children.add(m.group(1))
procs, order, pending = {}, [], {}
for line in lines:
    # "[pid N] " before a line, or "N " with -o FILE
    m = re.match(r'(?:\[pid +(\d+)\]|(\d+)) +(.*)', line)
    pid, text = (m.group(1) or m.group(2), m.group(3)) if m else (None, line)
    if pid not in children:
        pid = 'M'
    text = re.sub(r'(/usr/bin/)?strace: Process \d+ attached$', '', text)
    if text.strip() == '<unfinished ...>':
        text = ''
    if pid not in procs:
        procs[pid] = []
        order.append(pid)
    # a call cut short by strace's own message ("Process N attached"
    # written into the middle of the line) ends in "(" or ", "
    if text.endswith(' <unfinished ...>') or (text and not text.startswith(('---', '+++', '<...')) and text.rstrip().endswith(('(', ','))):
        pending[pid] = text.replace(' <unfinished ...>', '')
        continue
    if not text:
        continue
    r = re.match(r'<\.\.\. \w+ resumed>(.*)', text)
    if r and pid in pending:
        text = pending.pop(pid) + r.group(1)
    procs[pid].append(text)
# A child's SIGCHLD may come before its parent enters wait4 or while it
# sleeps there (on Linux too: which one is a race between CPUs), so a
# SIGCHLD just before a wait4 is put after it.
for p in order:
    t = procs[p]
    for i in range(len(t) - 1):
        if t[i].startswith('--- SIGCHLD') and t[i + 1].startswith('wait4('):
            t[i], t[i + 1] = t[i + 1], t[i]
# children by pid: the order they were made in, not the order they print
order.sort(key=lambda p: (p != 'M', 0 if p == 'M' else int(p)))
names, n = {'M': 'M'}, 0
for p in order:
    if p != 'M':
        n += 1
        names[p] = 'C%d' % n
for p in order:
    for text in procs[p]:
        text = re.sub(r'0x[0-9a-f]+', '0xADDR', text)
        text = re.sub(r'(si_pid|pid)=\d+', r'\1=PID', text)
        # clone3's new tid, as strace shows the struct it wrote
        text = re.sub(r'(parent_tid|child_tid)=\[\d+\]', r'\1=[PID]', text)
        # times differ from run to run; strace adds their seconds past 0
        text = re.sub(r'(si_utime|si_stime)=\d+( /\* [0-9.]+ s \*/)?', r'\1=T', text)
        text = re.sub(r'^((vfork|fork|clone3?|wait4|set_tid_address|getpid)\(.*\)) += \d+$', r'\1 = PID', text)
        text = re.sub(r'^(wait4|kill)\(\d+', r'\1(PID', text)
        text = re.sub(r'\s+= ', ' = ', text)
        # the time a sleep had left when a signal ended it
        text = re.sub(r'(nanosleep\([^{]*\{[^}]*\}, )\{tv_sec=\d+, tv_nsec=\d+\}', r'\1{LEFT}', text)
        print('%s %s' % (names[p], text))
PY
}
