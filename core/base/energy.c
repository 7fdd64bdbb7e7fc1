#include "config.h"
#include "energy.h"

#include <string.h>

void energy_init(struct energy *e, int64_t bridge_ns)
{
	memset(e, 0, sizeof *e);
	e->bridge_ns = bridge_ns;
	e->t_first = e->t_last = -1;
}

static void chan_add(struct energy_chan *c, int64_t bridge_ns, int64_t t, const struct dvf_m *mw)
{
	if (!mw->ok)
		return;
	double p = (double)mw->v;
	if (c->have && t > c->t_prev) {
		int64_t dt = t - c->t_prev;
		/* A normal step is "a gap" of one interval; anything up to
		 * bridge_ns is integrated, longer is lost. */
		if (dt <= bridge_ns) {
			c->mj += (c->mw_prev + p) * 0.5 * (double)dt * 1e-9;
			c->covered_ns += dt;
		} else {
			c->lost_ns += dt;
			c->n_lost++;
		}
	}
	c->have = true;
	c->t_prev = t;
	c->mw_prev = p;
}

void energy_add(struct energy *e, const struct dvf_sample *s)
{
	if (e->t_first < 0)
		e->t_first = s->t_ns;
	int64_t step = e->t_last >= 0 ? s->t_ns - e->t_last : 0;
	e->t_last = s->t_ns;
	for (int i = 0; i < ENERGY_N; i++) {
		const struct dvf_m *m = i == ENERGY_TOTAL ? &s->total_mw : &s->rail[i].mw;
		struct energy_chan *c = &e->ch[i];
		/* A gap that this valid sample ends and that we bridge is counted
		 * as bridged: it spanned more than the last sampling step. */
		if (m->ok && c->have && step > 0 && s->t_ns - c->t_prev > step &&
		    s->t_ns - c->t_prev <= e->bridge_ns) {
			c->bridged_ns += s->t_ns - c->t_prev - step;
			c->n_bridged++;
		}
		chan_add(c, e->bridge_ns, s->t_ns, m);
	}
}

bool energy_mean_mw(const struct energy *e, int chan, double *mw)
{
	const struct energy_chan *c = &e->ch[chan];
	if (c->covered_ns <= 0)
		return false;
	*mw = c->mj / ((double)c->covered_ns * 1e-9);
	return true;
}

double energy_between(const struct energy *a, const struct energy *b, int chan)
{
	return b->ch[chan].mj - a->ch[chan].mj;
}

void energy_lerp(const struct energy *a, const struct energy *b, double f, struct energy *out)
{
	struct energy r = *b;
	for (int i = 0; i < ENERGY_N; i++)
		r.ch[i].mj = a->ch[i].mj + f * (b->ch[i].mj - a->ch[i].mj);
	*out = r;
}

void energy_at_step(const struct energy *prev, int64_t prev_t, const struct dvf_sample *s,
		    const struct energy *e, struct energy *out, int64_t *t_ns)
{
	if (prev && s->step_ns.ok && prev_t < s->step_ns.v && s->step_ns.v <= s->t_ns && s->t_ns > prev_t) {
		energy_lerp(prev, e, (double)(s->step_ns.v - prev_t) / (double)(s->t_ns - prev_t), out);
		*t_ns = s->step_ns.v;
		return;
	}
	*out = *e;
	*t_ns = s->t_ns;
}

void energy_counter_add(struct energy_counter *c, int64_t mj)
{
	if (!c->have) {
		c->have = true;
		c->first_mj = c->last_mj = mj;
	} else if (mj < c->last_mj) {
		c->rebased_mj += c->last_mj - c->first_mj;
		c->first_mj = c->last_mj = mj;
	} else {
		c->last_mj = mj;
	}
}

bool energy_counter_mj(const struct energy_counter *c, int64_t *mj)
{
	if (!c->have)
		return false;
	*mj = c->last_mj - c->first_mj + c->rebased_mj;
	return true;
}
