/*
 * coredump CASE DIR: a child dies of a signal that dumps core, in DIR, and
 * the parent reports how it ended and reads the core file back, with the
 * same output natively and under umk (tests/coredump.bats; the native run
 * needs the host's kernel.core_pattern to be "core").
 *
 *   nolimit  RLIMIT_CORE 0 (the default): SIGSEGV kills, no core bit, no
 *            file
 *   segv     RLIMIT_CORE unlimited, two threads, a NULL store in
 *            crash_here: WCOREDUMP and CLD_DUMPED; the core is an ET_CORE
 *            ELF file whose notes hold an NT_PRSTATUS per thread (the
 *            dumping one first, with the signal and the child's pid), an
 *            NT_PRPSINFO naming the program, an NT_SIGINFO (SIGSEGV,
 *            SEGV_MAPERR, address 0), an NT_AUXV with AT_ENTRY; a PT_LOAD
 *            holds a global's bytes at its address, another the sleeping
 *            thread's stack
 *   quit     SIGQUIT sent by the parent to a child asleep in pause: the
 *            core's NT_PRSTATUS has rip in the child, orig_rax pause
 *   dontdump MADV_DONTDUMP on the marker's pages: its PT_LOAD has no bytes
 *   abort    abort(): SIGABRT, core dumped
 *
 * The core is left in DIR for gdb (tests/coredump.bats opens it).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/procfs.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* elf_gregset_t index of orig_rax (struct user_regs_struct) */
#define GREG_ORIG_RAX 15

#ifndef NT_SIGINFO
#define NT_SIGINFO 0x53494749
#endif

/* What the core must hold at this global's address. */
static char marker[8192] __attribute__((aligned(4096))) = "the marker of coredump.c";
static volatile int *volatile nowhere;

static void set_core_limit(rlim_t lim)
{
	struct rlimit r = { lim, lim };

	if (setrlimit(RLIMIT_CORE, &r))
		die("setrlimit(RLIMIT_CORE) failed");
}

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

__attribute__((noinline)) static void crash_here(void)
{
	*nowhere = 1;
}

/* The core file: its bytes, and its size in *n. */
static char *read_core(size_t *n)
{
	struct stat st;
	char *buf;
	int fd = open("core", O_RDONLY);

	if (fd < 0) {
		printf("core file: absent\n");
		return NULL;
	}
	if (fstat(fd, &st) || !(buf = malloc(st.st_size)))
		die("cannot read the core");
	*n = 0;
	while (*n < (size_t)st.st_size) {
		ssize_t r = pread(fd, buf + *n, st.st_size - *n, *n);

		if (r <= 0)
			die("cannot read the core");
		*n += r;
	}
	close(fd);
	printf("core file: present, mode %04o\n", st.st_mode & 07777);
	return buf;
}

/* The file bytes at vaddr, from the PT_LOAD that covers it, or NULL. */
static const char *at_vaddr(const char *core, unsigned long vaddr, unsigned long *filesz)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)core;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(core + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr <= vaddr &&
		    vaddr < ph[i].p_vaddr + ph[i].p_memsz) {
			*filesz = ph[i].p_filesz;
			return vaddr - ph[i].p_vaddr < ph[i].p_filesz ?
				       core + ph[i].p_offset + (vaddr - ph[i].p_vaddr) : NULL;
		}
	return NULL;
}

