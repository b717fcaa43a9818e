/*
 * harness/umk-trace/axis.c: the timeline picture's time axis: where an
 * event at a time goes across the plot, and the axis drawn (timeline.h).
 *
 * Marks microseconds apart would share a pixel in a run of seconds, so the
 * axis is piecewise linear: where marks crowd, a shaded band magnifies that
 * stretch (its zoom is written above it) and the rest of the run shares one
 * scale.
 *
 * Events can also share one exact time, which no zoom separates: under
 * --clock=virtual time stands still while tasks run, so a signal, the
 * switch to its target, the handler and its sigreturn all happen at once.
 * Such an instant is drawn as a tinted band of its own that spreads its
 * events out in trace order (their seq), one fixed step each, so the spans
 * between them get widths and a handler its box; inside it widths are
 * order, not time. Only events that something is drawn at count. Instants
 * take at most INSTANTS_SHARE of the plot (all of it when no time passed
 * at all), time the rest.
 *
 * timeline_lay_axis() finds the instants and the bands; timeline_x() maps
 * an event (time, seq) to its x; timeline_draw_axis() draws instants, bands
 * and the ticks in ms.
 */

#include "timeline.h"

#define STEP		16.0	/* px: an event in an instant, at most */
#define INSTANTS_SHARE	0.6	/* of the plot, at most, when time passed */
#define NEAR		30.0	/* px: no tick this close to a band or an instant */
#define TICK_W		6.4	/* px: a character of the axis's 10.5px text */

/* ---- layout: from a time to an x ---- */

/* The x of time t on the axis left when the instants are taken out. */
static double time_x(u64 t)
{
	double x = PLOT_X0;
	u64 at = 0;
	int i;

	for (i = 0; i < tl.nr_bands && t >= tl.bands[i].t0; i++) {
		const struct band *b = &tl.bands[i];

		x += (b->t0 - at) * tl.scale;
		if (t <= b->t1)
			return x + (double)(t - b->t0) * b->w / (b->t1 - b->t0);
		x += b->w;
		at = b->t1;
	}
	return x + (t - at) * tl.scale;
}

