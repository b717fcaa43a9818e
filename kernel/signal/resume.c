/*
 * kernel/signal/resume.c: SA_RESUME, umk's extension of the restart mechanism
 * (docs/design.md, "Resuming over a handler"). A call interrupted for a
 * handler with SA_RESUME continues when that handler returns through
 * rt_sigreturn, however the handler itself sleeps, is interrupted and
 * restarts its own calls.
 *
 * When signal_deliver.c decides "resume", the continuation of the call
 * (a copy of current's restart_block, or nothing for a call that runs again
 * with the time it wrote back) is saved here, on a per-task stack in kernel
 * memory, tagged with the address of the rt_sigframe built for the handler,
 * the interrupted ip and sp, and a per-task sequence number also written
 * into that frame (uc_mcontext.reserved1[RESUME_SEQ_SLOT]). rt_sigreturn
 * through that very frame, unchanged, pops the entry and reinstalls the
 * continuation; the frame's own registers (rip rewound over `syscall`, rax
 * = restart_syscall) then run it. Anything else (a frame edited, replayed,
 * forged, or rt_sigreturn or restart_syscall called by hand) finds no
 * matching entry, so restart_block stays do_no_restart_syscall: -EINTR.
 * Nothing from user memory is dereferenced or used as an index: the frame
 * address, registers and seq are only compared with kernel copies.
 *
 * Once saved, the continuation is in kernel memory only: restart_block is
 * reset to do_no_restart_syscall, so a restart_syscall made by hand in the
 * handler, or after a siglongjmp out of it, gets -EINTR.
 *
 * Entries a handler abandoned (siglongjmp) are dropped when the stack is
 * next used: an entry whose frame lies below the user sp (deeper on the
 * same stack), or on a sigaltstack the task has left, is dead.
 *
 * Preconditions: all of it runs for current, in a system call or on the way
 * out of one, with no other task running (one CPU, no kernel preemption).
 */
#include <umk/errno.h>
#include <umk/ptrace.h>
#include <umk/resume.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/trace.h>
#include <umk/unistd.h>

/* The calls that take part: those that leave a continuation for
 * restart_syscall (-ERESTART_RESTARTBLOCK: nanosleep, relative
 * clock_nanosleep, poll, a timed futex wait; restart_syscall itself when it
 * ran one of those again) and those that return -ERESTARTNOHAND after
 * writing back the time left, or with an absolute deadline (clock_nanosleep
 * with TIMER_ABSTIME, ppoll, select, pselect6). pause and rt_sigsuspend
 * also return -ERESTARTNOHAND but wait for a handler by definition. */
static bool call_resumable(long nr)
{
	switch (nr) {
	case __NR_nanosleep:
	case __NR_clock_nanosleep:
	case __NR_poll:
	case __NR_ppoll:
	case __NR_select:
	case __NR_pselect6:
	case __NR_futex:
	case __NR_restart_syscall:
		return true;
	}
	return false;
}

static bool on_stack_of(const struct resume_entry *e, unsigned long addr)
{
	return e->ss_size && addr > e->ss_lo && addr - e->ss_lo <= e->ss_size;
}

/* Is e's frame gone, seen from addr, a user sp or a frame being returned
 * through? On one stack, a frame below addr has been popped. A frame on the
 * sigaltstack is gone once addr is elsewhere; one on the main stack stays
 * while addr is on the sigaltstack (a nested handler there). */
static bool entry_dead(const struct resume_entry *e, unsigned long addr)
{
	bool e_alt = on_stack_of(e, e->frame);

	if (e_alt != on_stack_of(e, addr))
		return e_alt;
	return e->frame < addr;
}

static void drop_top(struct resume_stack *rs, const char *why)
{
	const struct resume_entry *e = &rs->e[--rs->depth];

	trace_with(TR_RESTART, &(struct trace_fields){ .nr = e->nr, .what = "dropped" },
		   "%s continuation dropped (frame %#lx): %s", syscall_name(e->nr), e->frame, why);
}

static void prune(struct resume_stack *rs, unsigned long addr)
{
	while (rs->depth && entry_dead(&rs->e[rs->depth - 1], addr))
		drop_top(rs, "its handler left without sigreturn");
}

/* Can the call nr, interrupted with the user sp at sp, be resumed? Drops the
 * entries of handlers left without sigreturn first. */