static void check_core(pid_t child, unsigned long stack_addr)
{
	size_t n;
	char *core = read_core(&n);
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	int threads = 0, loads = 0;
	unsigned long filesz = 0;
	const char *m;

	if (!core)
		return;
	eh = (const Elf64_Ehdr *)core;
	printf("ELF: %s, type %s, machine %s\n",
	       memcmp(eh->e_ident, ELFMAG, SELFMAG) ? "no" : "yes",
	       eh->e_type == ET_CORE ? "ET_CORE" : "other",
	       eh->e_machine == EM_X86_64 ? "x86-64" : "other");
	ph = (const Elf64_Phdr *)(core + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		const char *p, *end;

		if (ph[i].p_type == PT_LOAD) {
			loads++;
			continue;
		}
		if (ph[i].p_type != PT_NOTE)
			continue;
		for (p = core + ph[i].p_offset, end = p + ph[i].p_filesz; p < end;) {
			const Elf64_Nhdr *nh = (const Elf64_Nhdr *)p;
			const char *desc = p + sizeof(*nh) + ((nh->n_namesz + 3) & ~3);

			if (nh->n_type == NT_PRSTATUS) {
				const struct elf_prstatus *pr = (const void *)desc;

				if (threads++ == 0)
					printf("first NT_PRSTATUS: signal %s, the child's pid: %s, "
					       "orig_rax %s\n",
					       signal_name(pr->pr_cursig),
					       pr->pr_pid == child ? "yes" : "no",
					       pr->pr_reg[GREG_ORIG_RAX] == SYS_pause ? "pause" :
					       (long)pr->pr_reg[GREG_ORIG_RAX] < 0 ? "none (a fault)" : "a call");
			} else if (nh->n_type == NT_PRPSINFO) {
				const struct elf_prpsinfo *ps = (const void *)desc;

				printf("NT_PRPSINFO: %s, pid the child's: %s\n", ps->pr_fname,
				       ps->pr_pid == child ? "yes" : "no");
			} else if (nh->n_type == NT_SIGINFO) {
				const siginfo_t *si = (const void *)desc;

				printf("NT_SIGINFO: %s, code %d, address %s\n",
				       signal_name(si->si_signo), si->si_code,
				       si->si_addr ? "not 0" : "0");
			} else if (nh->n_type == NT_AUXV) {
				const unsigned long *a = (const void *)desc;
				int entry = 0;

				for (; a[0] != AT_NULL; a += 2)
					entry |= a[0] == AT_ENTRY && a[1] != 0;
				printf("NT_AUXV: AT_ENTRY %s\n", entry ? "present" : "absent");
			}
			p = desc + ((nh->n_descsz + 3) & ~3);
		}
	}
	printf("threads (NT_PRSTATUS notes): %d\n", threads);
	printf("PT_LOAD segments: %s\n", loads > 2 ? "several" : "too few");
	m = at_vaddr(core, (unsigned long)marker, &filesz);
	printf("the marker's bytes at its address: %s\n",
	       m && !strcmp(m, marker) ? "yes" : filesz ? "different" : "not dumped");
	if (stack_addr)
		printf("the sleeping thread's stack: %s\n",
		       at_vaddr(core, stack_addr, &filesz) ? "dumped" : "missing");
	free(core);
}

/* How the child ended, as wait and waitid tell it. */
static void report(pid_t pid)
{
	siginfo_t si;
	int status;

	if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT))
		die("waitid failed");
	printf("waitid: %s\n", si.si_code == CLD_DUMPED ? "CLD_DUMPED" :
				 si.si_code == CLD_KILLED ? "CLD_KILLED" : "other");
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid failed");
	printf("child: %s, WCOREDUMP %s\n", status_text(status),
	       WIFSIGNALED(status) && WCOREDUMP(status) ? "yes" : "no");
}

/* The sleeping thread's stack: a global, at the same address in the
 * parent, which looks for it in the core. */
static char other_stack[65536] __attribute__((aligned(4096)));

static void start_sleeper(void)
{
	pthread_attr_t attr;
	pthread_t other;

	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, other_stack, sizeof(other_stack));
	if (pthread_create(&other, &attr, sleeper, NULL))
		die("pthread_create failed");
	usleep(20000);	/* asleep in pause by now */
}

int main(int argc, char **argv)
{
	const char *c;
	pid_t pid;

	if (argc != 3)
		die("usage: coredump nolimit|segv|quit|dontdump|abort DIR");
	c = argv[1];
	if (strcmp(c, "nolimit") && strcmp(c, "segv") && strcmp(c, "quit") &&
	    strcmp(c, "dontdump") && strcmp(c, "abort"))
		die("coredump: unknown case '%s'", c);
	if (chdir(argv[2]))
		die("cannot chdir to %s", argv[2]);
	unlink("core");
	setvbuf(stdout, NULL, _IOLBF, 0);
	pid = fork();
	if (pid == 0) {
		set_core_limit(strcmp(c, "nolimit") ? RLIM_INFINITY : 0);
		if (!strcmp(c, "dontdump") && madvise(marker, sizeof(marker), MADV_DONTDUMP))
			die("madvise failed");
		if (!strcmp(c, "abort"))
			abort();
		if (!strcmp(c, "quit")) {
			for (;;)
				pause();
		}
		start_sleeper();
		crash_here();
		_exit(0);
	}
	if (!strcmp(c, "quit")) {
		usleep(50000);
		kill(pid, SIGQUIT);
	}
	report(pid);
	check_core(pid, strcmp(c, "segv") ? 0 : (unsigned long)other_stack + sizeof(other_stack) - 256);
	return 0;
}
