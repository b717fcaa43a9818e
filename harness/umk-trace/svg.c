/*
 * harness/umk-trace/svg.c: the timeline picture, written as SVG to stdout
 * from what timeline.c recorded and laid out (timeline.h).
 *
 * Drawn bottom up: the time axis (axis.c), then each lane (its
 * name, its state spans), handler boxes, signal arrows and the other marks,
 * then the labels over everything, the legend and any notes. Every drawn
 * thing has a class (lane, span, handler, signal, restart, label...) and
 * data-pid attributes, so tests and tools can read the picture back. Text is
 * escaped for XML and the file is ASCII whatever a task's name holds.
 */

#include "timeline.h"

#define FONT		"DejaVu Sans Mono,Menlo,Consolas,monospace"

void oputs(const char *s)
{
	fputs(s, stdout);
}

void oprintf(const char *fmt, ...)
{
	char b[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	oputs(b);
}

/* One UTF-8 character at p: its length, and its code point in *cp, or
 * U+FFFD for a byte that starts none (or one XML forbids). */
static unsigned utf8_char(const unsigned char *p, unsigned *cp)
{
	static const unsigned least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned len = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 && p[0] <= 0xef ? 3 :
		       p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : 0;
	unsigned i, c;

	*cp = 0xfffd;
	if (!len)
		return 1;
	c = p[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 1;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c >= least[len] && c <= 0x10ffff && (c < 0xd800 || c > 0xdfff) && c != 0xfffe &&
	    c != 0xffff)
		*cp = c;
	return len;
}

/* Text or an attribute value: XML's specials as entities, other characters
 * than printable ASCII as references (bytes that are not UTF-8, control
 * characters: U+FFFD), so the file is ASCII and always well-formed. */
void otext(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp;
	char c[2] = "";

	while (*p) {
		if (*p >= 0x20 && *p < 0x7f) {
			c[0] = *p++;
			oputs(c[0] == '&' ? "&amp;" : c[0] == '<' ? "&lt;" : c[0] == '>' ? "&gt;" :
			      c[0] == '"' ? "&quot;" : c[0] == '\'' ? "&apos;" : c);
			continue;
		}
		p += utf8_char(p, &cp);
		oprintf("&#x%x;", cp);
	}
}

/* Columns a label takes: its characters, not its bytes. */
int timeline_text_cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static const char *const state_fill[] = {
	[LANE_RUNNING] = "#66bb6a", [LANE_RUNNABLE] = "#ffca28",
	[LANE_SLEEPING] = "#90caf9", [LANE_STOPPED] = "#ef5350",
};

void text_at(double x, double y, const char *attrs, const char *s)
{
	oprintf("<text x=\"%.1f\" y=\"%.1f\" %s>", x, y, attrs);
	otext(s);
	oputs("</text>\n");
}

/* t in ms, with as many decimals as a step of step ns needs. */
void timeline_fmt_ms(char *buf, size_t n, u64 t, u64 step)
{
	int dec = step >= 1000000 ? 0 : step >= 100000 ? 1 : step >= 10000 ? 2 : step >= 1000 ? 3 : 6;

	snprintf(buf, n, "%.*f", dec, t / 1e6);
}

void timeline_fmt_dur(char *buf, size_t n, u64 ns)
{
	if (ns < 1000)
		snprintf(buf, n, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, n, "%.*f µs", ns < 10000, ns / 1e3);
	else
		snprintf(buf, n, "%.*f ms", ns < 10000000 ? 2 : 1, ns / 1e6);
}

/* A span's tooltip: what, from when to when, how long; one that begins
 * and ends in one instant took no time, whatever its width. */
static void span_title(const struct span *s, const char *what)
{
	char from[32], to[32], dur[32];

	timeline_fmt_ms(from, sizeof(from), s->start, 1000);
	timeline_fmt_ms(to, sizeof(to), s->end, 1000);
	timeline_fmt_dur(dur, sizeof(dur), s->end - s->start);
	oputs("<title>");
	otext(what);
	if (s->start == s->end)
		oprintf(", at %s ms (0 ns, same instant)</title>", from);
	else {
		oprintf(", %s to %s ms (", from, to);
		otext(dur);
		oputs(")</title>");
	}
}

/* A span, or n spans merged into one (state: where they spent most time). */
static void draw_span(const struct span *s, int n, double y)
{
	double x0 = timeline_x(s->start, s->start_seq), x1 = timeline_x(s->end, s->end_seq);
	char what[64];

	if (x1 - x0 < 0.05)
		return;
	if (n > 1)
		snprintf(what, sizeof(what), "%d spans, mostly %s", n, lane_state_name(s->state));
	else if (s->state != LANE_RUNNING && s->syscall >= 0)
		snprintf(what, sizeof(what), "%s in %s", lane_state_name(s->state),
			 syscall_name(s->syscall));
	else
		snprintf(what, sizeof(what), "%s", lane_state_name(s->state));
	oprintf("<rect class=\"span %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\">",
		lane_state_name(s->state), x0, y, x1 - x0, BAR_H, state_fill[s->state]);
	if (x1 - x0 >= 2)
		span_title(s, what);
	oputs("</rect>\n");
	if (n == 1 && x1 - x0 > timeline_text_cols(what) * 6.1 + 8)
		text_at(x0 + 4, y + 14, "font-size=\"10\" fill=\"#222\"", what);
}

static double span_w(const struct span *s)
{
	return timeline_x(s->end, s->end_seq) - timeline_x(s->start, s->start_seq);
}

/* A lane's spans. Spans under a pixel wide merge until they fill one, so a
 * run of a million switches still draws (and writes) a sane picture; the
 * merged span's state is the one most of its width had. */
static void draw_spans(int lane, double y)
{
	const struct span *first = NULL, *last = NULL, *s;
	double in[LANE_DEAD + 1] = { 0 };
	enum lane_state st;
	size_t k;
	int n = 0;

	for (k = 0; k <= tl.nr_spans; k++) {
		s = k < tl.nr_spans ? &tl.spans[k] : NULL;
		if (s && s->lane != lane)
			continue;
		if (n && (!s || timeline_x(s->end, s->end_seq) -
					timeline_x(first->start, first->start_seq) >= 1)) {
			struct span merged = { .start = first->start, .start_seq = first->start_seq,
					       .end = last->end, .end_seq = last->end_seq,
					       .lane = lane, .state = LANE_RUNNING, .syscall = -1 };

			for (st = LANE_RUNNING; st <= LANE_STOPPED; st++)
				merged.state = in[st] > in[merged.state] ? st : merged.state;
			draw_span(n > 1 ? &merged : first, n, y);
			memset(in, 0, sizeof(in));
			n = 0;
		}
		if (!s)
			break;
		if (span_w(s) >= 1) {
			draw_span(s, 1, y);
			continue;
		}
		if (!n++)
			first = s;
		last = s;
		in[s->state] += span_w(s);
	}
}

static void draw_lane(size_t i)
{
	const struct lane *l = lane_at(i);
	int r = tl.lrow[i];
	double bar = tl.bar_y[r], top = bar - max(tl.nrows[r], 1) * ROW_H - 10;
	char name[96];

	oprintf("<g class=\"lane\" data-pid=\"%d\" shape-rendering=\"crispEdges\" data-comm=\"",
		l->pid);
	otext(l->comm);
	oprintf("\">\n<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#000\" "
		"fill-opacity=\"%s\"/>\n", top, WIDTH, bar + BAR_H + 18 - top, r % 2 ? "0.035" : "0");
	snprintf(name, sizeof(name), "%d %s", l->pid, l->comm);
	text_at(PLOT_X0 - 12, bar + 14, "font-size=\"12.5\" font-weight=\"bold\" text-anchor=\"end\"",
		name);
	if (l->tgid != l->pid)
		snprintf(name, sizeof(name), "thread of %d", l->tgid);
	else
		snprintf(name, sizeof(name), l->ppid > 0 ? "child of %d" : "", l->ppid);
	text_at(PLOT_X0 - 12, bar + 27, "font-size=\"10\" text-anchor=\"end\" fill=\"#666\"", name);
	draw_spans(i, bar);
	oputs("</g>\n");
}

static void draw_arrow(double x, double y1, double y2, bool faint)
{
	double d = y2 > y1 ? 1 : -1;
	const char *c = faint ? "#9e9e9e" : "#c62828";

	oprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"1.6\"%s/>\n", x, y1, x, y2 - 7 * d, c,
		faint ? " stroke-dasharray=\"4 3\"" : "");
	oprintf("<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n", x - 4,
		y2 - 8 * d, x + 4, y2 - 8 * d, x, y2, c);
}

