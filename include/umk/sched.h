/* Tasks, thread_info, the scheduler and wait queues (include/linux/sched.h,
 * arch/x86/include/asm/thread_info.h of the 2.6 kernels, include/linux/wait.h).
 *
 * Every task has a THREAD_SIZE-aligned kernel stack with its thread_info at
 * the base; current_thread_info() masks the stack pointer, exactly as the
 * 2.5/2.6 x86 kernels did. All kernel code runs on some task's kernel stack
 * (the idle task, pid 0, has one too), so `current` is always defined. */
#ifndef UMK_SCHED_H
#define UMK_SCHED_H

#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/kernel.h>
#include <umk/list.h>
#include <umk/ptrace.h>
#include <umk/restart_block.h>
#include <umk/resume.h>
#include <umk/signal.h>
#include <umk/timer.h>
#include <umk/types.h>
#include <umk/uapi/resource.h>
#include <umk/uapi/sched.h>


struct thread_info {
	unsigned long flags;		/* TIF_*: low level flags */
	struct task_struct *task;	/* main task structure */
	struct restart_block restart_block;
	unsigned long stack_end_magic;	/* STACK_END_MAGIC: overflow check */
};

#define TIF_SIGPENDING 2	/* signal pending */
#define TIF_NEED_RESCHED 3	/* rescheduling necessary */
#define TIF_NOTIFY_RESUME 1	/* callback before returning to user: rseq */
#define TIF_RESTORE_SIGMASK 9	/* restore saved_sigmask on the way out */
#define _TIF_SIGPENDING (1UL << TIF_SIGPENDING)
#define _TIF_NEED_RESCHED (1UL << TIF_NEED_RESCHED)
#define _TIF_RESTORE_SIGMASK (1UL << TIF_RESTORE_SIGMASK)
#define _TIF_NOTIFY_RESUME (1UL << TIF_NOTIFY_RESUME)
#define TIF_SYSCALL_TRACE 8	/* syscall-enter/exit-stops (PTRACE_SYSCALL) */
#define _TIF_SYSCALL_TRACE (1UL << TIF_SYSCALL_TRACE)
#define TIF_SINGLESTEP 4	/* PTRACE_SINGLESTEP: a step report after a call too
				 * (Linux's SYSCALL_WORK_SYSCALL_EXIT_TRAP) */
#define _TIF_SINGLESTEP (1UL << TIF_SINGLESTEP)
#define TIF_SYSCALL_EMU 6	/* PTRACE_SYSEMU: the entry stop, no call (Linux's
				 * SYSCALL_WORK_SYSCALL_EMU) */
#define _TIF_SYSCALL_EMU (1UL << TIF_SYSCALL_EMU)
#define TIF_FORCED_TF 24	/* the tracer set TF, not the program (kernel/step.c) */
#define EXIT_TO_USER_MODE_WORK (_TIF_SIGPENDING | _TIF_NEED_RESCHED | _TIF_NOTIFY_RESUME)

static inline struct thread_info *current_thread_info(void)
{
	unsigned long sp;

	__asm__ volatile("mov %%rsp, %0" : "=r"(sp));
	return (struct thread_info *)(sp & ~(THREAD_SIZE - 1));
}

#define current (current_thread_info()->task)

static inline struct thread_info *task_thread_info(struct task_struct *t);

static inline void set_ti_flag(struct thread_info *ti, int flag) { ti->flags |= 1UL << flag; }
static inline void clear_ti_flag(struct thread_info *ti, int flag) { ti->flags &= ~(1UL << flag); }
static inline bool test_ti_flag(struct thread_info *ti, int flag) { return ti->flags & (1UL << flag); }

/* task->state */
#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define __TASK_STOPPED 0x0004
#define __TASK_TRACED 0x0008	/* a ptrace stop (kernel/ptrace.c) */
#define TASK_DEAD 0x0080
#define TASK_WAKEKILL 0x0100
#define TASK_KILLABLE (TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_STOPPED (TASK_WAKEKILL | __TASK_STOPPED)
#define TASK_TRACED (TASK_WAKEKILL | __TASK_TRACED)	/* SIGKILL wakes it */
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
/* task->exit_state */
#define EXIT_ZOMBIE 0x0020
#define EXIT_DEAD 0x0010

