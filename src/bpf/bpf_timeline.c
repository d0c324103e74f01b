// SPDX-License-Identifier: MIT
/*
 * The reference history of one program run, and its pictures: an SVG timeline (one row per
 * object, owning spans solid, non-owning spans hatched, critical sections shaded, calls on the x
 * axis) and the same as Perfetto trace events.
 *
 * Invariant: events are appended in call order by the thread that runs the program; the drawing
 * code only reads a finished timeline.
 */
#include <math.h>
#include <string.h>

#include <kfsim/trace_event.h>
#include <kfsim/svg_plot.h>
#include "bpf_internal.h"

#define TL_MAX_OBJS 32

void bpf_tl_record(enum kfsim_bpf_tl_what what, const void *obj, const char *type)
{
	struct bpf_tstate *ts = &bpf_tstate;
	struct kfsim_bpf_timeline *tl = ts->run->opts.timeline;

	if (tl->nr >= KFSIM_BPF_TL_MAX) {
		tl->dropped++;
		return;
	}
	tl->ev[tl->nr].call = ts->nr_calls;
	tl->ev[tl->nr].what = what;
	tl->ev[tl->nr].kfunc = ts->kfunc;
	tl->ev[tl->nr].obj = obj;
	tl->ev[tl->nr].type = type;
	tl->nr++;
}

/* The objects of @tl in order of appearance. */
static int tl_objects(const struct kfsim_bpf_timeline *tl, const void **objs, const char **types)
{
	int nr = 0;

	for (int i = 0; i < tl->nr; i++) {
		const void *o = tl->ev[i].obj;
		int j;

		if (!o || tl->ev[i].what == KFSIM_BPF_TL_LOCK ||
		    tl->ev[i].what == KFSIM_BPF_TL_UNLOCK)
			continue;
		for (j = 0; j < nr && objs[j] != o; j++)
			;
		if (j == nr && nr < TL_MAX_OBJS) {
			objs[nr] = o;
			types[nr++] = tl->ev[i].type;
		}
	}
	return nr;
}

static u32 tl_last_call(const struct kfsim_bpf_timeline *tl)
{
	return tl->nr ? tl->ev[tl->nr - 1].call + 1 : 1;
}

/* Call @span(kind, from, to) for each owning (1) / non-owning (2) span of @obj. */
static void tl_spans(const struct kfsim_bpf_timeline *tl, const void *obj,
		     void (*span)(void *arg, int kind, u32 from, u32 to), void *arg)
{
	u32 owning_from = 0, non_owning_from = 0;
	bool owning = false, non_owning = false;

	for (int i = 0; i < tl->nr; i++) {
		if (tl->ev[i].obj != obj)
			continue;
		switch (tl->ev[i].what) {
		case KFSIM_BPF_TL_OWNING:
			owning = true;
			owning_from = tl->ev[i].call;
			break;
		case KFSIM_BPF_TL_RELEASED:
			if (owning)
				span(arg, 1, owning_from, tl->ev[i].call);
			owning = false;
			break;
		case KFSIM_BPF_TL_NON_OWNING:
			if (!non_owning)
				non_owning_from = tl->ev[i].call;
			non_owning = true;
			break;
		case KFSIM_BPF_TL_INVALIDATED:
			if (non_owning)
				span(arg, 2, non_owning_from, tl->ev[i].call);
			non_owning = false;
			break;
		default:
			break;
		}
	}
	if (owning)
		span(arg, 1, owning_from, tl_last_call(tl));
	if (non_owning)
		span(arg, 2, non_owning_from, tl_last_call(tl));
}

struct svg_ctx {
	FILE *out;
	double y;
	double left;
};

#define COL_W 30.0
#define ROW_H 26.0
#define MIN_LEFT 150.0
#define TOP 50.0
#define PAD 10.0
#define FONT 12.0
#define TITLE_FONT 15.0
#define LEGEND "owning reference: solid; non-owning: hatched; grey: bpf_spin_lock held; " \
	       "red: rule broken"

static double col_x(const struct svg_ctx *c, u32 call)
{
	return c->left + (call - 0.5) * COL_W;
}

