/* include/umk/uapi/ptrace.h: ptrace(2)'s requests, options, events and the
 * register layout a tracer sees (include/uapi/linux/ptrace.h,
 * arch/x86/include/uapi/asm/ptrace-abi.h, arch/x86/include/asm/user_64.h). */
#ifndef UMK_UAPI_PTRACE_H
#define UMK_UAPI_PTRACE_H

#include <umk/types.h>

#define PTRACE_TRACEME 0
#define PTRACE_PEEKTEXT 1
#define PTRACE_PEEKDATA 2
#define PTRACE_PEEKUSR 3
#define PTRACE_POKETEXT 4
#define PTRACE_POKEDATA 5
#define PTRACE_POKEUSR 6
#define PTRACE_CONT 7
#define PTRACE_KILL 8
#define PTRACE_SINGLESTEP 9
#define PTRACE_GETREGS 12
#define PTRACE_SETREGS 13
#define PTRACE_GETFPREGS 14
#define PTRACE_SETFPREGS 15
#define PTRACE_ATTACH 16
#define PTRACE_DETACH 17
#define PTRACE_SYSCALL 24
#define PTRACE_ARCH_PRCTL 30
#define PTRACE_SYSEMU 31
#define PTRACE_SYSEMU_SINGLESTEP 32
#define PTRACE_SETOPTIONS 0x4200
#define PTRACE_GETEVENTMSG 0x4201
#define PTRACE_GETSIGINFO 0x4202
#define PTRACE_SETSIGINFO 0x4203
#define PTRACE_GETREGSET 0x4204
#define PTRACE_SETREGSET 0x4205
#define PTRACE_SEIZE 0x4206
#define PTRACE_INTERRUPT 0x4207
#define PTRACE_LISTEN 0x4208
#define PTRACE_PEEKSIGINFO 0x4209
#define PTRACE_GETSIGMASK 0x420a
#define PTRACE_SETSIGMASK 0x420b
#define PTRACE_GET_SYSCALL_INFO 0x420e
#define PTRACE_GET_RSEQ_CONFIGURATION 0x420f

#define PTRACE_EVENT_FORK 1
#define PTRACE_EVENT_VFORK 2
#define PTRACE_EVENT_CLONE 3
#define PTRACE_EVENT_EXEC 4
#define PTRACE_EVENT_VFORK_DONE 5
#define PTRACE_EVENT_EXIT 6
#define PTRACE_EVENT_SECCOMP 7
#define PTRACE_EVENT_STOP 128

#define PTRACE_O_TRACESYSGOOD 1
#define PTRACE_O_TRACEFORK (1 << PTRACE_EVENT_FORK)
#define PTRACE_O_TRACEVFORK (1 << PTRACE_EVENT_VFORK)
#define PTRACE_O_TRACECLONE (1 << PTRACE_EVENT_CLONE)
#define PTRACE_O_TRACEEXEC (1 << PTRACE_EVENT_EXEC)
#define PTRACE_O_TRACEVFORKDONE (1 << PTRACE_EVENT_VFORK_DONE)
#define PTRACE_O_TRACEEXIT (1 << PTRACE_EVENT_EXIT)
#define PTRACE_O_TRACESECCOMP (1 << PTRACE_EVENT_SECCOMP)
#define PTRACE_O_EXITKILL (1 << 20)
#define PTRACE_O_SUSPEND_SECCOMP (1 << 21)
#define PTRACE_O_MASK (0x000000ff | PTRACE_O_EXITKILL | PTRACE_O_SUSPEND_SECCOMP)

/* PTRACE_PEEKSIGINFO's argument: nr siginfos from the off'th queued one,
 * of the thread's queue or, with PTRACE_PEEKSIGINFO_SHARED, its process's. */
struct ptrace_peeksiginfo_args {
	u64 off;
	u32 flags;
	s32 nr;
};
#define PTRACE_PEEKSIGINFO_SHARED 1

/* PTRACE_GET_RSEQ_CONFIGURATION's answer: the tracee's rseq registration. */
struct ptrace_rseq_configuration {
	u64 rseq_abi_pointer;
	u32 rseq_abi_size;
	u32 signature;
	u32 flags;
	u32 pad;
};

/* PTRACE_GET_SYSCALL_INFO's op */
#define PTRACE_SYSCALL_INFO_NONE 0
#define PTRACE_SYSCALL_INFO_ENTRY 1
#define PTRACE_SYSCALL_INFO_EXIT 2
#define PTRACE_SYSCALL_INFO_SECCOMP 3

#define AUDIT_ARCH_X86_64 0xc000003eU

struct ptrace_syscall_info {
	u8 op;			/* PTRACE_SYSCALL_INFO_* */
	u8 pad[3];
	u32 arch;
	u64 instruction_pointer;
	u64 stack_pointer;
	union {
		struct {
			u64 nr;
			u64 args[6];
		} entry;
		struct {
			s64 rval;
			u8 is_error;
		} exit;
		struct {
			u64 nr;
			u64 args[6];
			u32 ret_data;
		} seccomp;
	};
};

/* The general registers as PTRACE_GETREGS, NT_PRSTATUS and a core file
 * show them (struct user_regs_struct of arch/x86/include/asm/user_64.h). */
struct user_regs_struct {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax,
		ip, cs, flags, sp, ss, fs_base, gs_base, ds, es, fs, gs;
};

/* PEEKUSER/POKEUSER offsets into struct user: the registers first, the
 * debug registers at u_debugreg. */
#define USER_REGS_SIZE sizeof(struct user_regs_struct)
#define USER_DEBUGREG_OFFSET 848
#define USER_STRUCT_SIZE 912

/* ELF note types of GETREGSET/SETREGSET */
#define NT_PRSTATUS 1
#define NT_PRFPREG 2
#define NT_X86_XSTATE 0x202

#endif
