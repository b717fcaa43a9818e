/* The FPU state in a signal frame (arch/x86/include/uapi/asm/sigcontext.h):
 * the 512-byte fxsave area, whose software-reserved bytes at offset 464
 * (struct _fpx_sw_bytes) describe the xsave area that follows, then the
 * xsave header at 512. Shared by arch/ (crafted frames) and kernel/ (user
 * frames, sigreturn). */
#ifndef UMK_FPU_H
#define UMK_FPU_H

#include <umk/types.h>

#define FP_XSTATE_MAGIC1 0x46505853U
#define FP_XSTATE_MAGIC2 0x46505845U
#define FXSAVE_SIZE 512

struct fpx_sw_bytes {
	u32 magic1;
	u32 extended_size;	/* everything, magic2 included */
	u64 xfeatures;
	u32 xstate_size;	/* up to magic2 */
	u32 padding[7];
};

static inline const struct fpx_sw_bytes *fpx_sw(const void *fp)
{
	return (const struct fpx_sw_bytes *)((const char *)fp + 464);
}

/* Bytes of the FPU frame at fp (a host frame's, or NULL). */
static inline size_t fpstate_size(const void *fp)
{
	if (!fp)
		return 0;
	return fpx_sw(fp)->magic1 == FP_XSTATE_MAGIC1 ? fpx_sw(fp)->extended_size : FXSAVE_SIZE;
}

#endif
