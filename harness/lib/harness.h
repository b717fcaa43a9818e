/* Shared helpers for the harness programs (linked into every one of them).
 *
 * The programs run both natively and under umk and must print the same
 * lines in both places, so nothing here prints addresses, pids or times
 * unless a program asks for them. Raw system calls return the kernel's own
 * value (-Exxx on error) so a program can print exactly what the kernel
 * returned, without libc's errno translation in between. */
#ifndef HARNESS_H
#define HARNESS_H

#include <stdarg.h>
#include <sys/types.h>

/* One system call, straight through `syscall`: returns -Exxx on error. */
long raw_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
#define rsys(nr, ...) rsys_(nr, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define rsys_(nr, a, b, c, d, e, f, ...) \
	raw_syscall6((nr), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))
#define rsys0(nr) raw_syscall6((nr), 0, 0, 0, 0, 0, 0)

/* "EFAULT" for 14, "E123" for what the table lacks. */
const char *errno_name(int e);
/* "SIGSEGV" for 11, "SIG123" for what the table lacks. */
const char *signal_name(int sig);

/* Print "CALL = RET" or, for a raw -Exxx, "CALL = -1 ENAME". Returns ret. */
long show(const char *call, long ret);
/* Print "what: ok", or "what: FAILED" and count it in check_failures. */
void check(const char *what, int ok);
extern int check_failures;

/* A program of sections run by name from its command line. */
struct section {
	const char *name;
	void (*fn)(void);
};
/* Run the sections argv[1..] names in order, each after a line "== NAME";
 * an unknown name is "PROG: unknown section 'NAME'" on stderr and 2. Then
 * 1 if a check failed, else 0: main's exit status. */
int run_sections(const char *prog, const struct section *s, size_t n, int argc, char **argv);

/* "exit 3" or "killed by SIGTERM" for a wait status word. */
const char *status_text(int status);

/* CLOCK_MONOTONIC in milliseconds, read with a raw clock_gettime (no vDSO). */
double now_ms(void);

/* fork() after flushing stdout (so that the child does not print the
 * parent's buffered lines again), dying if it fails. */
pid_t fork_or_die(void);

/* Print a message and exit 99 (a harness bug, never an expected outcome). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* posix_spawn PATH with the NULL-terminated ARGS (ARGS[0] is argv[0]),
 * flushing stdout first so the child's lines come after ours. Dies on error. */
pid_t spawn(const char *path, char *const args[]);
/* waitpid(pid) and return its status word. Dies on error. */
int wait_status(pid_t pid);

/* The directory part of PATH ("." when it has none), in a static buffer. */
const char *dir_of(const char *path);

/* The numeric fields of a /proc/PID/stat LINE, after the state: f[0] is
 * field 4 (ppid), f[k - 4] field k. Returns how many (at most 64), or -1
 * when the line has no ')' ending the comm. */
int stat_fields(const char *line, long f[64]);

/* The state letter of process pid's /proc/PID/stat ('S', 'T', 'R'...), or
 * 0 when it cannot be read. */
char proc_state(pid_t pid);

#endif
