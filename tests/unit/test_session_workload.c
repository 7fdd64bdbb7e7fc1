/* session_workload_fixed on a real session (the simulated Orin): the one
 * place the engine, the summary, the sweep CSV and the recommender ask for
 * the session's fixed workload.
 * - --demo alone: the simulator's model and sequence length;
 * - --model and --seq-len: the catalog's figures and the declared length,
 *   the model named as given, above the simulator's;
 * - a --model the catalog lacks: -1, the message naming it, the rest
 *   still resolved;
 * - the model may be left unasked (NULL). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"
#include "session.h"
#include "session_workload.h"

static struct session s; /* large: not on the stack */

static void open_demo(struct dvf_opts *o, const char *model, int64_t seq_len)
{
	options_defaults(o);
	o->demo = true;
	o->batch = true;
	o->sim_speed = 0;
	o->sim_model = "gpt2";
	o->sim_seq_len = 64;
	o->model = model;
	o->seq_len = seq_len;
	char err[512];
	assert_int_equal(session_open(&s, o, err, sizeof err), 0);
}

static void fixed_of_the_simulator(void **st)
{
	(void)st;
	struct dvf_opts o;
	open_demo(&o, NULL, 0);
	struct workload w;
	const char *model = "unset";
	char err[512] = "";
	assert_int_equal(session_workload_fixed(&s, &w, &model, err, sizeof err), 0);
	assert_string_equal(model, "gpt2");
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_SIMULATOR);
	assert_float_equal(w.f[WL_LAYERS].v, 12, 0);
	assert_float_equal(w.f[WL_HIDDEN].v, 768, 0);
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_SIMULATOR);
	assert_float_equal(w.f[WL_SEQ_LEN].v, 64, 0);
	assert_false(workload_has(&w, WL_GPU_UTIL)); /* the recommender's window gives it */
	session_close(&s);
}

static void fixed_of_the_options(void **st)
{
	(void)st;
	struct dvf_opts o;
	open_demo(&o, "bert-base", 256);
	struct workload w;
	const char *model = NULL;
	char err[512] = "";
	assert_int_equal(session_workload_fixed(&s, &w, &model, err, sizeof err), 0);
	assert_string_equal(model, "bert-base");
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_CATALOG);
	assert_float_equal(w.f[WL_LAYERS].v, 12, 0);
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_DECLARED);
	assert_float_equal(w.f[WL_SEQ_LEN].v, 256, 0);
	/* the same without asking for the model */
	struct workload w2;
	assert_int_equal(session_workload_fixed(&s, &w2, NULL, err, sizeof err), 0);
	assert_memory_equal(&w, &w2, sizeof w);
	session_close(&s);
}

static void unknown_model_named(void **st)
{
	(void)st;
	struct dvf_opts o;
	open_demo(&o, "no-such-net", 128);
	struct workload w;
	const char *model = NULL;
	char err[512] = "";
	assert_int_equal(session_workload_fixed(&s, &w, &model, err, sizeof err), -1);
	assert_non_null(strstr(err, "no-such-net"));
	assert_string_equal(model, "no-such-net");
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_DECLARED); /* the rest still resolved */
	assert_float_equal(w.f[WL_SEQ_LEN].v, 128, 0);
	session_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixed_of_the_simulator),
		cmocka_unit_test(fixed_of_the_options),
		cmocka_unit_test(unknown_model_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
