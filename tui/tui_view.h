/* tui_view: the numbers a frame of the dashboard shows, each panel's view
 * in its own header; the renderers (panel.c, gpu_rows.c, the panels)
 * include this, never each other. */
#ifndef DVF_TUI_VIEW_H
#define DVF_TUI_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "energy.h"
#include "history.h"
#include "job_view.h"
#include "policy_view.h"
#include "replay_view.h"
#include "sample.h"
#include "sweep_view.h"

struct tui_key;

/* The column the GPU processes are sorted by (F6, < and >; I inverts),
 * as nvtop's and htop's.  Each has its natural order: the largest memory
 * and energy first, the lowest PID, name and GPU first. */
enum proc_sort { PROC_SORT_MEM, PROC_SORT_ENERGY, PROC_SORT_PID, PROC_SORT_NAME, PROC_SORT_GPU, PROC_SORT_COUNT };

/* The numbers a frame shows.  While the display is frozen the TUI keeps
 * one of these (with its own copy of the history) and stops refreshing it. */
struct tui_view {
	const struct dvf_info *info;
	struct dvf_sample cur;
	bool have_cur;
	uint64_t n_samples;
	struct energy energy;
	/* Each GPU's energy since the dashboard started, from its counter
	 * (several GPUs); n/a where it has none. */
	struct dvf_m gpu_mj[DVF_MAX_GPUS];
	const struct history *hist;
	double elapsed_s;      /* first to last sample: what the energy covers */
	/* The header's uptime: since the first sample, on the session's clock
	 * now, so it ticks with the screen whatever the sampling interval. */
	double up_s;
	time_t wall;
	bool recording;
	char rec_path[512];
	char msg[256];         /* "" when there is nothing to say */
	bool frozen;
	bool ended;            /* the source has ended (replay at its end) */
	char theme_name[64];
	int focus;             /* region with the focus; -1 for none */
	const struct tui_key *keys;
	struct job_view job;       /* the fine-tune (job_view.h) */
	struct sweep_view sweep;   /* the sweep (sweep_view.h) */
	struct replay_view replay; /* --replay's speed and position */
	/* clock control (ctl_keys.c): who set the clock, and why the board
	 * runs elsewhere or why we cannot set it; "" when none */
	char ctl_who[96];
	char ctl_note[256];
	bool clocks_fixed;     /* read-only or a replay: the clock keys refuse */
	/* q asked about a running fine-tune: the key line asks the question,
	 * with only its keys, until a key answers (panel_render_keys) */
	bool quit_ask;
	struct policy_view policy;  /* the policy panel; inactive: a placeholder */
	/* cur.gpu_proc[] is in this order (gpu_rows_sort) */
	enum proc_sort proc_sort;
	bool proc_inv;             /* the natural order reversed (I) */
};

#endif
