#!/usr/bin/env bats
# The ELF loader's header checks (kernel/fs/binfmt_elf.c) on broken programs:
# those tests/fuzz/elf_seeds.py generates, one per check, and what make fuzz
# found (tests/elf-regress/). build/tests/elf_replay runs the checks outside
# umk (tests/fuzz/elf_fuzz.c); umk must refuse each such program with the
# same reason, status 126 and no oops.

load helper

# replay_under_umk FILE...: each FILE the checks refuse, umk refuses with
# "umk: FILE: <the same reason>"; one the checks accept must not oops umk.
# The files are run from executable copies.
replay_under_umk() {
	local line f why dir=$BATS_TEST_TMPDIR/replay n=$#
	mkdir -p "$dir"
	cp "$@" "$dir/"
	chmod +x "$dir"/*
	run --separate-stderr timeout 20 build/tests/elf_replay "$dir"/*
	assert_success
	[[ ${#lines[@]} -eq $n ]] || fail "elf_replay printed ${#lines[@]} lines for $n files: $output"
	for line in "${lines[@]}"; do
		f=${line%%: *}
		why=${line#*: }
		if [[ $why == ok ]]; then
			# loaded: it may run, fault or miss its interpreter (127),
			# a status Bats's run would warn of
			status=0
			timeout -k 5 20 $UMK "$f" </dev/null >/dev/null 2>"$dir.err" || status=$?
			stderr=$(<"$dir.err")
			[[ $status -ne 125 && $stderr != *oops* ]] || fail "umk failed on $f: $stderr"
			continue
		fi
		run --separate-stderr timeout -k 5 20 $UMK "$f" </dev/null
		[[ $status -eq 126 ]] || fail "umk $f: status $status, expected 126: $stderr"
		[[ $stderr == "umk: $f: $why" ]] || fail "umk $f: '$stderr', expected 'umk: $f: $why'"
	done
}

@test "the header checks accept the harness programs" {
	run --separate-stderr build/tests/elf_replay $H/hello $H/demo $H/fuzz
	assert_success
	assert_output "$H/hello: ok
$H/demo: ok
$H/fuzz: ok"
}

@test "each broken program fails the check it breaks, outside umk and under it with the same reason" {
	require_umk
	local s=build/tests/elf-seeds
	run --separate-stderr build/tests/elf_replay $s/truncated-19 $s/class32 $s/big-endian \
		$s/phnum-100 $s/phoff-wraps $s/offset-wraps $s/memsz-wraps $s/overlap \
		$s/entry-outside $s/memsz-huge $s/interp $s/interp-nonul $s/text
	assert_success
	assert_output "$s/truncated-19: truncated or inconsistent ELF headers: file ends inside the ELF header
$s/class32: not an x86-64 executable (32-bit ELF)
$s/big-endian: not an x86-64 executable (big-endian ELF)
$s/phnum-100: truncated or inconsistent ELF headers: 100 program headers, too many
$s/phoff-wraps: truncated or inconsistent ELF headers: program headers beyond the end of the file
$s/offset-wraps: truncated or inconsistent ELF headers: segment 0 extends beyond the end of the file
$s/memsz-wraps: truncated or inconsistent ELF headers: segment 0 outside the user address space
$s/overlap: truncated or inconsistent ELF headers: segment 1 overlaps or precedes segment 0
$s/entry-outside: truncated or inconsistent ELF headers: entry point 0x400000000000 outside every PT_LOAD segment
$s/memsz-huge: needs 1026 MiB, more than umk can give (1024 MiB)
$s/interp: ok
$s/interp-nonul: truncated or inconsistent ELF headers: PT_INTERP is not one NUL-terminated path
$s/text: not an ELF file"
	replay_under_umk build/tests/elf-seeds/*
}

@test "every input make fuzz found (tests/elf-regress/) is refused cleanly, outside umk and under it" {
	require_umk
	replay_under_umk tests/elf-regress/*
}