struct sigqueue {
	struct list_head list;
	kernel_siginfo_t info;
	unsigned int flags;	/* SIGQUEUE_PREALLOC */
};
/* A POSIX timer's own (kernel/time/posix-timers.c): freed with the timer,
 * not when dequeued. */
#define SIGQUEUE_PREALLOC 1

struct sigpending {
	struct list_head list;	/* struct sigqueue, in arrival order */
	sigset_t signal;
};

struct wait_queue_head {
	struct list_head head;
};

/*
 * A waiter on a wait queue (include/linux/wait.h). A wake-up calls each
 * entry's func with the wake-up's mode (the task states it wakes) and key
 * (for a file's queue: the poll events that became true, or 0 for "look
 * again"): a sleeping task's entry wakes the task (default_wake_function);
 * poll, select and epoll queue entries of their own, whose func records
 * the event (include/umk/poll.h). func returns whether it woke something;
 * an entry with WQ_FLAG_EXCLUSIVE that did ends a wake_up's walk.
 */
struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *w, unsigned int mode, void *key);
#define WQ_FLAG_EXCLUSIVE 0x01

struct wait_queue_entry {
	unsigned int flags;
	struct task_struct *task;	/* Linux's private: the task to wake */
	wait_queue_func_t func;
	struct list_head entry;
};

int default_wake_function(struct wait_queue_entry *w, unsigned int mode, void *key);

#define DEFINE_WAIT(name)                                                      \
	struct wait_queue_entry name = {                                       \
		.task = current,                                               \
		.func = default_wake_function,                                 \
		.entry = LIST_HEAD_INIT((name).entry),                         \
	}

/* Handlers, shared by threads created with CLONE_SIGHAND. */
struct sighand_struct {
	int count;
	struct k_sigaction action[_NSIG];
	/* Readers and pollers of a signalfd, woken when a signal becomes
	 * pending for a task using these handlers (kernel/fs/signalfd.c). */
	struct wait_queue_head signalfd_wqh;
};

/* signal_struct->flags */
#define SIGNAL_STOP_STOPPED 0x00000001	/* job control stop in effect */
#define SIGNAL_STOP_CONTINUED 0x00000002 /* SIGCONT since WCONTINUED reap */
#define SIGNAL_GROUP_EXIT 0x00000004	/* group exit in progress */
#define SIGNAL_CLD_STOPPED 0x00000010	/* parent not yet told of a stop */
#define SIGNAL_CLD_CONTINUED 0x00000020	/* parent not yet told of a continue */
#define SIGNAL_CLD_MASK (SIGNAL_CLD_STOPPED | SIGNAL_CLD_CONTINUED)

/* Per thread group (process) state: shared pending signals, group exit and
 * job control. */
struct signal_struct {
	int nr_threads;
	/* Traced threads but the leader that exited and are zombies until
	 * their tracer waits for them: the leader is not reaped before
	 * (kernel/exit.c, Linux's delay_group_leader). */
	int zombie_threads;
	/* PR_SET_CHILD_SUBREAPER: orphaned descendants come to this process
	 * rather than to pid 1 (is_child_subreaper); some ancestor is one
	 * (has_child_subreaper, inherited). kernel/exit.c's find_new_reaper. */
	bool is_child_subreaper, has_child_subreaper;
	struct list_head thread_head;	/* task->thread_node */
	struct wait_queue_head wait_chldexit; /* for wait4() */
	struct sigpending shared_pending;
	int group_exit_code;
	int group_stop_count;
	unsigned int flags;		/* SIGNAL_* */
	int stop_signr;			/* signal that stopped the group */
	int stop_report;		/* the stop signal, until wait reports it
					 * (Linux's group_exit_code for a stop) */
	struct timer_list real_timer;	/* ITIMER_REAL (kernel/time/itimer.c) */
	u64 it_real_incr;		/* its interval, ns */
	struct task_struct *leader;	/* whom real_timer signals */
	/* ITIMER_PROF and ITIMER_VIRTUAL (Linux's signal->it[CPUCLOCK_PROF],
	 * [CPUCLOCK_VIRT]): the expiry on the process's CPU clock, 0 when
	 * disarmed, and the interval, ns (kernel/time/itimer.c; checked with
	 * the CPU-clock timers, kernel/time/posix-cpu-timers.c). */
	struct cpu_itimer {
		u64 expires, incr;
	} it[2];
	/* POSIX timers (kernel/time/posix-timers.c): every timer of the
	 * process; the periodic ones whose signal was ignored; the CPU-clock
	 * ones armed (posix-cpu-timers.c); the next id to hand out. */
	struct list_head posix_timers, ignored_posix_timers, cpu_timers;
	unsigned int next_posix_timer_id;
	struct task_struct *group_exec_task; /* execve is killing the others */
	/* Accounting (kernel/sys.c, getrusage): what the process's exited
	 * threads used, and what its reaped children and their own reaped
	 * children used (Linux's signal->sum_sched_runtime, cutime...). */
	u64 dead_exec_ns, child_exec_ns;
	u64 dead_stime_ns, child_stime_ns;	/* of those, the system time */
	unsigned long dead_nvcsw, dead_nivcsw, child_nvcsw, child_nivcsw;
	unsigned long maxrss, child_maxrss;	/* KiB, as sampled */
	struct rlimit rlim[RLIM_NLIMITS]; /* shared by the threads, copied by
					 * clone, kept by exec (kernel/resource.c) */
	pid_t pgrp;			/* process group and session: copied by */
	pid_t session;			/* clone, set by setpgid and setsid */
	bool session_leader;		/* made by setsid (Linux's signal->leader) */
	struct tty_struct *tty;		/* controlling terminal, NULL: none */
	pid_t tty_old_pgrp;		/* the foreground group when it hung up */
};

