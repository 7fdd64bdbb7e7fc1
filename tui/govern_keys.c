/* govern_keys: the governor in the dashboard (govern_keys.h). */
#include "config.h"
#include "govern_keys.h"
#include "panel_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "govern_panel.h"
#include "govern_trade.h"
#include "session.h"
#include "sweep_panel.h"

int govern_keys_open(struct panel_ctx *c)
{
	if (!c->o->govern)
		return 0;
	/* --govern asked for it: one that cannot govern does not start. */
	if (!c->eng || engine_govern(c->eng) != 0) {
		fprintf(stderr, "dvfstop: --govern: %s\n", c->eng ? engine_msg(c->eng) : "out of memory");
		return -1;
	}
	return 0;
}

int govern_keys_key_toggle(struct panel_ctx *c)
{
	if (!c->eng)
		return KR_NONE;
	if (engine_govern(c->eng) != 0)
		panel_ctx_msg(c, "governor: %s", engine_msg(c->eng));
	return KR_REDRAW;
}

/* The sweep region shows the governor while it was started, unless the
 * user's own sweep is being chosen, runs, or has finished (its A waits)
 * since the governor gave the clock up. */
static void view_region(struct panel_ctx *c)
{
	struct govern_view *gv = &c->view->sweep.gov;
	const struct govern_driver *d = &c->eng->gov;
	const struct govern *g = &d->g;
	bool yielded = g->state == GOV_SUSPENDED || g->state == GOV_OFF;
	govern_panel_fill(g, d->rehearsal, c->s->t_start, gv);
	gv->shown = !sweep_panel_holds_region(c, yielded);
}

void govern_keys_view(struct panel_ctx *c)
{
	struct policy_view *pv = &c->view->policy;
	pv->gov_active = c->eng && c->eng->gov.active;
	if (!pv->gov_active) {
		c->view->sweep.gov.shown = false;
		return;
	}
	view_region(c);
	const struct govern_driver *d = &c->eng->gov;
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