static void svg_span(void *arg, int kind, u32 from, u32 to)
{
	struct svg_ctx *c = arg;
	double x = col_x(c, from), w = (to - from) * COL_W;

	if (w < COL_W / 2)
		w = COL_W / 2;
	fprintf(c->out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' %s/>\n", x,
		c->y + (kind == 1 ? 3 : 8), w, kind == 1 ? ROW_H - 6 : ROW_H - 16,
		kind == 1 ? "fill='#3b6fb6'" : "fill='url(#kfsim-bpf-hatch)' stroke='#d08a10'");
}

static void row_label(char *buf, size_t size, const char *type, int k)
{
	snprintf(buf, size, "%s #%d", type ? type : "object", k + 1);
}

static void call_label(char *buf, size_t size, u32 call, const char *kfunc)
{
	snprintf(buf, size, "%u %s", call, kfunc);
}

/*
 * The canvas holds every label, measured: the object names left of the rows, the title and the
 * legend line, and the call labels below the axis, rotated 60 degrees clockwise (a label of
 * width w reaches w/2 to the right and w*sin(60) down, plus its glyph height across).
 */
static void svg_size(const struct kfsim_bpf_timeline *tl, const char *title, const char **types,
		     int nr_objs, double *left, double *width, double *height)
{
	double right, below = 0, w;
	char label[160];

	*left = MIN_LEFT;
	for (int k = 0; k < nr_objs; k++) {
		row_label(label, sizeof(label), types[k], k);
		*left = fmax(*left, PAD + kfsim_svg_text_width(label, FONT, KFSIM_SVG_SANS) + PAD);
	}
	right = *left + tl_last_call(tl) * COL_W + 2 * PAD;
	right = fmax(right, PAD + kfsim_svg_text_width(title, TITLE_FONT, KFSIM_SVG_SANS) + PAD);
	right = fmax(right, PAD + kfsim_svg_text_width(LEGEND, FONT, KFSIM_SVG_SANS) + PAD);
	for (int i = 0; i < tl->nr; i++) {
		if (tl->ev[i].what != KFSIM_BPF_TL_CALL || !tl->ev[i].kfunc)
			continue;
		call_label(label, sizeof(label), tl->ev[i].call, tl->ev[i].kfunc);
		w = kfsim_svg_text_width(label, FONT, KFSIM_SVG_SANS);
		right = fmax(right, *left + (tl->ev[i].call - 0.5) * COL_W + COL_W / 2 - 3 +
					    w * 0.5 + FONT * 0.87 + PAD);
		below = fmax(below, w * 0.87 + FONT * 0.5);
	}
	*width = ceil(right);
	*height = ceil(TOP + nr_objs * ROW_H + 10 + below + PAD);
}

