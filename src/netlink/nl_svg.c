// SPDX-License-Identifier: MIT
/*
 * A netlink message drawn as an SVG byte grid: 16 bytes a row, each byte's hex value in a cell
 * coloured by what it belongs to (nlmsghdr, genlmsghdr, attribute header, payload, padding),
 * the attribute an extended ACK points at outlined in red.  Top-level attributes are walked
 * with the kernel's framing rules; bytes after the last whole attribute are "leftover".
 */
#include <math.h>
#include <stdio.h>

#include <kfsim/svg_plot.h>
#include "nl_internal.h"

enum region { R_NLMSG, R_GENL, R_ATTR_HDR, R_PAYLOAD, R_PAD, R_LEFTOVER, NR_REGIONS };

static const char *const fill[NR_REGIONS] = {
	"#9ecae1", "#a1d99b", "#d9d9d9", "#fff7bc", "#f0f0f0", "#fc9272",
};
static const char *const label[NR_REGIONS] = {
	"struct nlmsghdr", "struct genlmsghdr", "struct nlattr (len, type)",
	"payload",	   "padding",		"leftover bytes",
};

#define CELL_W 30
#define CELL_H 22
#define MARGIN 50
#define PAD 10
#define FONT 12
#define TITLE_FONT 14
#define LEGEND_ROW 18

/*
 * The canvas: the byte grid, and wide enough for the title and every legend line as measured
 * (the legend is one line per region, then the note on the outlined attribute).
 */
static int svg_width(const char *title, const char *note)
{
	double w = MARGIN + 16 * CELL_W + 2 * PAD;

	w = fmax(w, PAD + kfsim_svg_text_width(title, TITLE_FONT, KFSIM_SVG_SANS) + PAD);
	for (int r = 0; r < NR_REGIONS; r++)
		w = fmax(w, MARGIN + 20 + kfsim_svg_text_width(label[r], FONT, KFSIM_SVG_SANS) + PAD);
	if (note)
		w = fmax(w, MARGIN + 20 + kfsim_svg_text_width(note, FONT, KFSIM_SVG_SANS) + PAD);
	return (int)ceil(w);
}

int kfsim_nl_svg_message(FILE *out, const void *buf, size_t len, long bad_offs, const char *title)
{
	const u8 *p = buf;
	u8 *region;
	size_t rows = (len + 15) / 16, off;
	int width, height;
	long bad_end = -1;
	char note[96];

	if (!buf || len < NLMSG_HDRLEN + GENL_HDRLEN || len > 4096)
		return -EINVAL;
	region = kmalloc(len, GFP_KERNEL);
	if (!region)
		return -ENOMEM;
	for (off = 0; off < len; off++)
		region[off] = off < NLMSG_HDRLEN		 ? R_NLMSG
			      : off < NLMSG_HDRLEN + GENL_HDRLEN ? R_GENL
								 : R_LEFTOVER;
	off = NLMSG_HDRLEN + GENL_HDRLEN;
	while (len - off >= NLA_HDRLEN) {
		const struct nlattr *nla = (const struct nlattr *)(p + off);
		size_t alen = nla->nla_len, total = NLA_ALIGN(alen);

		if (alen < NLA_HDRLEN || alen > len - off)
			break;
		for (size_t i = 0; i < total && off + i < len; i++)
			region[off + i] = i < NLA_HDRLEN ? R_ATTR_HDR
					  : i < alen	 ? R_PAYLOAD
							 : R_PAD;
		if (bad_offs >= (long)off && bad_offs < (long)(off + alen))
			bad_end = off + alen; /* the bad attribute may be inside this one */
		off += total;
	}
	if (bad_offs >= 0 && (size_t)bad_offs + NLA_HDRLEN <= len)
		bad_end = bad_offs + ((const struct nlattr *)(p + bad_offs))->nla_len;
	if (bad_end > (long)len)
		bad_end = len;

	title = title ? title : "netlink message";
	snprintf(note, sizeof(note), "red outline: the attribute at NLMSGERR_ATTR_OFFS = %ld",
		 bad_offs);
	width = svg_width(title, bad_offs >= 0 ? note : NULL);
	height = 40 + (int)rows * CELL_H + 20 + (NR_REGIONS + (bad_offs >= 0)) * LEGEND_ROW + PAD;
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n",
		width, height, width, height);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(out, "<text x=\"10\" y=\"22\" font-size=\"14\" font-family=\"sans-serif\">");
	kfsim_svg_write_escaped(out, title);
	fprintf(out, "</text>\n");
	for (off = 0; off < len; off++) {
		int x = MARGIN + (off % 16) * CELL_W, y = 40 + (off / 16) * CELL_H;
		bool bad = bad_offs >= 0 && (long)off >= bad_offs && (long)off < bad_end;

		if (off % 16 == 0)
			fprintf(out, "<text x=\"8\" y=\"%d\" fill=\"#666\">%04zx</text>\n", y + 15,
				off);
		fprintf(out,
			"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
			"stroke=\"%s\" stroke-width=\"%d\"/>"
			"<text x=\"%d\" y=\"%d\">%02x</text>\n",
			x, y, CELL_W, CELL_H, fill[region[off]], bad ? "#cb181d" : "#bbb",
			bad ? 2 : 1, x + 7, y + 15, p[off]);
	}
	for (int r = 0; r < NR_REGIONS; r++) {
		int y = 40 + (int)rows * CELL_H + 20 + r * LEGEND_ROW;

		fprintf(out,
			"<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\" "
			"stroke=\"#bbb\"/><text x=\"%d\" y=\"%d\" "
			"font-family=\"sans-serif\">%s</text>\n",
			MARGIN, y, fill[r], MARGIN + 20, y + 12, label[r]);
	}
	if (bad_offs >= 0) {
		int y = 40 + (int)rows * CELL_H + 20 + NR_REGIONS * LEGEND_ROW;

		fprintf(out,
			"<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"none\" "
			"stroke=\"#cb181d\" stroke-width=\"2\"/><text x=\"%d\" y=\"%d\" "
			"fill=\"#cb181d\" font-family=\"sans-serif\">%s</text>\n",
			MARGIN, y, MARGIN + 20, y + 12, note);
	}
	fprintf(out, "</svg>\n");
	kfree(region);
	return 0;
}