static void draw_frame_box(double x0, double x1, double y, double h, bool dashed)
{
	oprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#ba68c8\" "
		"fill-opacity=\"0.35\" stroke=\"#6a1b9a\" stroke-width=\"1.5\"%s/>\n", x0, y,
		max(x1 - x0, 3.0), h, dashed ? " stroke-dasharray=\"4 3\"" : "");
}

static void draw_diamond(double x, double y)
{
	oprintf("<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#0d47a1\" "
		"stroke=\"#fff\"/>\n", x, y - 7, x + 5, y, x, y + 7, x - 5, y);
}

static void draw_cross(double x, double y)
{
	oprintf("<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#d50000\" stroke-width=\"2.5\"/>\n",
		x - 4, y - 4);
}

static void draw_exit(double x, double y)
{
	oprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"%d\" fill=\"#000\"/>\n", x - 1.5,
		y - 4, BAR_H + 8);
}

/* A mark's tooltip: its text and time, and in an instant, where in its
 * order the mark is (a handler there: from which event to which). */
static void mark_title(const struct mark *m)
{
	const struct instant *in = timeline_instant(m->at);
	char ms[32];

	timeline_fmt_ms(ms, sizeof(ms), m->ts, 1000);
	oputs("<title>");
	otext(m->text);
	oprintf(" at %s ms", ms);
	if (in) {
		oprintf(" (one instant: event %d", timeline_instant_place(in, m->at_seq) + 1);
		if (m->kind == MK_HANDLER && m->end == m->at && m->end_seq != SEQ_AFTER)
			oprintf(" to %d", timeline_instant_place(in, m->end_seq) + 1);
		oprintf(" of %d in trace order)", in->n);
	}
	oputs("</title>\n");
}