int kfsim_bpf_timeline_svg(const struct kfsim_bpf_timeline *tl, const char *title, FILE *out)
{
	const void *objs[TL_MAX_OBJS];
	const char *types[TL_MAX_OBJS];
	int nr_objs, lock_from = -1;
	double width, height, axis_y;
	struct svg_ctx c = {out, 0, MIN_LEFT};
	char label[160];

	if (!tl || !out)
		return -EINVAL;
	title = title ? title : "BPF program run";
	nr_objs = tl_objects(tl, objs, types);
	svg_size(tl, title, types, nr_objs, &c.left, &width, &height);
	axis_y = TOP + nr_objs * ROW_H + 10;
	fprintf(out,
		"<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
		"viewBox='0 0 %.0f %.0f' font-family='sans-serif' font-size='12'>\n",
		width, height, width, height);
	fprintf(out, "<defs><pattern id='kfsim-bpf-hatch' width='6' height='6' "
		     "patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>"
		     "<rect width='6' height='6' fill='#fbe3b5'/>"
		     "<line x1='0' y1='0' x2='0' y2='6' stroke='#d08a10' stroke-width='2'/>"
		     "</pattern></defs>\n");
	fprintf(out, "<rect width='100%%' height='100%%' fill='white'/>\n");
	fprintf(out, "<text x='10' y='20' font-size='15' font-weight='bold'>");
	kfsim_svg_write_escaped(out, title);
	fprintf(out, "</text>\n<text x='10' y='38' fill='#555'>" LEGEND "</text>\n");
	/* critical sections */
	for (int i = 0; i < tl->nr; i++) {
		if (tl->ev[i].what == KFSIM_BPF_TL_LOCK)
			lock_from = (int)tl->ev[i].call;
		if (tl->ev[i].what == KFSIM_BPF_TL_UNLOCK && lock_from >= 0) {
			fprintf(out,
				"<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' "
				"fill='#e6e6e6'/>\n",
				col_x(&c, (u32)lock_from), TOP - 4,
				(tl->ev[i].call - (u32)lock_from + 1) * COL_W, nr_objs * ROW_H + 8);
			lock_from = -1;
		}
	}
	for (int k = 0; k < nr_objs; k++) {
		c.y = TOP + k * ROW_H;
		row_label(label, sizeof(label), types[k], k);
		fprintf(out, "<text x='10' y='%.1f'>", c.y + ROW_H / 2 + 4);
		kfsim_svg_write_escaped(out, label);
		fprintf(out, "</text>\n<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ccc'/>\n",
			c.left, c.y + ROW_H, c.left + tl_last_call(tl) * COL_W, c.y + ROW_H);
		tl_spans(tl, objs[k], svg_span, &c);
	}
	/* the calls, and the broken rules */
	for (int i = 0; i < tl->nr; i++) {
		double x = col_x(&c, tl->ev[i].call) + COL_W / 2;

		if (tl->ev[i].what == KFSIM_BPF_TL_VIOLATION)
			fprintf(out, "<circle cx='%.1f' cy='%.1f' r='6' fill='#d33'/>\n", x,
				TOP - 12);
		if (tl->ev[i].what != KFSIM_BPF_TL_CALL || !tl->ev[i].kfunc)
			continue;
		call_label(label, sizeof(label), tl->ev[i].call, tl->ev[i].kfunc);
		fprintf(out, "<text transform='translate(%.1f,%.1f) rotate(60)' fill='#333'>",
			x - 3, axis_y);
		kfsim_svg_write_escaped(out, label);
		fprintf(out, "</text>\n");
	}
	fprintf(out, "</svg>\n");
	return ferror(out) ? -EIO : 0;
}

struct trace_ctx {
	struct kfsim_trace *trace;
	int pid, tid;
};

static void trace_span(void *arg, int kind, u32 from, u32 to)
{
	struct trace_ctx *c = arg;

	kfsim_trace_complete(c->trace, c->pid, c->tid, kind == 1 ? "owning" : "non-owning", "bpf",
			     from, to > from ? to - from : 0.5, NULL);
}

void kfsim_bpf_timeline_trace(const struct kfsim_bpf_timeline *tl, struct kfsim_trace *trace,
			      int pid)
{
	const void *objs[TL_MAX_OBJS];
	const char *types[TL_MAX_OBJS];
	struct trace_ctx c = {trace, pid, 0};
	int nr_objs, lock_from = -1;
	char name[64];

	if (!tl || !trace)
		return;
	nr_objs = tl_objects(tl, objs, types);
	kfsim_trace_name_process(trace, pid, "BPF program run");
	kfsim_trace_name_thread(trace, pid, 1, "kfunc calls");
	kfsim_trace_name_thread(trace, pid, 2, "bpf_spin_lock");
	for (int i = 0; i < tl->nr; i++) {
		if (tl->ev[i].what == KFSIM_BPF_TL_CALL && tl->ev[i].kfunc)
			kfsim_trace_complete(trace, pid, 1, tl->ev[i].kfunc, "call", tl->ev[i].call,
					     0.9, NULL);
		if (tl->ev[i].what == KFSIM_BPF_TL_VIOLATION)
			kfsim_trace_instant(trace, pid, 1, "rule broken", "violation",
					    tl->ev[i].call);
		if (tl->ev[i].what == KFSIM_BPF_TL_LOCK)
			lock_from = (int)tl->ev[i].call;
		if (tl->ev[i].what == KFSIM_BPF_TL_UNLOCK && lock_from >= 0) {
			kfsim_trace_complete(trace, pid, 2, "held", "lock", lock_from,
					     tl->ev[i].call - (u32)lock_from + 1, NULL);
			lock_from = -1;
		}
	}
	for (int k = 0; k < nr_objs; k++) {
		c.tid = 10 + k;
		snprintf(name, sizeof(name), "%s #%d", types[k] ? types[k] : "object", k + 1);
		kfsim_trace_name_thread(trace, pid, c.tid, name);
		tl_spans(tl, objs[k], trace_span, &c);
	}
}
