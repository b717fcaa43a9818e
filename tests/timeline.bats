#!/usr/bin/env bats
# --timeline FILE: an SVG picture of the run written at umk's exit, one lane
# per task. tests/timeline_check.py reads it back (lanes, signals, handlers,
# restarts, labels) and fails if two labels overlap.

load helper

# timeline ARG...: run umk --timeline $SVG ARG... and summarise the picture
# into $summary.
timeline() {
	SVG=$BATS_TEST_TMPDIR/t.svg
	umk --timeline "$SVG" "$@"
	summarise
}

summarise() {
	run xmllint --noout "$SVG"
	assert_success
	run python3 tests/timeline_check.py "$SVG"
	assert_success
	summary=$output
	echo "$summary"
}

# has LINE: the summary has LINE; has_re REGEX: a line matching REGEX.
has() {
	grep -qxF -- "$1" <<<"$summary" || fail "no line '$1' in the summary"
}
has_re() {
	grep -qE -- "$1" <<<"$summary" || fail "no line matching '$1' in the summary"
}

@test "the demo's timeline is valid XML and leaves the program's output alone" {
	umk $H/demo
	local plain=$output
	umk --timeline "$BATS_TEST_TMPDIR/t.svg" $H/demo
	assert_equal "$output" "$plain"
	assert_equal "$stderr" ''
	run xmllint --noout "$BATS_TEST_TMPDIR/t.svg"
	assert_success
	grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$BATS_TEST_TMPDIR/t.svg"
}

@test "the demo's timeline has exactly one lane per task in the trace" {
	umk --trace --timeline "$BATS_TEST_TMPDIR/t.svg" $H/demo
	local tasks
	tasks=$(untimed "$stderr" | grep -oE '^[0-9]+ task (fork|thread) [0-9]+( |$)' | awk '{print $4}')
	tasks=$(printf '1\n%s\n' "$tasks" | sort -n | tr '\n' ' ')
	SVG=$BATS_TEST_TMPDIR/t.svg summarise
	assert_equal "$(grep '^lane ' <<<"$summary" | awk '{print $2}' | sort -n | tr '\n' ' ')" "$tasks"
	assert_equal "$tasks" '1 2 3 '
	has_re '^lane 2 demo child of 1 states='
}

@test "the demo's timeline shows pid 2 stopped mid-sleep and restarted through restart_syscall" {
	timeline $H/demo
	has_re '^lane 2 demo .*states=.*stopped'
	has 'label 2 nanosleep ERESTART_RESTARTBLOCK → restart_syscall (no handler)'
	has 'label 2 restart_syscall → hrtimer_nanosleep_restart'
	assert_equal "$(grep -c '^restart 2$' <<<"$summary")" 2
}

@test "the demo's timeline shows pid 3's SIGUSR1 handler as a box and its EINTR decision" {
	timeline $H/demo
	has 'handler 3 SIGUSR1 depth=0'
	has_re '^label 3 SIGUSR1 handler, [0-9.]+ (ns|µs|ms)$'
	has 'label 3 nanosleep ERESTART_RESTARTBLOCK → EINTR (handler)'
	has 'restart 3'
	has 'label 3 exit 0'
}

@test "the demo's timeline draws SIGSTOP from lane 1 to lane 2 and SIGUSR1 from lane 1 to lane 3" {
	timeline $H/demo
	has 'signal 1 2 SIGSTOP'
	has 'signal 1 3 SIGUSR1'
	has 'signal 1 2 SIGCONT'
	has 'label 2 SIGSTOP'
	has 'label 3 SIGUSR1'
	# the parent ignores SIGCHLD: drawn, but as ignored
	has 'signal 2 1 SIGCHLD faint'
	has 'label 1 SIGCHLD (ignored)'
}

@test "the timeline has a title, a time axis in ms and a legend" {
	timeline $H/demo
	for text in 'umk timeline: demo (pid 1), 3 tasks, ' '>time (ms)<' '>Legend<' \
		'>runnable: waiting for the CPU<' '>signal handler running: delivery to sigreturn<'; do
		grep -qF "$text" "$SVG" || fail "no '$text' in the SVG"
	done
}

