/* policy_view: what the policy panel shows (policy_panel.c fills and draws
 * it); its own header so that the views the dashboard holds (panel.h)
 * include no panel. */
#ifndef DVF_POLICY_VIEW_H
#define DVF_POLICY_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "policy_eval.h"
#include "sample.h"

struct policy_view {
	bool active;                  /* the panel has content (else a placeholder) */
	char name[96];                /* "builtin:mlg", "my.policy" */
	int index, count;             /* which loaded policy; P cycles */
	char error[160];              /* "" or why nothing is evaluated */
	bool have_eval;               /* evaluated at least once */
	struct policy_eval eval;      /* the adopted evaluation */
	bool have_map;
	struct level_map map;         /* its leaf on the board's table */
	int pending;                  /* windows a different outcome came out (0: none) */
	int hold;                     /* windows it needs */
	bool pending_ok;              /* the pending outcome is a clock */
	double pending_mhz;
	bool util_ok;
	double util_pct, util_span_s;
	int util_window_s;
	int util_min_s;               /* span before gpu_util is offered (RECOMMEND_MIN_S) */
	struct dvf_m board_hz;        /* the clock the board runs at */
	/* the governor (govern_keys.c), while it was started */
	bool gov_active;
	char gov_state[16];           /* "warm-up", "profile", "hold", ... */
	char gov_line[160];           /* where it stands (govern_describe) */
	bool gov_saved_ok;
	double gov_saved_j, gov_saved_pct;
	bool gov_base_moving;        /* against a moment of the board's wandering governor: "~" */
	char gov_trade[96];           /* its profile at 0/5/10 % slower (govern_trade_format, brief); "" none */
};

#endif