/* The first instant at or after t, or tl.nr_instants. */
static int instant_from(u64 t)
{
	int lo = 0, hi = tl.nr_instants, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (tl.instants[mid].t < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct instant *timeline_instant(u64 t)
{
	int i = instant_from(t);

	return i < tl.nr_instants && tl.instants[i].t == t ? &tl.instants[i] : NULL;
}

int timeline_instant_place(const struct instant *in, u64 seq)
{
	int lo = 0, hi = in->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (in->seq[mid] < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The instants before t push it right by their width. In the instant at t,
 * event seq is in the middle of its step, and a seq between two of its
 * events on the line between their steps: SEQ_BEFORE is the instant's left
 * edge, SEQ_AFTER its right. */
double timeline_x(u64 t, u64 seq)
{
	int i = instant_from(t), k;
	const struct instant *in;

	if (i == tl.nr_instants)
		return time_x(t) + tl.instants_w;
	in = &tl.instants[i];
	if (in->t != t)
		return time_x(t) + in->before;
	k = timeline_instant_place(in, seq);
	return time_x(t) + in->before +
	       (k + (k < in->n && in->seq[k] == seq ? 0.5 : 0)) * tl.step;
}

/* ---- layout: instants ---- */

/* A place something is drawn at: an event (seq) at its time. */
struct point {
	u64 seq, ts;
};

static bool point_before(const struct point *a, const struct point *b)
{
	return a->seq != b->seq ? a->seq < b->seq : a->ts < b->ts;
}

static void sift_down(struct point *p, size_t root, size_t n)
{
	struct point top = p[root];
	size_t child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && point_before(&p[child], &p[child + 1]))
			child++;
		if (!point_before(&top, &p[child]))
			break;
		p[root] = p[child];
		root = child;
	}
	p[root] = top;
}

/* Heapsort into trace order: up to 300000 points want no quadratic sort,
 * and a sort of its own orders equal points the same on every libc. */
static void sort_points(struct point *p, size_t n)
{
	struct point t;
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift_down(p, i, n);
	for (i = n; i-- > 1;) {
		t = p[0];
		p[0] = p[i];
		p[i] = t;
		sift_down(p, 0, i);
	}
}

/* Where the shown marks and spans are drawn: returns how many points. An
 * open handler's end (SEQ_AFTER) is the end of the run, not an event. */
static size_t collect_points(struct point *p)
{
	size_t i, n = 0;

	for (i = 0; i < tl.nr_marks; i++) {
		const struct mark *m = &tl.marks[i];

		if (!mark_shown(m))
			continue;
		p[n++] = (struct point){ m->at_seq, m->at };
		if (m->kind == MK_HANDLER && m->end_seq != SEQ_AFTER)
			p[n++] = (struct point){ m->end_seq, m->end };
	}
	for (i = 0; i < tl.nr_spans; i++) {
		const struct span *s = &tl.spans[i];

		if (tl.lrow[s->lane] < 0)
			continue;
		p[n++] = (struct point){ s->start_seq, s->start };
		p[n++] = (struct point){ s->end_seq, s->end };
	}
	return n;
}

/* A time with points of two events or more is an instant. Time never goes
 * back in trace order, so in trace order an instant's points are together. */
static void find_instants(void)
{
	struct point *p = kmalloc((2 * tl.nr_marks + 2 * tl.nr_spans + 1) * sizeof(*p));
	size_t n = collect_points(p), i, j, k = 0;
	u64 *seq;

	sort_points(p, n);
	for (i = 0; i < n; i++) {	/* one point an event */
		if (!k || point_before(&p[k - 1], &p[i]))
			p[k++] = p[i];
	}
	tl.instants = kmalloc((k / 2 + 1) * sizeof(*tl.instants));
	seq = kmalloc((k + 1) * sizeof(*seq));
	for (i = 0; i < k; i = j) {
		for (j = i + 1; j < k && p[j].ts == p[i].ts; j++)
			;
		if (j - i < 2)
			continue;
		tl.instants[tl.nr_instants++] = (struct instant){ .t = p[i].ts, .seq = seq,
								  .n = j - i };
		while (i < j)
			*seq++ = p[i++].seq;
	}
	kfree(p);
}

/* One step for every event of every instant, as wide as there is room for. */
static void size_instants(void)
{
	double plot = PLOT_X1 - PLOT_X0, w = 0;
	int i, n = 0;

	for (i = 0; i < tl.nr_instants; i++)
		n += tl.instants[i].n;
	if (!n)
		return;
	tl.step = tl.ran ? min(STEP, INSTANTS_SHARE * plot / n) : plot / n;
	for (i = 0; i < tl.nr_instants; i++) {
		tl.instants[i].before = w;
		w += tl.instants[i].n * tl.step;
	}
	tl.instants_w = w;
}

/* ---- layout: bands ---- */

static void add_band(struct band c)
{
	u64 pad = (c.t1 - c.t0) / 4 + 5000;
	int i, k = 0;

	c.t0 = c.t0 > pad ? c.t0 - pad : 0;
	c.t1 = min(c.t1 + pad, tl.end);
	if (tl.nr_bands && c.t0 <= tl.bands[tl.nr_bands - 1].t1) {
		tl.bands[tl.nr_bands - 1].t1 = max(tl.bands[tl.nr_bands - 1].t1, c.t1);
		tl.bands[tl.nr_bands - 1].n += c.n;
		return;
	}
	if (tl.nr_bands == MAX_BANDS) {	/* keep the most crowded */
		for (i = 1; i < tl.nr_bands; i++)
			k = tl.bands[i].n < tl.bands[k].n ? i : k;
		if (tl.bands[k].n >= c.n)
			return;
		memmove(&tl.bands[k], &tl.bands[k + 1], (--tl.nr_bands - k) * sizeof(*tl.bands));
	}
	tl.bands[tl.nr_bands++] = c;
}

/* Band widths and the scale outside them, in the plot the instants left;
 * a band that would magnify less than 4 times is not worth its place. */
static void size_bands(void)
{
	double plot = PLOT_X1 - PLOT_X0 - tl.instants_w, bw, fit;
	int i, kept;
	u64 bt;

	for (;;) {
		bw = 0;
		bt = 0;
		for (i = 0; i < tl.nr_bands; i++) {
			tl.bands[i].w = min(max(30.0 * tl.bands[i].n, 100.0), 240.0);
			bw += tl.bands[i].w;
			bt += tl.bands[i].t1 - tl.bands[i].t0;
		}
		if (bt >= tl.end)
			tl.nr_bands = bw = bt = 0;
		fit = bw > 0.55 * plot ? 0.55 * plot / bw : 1;
		tl.scale = (plot - bw * fit) / (tl.end - bt);
		for (i = kept = 0; i < tl.nr_bands; i++) {
			tl.bands[i].w *= fit;
			if (tl.bands[i].w / (tl.bands[i].t1 - tl.bands[i].t0) >= 4 * tl.scale)
				tl.bands[kept++] = tl.bands[i];
		}
		if (kept == tl.nr_bands)
			return;
		tl.nr_bands = kept;	/* and again without them */
	}
}

/* Bands where marks at different times crowd at one scale over the whole
 * run; marks at one time are an instant's, which spreads them out itself. */
static void find_bands(void)
{
	double linear = (PLOT_X1 - PLOT_X0 - tl.instants_w) / tl.end;
	struct band c = { 0 };
	u64 prev = 0;
	size_t i;

	for (i = 0; i < tl.nr_marks; i++) {
		const struct mark *m = &tl.marks[i];
		u64 last = m->ts;

		if (!mark_shown(m))
			continue;
		if (m->kind == MK_HANDLER && (m->end - m->ts) * linear < CROWDED)
			last = m->end;
		if (c.n && (m->ts <= c.t1 || (m->ts - c.t1) * linear < CROWDED)) {
			c.t1 = max(c.t1, last);
			c.n += m->ts != prev;
			prev = m->ts;
			continue;
		}
		if (c.n >= 2)
			add_band(c);
		c = (struct band){ .t0 = m->ts, .t1 = last, .n = 1 };
		prev = m->ts;
	}
	if (c.n >= 2)
		add_band(c);
	size_bands();
}

void timeline_lay_axis(void)
{
	find_instants();
	size_instants();
	find_bands();
}

/* ---- drawing ---- */

/* 1, 2 or 5 times a power of ten, at least ns; at most MAX_STEP, which
 * no trace of umk's needs (its times stay under MAX_TS). */
#define MAX_STEP	1000000000000000000ULL

static u64 nice_step(double ns)
{
	u64 p = 1;

	for (; p < MAX_STEP; p *= 10) {
		if (p >= ns)
			return p;
		if (2 * p >= ns)
			return 2 * p;
		if (5 * p >= ns)
			return 5 * p;
	}
	return MAX_STEP;
}

static void tick(u64 t, u64 step, double bottom)
{
	char ms[32];
	double x = timeline_x(t, SEQ_BEFORE);

	timeline_fmt_ms(ms, sizeof(ms), t, step);
	oprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", x,
		AXIS_Y, x, bottom);
	oprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x,
		AXIS_Y - 4, x, AXIS_Y);
	text_at(x, AXIS_Y - 7, "font-size=\"10.5\" text-anchor=\"middle\" fill=\"#333\"", ms);
}

