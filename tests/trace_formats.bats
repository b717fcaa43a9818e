#!/usr/bin/env bats
# --trace-format: the JSON lines and Chrome trace-event forms of the trace
# (docs/trace.md). Each must parse, carry the same events as the text form,
# and have the documented fields and tracks.

load helper

@test "every JSON trace line parses, and their details are the text trace's lines in order" {
	umk --trace --trace-format=json $H/hello
	assert_output 'hello, world'
	echo "$stderr" >"$BATS_TEST_TMPDIR/t.json"
	run python3 -m json.tool --json-lines "$BATS_TEST_TMPDIR/t.json"
	assert_success
	local json_details text_details
	json_details=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    print(e["pid"], e["event"], e["details"])' "$BATS_TEST_TMPDIR/t.json")
	umk --trace $H/hello
	text_details=$(untimed "$stderr")
	# the user stack's addresses differ from run to run (ASLR)
	json_details=$(sed -E 's/0x[0-9a-f]+/ADDR/g' <<<"$json_details")
	text_details=$(sed -E 's/0x[0-9a-f]+/ADDR/g' <<<"$text_details")
	[[ $json_details == "$text_details" ]] || fail "JSON: $json_details
text: $text_details"
}

@test "JSON trace events carry typed fields: the call, its value and its errno name" {
	umk --trace --trace-format=json $H/efault
	echo "$stderr" | grep -F '"event":"exit"' | grep -F '"syscall":"nanosleep"' \
		| grep -qF '"ret":-14,"errno":"EFAULT"' || fail "no typed nanosleep exit in: $stderr"
	echo "$stderr" | grep -qE '^\{"ts":[0-9]+,"pid":1,"event":"enter","details":"write\(' \
		|| fail "no write entry with ts, pid, event, details first"
}

