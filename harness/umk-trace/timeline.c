/*
 * harness/umk-trace/timeline.c: `umk-trace timeline`, a picture of a run
 * (SVG): recording the run and laying it out; svg.c writes the picture.
 *
 * The picture has one lane per task, named "pid comm", with time running
 * left to right: the task's states as coloured spans (running, runnable,
 * sleeping, stopped: lanes.c), signals as arrows from the sender's lane to
 * the target's, each signal handler as a box over its lane from the
 * delivery to its sigreturn (a nested handler's box inside the one it
 * interrupted), restart decisions, faults and exits as labelled marks, a
 * time axis in ms and a legend. It is meant to be pasted into a bug report
 * and read without the docs.
 *
 * Where marks crowd, the time axis magnifies; where events share one time
 * (--clock=virtual), it spreads them out in trace order (axis.c). Labels
 * go first-fit into rows above their lane's bar, so they never overlap;
 * one that finds no row is left out and counted in a note.
 *
 * The idle task (pid 0) has no lane: the CPU is idle wherever no lane is
 * running. Signals the kernel sends on its own (a timer's, the host's ^C
 * passed on) come down from the time axis.
 *
 * A handler's frame address and whether it is on the altstack (the
 * deliver event's frame and altstack) tell a nested handler from one that
 * a siglongjmp left.
 *
 * Interface (umk-trace.h): timeline_event gets every event and
 * timeline_span every closed lane span, in trace order; timeline_write
 * lays the run out and has it drawn, at the end of the input. Records grow
 * up to MAX_MARKS and MAX_SPANS; past that the picture stops, with a red
 * line and a note.
 */
#include "timeline.h"

#define SIGCONT 18

struct timeline tl;
static size_t marks_cap, spans_cap;
static int open_frames = -1;	/* the newest handler frame with no sigreturn yet */
static const char *kernel_sender; /* who sends the signals traced next */
static bool continued;		/* a SIGCONT just continued a stopped task */
static bool after_fault;	/* the signal a fault sends follows it */
static u64 truncated_seq;	/* the event at tl.truncated_at */

/* ---- recording ---- */

static void truncate_at(u64 ts)
{
	tl.truncated = true;
	tl.truncated_at = ts;
	truncated_seq = trace_seq;
}

static int lane_no(pid_t pid)
{
	struct lane *l = pid > 0 ? lane_find(pid) : NULL;

	return l ? (int)(l - lane_at(0)) : -1;
}

static struct mark *new_mark(enum mark_kind kind, u64 ts, int lane)
{
	struct mark *m;

	if (lane < 0)
		return NULL;
	if (tl.nr_marks == MAX_MARKS) {
		truncate_at(ts);
		return NULL;
	}
	tl.marks = kgrow(tl.marks, tl.nr_marks, &marks_cap, sizeof(*tl.marks));
	m = &tl.marks[tl.nr_marks++];
	*m = (struct mark){ .ts = ts, .seq = trace_seq, .lane = lane, .from = -1,
			    .next_open = -1, .kind = kind };
	return m;
}

/* The trace's ASCII "->" as an arrow. */
static void arrowize(char *dst, size_t n, const char *src)
{
	size_t o = 0;

	for (; *src && o + 4 < n; src++) {
		if (src[0] == '-' && src[1] == '>') {
			memcpy(dst + o, "→", 3);
			o += 3;
			src++;
		} else {
			dst[o++] = *src;
		}
	}
	dst[o] = '\0';
}

/* The link to lane's innermost open handler frame, or to the list's end. */
static int *innermost(int lane)
{
	int *p = &open_frames;

	while (*p >= 0 && tl.marks[*p].lane != lane)
		p = &tl.marks[*p].next_open;
	return p;
}

static void end_frame(int *link, u64 ts, bool sigreturn)
{
	struct mark *m = &tl.marks[*link];

	m->end = ts;
	m->end_seq = trace_seq;
	m->unfinished = !sigreturn;
	*link = m->next_open;
}

/* A handler's frame nests in the open frames below which it was built; one
 * at or above a frame on the same stack means that handler was left without
 * sigreturn (siglongjmp). */
static void open_frame(const struct trace_entry *e)
{
	struct mark *m = new_mark(MK_HANDLER, e->ts, lane_no(e->pid));
	int *p, i;

	if (!m)
		return;
	m->sig = e->f.sig;
	m->frame = e->f.ret;
	m->altstack = e->f.other;
	while (*(p = innermost(m->lane)) >= 0 && tl.marks[*p].altstack == m->altstack &&
	       tl.marks[*p].frame <= m->frame)
		end_frame(p, e->ts, false);
	for (i = open_frames; i >= 0; i = tl.marks[i].next_open)
		m->depth += tl.marks[i].lane == m->lane;
	m->next_open = open_frames;
	open_frames = m - tl.marks;
}

