/* The engine's workload resolver and recommender without a session:
 * - the resolver gives each feature its origin (declared, catalog,
 *   config, simulator, recording, measured) and the ranks settle overlaps;
 *   an unknown --model is an error;
 * - the utilisation window's mean (a sliding 30 s of valid samples) and
 *   its restart at the fine-tune's first step;
 * - the recommender: gpu_util offered only once the window spans 5 s
 *   (recommend_now needs no such span), evaluation once a second, and
 *   hysteresis (a measured value within the margin keeps the branch; a
 *   change is adopted after 3 windows). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "policy_builtin.h"
#include "timebase.h"
#include "recommend.h"
#include "workload_resolve.h"

#define S DVF_NS_PER_S

/* ---- the resolver ---- */

static void test_resolve_origins(void **state)
{
	(void)state;
	struct workload w;
	char err[512];

	/* --model and --seq-len: catalog and declared; the fine-tune's own
	 * seq_len (measured) does not replace a declared one. */
	struct wl_inputs in = { .model = "bert-base", .seq_len = 256,
				.run_seq_len = { 100, WL_SRC_MEASURED }, .util = { 40, WL_SRC_MEASURED } };
	assert_int_equal(workload_resolve(&in, &w, err, sizeof err), 0);
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_CATALOG);
	assert_float_equal(w.f[WL_LAYERS].v, 12, 0);
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_DECLARED);
	assert_float_equal(w.f[WL_SEQ_LEN].v, 256, 0);
	assert_int_equal(w.f[WL_GPU_UTIL].src, WL_SRC_MEASURED);
	assert_string_equal(workload_resolve_model(&in), "bert-base");

	/* --demo: the simulator's model and sequence length; a measured one
	 * from a real fine-tune ranks above the simulator's. */
	in = (struct wl_inputs){ .sim_model = "gpt2", .sim_seq_len = 64 };
	assert_int_equal(workload_resolve(&in, &w, err, sizeof err), 0);
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_SIMULATOR);
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_SIMULATOR);
	assert_false(workload_has(&w, WL_GPU_UTIL));
	in.run_seq_len = (struct wl_value){ 80, WL_SRC_MEASURED };
	workload_resolve(&in, &w, err, sizeof err);
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_MEASURED);
	assert_float_equal(w.f[WL_SEQ_LEN].v, 80, 0);
	/* --model names the model even under --demo. */
	in.model = "pythia-70m";
	workload_resolve(&in, &w, err, sizeof err);
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_CATALOG);
	assert_float_equal(w.f[WL_LAYERS].v, 6, 0);

	/* A replay: the sidecar's model from the catalog, its seq_len as
	 * recorded; above what the replay measures. */
	in = (struct wl_inputs){ .rec_model = "bert-base", .rec_seq_len = 128,
				 .run_seq_len = { 90, WL_SRC_MEASURED } };
	assert_int_equal(workload_resolve(&in, &w, err, sizeof err), 0);
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_CATALOG);
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_RECORDING);
	assert_float_equal(w.f[WL_SEQ_LEN].v, 128, 0);
	assert_string_equal(workload_source_name(WL_SRC_RECORDING), "recording");
	/* ... a model the catalog lacks is named, and not used. */
	in.rec_model = "my-own-net";
	assert_int_equal(workload_resolve(&in, &w, err, sizeof err), 0);
	assert_false(workload_has(&w, WL_LAYERS));
	assert_string_equal(workload_resolve_model(&in), "my-own-net");

	/* An unknown --model is an error that names it; the rest is there. */
	in = (struct wl_inputs){ .model = "no-such-model", .seq_len = 32 };
	assert_int_equal(workload_resolve(&in, &w, err, sizeof err), -1);
	assert_non_null(strstr(err, "--model no-such-model: not a model of the catalog"));
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_DECLARED);
}

