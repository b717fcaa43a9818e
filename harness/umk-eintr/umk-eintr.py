#!/usr/bin/env python3
"""umk-eintr: interrupt every blocking call of a program, one at a time, and
report where it misbehaves.

usage: umk-eintr [-j N] [--signals=LIST] [--stop] [--stdin FILE] [--json FILE]
                 [--ignore-stderr] [--timeout SECONDS] [--] PROGRAM [ARG...]

PROGRAM runs under umk (the umk next to this tool) with --clock=virtual:
  1. twice undisturbed, stdin from FILE (--stdin) or empty; both runs must
     agree (stdout, stderr, exit status), else the program is not
     deterministic enough to sweep: exit 2;
  2. the first run's trace gives the blocking points: each system call
     occurrence that went to sleep, in any task, numbered per call name in
     the order they slept (read#3: the third read that slept), and at each
     the signals its process has a handler for, with their SA_RESTART flag;
  3. for each point and each interruption, PROGRAM runs again and umk
     delivers that interruption while that call sleeps
     (umk --inject=CALL#N:SIG): each handled signal of the process, or
     each signal of --signals=LIST (names or numbers, comma-separated)
     whatever its disposition; with --stop also SIGSTOP then SIGCONT
     10 ms later (umk --inject=CALL#N:stop);
  4. each run is compared with the undisturbed one (stdout, stderr unless
     --ignore-stderr, exit status), and each difference is one line:
       DIFF read#1 SIGCHLD(handler, no SA_RESTART): exit 1 instead of 0;
       stderr +"read: Interrupted system call" -- umk --clock=virtual ...
     ending with the command that reproduces it; then a last line
       umk-eintr: B blocking points, R runs, D differ
     where R counts the interrupted runs (the two undisturbed ones apart).

Before the DIFF lines, stdout lists each blocking point:
  point read#1 (pid 1): SIGCHLD(handler, no SA_RESTART)

Options:
  -j N             run N umks at once (default 1)
  --signals=LIST   deliver these signals at every point instead of the
                   process's handled ones (SIGUSR1,SIGWINCH or 10,28)
  --stop           also stop and continue the process at every point
  --stdin FILE     every run reads FILE on stdin (default: empty)
  --json FILE      write every run (command, status, output, verdict) to FILE
  --ignore-stderr  compare stdout and exit status only (a handler's own
                   messages on stderr are then no difference)
  --timeout S      a run that lasts longer than S seconds (default 60) is
                   killed and reported as "timeout"
  --help           show this help

Progress goes to stderr: a line per 10% of the runs (a bar on a terminal).
Exit status: 0 no run differs, 1 some differ, 2 usage error or a program
that cannot be swept (not deterministic, not found, umk cannot run it).
"""
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading

SIGNALS = {
    "SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6,
    "SIGBUS": 7, "SIGFPE": 8, "SIGKILL": 9, "SIGUSR1": 10, "SIGSEGV": 11, "SIGUSR2": 12,
    "SIGPIPE": 13, "SIGALRM": 14, "SIGTERM": 15, "SIGSTKFLT": 16, "SIGCHLD": 17,
    "SIGCONT": 18, "SIGSTOP": 19, "SIGTSTP": 20, "SIGTTIN": 21, "SIGTTOU": 22,
    "SIGURG": 23, "SIGXCPU": 24, "SIGXFSZ": 25, "SIGVTALRM": 26, "SIGPROF": 27,
    "SIGWINCH": 28, "SIGIO": 29, "SIGPWR": 30, "SIGSYS": 31,
}
SIGNAMES = {v: k for k, v in SIGNALS.items()}
EXIT_USAGE = 2


class UsageError(Exception):
    pass


def die(msg):
    print("umk-eintr: " + msg, file=sys.stderr)
    sys.exit(EXIT_USAGE)


def parse_signal(s):
    s = s.strip()
    if s.isdigit() and int(s) in SIGNAMES:
        return SIGNAMES[int(s)]
    name = s if s.startswith("SIG") else "SIG" + s
    if name in SIGNALS:
        return name
    raise UsageError("--signals: unknown signal '%s'" % s)


