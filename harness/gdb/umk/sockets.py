"""A task's sockets: umk-sockets.

Each fd whose file is a socket (f_op->name "socket", private_data its
struct socket) gets one line: its family and type (sock->ops->family,
sock->type), its state, its local and peer addresses and the bytes queued
on it. An AF_UNIX socket is read from its struct unix_sock
(kernel/net/af_unix.h): u->state, u->addr and u->peer->addr, and the bytes
of its receive_queue not yet read, with the files in flight there; an
AF_INET or AF_INET6 socket is the host's (kernel/net/af_inet_host.c), so
its line comes from the host: the host fd umk holds, found in umk's own
/proc/PID/net/{tcp,udp,tcp6,udp6} by its inode, as ss would show it.
umk-task's "waits on fd" line uses the same description for a socket.
"""

import os
import socket
import struct

import gdb

from umk import constants
from umk.files import DESCRIBE, fd_file, private
from umk.tasks import task_arg
from umk.utils import Command, c_string, list_for_each_entry, ulong


def family_name(family):
    return constants.FAMILIES.get(family, "family %d" % family)


def type_name(sock_type):
    return constants.SOCK_TYPES.get(sock_type, "type %d" % sock_type)


def state_name(state):
    return constants.TCP_STATES.get(state, "state %d" % state)


def unix_address(addr):
    """A struct unix_address * as Linux's ss prints it: the path, @name for
    an abstract name (NULs as @), "-" when unbound."""
    if not int(addr):
        return "-"
    addr = addr.dereference()
    name = addr["name"]
    n = int(addr["len"]) - name.type["sun_path"].bitpos // 8
    raw = bytes(int(name["sun_path"][i]) & 0xFF for i in range(n))
    if raw[:1] == b"\0":
        return "@" + raw[1:].replace(b"\0", b"@").decode(errors="replace")
    return raw.split(b"\0")[0].decode(errors="replace")


def describe_unix(sock):
    u = sock["sk"].cast(gdb.lookup_type("struct unix_sock").pointer()).dereference()
    queued = files = 0
    for skb in list_for_each_entry(u["receive_queue"], "struct sk_buff", "list"):
        queued += ulong(skb["len"]) - ulong(skb["consumed"])
        if int(skb["fp"]):
            files += int(skb["fp"]["count"])
    peer = u["peer"]
    peer_name = unix_address(peer["addr"]) if int(peer) else "-"
    if int(peer) and peer_name == "-":
        peer_name = "unbound"
    if int(u["state"]) == constants.TCP_LISTEN:
        queue = "%d connection%s to accept" % (int(u["qlen"]), "" if int(u["qlen"]) == 1 else "s")
    else:
        queue = "%d bytes to read in %d message%s" % (queued, int(u["qlen"]),
                                                      "" if int(u["qlen"]) == 1 else "s")
    if files:
        queue += " (%d file%s in flight)" % (files, "" if files == 1 else "s")
    if int(u["oob_skb"]):
        queue += ", an urgent byte (MSG_OOB) at the mark"
    return "%s, local %s, peer %s, %s, send buffer %d used (inode %d)" % (
        state_name(int(u["state"])), unix_address(u["addr"]), peer_name, queue,
        ulong(u["wmem_alloc"]), ulong(u["ino"]))


def _host_address(hexaddr, family):
    """An address of /proc/net/tcp ("0100007F:1F90") as "127.0.0.1:8080"."""
    host, port = hexaddr.split(":")
    raw = bytes.fromhex(host)
    # each 32-bit word is in the host's byte order
    raw = b"".join(struct.pack("<I", *struct.unpack(">I", raw[i:i + 4]))
                   for i in range(0, len(raw), 4))
    if family == constants.AF_INET:
        return "%s:%d" % (socket.inet_ntop(socket.AF_INET, raw), int(port, 16))
    return "[%s]:%d" % (socket.inet_ntop(socket.AF_INET6, raw), int(port, 16))