static bool near(double x, u64 t0, u64 t1)
{
	return x > timeline_x(t0, SEQ_BEFORE) - NEAR && x < timeline_x(t1, SEQ_AFTER) + NEAR;
}

static bool near_instant(double x)
{
	int i;

	for (i = 0; i < tl.nr_instants; i++) {
		if (near(x, tl.instants[i].t, tl.instants[i].t))
			return true;
	}
	return false;
}

static bool near_band(double x)
{
	int i;

	for (i = 0; i < tl.nr_bands; i++) {
		if (near(x, tl.bands[i].t0, tl.bands[i].t1))
			return true;
	}
	return near_instant(x);
}

static bool in_band(u64 t)
{
	int i;

	for (i = 0; i < tl.nr_bands; i++) {
		if (t >= tl.bands[i].t0 && t <= tl.bands[i].t1)
			return true;
	}
	return false;
}

static void draw_band(const struct band *bd, double bottom)
{
	double x0 = timeline_x(bd->t0, SEQ_BEFORE), x1 = timeline_x(bd->t1, SEQ_AFTER);
	double zoom = bd->w / (bd->t1 - bd->t0) / tl.scale;
	char a[32], b[32], title[96];

	timeline_fmt_ms(a, sizeof(a), bd->t0, 1000);
	timeline_fmt_ms(b, sizeof(b), bd->t1, 1000);
	snprintf(title, sizeof(title), "magnified ×%.0f: %s to %s ms", zoom, a, b);
	oprintf("<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#ececec\" stroke=\"#bbb\" stroke-dasharray=\"3 3\"><title>", x0, AXIS_Y - 34,
		x1 - x0, bottom - AXIS_Y + 34);
	otext(title);
	oputs("</title></rect>\n");
	snprintf(title, sizeof(title), "×%.0f", zoom);
	text_at((x0 + x1) / 2, AXIS_Y - 22, "font-size=\"10.5\" text-anchor=\"middle\" "
		"font-weight=\"bold\" fill=\"#555\"", title);
}

