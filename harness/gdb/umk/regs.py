"""A task's user registers (struct pt_regs) and thread_info flags.

pt_regs is the host sigcontext in the signal frame of the task's last entry
from user mode (include/umk/ptrace.h); orig_rax lives in the task. The
layout follows Linux's __show_regs, with umk's two entry slots after it:
trapno holds the user's FS base and cr2 the SUD selector to return with.
"""

from umk import constants
from umk.syscalls import retval_str, syscall_name
from umk.utils import slong, ulong

# Linux's __show_regs order, three to a line: (label, pt_regs field).
_GPRS = (("RAX", "ax"), ("RBX", "bx"), ("RCX", "cx"),
         ("RDX", "dx"), ("RSI", "si"), ("RDI", "di"),
         ("RBP", "bp"), ("R08", "r8"), ("R09", "r9"),
         ("R10", "r10"), ("R11", "r11"), ("R12", "r12"),
         ("R13", "r13"), ("R14", "r14"), ("R15", "r15"))


def orig_rax_str(orig_ax):
    """ "0000000000000023 (nanosleep)", or "... (not a system call)"."""
    what = syscall_name(orig_ax) if orig_ax >= 0 else "not a system call"
    return "%016x (%s)" % (orig_ax & 0xFFFFFFFFFFFFFFFF, what)


def format_regs(regs, orig_ax):
    """The lines that show *regs, a struct pt_regs * gdb.Value."""
    r = regs.dereference()
    lines = [
        "RIP: %04x:%016x" % (int(r["cs"]), ulong(r["ip"])),
        "RSP: %04x:%016x EFLAGS: %08x ORIG_RAX: %s"
        % (int(r["ss"]), ulong(r["sp"]), ulong(r["flags"]), orig_rax_str(orig_ax)),
    ]
    for i in range(0, len(_GPRS), 3):
        lines.append(" ".join("%s: %016x" % (label, ulong(r[field]))
                              for label, field in _GPRS[i:i + 3]))
    lines.append("FS_BASE: %016x SELECTOR: %02x FPSTATE: %016x"
                 % (ulong(r["trapno"]), ulong(r["cr2"]), ulong(r["fpstate"])))
    if orig_ax >= 0:
        lines.append("RAX as a return value: %s" % retval_str(slong(ulong(r["ax"]))))
    return lines


def tif_flags_str(flags):
    """ "0x4 (TIF_SIGPENDING)": the TIF_* bits of a thread_info's flags;
    bits umk has no name for are shown as bit N."""
    names = []
    for bit in range(64):
        if flags >> bit & 1:
            names.append(constants.TIF_BITS.get(bit, "bit %d" % bit))
    return "%#x (%s)" % (flags, "|".join(names) or "none")