/* A mark as a group: class the kind, data-pid the task (a signal's target),
 * a tooltip with its time. */
static void draw_mark(const struct mark *m)
{
	static const char *const kind[] = {
		[MK_SIGNAL] = "signal", [MK_HANDLER] = "handler", [MK_RESTART] = "restart",
		[MK_FAULT] = "fault",	[MK_EXIT] = "exit",
	};
	int r = tl.lrow[m->lane], fr = m->from >= 0 ? tl.lrow[m->from] : -1, d = min(m->depth, 2);
	double bar = tl.bar_y[r], mid = bar + BAR_H / 2.0, y1;

	oprintf("<g class=\"%s\" data-pid=\"%d\"", kind[m->kind], lane_at(m->lane)->pid);
	if (m->kind == MK_SIGNAL)
		oprintf(" data-from=\"%d\"", fr >= 0 ? lane_at(m->from)->pid : -1);
	if (m->kind == MK_SIGNAL || m->kind == MK_HANDLER)
		oprintf(" data-sig=\"%s\" data-depth=\"%d\"", signal_name(m->sig) ?: "?", m->depth);
	oputs(">");
	mark_title(m);
	switch (m->kind) {
	case MK_SIGNAL:
		/* from the kernel: from the axis; to itself: a short arrow */
		y1 = fr < 0 ? AXIS_Y : fr < r ? tl.bar_y[fr] + BAR_H : fr > r ? tl.bar_y[fr] : bar - 16;
		draw_arrow(m->x, y1, fr > r ? bar + BAR_H : bar, m->faint);
		break;
	case MK_HANDLER:
		draw_frame_box(m->x, timeline_x(m->end, m->end_seq), bar - 7 + 3 * d,
			       BAR_H + 14 - 6 * d, m->unfinished);
		break;
	case MK_RESTART:
		draw_diamond(m->x, mid);
		break;
	case MK_FAULT:
		draw_cross(m->x, mid);
		break;
	case MK_EXIT:
		draw_exit(m->x, bar);
		break;
	}
	oputs("</g>\n");
}

