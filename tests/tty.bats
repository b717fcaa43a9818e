#!/usr/bin/env bats
# The terminal: umk's console is a tty with its own line discipline and job
# control when its stdin is a terminal (docs/design.md, "The terminal").
# Each interactive test drives a real terminal, a tmux pane, through a
# scenario run twice: with busybox's shell on the host, and under umk; the
# two must show the same. A pane runs a host bash (the "outer" shell),
# from which the shell under test is started, so that what umk leaves of
# the terminal can be looked at after it exits. Waits poll the screen with
# a timeout; times are measured with wide windows (a shared, noisy host).

load helper

BB=/bin/busybox
PROMPT='bb$ '
PROMPT_RE="^bb\\$ "

setup() {
	command -v tmux >/dev/null || fail "tmux is missing: run make (it installs it)"
	[[ -x $BB ]] || fail "$BB is missing: run make (busybox-static)"
	D=$BATS_TEST_TMPDIR
	TM=umk-tty-$$-$BATS_TEST_NUMBER
	# the shell's prompt, from the file an interactive shell reads first
	printf "PS1='%s'\n" "$PROMPT" >"$D/shrc"
	# a wait that times out inside $(...) fails the test too
	shopt -s inherit_errexit
}

teardown() {
	tmux -L "$TM" kill-server 2>/dev/null || true
	# kill-server returns before the server has ended: a new session on
	# its socket meanwhile fails with "server exited unexpectedly"
	local i
	for ((i = 0; i < 100; i++)); do
		pgrep -f -- "-L $TM " >/dev/null || break
		sleep 0.02
	done
}

# screen: the pane's text, history included, wrapped lines joined, without
# the empty lines below the last one written.
screen() {
	tmux -L "$TM" capture-pane -p -J -S -200 -t 0 |
		awk '{ line[NR] = $0 } NF { last = NR } END { for (i = 1; i <= last; i++) print line[i] }'
}

# count REGEX: how many lines of the screen match.
count() {
	screen | grep -cE -- "$1" || true
}

# wait_count REGEX N [SECONDS]: until N lines of the screen match REGEX.
wait_count() {
	local deadline=$((SECONDS + ${3:-15}))
	while [[ $(count "$1") -lt $2 ]]; do
		if [[ $SECONDS -ge $deadline ]]; then
			screen >&2
			fail "timed out waiting for $2 lines matching '$1' (screen above)"
			return 1
		fi
		sleep 0.05
	done
}

# wait_for REGEX [SECONDS]: until a line matches.
wait_for() {
	wait_count "$1" 1 "${2:-15}"
}

# typeln TEXT: the keys of TEXT, then Enter; key KEY...: tmux key names.
typeln() {
	tmux -L "$TM" send-keys -t 0 -l -- "$1"
	tmux -L "$TM" send-keys -t 0 Enter
}
key() {
	tmux -L "$TM" send-keys -t 0 "$@"
}

# prompts: the lines where the shell under test prompted.
prompts() {
	count "$PROMPT_RE"
}

# start_pane: an 80x24 pane running the outer bash, waiting at its prompt.
start_pane() {
	tmux -L "$TM" -f /dev/null new-session -d -x 80 -y 24 \
		"env -i PATH=/usr/bin:/bin HOME=$D TERM=screen PS1='host\$ ' bash --norc --noprofile -i"
	tmux -L "$TM" set-option -g window-size manual >/dev/null
	wait_for '^host\$ '
}

# shell_cmd WHERE: the command line of the shell under test ($SH_TESTED:
# busybox's, or the host's bash) natively or under umk (with its trace in
# $D/trace and $D writable), its pid in $D/pid. The harness programs the
# scenarios run are under $ROOT, which umk's own /tmp would hide when the
# tree is a clone in /tmp: umk shows it too.
SH_TESTED="$BB sh"
shell_cmd() {
	local sh=$SH_TESTED
	[[ $1 == umk ]] && sh="$ROOT/$UMK --trace=$D/trace --rw $D --rw $ROOT/$B $SH_TESTED"
	echo "env ENV=$D/shrc bash -c 'echo \$\$ >$D/pid; exec $sh'"
}

