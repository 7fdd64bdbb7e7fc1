/* govern_keys: the governor in the dashboard (govern_keys.h). */
#include "config.h"
#include "govern_keys.h"
#include "tui_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "govern_driver.h"
#include "govern_panel.h"
#include "govern_trade.h"
#include "session.h"

static bool start(struct tui *t)
{
	char err[512];
	if (!t->ctl) {
		tui_msg(t, "governor: no clock control (out of memory)");
		return false;
	}
	if (govern_driver_start(t->gov, t->s, t->ctl, err, sizeof err) != 0) {
		tui_msg(t, "governor: %s", err);
		return false;
	}
	return true;
}

int govern_keys_open(struct tui *t)
{
	t->gov = calloc(1, sizeof *t->gov);
	if (!t->gov) {
		fprintf(stderr, "dvfstop: out of memory\n");
		return -1;
	}
	if (!t->o->govern)
		return 0;
	/* --govern asked for it: one that cannot govern does not start. */
	char err[512];
	if (!t->ctl || govern_driver_start(t->gov, t->s, t->ctl, err, sizeof err) != 0) {
		fprintf(stderr, "dvfstop: --govern: %s\n", t->ctl ? err : "out of memory");
		return -1;
	}
	return 0;
}

void govern_keys_sample(struct tui *t)
{
	if (t->gov)
		govern_driver_feed(t->gov, t->s);
}

void govern_keys_take(struct tui *t, int ch)
{
	if (t->gov && govern_driver_on(t->gov)) {
		char why[64];
		snprintf(why, sizeof why, "the %c key sets the clock by hand", ch);
		govern_driver_suspend(t->gov, t->s, why);
	}
}

/* The keys that set the clock at once take it from the governor.  o and s
 * only open a dialog or a chooser: looking is not acting, so they take it
 * when a level is set or a sweep starts (ctl_keys.c, sweep_panel.c). */
bool govern_keys_filter(struct tui *t, int ch)
{
	/* (curses' KEY_* codes are above 255: only a character is looked up) */
	if (ch > 0 && ch < 128 && strchr("aAd+-c", ch))
		govern_keys_take(t, ch);
	return false;
}

int govern_keys_key_toggle(struct tui *t)
{
	if (!t->gov)
		return KR_NONE;
	if (!t->gov->active)
		start(t);
	else
		govern_driver_toggle(t->gov, t->s);
	return KR_REDRAW;
}

/* The sweep region shows the governor while it was started, unless the
 * user's own sweep is being chosen, runs, or has finished (its A waits)
 * since the governor gave the clock up. */
static void view_region(struct tui *t)
{
	struct govern_view *gv = &t->view.sweep.gov;
	const struct govern *g = &t->gov->g;
	bool yielded = g->state == GOV_SUSPENDED || g->state == GOV_OFF;
	govern_panel_fill(g, t->gov->rehearsal, t->s->t_start, gv);
	gv->shown = !t->sweep.choosing && !t->sweep.run.running && !(t->sweep.have && yielded);
}

void govern_keys_view(struct tui *t)
{
	struct policy_view *pv = &t->view.policy;
	pv->gov_active = t->gov && t->gov->active;
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
	const struct govern *g = &t->gov->g;
	snprintf(pv->gov_state, sizeof pv->gov_state, "%s", govern_state_name(g->state));
	/* A rehearsal (session_rehearsal) says so first and shows no saving. */
	const char *pre = t->gov->rehearsal ? "rehearsal: " : "";
	size_t n = strlen(pre);
	snprintf(pv->gov_line, sizeof pv->gov_line, "%s", pre);
	govern_describe(g, pv->gov_line + n, sizeof pv->gov_line - n);
	pv->gov_saved_ok = g->base_ok && !t->gov->rehearsal;
	pv->gov_saved_j = g->saved_j;
	pv->gov_saved_pct = govern_saved_pct(g);
	/* the trade, once it has profiled; none in a rehearsal */
	pv->gov_trade[0] = '\0';
	if (g->profiles > 0 && !t->gov->rehearsal) {
		struct govern_trade tr;
		govern_trade_of(g, &tr);
		govern_trade_format(&tr, true, pv->gov_trade, sizeof pv->gov_trade);
	}
}

void govern_keys_close(struct tui *t)
{
	if (!t->gov)
		return;
	govern_driver_close(t->gov, t->s);
}

/* After the summary (the job's finish, before this one) has read it. */
void govern_keys_finish(struct tui *t, bool ran)
{
	(void)ran;
	if (t->gov && t->s && t->s->gov == &t->gov->g)
		t->s->gov = NULL;
	free(t->gov);
	t->gov = NULL;
}
