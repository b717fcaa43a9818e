/* struct pt_regs: the user registers saved at a kernel entry.
 *
 * Departure from Linux: umk's pt_regs is not pushed by entry code; it is the
 * host's struct sigcontext inside the host signal frame of the user-to-kernel
 * trap, on the task's kernel stack. The layout is therefore Linux's x86-64
 * sigcontext (arch/x86/include/uapi/asm/sigcontext.h), with pt_regs' names.
 * orig_ax is not in the frame: it lives in the task (task->orig_ax).
 * Two fields the host's sigreturn ignores carry entry state for arch/:
 * trapno holds the interrupted FS base and cr2 the SUD selector to return
 * with. */
#ifndef UMK_PTRACE_H
#define UMK_PTRACE_H

#include <umk/types.h>

struct pt_regs {
	unsigned long r8, r9, r10, r11, r12, r13, r14, r15;
	unsigned long di, si, bp, bx, dx, ax, cx, sp, ip, flags;
	u16 cs, gs, fs, ss;
	unsigned long err;
	unsigned long trapno;	/* arch/: the user's FS base */
	unsigned long oldmask;
	unsigned long cr2;	/* arch/: SUD selector for the return */
	void *fpstate;		/* host xsave area, or NULL */
	unsigned long reserved1[8];
};

#define X86_EFLAGS_TF 0x100UL
#define X86_EFLAGS_IF 0x200UL
#define X86_EFLAGS_DF 0x400UL
#define X86_EFLAGS_RF 0x10000UL

/* The length of the `syscall` instruction: rewinding ip by it restarts. */
#define SYSCALL_INSN_LEN 2

static inline unsigned long user_fs_base(const struct pt_regs *regs)
{
	return regs->trapno;
}

static inline void set_user_fs_base(struct pt_regs *regs, unsigned long fs)
{
	regs->trapno = fs;
}

#endif
