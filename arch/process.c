/*
 * arch/process.c: kernel stacks, kernel contexts and the first entry to user
 * mode.
 *
 * A kernel stack is a THREAD_SIZE-aligned block with a PROT_NONE guard page
 * below it; thread_info sits at its base and the stack grows down towards it.
 * The part above thread_info is the host sigaltstack of the task's user mode:
 * every frame that returns to user mode carries it in uc_stack with
 * SS_AUTODISARM, so the host re-arms the task's own stack at each return and
 * disarms it at each trap (docs/design.md, "Kernel stacks"). No sigaltstack call is ever
 * made at a context switch.
 *
 * A kernel context is a host ucontext_t: swapcontext switches, makecontext
 * starts a new one (gdb understands it). A task's first return to
 * user mode never uses setcontext (docs/design.md, "Context switch"): it goes through a
 * host signal frame crafted at the top of its kernel stack and __restore_rt.
 * The top FRAME_RESERVE bytes are kept for that frame; kernel contexts run
 * below them.
 */
#include "host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <umk/arch.h>
#include <umk/fpu.h>
#include <umk/ptrace.h>

#define FRAME_RESERVE (16 * 1024UL)

struct arch_context {
	ucontext_t uc;			/* saved kernel context */
	void (*fn)(void *);		/* where a new context starts */
	void *arg;
};

void *arch_alloc_kstack(void)
{
	size_t len = 2 * THREAD_SIZE;
	char *map, *base, *end;

	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	base = (char *)ALIGN((unsigned long)map + PAGE_SIZE, THREAD_SIZE);
	end = base + THREAD_SIZE;
	if (base - PAGE_SIZE > map)
		munmap(map, base - PAGE_SIZE - map);
	if (map + len > end)
		munmap(end, map + len - end);
	if (mprotect(base - PAGE_SIZE, PAGE_SIZE, PROT_NONE))
		panic("arch_alloc_kstack: mprotect guard page");
	return base;
}

void arch_free_kstack(void *base)
{
	munmap((char *)base - PAGE_SIZE, THREAD_SIZE + PAGE_SIZE);
}

/* The sigaltstack of a task's user mode: its kernel stack above thread_info. */
/* thread_info and the overflow magic take less than this. */
#define THREAD_INFO_RESERVE 512

static stack_t kstack_altstack(struct task_struct *p)
{
	char *lo = (char *)task_stack_base(p) + THREAD_INFO_RESERVE;

	return (stack_t){
		.ss_sp = lo,
		.ss_size = (char *)task_stack_base(p) + THREAD_SIZE - lo,
		.ss_flags = SS_AUTODISARM,
	};
}

static void kthread_trampoline(void)
{
	struct arch_context *ctx = *task_arch_context(get_current());

	ctx->fn(ctx->arg);
	panic("kthread_trampoline: %s returned", task_comm(get_current()));
}

int arch_setup_kthread(struct task_struct *p, void (*fn)(void *), void *arg)
{
	struct arch_context **slot = task_arch_context(p);
	struct arch_context *ctx = *slot;
	char *base = task_stack_base(p);
	char *lo = base + THREAD_INFO_RESERVE;

	if (!ctx) {
		ctx = calloc(1, sizeof(*ctx));
		if (!ctx)
			return -ENOMEM;
		*slot = ctx;
	}
	if (getcontext(&ctx->uc))
		panic("arch_setup_kthread: getcontext");
	ctx->fn = fn;
	ctx->arg = arg;
	ctx->uc.uc_link = NULL;
	ctx->uc.uc_stack.ss_sp = lo;
	ctx->uc.uc_stack.ss_size = base + THREAD_SIZE - FRAME_RESERVE - lo;
	ctx->uc.uc_stack.ss_flags = 0;
	/* Kernel contexts run with no host signal blocked: a nested interrupt
	 * only records itself, and no SUD trap can happen under ALLOW. */
	sigemptyset(&ctx->uc.uc_sigmask);
	/* getcontext saved our frame pointer: a walk of the new context's
	 * frames (oops, gdb's umk-bt) must end at its first frame instead. */
	ctx->uc.uc_mcontext.gregs[REG_RBP] = 0;
	makecontext(&ctx->uc, kthread_trampoline, 0);
	return 0;
}

void arch_free_context(struct task_struct *p)
{
	struct arch_context **slot = task_arch_context(p);

	free(*slot);
	*slot = NULL;
}

struct pt_regs *arch_init_user_frame(struct task_struct *p, const struct pt_regs *src)
{
	char *top = (char *)task_stack_base(p) + THREAD_SIZE;
	char *sp = top;
	void *fp = NULL;
	ucontext_t *uc;

	if (src && src->fpstate) {
		size_t n = fpstate_size(src->fpstate);

		sp = (char *)ALIGN_DOWN((unsigned long)(sp - n), 64);
		memcpy(sp, src->fpstate, n);
		fp = sp;
	}
	sp = (char *)ALIGN_DOWN((unsigned long)(sp - sizeof(*uc)), 64);
	if (sp - 64 < top - FRAME_RESERVE)
		panic("arch_init_user_frame: frame of %ld bytes exceeds %lu", (long)(top - sp),
		      FRAME_RESERVE);
	uc = (ucontext_t *)sp;
	memset(uc, 0, sizeof(*uc));
	uc->uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	uc->uc_stack = kstack_altstack(p);
	sigemptyset(&uc->uc_sigmask);	/* user mode: SIGSYS must not be blocked */
	if (src)
		memcpy(&uc->uc_mcontext, src, sizeof(uc->uc_mcontext));
	uc->uc_mcontext.fpregs = fp;	/* NULL: the host gives a fresh FPU */
	uc->uc_mcontext.gregs[REG_EFL] = src ? src->flags : 0x202;
	uc->uc_mcontext.gregs[REG_CSGSFS] = 0x33 | (0x2bL << 48);
	uc->uc_mcontext.gregs[REG_CR2] = SYSCALL_DISPATCH_FILTER_BLOCK;
	return (struct pt_regs *)&uc->uc_mcontext;
}

void arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
	struct arch_context *from = *task_arch_context(prev), *to = *task_arch_context(next);

	if (!from || !to || swapcontext(&from->uc, &to->uc))
		panic("arch_switch_to: switch %d -> %d failed", task_pid_nr(prev), task_pid_nr(next));
}

/* Boot: run fn on the idle task's kernel stack. The host stack of main() is
 * never returned to. */
void arch_boot_switch(struct task_struct *idle, void (*fn)(void *), void *arg)
{
	static ucontext_t boot_ctx;

	if (arch_setup_kthread(idle, fn, arg))
		panic("arch_boot_switch: no memory");
	swapcontext(&boot_ctx, &(*task_arch_context(idle))->uc);
	panic("arch_boot_switch: returned to main");
}