static void draw_label(const struct mark *m)
{
	static const char *const ink[] = {
		[MK_SIGNAL] = "#b71c1c", [MK_HANDLER] = "#6a1b9a", [MK_RESTART] = "#0d47a1",
		[MK_FAULT] = "#d50000",	 [MK_EXIT] = "#000",
	};
	int r = timeline_label_lane(m);
	double bar = tl.bar_y[r], w = timeline_text_cols(m->text) * CHAR_W, y;
	char attrs[128];

	if (m->row < 0)
		return;
	if (m->row == ROW_BAR) {
		y = tl.bar_y[tl.lrow[m->lane]] + 14;
	} else {
		y = bar - 9 - (max(tl.nrows[r], 1) - 1 - m->row) * ROW_H;
		if (m->kind != MK_SIGNAL)	/* a leader down to the mark */
			oprintf("<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1f\" stroke=\"#888\" "
				"fill=\"none\"/>\n", m->x, y - 4, bar - (m->kind == MK_HANDLER ? 7 : 0),
				m->x, y - 4, m->lx > m->x ? m->lx - 1 : m->lx + w + 1);
	}
	oprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"13\" fill=\"#fff\" "
		"fill-opacity=\"0.85\"/>\n", m->lx - 1, y - 10, w + 2);
	snprintf(attrs, sizeof(attrs), "class=\"label\" data-pid=\"%d\" font-size=\"11\" fill=\"%s\"%s",
		 lane_at(m->lane)->pid, m->faint ? "#757575" : ink[m->kind],
		 m->kind == MK_RESTART ? " font-weight=\"bold\"" : "");
	text_at(m->lx, y, attrs, m->text);
}

enum glyph { G_RUNNING, G_RUNNABLE, G_SLEEPING, G_STOPPED, G_SIGNAL, G_IGNORED, G_HANDLER,
	     G_RESTART, G_FAULT, G_EXIT, G_INSTANT };

static const char *const legend_text[] = {
	[G_RUNNING] = "running",
	[G_RUNNABLE] = "runnable: waiting for the CPU",
	[G_SLEEPING] = "sleeping in a system call",
	[G_STOPPED] = "stopped (SIGSTOP)",
	[G_SIGNAL] = "signal, sender → target",
	[G_IGNORED] = "signal the target ignored",
	[G_HANDLER] = "signal handler running: delivery to sigreturn",
	[G_RESTART] = "restart decision (below)",
	[G_FAULT] = "fault",
	[G_EXIT] = "exit",
	[G_INSTANT] = "one instant: its events in trace order, no time passing",
};

static const char *const explain[] = {
	"A signal can interrupt a system call that sleeps; the call then returns an -ERESTART* code, "
	"which never reaches the program.",
	"On the way back to user mode the kernel decides (◆): return EINTR (a handler runs) or run the "
	"call again. After ERESTART_RESTARTBLOCK",
	"the call comes back as restart_syscall, which resumes it where it was (for nanosleep: "
	"hrtimer_nanosleep_restart sleeps the rest).",
	"The idle task (pid 0) has no lane: the CPU is idle wherever no lane is running. Hover over a "
	"span or a box for its exact times.",
};

static void draw_glyph(enum glyph g, double x, double y)
{
	static const enum lane_state states[] = { LANE_RUNNING, LANE_RUNNABLE, LANE_SLEEPING,
						  LANE_STOPPED };

	if (g <= G_STOPPED)
		oprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"24\" height=\"12\" fill=\"%s\"/>\n", x,
			y - 10, state_fill[states[g]]);
	else if (g <= G_IGNORED)
		draw_arrow(x + 12, y - 13, y + 4, g == G_IGNORED);
	else if (g == G_HANDLER)
		draw_frame_box(x, x + 24, y - 12, 16, false);
	else if (g == G_RESTART)
		draw_diamond(x + 12, y - 4);
	else if (g == G_FAULT)
		draw_cross(x + 12, y - 4);
	else if (g == G_EXIT)
		draw_exit(x + 12, y - 12);
	else
		oprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"24\" height=\"16\" fill=\"%s\" "
			"stroke=\"%s\"/>\n", x, y - 12, INSTANT_FILL, INSTANT_STROKE);
}

/* The legend from y: returns the y below it. Draws nothing if !draw. An
 * instant is explained where there is one. */
