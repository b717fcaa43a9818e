/* include/umk/uapi/prctl.h: arch_prctl(2)'s codes
 * (arch/x86/include/uapi/asm/prctl.h) and the prctl(2) options umk
 * implements (include/uapi/linux/prctl.h). */
#ifndef UMK_UAPI_PRCTL_H
#define UMK_UAPI_PRCTL_H

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004

#define PR_SET_PDEATHSIG 1
#define PR_GET_PDEATHSIG 2
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME 15
#define PR_GET_NAME 16
#define PR_GET_TIMERSLACK 30
#define PR_SET_TIMERSLACK 29
#define PR_SET_CHILD_SUBREAPER 36
#define PR_GET_CHILD_SUBREAPER 37
#define PR_SET_NO_NEW_PRIVS 38
#define PR_GET_NO_NEW_PRIVS 39
#define PR_GET_TID_ADDRESS 40

#endif