@test "a program with children and threads has one lane each, the threads named as such" {
	timeline $H/spawn
	assert_equal "$(grep -c '^lane ' <<<"$summary")" 9
	assert_equal "$(grep -c '^lane [0-9]* spawn thread of 1 ' <<<"$summary")" 4
	has_re '^lane 2 hello child of 1 '
	has 'label 3 exit 42'
}

@test "yielding threads have one lane each and both run" {
	timeline $H/yield
	assert_equal "$(grep -c '^lane ' <<<"$summary")" 3
	has_re '^lane 2 yield thread of 1 states=.*running'
	has_re '^lane 3 yield thread of 1 states=.*running'
}

@test "a handler interrupted by another handler is drawn with the inner box nested" {
	timeline $H/scenario harness/scenarios/nested.scn
	has 'handler 2 SIGUSR1 depth=0'
	has 'handler 2 SIGUSR2 depth=1'
}

@test "a handler left by siglongjmp is not taken for one the next signal interrupted" {
	timeline $H/sigfault faults
	grep '^handler ' <<<"$summary" | grep -v 'depth=0' && fail "a handler drawn nested"
	has 'handler 1 SIGSEGV depth=0 unfinished'
	has 'label 1 SIGSEGV handler, no sigreturn'
	has 'label 1 fault: SIGSEGV addr=0x0'
}

@test "a timer's signal comes from the kernel, not from the task that happened to run" {
	timeline $H/sigcalls itimer
	has 'signal -1 1 SIGALRM'
	has 'label 1 SIGALRM from a timer'
}

@test "a signal sent to umk from the host comes from the host" {
	require_umk
	SVG=$BATS_TEST_TMPDIR/t.svg
	run --separate-stderr timeout -k 5 --preserve-status -s INT 0.3 $UMK --timeline "$SVG" $H/catchint
	assert_equal "$status" 5
	summarise
	has 'signal -1 1 SIGINT'
	has 'label 1 SIGINT from the host'
}

@test "--timeline=FILE is the same as --timeline FILE" {
	umk --timeline="$BATS_TEST_TMPDIR/t.svg" $H/hello
	assert_output 'hello, world'
	SVG=$BATS_TEST_TMPDIR/t.svg summarise
	has 'lane 1 hello  states=runnable,running'
	has 'label 1 exit 0'
}

@test "--timeline to an uncreatable path is a usage error naming it" {
	umk -s 2 --timeline /nonexistent/dir/t.svg $H/hello
	assert_equal "$stderr" "umk: /nonexistent/dir/t.svg: No such file or directory"
	assert_output ''
	umk -s 2 --timeline=/nonexistent/t.svg $H/hello
	assert_equal "$stderr" "umk: /nonexistent/t.svg: No such file or directory"
}

@test "--timeline without a FILE is a usage error" {
	umk -s 2 --timeline
	assert_equal "$stderr" "umk: --timeline needs a FILE (try 'umk --help')"
}

@test "--help lists --timeline" {
	umk --help
	assert_output --partial '--timeline FILE, --timeline=FILE'
}

@test "a task name with XML specials and bytes that are not UTF-8 still gives a valid SVG" {
	local name
	name=$(printf 'a<b&"c'"'"'\303\251\377')
	ln -s "$ROOT/$H/hello" "$BATS_TEST_TMPDIR/$name"
	timeline "$BATS_TEST_TMPDIR/$name"
	# é kept as a character, the stray byte 0xff as U+FFFD, the file ASCII
	has_re "^lane 1 a<b&\"c'é� "
	run grep -P '[^\x00-\x7f]' "$SVG"
	assert_failure
}

@test "a run with more than the timeline can hold says where its picture stops" {
	timeline $H/bench yield 100000
	assert_equal "$(grep -c '^lane ' <<<"$summary")" 3
	grep -q 'class="truncated"' "$SVG" || fail "no truncation line"
	grep -qE '>… truncated at [0-9.]+ ms: more than [0-9]+ marks or [0-9]+ spans; the picture stops there<' \
		"$SVG" && fail "the note is not escaped"
	grep -qE '>&#x2026; truncated at [0-9.]+ ms: more than 50000 marks or 100000 spans' "$SVG" \
		|| fail "no truncation note"
	# spans narrower than a pixel are merged: the file stays small
	(( $(stat -c %s "$SVG") < 1000000 )) || fail "the SVG is $(stat -c %s "$SVG") bytes"
}

