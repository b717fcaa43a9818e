/* vdso syms | check | exact | loop N: the vDSO AT_SYSINFO_EHDR announces.
 *
 *   syms    finds the image and looks up the five functions among its
 *           dynamic symbols with version LINUX_2.6, as a libc does, and
 *           prints which it found
 *   check   compares the vDSO's answers with the system calls' (raw
 *           `syscall`): CLOCK_MONOTONIC never goes back across interleaved
 *           reads, CLOCK_REALTIME, gettimeofday and time agree within a few
 *           ms, clock_getres and the errors match, getcpu answers
 *   exact   the vDSO's CLOCK_MONOTONIC and CLOCK_REALTIME equal the system
 *           call's (true under umk --clock=virtual, where time stands still
 *           while a task runs; on a moving clock it is not)
 *   loop N  N calls of the C library's clock_gettime, then ns per call
 *   maps    /proc/self/maps has a [vdso] line starting at AT_SYSINFO_EHDR,
 *           executable, and a [vvar] line
 *
 * Natively the host's vDSO answers; the lines are the same. */
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

typedef int (*cgt_fn)(clockid_t, struct timespec *);
typedef int (*gtod_fn)(struct timeval *, void *);
typedef long (*time_fn)(long *);
typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);

static const char *const names[] = {
	"__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_time",
	"__vdso_clock_getres", "__vdso_getcpu",
};
static void *fns[5];

/* The ELF walk of a libc's vDSO lookup: PT_LOAD gives the load offset,
 * PT_DYNAMIC the tables; DT_HASH's nchain is the number of symbols. */
static int lookup(void)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL;
	const ElfW(Sym) *syms = NULL;
	const char *strs = NULL;
	const Elf32_Word *hash = NULL;
	const ElfW(Half) *versym = NULL;
	const ElfW(Verdef) *verdef = NULL;
	uintptr_t base = (uintptr_t)-1;
	int found = 0;

	if (!eh)
		return -1;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_type != ET_DYN)
		return -2;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && base == (uintptr_t)-1)
			base = (uintptr_t)eh + ph[i].p_offset - ph[i].p_vaddr;
		else if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((const char *)eh + ph[i].p_offset);
	}
	if (!dyn || base == (uintptr_t)-1)
		return -3;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		void *p = (void *)(base + dyn->d_un.d_ptr);

		switch (dyn->d_tag) {
		case DT_SYMTAB: syms = p; break;
		case DT_STRTAB: strs = p; break;
		case DT_HASH: hash = p; break;
		case DT_VERSYM: versym = p; break;
		case DT_VERDEF: verdef = p; break;
		}
	}
	if (!syms || !strs || !hash || !versym || !verdef)
		return -4;
	for (Elf32_Word i = 0; i < hash[1]; i++) {
		const ElfW(Verdef) *vd = verdef;
		int ok = 0;

		if (ELF64_ST_TYPE(syms[i].st_info) != STT_FUNC || !syms[i].st_shndx)
			continue;
		for (;;) {
			if (vd->vd_ndx == (versym[i] & 0x7fff)) {
				const ElfW(Verdaux) *aux = (const void *)((const char *)vd + vd->vd_aux);

				ok = !strcmp(strs + aux->vda_name, "LINUX_2.6");
				break;
			}
			if (!vd->vd_next)
				break;
			vd = (const void *)((const char *)vd + vd->vd_next);
		}
		for (int n = 0; n < 5; n++)
			if (ok && !strcmp(strs + syms[i].st_name, names[n]) && !fns[n]) {
				fns[n] = (void *)(base + syms[i].st_value);
				found++;
			}
	}
	return found;
}

static long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static long long sys_ns(clockid_t id)
{
	struct timespec ts;

	if (rsys(SYS_clock_gettime, id, &ts))
		die("clock_gettime(%d) failed", (int)id);
	return ts_ns(&ts);
}

static long long vdso_ns(clockid_t id)
{
	struct timespec ts;
	int r = ((cgt_fn)fns[0])(id, &ts);

	if (r)
		die("vDSO clock_gettime(%d) = %d", (int)id, r);
	return ts_ns(&ts);
}