static double legend(double y, bool draw)
{
	double x = 20, w;
	size_t g;

	if (draw)
		text_at(20, y, "font-size=\"12.5\" font-weight=\"bold\"", "Legend");
	y += 22;
	for (g = 0; g < ARRAY_SIZE(legend_text) - !tl.nr_instants; g++) {	/* G_INSTANT last */
		w = 34 + timeline_text_cols(legend_text[g]) * CHAR_W + 26;
		if (x + w > WIDTH - 10) {
			x = 20;
			y += 24;
		}
		if (draw) {
			draw_glyph(g, x, y);
			text_at(x + 34, y, "font-size=\"11\"", legend_text[g]);
		}
		x += w;
	}
	y += 10;
	for (g = 0; g < ARRAY_SIZE(explain); g++) {
		y += 16;
		if (draw)
			text_at(20, y, "font-size=\"11\" fill=\"#333\"", explain[g]);
	}
	return y;
}

static void header(double height)
{
	const struct lane *init = lane_find(1);
	char s[160], dur[32];

	oprintf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"viewBox=\"0 0 %d %.0f\" font-family=\"%s\">\n", WIDTH, height, WIDTH, height, FONT);
	timeline_fmt_dur(dur, sizeof(dur), tl.ran);
	snprintf(s, sizeof(s), "umk timeline: %s (pid 1), %d task%s, %s", init ? init->comm : "?",
		 tl.nr_shown + tl.nr_hidden, tl.nr_shown + tl.nr_hidden == 1 ? "" : "s", dur);
	oputs("<title>");
	otext(s);
	oputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
	text_at(20, 26, "font-size=\"16\" font-weight=\"bold\"", s);
	text_at(20, 44, "font-size=\"11\" fill=\"#333\"",
		"One lane per task (pid, name); time runs left to right. The colours are what the task "
		"was doing; arrows are signals.");
	if (tl.nr_bands || tl.nr_instants)
		text_at(20, 58, "font-size=\"11\" fill=\"#333\"", !tl.nr_instants ?
			"Grey bands are magnified (×N above each) so that events microseconds apart can "
			"be told apart; outside them one scale holds." : !tl.nr_bands ?
			"A blue band holds one instant: events with the same timestamp, spread out in "
			"trace order. No time passes inside it." :
			"Grey bands are magnified (×N); blue ones hold one instant, its events spread out "
			"in trace order: no time passes inside.");
}

static void notes(double y)
{
	const char *a = "font-size=\"11.5\" font-weight=\"bold\" fill=\"#d50000\"";
	char s[160], ms[32];

	if (tl.truncated) {
		timeline_fmt_ms(ms, sizeof(ms), tl.truncated_at, 1000);
		snprintf(s, sizeof(s), "… truncated at %s ms: more than %d marks or %d spans; "
			 "the picture stops there", ms, MAX_MARKS, MAX_SPANS);
		text_at(20, y += 16, a, s);
	}
	if (tl.left_out) {
		snprintf(s, sizeof(s), "%d label%s left out where marks crowd; --trace lists "
			 "every event", tl.left_out, tl.left_out == 1 ? "" : "s");
		text_at(20, y += 16, a, s);
	}
	if (tl.nr_hidden) {
		snprintf(s, sizeof(s), "… %d more tasks have no lane (at most %d are drawn)",
			 tl.nr_hidden, MAX_LANES);
		text_at(20, y += 16, a, s);
	}
}


void timeline_svg(double bottom)
{
	double y = legend(bottom + 26, false);
	size_t i;
	int pass;

	header(y + 16 * (tl.truncated + !!tl.left_out + !!tl.nr_hidden) + 16);
	timeline_draw_axis(bottom);
	for (i = 0; i < tl.nr_lanes; i++) {
		if (tl.lrow[i] >= 0)
			draw_lane(i);
	}
	for (pass = 0; pass < 2; pass++) {	/* handler boxes under the marks */
		for (i = 0; i < tl.nr_marks; i++) {
			if (mark_shown(&tl.marks[i]) && (tl.marks[i].kind == MK_HANDLER) == !pass)
				draw_mark(&tl.marks[i]);
		}
	}
	for (i = 0; i < tl.nr_marks; i++) {
		if (mark_shown(&tl.marks[i]))
			draw_label(&tl.marks[i]);
	}
	legend(bottom + 26, true);
	notes(y);
	oputs("</svg>\n");
}
