/* job_view: the fine-tune as the dashboard shows it (job_panel.c fills and
 * draws it); its own header so that the views the dashboard holds
 * (panel.h) include no panel. */
#ifndef DVF_JOB_VIEW_H
#define DVF_JOB_VIEW_H

#include <stdbool.h>

#include "session.h"

/* The log ring's default size (job.h), and up to 1023 bytes of a line:
 * the full lines are in the log file. */
enum { JOB_VIEW_LINES = 1000, JOB_VIEW_LINE_LEN = 1024 };

/* Where the log pane is: rows scrolled back from the newest (0 follows
 * the output), and long lines wrapped or, cut (nowrap), panned x columns. */
struct job_log_pos {
	int back;
	bool nowrap;
	int x;
};

struct job_view {
	bool have;                  /* session_job_stats said true */
	bool child;                 /* a process we started or watch (a log ring) */
	char name[128];
	char log_path[512];
	struct job_stats js;
	int n_lines;                /* the newest lines of the ring, oldest first */
	char line[JOB_VIEW_LINES][JOB_VIEW_LINE_LEN];
};

#endif
