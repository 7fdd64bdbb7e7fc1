#include "config.h"
#include "sweep_policy.h"

#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "catalog.h"
#include "workload.h"

int sweep_policy_level(const struct dvf_opts *o, const struct sweep_cfg *c, double util,
		       struct sweep_start *out)
{
	memset(out, 0, sizeof *out);
	struct policy_tree t;
	if (policy_load_spec(o->policy, &t, out->err, sizeof out->err) != 0)
		return -2;
	snprintf(out->name, sizeof out->name, "%s", t.name);
	struct workload w;
	workload_init(&w);
	const char *model = o->model ? o->model : (o->demo ? o->sim_model : NULL);
	const struct catalog_model *cm = model ? catalog_find(model) : NULL;
	if (cm)
		workload_from_catalog(&w, cm);
	if (cm && !o->model && o->demo)
		workload_mark_simulated(&w);
	/* A broken config.json leaves the catalog's figures; say so. */
	if (o->model_config && workload_load_config(&w, o->model_config, out->err, sizeof out->err) >= 0)
		out->err[0] = '\0';
	if (o->seq_len > 0)
		workload_offer(&w, WL_SEQ_LEN, (double)o->seq_len, WL_SRC_DECLARED);
	else if (o->demo)
		workload_offer(&w, WL_SEQ_LEN, (double)o->sim_seq_len, WL_SRC_SIMULATOR);
	if (util >= 0)
		workload_offer(&w, WL_GPU_UTIL, util, WL_SRC_MEASURED);
	policy_eval(&t, &w, &out->eval);
	policy_tree_free(&t);
	if (!out->eval.ok)
		return -1;
	int64_t want = (int64_t)(out->eval.mhz * 1e6 + 0.5);
	int best = -1;
	for (int i = 0; i < c->n_levels; i++)
		if (best < 0 || llabs(c->level_hz[i] - want) < llabs(c->level_hz[best] - want))
			best = i;
	if (best >= 0)
		out->hz = c->level_hz[best];
	return best;
}
