#!/usr/bin/env python3
"""Check a umk Chrome trace (--trace-format=chrome) and summarise it.

usage: chrome_check.py FILE

Fails (exit 1, a message on stderr) unless FILE is a JSON array of trace
events in which every task's track has a name, every span ("X") has a
duration >= 0, and the state spans of one track never overlap. Prints one
line per track, sorted by tid:

    <tid> <name> spans=<state,...> instants=<name|name|...>
"""
import json
import sys


def main(path):
    with open(path) as f:
        events = json.load(f)
    if not isinstance(events, list):
        sys.exit("not a JSON array")
    names, spans, instants = {}, {}, {}
    for ev in events:
        tid = ev["tid"]
        if ev["ph"] == "M" and ev["name"] == "thread_name":
            names[tid] = ev["args"]["name"]
        elif ev["ph"] == "X":
            if ev["dur"] < 0:
                sys.exit(f"negative duration: {ev}")
            spans.setdefault(tid, []).append(ev)
        elif ev["ph"] == "i":
            instants.setdefault(tid, []).append(ev["name"])
    for tid, lst in spans.items():
        lst.sort(key=lambda e: e["ts"])
        for a, b in zip(lst, lst[1:]):
            if a["ts"] + a["dur"] > b["ts"] + 0.001:
                sys.exit(f"track {tid}: {a['name']} overlaps {b['name']}")
    for tid in set(spans) | set(instants):
        if tid not in names:
            sys.exit(f"track {tid} has no thread_name")
    for tid in sorted(names):
        states = sorted({e["name"] for e in spans.get(tid, [])})
        print(f"{tid} {names[tid]} spans={','.join(states)} "
              f"instants={'|'.join(instants.get(tid, []))}")


if __name__ == "__main__":
    main(sys.argv[1])
