/*
 * kernel/timeline_axis.c: the --timeline picture's time axis: where a time
 * goes across the plot, and the axis drawn (kernel/timeline.h).
 *
 * Marks microseconds apart would share a pixel in a run of seconds, so the
 * axis is piecewise linear: where marks crowd, a shaded band magnifies that
 * stretch (its zoom is written above it) and the rest of the run shares one
 * scale. timeline_lay_axis() chooses the bands; timeline_x() maps a time to
 * its x; timeline_draw_axis() draws the bands and the ticks in ms.
 */
#include <umk/arch.h>

#include "timeline.h"

/* ---- layout ---- */

double timeline_x(u64 t)
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

/* Band widths and the scale outside them; a band that would magnify less
 * than 4 times is not worth its place. */
static void size_bands(void)
{
	double plot = PLOT_X1 - PLOT_X0, bw, fit;
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

/* Bands where marks crowd at one scale over the whole run. */
void timeline_lay_axis(void)
{
	double linear = (PLOT_X1 - PLOT_X0) / tl.end;
	struct band c = { 0 };
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
			c.n++;
			continue;
		}
		if (c.n >= 2)
			add_band(c);
		c = (struct band){ .t0 = m->ts, .t1 = last, .n = 1 };
	}
	if (c.n >= 2)
		add_band(c);
	size_bands();
}

/* ---- drawing ---- */

static u64 nice_step(double ns)
{
	u64 p = 1;

	for (;; p *= 10) {
		if (p >= ns)
			return p;
		if (2 * p >= ns)
			return 2 * p;
		if (5 * p >= ns)
			return 5 * p;
	}
}

static void tick(u64 t, u64 step, double bottom)
{
	char ms[32];
	double x = timeline_x(t);

	timeline_fmt_ms(ms, sizeof(ms), t, step);
	oprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", x,
		AXIS_Y, x, bottom);
	oprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x,
		AXIS_Y - 4, x, AXIS_Y);
	text_at(x, AXIS_Y - 7, "font-size=\"10.5\" text-anchor=\"middle\" fill=\"#333\"", ms);
}

static bool near_band(double x)
{
	int i;

	for (i = 0; i < tl.nr_bands; i++) {
		if (x > timeline_x(tl.bands[i].t0) - 30 && x < timeline_x(tl.bands[i].t1) + 30)
			return true;
	}
	return false;
}

static void draw_band(const struct band *bd, double bottom)
{
	double x0 = timeline_x(bd->t0), x1 = timeline_x(bd->t1);
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

/* The bands, then ticks at one step outside them and finer ones inside. */
void timeline_draw_axis(double bottom)
{
	u64 step = nice_step(75 / tl.scale), t;
	int i;

	for (i = 0; i < tl.nr_bands; i++)
		draw_band(&tl.bands[i], bottom);
	for (i = 0; i < tl.nr_bands; i++) {
		const struct band *bd = &tl.bands[i];
		u64 bstep = nice_step(58 * (bd->t1 - bd->t0) / bd->w);

		for (t = (bd->t0 + bstep - 1) / bstep * bstep; t <= bd->t1; t += bstep)
			tick(t, bstep, bottom);
	}
	for (t = 0; t <= tl.end; t += step) {
		if (!near_band(timeline_x(t)))
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