struct mm_struct;
struct tty_struct;
struct robust_list_head;
struct rseq;
struct files_struct;
struct fs_struct;
struct arch_context;
struct completion;
struct sem_undo_list;

struct task_struct {
	struct thread_info *stack;	/* kernel stack base; thread_info there */
	volatile long state;		/* TASK_* */
	int exit_state;			/* EXIT_ZOMBIE, EXIT_DEAD */
	pid_t pid;
	pid_t tgid;
	char comm[16];
	unsigned int personality;	/* personality(2)'s flags (kernel/exec_domain.c) */

	struct list_head tasks;		/* every task, in creation order */
	struct list_head pid_chain;	/* kernel/pid.c's bucket of pid, while on tasks */
	struct list_head run_list;	/* the runqueue, while TASK_RUNNING */
	bool on_rq;

	struct task_struct *group_leader;
	struct task_struct *real_parent; /* the process that waits for us */
	struct list_head children;	/* our children (leaders and threads) */
	struct list_head sibling;	/* in real_parent->children */
	struct list_head thread_node;	/* in signal->thread_head */

	struct mm_struct *mm;
	/* The region of mm this task found last, valid while its seqnum is
	 * mm's (Linux's per-thread vmacache): each thread of a process has
	 * its own stack, and finds it again in O(1) (kernel/mm/mm.c). */
	struct vm_area_struct *vmacache;
	unsigned long vmacache_seqnum;
	struct files_struct *files;
	struct fs_struct *fs;		/* root, cwd, umask (kernel/fs/fs_struct.c) */
	struct signal_struct *signal;
	struct sighand_struct *sighand;
	sigset_t blocked;		/* the signal mask */
	sigset_t real_blocked;		/* saved by rt_sigtimedwait */
	sigset_t saved_sigmask;		/* restored after a temporary mask:
					 * rt_sigsuspend, ppoll, pselect6 */
	struct sigpending pending;	/* thread-directed signals */
	unsigned long sas_ss_sp;	/* sigaltstack */
	size_t sas_ss_size;
	unsigned int sas_ss_flags;

	int exit_code;			/* wait status word once dead */
	int exit_signal;		/* sent to the parent at exit; -1 for threads */
	int __user *set_child_tid;
	int __user *clear_child_tid;
	struct completion *vfork_done;	/* CLONE_VFORK parent waits here */

