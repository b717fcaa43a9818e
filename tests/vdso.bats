#!/usr/bin/env bats
# The vDSO (docs/design.md, "The vDSO"): AT_SYSINFO_EHDR points at an ELF
# image whose clock_gettime, gettimeofday, time, clock_getres and getcpu
# answer without a system call, and say what the system calls say, on both
# clocks and both FS base paths.

load helper

# count_calls FILE NAME: how many NAME system calls the trace FILE shows.
count_calls() {
	grep -c " enter $2(" "$1" || true
}

@test "AT_SYSINFO_EHDR's image exports the five functions with version LINUX_2.6" {
	local p
	for p in "" --nofsgsbase; do
		same_as_native $p $H/vdso syms
		refute_output --partial missing
		assert_line '__vdso_clock_gettime@LINUX_2.6: found'
	done
}

@test "a musl program's clock_gettime in a loop makes no clock_gettime system call" {
	local p c n
	for p in "" --nofsgsbase; do
		for c in host virtual; do
			umk $p --clock=$c --trace="$BATS_TEST_TMPDIR/t" $H/vdso loop 5000
			assert_output --partial '(5000 calls)'
			# the program's own two raw reads of the time around the loop
			n=$(count_calls "$BATS_TEST_TMPDIR/t" clock_gettime)
			[[ $n -eq 2 ]] || fail "$n clock_gettime calls trapped with $p --clock=$c"
		done
	done
}

@test "the vDSO answers as the system calls do, on both clocks and both FS base paths" {
	local p c
	for p in "" --nofsgsbase; do
		for c in host virtual; do
			same_as_native $p --clock=$c $H/vdso check
			assert_line 'monotonic never goes back across vDSO and system call reads: yes'
			assert_line 'clock_getres matches the system call for clocks -1..15'
			refute_output --partial ': no'
			refute_output --partial '): system call'
		done
	done
}

@test "under --clock=virtual the vDSO's time is exactly the system call's" {
	local p
	for p in "" --nofsgsbase; do
		umk $p --clock=virtual $H/vdso exact
		assert_output "the vDSO's clocks equal the system call's: yes"
	done
	# the check can fail: on the host's clock the two reads differ
	umk $H/vdso exact
	assert_output "the vDSO's clocks equal the system call's: no"
}

@test "a glibc static program uses the vDSO too" {
	command -v gcc >/dev/null || skip "no gcc"
	cat >"$BATS_TEST_TMPDIR/g.c" <<'EOF_C'
#include <stdio.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec ts;
	long sum = 0;

	write(1, "start\n", 6);
	for (int i = 0; i < 5000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += ts.tv_nsec & 1;
	}
	write(1, "end\n", 4);
	printf("AT_SYSINFO_EHDR: %s\n", getauxval(AT_SYSINFO_EHDR) ? "set" : "unset");
	return sum < 0;
}
EOF_C
	gcc -static -O1 -o "$BATS_TEST_TMPDIR/g" "$BATS_TEST_TMPDIR/g.c" 2>/dev/null \
		|| skip "no static glibc here (gcc -static fails)"
	same_as_native --trace="$BATS_TEST_TMPDIR/t" "$BATS_TEST_TMPDIR/g"
	assert_line 'AT_SYSINFO_EHDR: set'
	# between the two writes (glibc's startup may read the clock before
	# it has found the vDSO)
	run sed -n '/enter write(1, "start/,/enter write(1, "end/p' "$BATS_TEST_TMPDIR/t"
	assert_output --partial 'start'
	refute_output --partial 'enter clock_gettime'
}

@test "gdb names the vDSO's functions and unwinds through them" {
	require_umk
	command -v gdb >/dev/null || skip "no gdb"
	run timeout 60 gdb -q -batch -x harness/gdb/umk.gdb \
		-ex 'break sys_clock_gettime if which_clock == 12345' -ex run -ex umk-vdso -ex bt \
		--args "$UMK" $H/vdso check
	# umk-vdso (harness/gdb/umk/vdso.py) loads the symbols; the frame
	# above is the program's (which gdb has no symbols for)
	assert_line --regexp '^#5  __vdso_clock_gettime \(clock=12345, .*\) at arch/vdso/vclock_gettime.c:[0-9]+$'
	assert_line --regexp '^#6  0x[0-9a-f]+ in '
}

@test "/proc/self/maps shows the vDSO where AT_SYSINFO_EHDR says, and its data page, as natively" {
	same_as_native $H/vdso maps
	assert_output '[vdso] at AT_SYSINFO_EHDR, executable: yes; [vvar]: yes'
}
