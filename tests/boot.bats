#!/usr/bin/env bats
# Booting: the command line, loading programs, and every bad input rejected
# with one stderr line and its documented status.

load helper

# bad_input STATUS FILE [WORDS]: umk FILE must exit STATUS after exactly one
# stderr line that starts with "umk: " and names FILE, and print nothing.
bad_input() {
	local want=$1 file=$2
	umk -s "$want" "$file"
	assert_output ''
	[[ $stderr != *$'\n'* ]] || fail "more than one stderr line: $stderr"
	[[ $stderr == "umk: "*"$file"* ]] || fail "stderr does not start with 'umk: ' and name $file: $stderr"
}

@test "umk runs hello and exits with its status" {
	umk $H/hello
	assert_output 'hello, world'
	assert_equal "$stderr" ''
}

@test "hello under umk prints the same as run natively, arguments included" {
	same_as_native $H/hello one 'two words' ''
	assert_line --index 2 'two words'
}

@test "umk exits with the program's exit status" {
	umk -s 0 $H/exitcode 0
	umk -s 3 $H/exitcode 3
	umk -s 255 $H/exitcode 255
}

@test "a program killed by a signal makes umk exit 128 plus the signal number" {
	umk -s 143 $H/waitstatus child term
	umk -s 137 $H/waitstatus child kill
}

@test "umk exits when the first task exits, killing the others" {
	local t0=$SECONDS
	umk -s 4 $H/orphan
	assert_output 'parent exits'
	(( SECONDS - t0 < 4 )) || fail "umk waited for the sleeping child"
}

@test "the initial stack and auxiliary vector are laid out as Linux does" {
	same_as_native $H/auxv
	refute_output --partial ': no'
}

@test "umk --version prints its version" {
	umk --version
	assert_output 'umk 0.1.0'
	assert_equal "$stderr" ''
}

@test "umk --help prints usage to stdout and exits 0" {
	umk --help
	assert_output --partial 'PROGRAM'
	assert_output --partial '--trace'
	assert_equal "$stderr" ''
}

@test "umk without a program is a usage error" {
	umk -s 2
	assert_output ''
	[[ $stderr == umk:* ]] || fail "stderr: $stderr"
}

@test "an unknown option is a usage error" {
	umk -s 2 --bogus $H/hello
	assert_output ''
	[[ $stderr == umk:* ]] || fail "stderr: $stderr"
}

@test "a missing program is exit 127 with one error line" {
	bad_input 127 "$BATS_TEST_TMPDIR/no-such-program"
}

@test "a directory is exit 126 with one error line" {
	bad_input 126 "$BATS_TEST_TMPDIR"
}

@test "a text file is rejected as not an ELF file" {
	local f=$BATS_TEST_TMPDIR/text
	printf 'just some text\nthat is long enough to be read as a header by mistake\n%.0s' {1..10} >"$f"
	chmod +x "$f"
	bad_input 126 "$f"
	assert_equal "$stderr" "umk: $f: not an ELF file"
}

@test "an ELF file for another machine is rejected" {
	local f=$BATS_TEST_TMPDIR/i386
	cp $H/hello "$f"
	printf '\003\000' | dd of="$f" bs=1 seek=18 conv=notrunc status=none	# e_machine = EM_386
	bad_input 126 "$f"
}

@test "a dynamically linked program whose loader is missing is rejected, naming the loader" {
	bad_input 127 $B/dyn/badinterp
	assert_equal "$stderr" "umk: $B/dyn/badinterp: its interpreter /no/such/ld-linux-x86-64.so.2: no such file"
}

@test "a truncated ELF file is rejected" {
	local f=$BATS_TEST_TMPDIR/truncated
	head -c 200 $H/hello >"$f"
	bad_input 126 "$f"
}

@test "an ELF file whose program headers run past its end is rejected" {
	local f=$BATS_TEST_TMPDIR/phnum
	cp $H/hello "$f"
	printf '\377\377' | dd of="$f" bs=1 seek=56 conv=notrunc status=none	# e_phnum = 65535
	bad_input 126 "$f"
}

@test "a program that needs more memory than umk can give is rejected" {
	local f=$BATS_TEST_TMPDIR/huge
	cp $H/hello "$f"
	python3 - "$f" <<'PY'
import struct, sys
f = open(sys.argv[1], 'r+b')
elf = f.read()
phoff, = struct.unpack_from('<Q', elf, 32)
phentsize, phnum = struct.unpack_from('<HH', elf, 54)
for i in range(phnum):
    off = phoff + i * phentsize
    if struct.unpack_from('<I', elf, off)[0] == 1:  # PT_LOAD: p_memsz at +40
        f.seek(off + 40)
        f.write(struct.pack('<Q', 1 << 40))
        break
else:
    sys.exit('no PT_LOAD')
PY
	bad_input 126 "$f"
}

@test "the program's system calls trap as SIGSYS from Syscall User Dispatch" {
	require_umk
	run --separate-stderr timeout -k 5 "$UMK_TIMEOUT" strace -f -e trace=none -e signal=SIGSYS $UMK $H/hello
	assert_success
	assert_output 'hello, world'
	grep -E 'SIGSYS.*si_code=SYS_USER_DISPATCH.*si_syscall=__NR_write' <<<"$stderr" ||
		fail "no SIGSYS for the program's write in: $stderr"
	grep -E 'SIGSYS.*si_code=SYS_USER_DISPATCH.*si_syscall=__NR_exit_group' <<<"$stderr" ||
		fail "no SIGSYS for the program's exit_group in: $stderr"
}

@test "umk takes its host thread out of glibc's rseq before the first trap (the host would update the area at each one)" {
	require_umk
	run --separate-stderr timeout -k 5 "$UMK_TIMEOUT" strace -e trace=rseq,prctl $UMK $H/hello
	assert_success
	assert_output 'hello, world'
	# glibc's registration, then umk's unregistration, then SUD switched on
	local calls
	calls=$(grep -E '^(rseq|prctl\(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON).* = 0$' <<<"$stderr" |
		sed -E 's/^(rseq|prctl)\(.*, (0|0x1|RSEQ_FLAG_UNREGISTER), 0x53053053\) = 0$/\1 \2/; s/^prctl.*/sud on/')
	assert_equal "$calls" $'rseq 0\nrseq 0x1\nsud on'
}

@test "a host without Syscall User Dispatch gets one clear line and status 125" {
	# tests/unit/nosud.c fakes such a host: prctl(PR_SET_SYSCALL_USER_DISPATCH)
	# fails with EINVAL, as on a kernel built without it.
	run --separate-stderr timeout 20 $B/tests/nosud $UMK $H/hello
	assert_equal "$status" 125
	assert_equal "$output" ""
	assert_equal "$stderr" "umk: this host lacks Syscall User Dispatch (Linux 5.11 or later with CONFIG_GENERIC_ENTRY): Invalid argument"
}

@test "a --trace file that cannot be created is a usage error naming it" {
	umk -s 2 --trace=/nonexistent/dir/trace $H/hello
	assert_output ""
	assert_equal "$stderr" "umk: /nonexistent/dir/trace: No such file or directory"
}
