#include "config.h"
#include "recorder.h"
#include "timebase.h"
#include "io_user.h"

#include <csv.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { REC_BUF = 64 * 1024, REC_FLUSH_BYTES = 24 * 1024 };

struct recorder {
	FILE *fp;
	char *path;
	struct dvf_info info;
	uint64_t rows;
	uint64_t good_rows;        /* rows in the file after the last flush that worked */
	dev_t dev;                 /* the file we made: a deleted or replaced one is not "saved" */
	ino_t ino;
	int failed;
	int64_t last_flush_ns;     /* real monotonic time of the last flush */
	long good_end;             /* file size after the last flush that worked */
	char *buf;                 /* stdio buffer, larger than what we let pile up */
	char event[512];
	char *summary_json;
	time_t started;
	int64_t t0_ns;             /* the session time of the first row: time_s 0 */
};

/* Each GPU's columns (several GPUs: NVML), "gpu<N>_" and these; a
 * recording of one GPU has none (its readings are the node's). */
static const char *const gpu_cols[] = {
	"freq_mhz", "util_pct", "power_mw", "mem_used_mib", "mem_total_mib", "temp_c", "counter_j",
};
enum { N_GPU_COLS = sizeof gpu_cols / sizeof gpu_cols[0] };

static int rec_gpus(const struct dvf_info *in)
{
	return in->n_gpus > 1 ? (in->n_gpus < DVF_MAX_GPUS ? in->n_gpus : DVF_MAX_GPUS) : 0;
}

/* Column names: units are part of the name; rails and zones by their labels. */
static void header_fields(const struct dvf_info *in, void (*emit)(void *ctx, const char *name), void *ctx)
{
	static const char *const fixed[] = {
		"time_s", "unix_time_s", "gpu_freq_mhz", "gpu_min_mhz", "gpu_max_mhz",
		"gpu_util_pct", "gpu_governor",
	};
	char name[96];
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		emit(ctx, fixed[i]);
	for (int i = 0; i < in->n_rails; i++) {
		snprintf(name, sizeof name, "%s_mv", in->rail_name[i]);
		emit(ctx, name);
		snprintf(name, sizeof name, "%s_ma", in->rail_name[i]);
		emit(ctx, name);
		snprintf(name, sizeof name, "%s_mw", in->rail_name[i]);
		emit(ctx, name);
	}
	emit(ctx, "total_mw");
	for (int i = 0; i < in->n_rails; i++) {
		snprintf(name, sizeof name, "%s_energy_j", in->rail_name[i]);
		emit(ctx, name);
	}
	emit(ctx, "total_energy_j");
	emit(ctx, "cpu_util_pct");
	for (int i = 0; i < in->n_clusters; i++) {
		snprintf(name, sizeof name, "cpu_%s_mhz", in->cluster_name[i]);
		emit(ctx, name);
	}
	for (int i = 0; i < in->n_zones; i++) {
		snprintf(name, sizeof name, "temp_%s_c", in->zone_name[i]);
		emit(ctx, name);
	}
	for (int i = 0; i < in->n_cores && i < DVF_MAX_CORES; i++) {
		snprintf(name, sizeof name, "cpu%d_util_pct", i);
		emit(ctx, name);
	}
	static const char *const board[] = {
		"ram_used_mb", "ram_total_mb", "swap_used_mb", "swap_total_mb",
		"emc_mhz", "emc_util_pct", "fan_pwm_pct", "fan_rpm", "gpu_procs", "gpu_procs_mem_mb",
	};
	for (size_t i = 0; i < sizeof board / sizeof board[0]; i++)
		emit(ctx, board[i]);
	for (int i = 0; i < rec_gpus(in); i++)
		for (int k = 0; k < N_GPU_COLS; k++) {
			snprintf(name, sizeof name, "gpu%d_%s", in->gpu_index[i], gpu_cols[k]);
			emit(ctx, name);
		}
	emit(ctx, "steps");
	emit(ctx, "tokens");
	emit(ctx, "event");
	/* added last, so a reader of the older columns finds them where they were */
	emit(ctx, "job_attributed_energy_j");
}

