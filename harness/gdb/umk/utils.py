"""What the umk gdb modules share: types, lists, errors and arguments.

Every command derives from Command, whose invoke turns gdb's own errors
(a bad address, a missing symbol) into one gdb.GdbError line named after
the command: gdb prints that line and no Python traceback.
"""

import re

import gdb

_types = {}


def lookup_type(name):
    """The gdb.Type called name ("struct task_struct"), looked up once."""
    if name not in _types:
        _types[name] = gdb.lookup_type(name)
    return _types[name]


def _forget_types(event):
    _types.clear()


gdb.events.new_objfile.connect(_forget_types)


def require_process():
    """Fail unless umk is running under gdb: there is no kernel state yet."""
    if gdb.selected_inferior().pid == 0:
        raise gdb.GdbError("umk is not running: start it with `run` first")


def container_of(ptr, typename, member):
    """The struct typename * whose field member is at ptr."""
    struct = lookup_type(typename)
    offset = struct[member].bitpos // 8
    chars = ptr.cast(lookup_type("char").pointer())
    return (chars - offset).cast(struct.pointer())


def list_for_each_entry(head, typename, member, limit=100000):
    """The entries of the list_head head (a gdb.Value of struct list_head),
    as list_for_each_entry() walks them; a list that does not come back to
    head within limit entries is corrupt."""
    end = int(head.address)
    node = head["next"]
    for _ in range(limit):
        if int(node) == end:
            return
        yield container_of(node, typename, member)
        node = node["next"]
    raise gdb.GdbError("list at %#x has more than %d entries: corrupt?" % (end, limit))


def parse_int(arg, what):
    """arg, a gdb expression, as a Python int; a clear error otherwise."""
    try:
        value = gdb.parse_and_eval(arg)
    except gdb.error as e:
        raise gdb.GdbError('"%s" is not a %s: %s' % (arg, what, e))
    return value_to_int(value, what)


def value_to_int(value, what):
    """An integer gdb.Value as a Python int; a clear error otherwise."""
    code = value.type.strip_typedefs().code
    if code not in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_ENUM, gdb.TYPE_CODE_CHAR,
                    gdb.TYPE_CODE_BOOL):
        raise gdb.GdbError("%s is not a %s (a whole number)" % (value, what))
    return int(value)


def ulong(value):
    """A gdb.Value as an unsigned 64-bit Python int."""
    return int(value) & 0xFFFFFFFFFFFFFFFF


def slong(value):
    """A 64-bit Python int as a signed one (C's long)."""
    value &= 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value >> 63 else value


def c_string(value):
    """A char array or char * as a Python str, "" for NULL."""
    if value.type.strip_typedefs().code == gdb.TYPE_CODE_PTR and not int(value):
        return ""
    return value.string(errors="replace")


def function_at(pc):
    """(name, start, inlined) for the function around pc: from the debug
    info, where inlined names the innermost inlined function (or None), else
    from the ELF symbols (asm, libc). None where nothing is known (a user
    program: umk loads it, gdb has no symbols for it)."""
    try:
        block = gdb.block_for_pc(pc)
    except RuntimeError:
        block = None
    outer = inner = None
    while block is not None and not (block.is_global or block.is_static):
        if block.function is not None:
            inner = inner or block
            outer = block
        block = block.superblock
    if outer is not None:
        inlined = inner.function.name if inner is not outer else None
        return outer.function.name, outer.start, inlined
    info = gdb.execute("info symbol %#x" % pc, to_string=True)
    m = re.match(r"(\S+)(?: \+ (\d+))? in section", info)
    if not m:
        return None
    return m.group(1), pc - int(m.group(2) or 0), None


class Command(gdb.Command):
    """Base of the umk-* commands: subclasses define run(arg)."""

    def __init__(self, name):
        super().__init__(name, gdb.COMMAND_USER)
        self.name = name

    def invoke(self, arg, from_tty):
        try:
            self.run(arg.strip())
        except (gdb.GdbError, gdb.error) as e:
            raise gdb.GdbError("%s: %s" % (self.name, e))

    def run(self, arg):
        raise NotImplementedError


class Function(gdb.Function):
    """Base of the $umk_* functions: subclasses define run(*args)."""

    def __init__(self, name):
        super().__init__(name)
        self.name = name

    def invoke(self, *args):
        try:
            return self.run(*args)
        except (gdb.GdbError, gdb.error) as e:
            raise gdb.GdbError("$%s: %s" % (self.name, e))

    def run(self, *args):
        raise NotImplementedError


# Whose user memory user_deref reads: set by the commands that show a task
# (umk-task), None for the task whose address space is in the window.
_user_mm = None


class user_memory_of:
    """with user_memory_of(task): user_deref reads task's address space."""

    def __init__(self, task):
        self.mm = task["mm"]

    def __enter__(self):
        global _user_mm
        self.saved, _user_mm = _user_mm, self.mm
        return self

    def __exit__(self, *exc):
        global _user_mm
        _user_mm = self.saved
        return False


def user_deref(ptr):
    """*ptr for a user pointer, as a gdb.Value. Only one address space is
    in umk's user window at a time (loaded_mm, kernel/mm/mm.c): another one's
    private pages are read from its host memory file, umk's open memfd,
    through /proc/PID/fd (a live process only). Raises gdb.MemoryError."""
    mm = _user_mm
    if mm is None or not int(mm) or int(mm) == int(gdb.parse_and_eval("loaded_mm")):
        return ptr.dereference()
    target = ptr.type.target()
    size = target.sizeof
    addr = ulong(ptr)
    vma = None
    for v in list_for_each_entry(mm["mmap"], "struct vm_area_struct", "list"):
        if ulong(v["vm_start"]) <= addr < ulong(v["vm_end"]):
            vma = v
            break
    if vma is None or addr + size > ulong(vma["vm_end"]):
        raise gdb.MemoryError("%#x is not in the task's memory" % addr)
    if int(vma["shared"]):
        fd, off = int(vma["shared"]["fd"]), ulong(vma["vm_off"]) + addr - ulong(vma["vm_start"])
    else:
        fd, off = int(mm["mem"]["fd"]), addr
    try:
        with open("/proc/%d/fd/%d" % (gdb.selected_inferior().pid, fd), "rb") as f:
            f.seek(off)
            data = f.read(size)
    except OSError as e:
        raise gdb.MemoryError("cannot read %#x: %s" % (addr, e))
    if len(data) != size:
        raise gdb.MemoryError("cannot read %#x" % addr)
    return gdb.Value(data, target)
