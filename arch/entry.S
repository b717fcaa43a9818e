/*
 * arch/entry.S: the entry and exit code, and the SUD allowed region.
 *
 * Everything in .text.kentry lies between kentry_start and kentry_end. That
 * range is both the Syscall User Dispatch "allowed" region (a `syscall` there
 * is never trapped, whatever the selector says) and the range of instruction
 * pointers that count as kernel mode even when the selector still reads BLOCK
 * (docs/design.md, "Traps").
 *
 * Entry: the host delivers a signal onto the current task's kernel stack (the
 * sigaltstack, armed with SS_AUTODISARM while in user mode) or, in kernel
 * mode, onto the stack in use. Each stub reads the old selector, sets ALLOW,
 * clears EFLAGS.AC (a program may set it, and the host keeps it across
 * signal delivery: the kernel would then take alignment faults in glibc; a
 * CPU's syscall entry clears it through the FMASK MSR), saves the
 * interrupted FS base in the frame's trapno slot and jumps to its C handler
 * as
 *	handler(int sig, siginfo_t *info, ucontext_t *uc, unsigned int oldsel)
 * The jmp keeps the host's alignment (rsp + 8 is 16-byte aligned).
 *
 * The FS base (arch/fsbase.c, docs/design.md): with FSGSBASE the stub reads
 * it with rdfsbase and loads the kernel's with wrfsbase. Without, it leaves
 * the CPU alone and saves cpu_fs_base, which is exactly what the CPU holds;
 * the kernel's base is loaded later, and only if glibc is about to run.
 *
 * Exit: the C handler leaves the selector to return with in the frame's cr2
 * slot and the FS base to return with in its trapno slot; __restore_rt
 * loads that FS base (without FSGSBASE only when the CPU holds another), then
 * the selector, then issues rt_sigreturn, which restores every register, the
 * FPU state, the host signal mask and the sigaltstack. No C code runs after
 * the user's FS base is loaded. gdb recognises a signal trampoline by the
 * name __restore_rt only: keep it.
 */
#include <asm/prctl.h>
#include <asm/unistd.h>

#define UC_MCONTEXT	40			/* offsetof(ucontext_t, uc_mcontext) */
#define UC_TRAPNO	(UC_MCONTEXT + 20 * 8)	/* gregs[REG_TRAPNO]: FS base */
#define UC_CR2		(UC_MCONTEXT + 22 * 8)	/* gregs[REG_CR2]: selector */
#define SUD_ALLOW	0
#define X86_EFLAGS_AC	0x40000

	.section .text.kentry, "ax", @progbits
	.globl kentry_start
kentry_start:

.macro ENTRY_STUB name, handler
	.globl \name
	.type \name, @function
\name:
	movzbl	sud_selector(%rip), %ecx
	movb	$SUD_ALLOW, sud_selector(%rip)
	pushfq
	andl	$~X86_EFLAGS_AC, (%rsp)
	popfq
	cmpb	$0, have_fsgsbase(%rip)
	je	1f
	rdfsbase %rax
	movq	%rax, UC_TRAPNO(%rdx)
	movq	kernel_fs_base(%rip), %rax
	wrfsbase %rax
	jmp	\handler
1:	movq	cpu_fs_base(%rip), %rax
	movq	%rax, UC_TRAPNO(%rdx)
	jmp	\handler
	.size \name, . - \name
.endm

	ENTRY_STUB entry_SIGSYS, handle_sigsys
	ENTRY_STUB entry_SIGALRM, handle_sigalrm
	ENTRY_STUB entry_SIGIO, handle_sigio
	ENTRY_STUB entry_fault, handle_fault
	ENTRY_STUB entry_hostsig, handle_hostsig
	ENTRY_STUB entry_SIGWINCH, handle_sigwinch

/*
 * arch_enter_user(struct pt_regs *regs): the first return to user mode of a
 * task (ret_from_fork), through a frame crafted on its kernel stack. regs is
 * the frame's uc_mcontext; the restorer expects rsp = &uc.
 */
	.globl arch_enter_user
	.type arch_enter_user, @function
arch_enter_user:
	leaq	-UC_MCONTEXT(%rdi), %rsp
	jmp	__restore_rt
	.size arch_enter_user, . - arch_enter_user

	nop				/* as glibc: gdb looks at the byte before */
	.globl __restore_rt
	.type __restore_rt, @function
__restore_rt:
	movq	UC_TRAPNO(%rsp), %rsi
	cmpb	$0, have_fsgsbase(%rip)
	je	1f
	wrfsbase %rsi
	jmp	2f
1:	cmpq	cpu_fs_base(%rip), %rsi
	je	2f
	movl	$ARCH_SET_FS, %edi
	movl	$__NR_arch_prctl, %eax
	syscall				/* allowed: we are in .text.kentry */
	testq	%rax, %rax
	jnz	2f			/* refused: the CPU still holds cpu_fs_base */
	movq	%rsi, cpu_fs_base(%rip)
2:	movzbl	UC_CR2(%rsp), %eax
	movb	%al, sud_selector(%rip)
	movl	$__NR_rt_sigreturn, %eax
	syscall
	ud2				/* rt_sigreturn does not return */
	.size __restore_rt, . - __restore_rt

	.globl kentry_end
kentry_end:

	.section .note.GNU-stack, "", @progbits
