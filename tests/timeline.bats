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
	tasks=$(untimed "$stderr" | grep -oE '^[0-9]+ task (fork|thread) [0-9]+$' | awk '{print $4}')
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
	has_re '^label 3 SIGUSR1 handler, [0-9.]+ (ns|µs)$'
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