enum resume_ctx resume_ctx(long nr, unsigned long sp)
{
	struct resume_stack *rs = &current->resume;

	if (!call_resumable(nr))
		return RESUME_NO;
	prune(rs, sp);
	return rs->depth < RESUME_DEPTH ? RESUME_ROOM : RESUME_FULL;
}

/* Is this task, entered by an interrupt or a sigreturn (orig_ax < 0), about
 * to run restart_syscall for a continuation sigreturn reinstalled? Then a
 * handler that runs first must not lose it: signal_deliver.c saves it again
 * for that handler's frame. */
bool resume_armed(const struct pt_regs *regs)
{
	const struct resume_stack *rs = &current->resume;

	return current->orig_ax < 0 && rs->armed && regs->ip == rs->armed_ip &&
	       regs->ax == __NR_restart_syscall;
}

/* The call a continuation resume_armed() found is for. */
long resume_armed_nr(void)
{
	return current->resume.armed_nr;
}

/* Fill e for the context in regs, already rewound (ip over `syscall`, ax =
 * restart_syscall or nr); the frame is not built yet. */
void resume_save(struct resume_entry *e, const struct pt_regs *regs, long nr, bool block)
{
	struct task_struct *t = current;

	memset(e, 0, sizeof(*e));
	if (block)
		e->rb = current_thread_info()->restart_block;
	e->ip = regs->ip;
	e->sp = regs->sp;
	e->ss_lo = t->sas_ss_size ? t->sas_ss_sp : 0;
	e->ss_size = t->sas_ss_size;
	e->seq = ++t->resume.seq;
	e->nr = nr;
	e->block = block;
}

/* The frame for e's handler is at frame: keep e until its sigreturn.
 * Precondition: resume_ctx() said RESUME_ROOM, or depth was checked. */
void resume_push(const struct resume_entry *e, unsigned long frame)
{
	struct resume_stack *rs = &current->resume;

	if (rs->depth >= RESUME_DEPTH)
		return;
	rs->e[rs->depth] = *e;
	rs->e[rs->depth].frame = frame;
	rs->depth++;
	rs->armed = false;
	/* The kept copy is the only one: a handler left by siglongjmp, or a
	 * restart_syscall made by hand, must not find it in restart_block. */
	if (e->block)
		set_restart_fn(&current_thread_info()->restart_block, do_no_restart_syscall);
}

/*
 * rt_sigreturn through the frame at frame, whose saved registers are sc and
 * saved seq is seq (both from user memory: compared only). Called after
 * restart_block was reset to do_no_restart_syscall. If the newest live
 * entry is this frame's and the frame is as the kernel wrote it, reinstall
 * its continuation; an entry for this frame that does not match is dropped.
 */
void resume_sigreturn(unsigned long frame, const struct pt_regs *sc, u64 seq)
{
	struct resume_stack *rs = &current->resume;
	struct resume_entry *e;

	rs->armed = false;
	prune(rs, frame);
	if (!rs->depth || rs->e[rs->depth - 1].frame != frame)
		return;		/* a handler without SA_RESUME, or no frame of ours */
	e = &rs->e[rs->depth - 1];
	if (e->seq != seq || sc->ip != e->ip || sc->sp != e->sp ||
	    sc->ax != (e->block ? __NR_restart_syscall : (unsigned long)e->nr)) {
		drop_top(rs, "sigreturn through a changed or replayed frame");
		return;
	}
	rs->depth--;
	if (!e->block) {
		trace_with(TR_RESTART, &(struct trace_fields){ .nr = e->nr, .what = "resume_call" },
			   "sigreturn -> resume_call %s (depth %d)", syscall_name(e->nr), rs->depth);
		return;
	}
	current_thread_info()->restart_block = e->rb;
	rs->armed = true;
	rs->armed_ip = e->ip;
	rs->armed_nr = e->nr;
	trace_with(TR_RESTART, &(struct trace_fields){ .nr = e->nr, .what = e->rb.fn_name },
		   "sigreturn -> resume %s: %s (depth %d)", syscall_name(e->nr), e->rb.fn_name,
		   rs->depth);
}

/* exec: the old program's frames are gone. */
void resume_flush(struct task_struct *t)
{
	t->resume.depth = 0;
	t->resume.armed = false;
}

/* Any system call entry ends the window resume_armed() looks at. */
void resume_syscall_entry(void)
{
	current->resume.armed = false;
}
