#!/usr/bin/env python3
"""Read back a umk --timeline SVG and summarise what it draws.

usage: timeline_check.py [--order] FILE

Fails (exit 1, a message on stderr) unless FILE parses as XML, is an SVG,
and no two labels overlap (their boxes estimated from the monospace font
umk lays them out with). Prints one line per drawn thing:

    lane <pid> <comm> <sublabel> states=<state,...>
    signal <from pid> <to pid> <SIG> [faint]      (from -1: the kernel)
    handler <pid> <SIG> depth=<d> [unfinished]
    restart <pid>
    label <pid> <text>

With --order, the drawn things also say where they are in time, as their
tooltips do (no pixel positions: those are the renderer's to choose), and
exits and instants get lines of their own:

    signal ... at=<ms> [event=<k>/<n>]
    handler ... at=<ms> [event=<k>..<l>/<n>]
    restart <pid> at=<ms> [event=<k>/<n>]
    exit <pid> at=<ms> [event=<k>/<n>]
    instant <ns> events=<n>

event=<k>/<n>: the mark is the k-th of the n events of the instant (one
timestamp shared by several events) it is drawn in; a handler box spans
events k to l.
"""
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
CHAR_W = 6.7    # harness/umk-trace/timeline.h: an 11px monospace character
WHEN = re.compile(r" at ([0-9.]+) ms(?: \(one instant: event ([0-9]+)(?: to ([0-9]+))?"
                  r" of ([0-9]+) in trace order\))?$")


def classes(el):
    return (el.get("class") or "").split()


def label_box(t):
    x, y = float(t.get("x")), float(t.get("y"))
    w = len(t.text or "") * CHAR_W
    if t.get("text-anchor") == "end":
        x -= w
    return (x, y - 10, x + w, y + 3)


def overlap(a, b):
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def when(el, with_order):
    """' at=MS [event=K[..L]/N]' for the mark group el when with_order, from its title."""
    if not with_order:
        return ""
    title = el.find(SVG + "title")
    m = WHEN.search((title.text or "").strip()) if title is not None else None
    if not m:
        sys.exit(f"a mark without a time in its title: {ET.tostring(el)[:200]!r}")
    out = f" at={m.group(1)}"
    if m.group(2):
        out += f" event={m.group(2)}" + (f"..{m.group(3)}" if m.group(3) else "") + f"/{m.group(4)}"
    return out


def main(path, with_x=False):
    root = ET.parse(path).getroot()
    if root.tag != SVG + "svg":
        sys.exit(f"the root is {root.tag}, not svg")
    out, labels = [], []
    for el in root.iter():
        cls = classes(el)
        if el.tag == SVG + "g" and "lane" in cls:
            texts = [t.text or "" for t in el.iter(SVG + "text") if "label" not in classes(t)]
            states = sorted({classes(r)[1] for r in el.iter(SVG + "rect") if "span" in classes(r)})
            out.append(f"lane {el.get('data-pid')} {el.get('data-comm')} "
                       f"{texts[1] if len(texts) > 1 else ''} states={','.join(states)}")
        elif el.tag == SVG + "g" and "signal" in cls:
            faint = any(l.get("stroke-dasharray") for l in el.iter(SVG + "line"))
            out.append(f"signal {el.get('data-from')} {el.get('data-pid')} {el.get('data-sig')}"
                       + (" faint" if faint else "") + when(el, with_x))
        elif el.tag == SVG + "g" and "handler" in cls:
            dashed = any(r.get("stroke-dasharray") for r in el.iter(SVG + "rect"))
            out.append(f"handler {el.get('data-pid')} {el.get('data-sig')} "
                       f"depth={el.get('data-depth')}" + (" unfinished" if dashed else "")
                       + when(el, with_x))
        elif el.tag == SVG + "g" and "restart" in cls:
            out.append(f"restart {el.get('data-pid')}" + when(el, with_x))
        elif el.tag == SVG + "g" and "exit" in cls and with_x:
            out.append(f"exit {el.get('data-pid')}" + when(el, with_x))
        elif el.tag == SVG + "rect" and "instant" in cls and with_x:
            out.append(f"instant {el.get('data-t')} events={el.get('data-events')}")
        elif el.tag == SVG + "text" and "label" in cls:
            out.append(f"label {el.get('data-pid')} {el.text}")
            labels.append(el)
    boxes = [label_box(t) for t in labels]
    for i, a in enumerate(boxes):
        for j in range(i):
            if overlap(a, boxes[j]):
                sys.exit(f"labels overlap: {labels[j].text!r} and {labels[i].text!r}")
    print("\n".join(out))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--order"]:
        main(sys.argv[2], with_x=True)
    else:
        main(sys.argv[1])
