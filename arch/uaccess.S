/*
 * arch/uaccess.S: copies to and from user memory that survive a fault.
 *
 * Each instruction that touches user memory is listed in __ex_table with the
 * address to resume at. A host SIGSEGV or SIGBUS in kernel mode at a listed
 * instruction jumps there (arch/trap.c, fixup_exception), and the copy
 * returns what it had left to do, as Linux's exception table does. With
 * `rep movsb`/`rep stosb`, rcx holds exactly the bytes not yet done.
 */

.macro EX_ENTRY insn, fixup
	.pushsection __ex_table, "a"
	.balign 4
	.long \insn - ., \fixup - .	/* relative, as Linux's: no relocations */
	.popsection
.endm

	.text
/* unsigned long raw_copy_from_user(void *to, const void *from, unsigned long n)
 * unsigned long raw_copy_to_user(void *to, const void *from, unsigned long n)
 * Both return the number of bytes not copied. */
	.globl raw_copy_from_user
	.type raw_copy_from_user, @function
	.globl raw_copy_to_user
	.type raw_copy_to_user, @function
raw_copy_from_user:
raw_copy_to_user:
	movq	%rdx, %rcx
1:	rep movsb
2:	movq	%rcx, %rax
	ret
	EX_ENTRY 1b, 2b
	.size raw_copy_from_user, . - raw_copy_from_user
	.size raw_copy_to_user, . - raw_copy_to_user

/* unsigned long raw_clear_user(void *to, unsigned long n) */
	.globl raw_clear_user
	.type raw_clear_user, @function
raw_clear_user:
	movq	%rsi, %rcx
	xorl	%eax, %eax
3:	rep stosb
4:	movq	%rcx, %rax
	ret
	EX_ENTRY 3b, 4b
	.size raw_clear_user, . - raw_clear_user

	.section .note.GNU-stack, "", @progbits