/* ---- writing fields ------------------------------------------------------ */

/* The GPU memory of the processes kept (the largest few), kB; n/a where
 * the processes are, or where the driver does not say their memory. */
static struct dvf_m recorder_procs_mem_kb(const struct dvf_sample *s)
{
	if (!s->gpu_procs.ok)
		return dvf_m_na();
	int64_t kb = 0;
	for (int i = 0; i < DVF_MAX_GPU_PROCS && i < s->gpu_procs.v; i++) {
		/* no list (a recording's count) or a memory the driver did not say */
		if (s->gpu_proc[i].pid <= 0 || s->gpu_proc[i].mem_kb < 0)
			return dvf_m_na();
		kb += s->gpu_proc[i].mem_kb;
	}
	return dvf_m_val(kb);
}

struct row {
	FILE *fp;
	bool first;
};

static void put(struct row *r, const char *text)
{
	if (!r->first)
		fputc(',', r->fp);
	r->first = false;
	csv_fwrite(r->fp, text, strlen(text));
}

/* An empty, unquoted field: the CSV spelling of n/a. */
static void put_na(struct row *r)
{
	if (!r->first)
		fputc(',', r->fp);
	r->first = false;
}

static void put_num(struct row *r, int decimals, double v)
{
	char b[64];
	snprintf(b, sizeof b, "%.*f", decimals, v);
	if (!r->first)
		fputc(',', r->fp);
	r->first = false;
	fputs(b, r->fp);
}

static void put_m(struct row *r, struct dvf_m m, double scale, int decimals)
{
	if (m.ok)
		put_num(r, decimals, (double)m.v * scale);
	else
		put_na(r);
}

static void hdr_write(void *ctx, const char *name)
{
	put(ctx, name);
}

/* Open path for the CSV, never through a symbolic link nor to a FIFO or a
 * device (a recording often goes to the current folder, which others may
 * write: io_user.h).  fresh: a default name, made new: NAME-1.csv,
 * NAME-2.csv... when it is taken.  Returns an fd and the name used in
 * *used (malloc'd), or -errno with *why. */
static int rec_create(const char *path, bool fresh, char **used, struct io_user_why *why)
{
	size_t l = strlen(path), cap = l + 16;
	size_t stem = l > 4 && strcmp(path + l - 4, ".csv") == 0 ? l - 4 : l;
	char *name = malloc(cap);
	if (!name)
		return -ENOMEM;
	for (int n = 0; n < 100; n++) {
		if (n)
			snprintf(name, cap, "%.*s-%d%s", (int)stem, path, n, path + stem);
		else
			snprintf(name, cap, "%s", path);
		int fd = io_user_open_write(name, fresh ? IO_USER_NEW : IO_USER_TRUNC, 0644, why);
		if (fd >= 0) {
			*used = name;
			return fd;
		}
		if (!fresh || errno != EEXIST)
			break;
	}
	int e = errno;
	free(name);
	return -e;
}

static struct recorder *rec_open(const char *path, bool fresh, const struct dvf_info *info, char *err,
				 size_t errlen)
{
	struct recorder *r = calloc(1, sizeof *r);
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	struct stat st;
	struct io_user_why why;
	char b[256];
	int fd = rec_create(path, fresh, &r->path, &why);
	if (fd < 0)
		snprintf(err, errlen, "cannot record to %s: %s", path, io_user_strerror(-fd, &why, b, sizeof b));
	if (fd >= 0 && fstat(fd, &st) == 0) {
		r->dev = st.st_dev;
		r->ino = st.st_ino;
	}
	if (fd < 0 || !(r->fp = fdopen(fd, "w"))) {
		if (fd >= 0) {
			snprintf(err, errlen, "cannot record to %s: %s", path, strerror(errno));
			close(fd);
		}
		free(r->path);
		free(r);
		return NULL;
	}
	/* Rows leave only at row boundaries (see recorder_write), so a write
	 * error can be cut back to a whole row: the buffer is twice the most we
	 * let pile up, and stdio never flushes on its own. */
	r->buf = malloc(REC_BUF);
	if (r->buf)
		setvbuf(r->fp, r->buf, _IOFBF, REC_BUF);
	r->info = *info;
	r->started = time(NULL);
	r->last_flush_ns = timebase_mono_ns();
	struct row row = { r->fp, true };
	header_fields(info, hdr_write, &row);
	fputs("\r\n", r->fp);
	r->good_end = ftell(r->fp);
	if (fflush(r->fp) != 0) {
		snprintf(err, errlen, "cannot record to %s: %s", r->path, strerror(errno));
		fclose(r->fp);
		free(r->buf);
		free(r->path);
		free(r);
		return NULL;
	}
	return r;
}

