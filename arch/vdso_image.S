/*
 * arch/vdso_image.S: the vDSO image (build/arch/vdso/vdso.so, from
 * arch/vdso/) embedded in umk. arch/vdso.c copies it into an executable
 * mapping at boot, behind its data page; it is never run from here.
 */
	.section .rodata.vdso, "a"
	.balign 4096
	.globl vdso_image_start, vdso_image_end
vdso_image_start:
	.incbin "vdso.so"
vdso_image_end:
	.section .note.GNU-stack, "", @progbits
