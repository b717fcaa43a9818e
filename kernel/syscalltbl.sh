#!/bin/sh
# kernel/syscalltbl.sh: generates the system-call headers from
# kernel/syscall_64.tbl (its header comment describes the lines), as
# Linux's scripts/syscallhdr.sh and syscalltbl.sh do:
#
#	sh kernel/syscalltbl.sh TABLE OUTDIR
#
# writes OUTDIR/unistd_64.h (#define __NR_<name> <number>, and NR_syscalls,
# one past the highest number) and OUTDIR/syscalls_64.h (one line per call,
# __SYSCALL(number, name, entry, "format") or __SYSCALL_NOSYS(number, name),
# for whoever includes it to define the two macros) and OUTDIR/fuzz_calls.h
# (the system-call fuzzer's list, harness/fuzz/fuzz.c: one line per
# implemented call, { number, "name", "trace format" }, the format "-" for
# none). A malformed line makes it write nothing and exit 1 with one
# message naming the line.

set -e
table=$1
out=$2
if [ $# -ne 2 ] || [ ! -r "$table" ]; then
	echo "usage: $0 TABLE OUTDIR" >&2
	exit 2
fi

awk -v table="$table" -v unistd="$out/unistd_64.h.tmp" -v calls="$out/syscalls_64.h.tmp" \
	-v fuzz="$out/fuzz_calls.h.tmp" '
function fail(why) {
	printf "%s:%d: %s: \"%s\"\n", table, FNR, why, $0 > "/dev/stderr"
	failed = 1
	exit 1
}
BEGIN {
	gen = "generated from " table " by kernel/syscalltbl.sh: do not edit"
	last = -1
}
{
	sub(/#.*/, "")
}
NF == 0 {
	next
}
{
	if (NF != 3 && NF != 4)
		fail("expected <number> <name> <entry point> <trace format>, or <number> <name> -")
	if ($1 !~ /^[0-9]+$/)
		fail("the number is not a decimal number")
	nr = $1 + 0
	if (nr <= last)
		fail("the number is not above the previous line'"'"'s " last)
	if (nr >= 512)
		fail("the number is 512 or above (x32'"'"'s, not x86-64'"'"'s)")
	if ($2 !~ /^[a-z_][a-z0-9_]*$/)
		fail("the name is not a C identifier in lower case")
	if ($2 in seen)
		fail("the name " $2 " is already the number " seen[$2])
	if (NF == 3 && $3 != "-")
		fail("an entry point needs a trace format (\"-\" for no arguments)")
	if (NF == 4 && $3 !~ /^sys_[a-z0-9_]+$/)
		fail("the entry point is not sys_<name>, nor \"-\" alone for an unimplemented call")
	if (NF == 4 && $4 != "-" && ($4 !~ /^[duxopsbtScAFTamfC]+$/ || length($4) > 6))
		fail("the trace format is not one to six of the letters duxopsbtScAFTamfC, nor \"-\"")
	seen[$2] = nr
	last = nr
	names[nr] = $2
	entry[nr] = NF == 4 ? $3 : ""
	format[nr] = NF == 4 && $4 != "-" ? $4 : ""
	args[nr] = $4
}
END {
	if (failed)
		exit 1
	if (last < 0) {
		printf "%s: no system calls\n", table > "/dev/stderr"
		exit 1
	}
	printf "/* unistd_64.h: the system-call numbers, %s. */\n", gen > unistd
	print "#ifndef GENERATED_UNISTD_64_H" > unistd
	print "#define GENERATED_UNISTD_64_H\n" > unistd
	printf "/* syscalls_64.h: the system-call table, %s. */\n", gen > calls
	printf "" > fuzz
	for (nr = 0; nr <= last; nr++) {
		if (!(nr in names))
			continue
		printf "#define __NR_%s %d\n", names[nr], nr > unistd
		if (entry[nr] != "") {
			printf "__SYSCALL(%d, %s, %s, \"%s\")\n", nr, names[nr], entry[nr], format[nr] > calls
			printf "\t{ %d, \"%s\", \"%s\" },\n", nr, names[nr], args[nr] > fuzz
		} else
			printf "__SYSCALL_NOSYS(%d, %s)\n", nr, names[nr] > calls
	}
	printf "\n#define NR_syscalls %d\n\n#endif\n", last + 1 > unistd
}' "$table" || { rm -f "$out/unistd_64.h.tmp" "$out/syscalls_64.h.tmp" "$out/fuzz_calls.h.tmp"; exit 1; }
for f in unistd_64.h syscalls_64.h fuzz_calls.h; do
	mv "$out/$f.tmp" "$out/$f"
done
