"""umk-bt: the kernel backtrace of a task, from its saved context.

A switched-out task's kernel context is the stack pointer that
__switch_to_asm (arch/switch.S) saved in its struct arch_context
(arch/process.c), above which it pushed r15 r14 r13 r12 rbx rbp and, above
them, the return address: rip is in arch_switch_to, rbp its frame pointer. umk is built with frame pointers, so
each frame holds the caller's rbp at [rbp] and the return address at
[rbp + 8]. The walk checks that every frame pointer lies in the task's
kernel stack and goes up, and stops at 64 frames. The bottom kernel frame
is the C handler of the host signal that entered the kernel: its return
address is __restore_rt, the signal trampoline; past it is user mode,
whose registers are the task's pt_regs. A context that never came from user
mode (the idle task's) begins in kthread_trampoline (arch_setup_kthread's
start).
"""

import gdb

from umk.tasks import current_task, stack_range, task_arg
from umk.utils import Command, c_string, function_at, lookup_type, ulong

MAX_FRAMES = 64


def frame_str(n, pc, is_return):
    """ "#1  0x... in schedule+0x9c at kernel/sched/core.c:290". A return address
    is looked up one byte back (in the call), as gdb does."""
    look = pc - 1 if is_return else pc
    where = function_at(look)
    name = "%s+%#x" % (where[0], pc - where[1]) if where else "??"
    if where and where[2]:
        name += " [inlined %s]" % where[2]
    sal = gdb.find_pc_line(look)
    line = " at %s:%d" % (sal.symtab.filename, sal.line) if sal.symtab else ""
    return "#%-2d 0x%016x in %s%s" % (n, pc, name, line)


def read_ulong(addr):
    ptr = gdb.Value(addr).cast(lookup_type("unsigned long").pointer())
    return ulong(ptr.dereference())


def saved_context(t):
    """(rip, rsp, rbp) of t's saved kernel context: what the context will
    have once __switch_to_asm has popped its registers and returned."""
    ctx = t["kctx"]
    if not int(ctx):
        raise gdb.GdbError("pid %d has no kernel context" % int(t["pid"]))
    arch = ctx.cast(lookup_type("struct arch_context").pointer()).dereference()
    frame = arch["sp"].cast(lookup_type("struct switch_frame").pointer()).dereference()
    return ulong(frame["ret"]), ulong(frame["ret"].address) + 8, ulong(frame["bp"])


def walk(t):
    """The backtrace lines of switched-out task t."""
    lo, hi = stack_range(t)
    if not lo:
        raise gdb.GdbError("pid %d has no kernel stack: it is dead" % int(t["pid"]))
    rip, rsp, fp = saved_context(t)
    restore_rt = ulong(gdb.parse_and_eval("(unsigned long)&__restore_rt"))
    lines = ["pid %d (%s), switched out: kernel stack %#x-%#x, saved rsp %#x"
             % (int(t["pid"]), c_string(t["comm"]), lo, hi, rsp),
             frame_str(0, rip, False)]
    where = function_at(rip)
    if where and where[0] == "kthread_trampoline" and where[1] == rip:
        lines.append("-- kthread_trampoline: a new kernel context, not yet run --")
        return lines
    for n in range(1, MAX_FRAMES):
        if fp % 8 or not lo < fp < hi - 16:
            lines.append("(frame pointer %#x is not in the kernel stack: the walk stops)" % fp)
            return lines
        ret = read_ulong(fp + 8)
        if ret == restore_rt:
            lines.append("-- __restore_rt: the signal frame of the entry from user mode --")
            lines.append(user_line(t, lo, hi))
            return lines
        lines.append(frame_str(n, ret, True))
        where = function_at(ret - 1)
        if where and where[0] == "kthread_trampoline":
            lines.append("-- kthread_trampoline: where the kernel context began --")
            return lines
        up = read_ulong(fp)
        if up <= fp:
            lines.append("(frame pointer %#x does not go up: the walk stops)" % up)
            return lines
        fp = up
    lines.append("(%d frames: the walk stops)" % MAX_FRAMES)
    return lines


def user_line(t, lo, hi):
    regs = t["regs"]
    if not lo <= ulong(regs) < hi:
        return "user mode: pt_regs %#x is not on the kernel stack" % ulong(regs)
    return "user mode: rip 0x%016x rsp 0x%016x (pt_regs %#x)" % (
        ulong(regs["ip"]), ulong(regs["sp"]), ulong(regs))


class UmkBt(Command):
    """Kernel backtrace of a task: umk-bt [PID]

For a switched-out task (any task but the current one), walks the frame
pointers from the kernel context it saved at its last switch (its
arch_context's saved stack: rip, rsp, rbp), one line per frame, innermost
first: "#N  ADDRESS in FUNCTION+OFFSET at FILE:LINE". The walk ends at the
signal frame __restore_rt, the entry from user mode, and then shows the
user-mode rip and rsp from the task's pt_regs; it checks that every frame
pointer lies in the task's kernel stack and stops after 64 frames. For the
current task (the default without PID) it says so and runs gdb's own bt,
which unwinds through __restore_rt into the user program itself."""

    def __init__(self):
        super().__init__("umk-bt")

    def run(self, arg):
        t = task_arg(arg)
        if int(t) == int(current_task()):
            gdb.write("pid %d (%s) is the current task: gdb's own backtrace\n"
                      % (int(t["pid"]), c_string(t["comm"])))
            gdb.execute("bt")
            return
        gdb.write("\n".join(walk(t)) + "\n")


UmkBt()
