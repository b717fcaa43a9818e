/* SA_RESUME (umk's extension, docs/design.md "Resuming over a handler"):
 * the continuations a task saved for handlers that are still running, one
 * per rt_sigframe, newest last. Kernel memory only: sigreturn compares what
 * the user frame holds against an entry and never takes a pointer or an
 * index from it. kernel/signal/resume.c keeps the stack; signal_deliver.c calls it
 * when it delivers a signal and in rt_sigreturn. */
#ifndef UMK_RESUME_H
#define UMK_RESUME_H

#include <umk/restart.h>
#include <umk/restart_block.h>
#include <umk/types.h>

/* Saved continuations per task: one more nesting level gets -EINTR. */
#define RESUME_DEPTH 8

struct pt_regs;
struct task_struct;

struct resume_entry {
	struct restart_block rb;	/* block: the continuation to reinstall */
	unsigned long frame;		/* the rt_sigframe's user address */
	unsigned long ip, sp;		/* the interrupted context, ip rewound */
	unsigned long ss_lo, ss_size;	/* the sigaltstack when saved (size 0: none) */
	u64 seq;			/* per task; the frame holds a copy */
	long nr;			/* the call interrupted (orig_ax) */
	bool block;			/* through restart_syscall, else the call again */
};

struct resume_stack {
	struct resume_entry e[RESUME_DEPTH];
	int depth;
	u64 seq;			/* the last seq given out */
	bool armed;			/* sigreturn reinstalled a continuation that */
	unsigned long armed_ip;		/* restart_syscall at armed_ip is to run */
	long armed_nr;			/* for the call armed_nr */
};

/* Where the frame keeps its seq: uc_mcontext.reserved1[RESUME_SEQ_SLOT]. */
#define RESUME_SEQ_SLOT 0

enum resume_ctx resume_ctx(long nr, unsigned long sp);
bool resume_armed(const struct pt_regs *regs);
long resume_armed_nr(void);
void resume_save(struct resume_entry *e, const struct pt_regs *regs, long nr, bool block);
void resume_push(const struct resume_entry *e, unsigned long frame);
void resume_sigreturn(unsigned long frame, const struct pt_regs *sc, u64 seq);
void resume_flush(struct task_struct *t);
void resume_syscall_entry(void);

#endif
