// SPDX-License-Identifier: MIT
/*
 * The tour's HTML page (see tour_html.h).  Pictures are inlined from the SVG files the steps
 * wrote (everything before their <svg> element, an XML declaration or Graphviz's DOCTYPE, is
 * dropped), so the page needs nothing beside it; their ids (Graphviz numbers its nodes the same
 * way in every file) get a prefix per picture so that they stay unique in the page; traces and
 * other files are linked relative to
 * the page, which sits in the same directory.  Screen and print styles are in the page.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include "tour_html.h"

static const char style[] =
	":root{color-scheme:light}\n"
	"body{font:16px/1.5 system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif;"
	"color:#1b1b1b;max-width:64rem;margin:0 auto;padding:1rem 1.5rem 3rem}\n"
	"h1{font-size:1.75rem;margin:.5rem 0 .25rem}\n"
	"h2{font-size:1.3rem;margin:0 0 .5rem}\n"
	"h3{font-size:1rem;margin:1rem 0 .25rem}\n"
	"section{border-top:1px solid #ccc;margin-top:2rem;padding-top:1rem}\n"
	"nav ol{padding-left:1.5rem}\n"
	"pre{background:#f6f8fa;border:1px solid #e1e4e8;border-radius:4px;padding:.6rem .8rem;"
	"overflow-x:auto;font:13px/1.35 'DejaVu Sans Mono',monospace}\n"
	"figure{margin:1rem 0}\n"
	"figure svg{display:block;max-width:100%;height:auto}\n"
	"figcaption{font-size:.85rem;color:#555}\n"
	"code{font-family:'DejaVu Sans Mono',monospace;font-size:.9em}\n"
	"ul.try code{background:#f6f8fa;padding:.1rem .3rem;overflow-wrap:anywhere}\n"
	".failed{color:#b00020;font-weight:bold}\n"
	".meta{color:#555}\n"
	"@media print{\n"
	"@page{size:A4;margin:14mm}\n"
	"body{max-width:none;padding:0;font-size:10.5pt}\n"
	"nav{display:none}\n"
	"section{break-before:page;border:0;margin:0}\n"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere;overflow:visible;font-size:8pt}\n"
	"figure{break-inside:avoid}\n"
	"a{color:inherit}\n"
	"}\n";

static void html_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t len = strlen(s), n = strlen(suffix);

	return len >= n && !strcmp(s + len - n, suffix);
}

/* The SVG file @name of @dir from its <svg> element on, or NULL when it cannot be read. */
static char *read_svg(const char *dir, const char *name)
{
	char path[PATH_MAX];
	char *text = NULL, *svg, *copy = NULL;
	size_t size = 0;
	FILE *in, *buf;
	char chunk[4096];
	size_t n;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return NULL;
	in = fopen(path, "r");
	if (!in)
		return NULL;
	buf = open_memstream(&text, &size);
	if (!buf) {
		fclose(in);
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		fwrite(chunk, 1, n, buf);
	fclose(in);
	if (fclose(buf))
		return NULL;
	svg = strstr(text, "<svg");
	if (svg)
		copy = strdup(svg);
	free(text);
	return copy;
}

/* @svg with every id, and every reference to one, prefixed with "kfsim-f<@fig>-". */
static void write_svg_scoped(FILE *out, const char *svg, int fig)
{
	static const char *const id_starts[] = {" id=\"", " id='", "url(#", "href=\"#", "href='#"};

	for (const char *p = svg; *p;) {
		size_t i, n = 0;

		for (i = 0; i < ARRAY_SIZE(id_starts); i++) {
			n = strlen(id_starts[i]);
			if (!strncmp(p, id_starts[i], n))
				break;
		}
		if (i == ARRAY_SIZE(id_starts)) {
			fputc(*p++, out);
			continue;
		}
		fwrite(p, 1, n, out);
		fprintf(out, "kfsim-f%d-", fig);
		p += n;
	}
}

static void html_figure(FILE *out, const struct kfsim_tour_report *r, const char *name, int fig)
{
	char *svg = read_svg(r->out_dir, name);

	if (!svg) {
		fprintf(out, "<p>Picture <a href=\"");
		html_escaped(out, name);
		fprintf(out, "\">");
		html_escaped(out, name);
		fprintf(out, "</a> could not be read.</p>\n");
		return;
	}
	fprintf(out, "<figure>\n");
	write_svg_scoped(out, svg, fig);
	fprintf(out, "<figcaption><a href=\"");
	html_escaped(out, name);
	fprintf(out, "\">");
	html_escaped(out, name);
	fprintf(out, "</a></figcaption>\n</figure>\n");
	free(svg);
}

static void html_links(FILE *out, const struct kfsim_tour_result *res, bool traces)
{
	bool any = false;

	for (int f = 0; f < res->nr_files; f++) {
		const char *name = res->files[f];

		if (ends_with(name, ".svg") || ends_with(name, ".json") != traces)
			continue;
		if (!any)
			fprintf(out, traces ? "<h3>Perfetto traces</h3>\n<p>Open "
					      "<a href=\"https://ui.perfetto.dev\">ui.perfetto.dev"
					      "</a> and drop the file on it (or chrome://tracing)."
					      "</p>\n<ul>\n"
					    : "<h3>Other files</h3>\n<ul>\n");
		any = true;
		fprintf(out, "<li><a href=\"");
		html_escaped(out, name);
		fprintf(out, "\"><code>");
		html_escaped(out, name);
		fprintf(out, "</code></a></li>\n");
	}
	if (any)
		fprintf(out, "</ul>\n");
}

static void html_doc_link(FILE *out, const char *doc)
{
	char path[PATH_MAX];

	if (!doc)
		return;
	fprintf(out, "<p>Teaching page: ");
	snprintf(path, sizeof(path), "%s/%s", KFSIM_DOCS_DIR, doc);
	if (!access(path, R_OK)) {
		fprintf(out, "<a href=\"file://");
		html_escaped(out, path);
		fprintf(out, "\">docs/");
		html_escaped(out, doc);
		fprintf(out, "</a>");
	} else {
		fprintf(out, "<code>docs/");
		html_escaped(out, doc);
		fprintf(out, "</code> in the kfsim sources");
	}
	fprintf(out, "</p>\n");
}

static void html_step(FILE *out, const struct kfsim_tour_report *r, size_t i, int *fig)
{
	const struct kfsim_tour_result *res = &r->steps[i];
	const struct kfsim_tour_step *step = res->step;

	fprintf(out, "<section id=\"%s\">\n<h2>%zu. ", step->name, i + 1);
	html_escaped(out, step->title);
	fprintf(out, "</h2>\n");
	if (res->err)
		fprintf(out, "<p class=\"failed\">This step failed: -%s</p>\n",
			kfsim_errname(res->err));
	fprintf(out, "<pre>");
	html_escaped(out, res->narrative ? res->narrative : "");
	fprintf(out, "</pre>\n");
	for (int f = 0; f < res->nr_files; f++)
		if (ends_with(res->files[f], ".svg"))
			html_figure(out, r, res->files[f], (*fig)++);
	html_links(out, res, true);
	html_links(out, res, false);
	if (step->try_cmds && step->try_cmds[0]) {
		fprintf(out, "<h3>Try</h3>\n<ul class=\"try\">\n");
		for (const char *const *cmd = step->try_cmds; *cmd; cmd++) {
			fprintf(out, "<li><code>");
			html_escaped(out, *cmd);
			fprintf(out, "</code></li>\n");
		}
		if (r->playground && step->playground)
			fprintf(out, "<li><a href=\"playground.html#%s\">play with it</a>: this "
				     "part's panel of the playground, kfsim itself in the browser</li>\n",
				step->playground);
		fprintf(out, "</ul>\n");
	}
	html_doc_link(out, step->doc);
	fprintf(out, "</section>\n");
}

int kfsim_tour_html(FILE *out, const void *arg)
{
	const struct kfsim_tour_report *r = arg;
	int fig = 1;

	fprintf(out,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>kfsim tour: Linux %s</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		r->kver, style);
	fprintf(out,
		"<h1>kfsim tour</h1>\n<p class=\"meta\">Following Linux %s; kernel command "
		"line: <code>",
		r->kver);
	html_escaped(out, *r->cmdline ? r->cmdline : "(none)");
	fprintf(out,
		"</code>. %zu steps, %d failed. Written by <code>kfsim tour</code>; the "
		"pictures and traces are in this page's directory.</p>\n",
		r->nr_steps, r->failed);
	fprintf(out, "<nav>\n<ol>\n");
	for (size_t i = 0; i < r->nr_steps; i++) {
		fprintf(out, "<li><a href=\"#%s\">", r->steps[i].step->name);
		html_escaped(out, r->steps[i].step->title);
		fprintf(out, "</a></li>\n");
	}
	fprintf(out, "<li><a href=\"#dmesg\">Kernel log of this run (dmesg)</a></li>\n"
		     "</ol>\n</nav>\n");
	for (size_t i = 0; i < r->nr_steps; i++)
		html_step(out, r, i, &fig);
	fprintf(out, "<section id=\"dmesg\">\n<h2>Kernel log of this run (dmesg)</h2>\n<pre>");
	html_escaped(out, r->dmesg ? r->dmesg : "");
	fprintf(out, "</pre>\n</section>\n</body>\n</html>\n");
	return ferror(out) ? -EIO : 0;
}
