#!/usr/bin/env bats
# `make run`'s demo: one nanosleep stopped, continued and resumed through
# restart_syscall; another interrupted by a handled signal, returning EINTR
# with the time left.

load helper

DEMO='demo: two tasks sleep 500 ms each
demo: at 100 ms, SIGSTOP to stopper, SIGUSR1 to handled
handled: SIGUSR1 handler ran at 100 ms
handled: nanosleep(500 ms) = -1 EINTR at 100 ms, 400 ms left
demo: at 300 ms, SIGCONT to stopper
stopper: nanosleep(500 ms) = 0 at 500 ms, rmtp says 400 ms were left
demo: stopper exit 0, handled exit 0'

@test "the demo tells the same story natively and under umk" {
	same_as_native $H/demo
	assert_output "$DEMO"
}

@test "the demo's trace shows both ways back from the interrupted sleep" {
	umk --trace $H/demo
	assert_output "$DEMO"
	local t
	t=$(untimed "$stderr")
	grep -qE '^2 deliver SIGSTOP -> stop$' <<<"$t" || fail "no stop in: $t"
	grep -qE '^3 restart nanosleep ERESTART_RESTARTBLOCK -> EINTR \(handler\)$' <<<"$t" ||
		fail "no EINTR decision in: $t"
	grep -qE '^3 deliver SIGUSR1 -> handler ' <<<"$t" || fail "no handler frame in: $t"
	grep -qE '^3 deliver sigreturn' <<<"$t" || fail "no sigreturn in: $t"
	grep -qE '^2 restart nanosleep ERESTART_RESTARTBLOCK -> restart_syscall \(no handler\)$' <<<"$t" ||
		fail "no restart_syscall decision in: $t"
	grep -qE '^2 restart restart_syscall -> hrtimer_nanosleep_restart$' <<<"$t" ||
		fail "no continuation in: $t"
	grep -qE '^2 exit restart_syscall = 0$' <<<"$t" || fail "restart_syscall did not return 0: $t"
}

@test "make run tells the demo's story with its trace and draws its timeline" {
	require_umk
	rm -f build/demo.svg
	run --separate-stderr timeout -k 5 120 make -s run
	assert_success
	assert_output --partial "$DEMO"
	assert_output --partial 'make: the run'"'"'s timeline is build/demo.svg'
	grep -qE ' 2 restart restart_syscall -> hrtimer_nanosleep_restart$' <<<"$stderr" \
		|| fail "no trace on stderr: $stderr"
	xmllint --noout build/demo.svg
	grep -qF 'restart_syscall &#x2192; hrtimer_nanosleep_restart' build/demo.svg
}
