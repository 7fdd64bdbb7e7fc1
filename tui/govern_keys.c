/* govern_keys: the governor in the dashboard (govern_keys.h). */
#include "config.h"
#include "govern_keys.h"
#include "tui_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "govern_panel.h"
#include "govern_trade.h"
#include "session.h"

int govern_keys_open(struct tui *t)
{
	if (!t->o->govern)
		return 0;
	/* --govern asked for it: one that cannot govern does not start. */
	if (!t->eng || engine_govern(t->eng) != 0) {
		fprintf(stderr, "dvfstop: --govern: %s\n", t->eng ? engine_msg(t->eng) : "out of memory");
		return -1;
	}
	return 0;
}

int govern_keys_key_toggle(struct tui *t)
{
	if (!t->eng)
		return KR_NONE;
	if (engine_govern(t->eng) != 0)
		tui_msg(t, "governor: %s", engine_msg(t->eng));
	return KR_REDRAW;
}

/* The sweep region shows the governor while it was started, unless the
 * user's own sweep is being chosen, runs, or has finished (its A waits)
 * since the governor gave the clock up. */
static void view_region(struct tui *t)
{
	struct govern_view *gv = &t->view.sweep.gov;
	const struct govern_driver *d = &t->eng->gov;
	const struct govern *g = &d->g;
	bool yielded = g->state == GOV_SUSPENDED || g->state == GOV_OFF;
	govern_panel_fill(g, d->rehearsal, t->s->t_start, gv);
	gv->shown = !t->sweep.choosing && !engine_sweeping(t->eng) && !(t->sweep.have && yielded);
}

void govern_keys_view(struct tui *t)
{
	struct policy_view *pv = &t->view.policy;
	pv->gov_active = t->eng && t->eng->gov.active;
	if (!pv->gov_active)
		t->view.sweep.gov.shown = false;
	else
		view_region(t);
	/* The layout gives the sweep region its rows first while a governor
	 * was started (tui.c): its levels and decisions, or a sweep that
	 * took the clock from it. */
	if (pv->gov_active != t->lay_gov)
		t->relayout = true;
	if (!pv->gov_active)
		return;
	const struct govern_driver *d = &t->eng->gov;
	const struct govern *g = &d->g;
	snprintf(pv->gov_state, sizeof pv->gov_state, "%s", govern_state_name(g->state));
	/* A rehearsal (session_rehearsal) says so first and shows no saving. */
	const char *pre = d->rehearsal ? "rehearsal: " : "";
	size_t n = strlen(pre);
	snprintf(pv->gov_line, sizeof pv->gov_line, "%s", pre);
	govern_describe(g, pv->gov_line + n, sizeof pv->gov_line - n);
	pv->gov_saved_ok = g->base_ok && !d->rehearsal;
	pv->gov_saved_j = g->saved_j;
	pv->gov_saved_pct = govern_saved_pct(g);
	pv->gov_base_moving = govern_base_moving(g);
	/* the trade, once it has profiled; none in a rehearsal */
	pv->gov_trade[0] = '\0';
	if (g->profiles > 0 && !d->rehearsal) {
		struct govern_trade tr;
		govern_trade_of(g, &tr);
		govern_trade_format(&tr, true, pv->gov_trade, sizeof pv->gov_trade);
	}
}
