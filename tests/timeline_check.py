#!/usr/bin/env python3
"""Read back a umk --timeline SVG and summarise what it draws.

usage: timeline_check.py [--x] FILE

Fails (exit 1, a message on stderr) unless FILE parses as XML, is an SVG,
and no two labels overlap (their boxes estimated from the monospace font
umk lays them out with). Prints one line per drawn thing:

    lane <pid> <comm> <sublabel> states=<state,...>
    signal <from pid> <to pid> <SIG> [faint]      (from -1: the kernel)
    handler <pid> <SIG> depth=<d> [unfinished]
    restart <pid>
    label <pid> <text>

With --x, the drawn things also say where they are across the plot, and
exits and instants get lines of their own:

    signal ... x=<x>
    handler ... x=<left>..<right>
    restart <pid> x=<x>
    exit <pid> x=<x>
    instant <ns> events=<n> x=<left>..<right>
"""
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
CHAR_W = 6.7    # kernel/timeline.h: an 11px monospace character


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


def x_of(el, with_x):
    """' x=...' for the mark group el when with_x: its arrow, box, diamond or bar."""
    if not with_x:
        return ""
    line, rect, poly = el.find(SVG + "line"), el.find(SVG + "rect"), el.find(SVG + "polygon")
    if line is not None:
        return f" x={float(line.get('x1')):.1f}"
    if rect is not None and "handler" in classes(el):
        x = float(rect.get("x"))
        return f" x={x:.1f}..{x + float(rect.get('width')):.1f}"
    if rect is not None:
        return f" x={float(rect.get('x')) + float(rect.get('width')) / 2:.1f}"
    return f" x={float(poly.get('points').split(',')[0]):.1f}"


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
                       + (" faint" if faint else "") + x_of(el, with_x))
        elif el.tag == SVG + "g" and "handler" in cls:
            dashed = any(r.get("stroke-dasharray") for r in el.iter(SVG + "rect"))
            out.append(f"handler {el.get('data-pid')} {el.get('data-sig')} "
                       f"depth={el.get('data-depth')}" + (" unfinished" if dashed else "")
                       + x_of(el, with_x))
        elif el.tag == SVG + "g" and "restart" in cls:
            out.append(f"restart {el.get('data-pid')}" + x_of(el, with_x))
        elif el.tag == SVG + "g" and "exit" in cls and with_x:
            out.append(f"exit {el.get('data-pid')}" + x_of(el, with_x))
        elif el.tag == SVG + "rect" and "instant" in cls and with_x:
            x = float(el.get("x"))
            out.append(f"instant {el.get('data-t')} events={el.get('data-events')} "
                       f"x={x:.1f}..{x + float(el.get('width')):.1f}")
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
    if sys.argv[1:2] == ["--x"]:
        main(sys.argv[2], with_x=True)
    else:
        main(sys.argv[1])
