/* harness/umk-trace/timeline.h: what timeline.c (recording the run, laying
 * it out), axis.c (the time axis) and svg.c (writing the picture) share for
 * `umk-trace timeline`. Lengths are px of the SVG. */
#ifndef UMK_TRACE_TIMELINE_H
#define UMK_TRACE_TIMELINE_H

#include "umk-trace.h"

#define WIDTH		1200
#define PLOT_X0		190.0		/* left of it: the lane names */
#define PLOT_X1		1170.0
#define AXIS_Y		96.0
#define ROW_H		15		/* a label row */
#define BAR_H		20		/* a lane's state bar */
#define CHAR_W		6.7		/* an 11px monospace character */
#define MAX_ROWS	8		/* label rows over one lane */
#define ROW_BAR		MAX_ROWS	/* a label beside the bar, after the lane's end */
#define MAX_LANES	256
#define MAX_BANDS	8
#define MAX_MARKS	50000
#define MAX_SPANS	100000
#define CROWDED		12.0		/* px: marks closer than this at one scale */
#define INSTANT_FILL	"#e8eaf6"	/* an instant's band */
#define INSTANT_STROKE	"#9fa8da"
#define SEQ_BEFORE	0		/* timeline_x: before a time's events */
#define SEQ_AFTER	(~0ULL)		/* timeline_x: after them */

enum mark_kind { MK_SIGNAL, MK_HANDLER, MK_RESTART, MK_FAULT, MK_EXIT };

/* Times are ns since boot; a seq is an event's place in trace order
 * (its line in the trace), which orders events that share a
 * time: under --clock=virtual, most do. */

/* Something that happened at one time to one task, drawn with a label. */
struct mark {
	u64 ts, seq;
	u64 end, end_seq;	/* a handler's sigreturn; end_seq 0 until then */
	int lane;		/* lanes.c index of the task; a signal's target */
	int from;		/* a signal's sender's lane; -1: the kernel */
	int depth;		/* a handler: the frames it interrupted */
	int next_open;		/* a handler still open: the next older open one */
	int sig;		/* a signal's, a handler's */
	u64 frame;		/* a handler: its frame's user address */
	bool altstack;		/* a handler: its frame is on the altstack */
	enum mark_kind kind;
	bool faint;		/* a signal its target ignored */
	bool unfinished;	/* a handler frame that ended without sigreturn */
	char text[88];		/* the label, UTF-8 */
	u64 at, at_seq;		/* layout: where it is drawn (an exit: its lane's end) */
	double x, lx;		/* layout: the mark, its label's left edge */
	int row;		/* layout: label row, ROW_BAR, or -1 left out */
};

/* A lane's state from start to end (harness/umk-trace/lanes.c). */
struct span {
	u64 start, start_seq, end, end_seq;
	int lane;
	enum lane_state state;
	long syscall;
};

/* A stretch of time drawn magnified, where marks crowd. */
struct band {
	u64 t0, t1;
	int n;			/* marks in it, those at one time counted once */
	double w;		/* its width */
};

/* One time at which things are drawn for several events (an instant):
 * drawn as a band of one step per event, in trace order. */
struct instant {
	u64 t;
	const u64 *seq;		/* its events, ascending */
	int n;
	double before;		/* the width of the instants before it */
};

/* The run, recorded and then laid out by timeline.c. */
struct timeline {
	struct mark *marks;		/* in time order */
	struct span *spans;
	size_t nr_marks, nr_spans;
	bool truncated;			/* a record was over MAX_MARKS or MAX_SPANS */
	u64 truncated_at;
	u64 end;			/* ns: the right end of the axis, at least 1 */
	u64 ran;			/* ns: the run's length, 0 if no time passed */
	struct band bands[MAX_BANDS];	/* in time order */
	int nr_bands;
	double scale;			/* px per ns outside the bands */
	struct instant *instants;	/* in time order */
	int nr_instants;
	double step;			/* px an event takes in an instant */
	double instants_w;		/* all instants' width */
	size_t nr_lanes;
	int *lrow;			/* lanes.c index -> display row, or -1 */
	double *bar_y;			/* display row -> the top of its bar */
	int *nrows;			/* display row -> its label rows */
	int nr_shown, nr_hidden;	/* lanes drawn; lanes over MAX_LANES */
	int left_out;			/* labels that found no row */
};

extern struct timeline tl;

static inline bool mark_shown(const struct mark *m)
{
	return tl.lrow[m->lane] >= 0;
}

/* timeline.c */
int timeline_label_lane(const struct mark *m);	/* the display row of m's label */

/* timeline_axis.c */
void timeline_lay_axis(void);			/* instants, bands, scale */
double timeline_x(u64 t, u64 seq);		/* the x of event seq at time t */
const struct instant *timeline_instant(u64 t);	/* the instant at t, or NULL */
int timeline_instant_place(const struct instant *in, u64 seq);	/* seq's index in it */
void timeline_draw_axis(double bottom);		/* bands and ticks; lanes end at bottom */

/* timeline_svg.c: the writer, escaping text for XML */
void oputs(const char *s);
void oprintf(const char *fmt, ...) __printf(1, 2);
void otext(const char *s);
void text_at(double x, double y, const char *attrs, const char *s);
int timeline_text_cols(const char *s);		/* characters of a label */
void timeline_fmt_ms(char *buf, size_t n, u64 t, u64 step);	/* t in ms, to step ns */
void timeline_fmt_dur(char *buf, size_t n, u64 ns);
void timeline_svg(double bottom);		/* the picture; lanes end at bottom */

#endif
