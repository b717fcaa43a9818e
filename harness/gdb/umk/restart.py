"""A task's restart_block: the continuation restart_syscall would run.

fn is named by resolving the function pointer through gdb (umk's fn_name
field is only checked against it), and the union member that fn uses is
decoded: nanosleep for hrtimer_nanosleep_restart (kernel/time/time.c), futex for
futex_wait_restart (kernel/futex.c), poll for do_restart_poll
(kernel/fs/select.c). Also the continuations SA_RESUME keeps for running
handlers (task_struct.resume, kernel/signal/resume.c).
"""

import gdb

from umk import constants
from umk.utils import c_string, function_at, ulong, user_deref


def ns_str(ns, clockid):
    """ "1234567890 ns = 1.234567890 s on CLOCK_MONOTONIC"."""
    sec, nsec = divmod(ns, constants.NSEC_PER_SEC)
    return "%d ns = %d.%09d s on %s" % (ns, sec, nsec, clock_name(clockid))


def clock_name(clockid):
    return constants.CLOCKS.get(clockid, "clock %d" % clockid)


def user_timespec_str(ptr):
    """ "0x7ffe... -> {0 s, 399962155 ns}": a user timespec and what it holds."""
    if not int(ptr):
        return "NULL"
    try:
        ts = user_deref(ptr)
        return "%#x -> {%d s, %d ns}" % (ulong(ptr), int(ts["tv_sec"]), int(ts["tv_nsec"]))
    except gdb.MemoryError:
        return "%#x (unreadable)" % ulong(ptr)


def _nanosleep(rb):
    m = rb["nanosleep"]
    clockid = int(m["clockid"])
    return ["  nanosleep.clockid  %s (%d)" % (clock_name(clockid), clockid),
            "  nanosleep.rmtp     %s" % user_timespec_str(m["rmtp"]),
            "  nanosleep.expires  %s" % ns_str(int(m["expires"]), clockid)]


def _futex(rb):
    m = rb["futex"]
    flags = int(m["flags"])
    names = [name for bit, name in sorted(constants.FUTEX_FLAGS.items()) if flags & bit]
    uaddr = m["uaddr"]
    try:
        word = "-> %d" % int(user_deref(uaddr)) if int(uaddr) else ""
    except gdb.MemoryError:
        word = "(unreadable)"
    clock = constants.CLOCK_REALTIME if "FLAGS_CLOCKRT" in names else constants.CLOCK_MONOTONIC
    lines = ["  futex.uaddr   %#x %s" % (ulong(uaddr), word),
             "  futex.val     %d" % int(m["val"]),
             "  futex.flags   %#x (%s)" % (flags, "|".join(names) or "none"),
             "  futex.bitset  %#x" % int(m["bitset"])]
    if "FLAGS_HAS_TIMEOUT" in names:
        lines.append("  futex.time    %s" % ns_str(int(m["time"]), clock))
    return lines


def _poll(rb):
    m = rb["poll"]
    lines = ["  poll.ufds  %#x" % ulong(m["ufds"]),
             "  poll.nfds  %d" % int(m["nfds"])]
    if int(m["has_timeout"]):
        ns = int(m["tv_sec"]) * constants.NSEC_PER_SEC + int(m["tv_nsec"])
        lines.append("  poll end   %s" % ns_str(ns, constants.CLOCK_MONOTONIC))
    else:
        lines.append("  poll end   none (no timeout)")
    return lines


def _no_restart(rb):
    return ["  restart_syscall would return -EINTR: nothing to continue"]


# fn -> the decoder of the union member it reads.
_DECODERS = {
    "do_no_restart_syscall": _no_restart,
    "hrtimer_nanosleep_restart": _nanosleep,
    "futex_wait_restart": _futex,
    "do_restart_poll": _poll,
}


def format_restart_block(rb):
    """The lines that show a struct restart_block gdb.Value."""
    fn = ulong(rb["fn"])
    where = function_at(fn) if fn else None
    name = where[0] if where and where[1] == fn else None
    line = "restart_block: fn %s (%#x)" % (name or "?", fn)
    fn_name = c_string(rb["fn_name"])
    if fn_name != name:
        line += ', but fn_name says "%s"' % fn_name
    decode = _DECODERS.get(name)
    return [line] + (decode(rb) if decode else [])


def format_resume(rs, call_name):
    """The lines that show a struct resume_stack gdb.Value: nothing when it
    keeps no continuation and no reinstalled one is about to run.
    call_name(nr) names a system call."""
    depth = int(rs["depth"])
    out = []
    if depth:
        out.append("SA_RESUME: %d continuation%s kept, newest last:"
                   % (depth, "" if depth == 1 else "s"))
    for i in range(depth):
        e = rs["e"][i]
        out.append("  [%d] %s for the frame at %#x, seq %d: back to ip %#x sp %#x %s" % (
            i, call_name(int(e["nr"])), ulong(e["frame"]), int(e["seq"]), ulong(e["ip"]),
            ulong(e["sp"]),
            "through restart_syscall" if int(e["block"]) else "calling it again"))
        if int(e["block"]):
            out += ["    " + line for line in format_restart_block(e["rb"])]
    if int(rs["armed"]):
        out.append("SA_RESUME: restart_syscall at ip %#x is to run the reinstalled "
                   "continuation of %s" % (ulong(rs["armed_ip"]), call_name(int(rs["armed_nr"]))))
    return out