	struct pt_regs *regs;		/* user registers of the current entry */
	long orig_ax;			/* syscall nr at entry, -1 otherwise */
	struct arch_context *kctx;	/* saved kernel context when switched out */
	u64 slice_end;			/* CLOCK_MONOTONIC ns: end of time slice */
	u64 sum_exec_ns;		/* time spent running */
	u64 last_ran;			/* when it last went on the CPU */
	u64 stime_ns;			/* of sum_exec_ns, the time in the kernel */
	u64 vtime_start;		/* when its stretch in the kernel began
					 * (kernel/sched/cputime.c) */
	unsigned long nvcsw, nivcsw;	/* voluntary and involuntary switches */
	unsigned long jobctl;		/* JOBCTL_* */
	bool sched_yield;		/* in sched_yield(), for the trace */
	int inject_call;		/* 1 + the system call it is in, 0 outside (kernel/inject.c) */
	bool inject_slept;		/* that call has slept: counted once */
	struct resume_stack resume;	/* SA_RESUME continuations (kernel/signal/resume.c) */

	/* Scheduling policy (kernel/sched/syscalls.c): SCHED_NORMAL, BATCH
	 * and IDLE share the CPU by round robin; SCHED_FIFO and SCHED_RR
	 * tasks, higher rt_priority first, run before any of them. */
	int policy;			/* SCHED_*; 0 is SCHED_NORMAL */
	unsigned int rt_priority;	/* 1..99 for FIFO and RR, else 0 */
	int nice;			/* -20..19 (Linux: static_prio - 120) */
	bool sched_reset_on_fork;	/* children start SCHED_NORMAL, nice >= 0 */
	u64 rt_time_slice;		/* SCHED_RR: ns left of its quantum, 0: spent */
	u64 slice_credit;		/* a light normal task's earned turn (kernel/sched/core.c) */

	struct cred cred;		/* its ids and capabilities (kernel/cred.c) */
	int pdeath_signal;		/* PR_SET_PDEATHSIG: sent when the parent dies */
	/* PR_SET_TIMERSLACK: how late a sleep may end (kernel/time/time.c),
	 * and what 0 resets it to: the parent's at fork. 0 for real-time
	 * policies, as Linux 6.7 on. */
	u64 timer_slack_ns, default_timer_slack_ns;
	bool no_new_privs;		/* PR_SET_NO_NEW_PRIVS: kept by fork and exec */
	bool did_exec;			/* has exec'd since clone: setpgid says EACCES */
	struct robust_list_head __user *robust_list; /* set_robust_list (kernel/futex.c) */
	struct rseq __user *rseq;	/* registered by rseq (kernel/rseq.c) */
	u32 rseq_len;
	u32 rseq_sig;
	unsigned long rseq_event_mask;	/* RSEQ_EVENT_*: since the last fixup */
	/* SEM_UNDO's adjustments, shared under CLONE_SYSVSEM (kernel/ipc/sem.c) */
	struct sem_undo_list *sysvsem;

	/* ptrace (kernel/ptrace.c). Linux's parent is real_parent when not
	 * traced; umk's is NULL then, and the tracer while traced. A ptrace
	 * stop's report is exit_code, as Linux's (wait clears it). */
	unsigned int ptrace;		/* PT_* and the PTRACE_O_* options */
	struct task_struct *parent;	/* the tracer, NULL: not traced */
	struct list_head ptraced;	/* the tasks this one traces */
	struct list_head ptrace_entry;	/* in parent->ptraced */
	kernel_siginfo_t *last_siginfo;	/* the stop's siginfo, NULL: none */
	unsigned long ptrace_message;	/* PTRACE_GETEVENTMSG */
	int ptrace_syscall;		/* PTRACE_SYSCALL_INFO_* of this stop */
};

#define JOBCTL_STOP_PENDING (1UL << 17)	/* this thread must join a group stop */
#define JOBCTL_TRAP_STOP (1UL << 19)	/* ptrace: trap for a group stop or PTRACE_INTERRUPT */
#define JOBCTL_TRAP_NOTIFY (1UL << 20)	/* ptrace: trap for a SIGCONT (PT_SEIZED) */
#define JOBCTL_LISTENING (1UL << 22)	/* ptrace: PTRACE_LISTEN in effect */
#define JOBCTL_TRAP_MASK (JOBCTL_TRAP_STOP | JOBCTL_TRAP_NOTIFY)

static inline struct thread_info *task_thread_info(struct task_struct *t)
{
	return t->stack;
}

static inline bool thread_group_leader(struct task_struct *t)
{
	return t->group_leader == t;
}

/* All tasks, and the idle task (pid 0). */
extern struct list_head task_list;
extern struct task_struct *idle_task;

