#!/usr/bin/env bats
# The wall between kernel/ and the host (docs/design.md, "The FS base"):
# kernel/ takes nothing from the C library but TLS-free string functions,
# no object of umk's uses %fs, every function shared between files is
# declared in a header (-Werror=missing-prototypes), and the kernel's own
# snprintf prints what glibc's would.

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
	cp -rp build/kernel build/arch "$TREE/build/"
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
	sed -i 's|#include <umk/arch.h>|&\n#include <umk/list.h>|' "$TREE/arch/irq.c"
	run --separate-stderr make -C "$TREE" build/umk
	assert_failure
	assert [ -n "$(grep -F "arch/ includes a kernel-internal header: #include <umk/list.h>" <<<"$stderr")" ]
}

@test "the tree as it is passes the wall" {
	rm -f build/wall.ok
	run --separate-stderr make -s build/wall.ok
	assert_success
}
