#!/usr/bin/env bats
# Docs that cannot drift: every file:line that docs/gdb-walkthrough.md shows
# (in gdb's output it quotes) must lie inside the function the page names
# there, and the source line gdb printed after a stop must still be a line
# of that function. Moving a function, or code out of it, fails this test,
# which says which reference, what it names and where that line really is;
# lines that only shift within their function do not.
#
# Function extents come from the C sources themselves (check_refs below:
# python3, no build, no ctags): a definition is a top-level `{ ... }` whose
# header has a parameter list and no `=`, once comments, string and
# character literals and preprocessor lines are blanked out. It runs from
# the header's first line to the closing brace.

load helper

# check_refs DOC [ROOT]: check DOC's references against the sources under
# ROOT (default: the tree). Prints one line per wrong reference, each
# starting DOC:LINE:, and fails if there is any. The page names a function
# in gdb's own words:
#   Breakpoint 1, sys_nanosleep (rqtp=..., rmtp=...) at kernel/time/time.c:393
#   #1  0x0000555555568728 in syscall_restart (regs=...) at kernel/signal/signal_deliver.c:213
#   0x0000555555568728 in syscall_restart (regs=...) at kernel/signal/signal_deliver.c:213
#   #2  0x000055555557d4b3 in do_signal_stop+0x106 at kernel/signal/signal.c:527   (umk-bt)
#   Breakpoint 1 at 0x2dc3a: file kernel/time/time.c, line 393.   (the function
#       is the one the following "Breakpoint 1, FUNC (" line names)
# and the line after a stop or a finish is the source line, "393<TAB>{",
# which must be one of that function's lines.
# Any other FILE:LINE or "file FILE, line LINE" on the page is an error: a
# reference this test cannot tie to a function.
check_refs() {
	python3 - "$@" <<'EOF'
import os
import re
import sys

doc = sys.argv[1]
root = sys.argv[2] if len(sys.argv) > 2 else "."

FRAME = re.compile(
    r"^(?:Breakpoint \d+, |#\d+ +(?:0x[0-9a-f]+ in )?|0x[0-9a-f]+ in )"
    r"(?P<func>[A-Za-z_][\w.]*)(?:\+0x[0-9a-f]+| \(.*\)) at (?P<file>[\w./-]+):(?P<line>\d+)$")
BREAK = re.compile(
    r"^Breakpoint (?P<n>\d+) at 0x[0-9a-f]+: file (?P<file>[\w./-]+), line (?P<line>\d+)\.$")
HIT = re.compile(r"^Breakpoint (?P<n>\d+), (?P<func>[A-Za-z_][\w.]*) \(")
SOURCE = re.compile(r"^(?P<line>\d+)\t(?P<text>.*)$")
ANY_REF = re.compile(r"[\w./-]+\.[ch]:\d+|file [\w./-]+, line \d+")
# identifiers followed by "(" in a header that are not the function's name
NOT_NAMES = {
    "__attribute__", "__attribute", "__typeof__", "typeof", "__asm__", "asm",
    "sizeof", "_Alignas", "alignas", "void", "int", "char", "long", "short",
    "unsigned", "signed", "if", "while", "for", "switch", "return",
}


def blank(m):
    return re.sub(r"[^\n]", " ", m.group(0))


def function_name(header):
    """The name a top-level header declares, or None when it is no function."""
    if "=" in header or "(" not in header:
        return None
    depth, names = 0, []
    for m in re.finditer(r"([A-Za-z_]\w*)\s*\(|[()]", header):
        if m.group(1):
            if m.group(1) not in NOT_NAMES:
                names.append((depth, m.group(1)))
            depth += 1
        elif m.group(0) == "(":
            depth += 1
        else:
            depth -= 1
    if not names:
        return None
    top = min(d for d, _ in names)
    return [n for d, n in names if d == top][-1]


_functions = {}


def functions(path):
    """[(name, first line, last line)] of the function definitions in a C file."""
    if path not in _functions:
        with open(path, errors="replace") as f:
            text = f.read()
        # blanked to spaces, newlines kept so that offsets keep their lines
        text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                      blank, text, flags=re.S)
        text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", blank, text, flags=re.M)
        found, depth, start, opened = [], 0, 0, 0
        for m in re.finditer(r"[{};]", text):
            c, i = m.group(0), m.start()
            if c == "{":
                if depth == 0:
                    opened = i
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    header = text[start:opened]
                    name = function_name(header)
                    if name:
                        first = start + len(header) - len(header.lstrip())
                        found.append((name, text.count("\n", 0, first) + 1,
                                      text.count("\n", 0, i) + 1))
                    start = i + 1
            elif depth == 0:
                start = i + 1
        _functions[path] = found
    return _functions[path]