/* An instant: a tinted band with a notch on the axis for each of its
 * events. */
static void draw_instant(const struct instant *in, double bottom)
{
	double x0 = timeline_x(in->t, SEQ_BEFORE), x1 = timeline_x(in->t, SEQ_AFTER);
	char ms[32], s[160];
	int k;

	timeline_fmt_ms(ms, sizeof(ms), in->t, 1000);
	oprintf("<rect class=\"instant\" data-t=\"%llu\" data-events=\"%d\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"%s\"><title>",
		(unsigned long long)in->t, in->n, x0, AXIS_Y - 34, x1 - x0, bottom - AXIS_Y + 34,
		INSTANT_FILL, INSTANT_STROKE);
	snprintf(s, sizeof(s), "%s ms, one instant: %d events in trace order, a step each; "
		 "no time passes inside", ms, in->n);
	otext(s);
	oputs("</title></rect>\n");
	for (k = 0; k < in->n && tl.step >= 3; k++) {
		double x = x0 + (k + 0.5) * tl.step;

		oprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#5c6bc0\"/>\n", x, AXIS_Y - 3, x, AXIS_Y);
	}
}

/* What an instant is, above it where there is room (not inside a magnified
 * band, whose zoom is written there), and its time under its middle, or
 * near it: clear of the text before, which ends at *end. */
static void label_instant(const struct instant *in, double *end)
{
	double x0 = timeline_x(in->t, SEQ_BEFORE), x1 = timeline_x(in->t, SEQ_AFTER);
	double mid = (x0 + x1) / 2, w, c;
	char ms[32], s[64];

	snprintf(s, sizeof(s), "one instant, %d events in order", in->n);
	if (timeline_text_cols(s) * TICK_W > x1 - x0)
		snprintf(s, sizeof(s), "one instant, %d events", in->n);
	if (timeline_text_cols(s) * TICK_W > x1 - x0)
		snprintf(s, sizeof(s), "one instant");
	if (!in_band(in->t) && timeline_text_cols(s) * TICK_W <= x1 - x0)
		text_at(mid, AXIS_Y - 22,
			"font-size=\"10.5\" text-anchor=\"middle\" fill=\"#3949ab\"", s);
	timeline_fmt_ms(ms, sizeof(ms), in->t, 1000);
	w = timeline_text_cols(ms) * TICK_W;
	c = max(mid, *end + 6 + w / 2);
	if (c - mid > w / 2)
		return;
	text_at(c, AXIS_Y - 7, "font-size=\"10.5\" text-anchor=\"middle\" font-weight=\"bold\" "
		"fill=\"#3949ab\"", ms);
	*end = c + w / 2;
}

/* Instants and bands, then ticks at one step outside them and finer ones
 * inside bands; none where no time passes (a run of one instant). */
void timeline_draw_axis(double bottom)
{
	double label_end = PLOT_X0 - 12;	/* "time (ms)" ends there */
	u64 step, t;
	int i;

	for (i = 0; i < tl.nr_bands; i++)
		draw_band(&tl.bands[i], bottom);
	for (i = 0; i < tl.nr_instants; i++)
		draw_instant(&tl.instants[i], bottom);
	for (i = 0; i < tl.nr_instants; i++)
		label_instant(&tl.instants[i], &label_end);
	for (i = 0; i < tl.nr_bands; i++) {
		const struct band *bd = &tl.bands[i];
		u64 bstep = nice_step(58 * (bd->t1 - bd->t0) / bd->w);

		for (t = (bd->t0 + bstep - 1) / bstep * bstep; t <= bd->t1; t += bstep) {
			if (!near_instant(timeline_x(t, SEQ_BEFORE)))
				tick(t, bstep, bottom);
		}
	}
	for (t = 0, step = tl.scale > 0 ? nice_step(75 / tl.scale) : 0; step && t <= tl.end;
	     t += step) {
		if (!near_band(timeline_x(t, SEQ_BEFORE)))
			tick(t, step, bottom);
	}
	oprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		PLOT_X0, AXIS_Y, PLOT_X1, AXIS_Y);
	if (tl.truncated)
		oprintf("<line class=\"truncated\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#d50000\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n", PLOT_X1,
			AXIS_Y - 30, PLOT_X1, bottom);
	text_at(PLOT_X0 - 12, AXIS_Y - 7, "font-size=\"11\" text-anchor=\"end\" fill=\"#333\"",
		"time (ms)");
}
