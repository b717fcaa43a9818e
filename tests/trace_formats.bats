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