static void end_all_frames(int lane, u64 ts)
{
	int *p;

	while (*(p = innermost(lane)) >= 0)
		end_frame(p, ts, false);
}

static void record_signal(const struct trace_entry *e, const char *what)
{
	const char *name = signal_name(e->f.sig) ?: "?";
	const char *by = kernel_sender ?: e->pid == 0 ? " from the kernel" : "";
	struct mark *m;

	if (!strcmp(what, "host")) {	/* one signal per process follows */
		kernel_sender = " from the host";
		return;
	}
	if (after_fault && e->f.other == e->pid)
		return;			/* the fault's mark says it */
	m = new_mark(MK_SIGNAL, e->ts, lane_no(e->f.other));
	if (!m)
		return;
	if (!*by)
		m->from = lane_no(e->pid);
	m->sig = e->f.sig;
	m->faint = !strcmp(what, "ignored") && !(e->f.sig == SIGCONT && continued);
	snprintf(m->text, sizeof(m->text), "%s%s%s", name, by, m->faint ? " (ignored)" : "");
}

void timeline_event(const struct trace_entry *e)
{
	const char *what = e->f.what ?: "";
	struct mark *m;
	int *p;

	if (tl.truncated)
		return;
	/* A host signal, a timer or a fault may send signals: its own events
	 * come before them, with only wakeups and deliveries in between. */
	if (e->event != TR_SIGNAL && e->event != TR_WAKEUP && e->event != TR_DELIVER) {
		kernel_sender = NULL;
		continued = after_fault = false;
	}
	switch (e->event) {
	case TR_SIGNAL:
		record_signal(e, what);
		break;
	case TR_DELIVER:
		if (!strcmp(what, "handler"))
			open_frame(e);
		else if (!strcmp(what, "continue"))
			continued = true;
		else if ((!strcmp(what, "sigreturn") || !strcmp(what, "badframe")) &&
			 *(p = innermost(lane_no(e->pid))) >= 0)
			end_frame(p, e->ts, true);
		if (strcmp(what, "badframe") && strcmp(what, "noframe"))
			break;
		m = new_mark(MK_FAULT, e->ts, lane_no(e->pid));
		if (m)
			arrowize(m->text, sizeof(m->text), e->msg);
		break;
	case TR_TIMER:
		kernel_sender = " from a timer";
		break;
	case TR_RESTART:
		m = new_mark(MK_RESTART, e->ts, lane_no(e->pid));
		if (m)
			arrowize(m->text, sizeof(m->text), e->msg);
		break;
	case TR_FAULT:
		m = new_mark(MK_FAULT, e->ts, lane_no(e->pid));
		if (m)
			snprintf(m->text, sizeof(m->text), "fault: %s", e->msg);
		after_fault = true;
		break;
	case TR_TASK:
		if (!strcmp(what, "exec") || !strcmp(what, "exit"))
			end_all_frames(lane_no(e->f.other), e->ts);
		if (strcmp(what, "exit"))
			break;
		m = new_mark(MK_EXIT, e->ts, lane_no(e->f.other));
		if (m && (e->f.ret & 0x7f))
			snprintf(m->text, sizeof(m->text), "killed by %s%s",
				 signal_name(e->f.ret & 0x7f) ?: "?", e->f.ret & 0x80 ? " (core)" : "");
		else if (m)
			snprintf(m->text, sizeof(m->text), "exit %lld", (e->f.ret >> 8) & 0xff);
		break;
	default:
		break;
	}
}

/* Past MAX_SPANS, only the span each lane is in at the truncation is still
 * taken (cut there): one per lane at most. */
void timeline_span(const struct lane *l, u64 end)
{
	if (l->pid == 0)
		return;
	if (!tl.truncated && tl.nr_spans >= MAX_SPANS)
		truncate_at(end);
	if (tl.truncated && l->since_seq >= truncated_seq)
		return;
	tl.spans = kgrow(tl.spans, tl.nr_spans, &spans_cap, sizeof(*tl.spans));
	tl.spans[tl.nr_spans++] = (struct span){
		.start = l->since, .start_seq = l->since_seq,
		.end = tl.truncated ? min(end, tl.truncated_at) : end,
		.end_seq = tl.truncated ? min(trace_seq, truncated_seq) : trace_seq,
		.lane = l - lane_at(0), .state = l->state, .syscall = l->syscall };
}

/* ---- layout: lanes and labels ---- */

int timeline_label_lane(const struct mark *m)
{
	int to = tl.lrow[m->lane];

	if (m->kind != MK_SIGNAL || m->from < 0 || tl.lrow[m->from] < 0)
		return to;
	return max(to, tl.lrow[m->from]);	/* the lower lane: the arrow passes its rows */
}

/* First fit, in time order: a label goes in the highest row of its lane
 * where it clears the labels already there; in a crowd, no higher than the
 * label before it, so a crowd's labels read in time order. */