struct recorder *recorder_open(const char *path, const struct dvf_info *info, char *err, size_t errlen)
{
	return rec_open(path, false, info, err, errlen);
}

struct recorder *recorder_open_new(const char *path, const struct dvf_info *info, char *err, size_t errlen)
{
	return rec_open(path, true, info, err, errlen);
}

const char *recorder_strerror(int err)
{
	if (err == RECORDER_GONE)
		return "the file was deleted or replaced while it was written; nothing saved";
	if (err == RECORDER_MOVED)
		return "the file was renamed or moved while it was written";
	return strerror(err);
}

void recorder_event(struct recorder *r, const char *text)
{
	size_t used = strlen(r->event);
	snprintf(r->event + used, sizeof r->event - used, "%s%s", used ? "; " : "", text);
}

bool recorder_event_pending(const struct recorder *r)
{
	return r->event[0] != '\0';
}

int recorder_write(struct recorder *r, const struct dvf_sample *s, const struct energy *e, int64_t t_rel_ns)
{
	if (r->failed)
		return r->failed;
	struct row row = { r->fp, true };
	/* A recording started mid-session still starts at 0. */
	if (r->rows == 0)
		r->t0_ns = t_rel_ns;
	put_num(&row, 3, (double)(t_rel_ns - r->t0_ns) * 1e-9);
	put_m(&row, s->unix_ns, 1e-9, 3);
	put_m(&row, s->gpu_freq_hz, 1e-6, 1);
	put_m(&row, s->gpu_min_hz, 1e-6, 1);
	put_m(&row, s->gpu_max_hz, 1e-6, 1);
	put_m(&row, s->gpu_load_pm, 0.1, 1);
	if (s->gpu_governor[0])
		put(&row, s->gpu_governor);
	else
		put_na(&row);
	for (int i = 0; i < r->info.n_rails; i++) {
		put_m(&row, s->rail[i].mv, 1, 0);
		put_m(&row, s->rail[i].ma, 1, 0);
		put_m(&row, s->rail[i].mw, 1, 0);
	}
	put_m(&row, s->total_mw, 1, 0);
	for (int i = 0; i < r->info.n_rails; i++)
		put_num(&row, 4, e->ch[i].mj * 1e-3);
	put_num(&row, 4, e->ch[ENERGY_TOTAL].mj * 1e-3);
	put_m(&row, s->cpu_util_pm, 0.1, 1);
	for (int i = 0; i < r->info.n_clusters; i++)
		put_m(&row, s->cpu_khz[i], 1e-3, 1);
	for (int i = 0; i < r->info.n_zones; i++)
		put_m(&row, s->temp_mc[i], 1e-3, 3);
	for (int i = 0; i < r->info.n_cores && i < DVF_MAX_CORES; i++)
		put_m(&row, s->core_util_pm[i], 0.1, 1);
	put_m(&row, s->ram_used_kb, 1.0 / 1024, 1);
	put_m(&row, s->ram_total_kb, 1.0 / 1024, 1);
	put_m(&row, s->swap_used_kb, 1.0 / 1024, 1);
	put_m(&row, s->swap_total_kb, 1.0 / 1024, 1);
	put_m(&row, s->emc_hz, 1e-6, 1);
	put_m(&row, s->emc_load_pm, 0.1, 1);
	put_m(&row, s->fan_pwm, 100.0 / 255, 1);
	put_m(&row, s->fan_rpm, 1, 0);
	put_m(&row, s->gpu_procs, 1, 0);
	put_m(&row, recorder_procs_mem_kb(s), 1.0 / 1024, 1);
	for (int i = 0; i < rec_gpus(&r->info); i++) {
		const struct dvf_gpu_sample *g = &s->gpu[i];
		put_m(&row, g->freq_hz, 1e-6, 1);
		put_m(&row, g->load_pm, 0.1, 1);
		put_m(&row, g->mw, 1, 0);
		put_m(&row, g->mem_used_b, 1.0 / (1 << 20), 0);
		put_m(&row, g->mem_total_b, 1.0 / (1 << 20), 0);
		put_m(&row, g->temp_mc, 1e-3, 3);
		put_m(&row, g->energy_mj, 1e-3, 3);
	}
	put_m(&row, s->steps, 1, 0);
	put_m(&row, s->tokens, 1, 0);
	if (r->event[0])
		put(&row, r->event);
	else
		put_na(&row);
	r->event[0] = '\0';
	put_m(&row, s->job_attr_mj, 1e-3, 3);   /* an attribution: docs/attribution.md */
	fputs("\r\n", r->fp);
	r->rows++;

	int64_t now = timebase_mono_ns();
	/* Flush at least every second, and before the buffer could fill. */
	bool due = now - r->last_flush_ns >= DVF_NS_PER_S || ftell(r->fp) - r->good_end >= REC_FLUSH_BYTES;
	if (ferror(r->fp) || (due && fflush(r->fp) != 0)) {
		r->failed = errno ? errno : EIO;
		/* A full disk may have taken part of a row: cut back to the
		 * last flush that worked, so the file ends with a whole row,
		 * and count only the rows it holds. */
		if (r->good_end > 0 && ftruncate(fileno(r->fp), (off_t)r->good_end) == 0)
			clearerr(r->fp);
		r->rows = r->good_rows;
		return r->failed;
	}
	if (due) {
		r->last_flush_ns = now;
		r->good_end = ftell(r->fp);
		r->good_rows = r->rows;
	}
	return 0;
}

