#!/usr/bin/env python3
"""bench_report.py DIR: make bench's table and chart, from what
harness/bench/bench.sh left in DIR.

Reads DIR/probes (harness/bench/bench.probes: the probes, their order and
labels), DIR/meta.tsv (KEY<TAB>VALUE: the host, the versions, the load)
and DIR/raw.tsv (one record per probe run:
ROUND<TAB>COLUMN<TAB>ID<TAB>HOW<TAB>OUTPUT, as harness/benchrun prints
them, HOW being "exit N", "signal N", "timeout S", or what harness/bench/bench.sh
records for a run that did not happen, its reason as OUTPUT: "peer-down",
"missing" (the peer stopped before it) or "skipped" (it timed out in an
earlier round)); writes DIR/BENCH.md and DIR/bench.svg.

A run counts only when it exited 0 and its output holds the figures its
probe prints (harness/bench/bench.probes lists them); a figure is the median
over the rounds, with the min-max of the rounds beside it. Anything else
is a verdict, never a number: "n/a (REASON)" when the probe said so
(no fork under umk), otherwise FAILED with what happened (exit status
and the probe's last line, the signal that killed it, the timeout, the
peer that did not run) and in how many of the runs.

Bad input (a missing file, a malformed line) is one line on stderr naming
the file and line, with status 1; bad usage is status 2.
"""
import math
import os
import re
import statistics
import sys

COLUMNS = {
    "native": "native",
    "baseline": "umk baseline",
    "umk": "umk",
    "umk-nofsgsbase": "umk --nofsgsbase",
    "uml": "UML",
    "gvisor": "gVisor (ptrace)",
}
COLOURS = {
    "native": "#4c78a8",
    "baseline": "#b279a2",
    "umk": "#f58518",
    "umk-nofsgsbase": "#e45756",
    "uml": "#72b7b2",
    "gvisor": "#54a24b",
}
SIGNALS = {1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP",
           6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV",
           13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 31: "SIGSYS"}

# Figures a probe's line may hold: (metric, regular expression, groups).
COST = re.compile(r"([0-9.]+) ns/op")
LATE = re.compile(r"median ([0-9.]+) us, p99 ([0-9.]+) us")
WAKE = re.compile(r"([0-9.]+) ns CPU per wake-up")
SLEEPERS = re.compile(r"^sleepers: ([0-9]+) x ", re.M)
SLEEPPROCS = re.compile(r"^sleepers: ([0-9]+) processes x ", re.M)
NA = re.compile(r"^[^\n:]+: n/a \((.*)\)$", re.M)


class BadInput(Exception):
    pass


def unescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}")
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text")