# Under --clock=virtual time stands still while tasks run: the demo's events
# at 100 ms all share one timestamp, and the picture spreads them out in
# trace order (an instant). order: the summary with each mark's time and
# place in its instant (event=K/N), read from the tooltips: the structure,
# not the pixels, which are the renderer's to choose.
order() {
	run python3 tests/timeline_check.py --order "$SVG"
	assert_success
	summary=$output
	echo "$summary"
}

# event LINE-REGEX: the event=K (or K..L) of the one summary line matching it.
event() {
	local lines
	lines=$(grep -E -- "$1" <<<"$summary")
	[[ $(wc -l <<<"$lines") -eq 1 && -n $lines ]] || fail "not one line matching '$1'"
	grep -oE 'event=[0-9.]+' <<<"$lines" | sed 's/event=//'
}

# lt A B...: each number is less than the next.
lt() {
	awk 'BEGIN { for (i = 1; i < ARGC - 1; i++) if (!(ARGV[i] + 0 < ARGV[i + 1] + 0)) exit 1 }' "$@" \
		|| fail "not in increasing order: $*"
}

@test "under --clock=virtual the demo's timeline is valid, has one lane per task and no overlapping labels" {
	timeline --clock=virtual $H/demo
	assert_equal "$(grep '^lane ' <<<"$summary" | awk '{print $2}' | tr '\n' ' ')" '1 2 3 '
	has_re '^lane 3 demo child of 1 states=.*running'
	has 'handler 3 SIGUSR1 depth=0'
	has 'label 3 nanosleep ERESTART_RESTARTBLOCK → EINTR (handler)'
	grep -qF 'A blue band holds one instant' "$SVG" || fail "no word on instants"
}

@test "under --clock=virtual pid 3's handler box spans its delivery to its sigreturn, after its EINTR decision" {
	timeline --clock=virtual $H/demo
	order
	has 'instant 100000000 events=14'
	# the delivery and the sigreturn are events 11 and 12 of the instant's 14
	has_re '^handler 3 SIGUSR1 depth=0 at=100\.000 event=11\.\.12/14$'
	grep -qF 'SIGUSR1 handler, 0 ns (same instant) at 100.000 ms (one instant: event 11 to 12 of 14 in trace order)' \
		"$SVG" || fail "the handler is not events 11 to 12 of the instant"
	# after the EINTR decision, before pid 3's exit, as in the trace
	local box
	box=$(event '^handler 3 SIGUSR1')
	lt "$(event '^restart 3')" "${box%..*}" "${box#*..}" "$(event '^exit 3')"
}

@test "under --clock=virtual the events of one instant are drawn in trace order" {
	timeline --clock=virtual $H/demo
	order
	grep -qF 'SIGSTOP at 100.000 ms (one instant: event' "$SVG" || fail "SIGSTOP is not at 100 ms"
	grep -qF 'SIGUSR1 at 100.000 ms (one instant: event' "$SVG" || fail "SIGUSR1 is not at 100 ms"
	# the trace's order: kill(2, SIGSTOP), kill(3, SIGUSR1), pid 2 stops (SIGCHLD),
	# pid 3's EINTR decision, its handler, its exit
	local box
	box=$(event '^handler 3')
	lt 0 "$(event '^signal 1 2 SIGSTOP')" "$(event '^signal 1 3 SIGUSR1')" \
		"$(event '^signal 2 1 SIGCHLD faint at=100')" "$(event '^restart 3')" \
		"${box%..*}" "$(event '^exit 3')" 15
	# and the marks of every instant are in the order the trace has them
	has_re '^restart 2 at=300\.000 event=8/11$'
	has_re '^restart 2 at=300\.000 event=9/11$'
	lt "$(event '^signal 1 2 SIGCONT')" 8
}