@test "JSON restart events name the code, the action, the handler and the continuation" {
	umk --trace --trace-format=json $H/demo
	local restarts
	restarts=$(python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if e["event"] == "restart":
        print(e["pid"], e["syscall"], e.get("code"), e.get("action"), e.get("handler"),
              e.get("continuation"))' <<<"$stderr")
	echo "$restarts"
	assert_equal "$(grep -c . <<<"$restarts")" 3
	grep -qx '3 nanosleep ERESTART_RESTARTBLOCK EINTR SIGUSR1 None' <<<"$restarts"
	grep -qx '2 nanosleep ERESTART_RESTARTBLOCK restart_syscall None None' <<<"$restarts"
	grep -qx '2 restart_syscall None None None hrtimer_nanosleep_restart' <<<"$restarts"
}

@test "the Chrome trace parses and has one named track per task with its state spans" {
	umk --trace="$BATS_TEST_TMPDIR/c.json" --trace-format=chrome $H/demo
	run python3 -m json.tool "$BATS_TEST_TMPDIR/c.json"
	assert_success
	run python3 tests/chrome_check.py "$BATS_TEST_TMPDIR/c.json"
	echo "$output"
	assert_success
	assert_equal "$(grep -c . <<<"$output")" 4
	assert_line --regexp '^0 idle 0 spans=running '
	assert_line --regexp '^1 demo 1 spans=runnable,running,sleeping '
	# pid 2 was stopped mid-sleep, continued and restarted
	assert_line --regexp '^2 demo 2 spans=runnable,running,sleeping,stopped .*\|SIGSTOP -> stop\|.*SIGCONT -> continue 2\|.*nanosleep ERESTART_RESTARTBLOCK -> restart_syscall \(no handler\)\|restart_syscall -> hrtimer_nanosleep_restart\|'
	# pid 3 ran a handler: its signal, its restart decision and its sigreturn
	assert_line --regexp '^3 demo 3 spans=runnable,running,sleeping .*SIGUSR1 -> 3\|nanosleep ERESTART_RESTARTBLOCK -> EINTR \(handler\)\|SIGUSR1 -> handler .*\|sigreturn -> ip '
}

@test "a Chrome sleeping span names the system call it sleeps in" {
	umk --trace="$BATS_TEST_TMPDIR/c.json" --trace-format=chrome $H/sleeper 20
	run python3 -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    if e["ph"] == "X" and e["name"] == "sleeping":
        print(e["tid"], e["args"]["syscall"], round(e["dur"] / 1000))' "$BATS_TEST_TMPDIR/c.json"
	assert_success
	assert_line --regexp '^1 nanosleep (19|2[0-9])$'
}

@test "an unknown trace format is a usage error naming it" {
	umk -s 2 --trace --trace-format=xml $H/hello
	assert_equal "$stderr" "umk: unknown trace format 'xml': text, json or chrome (try 'umk --help')"
	assert_output ''
}

@test "JSON stop and continue events name the process they act on" {
	umk --trace --trace-format=json $H/demo
	echo "$stderr" | grep -F '"pid":2,"event":"deliver"' \
		| grep -qF '"sig":"SIGSTOP","signo":19,"action":"stop","process":2}' \
		|| fail "no typed stop of process 2"
	echo "$stderr" | grep -F '"pid":1,"event":"deliver"' \
		| grep -qF '"sig":"SIGCONT","signo":18,"action":"continue","process":2}' \
		|| fail "no typed continue of process 2, sent by pid 1"
}

@test "a detail of 180 non-ASCII bytes still makes well-formed JSON and Chrome lines" {
	# Regression: each such byte is escaped to 6 characters, and a line
	# buffer of 1 KiB cut the exec event mid-object.
	local prog
	prog=$BATS_TEST_TMPDIR/$(python3 -c 'import sys; sys.stdout.buffer.write(b"\xe9" * 180)')
	ln -s "$PWD/$H/hello" "$prog"
	umk --trace="$BATS_TEST_TMPDIR/t.json" --trace-format=json "$prog"
	run python3 -m json.tool --json-lines "$BATS_TEST_TMPDIR/t.json"
	assert_success
	assert_output --partial '\u00e9\u00e9'
	umk --trace="$BATS_TEST_TMPDIR/c.json" --trace-format=chrome "$prog"
	run python3 -m json.tool "$BATS_TEST_TMPDIR/c.json"
	assert_success
}

# ---- umk-trace, the renderer of saved traces ----

UMK_TRACE=$B/harness/umk-trace

# umk_trace [-s STATUS] ARG...: run build/harness/umk-trace (stdin as given),
# failing unless it exits STATUS (default 0).
umk_trace() {
	local want=0
	if [[ $1 == -s ]]; then want=$2; shift 2; fi
	echo "\$ $UMK_TRACE $*"
	run --separate-stderr timeout 20 $UMK_TRACE "$@"
	[[ $status -eq $want ]] || fail "exit status $status, expected $want (stderr: $stderr)"
}

@test "umk-trace redraws a saved trace's Chrome trace, with the task names the task events carry" {
	umk --trace="$BATS_TEST_TMPDIR/t.jsonl" --trace-format=json $H/spawn
	umk_trace chrome "$BATS_TEST_TMPDIR/t.jsonl"
	assert_equal "$stderr" ''
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/c.json"
	run python3 tests/chrome_check.py "$BATS_TEST_TMPDIR/c.json"
	assert_success
	assert_line --regexp '^2 hello 2 spans=.*running'
	assert_line --regexp '^[0-9]+ spawn [0-9]+ spans='
}

@test "JSON task events carry the task's comm, tgid and ppid; handler deliveries their frame and stack" {
	umk --trace --trace-format=json $H/demo
	echo "$stderr" | grep -F '"event":"task"' | grep -F '"kind":"fork"' \
		| grep -qE '"task":2,"kind":"fork","comm":"demo","tgid":2,"ppid":1\}$' \
		|| fail "no fork of 2 with its comm, tgid and ppid"
	echo "$stderr" | grep -F '"action":"handler"' \
		| grep -qE '"sig":"SIGUSR1","signo":10,"action":"handler","frame":[0-9]+,"altstack":false\}$' \
		|| fail "no handler delivery with its frame and altstack"
	umk --trace --trace-format=json $H/spawn
	echo "$stderr" | grep -F '"kind":"thread"' | grep -qE '"comm":"spawn","tgid":1,"ppid":0\}$' \
		|| fail "no thread of 1 named as such"
}

@test "umk-trace with an unknown command, no command or too many arguments is a usage error (2)" {
	umk_trace -s 2 svg
	assert_equal "$stderr" "umk-trace: unknown command 'svg': chrome or timeline (try 'umk-trace --help')"
	assert_output ''
	umk_trace -s 2
	assert_equal "$stderr" "umk-trace: no command: chrome or timeline (try 'umk-trace --help')"
	umk_trace -s 2 chrome a b
	assert_equal "$stderr" "umk-trace: too many arguments after 'a' (try 'umk-trace --help')"
	umk_trace --help
	assert_output --partial 'usage: umk-trace chrome [FILE]'
}

@test "umk-trace on an unreadable FILE names it and exits 2" {
	umk_trace -s 2 timeline /nonexistent/run.jsonl
	assert_equal "$stderr" "umk-trace: /nonexistent/run.jsonl: No such file or directory"
	assert_output ''
	umk_trace -s 2 chrome "$BATS_TEST_TMPDIR"
	assert_equal "$stderr" "umk-trace: $BATS_TEST_TMPDIR: Is a directory"
}

@test "umk-trace on a line that is not umk's JSON names the input and the line and exits 1" {
	local f=$BATS_TEST_TMPDIR/t.jsonl
	umk --trace="$f" --trace-format=json $H/hello
	sed -i '3s/.*/this is not JSON/' "$f"
	umk_trace -s 1 timeline "$f"
	assert_equal "$stderr" "umk-trace: $f:3: not a line of umk's JSON trace (umk --trace-format=json)"
	assert_output ''
	# JSON, but not umk's: no ts, an unknown event, a nested value, a NUL
	local line
	for line in '{"a":1}' '{"ts":1,"pid":1,"event":"frob","details":""}' \
		'{"ts":1,"pid":1,"event":"task","details":"","task":{"x":1}}' '[1,2]' \
		'{"ts":1.5,"pid":1,"event":"task","details":""}' '{"ts":1,"pid":1,"event":"task","details":"x"} x'; do
		umk_trace -s 1 chrome <<<"$line"
		assert_equal "$stderr" "umk-trace: <stdin>:1: not a line of umk's JSON trace (umk --trace-format=json)"
	done
	printf '{"ts":1,"pid":1,"event":"task","details":"\0"}\n' >"$f"
	umk_trace -s 1 timeline "$f"
	# an empty trace is a trace: nothing happened
	umk_trace chrome </dev/null
	assert_output '[]'
	umk_trace timeline </dev/null
	printf '%s\n' "$output" | xmllint --noout -
}

@test "umk-trace exits 3 when its output cannot be written" {
	umk --trace="$BATS_TEST_TMPDIR/t.jsonl" --trace-format=json $H/hello
	run --separate-stderr sh -c "$UMK_TRACE timeline $BATS_TEST_TMPDIR/t.jsonl >/dev/full"
	assert_equal "$status" 3
	assert_equal "$stderr" "umk-trace: writing stdout: No space left on device"
}
