/*
 * harness/scenario/scenario.h: the scenario shell's language, and what its
 * files share: actions.c runs actions (one function per action, and the
 * action table), parse.c reads a script into tasks[] and actions[], main.c
 * starts the tasks and runs the controller.
 *
 * build/harness/scenario SCRIPT|- runs a scenario script (tasks that make
 * sleeping system calls, a controller that signals them at given times)
 * and prints one stable line per result, so the same script gives the same
 * output natively (the host kernel is the reference) and under umk.
 *
 * The language, one statement per line; '#' starts a comment anywhere:
 *
 *   tolerance 50ms          times are printed rounded to the nearest multiple
 *                           of this (default 10ms); durations are Nms or Ns
 *   task NAME [spawned]     a task, running the actions up to its 'end'. The
 *     ACTION...             controller starts every task at time 0, except a
 *   end                     'spawned' one, which another task starts (spawn)
 *   [at T] ACTION           outside a task: a controller action, run at T
 *                           after the scenario start (or at once, without at)
 *
 * Task actions ('at T' before one first waits, silently, until T):
 *   handler SIG [print|count] [restart] [nodefer] [resethand] [onstack] [resume] [do]
 *                  install a handler (SA_SIGINFO, plus SA_RESTART etc.;
 *                  resume: umk's SA_RESUME, which Linux clears);
 *                  print (the default) prints "A handler SIGUSR1 ran at=T"
 *                  on entry, count only counts. With 'do', the lines up to
 *                  the matching 'end' are actions the handler runs itself,
 *                  then it prints "A handler SIGUSR1 return at=T".
 *   ignore SIG [resume] / default SIG [resume]   SIG_IGN / SIG_DFL (with
 *                  resume: sa_flags SA_RESUME, which changes nothing)
 *   block SIG... / unblock SIG...    rt_sigprocmask
 *   altstack                     a sigaltstack for onstack handlers
 *   nanosleep D                  "A nanosleep(500ms) = -1 EINTR rem=400ms at=100ms"
 *   clock_nanosleep CLOCK abs|rel D   CLOCK is MONOTONIC, REALTIME or
 *                  BOOTTIME; an abs deadline is D after the scenario start.
 *                  rmtp is pre-filled with a sentinel: "rem=untouched"
 *   pause                        "A pause = -1 EINTR at=T"
 *   sigsuspend [SIG...]          wait with exactly these signals blocked
 *   read                         read the task's pipe (see write below):
 *                                "A read = 5 "hello" at=T"
 *   spawn TASK                   start a 'spawned' task as our child
 *   wait4 [TASK]                 wait4 for that child (or any):
 *                                "A wait4(B) = B exited 3 at=T"
 *   restart_syscall              a raw system call 219
 *   spin D                       compute for D without a system call, holding
 *                  constants in rax (-516), rbx, rsi, rdi, rbp, r8-r15 and
 *                  xmm0: "A spin(500ms) regs=intact handlers=2 at=T"
 *   kill self|TASK SIG           signal ourselves or a task we spawned
 *   count SIG                    "A count SIGUSR1 = 2 at=T": handler runs
 *   mask                         "A mask = SIGUSR2 at=T": the blocked set
 *   say TEXT                     "A say TEXT at=T"
 *   exit N                       end the task with status N (else 0 at 'end')
 *
 * Controller actions:
 *   kill TASK SIG, stop TASK (SIGSTOP), cont TASK (SIGCONT)
 *   write TASK TEXT              write TEXT (no newline) to TASK's pipe
 *   wait TASK [untraced] [continued]   waitpid, with WUNTRACED / WCONTINUED:
 *                  "wait A = exited N|killed by SIG|stopped by SIG|continued at=T"
 *   say TEXT                     "say TEXT at=T"
 * At the end the controller waits for every task it has not reaped yet and
 * prints its "wait" line.
 *
 * Every line is written with one write(2), so lines of different tasks never
 * mix; scenarios keep events of different tasks >= 100 ms apart, so their
 * order is fixed. Exit status: 0 when the script ran, 2 for a usage error or
 * a script that cannot be read or parsed (one line on stderr:
 * "scenario: FILE:LINE: message"), 99 when a system call the shell needs
 * for itself fails (a harness failure, never an expected outcome).
 *
 * "-" reads the script from stdin instead of a file.
 *
 * How it runs: tasks are copies of this program (posix_spawn of argv[0]:
 * umk has no fork) started as
 *	argv[0] --task NAME START_NS FD SCRIPT_NAME SCRIPT_TEXT
 * they parse the same text and run the named task; START_NS is the
 * scenario start on CLOCK_MONOTONIC, FD the read end of the task's pipe.
 * harness/scenarios/README says the same with examples.
 */