def host_socket_line(host_fd, family):
    """What the host says of umk's host fd host_fd: state, addresses and
    queues from /proc/PID/net/*, or why it cannot say."""
    pid = gdb.selected_inferior().pid
    try:
        link = os.readlink("/proc/%d/fd/%d" % (pid, host_fd))
    except OSError as e:
        return "host fd %d: %s" % (host_fd, e.strerror)
    if not link.startswith("socket:["):
        return "host fd %d: %s, not a socket" % (host_fd, link)
    inode = link[len("socket:["):-1]
    six = "6" if family == constants.AF_INET6 else ""
    for proto in ("tcp", "udp"):
        try:
            with open("/proc/%d/net/%s%s" % (pid, proto, six)) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if cols[9] != inode:
                continue
            tx, rx = (int(x, 16) for x in cols[4].split(":"))
            state = int(cols[3], 16)
            # UDP has no connection: its "established" means connected
            if proto == "udp":
                state_text = "connected" if state == constants.TCP_ESTABLISHED else "unconnected"
            else:
                state_text = state_name(state)
            return "%s, local %s, peer %s, %d bytes to read, %d bytes unsent (host fd %d)" % (
                state_text, _host_address(cols[1], family), _host_address(cols[2], family),
                rx, tx, host_fd)
    return "host fd %d (socket:[%s]): not in /proc/%d/net" % (host_fd, inode, pid)


def describe_inet_host(sock):
    hs = sock["sk"].cast(gdb.lookup_type("struct inet_host_sock").pointer()).dereference()
    return host_socket_line(int(hs["fd"]), int(hs["family"]))


def describe_socket(f):
    """The family, type and state of the socket file f, with its addresses
    and queues."""
    sock = private(f, "struct socket")
    family = int(sock["ops"]["family"])
    head = "%s %s" % (family_name(family), type_name(int(sock["type"])))
    if family == constants.AF_UNIX:
        return head + ", " + describe_unix(sock)
    if family in (constants.AF_INET, constants.AF_INET6):
        return head + ", " + describe_inet_host(sock)
    return head


# umk-task's "waits on fd N: socket, ..." line
DESCRIBE["socket"] = describe_socket


def format_sockets(t):
    """One line per socket fd of task t."""
    files = t["files"]
    if not int(files):
        return ["no files (the task has exited)"]
    table = files["fd"]
    out = []
    for fd in range(table.type.range()[1] + 1):
        f = fd_file(t, fd)
        if f is not None and c_string(f["f_op"]["name"]) == "socket":
            out.append("fd %d: %s" % (fd, describe_socket(f)))
    return out or ["no sockets"]


class UmkSockets(Command):
    """List a task's sockets: umk-sockets [PID]

PID is any integer expression; without it, the current task. One line per
fd that is a socket: its family and type (AF_UNIX SOCK_STREAM), its state
by Linux's TCP state names (TCP_LISTEN, TCP_ESTABLISHED, TCP_CLOSE), its
local and peer addresses (a path, @name for an abstract name, - when none,
"unbound" for a peer without a name) and what is queued: for AF_UNIX, the
bytes not yet read on its receive queue and in how many messages (for a
listener, the connections to accept), the files in flight there
(SCM_RIGHTS), an urgent byte (MSG_OOB) not yet read, and how much of its send buffer its messages unread by
the peer take (wmem_alloc: their bytes and a fixed overhead each); for
AF_INET and AF_INET6, which are host sockets, what the host's /proc/net
says of the host fd umk holds: state, addresses, bytes to read and
unsent."""

    def __init__(self):
        super().__init__("umk-sockets")

    def run(self, arg):
        t = task_arg(arg)
        gdb.write("pid %d (%s):\n" % (int(t["pid"]), c_string(t["comm"])))
        gdb.write("".join("  %s\n" % line for line in format_sockets(t)))


UmkSockets()
