/* replay_board: the board a recording was made on, for the replay
 * (replay.c): its sidecar metadata (PATH.meta.json), else what the rows
 * show (the clock levels visited, the rails named, the median step). */
#include "config.h"
#include "replay_table.h"
#include "io_user.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A board from the rails a recording names, for its total rule. */
enum dvf_board replay_board_from_rails(const struct dvf_info *in)
{
	bool gpu = false, cpu = false, sys = false, vin = false;
	for (int i = 0; i < in->n_rails; i++) {
		gpu = gpu || !strcmp(in->rail_name[i], "VDD_GPU_SOC");
		cpu = cpu || !strcmp(in->rail_name[i], "VDD_CPU_CV");
		sys = sys || !strcmp(in->rail_name[i], "VIN_SYS_5V0");
		vin = vin || !strcmp(in->rail_name[i], "VDD_IN");
	}
	if (vin)
		return DVF_BOARD_ORIN_NX;
	if (gpu && cpu && sys)
		return DVF_BOARD_AGX_ORIN;
	return DVF_BOARD_UNKNOWN;
}

/* ---- the board: sidecar metadata, else what the rows show ------------------ */

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;
	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return NULL;
}

void replay_board_meta_read(struct replay_table *r)
{
	size_t n = strlen(r->path) + 16;
	char *mp = malloc(n);
	if (!mp)
		return;
	snprintf(mp, n, "%s.meta.json", r->path);
	/* a FIFO planted at the name must not hang the open (io_user.h); the
	 * descriptor checked is the one read */
	struct io_user_why why;
	int fd = io_user_open_read(mp, 0, &why);
	int e = errno;
	struct stat st;
	if (fd < 0 && e == ENOENT) {
		free(mp);
		return;
	}
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size > REPLAY_MAX_LINE) {
		char b[256];
		replay_csv_notice_add(r, "%s: %s, ignored", mp,
				  fd >= 0 || e == ENOTSUP || e == EISDIR ? "not a regular file of at most 1 MiB"
									 : io_user_strerror(e, &why, b, sizeof b));
		if (fd >= 0)
			close(fd);
		free(mp);
		return;
	}
	json_object *o = json_object_from_fd(fd);
	close(fd);
	if (!o || !json_object_is_type(o, json_type_object)) {
		replay_csv_notice_add(r, "%s: not a JSON object, ignored", mp);
		json_object_put(o);
		free(mp);
		return;
	}
	struct dvf_info *in = &r->info;
	const char *s;
	if ((s = jstr(o, "board")))
		snprintf(in->board_name, sizeof in->board_name, "%s", s);
	if ((s = jstr(o, "l4t")))
		snprintf(in->l4t, sizeof in->l4t, "%s", s);
	if ((s = jstr(o, "power_mode")))
		snprintf(in->power_mode, sizeof in->power_mode, "%s", s);
	if ((s = jstr(o, "total_rule")) && *s) {
		snprintf(in->total_rule, sizeof in->total_rule, "%s", s);
		in->total_known = true;
	}
	json_object *a;
	if (json_object_object_get_ex(o, "gpu_levels_hz", &a) && json_object_is_type(a, json_type_array)) {
		size_t k = json_object_array_length(a);
		in->n_levels = 0;
		for (size_t i = 0; i < k && in->n_levels < DVF_MAX_LEVELS; i++) {
			int64_t hz = json_object_get_int64(json_object_array_get_idx(a, i));
			if (hz > 0 && (in->n_levels == 0 || hz > in->level_hz[in->n_levels - 1]))
				in->level_hz[in->n_levels++] = hz;
		}
	}
	if (json_object_object_get_ex(o, "rails", &a) && json_object_is_type(a, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			json_object *ro = json_object_array_get_idx(a, i), *it;
			const char *name = jstr(ro, "name");
			if (!name || !json_object_object_get_ex(ro, "in_total", &it))
				continue;
			for (int k = 0; k < in->n_rails; k++)
				if (strcmp(in->rail_name[k], name) == 0)
					in->rail_in_total[k] = json_object_get_boolean(it);
		}
	}
	/* The fine-tune the recording followed: its name and length. */
	json_object *sum, *job, *tot;
	if (json_object_object_get_ex(o, "summary", &sum) && json_object_is_type(sum, json_type_object) &&
	    json_object_object_get_ex(sum, "job", &job) && json_object_is_type(job, json_type_object)) {
		if ((s = jstr(job, "name")))
			snprintf(r->job_name, sizeof r->job_name, "%s", s);
		if (json_object_object_get_ex(job, "total_steps", &tot) && json_object_is_type(tot, json_type_int) &&
		    json_object_get_int64(tot) > 0)
			r->job_total = json_object_get_int64(tot);
	}
	/* ... and what the policy was told of it */
	json_object *wl, *sl;
	if (json_object_object_get_ex(o, "summary", &sum) && json_object_is_type(sum, json_type_object) &&
	    json_object_object_get_ex(sum, "workload", &wl) && json_object_is_type(wl, json_type_object)) {
		if ((s = jstr(wl, "model")) && strlen(s) < sizeof r->wl_model)
			snprintf(r->wl_model, sizeof r->wl_model, "%s", s);
		if (json_object_object_get_ex(wl, "seq_len", &sl) && json_object_is_type(sl, json_type_int) &&
		    json_object_get_int64(sl) > 0 && json_object_get_int64(sl) <= 1000000)
			r->wl_seq_len = json_object_get_int64(sl);
	}
	r->have_meta = true;
	json_object_put(o);
	free(mp);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Without metadata: the clock levels are those the recording visited. */
void replay_board_levels(struct replay_table *r, size_t from, size_t to)
{
	int slot = -1;
	for (int i = 0; i < r->n_cols; i++)
		if (r->cols[i].kind == CK_GPU_FREQ)
			slot = r->cols[i].slot;
	struct dvf_info *in = &r->info;
	if (slot < 0)
		return;
	for (size_t k = from; k < to; k++) {
		double v = replay_table_val(r, k, slot);
		if (!(v > 0 && v < 1e9))
			continue;   /* n/a, or no clock (MHz) any GPU has */
		int64_t hz = llround(v * 1e6);
		if (sample_level_index(in, hz) >= 0)
			continue;
		if (in->n_levels >= DVF_MAX_LEVELS)
			break;
		in->level_hz[in->n_levels++] = hz;
		qsort(in->level_hz, (size_t)in->n_levels, sizeof in->level_hz[0], cmp_i64);
	}
}

enum dvf_board replay_board_guess(const char *name)
{
	if (strstr(name, "AGX Orin"))
		return DVF_BOARD_AGX_ORIN;
	if (strstr(name, "Orin NX") || strstr(name, "Orin Nano"))
		return DVF_BOARD_ORIN_NX;
	return DVF_BOARD_UNKNOWN;
}

/* The median step between rows: the recording's sampling interval, robust
 * to the odd gap. */
int64_t replay_board_median_step(const struct replay_table *r, int64_t fallback)
{
	if (r->n_rows < 2)
		return fallback;
	int64_t *d = malloc((r->n_rows - 1) * sizeof *d);
	if (!d)
		return fallback;
	size_t n = 0;
	for (size_t k = 1; k < r->n_rows; k++)
		if (r->rows[k].t_ns > r->rows[k - 1].t_ns)
			d[n++] = r->rows[k].t_ns - r->rows[k - 1].t_ns;
	int64_t m = fallback;
	if (n) {
		qsort(d, n, sizeof *d, cmp_i64);
		m = d[n / 2];
	}
	free(d);
	return m;
}