def read_probes(path):
    probes = []
    for n, line in enumerate(read_lines(path), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        if len(f) != 5 or not f[0] or f[1] not in ("all", "native"):
            raise BadInput(f"{path}:{n}: not ID | all|native | SECONDS | COMMAND | LABEL")
        probes.append({"id": f[0], "where": f[1], "label": f[4]})
    if not probes:
        raise BadInput(f"{path}: no probes")
    return probes


def read_meta(path):
    meta = {}
    for n, line in enumerate(read_lines(path), 1):
        if "\t" not in line:
            raise BadInput(f"{path}:{n}: not KEY<TAB>VALUE")
        k, v = line.split("\t", 1)
        meta[k] = v
    return meta


def verdict(how, output):
    """(kind, value): ("ok", figures), ("na", reason) or ("bad", what)."""
    lines = [l for l in output.splitlines() if l.strip()]
    last = lines[-1] if lines else "no output"
    m = re.fullmatch(r"(exit|signal|timeout) (\d+)", how)
    if how in ("peer-down", "missing", "skipped"):
        return "bad", output or how
    if not m:
        raise BadInput(f"unknown HOW '{how}'")
    kind, num = m.group(1), int(m.group(2))
    if kind == "timeout":
        return "bad", f"timed out after {num} s"
    if kind == "signal" or (kind == "exit" and 128 < num < 128 + 65):
        sig = num if kind == "signal" else num - 128
        return "bad", f"crashed: killed by {SIGNALS.get(sig, f'signal {sig}')}"
    if num != 0:
        harness = [l for l in lines if l.startswith(("harness:", "umk:", "benchrun:"))]
        return "bad", f"exit {num}: {(harness or [last])[-1]}"
    na = NA.search(output)
    if na:
        return "na", na.group(1)
    figs = {}
    if COST.search(output):
        figs["cost"] = float(COST.search(output).group(1))
    if LATE.search(output):
        figs["median"], figs["p99"] = map(float, LATE.search(output).groups())
    if WAKE.search(output):
        figs["wake"] = float(WAKE.search(output).group(1))
    if not figs:
        return "bad", f"no figure in its output: {last}"
    if SLEEPERS.search(output):  # how many: the chart's x, not a figure
        figs["sleepers"] = int(SLEEPERS.search(output).group(1))
    if SLEEPPROCS.search(output):  # how many processes: the targets' x
        figs["procs"] = int(SLEEPPROCS.search(output).group(1))
    return "ok", figs


def read_raw(path, probes):
    ids = {p["id"] for p in probes}
    runs = {}  # (id, column) -> [(kind, value)]
    rounds = set()
    for n, line in enumerate(read_lines(path), 1):
        f = line.split("\t", 4)
        if len(f) < 4 or not f[0].isdigit():
            raise BadInput(f"{path}:{n}: not ROUND<TAB>COLUMN<TAB>ID<TAB>HOW<TAB>OUTPUT")
        r, col, pid, how = f[:4]
        if col not in COLUMNS:
            raise BadInput(f"{path}:{n}: unknown column '{col}'")
        if pid not in ids:
            raise BadInput(f"{path}:{n}: probe '{pid}' is not in the probe list")
        try:
            v = verdict(how, unescape(f[4]) if len(f) == 5 else "")
        except BadInput as e:
            raise BadInput(f"{path}:{n}: {e}")
        runs.setdefault((pid, col), []).append(v)
        rounds.add(int(r))
    if not runs:
        raise BadInput(f"{path}: no records")
    return runs, len(rounds)


def fmt(x):
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


class Cell:
    """One probe in one column over the rounds."""

    def __init__(self, records):
        self.records = records or []
        ok = [v for k, v in self.records if k == "ok"]
        bad = [v for k, v in self.records if k == "bad"]
        na = [v for k, v in self.records if k == "na"]
        self.state = "none" if not self.records else "bad" if bad else "na" if na else "ok"
        self.why = bad[0] if bad else na[0] if na else ""
        self.nbad, self.n = len(bad) + (len(na) if bad else 0), len(self.records)
        self.figs = {}
        if self.state == "ok":
            for key in ("cost", "median", "p99", "wake", "sleepers", "procs"):
                vals = [v[key] for v in ok if key in v]
                if len(vals) == len(ok):
                    self.figs[key] = (statistics.median(vals), min(vals), max(vals))

    def text(self, keys):
        if self.state == "none":
            return "—"
        if self.state == "na":
            return f"n/a ({self.why})"
        if self.state == "bad":
            return f"**FAILED** ({self.nbad} of {self.n} runs): {self.why}"
        if not all(k in self.figs for k in keys):
            return "**FAILED**: no such figure in its output"
        meds = " / ".join(fmt(self.figs[k][0]) for k in keys)
        ranges = " / ".join(f"{fmt(self.figs[k][1])}–{fmt(self.figs[k][2])}" for k in keys)
        return f"{meds} ({ranges})"


ROWS = [  # metric keys, what the row says after the probe's label
    (("cost",), "ns"),
    (("median", "p99"), "how late: median / p99, µs"),
    (("wake",), "CPU per wake-up, ns"),
]


def build(probes, runs, meta):
    peers = meta.get("peers", "").split()
    columns = (["native"] + (["baseline"] if "baseline" in meta else []) +
               ["umk", "umk-nofsgsbase"] + [p for p in peers if p in COLUMNS])
    for (_, col) in runs:
        if col not in columns:
            columns.append(col)
    cells = {(p["id"], c): Cell(runs.get((p["id"], c))) for p in probes for c in columns}
    rows = []  # (probe, keys, label)
    for p in probes:
        present = set()
        for c in columns:
            present |= set(cells[(p["id"], c)].figs)
        made = False
        for keys, what in ROWS:
            if keys[0] in present:
                rows.append((p, keys, f"{p['label']} ({what})"))
                made = True
        if not made:
            rows.append((p, ("cost",), p["label"]))
    return columns, cells, rows


def fig(cells, pid, col, key):
    c = cells.get((pid, col))
    return c.figs[key][0] if c and c.state == "ok" and key in c.figs else None


def markdown(meta, probes, columns, cells, rows, nrounds):
    out = []
    w = out.append
    w("# make bench")
    w("")
    w(f"Taken {meta.get('date', '?')} on {meta.get('cpu', '?')} ({meta.get('cpus', '?')} CPUs; "
      f"fsgsbase in /proc/cpuinfo: {meta.get('fsgsbase', '?')}), {meta.get('kernel', '?')}.")
    w("")
    vers = [f"umk {meta.get('umk', '?')}"]
    if "uml" in meta:
        vers.append(f"UML {meta['uml']}")
    if "gvisor" in meta:
        vers.append(f"gVisor runsc {meta['gvisor']}")
    if "baseline" in meta:
        vers.append(f"umk baseline {meta['baseline']}")
    w("Versions: " + "; ".join(vers) + ".")
    w("")
    w(f"Settings: {meta.get('settings', '?')}; {nrounds} rounds, each probe pinned to one CPU, "
      "the columns interleaved within each round. Load average (1, 5, 15 min) "
      f"before: {meta.get('load before', '?')}, after: {meta.get('load after', '?')}; "
      f"{meta.get('seconds', '?')} s in all.")
    w("")
    w("Each cell: the median over the rounds (min–max of the rounds). A probe that "
      "failed, crashed or timed out in any round shows as FAILED with what happened; "
      "n/a is a probe that cannot run there (it says why); — is not run there.")
    w("")
    w("| probe | " + " | ".join(COLUMNS[c] for c in columns) + " |")
    w("|---|" + "---|" * len(columns))
    for p, keys, label in rows:
        cellt = [cells[(p["id"], c)].text(keys).replace("|", "\\|") for c in columns]
        w(f"| {label} | " + " | ".join(cellt) + " |")
    w("")
    w("What the figures are (harness/bench/bench.c, harness/progs/sleepers.c): ns per call, yield, "
      "round trip or cycle, on the kernel's own CLOCK_MONOTONIC; \"how late\" is how long "
      "after its deadline a sleep returned; \"CPU per wake-up\" is the sum of the sleeping "
      "threads' CLOCK_THREAD_CPUTIME_ID over their sleeps divided by the wake-ups. That "
      "clock differs between kernels: umk's is the time a thread was umk's current task, "
      "host preemption of umk included; UML and gVisor sample it at their ticks, so with "
      "few wake-ups their figure is coarse (0 is possible).")
    w("")
    # Ratios of the medians (of a row's first figure), where both exist.
    others = [c for c in columns if c != "native"]
    floor = fig(cells, "floor", "native", "cost")
    floor_fs = fig(cells, "floorfs", "native", "cost")
    for title, base_of, cost_only in (
            ("Ratios to native (of each row's first median)",
             lambda p, keys: fig(cells, p["id"], "native", keys[0]), False),
            (f"Ratios to the SUD floor ({fmt(floor) if floor else 'no figure'} ns)",
             lambda p, keys: floor, True)):
        lines = []
        for p, keys, label in rows:
            base = base_of(p, keys)
            if not base or p["where"] != "all" or (cost_only and keys[0] != "cost"):
                continue
            vals = []
            for c in others:
                v = fig(cells, p["id"], c, keys[0])
                vals.append(f"{v / base:.2f}x" if v is not None else "—")
            if cost_only:
                v = fig(cells, p["id"], "native", keys[0])
                vals.insert(0, f"{v / base:.2f}x" if v is not None else "—")
            if any(v != "—" for v in vals):
                lines.append(f"| {label} | " + " | ".join(vals) + " |")
        if not lines:
            continue
        cols = (["native"] if cost_only else []) + others
        w(f"## {title}")
        w("")
        w("| probe | " + " | ".join(COLUMNS[c] for c in cols) + " |")
        w("|---|" + "---|" * len(cols))
        out.extend(lines)
        w("")
    w("## Targets: getpid and sched_yield against the SUD floor")
    w("")

    def target(text, value, ok):
        if value is None:
            w(f"- {text}: no figure (see the table)")
        else:
            w(f"- {text}: {value} — {'met' if ok else 'missed'}")

    for col in ("umk", "umk-nofsgsbase"):
        if col not in columns:
            continue
        g = fig(cells, "getpid", col, "cost")
        y = fig(cells, "yield", col, "cost")
        name = COLUMNS[col]
        if floor:
            target(f"getpid under {name} within 1.2x the SUD floor ({fmt(floor)} ns)",
                   None if g is None else f"{fmt(g)} ns = {g / floor:.2f}x", g is not None and g <= 1.2 * floor)
            target(f"sched_yield between threads under {name} within the floor + 300 ns ({fmt(floor + 300)} ns)",
                   None if y is None else f"{fmt(y)} ns = floor + {fmt(y - floor)} ns",
                   y is not None and y <= floor + 300)
        else:
            w(f"- the floor has no figure: no ratios to it for {name}")
        # Where umk switches the FS base with a host arch_prctl (its
        # --nofsgsbase path, the only one of a host without FSGSBASE), a
        # switch to another task costs that call on top of the trap: the
        # floor of a switch there is sudfloor's "fsbase" variant.
        if floor_fs and (col == "umk-nofsgsbase" or meta.get("fsgsbase") == "no"):
            target(f"sched_yield between threads under {name} within the floor with an FS base switch "
                   f"+ 300 ns ({fmt(floor_fs + 300)} ns)",
                   None if y is None else f"{fmt(y)} ns = that floor + {fmt(y - floor_fs)} ns",
                   y is not None and y <= floor_fs + 300)
    for key, what in (("median", "median"), ("p99", "p99")):
        u, n = fig(cells, "sleepers1000", "umk", key), fig(cells, "sleepers1000", "native", key)
        target(f"1000 sleepers' {what} overshoot under umk at or below native's",
               None if u is None or n is None else f"{fmt(u)} µs vs {fmt(n)} µs native ({u / n:.2f}x)",
               u is not None and n is not None and u <= n)
    u, n = fig(cells, "sleepprocs1000", "umk", "median"), fig(cells, "sleepprocs1000", "native", "median")
    target("1000 sleeping processes' median overshoot under umk within 2x native's",
           None if u is None or n is None else f"{fmt(u)} µs vs {fmt(n)} µs native ({u / n:.2f}x)",
           u is not None and n is not None and u <= 2 * n)
    for col in columns:
        for key, what in (("sleepers", "sleepers"), ("procs", "sleeping processes")):
            pts = sleeper_points(probes, cells, col, key)
            pts = [(k, v) for k, v in pts if k >= 10]
            if len(pts) >= 2 and col in ("umk", "native"):
                (k0, v0), (k1, v1) = pts[0], pts[-1]
                w(f"- CPU per wake-up under {COLUMNS[col]}, {k0} to {k1} {what}: {fmt(v0)} ns to {fmt(v1)} ns "
                  f"({v1 / v0:.2f}x; flat is the target)")
    w("")
    return "\n".join(out)


def sleeper_points(probes, cells, col, key="sleepers"):
    """(how many, CPU per wake-up) of the probes whose line counts its
    sleepers as key says: "sleepers" (threads) or "procs"."""
    pts = []
    for p in probes:
        c = cells.get((p["id"], col))
        if c and c.state == "ok" and "wake" in c.figs and key in c.figs:
            pts.append((int(c.figs[key][0]), c.figs["wake"][0]))
    return sorted(pts)


def esc(s):
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def svg(meta, probes, columns, cells, rows):
    """Log-scale bars per probe and column (every figure in ns), then the
    CPU per wake-up against the number of sleepers, log-log."""
    bar_rows = [(p, keys, label) for p, keys, label in rows]
    bh, gap, width = 9, 8, 520
    left = max(200, int(6.3 * max(len(label) for _, _, label in bar_rows)) + 20)
    lo, hi = 1.0, 1e9  # 1 ns .. 1 s
    group = bh * len(columns) + gap
    top = 70
    h1 = top + group * len(bar_rows) + 40
    h2 = 330
    height = h1 + h2
    total_w = max(left + width, 150 * len(columns)) + 200
    o = []
    a = o.append
    a(f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{height}" '
      f'viewBox="0 0 {total_w} {height}" font-family="sans-serif" font-size="11">')
    a(f'<rect width="{total_w}" height="{height}" fill="white"/>')
    a(f'<text x="10" y="20" font-size="15" font-weight="bold">make bench, {esc(meta.get("date", "?"))}: '
      f'median per probe, log scale (ns)</text>')
    a(f'<text x="10" y="38">{esc(meta.get("cpu", "?"))}; fsgsbase: {esc(meta.get("fsgsbase", "?"))}; '
      f'{esc(meta.get("kernel", "?"))}; umk {esc(meta.get("umk", "?"))}</text>')

    def x_of(v):
        v = min(max(v, lo), hi)
        return left + width * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    for e in range(0, 10):
        x = x_of(10 ** e)
        a(f'<line x1="{x:.1f}" y1="{top - 8}" x2="{x:.1f}" y2="{h1 - 36}" stroke="#ddd"/>')
        lab = ["1 ns", "10 ns", "100 ns", "1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s"][e]
        a(f'<text x="{x:.1f}" y="{top - 12}" text-anchor="middle" fill="#555">{lab}</text>')
    for i, c in enumerate(columns):
        lx = left + i * 150
        a(f'<rect x="{lx}" y="{h1 - 28}" width="10" height="10" fill="{COLOURS.get(c, "#888")}"/>')
        a(f'<text x="{lx + 14}" y="{h1 - 19}">{esc(COLUMNS.get(c, c))}</text>')
    for r, (p, keys, label) in enumerate(bar_rows):
        y0 = top + r * group
        a(f'<text x="{left - 8}" y="{y0 + group / 2:.1f}" text-anchor="end">{esc(label)}</text>')
        for i, c in enumerate(columns):
            cell = cells[(p["id"], c)]
            y = y0 + i * bh
            if cell.state == "ok" and keys[0] in cell.figs:
                med, mn, mx = cell.figs[keys[0]]
                scale = 1000.0 if keys[0] in ("median", "p99") else 1.0  # µs -> ns
                x = x_of(med * scale)
                a(f'<rect x="{left}" y="{y}" width="{max(x - left, 1):.1f}" height="{bh - 1}" '
                  f'fill="{COLOURS.get(c, "#888")}"><title>{esc(COLUMNS.get(c, c))}: '
                  f'{esc(cell.text(keys))}</title></rect>')
                a(f'<line x1="{x_of(mn * scale):.1f}" y1="{y + bh / 2 - 0.5:.1f}" '
                  f'x2="{x_of(mx * scale):.1f}" y2="{y + bh / 2 - 0.5:.1f}" stroke="black"/>')
            elif cell.state == "bad":
                a(f'<text x="{left + 2}" y="{y + bh - 1}" fill="#c00" font-size="9">✗ FAILED: '
                  f'{esc(cell.why[:90])}</text>')
            elif cell.state == "na":
                a(f'<text x="{left + 2}" y="{y + bh - 1}" fill="#777" font-size="9">n/a: '
                  f'{esc(cell.why[:90])}</text>')

    # CPU per wake-up against the number of sleepers.
    y_top, ph, pl, pw = h1 + 40, 230, 80, 500
    a(f'<text x="10" y="{h1 + 20}" font-size="15" font-weight="bold">sleepers\' CPU per wake-up '
      f'(ns) against the number of sleepers, log-log</text>')
    ks = [1, 10, 100, 1000, 10000]
    allv = [v for c in columns for _, v in sleeper_points(probes, cells, c)] or [1000.0]
    vlo = 10 ** math.floor(math.log10(max(min(allv), 1.0)))
    vhi = 10 ** math.ceil(math.log10(max(allv) * 1.0001))
    if vhi <= vlo:
        vhi = vlo * 10

    def px(k):
        return pl + pw * math.log10(k) / 4

    def py(v):
        v = min(max(v, vlo), vhi)
        return y_top + ph - ph * (math.log10(v) - math.log10(vlo)) / (math.log10(vhi) - math.log10(vlo))

    a(f'<rect x="{pl}" y="{y_top}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>')
    for k in ks:
        a(f'<text x="{px(k):.1f}" y="{y_top + ph + 15}" text-anchor="middle">{k}</text>')
    e = math.log10(vlo)
    while e <= math.log10(vhi) + 1e-9:
        yy = py(10 ** e)
        a(f'<line x1="{pl}" y1="{yy:.1f}" x2="{pl + pw}" y2="{yy:.1f}" stroke="#eee"/>')
        a(f'<text x="{pl - 5}" y="{yy + 4:.1f}" text-anchor="end">{fmt(10 ** e)}</text>')
        e += 1
    a(f'<text x="{pl + pw / 2}" y="{y_top + ph + 32}" text-anchor="middle">sleepers</text>')
    for i, c in enumerate(columns):
        pts = sleeper_points(probes, cells, c)
        col = COLOURS.get(c, "#888")
        if len(pts) > 1:
            a(f'<polyline fill="none" stroke="{col}" stroke-width="2" points="'
              + " ".join(f"{px(k):.1f},{py(v):.1f}" for k, v in pts) + '"/>')
        for k, v in pts:
            a(f'<circle cx="{px(k):.1f}" cy="{py(v):.1f}" r="3" fill="{col}">'
              f'<title>{esc(COLUMNS.get(c, c))}, {k} sleepers: {fmt(v)} ns</title></circle>')
        failed = [p["label"] for p in probes if p["id"].startswith("sleepers")
                  and cells[(p["id"], c)].state in ("bad", "na")]
        a(f'<text x="{pl + pw + 10}" y="{y_top + 14 + i * 16}" fill="{col}">'
          f'{esc(COLUMNS.get(c, c))}'
          + (f' (no figure: {esc(", ".join(failed))})' if failed else "") + '</text>')
    a("</svg>")
    return "\n".join(o) + "\n"


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print("usage: bench_report.py DIR", file=sys.stderr)
        return 2
    d = argv[1]
    try:
        probes = read_probes(os.path.join(d, "probes"))
        meta = read_meta(os.path.join(d, "meta.tsv"))
        runs, nrounds = read_raw(os.path.join(d, "raw.tsv"), probes)
    except BadInput as e:
        print(f"bench_report: {e}", file=sys.stderr)
        return 1
    columns, cells, rows = build(probes, runs, meta)
    with open(os.path.join(d, "BENCH.md"), "w", encoding="utf-8") as f:
        f.write(markdown(meta, probes, columns, cells, rows, nrounds))
    with open(os.path.join(d, "bench.svg"), "w", encoding="utf-8") as f:
        f.write(svg(meta, probes, columns, cells, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