static void test_resolve_config(void **state)
{
	(void)state;
	char path[] = "/tmp/test_recommend_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *json = "{\"architectures\": [\"LlamaForCausalLM\"], \"num_hidden_layers\": 4}";
	assert_true(write(fd, json, strlen(json)) == (ssize_t)strlen(json));
	close(fd);
	struct workload w;
	char err[512];
	/* A config without a hidden size: a note, the rest used; a
	 * recording's model gives way to it. */
	struct wl_inputs in = { .model_config = path, .rec_model = "bert-base", .rec_seq_len = 16 };
	assert_int_equal(workload_resolve(&in, &w, err, sizeof err), 1);
	assert_non_null(strstr(err, "no hidden size"));
	assert_int_equal(w.f[WL_LAYERS].src, WL_SRC_CONFIG);
	assert_float_equal(w.f[WL_LAYERS].v, 4, 0);
	assert_int_equal(w.f[WL_MODEL_TYPE].src, WL_SRC_CONFIG);
	assert_false(workload_has(&w, WL_HIDDEN));
	assert_int_equal(w.f[WL_SEQ_LEN].src, WL_SRC_RECORDING);
	unlink(path);
	/* A config that cannot be read: an error. */
	assert_int_equal(workload_resolve(&in, &w, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot open"));
}

/* ---- the window ---- */

static void test_window_mean(void **state)
{
	(void)state;
	struct recommend_window w;
	double pct = -1, span = -1;
	recommend_window_init(&w, S, 30);
	assert_false(recommend_window_mean(&w, &pct, &span));

	/* 10 samples a second: 40% for 10 s, then 80% for 20 s. */
	for (int64_t t = 0; t < 30 * S; t += S / 10)
		recommend_window_add(&w, 5 * S + t, dvf_m_val(t < 10 * S ? 400 : 800));
	assert_true(recommend_window_mean(&w, &pct, &span));
	assert_float_equal(pct, (10 * 40.0 + 20 * 80.0) / 30, 1e-9);
	assert_float_equal(span, 30, 1e-9);

	/* 10 s later the 40% seconds have left the window. */
	for (int64_t t = 30 * S; t < 40 * S; t += S / 10)
		recommend_window_add(&w, 5 * S + t, dvf_m_val(800));
	assert_true(recommend_window_mean(&w, &pct, &span));
	assert_float_equal(pct, 80.0, 1e-9);

	/* Invalid samples count for nothing: not as zero. */
	recommend_window_init(&w, S, 30);
	recommend_window_add(&w, 0, dvf_m_val(500));
	recommend_window_add(&w, S, dvf_m_na());
	recommend_window_add(&w, 2 * S, dvf_m_na());
	assert_true(recommend_window_mean(&w, &pct, &span));
	assert_float_equal(pct, 50.0, 1e-9);
	assert_float_equal(span, 3, 1e-9);   /* three seconds so far */

	/* Only invalid samples in the window: no mean. */
	for (int64_t t = 3 * S; t < 40 * S; t += S)
		recommend_window_add(&w, t, dvf_m_na());
	assert_false(recommend_window_mean(&w, &pct, &span));
	assert_float_equal(span, 30, 1e-9);

	/* A gap longer than the window leaves only what came after it. */
	recommend_window_init(&w, S, 30);
	recommend_window_add(&w, 0, dvf_m_val(100));
	recommend_window_add(&w, 100 * S, dvf_m_val(900));
	assert_true(recommend_window_mean(&w, &pct, &span));
	assert_float_equal(pct, 90.0, 1e-9);
}

/* ---- the recommender ---- */

static struct dvf_info info;
static struct policy_tree mlg;

static int setup(void **state)
{
	(void)state;
	char err[POLICY_ERR_LEN];
	policy_eval_levels_agx_orin(&info);
	policy_tree_init(&mlg);
	return policy_builtin_load_spec("builtin:mlg", &mlg, err, sizeof err);
}

static int teardown(void **state)
{
	(void)state;
	policy_tree_free(&mlg);
	return 0;
}

/* bert-base (deep), seq_len 128 declared: builtin:mlg then asks gpu_util,
 * <= 22% -> 1020 MHz, above -> 816 MHz. */
static void open_bert(struct recommend *r)
{
	struct wl_inputs in = { .model = "bert-base", .seq_len = 128 };
	struct workload w;
	char err[256];
	assert_int_equal(workload_resolve(&in, &w, err, sizeof err), 0);
	recommend_init(r, &mlg, "builtin:mlg", &w, &info);
}

/* Feed from t0 for secs seconds at 10 samples a second at util percent. */
static void feed(struct recommend *r, int64_t *t, double secs, double util, bool stepping)
{
	for (int64_t end = *t + (int64_t)(secs * S); *t < end; *t += S / 10) {
		struct recommend_sample x = { .t_ns = *t, .gpu_load_pm = dvf_m_val((int64_t)(util * 10)),
					      .stepping = stepping };
		recommend_feed(r, &x);
	}
}

static double adopted_mhz(const struct recommend *r)
{
	struct recommendation rec;
	recommend_result(r, &rec);
	return rec.have && rec.eval.ok ? rec.eval.mhz : -1;
}

static void test_recommend_min_span(void **state)
{
	(void)state;
	struct recommend r;
	struct recommendation rec;
	int64_t t = 0;
	open_bert(&r);
	recommend_result(&r, &rec);
	assert_false(rec.have);
	assert_false(recommend_clock(&r).ok);
	feed(&r, &t, 3, 30, true);
	/* nothing adopted yet: /metrics has no recommended clock */
	assert_false(recommend_clock(&r).ok);
	/* 3 s: measured, not yet offered; the path stops at gpu_util. */
	recommend_result(&r, &rec);
	assert_true(rec.have);
	assert_false(rec.eval.ok);
	assert_int_equal(rec.eval.missing, WL_GPU_UTIL);
	assert_true(rec.util_ok);
	assert_float_equal(rec.util_pct, 30, 1e-9);
	assert_int_equal(rec.window_s, 30);
	assert_int_equal(rec.min_s, 5);
	/* A one-off decision takes the window as it is. */
	recommend_now(&r, &rec);
	assert_true(rec.eval.ok);
	assert_float_equal(rec.eval.mhz, 816, 0);
	assert_int_equal(rec.w.f[WL_GPU_UTIL].src, WL_SRC_MEASURED);
	int64_t levels[] = { 306000000, 816000000, 1300500000 };
	assert_int_equal(recommend_level(&rec, levels, 3), 1);
	/* 5 s: offered, adopted at once (the first clock after none). */
	feed(&r, &t, 2.5, 30, true);
	assert_float_equal(adopted_mhz(&r), 816, 0);
	recommend_result(&r, &rec);
	assert_true(rec.have_map);
	assert_int_equal(rec.map.hz, 816000000);
	assert_true(recommend_clock(&r).ok);
	assert_int_equal(recommend_clock(&r).v, 816000000);
	assert_string_equal(rec.policy, "mlg");
	assert_string_equal(rec.spec, "builtin:mlg");
	recommend_close(&r);
}

static void test_recommend_hysteresis(void **state)
{
	(void)state;
	struct recommend r;
	struct recommendation rec;
	int64_t t = 0;
	open_bert(&r);
	feed(&r, &t, 40, 30, true);
	assert_float_equal(adopted_mhz(&r), 816, 0);
	/* The window's mean falls to about 21%: within the 2-point margin of
	 * the 22% threshold, the branch is kept. */
	feed(&r, &t, 20, 17, true);
	recommend_result(&r, &rec);
	assert_true(rec.util_pct > 20 && rec.util_pct < 22);
	assert_float_equal(adopted_mhz(&r), 816, 0);
	/* Clearly below: adopted after the hold. */
	feed(&r, &t, 30, 5, true);
	assert_float_equal(adopted_mhz(&r), 1020, 0);
	/* Back up: the mean passes 24% (threshold and margin) after 7 s at
	 * 90%; the change is pending for 1, then 2 windows, then adopted. */
	feed(&r, &t, 6, 90, true);
	recommend_result(&r, &rec);
	assert_int_equal(rec.pending, 0);
	int seen = 0, secs = 0;
	while (adopted_mhz(&r) == 1020 && secs++ < 10) {
		feed(&r, &t, 1, 90, true);
		recommend_result(&r, &rec);
		if (rec.pending > 0) {
			assert_int_equal(rec.pending, seen + 1);
			assert_true(rec.pending_ok);
			assert_float_equal(rec.pending_mhz, 816, 0);
			seen = rec.pending;
		}
	}
	assert_float_equal(adopted_mhz(&r), 816, 0);
	assert_int_equal(seen, 2);
	recommend_close(&r);
}

static void test_recommend_first_step(void **state)
{
	(void)state;
	struct recommend r;
	struct recommendation rec;
	int64_t t = 0;
	open_bert(&r);
	/* 20 s of loading at 5%, then the first step: the window starts over. */
	feed(&r, &t, 20, 5, false);
	assert_float_equal(adopted_mhz(&r), 1020, 0);
	feed(&r, &t, 6, 60, true);
	recommend_result(&r, &rec);
	assert_float_equal(rec.util_pct, 60, 1e-9);
	assert_true(rec.util_span_s <= 7);
	/* another policy: hysteresis afresh, the window kept */
	struct policy_tree ffg;
	char err[POLICY_ERR_LEN];
	policy_tree_init(&ffg);
	assert_int_equal(policy_builtin_load_spec("builtin:ffg", &ffg, err, sizeof err), 0);
	recommend_use(&r, &ffg, "builtin:ffg");
	recommend_result(&r, &rec);
	assert_true(rec.have);
	assert_string_equal(rec.spec, "builtin:ffg");
	assert_float_equal(rec.util_pct, 60, 1e-9);
	recommend_close(&r);
	policy_tree_free(&ffg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_origins),
		cmocka_unit_test(test_resolve_config),
		cmocka_unit_test(test_window_mean),
		cmocka_unit_test(test_recommend_min_span),
		cmocka_unit_test(test_recommend_hysteresis),
		cmocka_unit_test(test_recommend_first_step),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
