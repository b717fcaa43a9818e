"""umk-trace: the last events of the kernel's trace ring (kernel/trace/trace.c).

trace_ring.head counts the entries ever written; entry i is at
e[i % TRACE_RING_SIZE], so the ring holds the last TRACE_RING_SIZE of them.
Each is printed as --trace writes it: "<sec.usec> <pid> <event> <details>".
A system call's enter or exit recorded without --trace has no text (the
ring keeps nr, ret and an entry's raw arguments, see trace_syscall): its
details are made here as trace_sys_enter and trace_sys_exit in kernel/trace/trace_syscalls.c
would, except that the arguments are shown raw, in hex, not decoded:
"nanosleep(0x7ffff31ff480, 0x0)". A switch, a wake-up or a timer's expiry is
recorded with its fields only (trace_event): its text is made from them here
as trace_fields_text in kernel/trace/trace.c makes it for --trace.
"""

import gdb

from umk import constants
from umk.syscalls import errno_name, is_err_value, syscall_name
from umk.utils import Command, c_string, parse_int, require_process, slong, ulong

DEFAULT_COUNT = 20


def syscall_details(event, nr, ret, args):
    """The text trace_sys_enter/trace_sys_exit would have written, args raw."""
    name = syscall_name(nr)
    if event == int(gdb.parse_and_eval("TR_ENTER")):
        table = gdb.parse_and_eval("'kernel/syscall.c'::sys_call_table")
        nargs = len(c_string(table[nr]["args"])) if 0 <= nr <= table.type.range()[1] else 6
        return "%s(%s)" % (name, ", ".join("%#x" % ulong(args[i]) for i in range(nargs)))
    err = errno_name(-ret) if is_err_value(ret) else None
    if err:
        return "%s = -1 %s" % (name, err)
    if nr in (constants.__NR_mmap, constants.__NR_mremap, constants.__NR_brk):
        return "%s = %s" % (name, "%#x" % (ret & 0xFFFFFFFFFFFFFFFF) if ret else "0")
    return "%s = %d" % (name, ret)


def fields_details(event, e):
    """The text trace_fields_text gives an event trace_event recorded, or None."""
    f = e["f"]
    if event == int(gdb.parse_and_eval("TR_SWITCH")):
        return "%d -> %d (%s)" % (int(e["pid"]), int(f["other"]), c_string(f["what"]))
    if event == int(gdb.parse_and_eval("TR_WAKEUP")):
        return "%d" % int(f["other"])
    if event == int(gdb.parse_and_eval("TR_TIMER")):
        return "%s expired" % c_string(f["what"])
    return None


def entry_line(e, event_names):
    ts = int(e["ts"])
    event = int(e["event"])
    name = event_names[event].string() if 0 <= event < len(event_names) else "?"
    details = c_string(e["msg"])
    if not details and event in (int(gdb.parse_and_eval("TR_ENTER")),
                                 int(gdb.parse_and_eval("TR_EXIT"))):
        details = syscall_details(event, int(e["f"]["nr"]), slong(int(e["f"]["ret"])), e["args"])
    elif not details:
        details = fields_details(event, e) or ""
    return "%d.%06d %d %s %s" % (ts // constants.NSEC_PER_SEC,
                                 ts % constants.NSEC_PER_SEC // constants.NSEC_PER_USEC,
                                 int(e["pid"]), name, details)


class UmkTrace(Command):
    """Print the last events of umk's trace ring: umk-trace [N [PID]]

The last N events (default 20; the ring keeps the last 4096), oldest
first, one per line exactly as umk --trace writes them:
    <seconds since boot> <pid> <event> <details>
With PID, the last N events of that pid only (those it recorded: a signal
is recorded by its sender). The ring records every event whether or not
--trace is on. Without it, a system call's enter and exit are kept
unformatted (number, raw arguments, return value): umk-trace then names
the call and its value as --trace would ("exit nanosleep = -1 EINTR") and
shows the arguments raw, in hex: "nanosleep(0x7ffff31ff480, 0x0)". Switches,
wake-ups and timers are kept as their fields, and shown as --trace writes
them."""

    def __init__(self):
        super().__init__("umk-trace")

    def run(self, arg):
        require_process()
        args = gdb.string_to_argv(arg)
        if len(args) > 2:
            raise gdb.GdbError("usage: umk-trace [N [PID]]")
        count = parse_int(args[0], "count") if args else DEFAULT_COUNT
        if count <= 0:
            raise gdb.GdbError("the count must be positive, not %d" % count)
        pid = parse_int(args[1], "pid") if len(args) > 1 else None
        ring = gdb.parse_and_eval("trace_ring")
        head = ulong(ring["head"])
        size = constants.TRACE_RING_SIZE
        entries = []
        for i in range(head - 1, max(0, head - size) - 1, -1):
            if len(entries) == count:
                break
            e = ring["e"][i % size]
            if pid is None or int(e["pid"]) == pid:
                entries.append(e)
        names = gdb.parse_and_eval("'kernel/trace/trace.c'::trace_event_names")
        names = [names[i] for i in range(names.type.range()[1] + 1)]
        gdb.write("".join(entry_line(e, names) + "\n" for e in reversed(entries)))


UmkTrace()