# start_line WHERE: what to type at the outer shell to start the shell
# under test: a short line running shell_cmd's from a file, since a typed
# line that ends exactly at the pane's edge makes the prompt after it look
# like the same (wrapped) line. The file's sh execs it: the outer shell's
# job is the shell under test itself, as if typed.
start_line() {
	echo "exec $(shell_cmd "$1")" >"$D/start-$1"
	echo "cd $D; sh ./start-$1"
}

# start_shell WHERE: the shell under test in a new pane, at its prompt.
start_shell() {
	[[ $1 == native ]] || require_umk
	start_pane
	typeln "$(start_line "$1")"
	wait_for "$PROMPT_RE"
}

# now: seconds since the epoch, to the microsecond.
now() {
	echo "$EPOCHREALTIME"
}

# at T0 SECS: sleep until SECS after T0.
at() {
	local wait
	wait=$(awk -v t0="$1" -v s="$2" -v now="$EPOCHREALTIME" 'BEGIN { d = t0 + s - now; print (d > 0 ? d : 0) }')
	sleep "$wait"
}

# between X LO HI: LO <= X <= HI, or fail naming what X was.
between() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }' ||
		fail "$4: $1 s, expected between $2 and $3 s"
}

# ---- ^Z and fg: the restart of a stopped sleep ----