def parse_args(argv):
    opts = {"jobs": 1, "signals": None, "stop": False, "stdin": None, "json": None,
            "ignore_stderr": False, "timeout": 60.0}
    i = 0

    def value(name):
        nonlocal i
        if i + 1 >= len(argv):
            raise UsageError("%s needs a value" % name)
        i += 1
        return argv[i]

    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        if a in ("-h", "--help"):
            sys.stdout.write(__doc__.split("\n", 2)[2].lstrip("\n"))
            sys.exit(0)
        elif a == "-j" or a.startswith("-j"):
            v = a[2:] if len(a) > 2 else value("-j")
            if not v.isdigit() or int(v) < 1:
                raise UsageError("-j needs a number of jobs, 1 or more: '%s'" % v)
            opts["jobs"] = int(v)
        elif a.startswith("--signals="):
            lst = [x for x in a[10:].split(",") if x.strip()]
            if not lst:
                raise UsageError("--signals needs a LIST of signals")
            opts["signals"] = [parse_signal(x) for x in lst]
        elif a == "--stop":
            opts["stop"] = True
        elif a == "--stdin" or a.startswith("--stdin="):
            opts["stdin"] = a[8:] if a.startswith("--stdin=") else value("--stdin")
        elif a == "--json" or a.startswith("--json="):
            opts["json"] = a[7:] if a.startswith("--json=") else value("--json")
        elif a == "--ignore-stderr":
            opts["ignore_stderr"] = True
        elif a == "--timeout" or a.startswith("--timeout="):
            v = a[10:] if a.startswith("--timeout=") else value("--timeout")
            try:
                opts["timeout"] = float(v)
            except ValueError:
                raise UsageError("--timeout needs a number of seconds: '%s'" % v)
            if opts["timeout"] <= 0:
                raise UsageError("--timeout needs a number of seconds: '%s'" % v)
        else:
            raise UsageError("unknown option '%s'" % a)
        i += 1
    if i >= len(argv):
        raise UsageError("no PROGRAM given")
    return opts, argv[i:]


# ---- runs ----

def shell_word(w):
    """w quoted for a shell, on one line: $'...' where it has control
    characters, so that a DIFF line stays one line."""
    if re.fullmatch(r"[\w@%+=:,./#-]+", w):
        return w
    if not any(ord(c) < 32 or ord(c) == 127 for c in w):
        return shlex.quote(w)
    out = []
    for c in w:
        if c in "\\'":
            out.append("\\" + c)
        elif ord(c) < 32 or ord(c) == 127:
            out.append({"\n": "\\n", "\t": "\\t"}.get(c, "\\x%02x" % ord(c)))
        else:
            out.append(c)
    return "$'" + "".join(out) + "'"


class Runner:
    def __init__(self, umk, program, opts, tmp):
        self.umk = umk
        self.program = program
        self.opts = opts
        self.tmp = tmp

    def command(self, inject=None, trace=None):
        cmd = [self.umk, "--clock=virtual"]
        if trace:
            cmd += ["--trace=" + trace, "--trace-format=json"]
        if inject:
            cmd.append("--inject=" + inject)
        return cmd + ["--"] + self.program

    def run(self, inject=None, trace=None):
        stdin = self.opts["stdin"] or os.devnull
        with open(stdin, "rb") as f:
            try:
                p = subprocess.run(self.command(inject, trace), stdin=f, capture_output=True,
                                   timeout=self.opts["timeout"])
                status = p.returncode
                out, err = p.stdout, p.stderr
            except subprocess.TimeoutExpired as e:
                status = "timeout"
                out, err = e.stdout or b"", e.stderr or b""
        return {"status": status, "stdout": out.decode("utf-8", "replace"),
                "stderr": err.decode("utf-8", "replace")}

    def reproducer(self, inject):
        umk = self.umk
        rel = os.path.relpath(umk)
        if not rel.startswith(".."):
            umk = rel if "/" in rel else "./" + rel
        words = [umk, "--clock=virtual", "--inject=" + inject] + self.program
        line = " ".join(shell_word(w) for w in words)
        if self.opts["stdin"]:
            line += " < " + shlex.quote(self.opts["stdin"])
        return line


# ---- the trace: blocking points and handlers ----

SIGACTION = re.compile(r"^rt_sigaction\((\w+), (\{([^,}]+), ([^}]*)\}|NULL|0x[0-9a-f]+)")


