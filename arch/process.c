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
 * A kernel context is a saved stack pointer: __switch_to_asm (arch/switch.S)
 * pushes the callee-saved registers below the return address of its call
 * and saves the stack pointer, and arch_setup_kthread builds the same for a
 * new context. A switch makes no host call (docs/design.md, "Context
 * switch"). A task's first return to
 * user mode goes through a host signal frame crafted at the top of its
 * kernel stack and __restore_rt.
 * The top FRAME_RESERVE bytes are kept for that frame; kernel contexts run
 * below them.
 */
#include "host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <umk/entry.h>
#include <umk/fpu.h>
#include <umk/kernel.h>
#include <umk/os.h>
#include <umk/ptrace.h>

#define FRAME_RESERVE (16 * 1024UL)

struct arch_context {
	/* The saved context, while switched out: from sp up, r15 r14 r13 r12
	 * rbx rbp and the return address (arch/switch.S). */
	unsigned long sp;
	void (*fn)(void *);		/* where a new context starts */
	void *arg;
	void *asan_fake_stack;		/* ASan's, while switched out (asan.c) */
};

/* The switched-out context's registers, as arch/switch.S pushed them. */
struct switch_frame {
	unsigned long r15, r14, r13, r12, bx, bp;
	unsigned long ret;		/* where the context resumes */
	unsigned long ret_of_first;	/* a new context's: 0, the end of a walk */
};

void __switch_to_asm(unsigned long *prev_sp, unsigned long next_sp);

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
	/* The guard splits the mapping in two: the host may have no mapping
	 * left for it (vm.max_map_count), which is clone's -ENOMEM. */
	if (mprotect(base - PAGE_SIZE, PAGE_SIZE, PROT_NONE)) {
		munmap(base - PAGE_SIZE, THREAD_SIZE + PAGE_SIZE);
		return NULL;
	}
	return base;
}

void arch_free_kstack(void *base)
{
	asan_unpoison(base, THREAD_SIZE);
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

	asan_switch_finish(NULL);
	ctx->fn(ctx->arg);
	panic("kthread_trampoline: %s returned", task_comm(get_current()));
}

int arch_setup_kthread(struct task_struct *p, void (*fn)(void *), void *arg)
{
	struct arch_context **slot = task_arch_context(p);
	struct arch_context *ctx = *slot;
	char *base = task_stack_base(p);
	struct switch_frame *frame;

	if (!ctx) {
		ctx = calloc(1, sizeof(*ctx));
		if (!ctx)
			return -ENOMEM;
		*slot = ctx;
	}
	ctx->fn = fn;
	ctx->arg = arg;
	/* The first switch to it pops zeros (rbp 0 ends a walk of its frames:
	 * oops, gdb's umk-bt) and returns into kthread_trampoline as if it had
	 * been called: rsp + 8 16-byte aligned, a return address of 0 above. */
	frame = (struct switch_frame *)(base + THREAD_SIZE - FRAME_RESERVE) - 1;
	if ((unsigned long)&frame->ret % 16)
		panic("arch_setup_kthread: frame %p misaligned", (void *)frame);
	memset(frame, 0, sizeof(*frame));
	frame->ret = (unsigned long)kthread_trampoline;
	ctx->sp = (unsigned long)frame;
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

/*
 * No glibc runs here and __switch_to_asm touches no TLS, so this need not
 * load glibc's FS base (__tls_free): without FSGSBASE, a switch between two
 * tasks that go straight back to user mode then costs no arch_prctl.
 * panic() loads it itself, and so do the ASan build's asan_switch_start and
 * asan_switch_finish, which tell ASan that the stack changes (arch/asan.c).
 */
void __tls_free arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
	struct arch_context *from = *task_arch_context(prev), *to = *task_arch_context(next);

	if (!from || !to)
		panic("arch_switch_to: switch %d -> %d: no context", task_pid_nr(prev),
		      task_pid_nr(next));
	asan_switch_start(&from->asan_fake_stack, task_stack_base(next), THREAD_SIZE);
	__switch_to_asm(&from->sp, to->sp);
	asan_switch_finish(from->asan_fake_stack);
}

/* Boot: run fn on the idle task's kernel stack. The host stack of main() is
 * never returned to. */
void arch_boot_switch(struct task_struct *idle, void (*fn)(void *), void *arg)
{
	static unsigned long boot_sp;

	if (arch_setup_kthread(idle, fn, arg))
		panic("arch_boot_switch: no memory");
	asan_switch_start(NULL, task_stack_base(idle), THREAD_SIZE);
	__switch_to_asm(&boot_sp, (*task_arch_context(idle))->sp);
	panic("arch_boot_switch: returned to main");
}