/* threads-max: past it clone fails with -EAGAIN (kernel/fork.c). A task
 * costs umk 4 host mappings (its kernel stack and guard page, its user
 * stack and guard), and the host's default vm.max_map_count is 65530:
 * 12288 tasks take three quarters of it. A sleeping task touches about
 * 24 KiB of host memory (10000 sleepers: 236 MB resident). */
#define MAX_THREADS 12288
/* kernel/fork.c: kernel.pid_max (PID_MAX_DEFAULT, at most PID_MAX_LIMIT) and
 * kernel.threads-max, which /proc/sys sets (kernel/fs/proc_sysctl.c). */
#define PID_MAX_DEFAULT 32768
#define PID_MAX_LIMIT 4194304
extern int pid_max, max_threads;

/* kernel/pid.c: the tasks on task_list by pid, O(1). attach_pid when p
 * joins task_list, detach_pid when it leaves (again: a no-op); change_pid
 * gives p another pid, in the table if p was. find_task_by_pid skips
 * EXIT_DEAD tasks. */
void attach_pid(struct task_struct *p);
void detach_pid(struct task_struct *p);
void change_pid(struct task_struct *p, pid_t pid);
struct task_struct *find_task_by_pid(pid_t pid);
const char *task_state_name(struct task_struct *t);
void ps(void);				/* a task dump, callable from gdb */

/* kernel/sched/core.c */
void sched_init(void);
void schedule(void);
void wake_up_process(struct task_struct *t);
void wake_up_new_task(struct task_struct *t);
bool wake_up_state(struct task_struct *t, long state);
void set_current_state(long state);
void resched_curr(void);
void schedule_tail(struct task_struct *prev);	/* NULL: the last switch's */
void cpu_idle(void) __noreturn;
void init_thread_info(struct task_struct *p, void *stack);
void strcpy_comm(struct task_struct *p, const char *name);
/* exec of an x86-64 program: the personality it starts with (kernel/exec_domain.c) */
void set_personality_64bit(void);
/* Policies (kernel/sched/core.c): p's new policy, rt_priority and nice take
 * effect at once, the runqueue reordered and current preempted if p now
 * outranks it or it no longer outranks the best waiting task. */
void sched_setattr(struct task_struct *p, int policy, unsigned int rt_priority, int nice);
void sched_fork(struct task_struct *p, struct task_struct *parent);
/* A SCHED_NORMAL, BATCH or IDLE task's time slice: 10 ms at nice 0,
 * scaled by its weight. */
u64 sched_normal_slice(struct task_struct *p);
static inline bool rt_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}
#define RR_TIMESLICE (100 * NSEC_PER_MSEC)	/* SCHED_RR's quantum */

/* kernel/fork.c */
void task_count_dec(void);
int nr_tasks(void);
/* kernel/sched/core.c: t's time on the CPU in ns, the running slice of the
 * current task included (Linux's task_sched_runtime). */
u64 task_sched_runtime(struct task_struct *t);		/* tasks that exist, zombies included, idle not */
/* kernel/sched/cputime.c: user and system time (docs/design.md, "CPU time").
 * The entry code stamps tsk's entry to the kernel (vtime_user_exit) and its
 * return to user mode (vtime_user_enter); schedule() stamps a switch. */
void vtime_user_exit(struct task_struct *tsk);
void vtime_user_enter(struct task_struct *tsk);
void vtime_task_switch(struct task_struct *prev, struct task_struct *next, u64 now);
/* t's user and system time so far in ns (same tasks as task_sched_runtime) */
void task_cputime(struct task_struct *t, u64 *utime, u64 *stime);
/* A process's, its exited threads' included (thread_group_cputime). */
void thread_group_cputime(struct signal_struct *sig, u64 *utime, u64 *stime);
/* A process's user time: its living threads', as process_cpu_time
 * (ITIMER_VIRTUAL's clock). */
u64 process_user_time(struct signal_struct *sig);
u64 nsec_to_clock_t(u64 ns);	/* in USER_HZ ticks */
/* kernel/sched/core.c: the 1, 5 and 15 minute load averages, as sysinfo gives
 * them (fixed point, 1 << 16 is 1.0) */