@test "under --clock=virtual nothing in an instant is given a duration it did not take" {
	timeline --clock=virtual $H/demo
	has 'label 3 SIGUSR1 handler, 0 ns (same instant)'
	grep -qF 'running, at 100.000 ms (0 ns, same instant)' "$SVG" || fail "no span of no time"
	grep -E '<title>[^<]*100\.000 to 100\.000 ms' "$SVG" && fail "a span from 100 ms to 100 ms"
	grep -qE '>one instant, 14 events( in order)?<' "$SVG" || fail "the instant is not named"
	grep -qF '>100.000<' "$SVG" || fail "the instant's time is not on the axis"
}

@test "the same run under --clock=virtual gives a byte-identical timeline twice" {
	umk --clock=virtual --timeline "$BATS_TEST_TMPDIR/a.svg" $H/demo
	umk --clock=virtual --timeline "$BATS_TEST_TMPDIR/b.svg" $H/demo
	cmp "$BATS_TEST_TMPDIR/a.svg" "$BATS_TEST_TMPDIR/b.svg"
}

@test "a --clock=virtual run in which no time passes is one instant across the whole plot" {
	timeline --clock=virtual $H/spawn
	order
	assert_equal "$(grep -c '^lane ' <<<"$summary")" 9
	assert_equal "$(grep -c '^instant ' <<<"$summary")" 1
	has_re '^instant 0 events=[0-9]+$'
	# every mark is in that instant, and no tick of time is drawn
	grep -E '^(signal|handler|restart|exit) ' <<<"$summary" | grep -v ' at=0\.000 event=' \
		&& fail "a mark outside the one instant"
	grep -qF 'umk timeline: spawn (pid 1), 9 tasks, 0 ns<' "$SVG" || fail "the run's length is not 0 ns"
}

@test "a handler left by siglongjmp at time 0 under --clock=virtual ends where the next begins (was: drawn to the run's end)" {
	timeline --clock=virtual $H/sigfault faults
	order
	local boxes
	boxes=$(grep '^handler ' <<<"$summary" | grep -oE 'event=[0-9]+\.\.[0-9]+' | sed 's/event=//')
	[[ $(wc -l <<<"$boxes") -ge 2 ]] || fail "fewer than two handlers"
	# each box ends no later than the next begins: none runs past the one after it
	paste <(head -n -1 <<<"$boxes") <(tail -n +2 <<<"$boxes") | tr '\t' ' ' | sed 's/\.\./ /g' |
		awk '{ if ($2 > $3) exit 1 }' || fail "a box runs over the next: $boxes"
}

@test "a host-clock run's timeline has no instant: its events all have times of their own" {
	timeline $H/demo
	grep -q 'class="instant"' "$SVG" && fail "an instant under the host clock"
	grep -qF 'blue band' "$SVG" && fail "instants explained where there are none"
	has_re '^label 3 SIGUSR1 handler, [0-9.]+ (ns|µs|ms)$'
}

# ---- the renderer is a tool: harness/umk-trace draws saved traces ----

UMK_TRACE=$B/harness/umk-trace

@test "a saved JSON-lines trace of the demo redraws with umk-trace to exactly what --timeline and --trace-format=chrome give" {
	local d=$BATS_TEST_TMPDIR
	umk --clock=virtual --trace="$d/run.jsonl" --trace-format=json $H/demo
	umk --clock=virtual --timeline "$d/t.svg" $H/demo
	umk --clock=virtual --trace="$d/c.json" --trace-format=chrome $H/demo
	run --separate-stderr $UMK_TRACE timeline "$d/run.jsonl"
	assert_success
	assert_equal "$stderr" ''
	printf '%s\n' "$output" >"$d/redrawn.svg"
	cmp "$d/t.svg" "$d/redrawn.svg"
	# from stdin too, and the Chrome trace
	$UMK_TRACE timeline <"$d/run.jsonl" | cmp "$d/t.svg" -
	$UMK_TRACE chrome "$d/run.jsonl" | cmp "$d/c.json" -
	$UMK_TRACE chrome - <"$d/run.jsonl" | cmp "$d/c.json" -
	SVG=$d/redrawn.svg summarise
	assert_equal "$(grep -c '^lane ' <<<"$summary")" 3
}