# stop_fg WHERE: sleep 2, ^Z after 0.5 s, jobs, fg 1.5 s after the start;
# prints the seconds from the start to the prompt after fg.
stop_fg() {
	start_shell "$1"
	local t0 t1 p
	t0=$(now)
	typeln "sleep 2"
	at "$t0" 0.5
	key C-z
	wait_for 'Stopped +sleep 2'
	typeln jobs
	wait_count 'Stopped +sleep 2$' 2
	at "$t0" 1.5
	p=$(prompts)
	typeln fg
	wait_count "$PROMPT_RE" $((p + 1))
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# stop_fg_both WHAT: stop_fg natively, then under umk: each sleep ends
# 1.8 to 2.6 s after it started, the screens are the same, and the trace
# (in $stderr, for trace_has) shows the sleep stopped inside
# clock_nanosleep and continued through restart_syscall with its deadline.
stop_fg_both() {
	local native_s umk_s
	native_s=$(stop_fg native)
	between "$native_s" 1.8 2.6 "natively, $1's sleep 2 stopped and continued took"
	screen >"$D/native.screen"
	teardown
	umk_s=$(stop_fg umk)
	between "$umk_s" 1.8 2.6 "under umk, $1's sleep 2 stopped and continued took"
	screen >"$D/umk.screen"
	# the shell showed the same: the stopped job, jobs, fg. The echo of ^Z
	# and the shell's report of the stopped job race (the shell may write
	# its carriage return before or after the echo: on a loaded host the
	# line once read "^Z[1]+  Stopped"), so an echo left before the report
	# is not compared.
	diff -u --label native --label umk \
		<(grep -v '^host\$' "$D/native.screen" | sed 's/^^Z\[/[/') \
		<(grep -v '^host\$' "$D/umk.screen" | sed 's/^^Z\[/[/') ||
		fail "the screens differ (diff above)"
	stderr=$(cat "$D/trace")
	trace_has 'restart clock_nanosleep ERESTART_RESTARTBLOCK -> restart_syscall \(no handler\)'
	trace_has 'restart restart_syscall -> hrtimer_nanosleep_restart'
}

@test "sleep 2, ^Z, jobs, fg: the sleep ends 2 s after it started, natively and under umk" {
	stop_fg_both "busybox sh"
	trace_has '^[0-9]+ signal SIGTSTP -> [0-9]+$'
	trace_has 'exit restart_syscall = 0'
}

@test "the host's bash, dynamically linked, on the terminal: sleep 2, ^Z, jobs, fg ends on time through restart_syscall, as natively" {
	# bash reads its prompt from the rc file instead of $ENV
	SH_TESTED="/bin/bash --noprofile --rcfile $D/shrc -i"
	stop_fg_both bash
	trace_has '^[0-9]+ task exec /usr/bin/sleep$|^[0-9]+ task exec /bin/sleep$'
}

# stop_cont WHERE: sleep 5 in the background, kill -STOP %1 at 1 s,
# kill -CONT %1 at 2 s, wait; prints the seconds from the start until the
# job said it was done. (busybox's shell does not ask wait4 for continued
# children, so it still takes the job for stopped after kill -CONT and its
# wait returns at once, natively too: the job tells its end itself.)
stop_cont() {
	start_shell "$1"
	local t0 t1
	t0=$(now)
	typeln "sleep 5 && echo slept &"
	wait_count "$PROMPT_RE" 2
	at "$t0" 1
	typeln "kill -STOP %1"
	wait_count "$PROMPT_RE" 3
	typeln jobs
	wait_for 'Stopped \(signal\) +sleep 5 && echo slept'
	at "$t0" 2
	typeln "kill -CONT %1"
	wait_count "$PROMPT_RE" 5
	typeln wait
	wait_for '(^|\$ )slept$' 20
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

@test "sleep 5 &, kill -STOP %1, kill -CONT %1, wait: it ends 5 s after it started, natively and under umk" {
	local native_s umk_s
	native_s=$(stop_cont native)
	between "$native_s" 4.8 5.8 "natively, sleep 5 stopped and continued took"
	teardown
	umk_s=$(stop_cont umk)
	between "$umk_s" 4.8 5.8 "under umk, sleep 5 stopped and continued took"
	stderr=$(cat "$D/trace")
	trace_has 'restart restart_syscall -> hrtimer_nanosleep_restart'
}

# ---- the line discipline ----

# cat_session WHERE: cat echoes lines and ends at ^D; ^C kills the next cat
# and the shell stays.
cat_session() {
	start_shell "$1"
	typeln cat
	wait_count '^bb\$ cat$' 1
	typeln "hello there"
	wait_count '^hello there$' 2
	# ^D after some bytes ends the line without a newline; a second ends
	# cat, and the prompt follows on that line
	key -l 'partial'
	key C-d
	wait_for '^partialpartial'
	key C-d
	wait_for '^partialpartialbb\$ $'
	typeln cat
	wait_for '^partialpartialbb\$ cat$'
	typeln "second"
	wait_count '^second$' 2
	key C-c
	wait_count "$PROMPT_RE" 2
	typeln "echo the shell is alive"
	wait_for '^the shell is alive$'
	screen | grep -v '^host\$'
}

# same_screen SCENARIO: run SCENARIO (a function of WHERE that prints
# the screen) natively, then under umk: $output is umk's screen, which
# must be the native one.
same_screen() {
	local native_screen
	native_screen=$("$1" native)
	teardown
	output=$("$1" umk)
	assert_equal "$output" "$native_screen"
}

@test "cat in the foreground: typed lines come back, ^D ends a line and then cat, ^C kills it and the shell stays" {
	same_screen cat_session
	grep -qx '\^C' <<<"$output" || fail "no ^C echoed"
	[[ $(grep -c '^hello there$' <<<"$output") == 2 ]] || fail "hello there is not echoed and written"
	stderr=$(cat "$D/trace")
	trace_has '^0 signal SIGINT -> [0-9]+$'
}

# edit_session WHERE: erase, word erase, kill and literal next in a
# canonical read (the shell's read builtin reads the tty as it is).
edit_session() {
	start_shell "$1"
	typeln 'read a; read b; read c; echo "a=[$a] b=[$b] c=[$c]"'
	wait_count '^bb\$ read' 1
	key -l 'hellp'
	key BSpace
	typeln 'o'
	key -l 'one two'
	key C-w
	typeln 'three'
	key -l 'junk junk'
	key C-u
	typeln 'ok'
	wait_for '^a=\[hello\] b=\[one three\] c=\[ok\]$'
	screen | grep -v '^host\$'
}

@test "erase, word erase and kill edit a canonical line as on Linux" {
	same_screen edit_session
}

# raw_session WHERE: reads without ICANON under VMIN and VTIME.
raw_session() {
	start_shell "$1"
	typeln "$ROOT/$H/ttyraw"
	wait_for '^VMIN 0 VTIME 5: read 0 \[\] after the timer$'
	wait_for '^VMIN 3 VTIME 0: waiting for 3$'
	key -l abc
	wait_for '^VMIN 3 VTIME 0: read 3 \[abc\]'
	wait_for '^VMIN 5 VTIME 3: waiting'
	key -l xy
	wait_for '^VMIN 5 VTIME 3: read 2 \[xy\] after the timer$'
	wait_for '^VMIN 0 VTIME 0: read 0 \[\]'
	wait_count "$PROMPT_RE" 2
	screen | grep -v '^host\$'
}

@test "raw reads follow VMIN and VTIME as on Linux" {
	same_screen raw_session
}

# flow_session WHERE: ^S stops output, echoes included, ^Q starts it.
flow_session() {
	start_shell "$1"
	typeln cat
	wait_count '^bb\$ cat$' 1
	key C-s
	typeln "held back"
	sleep 0.5
	grep -q 'held back' <<<"$(screen)" && { screen >&2; fail "output went on after ^S"; }
	key C-q
	wait_count '^held back$' 2
	key C-d
	wait_count "$PROMPT_RE" 2
	screen | grep -v '^host\$'
}

@test "^S stops the terminal's output, echoes included, and ^Q starts it again" {
	same_screen flow_session
}

@test "a background cat that reads the terminal is stopped by SIGTTIN, natively and under umk" {
	local where
	for where in native umk; do
		teardown
		start_shell $where
		typeln "cat &"
		wait_count "$PROMPT_RE" 2
		typeln jobs
		wait_for 'Stopped \(tty input\) +cat$'
		typeln "kill -9 %1"
		wait_count "$PROMPT_RE" 4
	done
	stderr=$(cat "$D/trace")
	trace_has 'signal SIGTTIN -> [0-9]+$'
	trace_has 'deliver SIGTTIN -> stop'
}

@test "with stty tostop a background write is stopped by SIGTTOU, natively and under umk" {
	local where
	for where in native umk; do
		teardown
		start_shell $where
		typeln "stty tostop; echo from the background &"
		wait_count "$PROMPT_RE" 2
		typeln jobs
		wait_for 'Stopped \(tty output\) +echo from the background$'
		typeln "stty -tostop; fg"
		wait_for '^from the background$'
	done
	stderr=$(cat "$D/trace")
	trace_has 'deliver SIGTTOU -> stop'
}

# stty_session WHERE: stty -a, raw and sane, read with a timeout; results
# in $D/WHERE.start, .raw, .sane, .screen.
stty_session() {
	start_shell "$1"
	typeln "stty -a >start; stty raw; stty -a >raw; stty sane; stty -a >sane"
	wait_count "$PROMPT_RE" 2
	typeln "read -t 1 x; echo \"read -t status \$?\""
	wait_for '^read -t status [0-9]+$'
	typeln 'read -t 10 x; echo "read [$x]"'
	wait_count '^bb\$ read -t 10' 1
	typeln 'typed in time'
	wait_for '^read \[typed in time\]$'
	screen | grep -v '^host\$' >"$D/$1.screen"
	local f
	for f in start raw sane; do mv "$D/$f" "$D/$1.$f"; done
}

@test "stty -a, stty raw and stty sane, read -t: as on the host" {
	stty_session native
	teardown
	stty_session umk
	local f
	for f in start raw sane screen; do
		diff -u --label native --label umk "$D/native.$f" "$D/umk.$f" ||
			fail "$f differs (diff above)"
	done
	grep -q -- '-icanon' "$D/umk.raw" && grep -q -- '-isig' "$D/umk.raw" && grep -q -- '-opost' "$D/umk.raw" ||
		fail "stty raw did not take: $(cat "$D/umk.raw")"
	grep -q -- ' icanon' "$D/umk.sane" && grep -q -- '^isig\| isig' "$D/umk.sane" ||
		fail "stty sane did not take: $(cat "$D/umk.sane")"
}

@test "resizing the terminal sends SIGWINCH, and TIOCGWINSZ gives the new size" {
	local where
	for where in native umk; do
		teardown
		start_shell $where
		typeln "$ROOT/$H/winch"
		wait_for '^size rows=24 cols=80$'
		tmux -L "$TM" resize-window -t 0 -x 100 -y 30
		wait_for '^SIGWINCH rows=30 cols=100$'
		typeln "stty size"
		wait_for '^30 100$'
	done
	stderr=$(cat "$D/trace")
	trace_has 'signal SIGWINCH -> [0-9]+$'
}

@test "the job-control ioctls give a process on the terminal Linux's answers" {
	local where
	for where in native umk; do
		teardown
		start_shell $where
		typeln "$ROOT/$H/ttyioctls job >$where.out 2>&1; echo done \$?"
		wait_for '^done 0$'
		# the shell's terminal in /proc/PID/stat: tty_nr
		typeln "cut -d' ' -f7 /proc/\$\$/stat >$where.tty_nr"
		wait_count "$PROMPT_RE" 3
	done
	diff -u --label native --label umk "$D/native.out" "$D/umk.out" || fail "they differ (diff above)"
	[[ $(cat "$D/umk.tty_nr") != 0 && $(cat "$D/umk.tty_nr") == "$(cat "$D/native.tty_nr")" ]] ||
		fail "tty_nr $(cat "$D/umk.tty_nr") under umk, $(cat "$D/native.tty_nr") natively"
	run cat "$D/umk.out"
	assert_line 'TIOCSPGRP -1 = -1 EINVAL'
	assert_line 'TIOCSPGRP no such group = -1 ESRCH'
	assert_line 'child TIOCGPGRP = ENOTTY'
	assert_line 'child TIOCSCTTY (taken) = EPERM'
	assert_line 'open /dev/tty after TIOCNOTTY = -1 ENXIO'
}

@test "every ioctl of the line discipline is ENOTTY on a file that is no terminal, natively and under umk" {
	same_as_native -i 'echo input' $H/ttyioctls
	[[ $(grep -c ' = -1 ENOTTY$' <<<"$output") == 45 ]] || fail "not 45 ENOTTY lines"
}

# ---- leaving: the host terminal as it was ----

# leave WHERE HOW: start the shell from the outer bash, leave it by HOW
# (exit, eof, or a signal name sent to it from outside), then compare the
# host terminal's settings before and after.
leave() {
	[[ $1 == native ]] || require_umk
	start_pane
	typeln "stty -a >$D/$1.$2.before"
	wait_count '^host\$ ' 2
	typeln "$(start_line "$1"); echo \"status \$?\""
	wait_for "$PROMPT_RE"
	case $2 in
	exit) typeln exit ;;
	eof) key C-d ;;
	*) kill -s "$2" "$(cat "$D/pid")" ;;
	esac
	# (after the prompt of the shell umk ran, which a signal gave no newline)
	wait_for 'status [0-9]+$'
	typeln "stty -a >$D/$1.$2.after; echo the terminal works"
	wait_for '^the terminal works$'
	diff -u "$D/$1.$2.before" "$D/$1.$2.after" || fail "$1, $2: the terminal's settings changed"
	screen | sed -n 's/^.*status \([0-9]*\)$/\1/p'
}