void get_avenrun(unsigned long loads[3]);
/* kernel/sys.c: p leads a new session and process group, both its pid. */
void set_special_pids(struct task_struct *p);	/* a task was released (reaped) */
/* A process (thread group leader, zombie or not) in group pgrp, or NULL. */
struct task_struct *pgrp_task(pid_t pgrp);

/* kernel/exit.c */
void release_task(struct task_struct *p);	/* free a reaped task */
/* kernel/fork.c */
struct sighand_struct *copy_sighand(struct sighand_struct *old);	/* NULL: all SIG_DFL */
struct task_struct *create_init_task(void (*fn)(void *), void *arg);
/* kernel/signal/signal.c */
void flush_signal_handlers(struct task_struct *t);
void do_exit(long code) __noreturn;
void do_group_exit(int exit_code) __noreturn;

/* Wait queues and completions (kernel/sched/wait.c) */
static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	INIT_LIST_HEAD(&wq->head);
}
static inline bool waitqueue_active(struct wait_queue_head *wq)
{
	return !list_empty(&wq->head);
}
/* w must come from DEFINE_WAIT; it stays queued until finish_wait. */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, long state);
/* The same, queued at the tail as an exclusive waiter: a wake_up wakes
 * every non-exclusive waiter and the first exclusive one. */
void prepare_to_wait_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *w,
			       long state);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w);
/* Queue w (with its own func) on wq, and take it off (poll tables). */
void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w);
void add_wait_queue_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *w);
void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *w);
/* Call each entry's func with mode and key, until an exclusive entry has
 * woken something (Linux's __wake_up with nr_exclusive 1). */
void __wake_up(struct wait_queue_head *wq, unsigned int mode, void *key);
/* Every sleeper on wq, and every poller whatever it waits for. */
void wake_up(struct wait_queue_head *wq);
/* A file's wake-up that says what became true (poll events): pollers and
 * epoll look only if they wait for one of them. */
void wake_up_poll(struct wait_queue_head *wq, unsigned int events);

/* Sleep until cond is true. Returns 0, or -ERESTARTSYS when a signal is
 * pending first: the caller returns that, and the signal code decides. */
#define wait_event_interruptible(wq, cond)                                     \
	({                                                                     \
		DEFINE_WAIT(__w);                                              \
		long __ret = 0;                                                \
		for (;;) {                                                     \
			prepare_to_wait(&(wq), &__w, TASK_INTERRUPTIBLE);      \
			if (cond)                                              \
				break;                                         \
			if (signal_pending(current)) {                         \
				__ret = -ERESTARTSYS;                          \
				break;                                         \
			}                                                      \
			schedule();                                            \
		}                                                              \
		finish_wait(&(wq), &__w);                                      \
		__ret;                                                         \
	})

/* A one-shot event (include/linux/completion.h), for vfork. */
struct completion {
	bool done;
	struct wait_queue_head wait;
};
void init_completion(struct completion *c);
void complete(struct completion *c);
/* Uninterruptible except by SIGKILL: returns -EINTR if killed. */
int wait_for_completion_killable(struct completion *c);

static inline bool signal_pending(struct task_struct *t)
{
	return test_ti_flag(task_thread_info(t), TIF_SIGPENDING);
}

/* kernel/signal/signal.c: send sig to t from the kernel (send_sig(SIGPIPE,
 * current, 0) for a write to a pipe without readers); priv != 0 means the
 * kernel itself, else the current task, is the sender. */
int send_sig(int sig, struct task_struct *t, int priv);
/* exec: drop current's pending POSIX timer signals (the timers are gone). */
void flush_itimer_signals(void);
void task_participate_group_stop(struct task_struct *t);
void zap_other_threads(struct task_struct *keep, struct signal_struct *sig);

/* kernel/signal/signal.c: a temporary signal mask for a sleeping call (ppoll,
 * pselect6, rt_sigsuspend), as Linux's set_user_sigmask. The old mask comes
 * back on the way to user mode: after the handler's frame has saved it if a
 * signal is delivered (so sigreturn restores it), at once otherwise. A call
 * that was not interrupted calls restore_saved_sigmask_unless(false). */
int set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize);
void restore_saved_sigmask_unless(bool interrupted);

static inline bool need_resched(void)
{
	return test_ti_flag(current_thread_info(), TIF_NEED_RESCHED);
}

#endif
