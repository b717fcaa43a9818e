/*
 * arch/fsbase.c: whose FS base the CPU holds (docs/design.md, "The FS base").
 *
 * Two kinds of code in umk's one host thread use %fs for their thread-local
 * storage: the user program (musl's TLS) and glibc, which the kernel reaches
 * only through arch/. umk's own code never touches %fs (the Makefile checks
 * that no object of kernel/ or arch/ has a %fs operand). So the kernel's FS
 * base must be loaded exactly when glibc is about to run, and the user's
 * when user mode resumes:
 *
 *  - With FSGSBASE (the host lets user mode run rdfsbase/wrfsbase), the
 *    entry stubs save the user's FS base in the frame and load the kernel's
 *    on every entry, and __restore_rt loads the frame's on every exit: a
 *    few cycles each way, and a program may change its FS base itself.
 *
 *  - Without it (--nofsgsbase, or a host that hides FSGSBASE), changing the
 *    FS base is a host arch_prctl, microseconds on a hypervisor. Nothing
 *    changes it behind umk's back (user mode can neither run wrfsbase nor
 *    call arch_prctl untrapped), so cpu_fs_base below always says what the
 *    CPU holds. The stubs leave the FS base alone and record cpu_fs_base in
 *    the frame; the kernel's base is loaded lazily, on the first call into
 *    arch/ that is not marked __tls_free; __restore_rt loads the frame's
 *    base only when it differs from cpu_fs_base. A system call that needs
 *    no host facility (getpid, a sched_yield that finds no other task, a
 *    pipe read that does not block) thus costs no host call but the SUD
 *    trap and the final rt_sigreturn.
 *
 * The lazy load is __cyg_profile_func_enter: arch/ is compiled with
 * -finstrument-functions, so every arch/ function loads the kernel's FS base
 * before its body runs (a compare when it is already loaded) unless it is
 * marked __tls_free. A function can therefore not forget to: the only way
 * to run glibc with the user's base is to call it from a __tls_free
 * function, and those are few (the entry handlers, interrupt recording, the
 * clock read, the host timer, the idle wait) and call no glibc function
 * that touches %fs.
 */
#include "host.h"

#include <asm/hwcap2.h>
#include <asm/prctl.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#include <umk/kernel.h>
#include <umk/os.h>

bool have_fsgsbase;
unsigned long kernel_fs_base;
unsigned long cpu_fs_base;

/* At boot, before any signal handler is installed. force_legacy is
 * --nofsgsbase: take the arch_prctl path even where FSGSBASE works. */
void fs_base_init(bool force_legacy)
{
	have_fsgsbase = !force_legacy && (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE);
	/* glibc's thread pointer, read with a host call rather than %fs:0 so
	 * that umk's own code keeps no %fs operand at all. */
	if (host_syscall2(SYS_arch_prctl, ARCH_GET_FS, (unsigned long)&kernel_fs_base))
		panic("fs_base_init: arch_prctl(ARCH_GET_FS) failed");
	cpu_fs_base = kernel_fs_base;
}

/* What AT_HWCAP2 tells a program: FSGSBASE only when it may really use the
 * instructions, that is when the entry code reads the FS base back. */
unsigned long arch_user_hwcap2(void)
{
	return have_fsgsbase ? HWCAP2_FSGSBASE : 0;
}

/* The host's ARCH_GET_GS: the CPU's GS base, which Linux reads live for
 * the calling thread (umk's only one), wrgsbase included. */
unsigned long arch_user_gs_base(void)
{
	unsigned long base;

	if (host_syscall2(SYS_arch_prctl, ARCH_GET_GS, (unsigned long)&base))
		panic("arch_user_gs_base: arch_prctl(ARCH_GET_GS) failed");
	return base;
}

/* Load glibc's FS base (legacy path only; with FSGSBASE the stubs did). The
 * store comes after the host call: a nested interrupt in between records
 * the old cpu_fs_base in its frame, and its __restore_rt finds it equal to
 * cpu_fs_base and leaves the (already switched) CPU alone. */
static void __tls_free load_kernel_fs_base(void)
{
	long ret = host_syscall2(SYS_arch_prctl, ARCH_SET_FS, kernel_fs_base);

	if (ret)
		__builtin_trap();	/* glibc's own TLS address cannot be refused */
	cpu_fs_base = kernel_fs_base;
}

void __tls_free __cyg_profile_func_enter(void *fn, void *call_site)
{
	if (__builtin_expect(cpu_fs_base != kernel_fs_base, 0))
		load_kernel_fs_base();
}

void __tls_free __cyg_profile_func_exit(void *fn, void *call_site)
{
}
