/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_TOUR_HTML_H
#define KFSIM_CLI_TOUR_HTML_H

/*
 * The tour as one self-contained HTML page: each step's narrative, its pictures inlined, links
 * to its traces and other files, the commands to try and the teaching page, then the kernel log
 * of the run.  No script, no network: it reads the same from a file, offline, or printed to PDF.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "cli.h"

/**
 * struct kfsim_tour_result - what one step did
 * @step: the step
 * @err: its return value
 * @narrative: what it printed (NUL-terminated)
 * @nr_files: files it wrote
 * @files: their names relative to the output directory
 */
struct kfsim_tour_result {
	const struct kfsim_tour_step *step;
	int err;
	const char *narrative;
	int nr_files;
	char files[KFSIM_TOUR_MAX_FILES][KFSIM_TOUR_NAME_MAX];
};

/**
 * struct kfsim_tour_report - the whole run
 * @out_dir: where the files are (the page lives there too: links are relative)
 * @kver: the kernel release followed ("6.3.0")
 * @cmdline: the kernel command line
 * @steps: one result per step
 * @nr_steps: how many
 * @dmesg: the kernel log of the run, as dmesg prints it
 * @failed: steps that failed
 * @playground: the playground page was written beside the tour's (the steps link their panels)
 */
struct kfsim_tour_report {
	const char *out_dir;
	const char *kver;
	const char *cmdline;
	const struct kfsim_tour_result *steps;
	size_t nr_steps;
	const char *dmesg;
	int failed;
	bool playground;
};

/**
 * kfsim_tour_html() - write @report (a struct kfsim_tour_report) as an HTML page on @out
 *
 * Its signature is kfsim_tour_write()'s writer.  Return: 0, or -EIO on a write error.
 */
int kfsim_tour_html(FILE *out, const void *report);

#endif /* KFSIM_CLI_TOUR_HTML_H */
