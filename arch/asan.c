/*
 * arch/asan.c: AddressSanitizer's options, its calls that need glibc's FS
 * base, and the kernel stacks it must be told of (make SANITIZE=address
 * only; empty otherwise). docs/design.md, "Sanitizers and the FS base".
 *
 * The options are umk's, built in (__asan_default_options); ASAN_OPTIONS
 * from the environment still adds to them. umk's host handlers own SIGSEGV,
 * SIGBUS, SIGFPE and SIGILL (a user fault is the program's signal, a kernel
 * fault at a uaccess instruction goes to the exception table), so ASan
 * installs no handler of its own, and no sigaltstack either: umk's handlers
 * must land on the stack in use in kernel mode, on the task's kernel stack
 * from user mode. Leaks are not checked: umk ends with its tasks' memory
 * allocated, as a kernel powers off with its memory in use, and through
 * _exit (os_exit), where no at-exit leak check would run. A library preloaded
 * before libasan is allowed (tests/unit/hidefsgsbase.c hides FSGSBASE that
 * way). There is no fake stack (detect_stack_use_after_return, and --param
 * asan-use-after-return=0 in the Makefile): its frames would live on ASan's
 * heap, not on the task's kernel stack. A report ends umk through
 * os_exit(), with umk's own failure status, 125, the terminal given back
 * and the trace renderers finished.
 *
 * The checks compiled into kernel/ and into __tls_free functions of arch/
 * may run on a user's FS base (without FSGSBASE), but the runtime calls they
 * make to report an error or to unpoison a stack before a noreturn call use
 * TLS (the current thread). The linker (--wrap, the Makefile's
 * ASAN_WRAPPED) sends those calls here: ordinary arch/ functions, so the
 * instrumentation hook loads glibc's base before the real one runs.
 *
 * A kernel stack is a stack ASan does not know: the switch to it is umk's
 * own (arch/switch.S). arch/process.c tells ASan of each switch with
 * __sanitizer_start_switch_fiber and __sanitizer_finish_switch_fiber,
 * through asan_switch_start and asan_switch_finish below. Those are the only
 * switches it needs to know of: a host signal from user mode lands on the
 * task's own kernel stack (its sigaltstack), which ASan already takes for
 * the current stack, and user mode runs no instrumented code.
 */
#ifdef UMK_ASAN

#include "host.h"

#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>

#include <umk/entry.h>
#include <umk/os.h>

const char *__asan_default_options(void);

const char *__tls_free __asan_default_options(void)
{
	return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:"
	       "allow_user_segv_handler=1:use_sigaltstack=0:detect_leaks=0:"
	       "detect_stack_use_after_return=0:verify_asan_link_order=0";
}

/* ASan calls this after a report, instead of exiting with its own status. */
static void asan_died(void)
{
	os_exit(UMK_EXIT_FAILURE);
}

static void __attribute__((constructor)) asan_init_death(void)
{
	__sanitizer_set_death_callback(asan_died);
}

#define ASAN_WRAP(name)                                                        \
	void __real___asan_##name(void *a, unsigned long b);                   \
	void __wrap___asan_##name(void *a, unsigned long b);                   \
	void __wrap___asan_##name(void *a, unsigned long b)                    \
	{                                                                      \
		__real___asan_##name(a, b);                                    \
	}

ASAN_WRAP(report_load1)
ASAN_WRAP(report_load2)
ASAN_WRAP(report_load4)
ASAN_WRAP(report_load8)
ASAN_WRAP(report_load16)
ASAN_WRAP(report_load_n)
ASAN_WRAP(report_store1)
ASAN_WRAP(report_store2)
ASAN_WRAP(report_store4)
ASAN_WRAP(report_store8)
ASAN_WRAP(report_store16)
ASAN_WRAP(report_store_n)

/* Called before a noreturn call (panic, do_exit, arch_enter_user): the
 * frames left behind are unpoisoned up to the current stack's top. */
void __real___asan_handle_no_return(void);
void __wrap___asan_handle_no_return(void);
void __wrap___asan_handle_no_return(void)
{
	__real___asan_handle_no_return();
}

/* Before __switch_to_asm: the next context runs on [bottom, bottom + size).
 * *save keeps the outgoing context's fake stack (none: see above). */
void asan_switch_start(void **save, const void *bottom, unsigned long size)
{
	__sanitizer_start_switch_fiber(save, bottom, size);
}

/* First thing on the new stack, after __switch_to_asm returns into a context
 * or a new context begins (save is NULL then). */
void asan_switch_finish(void *save)
{
	__sanitizer_finish_switch_fiber(save, NULL, NULL);
}

/* A kernel stack given back: the redzones its last frames poisoned must
 * not poison whatever the host maps there next. */
void asan_unpoison(const void *addr, unsigned long size)
{
	__asan_unpoison_memory_region(addr, size);
}

#endif
