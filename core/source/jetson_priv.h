/* jetson_priv.h: what the pieces of the jetson source share (jetson.c
 * the source ops, jetson_path.c paths inside the root, jetson_discover.c
 * finding the files, jetson_msg.c what is told about them, jetson_ctl.c
 * the clock writes).  Private to core/source/jetson*.c. */
#ifndef DVF_JETSON_PRIV_H
#define DVF_JETSON_PRIV_H

#include "timebase.h"
#include "io.h"
#include "procfs.h"
#include "source_ops.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	J_PATH = PATH_MAX,
	J_MAX_LIST = 128,     /* entries looked at in one folder */
	J_MAX_CHIPS = 8,      /* INA3221 chips */
	J_CONF_MAX = 256 * 1024,
	/* available_frequencies is read whole; a real table is ~120 bytes, 64
	 * levels of 10 digits ~700: past this it is no clock table */
	J_LEVELS_MAX = 64 * 1024,
	J_MAX_NOTES = 64,     /* files refused at open, told once each */
	/* the board's other files (jetson_sys.c): meminfo, EMC clock and
	 * activity, fan PWM and tachometer, nvmap's clients and maps */
	J_SYS_FILES = 7,
	/* per-sample files: 5 GPU, 2 per rail, the clusters, /proc/stat, zones,
	 * the board's others */
	J_MAX_WATCHED = 5 + 2 * DVF_MAX_RAILS + DVF_MAX_CLUSTERS + 1 + DVF_MAX_ZONES + J_SYS_FILES,
	J_STAT_MAX = 8192,    /* /proc/stat's whole lines read (the cpu lines come first) */
	J_NVMAP_MAX = 64 * 1024,
};

/* Seldom telemetry.  Only the GPU clock, its load and the rails (energy)
 * need every sample; the rest moves slowly or cannot be resolved faster:
 * temperatures move over seconds, /proc/stat counts in 10 ms ticks (so CPU
 * utilisation over one 10 ms sample is 0 or 100 %), CPU clocks follow
 * their governor's rate limit, and governor/min_freq/max_freq change only
 * when someone writes them (our own writes renew them at once).  Those 16
 * of the 26 files are read about every 100 ms (of the session's clock) and
 * the last reading repeated in between.  A reading older than 90 ms is
 * renewed, so wake-up jitter never makes a 10 Hz sampler skip one.
 * bench/sampling.sh measures what this saves. */
#define J_SELDOM_NS (90 * DVF_NS_PER_MS)

static const char *const gpu_names[] = { "ga10b", "gv11b", "gp10b", "gb10b", "gm20b", "gpu", NULL };

struct jrail {
	struct io_file mv;    /* in{N}_input, mV */
	struct io_file ma;    /* curr{N}_input, mA */
};

struct source {
	struct dvf_info info;
	char prefix[J_PATH];  /* real path of the root; "" when the root is "/" */
	char node[J_PATH];    /* devfreq node, real path */
	char gpudev[J_PATH];  /* GPU device folder, real path */
	char ctl_buf[J_PATH];
	struct io_file cur, min, max, gov, load;
	struct jrail rail[DVF_MAX_RAILS];
	bool total_ok;
	struct io_file cpu[DVF_MAX_CLUSTERS];
	struct io_file stat;
	bool have_prev;
	int64_t prev_busy, prev_total;
	struct io_file zone[DVF_MAX_ZONES];
	struct procfs_cores cores;  /* per-core /proc/stat counters */
	/* jetson_sys.c: memory, EMC, fan, GPU processes (in sys_file order) */
	struct io_file meminfo, emc_rate, emc_act, pwm, rpm, nvmap, nvmap_maps;
	int64_t nvmap_t;      /* when nvmap was last read (it is read once a second) */
	bool nvmap_read;
	struct dvf_sample seldom;  /* the seldom telemetry's last reading */
	bool seldom_read;     /* seldom holds a reading taken at seldom_t */
	int64_t seldom_t;
	struct dvf_timebase *clock;  /* NULL: read everything every sample */
	uint64_t seq;
	/* What the user was last told about each watched file (jetson_msg_next). */
	struct slow_seen {
		bool slow;
		uint32_t slow_reads;
	} seen[J_MAX_WATCHED];
	uint32_t slow_changes;
	/* the board's other files by index (jetson_sys_file), for the slow-read
	 * messages; NULL for the GPU alone (dvfstopd links no sampling) */
	struct io_file *(*sys_file)(struct source *s, int i, const char **what);  /* io_slow_changes() when nothing was left to say */
	/* Files refused or unusable at open (a link, too long), each said once
	 * by jetson_msg_next before anything else. */
	struct note {
		char what[DVF_NAME_LEN + 16];
		char path[64];     /* the last two components */
		const char *why;   /* a static string */
		bool said;
	} note[J_MAX_NOTES];
	int n_notes;
};