# sigio_session WHERE: O_ASYNC on the terminal (harness/progs/fcntl.c's
# sigio-tty): a partial line brings no SIGIO, its end does.
sigio_session() {
	start_shell "$1"
	typeln "$ROOT/$H/fcntl sigio-tty"
	wait_for '^type a line$'
	key -l 'hel'
	sleep 0.3
	typeln 'lo'
	wait_for '^F_SETFL without O_ASYNC'
	typeln "echo the shell is alive"
	wait_for '^the shell is alive$'
	screen | grep -v '^host\$'
}

@test "O_ASYNC on the terminal: its foreground group owns it, and a typed line brings SIGIO" {
	same_screen sigio_session
	grep -qx '  -> 1 x SIGIO, si_code SI_KERNEL' <<<"$output" || fail "no SIGIO"
	grep -qx '  6 bytes' <<<"$output" || fail "SIGIO came before the whole line"
	grep -qx 'read: hello' <<<"$output" || fail "the line was not read"
	grep -qx 'F_GETOWN is -getpgrp() (the foreground group) = 1' <<<"$output" ||
		fail "the terminal's owner is not the foreground group"
}

@test "leaving the shell by exit or ^D gives the host terminal back as it was" {
	output=$(leave native exit)
	assert_equal "$output" 0
	teardown
	output=$(leave umk exit)
	assert_equal "$output" 0
	teardown
	output=$(leave umk eof)
	assert_equal "$output" 0
}

