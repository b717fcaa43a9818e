/* include/umk/uapi/ucontext.h: uc_flags of a signal frame's ucontext
 * (arch/x86/include/uapi/asm/ucontext.h). */
#ifndef UMK_UAPI_UCONTEXT_H
#define UMK_UAPI_UCONTEXT_H

#define UC_FP_XSTATE 0x1
#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4

#endif