def where(name, path):
    """Where NAME is defined: in PATH if it is there, else anywhere in ROOT."""
    spans = [f"{path}:{a}-{b}" for n, a, b in functions(os.path.join(root, path)) if n == name]
    if spans:
        return f"{name} is at {', '.join(spans)}"
    for top, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "build") and not d.startswith("build-"))
        for fname in sorted(files):
            if fname.endswith((".c", ".h")):
                p = os.path.join(top, fname)
                spans += [f"{os.path.relpath(p, root)}:{a}-{b}"
                          for n, a, b in functions(p) if n == name]
    if spans:
        return f"{name} is not in {path} but at {', '.join(spans)}"
    return f"{name} is defined nowhere in the tree"


def check(path, line, func):
    """(None, FUNC's first and last lines) when PATH:LINE is inside FUNC,
    else (a message, None)."""
    name = func.split(".")[0]  # gdb's clones: foo.isra.0, foo.cold
    full = os.path.join(root, path)
    if not os.path.isfile(full):
        return f"{path}:{line} names {name}, but there is no file {path}", None
    inside = [(n, a, b) for n, a, b in functions(full) if a <= line <= b]
    for n, a, b in inside:
        if n == name:
            return None, (a, b)
    if inside:
        n, a, b = inside[-1]
        really = f"line {line} is in {n} ({path}:{a}-{b})"
    else:
        really = f"line {line} is in no function"
    return f"{path}:{line} names {name}, but {really}; {where(name, path)}", None


with open(doc) as f:
    lines = f.read().split("\n")
errors, checked = [], 0
for i, text in enumerate(lines):
    here = f"{doc}:{i + 1}"
    m = FRAME.match(text) or BREAK.match(text)
    if not m:
        for ref in ANY_REF.findall(text):
            errors.append(f"{here}: {ref}: a reference not in a form this test ties to a "
                          "function (FUNC (...) at FILE:LINE, FUNC+0xN at FILE:LINE, or "
                          "Breakpoint N at ADDR: file FILE, line LINE before Breakpoint N, FUNC (...))")
        continue
    path, line = m.group("file"), int(m.group("line"))
    if "func" in m.groupdict():
        func = m.group("func")
    else:
        hits = [HIT.match(t) for t in lines[i + 1:]]
        hits = [h.group("func") for h in hits if h and h.group("n") == m.group("n")]
        if not hits:
            errors.append(f"{here}: breakpoint {m.group('n')} at {path}:{line} is never hit "
                          f"(no \"Breakpoint {m.group('n')}, FUNC (\" line after it): it names no function")
            continue
        func = hits[0]
    checked += 1
    problem, extent = check(path, line, func)
    if problem:
        errors.append(f"{here}: {problem}")
        continue
    a, b = extent
    # after a stop (or finish), gdb prints the source line: the function must
    # still have it (edits above it in the function may have moved it)
    src = SOURCE.match(lines[i + 1]) if i + 1 < len(lines) and FRAME.match(text) else None
    if src:
        with open(os.path.join(root, path), errors="replace") as f:
            body = f.read().split("\n")[a - 1:b]
        if int(src.group("line")) != line:
            errors.append(f"{doc}:{i + 2}: shows line {src.group('line')} after a frame at {path}:{line}")
        elif src.group("text") not in body:
            errors.append(f"{doc}:{i + 2}: shows {path}:{line} as {src.group('text')!r}, a line "
                          f"{func.split('.')[0]} ({path}:{a}-{b}) no longer has")