@test "umk sent SIGTERM or SIGHUP hangs its terminal up: the shell dies of SIGHUP and the host terminal is as it was" {
	# natively a terminal's hangup is SIGHUP to the shell
	output=$(leave native HUP)
	assert_equal "$output" 129
	teardown
	output=$(leave umk TERM)
	assert_equal "$output" 129
	teardown
	output=$(leave umk HUP)
	assert_equal "$output" 129
	stderr=$(cat "$D/trace")
	trace_has '^0 signal SIGHUP from the host -> the terminal$'
	trace_has '^0 signal SIGHUP -> 1$'
	trace_has '^0 signal SIGCONT -> 1'
}

@test "umk killed by a program's signal gives the host terminal back too" {
	require_umk
	start_pane
	typeln "stty -a >$D/before; $ROOT/$UMK $ROOT/$H/nullderef; echo \"status \$?\"; stty -a >$D/after"
	wait_for '^status 139$'
	wait_count '^host\$ ' 2
	diff -u "$D/before" "$D/after" || fail "the terminal's settings changed"
}

@test "make shell runs busybox's shell under umk with job control on" {
	require_umk
	start_pane
	typeln "cd $ROOT; make -s shell BUILD=$B TRACE=$D/trace"
	wait_for "^Enter 'help' for a list of built-in commands"
	typeln 'echo "options $-"; exit'
	wait_for '^options [a-z]*m'
	wait_count '^host\$' 2
	! grep -q "can't access tty" <<<"$(screen)" || fail "job control is off: $(screen)"
	[[ -s $D/trace ]] || fail "TRACE=FILE wrote no trace"
}