def blocking_points(trace_file):
    """Each system call occurrence that slept, in order, with the handlers its
    process had then: [{"call", "n", "pid", "handlers": {sig: flags}}]."""
    tgid = {1: 1}
    actions = {1: {}}          # tgid -> {signal name: (disposition, flags set)}
    current = {}               # pid -> [call, slept]
    pending = {}               # pid -> (sig, disposition, flags) of an rt_sigaction
    counts = {}
    points = []
    with open(trace_file) as f:
        for line in f:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            pid, kind = ev.get("pid"), ev.get("event")
            if kind == "enter":
                current[pid] = [ev["syscall"], False]
                m = SIGACTION.match(ev["details"])
                if ev["syscall"] == "rt_sigaction" and m and m.group(3):
                    flags = set(m.group(4).split("|"))
                    pending[pid] = (m.group(1), m.group(3), flags)
            elif kind == "exit":
                current.pop(pid, None)
                act = pending.pop(pid, None)
                if act and ev.get("ret") == 0:
                    table = actions.setdefault(tgid.get(pid, pid), {})
                    table[act[0]] = (act[1], act[2])
            elif kind == "switch" and ev.get("reason") == "sleep":
                cur = current.get(pid)
                if cur and not cur[1]:
                    cur[1] = True
                    counts[cur[0]] = counts.get(cur[0], 0) + 1
                    table = actions.get(tgid.get(pid, pid), {})
                    points.append({
                        "call": cur[0], "n": counts[cur[0]], "pid": pid,
                        "handlers": {s: sorted(f) for s, (d, f) in table.items()
                                     if d not in ("SIG_DFL", "SIG_IGN")},
                    })
            elif kind == "task":
                k, child = ev.get("kind"), ev.get("task")
                if k == "fork":
                    tgid[child] = ev.get("tgid", child)
                    parent = tgid.get(pid, pid)
                    actions[tgid[child]] = dict(actions.get(parent, {}))
                elif k == "thread":
                    tgid[child] = tgid.get(pid, pid)
                elif k == "exec":
                    g = tgid.get(pid, pid)
                    actions[g] = {s: a for s, a in actions.get(g, {}).items() if a[0] == "SIG_IGN"}
    return points


def label(sig, point):
    if sig == "stop":
        return "stop(SIGSTOP, SIGCONT)"
    flags = point["handlers"].get(sig)
    if flags is None:
        return "%s(no handler)" % sig
    return "%s(handler, %s)" % (sig, "SA_RESTART" if "SA_RESTART" in flags else "no SA_RESTART")


# ---- comparing ----

def quote(s, limit=70):
    q = json.dumps(s)
    return q if len(q) <= limit else q[:limit - 4] + '..."'


def stream_diff(name, base, got):
    a, b = base.splitlines(), got.splitlines()
    parts = []
    for op in difflib.ndiff(a, b):
        if op[:2] in ("- ", "+ "):
            parts.append(op[0] + quote(op[2:]))
    if not parts:                       # only a missing final newline differs
        parts.append("-" + quote(base[-40:]) + " +" + quote(got[-40:]))
    more = len(parts) - 3
    return "%s %s%s" % (name, " ".join(parts[:3]), " (+%d more)" % more if more > 0 else "")


def compare(base, run, opts):
    what = []
    if run["status"] != base["status"]:
        if run["status"] == "timeout":
            what.append("timeout (more than %gs) instead of exit %s" % (opts["timeout"], base["status"]))
        else:
            what.append("exit %s instead of %s" % (run["status"], base["status"]))
    if run["stdout"] != base["stdout"]:
        what.append(stream_diff("stdout", base["stdout"], run["stdout"]))
    if not opts["ignore_stderr"] and run["stderr"] != base["stderr"]:
        what.append(stream_diff("stderr", base["stderr"], run["stderr"]))
    return "; ".join(what)


# ---- progress ----

class Progress:
    def __init__(self, total):
        self.total = total
        self.done = 0
        self.step = 0
        self.tty = sys.stderr.isatty()
        self.lock = threading.Lock()

    def tick(self):
        with self.lock:
            self.done += 1
            if self.tty:
                width = 30
                full = width * self.done // self.total
                sys.stderr.write("\rumk-eintr: [%s%s] %d/%d runs" %
                                 ("#" * full, "." * (width - full), self.done, self.total))
                if self.done == self.total:
                    sys.stderr.write("\n")
                sys.stderr.flush()
                return
            pct = 100 * self.done // self.total
            if pct >= self.step + 10:
                self.step = pct - pct % 10
                print("umk-eintr: %d%% (%d/%d runs)" % (pct, self.done, self.total),
                      file=sys.stderr, flush=True)


