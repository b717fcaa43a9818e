#!/usr/bin/env bats
# The system-call table: kernel/syscall_64.tbl is the one list of system
# calls, and make generates from it the __NR_* numbers, the call table,
# the names the trace and gdb print and the system-call fuzzer's list
# (build/include/generated/, by kernel/syscalltbl.sh).

load helper

TABLE=kernel/syscall_64.tbl
GEN=$B/include/generated

# table_lines: the table's lines without comments or blank lines.
table_lines() {
	sed 's/#.*//' "$TABLE" | awk 'NF'
}

@test "every generated __NR_ number is the host's (asm/unistd_64.h) for the same name" {
	local host=/usr/include/x86_64-linux-gnu/asm/unistd_64.h
	[[ -r $host ]] || skip "no $host"
	local ours theirs
	ours=$(awk '/^#define __NR_/ { print $2, $3 }' $GEN/unistd_64.h | sort)
	theirs=$(awk '/^#define __NR_/ { print $2, $3 }' $host | sort)
	# Every name both know has one number; spot-check some by hand too.
	run join <(echo "$ours") <(echo "$theirs")
	assert_success
	local bad
	bad=$(awk '$2 != $3' <<<"$output")
	[[ -z $bad ]] || fail "numbers differ from the host's: $bad"
	(( $(wc -l <<<"$output") >= 300 )) || fail "too few names in common: $output"
	for call in read:0 nanosleep:35 fork:57 arch_prctl:158 restart_syscall:219 \
		    clock_nanosleep:230 openat:257 ppoll:271 set_mempolicy_home_node:450; do
		grep -qx "#define __NR_${call%%:*} ${call##*:}" $GEN/unistd_64.h ||
			fail "__NR_${call%%:*} is not ${call##*:}"
		grep -qx "#define __NR_${call%%:*} ${call##*:}" $host ||
			fail "the host's __NR_${call%%:*} is not ${call##*:}"
	done
}

@test "the generated headers hold every line of the table, and nothing else" {
	local lines
	lines=$(table_lines | wc -l)
	assert_equal "$(grep -c '^#define __NR_' $GEN/unistd_64.h)" "$lines"
	assert_equal "$(grep -c '^__SYSCALL' $GEN/syscalls_64.h)" "$lines"
	assert_equal "$(table_lines | awk '$3 != "-"' | wc -l)" \
		"$(grep -c '^__SYSCALL(' $GEN/syscalls_64.h)"
	grep -qx '__SYSCALL(35, nanosleep, sys_nanosleep, "tp")' $GEN/syscalls_64.h
	grep -qx '__SYSCALL(39, getpid, sys_getpid, "")' $GEN/syscalls_64.h
	grep -qx '__SYSCALL_NOSYS(103, syslog)' $GEN/syscalls_64.h
	grep -qx "#define NR_syscalls $(( $(table_lines | tail -1 | awk '{ print $1 }') + 1 ))" \
		$GEN/unistd_64.h
}

@test "the fuzzer's list holds every implemented call of the table with its trace format" {
	local want
	want=$(table_lines | awk '$3 != "-" { printf "\t{ %s, \"%s\", \"%s\" },\n", $1, $2, $4 }')
	assert_equal "$(cat $GEN/fuzz_calls.h)" "$want"
	grep -qxF '	{ 35, "nanosleep", "tp" },' $GEN/fuzz_calls.h
	grep -qxF '	{ 39, "getpid", "-" },' $GEN/fuzz_calls.h
	refute grep -q '"syslog"' $GEN/fuzz_calls.h
}

@test "gdb's constants name every number of the table as the trace does" {
	local want got
	want=$(table_lines | awk '{ printf "%s: \"%s\",\n", $1, $2 }')
	got=$(sed -n '/^SYSCALLS = {$/,/^}$/p' $B/gdb/umk/constants.py | sed '1d;$d')
	assert_equal "$got" "$want"
}

@test "every unimplemented call of the table returns ENOSYS and is traced as nosys with its name" {
	local nrs
	nrs=$(table_lines | awk '$3 == "-" { print $1 }')
	(( $(wc -w <<<"$nrs") > 100 )) || fail "too few unimplemented calls: $nrs"
	# shellcheck disable=SC2086 # one argument per number
	umk --trace $H/sysnr $nrs 500
	assert_output "$(for nr in $nrs 500; do echo "$nr = -1 ENOSYS"; done)"
	local want got
	want=$(table_lines | awk '$3 == "-" { print "1 nosys " $2 }'; echo "1 nosys syscall_500")
	got=$(untimed "$stderr" | grep '^1 nosys ')
	assert_equal "$got" "$want"
}

@test "an implemented call is traced by its table name with its table format" {
	umk --trace $H/hello
	grep -qP '^1\twrite\t+sys_write\t+dbu$' $TABLE
	untimed "$stderr" | grep -qx '1 enter write(1, "hello, world\\n", 13)' ||
		fail "no decoded write in: $stderr"
}

# A copy of the tracked tree, in $TREE, whose table the test then breaks.
copy_tree() {
	TREE=$BATS_TEST_TMPDIR/tree
	mkdir -p "$TREE"
	git ls-files -z | xargs -0 cp --parents -p -t "$TREE"
}

# broken_table LINE REPLACEMENT: make in a copy of the tree whose table line
# LINE (a regex matching one line) is REPLACEMENT must fail with exactly one
# message from the generator, naming the table's line number.
broken_table() {
	copy_tree
	local n
	n=$(grep -nE "$1" "$TREE/$TABLE" | cut -d: -f1)
	[[ $n =~ ^[0-9]+$ ]] || fail "no single line matches $1"
	sed -i "${n}s/.*/$2/" "$TREE/$TABLE"
	run --separate-stderr make -C "$TREE" build/umk
	assert_failure
	local msgs
	msgs=$(grep "^$TABLE:" <<<"$stderr" || true)
	assert_equal "$(wc -l <<<"$msgs")" 1
	[[ $msgs == "$TABLE:$n: "* ]] || fail "the message does not name line $n: $stderr"
	refute [ -e "$TREE/$GEN/unistd_64.h" ]
	refute [ -e "$TREE/$GEN/syscalls_64.h" ]
	refute [ -e "$TREE/$GEN/fuzz_calls.h" ]
	MSG=$msgs
}

@test "a table line without its trace format makes the build fail, naming the line" {
	broken_table '^35\s' '35\tnanosleep\tsys_nanosleep'
	assert_equal "$MSG" "$TABLE:$(grep -n '^35\s' $TABLE | cut -d: -f1): an entry point needs a trace format (\"-\" for no arguments): \"35	nanosleep	sys_nanosleep\""
}

@test "a table line with a number out of order, a name used twice or a bad format makes the build fail" {
	broken_table '^36\s' '34\tgetitimer\t-'
	[[ $MSG == *"the number is not above the previous line's 35"* ]] || fail "$MSG"
	rm -rf "$TREE"
	broken_table '^36\s' '36\tnanosleep\t-'
	[[ $MSG == *"the name nanosleep is already the number 35"* ]] || fail "$MSG"
	rm -rf "$TREE"
	broken_table '^35\s' '35\tnanosleep\tsys_nanosleep\ttq'
	[[ $MSG == *"the trace format is not one to six of the letters"* ]] || fail "$MSG"
	rm -rf "$TREE"
	broken_table '^35\s' '35\tnanosleep\tnanosleep\ttp'
	[[ $MSG == *"the entry point is not sys_<name>"* ]] || fail "$MSG"
}