@test "one run with --trace-format=json and --timeline draws what umk-trace draws from its trace, on the host clock too" {
	local d=$BATS_TEST_TMPDIR
	umk --trace="$d/run.jsonl" --trace-format=json --timeline "$d/t.svg" $H/demo
	$UMK_TRACE timeline "$d/run.jsonl" | cmp "$d/t.svg" -
}

# umk_gdb GDB_ARG... -- UMK_ARG...: umk under gdb -batch with harness/gdb/umk.gdb.
umk_gdb() {
	require_umk
	local gdb_args=()
	while [[ $1 != -- ]]; do gdb_args+=("$1"); shift; done
	shift
	echo "\$ gdb -nx -batch -x harness/gdb/umk.gdb ${gdb_args[*]} --args $UMK $*"
	run timeout -k 5 120 gdb -nx -batch -x harness/gdb/umk.gdb "${gdb_args[@]}" --args "$UMK" "$@"
	echo "$output"
}

# complete_files SVG CHROME: both are whole and valid; summary of the SVG in $summary.
complete_files() {
	SVG=$1 summarise
	run python3 tests/chrome_check.py "$2"
	echo "$output"
	assert_success
	chrome=$output
}

@test "a run that ends in an oops still leaves a complete, valid SVG and Chrome trace" {
	# No program can make umk's kernel fault, so gdb makes it: in
	# sys_getppid, jump to address 0 (a corrupt code pointer).
	local d=$BATS_TEST_TMPDIR
	umk_gdb -ex 'break sys_getppid' -ex run -ex 'set var $pc = 0' \
		-ex 'handle SIGSEGV nostop noprint pass' -ex continue \
		-- --clock=virtual --timeline "$d/t.svg" --trace="$d/c.json" --trace-format=chrome $H/ids
	assert_output --partial 'umk: oops: kernel fault: Segmentation fault (11)'
	assert_output --partial 'exited with code 0175'
	complete_files "$d/t.svg" "$d/c.json"
	has_re '^lane 1 ids  states=.*running'
	grep -q '^1 ids 1 ' <<<"$chrome" || fail "no track for pid 1"
	tail -n 1 "$d/c.json" | grep -qx ']' || fail "the Chrome array is not closed"
}

@test "a run that ends in a SIGKILL of umk still gets a complete, valid SVG and Chrome trace" {
	require_umk
	local d=$BATS_TEST_TMPDIR i
	$UMK --timeline "$d/t.svg" --trace="$d/c.json" --trace-format=chrome $H/sleeper 20000 &
	local pid=$!
	sleep 0.5
	kill -KILL $pid
	wait $pid || true
	# the renderers see EOF and finish on their own, after umk is gone
	for ((i = 0; i < 100; i++)); do
		[[ $(tail -c 7 "$d/t.svg" 2>/dev/null) == '</svg>' && $(tail -c 2 "$d/c.json") == ']' ]] && break
		sleep 0.1
	done
	complete_files "$d/t.svg" "$d/c.json"
	# drawn up to the last event: pid 1 going to sleep
	has_re '^lane 1 sleeper  states=.*running'
	grep -q '^1 sleeper 1 spans=.*sleeping' <<<"$chrome" || fail "no sleeping span for pid 1"
}

@test "--timeline without the umk-trace tool next to umk is a usage error naming it" {
	local d=$BATS_TEST_TMPDIR
	cp "$UMK" "$d/umk"
	UMK=$d/umk umk -s 2 --timeline "$d/t.svg" $H/hello
	assert_equal "$stderr" "umk: $d/harness/umk-trace: No such file or directory (--timeline needs it)"
	assert_output ''
	UMK=$d/umk umk -s 2 --trace --trace-format=chrome $H/hello
	assert_equal "$stderr" "umk: $d/harness/umk-trace: No such file or directory (--trace-format=chrome needs it)"
	# nothing else needs it
	UMK=$d/umk umk --trace --trace-format=json $H/hello
	assert_output 'hello, world'
}