static void place_labels(void)
{
	struct rows {
		double end[MAX_ROWS];
		double last_x;
		int last_row;
	} *rows = kmalloc(tl.nr_shown * sizeof(*rows));
	struct rows *lr;
	size_t i;
	int k;

	for (i = 0; i < (size_t)tl.nr_shown * MAX_ROWS; i++)
		rows[i / MAX_ROWS].end[i % MAX_ROWS] = -1000;
	for (i = 0; i < tl.nr_marks; i++) {
		struct mark *m = &tl.marks[i];
		double w = timeline_text_cols(m->text) * CHAR_W;

		if (!mark_shown(m))
			continue;
		m->x = timeline_x(m->at, m->at_seq);
		m->lx = m->x + 6 + w <= WIDTH - 4 ? m->x + 6 : m->x - 6 - w;
		if (m->kind == MK_EXIT && m->lx > m->x) {
			m->row = ROW_BAR;
			continue;
		}
		lr = &rows[timeline_label_lane(m)];
		k = m->x - lr->last_x < 2 * CROWDED ? lr->last_row : 0;
		while (k < MAX_ROWS && m->lx < lr->end[k] + 10)
			k++;
		m->row = k < MAX_ROWS ? k : -1;
		if (k == MAX_ROWS) {
			tl.left_out++;
			continue;
		}
		lr->end[k] = max(m->lx + w, m->x);
		lr->last_x = m->x;
		lr->last_row = k;
		tl.nrows[lr - rows] = max(tl.nrows[lr - rows], k + 1);
	}
	kfree(rows);
}

/* Where each mark is drawn: where it happened; an exit where its lane ends,
 * after the switch away from it (a few µs later, or later in the instant). */
static void place_marks(void)
{
	const struct span **last = kmalloc((tl.nr_lanes + 1) * sizeof(*last));
	const struct span *s;
	size_t i;

	for (i = 0; i < tl.nr_spans; i++)	/* spans are recorded as they end */
		last[tl.spans[i].lane] = &tl.spans[i];
	for (i = 0; i < tl.nr_marks; i++) {
		struct mark *m = &tl.marks[i];

		m->at = m->ts;
		m->at_seq = m->seq;
		s = last[m->lane];
		if (m->kind == MK_EXIT && s && s->end_seq > m->seq) {
			m->at = s->end;
			m->at_seq = s->end_seq;
		}
	}
	kfree(last);
}

/* Lanes to draw, the time axis, labels, and each lane's height: returns
 * the y below the last lane. */
static double layout(void)
{
	double y = AXIS_Y + 12;
	size_t i;
	int r;

	while (lane_at(tl.nr_lanes))
		tl.nr_lanes++;
	tl.lrow = kmalloc((tl.nr_lanes + 1) * sizeof(*tl.lrow));
	for (i = 0; i < tl.nr_lanes; i++) {
		tl.lrow[i] = -1;
		if (lane_at(i)->pid == 0)
			continue;
		if (tl.nr_shown < MAX_LANES)
			tl.lrow[i] = tl.nr_shown++;
		else
			tl.nr_hidden++;
	}
	tl.bar_y = kmalloc((tl.nr_shown + 1) * sizeof(*tl.bar_y));
	tl.nrows = kmalloc((tl.nr_shown + 1) * sizeof(*tl.nrows));
	place_marks();
	timeline_lay_axis();
	place_labels();
	for (r = 0; r < tl.nr_shown; r++) {
		tl.bar_y[r] = y + max(tl.nrows[r], 1) * ROW_H + 6;
		y = tl.bar_y[r] + BAR_H + 18;
	}
	return y;
}

/* Handler labels need their frame's end; a frame still open ends with the
 * run (without sigreturn) or at the truncation. A handler that returned at
 * the time it was delivered took no time: it is drawn in one instant
 * (harness/umk-trace/axis.c), whose width is order, not time. */
static void finish_handlers(void)
{
	char dur[32];
	size_t i;

	for (i = 0; i < tl.nr_marks; i++) {
		struct mark *m = &tl.marks[i];

		if (m->kind != MK_HANDLER)
			continue;
		if (!m->end_seq) {
			m->end = tl.end;
			m->end_seq = SEQ_AFTER;
			m->unfinished = !tl.truncated;
		}
		timeline_fmt_dur(dur, sizeof(dur), m->end - m->ts);
		if (m->end == m->ts)
			snprintf(dur, sizeof(dur), "0 ns (same instant)");
		snprintf(m->text, sizeof(m->text), "%s handler, %s", signal_name(m->sig) ?: "?",
			 m->unfinished ? "no sigreturn" : dur);
	}
}

void timeline_write(u64 end)
{
	tl.ran = tl.truncated ? tl.truncated_at : end;
	tl.end = max(tl.ran, 1);
	finish_handlers();
	timeline_svg(layout());
}
