/* include/umk/uapi/signalfd.h: signalfd4(2)'s flags and what a read of a
 * signalfd returns (include/uapi/linux/signalfd.h). */
#ifndef UMK_UAPI_SIGNALFD_H
#define UMK_UAPI_SIGNALFD_H

#include <umk/types.h>
#include <umk/uapi/fcntl.h>

#define SFD_CLOEXEC O_CLOEXEC
#define SFD_NONBLOCK O_NONBLOCK

/* 128 bytes, every member at a fixed size: no compat read. */
struct signalfd_siginfo {
	u32 ssi_signo;
	s32 ssi_errno;
	s32 ssi_code;
	u32 ssi_pid;
	u32 ssi_uid;
	s32 ssi_fd;
	u32 ssi_tid;
	u32 ssi_band;
	u32 ssi_overrun;
	u32 ssi_trapno;
	s32 ssi_status;
	s32 ssi_int;
	u64 ssi_ptr;
	u64 ssi_utime;
	u64 ssi_stime;
	u64 ssi_addr;
	u16 ssi_addr_lsb;
	u16 __pad2;
	s32 ssi_syscall;
	u64 ssi_call_addr;
	u32 ssi_arch;
	u8 __pad[28];
};

#endif