static void compare_with_syscalls(void)
{
	long long prev = 0, t, a, b;
	struct timespec r1, r2;
	struct timeval tv;
	int bad = 0, id;
	unsigned cpu = ~0u, node = ~0u;
	unsigned long mask[16];

	for (int i = 0; i < 20000; i++) {
		t = i & 1 ? sys_ns(CLOCK_MONOTONIC) : vdso_ns(CLOCK_MONOTONIC);
		bad += t < prev;
		prev = t;
	}
	printf("monotonic never goes back across vDSO and system call reads: %s\n",
	       bad ? "no" : "yes");

	a = sys_ns(CLOCK_REALTIME);
	b = vdso_ns(CLOCK_REALTIME);
	printf("realtime within 5 ms of the system call's: %s\n",
	       llabs(b - a) < 5000000 ? "yes" : "no");
	for (id = CLOCK_MONOTONIC_RAW; id <= CLOCK_BOOTTIME; id++) {
		a = sys_ns(id);
		b = vdso_ns(id);
		printf("clock %d within 5 ms of the system call's: %s\n", id,
		       llabs(b - a) < 5000000 ? "yes" : "no");
	}
	a = vdso_ns(CLOCK_PROCESS_CPUTIME_ID);
	printf("process CPU time through the vDSO: %s\n", a > 0 ? "yes" : "no");

	if (((gtod_fn)fns[1])(&tv, NULL))
		die("vDSO gettimeofday failed");
	a = sys_ns(CLOCK_REALTIME);
	printf("gettimeofday within 5 ms of clock_gettime: %s\n",
	       llabs(tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL - a) < 5000000 ? "yes" : "no");
	printf("gettimeofday usec in range: %s\n", tv.tv_usec >= 0 && tv.tv_usec < 1000000 ? "yes" : "no");
	{
		long t1, t2 = 0;

		t1 = ((time_fn)fns[2])(&t2);
		a = sys_ns(CLOCK_REALTIME) / 1000000000LL;
		printf("time agrees with clock_gettime: %s\n",
		       t1 == t2 && (a == t1 || a == t1 + 1) ? "yes" : "no");
	}

	for (id = -1; id < 16; id++) {
		long rs = rsys(SYS_clock_getres, id, &r1);
		long rv = ((cgt_fn)fns[3])(id, &r2);

		if (rs != rv || (!rs && ts_ns(&r1) != ts_ns(&r2)))
			printf("clock_getres(%d): system call %ld %lld, vDSO %ld %lld\n", id, rs,
			       rs ? 0 : ts_ns(&r1), rv, rv ? 0 : ts_ns(&r2));
	}
	printf("clock_getres(NULL) = %d\n", ((cgt_fn)fns[3])(CLOCK_MONOTONIC, NULL));
	printf("clock_getres matches the system call for clocks -1..15\n");
	printf("clock_gettime(12345) = %s\n", errno_name(-((cgt_fn)fns[0])(12345, &r1)));
	printf("clock_gettime(-1) = %s\n", errno_name(-((cgt_fn)fns[0])(-1, &r1)));

	if (((getcpu_fn)fns[4])(&cpu, &node, NULL))
		die("vDSO getcpu failed");
	/* one the program may run on (taskset may leave it one CPU of several) */
	if (rsys(SYS_sched_getaffinity, 0, sizeof(mask), mask) <= 0)
		die("sched_getaffinity failed");
	printf("getcpu: a CPU of the affinity mask: %s, node set: %s\n",
	       cpu < 8 * sizeof(mask) && (mask[cpu / 64] >> (cpu % 64) & 1) ? "yes" : "no",
	       node != ~0u ? "yes" : "no");
}

static void exact(void)
{
	int diff = 0;

	for (int i = 0; i < 1000; i++) {
		diff += vdso_ns(CLOCK_MONOTONIC) != sys_ns(CLOCK_MONOTONIC);
		diff += vdso_ns(CLOCK_REALTIME) != sys_ns(CLOCK_REALTIME);
		diff += vdso_ns(CLOCK_BOOTTIME) != sys_ns(CLOCK_BOOTTIME);
	}
	printf("the vDSO's clocks equal the system call's: %s\n", diff ? "no" : "yes");
}

int main(int argc, char **argv)
{
	int found;

	if (argc < 2)
		die("usage: vdso syms|check|exact|loop N");
	if (!strcmp(argv[1], "loop")) {
		long n = argc > 2 ? atol(argv[2]) : 1000;
		struct timespec ts;
		double t0 = now_ms();

		for (long i = 0; i < n; i++)
			clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("clock_gettime: %.0f ns/op (%ld calls)\n", (now_ms() - t0) * 1e6 / n, n);
		return 0;
	}
	if (!strcmp(argv[1], "maps")) {
		unsigned long base = getauxval(AT_SYSINFO_EHDR), s, e;
		char line[256], perms[8];
		FILE *f = fopen("/proc/self/maps", "r");
		int vdso = 0, vvar = 0;

		while (f && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%lx-%lx %7s", &s, &e, perms) != 3)
				continue;
			if (strstr(line, "[vdso]"))
				vdso = s == base && perms[2] == 'x';
			if (strstr(line, "[vvar]"))
				vvar = 1;
		}
		printf("[vdso] at AT_SYSINFO_EHDR, executable: %s; [vvar]: %s\n", vdso ? "yes" : "no",
		       vvar ? "yes" : "no");
		return 0;
	}
	found = lookup();
	if (!strcmp(argv[1], "syms")) {
		if (found < 0)
			printf("no vDSO (%d)\n", found);
		for (int n = 0; n < 5; n++)
			printf("%s@LINUX_2.6: %s\n", names[n], fns[n] ? "found" : "missing");
		return 0;
	}
	if (found != 5)
		die("the vDSO has %d of the 5 functions", found);
	if (!strcmp(argv[1], "check"))
		compare_with_syscalls();
	else if (!strcmp(argv[1], "exact"))
		exact();
	else
		die("usage: vdso syms|check|exact|loop N");
	return 0;
}
