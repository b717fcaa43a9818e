/*
 * tests/unit/hidefsgsbase.c: an LD_PRELOAD library that makes umk see a
 * host without FSGSBASE (an older CPU, a hypervisor that hides it, a kernel
 * booted with nofsgsbase): getauxval(AT_HWCAP2) loses HWCAP2_FSGSBASE, so
 * umk must pick the arch_prctl path on its own, as it would there.
 */
#include <dlfcn.h>
#include <sys/auxv.h>

#define HWCAP2_FSGSBASE (1 << 1)

unsigned long getauxval(unsigned long type)
{
	static unsigned long (*real)(unsigned long);

	if (!real)
		real = (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
	if (type == AT_HWCAP2)
		return real(type) & ~(unsigned long)HWCAP2_FSGSBASE;
	return real(type);
}