def find_program(name):
    if "/" in name:
        return name if os.path.exists(name) else None
    return shutil.which(name)


def main(argv):
    sys.stdout.reconfigure(encoding="utf-8")
    try:
        opts, program = parse_args(argv)
    except UsageError as e:
        die("%s (try 'umk-eintr --help')" % e)
    umk = os.path.join(os.path.dirname(os.path.realpath(__file__)), "umk")
    if not os.access(umk, os.X_OK):
        die("%s: no umk next to umk-eintr" % umk)
    path = find_program(program[0])
    if not path:
        die("%s: no such program" % program[0])
    if opts["stdin"] and not os.access(opts["stdin"], os.R_OK):
        die("--stdin %s: cannot be read" % opts["stdin"])
    if opts["json"]:
        try:
            open(opts["json"], "w").close()
        except OSError as e:
            die("--json %s: %s" % (opts["json"], e.strerror))
    program = [path] + program[1:]

    tmp = tempfile.mkdtemp(prefix="umk-eintr.")
    try:
        return sweep(Runner(umk, program, opts, tmp), opts, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def sweep(runner, opts, tmp):
    trace = os.path.join(tmp, "trace.jsonl")
    base = runner.run(trace=trace)
    again = runner.run()
    if base["status"] in (125, 126, 127) or (base["status"] == 2 and base["stderr"].startswith("umk: ")):
        print("umk-eintr: umk cannot run %s (exit %s): %s" %
              (runner.program[0], base["status"], base["stderr"].strip().splitlines()[-1:]),
              file=sys.stderr)
        return EXIT_USAGE
    if base["status"] == "timeout":
        print("umk-eintr: %s ran more than %gs undisturbed: cannot sweep it" %
              (runner.program[0], opts["timeout"]), file=sys.stderr)
        return EXIT_USAGE
    diff = compare(base, again, dict(opts, ignore_stderr=False))
    if diff:
        print("umk-eintr: two undisturbed runs differ (%s): the program is not "
              "deterministic enough to sweep" % diff, file=sys.stderr)
        return EXIT_USAGE

    points = blocking_points(trace)
    jobs = []
    for pt in points:
        name = "%s#%d" % (pt["call"], pt["n"])
        sigs = opts["signals"] if opts["signals"] is not None else sorted(
            pt["handlers"], key=lambda s: SIGNALS.get(s, 99))
        inter = [label(s, pt) for s in sigs]
        if opts["stop"]:
            inter.append(label("stop", pt))
        print("point %s (pid %d): %s" % (name, pt["pid"], ", ".join(inter) if inter else "no interruption"))
        for s in sigs + (["stop"] if opts["stop"] else []):
            jobs.append({"point": name, "pid": pt["pid"], "interruption": label(s, pt),
                         "inject": "%s:%s" % (name, s)})
    sys.stdout.flush()

    progress = Progress(len(jobs)) if jobs else None

    def one(job):
        r = runner.run(inject=job["inject"])
        progress.tick()
        return r

    with concurrent.futures.ThreadPoolExecutor(max_workers=opts["jobs"]) as ex:
        results = list(ex.map(one, jobs))

    differ = 0
    records = []
    for job, r in zip(jobs, results):
        d = compare(base, r, opts)
        if d:
            differ += 1
            print("DIFF %s %s: %s \u2014 %s" % (job["point"], job["interruption"], d,
                                              runner.reproducer(job["inject"])))
        records.append(dict(job, command=runner.command(job["inject"]), differs=bool(d),
                            difference=d, **r))
    print("umk-eintr: %d blocking points, %d runs, %d differ" % (len(points), len(jobs), differ))
    if opts["json"]:
        with open(opts["json"], "w") as f:
            json.dump({"program": runner.program, "undisturbed": dict(base, command=runner.command()),
                       "points": points, "runs": records}, f, indent=1)
            f.write("\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
