/* workload_resolve: which workload the options and the session describe
 * (see workload_resolve.h). */
#include "config.h"
#include "workload_resolve.h"

#include <stdio.h>
#include <string.h>

#include "catalog.h"

static bool given(const char *s)
{
	return s && s[0];
}

const char *workload_resolve_model(const struct wl_inputs *in)
{
	if (given(in->model))
		return in->model;
	if (given(in->sim_model))
		return in->sim_model;
	return given(in->rec_model) ? in->rec_model : NULL;
}

void workload_resolve_measured(const struct wl_inputs *in, struct workload *w)
{
	if (in->run_seq_len.src != WL_SRC_NONE && in->run_seq_len.v > 0)
		workload_offer(w, WL_SEQ_LEN, in->run_seq_len.v, in->run_seq_len.src);
	if (in->util.src != WL_SRC_NONE)
		workload_offer(w, WL_GPU_UTIL, in->util.v, in->util.src);
}

/* The model whose catalog figures the policy takes, and their origin:
 * --model (catalog), the simulator's (simulator), a recording's when the
 * catalog knows it and nothing else names the model (catalog). */
static const char *catalog_model(const struct wl_inputs *in, bool *simulated)
{
	*simulated = false;
	if (given(in->model))
		return in->model;
	if (given(in->sim_model)) {
		*simulated = true;
		return in->sim_model;
	}
	if (given(in->rec_model) && !in->model_config && catalog_find(in->rec_model))
		return in->rec_model;
	return NULL;
}

int workload_resolve(const struct wl_inputs *in, struct workload *w, char *err, size_t errlen)
{
	int rc = 0;
	bool simulated;
	err[0] = '\0';
	workload_init(w);
	const char *model = catalog_model(in, &simulated);
	const struct catalog_model *m = model ? catalog_find(model) : NULL;
	if (m) {
		workload_from_catalog(w, m);
		if (simulated)
			workload_mark_simulated(w);
	} else if (model) {
		snprintf(err, errlen, "--model %s: not a model of the catalog "
			 "(dvfstop recommend --list-models lists them; --model-config reads a config.json)", model);
		rc = -1;
	}
	if (in->model_config && rc == 0) {
		rc = workload_load_config(w, in->model_config, err, errlen);
		if (rc < 0)
			rc = -1;
	}
	if (in->seq_len > 0)
		workload_offer(w, WL_SEQ_LEN, (double)in->seq_len, WL_SRC_DECLARED);
	else if (given(in->sim_model) && in->sim_seq_len > 0)
		workload_offer(w, WL_SEQ_LEN, (double)in->sim_seq_len, WL_SRC_SIMULATOR);
	else if (in->rec_seq_len > 0)
		workload_offer(w, WL_SEQ_LEN, (double)in->rec_seq_len, WL_SRC_RECORDING);
	workload_resolve_measured(in, w);
	return rc;
}
