/*
 * arch/ubsan.c: UBSan's handlers, reached on glibc's FS base
 * (make SANITIZE=undefined only; empty otherwise).
 *
 * An UBSan check that fails in kernel/ or in a __tls_free function of arch/
 * may be running on a user's FS base (docs/design.md "The FS base"), but
 * the handler it calls runs libubsan and glibc, which use TLS. The linker
 * (--wrap, the Makefile's UBSAN_HANDLERS) sends every such call here
 * instead: these are ordinary arch/ functions, so the instrumentation hook
 * loads glibc's FS base before the body calls the real handler, which
 * reports and ends umk (-fno-sanitize-recover=all). The handlers take at
 * most three pointer or integer arguments; passing three to each is
 * harmless in the x86-64 calling convention.
 */
#ifdef UMK_UBSAN

#include <umk/os.h>

#define UBSAN_WRAP(name)                                                       \
	void __real___ubsan_handle_##name(void *a, void *b, void *c);          \
	void __wrap___ubsan_handle_##name(void *a, void *b, void *c);          \
	void __wrap___ubsan_handle_##name(void *a, void *b, void *c)           \
	{                                                                      \
		__real___ubsan_handle_##name(a, b, c);                         \
	}

UBSAN_WRAP(add_overflow_abort)
UBSAN_WRAP(sub_overflow_abort)
UBSAN_WRAP(mul_overflow_abort)
UBSAN_WRAP(negate_overflow_abort)
UBSAN_WRAP(divrem_overflow_abort)
UBSAN_WRAP(shift_out_of_bounds_abort)
UBSAN_WRAP(out_of_bounds_abort)
UBSAN_WRAP(type_mismatch_v1_abort)
UBSAN_WRAP(pointer_overflow_abort)
UBSAN_WRAP(load_invalid_value_abort)
UBSAN_WRAP(builtin_unreachable)
UBSAN_WRAP(missing_return)
UBSAN_WRAP(vla_bound_not_positive_abort)
UBSAN_WRAP(nonnull_arg_abort)
UBSAN_WRAP(nonnull_return_v1_abort)
UBSAN_WRAP(invalid_builtin_abort)
UBSAN_WRAP(float_cast_overflow_abort)
UBSAN_WRAP(alignment_assumption_abort)

#endif