uint64_t recorder_rows(const struct recorder *r) { return r->rows; }
const char *recorder_path(const struct recorder *r) { return r->path; }

void recorder_meta_summary(struct recorder *r, const char *json_text)
{
	free(r->summary_json);
	r->summary_json = json_text ? strdup(json_text) : NULL;
}

/* The sidecar goes in whole or not at all, and never through a link
 * planted at its name: a new temporary file beside it, renamed over it. */
static int meta_put(const char *mp, json_object *o)
{
	size_t n = strlen(mp) + 8;
	char *tmp = malloc(n);
	if (!tmp)
		return ENOMEM;
	snprintf(tmp, n, "%s.XXXXXX", mp);
	int err = 0;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		if (fchmod(fd, 0644) != 0 || json_object_to_fd(fd, o, JSON_C_TO_STRING_PRETTY) != 0)
			err = errno ? errno : EIO;
		if (close(fd) != 0 && !err)
			err = errno;
		if (!err && rename(tmp, mp) != 0)
			err = errno;
		if (err)
			unlink(tmp); /* no half-written metadata: replay does without */
	}
	free(tmp);
	return err;
}

static int write_meta(struct recorder *r)
{
	size_t n = strlen(r->path) + 16;
	char *mp = malloc(n);
	if (!mp)
		return ENOMEM;
	snprintf(mp, n, "%s.meta.json", r->path);
	const struct dvf_info *in = &r->info;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "format", json_object_new_string("dvfstop-session 1"));
	json_object_object_add(o, "version", json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(o, "started_unix_s", json_object_new_int64((int64_t)r->started));
	json_object_object_add(o, "source", json_object_new_string(in->source));
	json_object_object_add(o, "mode", json_object_new_string(in->mode));
	json_object_object_add(o, "board", json_object_new_string(in->board_name));
	json_object_object_add(o, "l4t", json_object_new_string(in->l4t));
	json_object_object_add(o, "power_mode", json_object_new_string(in->power_mode));
	json_object *lv = json_object_new_array();
	for (int i = 0; i < in->n_levels; i++)
		json_object_array_add(lv, json_object_new_int64(in->level_hz[i]));
	json_object_object_add(o, "gpu_levels_hz", lv);
	json_object *rails = json_object_new_array();
	for (int i = 0; i < in->n_rails; i++) {
		json_object *ro = json_object_new_object();
		json_object_object_add(ro, "name", json_object_new_string(in->rail_name[i]));
		json_object_object_add(ro, "in_total", json_object_new_boolean(in->rail_in_total[i]));
		json_object_array_add(rails, ro);
	}
	json_object_object_add(o, "rails", rails);
	json_object_object_add(o, "total_rule", json_object_new_string(in->total_rule));
	json_object_object_add(o, "rows", json_object_new_int64((int64_t)r->rows));
	if (r->summary_json) {
		json_object *sj = json_tokener_parse(r->summary_json);
		if (sj)
			json_object_object_add(o, "summary", sj);
	}
	int err = meta_put(mp, o);
	json_object_put(o);
	free(mp);
	return err;
}