# strace_stop_fg WHERE: the host's strace -f of sleep 2 on the terminal (as
# a grandchild in a process group of its own: -DD),
# ^Z after 0.5 s, fg at 1.5 s, its lines in $D/strace-WHERE.
strace_stop_fg() {
	start_shell "$1"
	local t0 p
	t0=$(now)
	typeln "/usr/bin/strace -DD -f -qq -o $D/strace-$1 -e trace=nanosleep,clock_nanosleep,restart_syscall -e signal=SIGTSTP,SIGCONT $BB sleep 2"
	at "$t0" 0.5
	key C-z
	wait_for 'Stopped'
	at "$t0" 1.5
	p=$(prompts)
	typeln fg
	wait_count "$PROMPT_RE" $((p + 1))
	teardown
}

@test "strace -f on the terminal: sleep 2, ^Z, fg shows ERESTART_RESTARTBLOCK, the terminal's SIGTSTP, the stop, SIGCONT and restart_syscall, as natively" {
	[[ -x /usr/bin/strace ]] || skip "no /usr/bin/strace on this host"
	strace_stop_fg native
	strace_stop_fg umk
	diff -u --label native --label umk <(strace_lines "$D/strace-native") \
		<(strace_lines "$D/strace-umk") || fail "strace's lines under umk differ from the native run's (diff above)"
	output=$(strace_lines "$D/strace-umk")
	# strace -DD runs in a process group of its own, out of the job ^Z
	# stops: it sees sleep's SIGTSTP from the terminal and its stop
	assert_output 'M clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=2, tv_nsec=0}, {LEFT}) = ? ERESTART_RESTARTBLOCK (Interrupted by signal)
M --- SIGTSTP {si_signo=SIGTSTP, si_code=SI_KERNEL} ---
M --- stopped by SIGTSTP ---
M --- SIGCONT {si_signo=SIGCONT, si_code=SI_USER, si_pid=PID, si_uid=0} ---
M restart_syscall(<... resuming interrupted clock_nanosleep ...>) = 0'
}
