/* include/umk/uapi/vdso.h: the vDSO's data page (vvar), as Linux's
 * include/vdso/datapage.h. It sits in the page just below the vDSO image,
 * which finds it PC-relative (arch/vdso/vdso.lds); kernel/vdso.c fills it
 * at boot and kernel/time/time.c keeps virtual_ns current. It is user ABI in
 * umk's sense: user-mode code (the vDSO) reads it, so it has no kernel
 * types, only the compiler's.
 *
 * No sequence counter: umk has one CPU and the kernel writes the page only
 * while no user code runs (in a trap), and each value the vDSO needs for
 * one answer is one aligned 64-bit load, which no trap can split. */
#ifndef UMK_UAPI_VDSO_H
#define UMK_UAPI_VDSO_H

#define VDSO_CLOCK_NONE 0	/* every call falls back to the system call */
#define VDSO_CLOCK_HOST 1	/* --clock=host: ask the host's vDSO */
#define VDSO_CLOCK_VIRTUAL 2	/* --clock=virtual: virtual_ns below */

#define VDSO_NR_CLOCKS 12	/* clock ids 0..11 have a slot in res_ns */

struct vdso_data {
	unsigned int clock_mode;	/* VDSO_CLOCK_*, set at boot */
	unsigned int pad;
	/* The host vDSO's clock_gettime (VDSO_CLOCK_HOST): returns 0 or
	 * -errno, uses no TLS; 0 when the host has none. */
	unsigned long host_clock_gettime;
	/* VDSO_CLOCK_VIRTUAL: the virtual CLOCK_MONOTONIC in ns, and what
	 * CLOCK_REALTIME adds to it. */
	unsigned long long virtual_ns;
	long long realtime_offset_ns;
	/* Bit n: clock id n is one the vDSO reads (the others trap). */
	unsigned long clocks;
	/* clock_getres by clock id, ns; 0: the system call answers. */
	long long res_ns[VDSO_NR_CLOCKS];
};

#endif