if checked == 0:
    errors.append(f"{doc}: no file:line reference found: has gdb's output format changed?")
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
EOF
}

@test "each file:line in docs/gdb-walkthrough.md is inside the function the page names there, and the source lines it shows are that function's" {
	run check_refs docs/gdb-walkthrough.md
	[[ $status -eq 0 ]] || fail "docs/gdb-walkthrough.md has drifted from the code (take the lines from a new run of harness/gdb/walkthrough.gdb):
$output"
}

@test "check_refs finds functions past comments, strings, preprocessor lines and initializers, and says what a wrong reference names" {
	local t=$BATS_TEST_TMPDIR
	mkdir -p "$t/kernel" "$t/arch"
	cat >"$t/kernel/a.c" <<'C'
/* a comment with a brace { and a fake header: int fake(void) { */
static const char *s = "} {";
struct pair { int a, b; };
static struct pair table[] = { { 1, 2 }, { 3, 4 } };
#define BRACES(x) { x }
static int __attribute__((noinline))
first(int x)
{
	if (x) {
		return '}';
	}
	return 0;
}

// int not_a_function(void) {
long second(struct pair *p,
	    int y)
{
	return p->a + y;
}
C
	cat >"$t/arch/b.c" <<'C'
void moved(void)
{
}
C
	cat >"$t/doc.md" <<'D'
Breakpoint 1 at 0x1234: file kernel/a.c, line 8.

Breakpoint 1, first (x=1) at kernel/a.c:9
9		if (x) {
#1  0x0000555555568728 in second (p=0x0, y=2) at kernel/a.c:19
#2  0x0000555555568728 in second+0x12 at kernel/a.c:10
0x0000555555568728 in first (x=x@entry=1) at kernel/a.c:15
#3  0x0000555555568728 in moved+0x1 at kernel/a.c:17
#4  0x0000555555568728 in first.isra.0+0x1 at kernel/a.c:13
Breakpoint 2, first (x=1) at kernel/a.c:12
12		return 1;
Breakpoint 3 at 0x1234: file kernel/a.c, line 3.
Prose that says kernel/a.c:12 is checked by nobody.
#5  0x0000555555568728 in gone+0x1 at kernel/nowhere.c:1
Breakpoint 4, second (p=0x0, y=2) at kernel/a.c:18
18		return p->a + y;
0x0000555555568728 in second (p=0x0, y=2) at kernel/a.c:19
20	}
D
	run check_refs "$t/doc.md" "$t"
	assert_failure
	assert_line "$t/doc.md:6: kernel/a.c:10 names second, but line 10 is in first (kernel/a.c:6-13); second is at kernel/a.c:16-20"
	assert_line "$t/doc.md:7: kernel/a.c:15 names first, but line 15 is in no function; first is at kernel/a.c:6-13"
	assert_line "$t/doc.md:8: kernel/a.c:17 names moved, but line 17 is in second (kernel/a.c:16-20); moved is not in kernel/a.c but at arch/b.c:1-3"
	assert_line "$t/doc.md:11: shows kernel/a.c:12 as '\treturn 1;', a line first (kernel/a.c:6-13) no longer has"
	assert_line --partial "$t/doc.md:12: breakpoint 3 at kernel/a.c:3 is never hit"
	assert_line --partial "$t/doc.md:13: kernel/a.c:12: a reference not in a form this test ties to a function"
	assert_line "$t/doc.md:14: kernel/nowhere.c:1 names gone, but there is no file kernel/nowhere.c"
	assert_line "$t/doc.md:18: shows line 20 after a frame at kernel/a.c:19"
	# lines 1-5, 9 and 15-17 are right (line 16's source line is a line of
	# second, if not line 18's): nothing else is reported
	assert_equal "${#lines[@]}" 8
}
