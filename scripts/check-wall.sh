#!/bin/sh
# scripts/check-wall.sh: the wall around kernel/ (docs/design.md, "The FS
# base"), checked on umk's objects before make links them:
#
#	sh scripts/check-wall.sh BUILD FILE...
#
# Each FILE is one of umk's objects (*.o: all of them, those below
# BUILD/kernel/ being kernel/'s) or one of arch/'s sources (*.c, *.h, *.S).
# The environment gives the lists of symbols, each separated by blanks:
#
#	WALL_HOST_SYMBOLS	what kernel/'s objects may take from outside umk
#				(C library functions that touch no thread-local
#				state, and the sanitizers' or gcov's entries)
#	WALL_UBSAN_HANDLERS	the UBSan handlers umk may call (arch/ubsan.c
#				wraps them: the Makefile's UBSAN_HANDLERS)
#	WALL_ASAN_WRAPPED	the ASan runtime functions umk may call that
#				arch/asan.c wraps (the Makefile's ASAN_WRAPPED)
#
# The rules, in order; the first one broken ends the check with one line on
# stderr and status 1:
#   - kernel/'s objects take from outside umk only WALL_HOST_SYMBOLS;
#   - no object has a %fs operand (only glibc and user programs use %fs);
#   - arch/'s sources include of umk's headers only its interface with the
#     kernel: os.h (what arch/ offers the kernel), kernel.h (kmalloc, kfree,
#     panic), entry.h, ptrace.h, fpu.h and the user ABI (uapi/);
#   - umk calls no UBSan handler that WALL_UBSAN_HANDLERS lacks;
#   - umk calls no ASan report or no-return function that WALL_ASAN_WRAPPED
#     lacks.
# Status 0 when all hold, 2 on a usage error.

set -e
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD FILE..." >&2
	exit 2
fi
build=${1%/}
shift
objs='' kobjs='' srcs=''
for f; do
	case $f in
	"$build"/kernel/*.o) kobjs="$kobjs $f"; objs="$objs $f" ;;
	*.o) objs="$objs $f" ;;
	*.c | *.h | *.S) srcs="$srcs $f" ;;
	*) echo "$0: $f: neither an object nor an arch/ source" >&2; exit 2 ;;
	esac
done

# -e PATTERN for each word of $1, for grep -vxF.
patterns() {
	for s in $1; do printf ' -e %s' "$s"; done
}

# refuse BAD BEFORE [AFTER]: unless the list BAD is empty, fail with one
# line: BEFORE, BAD's words and AFTER.
refuse() {
	[ -z "$1" ] && return 0
	echo "make: $2 $(printf '%s\n' "$1" | paste -sd ' ')$3" >&2
	exit 1
}

if [ -n "$kobjs" ]; then
	defined=$(mktemp)
	trap 'rm -f "$defined"' EXIT
	# shellcheck disable=SC2086 # lists of words
	nm --defined-only $objs | awk 'NF == 3 { print $3 }' | sort -u > "$defined"
	# shellcheck disable=SC2046,SC2086
	bad=$(nm -u $kobjs | awk 'NF == 2 { print $2 }' | sort -u | comm -23 - "$defined" |
		grep -vxF -e _GLOBAL_OFFSET_TABLE_ $(patterns "$WALL_HOST_SYMBOLS") || true)
	refuse "$bad" "kernel/ calls the host's" ": only arch/ may (docs/design.md)"
fi

if [ -n "$objs" ]; then
	# Each function with a %fs operand, as NAME(OBJECT).
	# shellcheck disable=SC2086
	bad=$(objdump -d $objs | awk '/file format/ { o = $1; sub(/:$/, "", o) }
		/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f) }
		/%fs[:,]/ { print f "(" o ")" }' | sort -u)
	refuse "$bad" "umk code uses %fs (only glibc and user programs may):"
fi

if [ -n "$srcs" ]; then
	# shellcheck disable=SC2086
	bad=$(grep -ho '#include <umk/[a-z_/]*\.h>' $srcs | sort -u |
		grep -v -e '<umk/\(os\|kernel\|entry\|ptrace\|fpu\)\.h>' -e '<umk/uapi/' || true)
	refuse "$bad" "arch/ includes a kernel-internal header:"
fi

if [ -n "$objs" ]; then
	# shellcheck disable=SC2046,SC2086
	bad=$(nm -u $objs | awk '$2 ~ /^__ubsan_handle_/ { print $2 }' | sort -u |
		grep -vxF -e __ubsan_none $(patterns "$WALL_UBSAN_HANDLERS") || true)
	refuse "$bad" "umk calls UBSan handlers that UBSAN_HANDLERS lacks:"
	# shellcheck disable=SC2046,SC2086
	bad=$(nm -u $objs | awk '$2 ~ /^__asan_(report|handle|stack_malloc)/ { print $2 }' |
		sort -u | grep -vxF -e __asan_none $(patterns "$WALL_ASAN_WRAPPED") || true)
	refuse "$bad" "umk calls ASan runtime functions that ASAN_WRAPPED lacks:"
fi
exit 0
