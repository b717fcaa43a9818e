/*
 * arch/switch.S: the kernel context switch (arch/x86/entry/entry_64.S's
 * __switch_to_asm).
 *
 *	void __switch_to_asm(unsigned long *prev_sp, unsigned long next_sp)
 *
 * Pushes the callee-saved registers on the current stack, stores the stack
 * pointer in *prev_sp, loads next_sp, pops the next context's registers and
 * returns into it. Everything else a C caller may expect to survive a call
 * is on the stack already; the caller-saved registers, the FPU and vector
 * registers included, do not have to. So a switch costs a few cycles and
 * no host call: unlike swapcontext it leaves the host signal mask alone,
 * which docs/design.md ("Context switch and the first entry to user mode")
 * explains is correct for umk's kernel contexts.
 *
 * A saved context, from its stack pointer up:
 *	r15 r14 r13 r12 rbx rbp  return address
 * arch_setup_kthread builds one for a new context whose return address is
 * its first function; harness/gdb/umk/backtrace.py reads rbp and the
 * return address there.
 */
	.text
	.globl __switch_to_asm
	.type __switch_to_asm, @function
__switch_to_asm:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	pushq	%r15
	.cfi_adjust_cfa_offset 8

	movq	%rsp, (%rdi)
	movq	%rsi, %rsp

	popq	%r15
	.cfi_adjust_cfa_offset -8
	popq	%r14
	.cfi_adjust_cfa_offset -8
	popq	%r13
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size __switch_to_asm, . - __switch_to_asm

	.section .note.GNU-stack, "", @progbits
