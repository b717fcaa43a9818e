#!/usr/bin/env bats
# The wall between kernel/ and the host (docs/design.md, "The FS base"):
# kernel/ takes nothing from the C library but TLS-free string functions,
# no object of umk's uses %fs, arch/ includes only the kernel's interface
# headers, umk calls only the sanitizers' functions arch/ wraps, every
# function shared between files is declared in a header
# (-Werror=missing-prototypes), and the kernel's own snprintf prints what
# glibc's would. scripts/check-wall.sh checks the first four, on the objects
# make links into umk.

load helper

@test "the kernel's snprintf prints what glibc's prints, for every format the kernel uses and every buffer size" {
	run --separate-stderr timeout 20 $B/tests/vsprintf
	assert_success
	assert_output --regexp '^[0-9]+ checks, 0 mismatches$'
}

# A copy of the tree with its built objects (mtimes kept, so make rebuilds
# only what a test adds), in $TREE.
copy_tree() {
	TREE=$BATS_TEST_TMPDIR/tree
	mkdir -p "$TREE/build"
	tar -cf - --exclude=./build --exclude=./.git . | tar -xf - -C "$TREE"
	cp -rp build/kernel build/arch build/include "$TREE/build/"
}

# wall_object DIR NAME C-SOURCE: compile C-SOURCE as umk's objects are, into
# $WALL/DIR/NAME.o, a scratch build directory's kernel/ or arch/.
WALL=
wall_object() {
	WALL=$BATS_TEST_TMPDIR/build
	mkdir -p "$WALL/$1"
	printf '%s\n' "$3" >"$BATS_TEST_TMPDIR/$2.c"
	gcc -std=gnu11 -Og -ffreestanding -fno-stack-protector -c -o "$WALL/$1/$2.o" \
		"$BATS_TEST_TMPDIR/$2.c"
}

# check_wall FILE...: run the wall's check on FILE... in $WALL.
check_wall() {
	run --separate-stderr sh scripts/check-wall.sh "$WALL" "$@"
}

# refused MESSAGE: the check failed with MESSAGE, its one line.
refused() {
	assert_equal "$status" 1
	assert_equal "$stderr" "make: $1"
	assert_output ''
}

@test "the wall's check refuses a kernel/ object that calls the C library, unless allowed" {
	wall_object kernel wall_test 'int puts(const char *); void f(void); void f(void) { puts("x"); }'
	check_wall "$WALL/kernel/wall_test.o"
	refused "kernel/ calls the host's puts: only arch/ may (docs/design.md)"
	WALL_HOST_SYMBOLS="memcpy puts" check_wall "$WALL/kernel/wall_test.o"
	assert_success
	# A function arch/ defines is no host's.
	wall_object arch puts 'int puts(const char *s); int puts(const char *s) { return 0; }'
	check_wall "$WALL/kernel/wall_test.o" "$WALL/arch/puts.o"
	assert_success
}

@test "the wall's check refuses an object that uses %fs, naming its function" {
	wall_object arch wall_test 'unsigned long f(void);
		unsigned long f(void) { unsigned long v; __asm__ volatile("movq %%fs:0x28, %0" : "=r"(v)); return v; }'
	check_wall "$WALL/arch/wall_test.o"
	refused "umk code uses %fs (only glibc and user programs may): f($WALL/arch/wall_test.o)"
}

@test "the wall's check refuses an arch/ file that includes a kernel-internal header" {
	WALL=$BATS_TEST_TMPDIR
	printf '#include <umk/%s.h>\n' os kernel entry ptrace fpu uapi/signal >"$WALL/fine.c"
	check_wall "$WALL/fine.c"
	assert_success
	printf '#include <umk/os.h>\n#include <umk/list.h>\n' >"$WALL/irq.c"
	check_wall "$WALL/fine.c" "$WALL/irq.c"
	refused "arch/ includes a kernel-internal header: #include <umk/list.h>"
}

@test "the wall's check refuses a call to a sanitizer's function that arch/ does not wrap" {
	wall_object arch wall_test 'void __ubsan_handle_made_up(void); void f(void); void f(void) { __ubsan_handle_made_up(); }'
	check_wall "$WALL/arch/wall_test.o"
	refused "umk calls UBSan handlers that UBSAN_HANDLERS lacks: __ubsan_handle_made_up"
	WALL_UBSAN_HANDLERS=__ubsan_handle_made_up check_wall "$WALL/arch/wall_test.o"
	assert_success
	wall_object arch wall_test 'void __asan_report_load3(void); void f(void); void f(void) { __asan_report_load3(); }'
	check_wall "$WALL/arch/wall_test.o"
	refused "umk calls ASan runtime functions that ASAN_WRAPPED lacks: __asan_report_load3"
	WALL_ASAN_WRAPPED="__asan_report_load1 __asan_report_load3" check_wall "$WALL/arch/wall_test.o"
	assert_success
}

@test "make refuses a kernel/ file that calls the C library" {
	copy_tree
	cat >"$TREE/kernel/wall_test.c" <<-'EOF'
		int getpid(void);
		int wall_test(void);
		int wall_test(void) { return getpid(); }
	EOF
	run --separate-stderr make -C "$TREE" build/umk
	assert_failure
	assert [ -n "$(grep -F "kernel/ calls the host's getpid: only arch/ may" <<<"$stderr")" ]
}

@test "make refuses a kernel/ or arch/ function with no prototype in a header" {
	copy_tree
	for dir in kernel arch; do
		cat >"$TREE/$dir/wall_test.c" <<-'EOF'
			int wall_test(void) { return 1; }
		EOF
		run --separate-stderr make -C "$TREE" build/umk
		assert_failure
		assert [ -n "$(grep "no previous prototype for .wall_test" <<<"$stderr")" ]
		rm "$TREE/$dir/wall_test.c"
	done
}

@test "make refuses umk code that uses %fs" {
	copy_tree
	cat >"$TREE/kernel/wall_test.c" <<-'EOF'
		unsigned long wall_test(void);
		unsigned long wall_test(void)
		{
			unsigned long v;

			__asm__ volatile("movq %%fs:0x28, %0" : "=r"(v));
			return v;
		}
	EOF
	run --separate-stderr make -C "$TREE" build/umk
	assert_failure
	assert [ -n "$(grep -F "umk code uses %fs" <<<"$stderr")" ]
	assert [ -n "$(grep -F "wall_test" <<<"$stderr")" ]
}

@test "make refuses arch/ code that includes a kernel-internal header" {
	copy_tree
	sed -i '1i #include <umk/list.h>' "$TREE/arch/irq.c"
	run --separate-stderr make -C "$TREE" build/umk
	assert_failure
	assert [ -n "$(grep -F "arch/ includes a kernel-internal header: #include <umk/list.h>" <<<"$stderr")" ]
}

@test "the tree as it is passes the wall" {
	rm -f build/wall.ok
	run --separate-stderr make -s build/wall.ok
	assert_success
	assert_equal "$stderr" ''
}