/* Where the file we made is now (someone may have deleted, replaced or
 * renamed it while we wrote): 0 still at its name; RECORDER_GONE it has no
 * name left (deleted, or another file renamed over it), its data goes
 * when we close it; RECORDER_MOVED it has another name, which the kernel
 * keeps for the open descriptor: into moved when that name is still this
 * file ("" when it cannot be told). */
static int rec_where(const struct recorder *r, char *moved, size_t len)
{
	struct stat st, now;
	if (len)
		moved[0] = '\0';
	if (fstat(fileno(r->fp), &st) != 0 || st.st_nlink == 0)
		return RECORDER_GONE;
	if (lstat(r->path, &now) == 0 && now.st_dev == r->dev && now.st_ino == r->ino)
		return 0;
	char fdp[64], name[PATH_MAX];
	snprintf(fdp, sizeof fdp, "/proc/self/fd/%d", fileno(r->fp));
	ssize_t n = readlink(fdp, name, sizeof name - 1);
	if (n > 0 && len) {
		name[n] = '\0';
		if (name[0] == '/' && lstat(name, &now) == 0 && S_ISREG(now.st_mode) && now.st_dev == r->dev &&
		    now.st_ino == r->ino && (size_t)n < len)
			memcpy(moved, name, (size_t)n + 1);
	}
	return RECORDER_MOVED;
}

int recorder_close(struct recorder *r)
{
	return recorder_close_at(r, NULL, 0);
}

int recorder_close_at(struct recorder *r, char *moved, size_t len)
{
	if (!r)
		return 0;
	int err = r->failed;
	char here[PATH_MAX];
	int where = rec_where(r, here, sizeof here);
	if (moved && len)
		snprintf(moved, len, "%s", where == RECORDER_MOVED ? here : "");
	if (!err && fflush(r->fp) != 0)
		err = r->failed = errno ? errno : EIO;
	if (err) {
		/* What is still buffered cannot be written whole: drop it, and
		 * keep the file cut back to whole rows, counted as they are. */
		int fd = dup(fileno(r->fp));
		fclose(r->fp); /* may try to write the buffer and fail */
		if (fd >= 0) {
			if (r->good_end > 0 && ftruncate(fd, (off_t)r->good_end) != 0)
				err = errno;
			close(fd);
		}
		r->rows = r->good_rows;
	} else if (fclose(r->fp) != 0) {
		err = errno;
	}
	free(r->buf);
	if (where == RECORDER_GONE || (where == RECORDER_MOVED && !here[0])) {
		err = where;   /* a sidecar beside nothing (or another file) would mislead replay */
	} else if (where == RECORDER_MOVED) {
		/* the data is at its new name: the sidecar goes beside it */
		char *p = strdup(here);
		if (p) {
			free(r->path);
			r->path = p;
			write_meta(r);
		}
		err = RECORDER_MOVED;
	} else {
		int merr = write_meta(r);
		if (!err)
			err = merr;
	}
	free(r->summary_json);
	free(r->path);
	free(r);
	return err;
}