/* ---- jetson.c: the GPU alone (source_jetson_gpu) ---------------------- */

int jetson_probe(const struct source_cfg *cfg);
/* The GPU's devfreq node, its clock table and files, the board's name:
 * all dvfstopd needs.  NULL with err set. */
struct source *jetson_open_gpu(const struct source_cfg *cfg, char *err, size_t errlen);
void jetson_close_gpu(struct source *s);
const struct dvf_info *jetson_info(struct source *s);
/* A number read whole within [lo, hi], else n/a. */
struct dvf_m jetson_read_m(struct io_file *f, int64_t lo, int64_t hi);

/* ---- jetson_path.c: paths, always inside the root ---------------------- */

/* One folder entry found by jetson_path_list. */
struct dent {
	char name[NAME_MAX + 1];
	long num;
};

void jetson_path_copy_name(char *dst, size_t len, const char *src);
int jetson_path_join(char *out, size_t len, const char *a, const char *b);
int jetson_path_join3(char *out, size_t len, const char *a, const char *b, const char *c);
int jetson_path_resolve(const char *prefix, const char *path, char *out);
int jetson_path_root(const char *root, char *prefix);
int jetson_path_list(const char *dir, const char *prefix, struct dent *out, int max);
const char *jetson_path_short(const char *path);

/* ---- jetson_discover.c: finding the files at open ----------------------- */

extern const char jetson_discover_gpu_hint[];
int jetson_discover_gpu_in(const char *prefix, char *node, char *dev);
void jetson_discover_open_in(struct source *s, struct io_file *f, const char *dir, const char *file,
			     const char *what);
void jetson_discover_levels(struct source *s);
void jetson_discover_rails(struct source *s);
void jetson_discover_cpus(struct source *s);
void jetson_discover_zones(struct source *s);
void jetson_discover_board(struct source *s);

/* ---- jetson_msg.c: files refused at open, slow reads -------------------- */

void jetson_msg_note(struct source *s, const char *what, const char *path, const char *why);
void jetson_msg_note_refused(struct source *s, const char *what, const char *path, int err);
int jetson_msg_next(struct source *s, char *buf, size_t len);

/* ---- jetson_sys.c: memory, EMC, fan, per-core load, GPU processes ------- */

void jetson_sys_discover(struct source *s);
/* Read them into w (the seldom telemetry); now is the session clock. */
void jetson_sys_sample(struct source *s, struct dvf_sample *w, int64_t now);
/* The i-th of the J_SYS_FILES files and what it measures. */
struct io_file *jetson_sys_file(struct source *s, int i, const char **what);
void jetson_sys_close(struct source *s);

/* ---- jetson_ctl.c: the GPU clock limits ---------------------------------- */

const char *jetson_ctl_path(struct source *s, const char *file);
int jetson_ctl_read(struct source *s, struct ctl_state *st);
int jetson_ctl_write(struct source *s, const struct ctl_state *st);

#endif