#ifndef SCENARIO_H
#define SCENARIO_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "umk_resume.h"

#define MAX_TASKS	16
#define MAX_ACTIONS	512
#define MAX_DEPTH	8
#define NAME_LEN	32
#define TEXT_LEN	128
#define MAX_SCRIPT	16384
#define EXIT_SCRIPT	2	/* usage, unreadable or malformed script */
#define SELF		(-2)	/* kill self */
#define ANY		(-3)	/* wait4 with no task: any child */

struct action;

/* An option word of an action ("restart", "untraced") and its bit in opts. */
struct option {
	const char *word;
	unsigned bit;
};

#define IN_TASK		1u
#define IN_CONTROLLER	2u

/* One kind of action: the action table holds one per name. args has a
 * letter per argument, parsed by parse_args into struct action:
 *   D duration   S signal   L signal list (0+)   T task   t optional task
 *   K self or task   C clock   M abs|rel   N integer   X text (1+ words)
 *   O option words (0+, from options) */
struct action_desc {
	const char *name;
	const char *args;
	const char *usage;
	unsigned where;
	const struct option *options;
	void (*run)(const struct action *a);
};

struct action {
	const struct action_desc *desc;
	int line;
	long at_ms;		/* -1: run at once */
	long ms;		/* D */
	int sig;		/* S */
	uint64_t sigs;		/* L: bit sig-1, as the kernel's sigset */
	int task;		/* T t K: index in tasks[], SELF or ANY */
	char task_name[NAME_LEN];
	clockid_t clock;	/* C */
	bool abs;		/* M */
	long num;		/* N */
	unsigned opts;		/* O */
	char text[TEXT_LEN];	/* X */
	int body_end;		/* handler ... do: index after its body, else 0 */
};

struct task {
	char name[NAME_LEN];
	int line;
	bool spawned;		/* started by a task's spawn, not by the controller */
	int first, end;		/* its actions: actions[first..end) */
	pid_t pid;		/* in the process that started it */
	int pipe_rd, pipe_wr;	/* controller-started tasks only */
	bool reaped;
};

/* Option bits of handler and wait */
#define H_PRINT		0x01u
#define H_COUNT		0x02u
#define H_RESTART	0x04u
#define H_NODEFER	0x08u
#define H_RESETHAND	0x10u
#define H_ONSTACK	0x20u
#define H_DO		0x40u
#define H_RESUME	0x80u
#define W_UNTRACED	0x1u
#define W_CONTINUED	0x2u

enum {
	A_HANDLER, A_IGNORE, A_DEFAULT, A_BLOCK, A_UNBLOCK, A_ALTSTACK, A_NANOSLEEP,
	A_CLOCK_NANOSLEEP, A_PAUSE, A_SIGSUSPEND, A_READ, A_SPAWN, A_WAIT4,
	A_RESTART_SYSCALL, A_SPIN, A_KILL, A_COUNT, A_MASK, A_SAY, A_EXIT, A_STOP,
	A_CONT, A_WRITE, A_WAIT, NR_ACTION_KINDS
};

extern const struct action_desc action_table[NR_ACTION_KINDS];

extern struct action actions[MAX_ACTIONS];
extern int nr_actions;
extern int controller[MAX_ACTIONS];	/* indices of the controller's actions */
extern int nr_controller;
extern struct task tasks[MAX_TASKS];
extern int nr_tasks;
extern long tolerance_ms;
extern const char *script;
/* The script's text: read whole by the controller, given to tasks in argv. */
extern char script_text[MAX_SCRIPT + 1];

extern int64_t start_ns;		/* the scenario start, CLOCK_MONOTONIC */
extern const char *me;		/* this task's name: the line prefix */
extern int my_pipe;
extern char *self_path;
extern char start_arg[32];
extern int cur_line;

/* actions.c */
int64_t clock_ns(clockid_t clk);
void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *ret_text(long ret, char *buf, size_t n);
const char *wait_text(int status, char *buf, size_t n);
pid_t start_task(int t, int fd);
void run_action(const struct action *a);
void run_actions(int first, int end);

/* parse.c */
int find_task(const char *name);
void read_script(void);
void parse_script(const char *text);

#endif
