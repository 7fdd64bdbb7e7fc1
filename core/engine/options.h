/* options: every setting of the monitor, from the command line and from the
 * config file ($XDG_CONFIG_HOME/dvfstop/config).  One table (options.c)
 * describes each option once: its long name (which is also its config key),
 * its argument, where it is stored and its help line. */
#ifndef DVF_OPTIONS_H
#define DVF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dvf_opts {
	/* mode */
	bool batch;
	bool demo;
	const char *source;        /* "auto" (default), "jetson", ... */
	const char *sysfs_root;    /* default "/" */
	const char *gpu;           /* NVML source: the GPUs, "all" (default), "N" or "N,M,..." */
	int64_t interval_ms;       /* sampling, default 100 */
	int64_t refresh_ms;        /* TUI redraw, default 500 */
	int64_t delay_ds;          /* -d/--delay: the redraw in tenths of a second (0: --refresh's) */
	double duration_s;         /* --batch: stop after; 0 = until Ctrl-C / job end */
	int64_t samples;           /* stop after this many samples; 0 = no limit */
	const char *record;        /* CSV path; NULL none */
	const char *summary_format;/* "text" (default) or "json" */
	const char *theme;
	bool readonly;
	bool no_mouse;             /* --no-mouse: the dashboard asks for no mouse events */
	const char *helper_socket; /* dvfstopd's socket (else $DVFSTOP_HELPER_SOCKET, else the default) */
	/* simulator */
	const char *demo_layout;   /* "jp6" (default) or "jp5" */
	const char *sim_model;
	int64_t sim_seq_len, sim_batch, sim_steps;
	const char *sim_phases;    /* --sim-phases: "none" (default), "auto" or a list (sim_phases.h) */
	const char *sim_power;     /* --sim-power: "reference" (default), "energyinfra"[,key=value...] */
	const char *sim_curve;     /* --sim-curve: a measured table's path; NULL none */
	int64_t seed;
	double noise;
	const char *sim_dir;
	double sim_speed;          /* 1 = real time; 0 = as fast as possible (default under --batch) */
	bool sim_speed_set;
	bool interval_set;         /* --interval given (a replay of an untimed log needs to know) */
	uint64_t cli_set;          /* bit i: option i of the table came from the command line */
	const char *origin[64];    /* option i's "FILE:LINE" when the config file set it last */
	/* replay and exporters */
	const char *replay;        /* session CSV or tegrastats log to play; NULL none */
	const char *prom_textfile; /* Prometheus textfile collector file; NULL none */
	const char *prom_listen;   /* [ADDR]:PORT to serve /metrics on; NULL none */
	const char *job_name;      /* --job-name: the fine-tune's job_name label; NULL: its command */
	/* workload and policy */
	const char *policy;
	const char *model;
	const char *model_config;
	int64_t seq_len;
	/* clock control */
	int64_t set_clock_mhz;     /* 0 none; whole MHz (1300 for 1300.5) */
	int64_t cap_mhz;           /* 0 none */
	const char *set_clock_arg; /* as given ("1300.5"): a decimal part names a level to its digits */
	const char *cap_arg;
	/* the governor */
	bool govern;               /* --govern: profile, hold and re-tune unattended */
	const char *select;        /* "energy" (default), "slowdown", "edp" */
	const char *max_slowdown_text; /* --max-slowdown PCT as given */
	double max_slowdown;       /* its fraction (0.10 for 10 %); 0 none */
	bool no_cache;             /* --no-cache: no profile cache (govern_cache.h) */
	const char *learn;         /* --learn FILE: each profile's levels appended as sweep CSV rows */
	/* the dashboard's sweep (s) */
	const char *sweep_mode;    /* "adaptive" (default) or "exhaustive" */
	const char *sweep_dwell;   /* "40steps", "10s", "500ms" */
	double sweep_settle_s;     /* default 2 */
	/* config file handling */
	const char *config;        /* explicit --config */
	bool no_config;
	/* the fine-tune */
	int64_t pid;               /* --pid: watch a running process */
	const char *progress;      /* --progress: read step lines from a file or FIFO */
	const char *log;           /* --log: the child's output (default dvfstop-CMD-TIME.log) */
	const char *log_dir;       /* --log-dir: the default log's folder (else $DVFSTOP_LOG_DIR, else .) */
	double stop_grace_s;       /* --stop-grace: a stop's SIGINT, SIGTERM, SIGKILL this far apart (default 10) */
	/* trailing command: dvfstop [options] -- CMD ARGS */
	char **cmd;
	int cmd_argc;
};

enum opt_result { OPT_OK = 0, OPT_EXIT_OK = 1, OPT_ERROR = 2 };

void options_defaults(struct dvf_opts *o);
/* Parse argv (argv[0] is the program).  Prints --help/--version itself
 * (OPT_EXIT_OK) and messages for bad input (OPT_ERROR). */
enum opt_result options_parse_argv(struct dvf_opts *o, int argc, char **argv);
/* Parse a config file: `key = value` lines, keys are long option names.
 * A `#` that begins a line or follows a blank begins a comment; a value in
 * double or single quotes is taken as written, a `#` in it too.  Unknown
 * keys (with the nearest key as a "did you mean") and bad values:
 * "FILE:LINE: ..." on stderr and OPT_ERROR.  A missing file is fine when
 * !must_exist. */
enum opt_result options_parse_file(struct dvf_opts *o, const char *path, bool must_exist);
/* Where the config file is: $XDG_CONFIG_HOME/dvfstop/config or
 * ~/.config/dvfstop/config.  False when neither can be formed. */
bool options_config_path(char *buf, size_t len);
/* The simulated board's speed without --sim-speed in a headless run
 * (--batch, dvfstop sweep): as fast as it can, except while /metrics is
 * served (--demo --prom-listen): real time then, said on stderr. */
void options_headless_speed(struct dvf_opts *o, const char *prog);
/* Load defaults, then the config file, then argv (argv wins). */
enum opt_result options_load(struct dvf_opts *o, int argc, char **argv);
/* Free strings the parser allocated. */
void options_free(struct dvf_opts *o);
void options_usage(FILE *fp);
/* Whether NAME (no dashes) is a long option: for the hint when one is
 * typed as a command ("dvfstop replay x.csv"). */
bool options_is_key(const char *name);
/* A value of KEY that the config file refuses (a file's name, a key of the
 * command line only): the config names no file (docs/security.md). */
bool options_names_file(const char *key, const char *val);
/* Whether the option KEY was given on the command line (not only in the
 * config file or by default). */
bool options_cli_set(const struct dvf_opts *o, const char *key);
/* A message about an option's value that begins "--KEY" ("--sim-power:
 * 'x' is not ..."): when the config file set that value, the same message
 * naming its line instead ("FILE:LINE: sim-power: 'x' is not ...") in buf;
 * else msg itself. */
const char *options_blame(const struct dvf_opts *o, const char *msg, char *buf, size_t len);


/* ---- the one option parser: the monitor's and every command's ----
 * A table of options (the monitor's is options_table(); each command's is
 * in commands.c), parsed into the options in the order given and the other
 * arguments.  One grammar for all: --name VALUE, --name=VALUE, a unique
 * prefix of a long option (--dwel), -x VALUE, -xVALUE, grouped flags,
 * -h/--help; an unknown option gets the nearest of the table's own as a
 * "did you mean", an ambiguous prefix the options it begins; messages
 * begin with PROG ("dvfstop", "dvfstop sweep") and point at PROG --help. */
struct opt_spec {
	const char *name;        /* long name, without dashes; NULL ends a table */
	char shortopt;           /* 0: none */
	bool takes_value;
	const char *value_name;  /* what the value is: "FILE" */
	const char *help;
};
struct opt_hit {
	int opt;                 /* index in the table */
	const char *val;         /* NULL for a flag */
};
struct opt_args {
	struct opt_hit *hit;     /* the options, in the order given */
	int n_hit;
	char **pos;              /* the other arguments, in order */
	int n_pos;
	bool help;               /* -h or --help was given */
	int cmd_at;              /* OPT_TAKE_COMMAND: argv index of the command after --; 0 none */
};
enum opt_parse_flags {
	/* No arguments but options; what follows -- is a command to run
	 * (cmd_at), taken whole.  Without it, what follows -- is arguments. */
	OPT_TAKE_COMMAND = 1,
};
/* Parse argv[1..] with TABLE (FLAGS: enum opt_parse_flags).  -h/--help:
 * OPT_EXIT_OK with help set.  OPT_ERROR after a message on stderr.  Free
 * with options_args_free. */
enum opt_result options_parse_table(const char *prog, const struct opt_spec *table, unsigned flags, int argc,
				    char **argv, struct opt_args *out);
void options_args_free(struct opt_args *a);
/* The options of TABLE, one a line, for a --help. */
void options_table_usage(FILE *fp, const struct opt_spec *t);
/* The monitor's options as a parser table (and --version, 'V', last). */
const struct opt_spec *options_table(void);
/* Defaults, the config file, then HIT (N hits, indices into
 * options_table(), as options_parse_table gave them) and the command to
 * run: options_load for a parse already made (dvfstop sweep parses its own
 * options and the monitor's in one table).  PROG prefixes the messages. */
enum opt_result options_load_hits(struct dvf_opts *o, const char *prog, const struct opt_hit *hit, int n,
				  char **cmd, int cmd_argc);
/* The one wording of a refused option.  PROG: "dvfstop" or "dvfstop CMD".
 * A long option's NAME that is unknown gets the nearest of CANDIDATES
 * (n of them) as a "did you mean". */
void options_say_missing(const char *prog, const char *name, const char *value_name);
void options_say_no_value(const char *prog, const char *name);
void options_say_unknown(const char *prog, const char *arg, const char *const *candidates, int n);
/* The candidate nearest the first LEN bytes of WORD (a typo of it, or a
 * word it begins), NULL when none is near: the "did you mean". */
const char *options_nearest(const char *word, size_t len, const char *const *candidates, int n);

/* options_check.c: the options taken together, after the config file and
 * the command line. */
/* PROG prefixes the messages ("dvfstop", "dvfstop sweep"). */
enum opt_result options_check(struct dvf_opts *o, const char *prog);

/* --set-clock and --cap given with a decimal part (README's 1300.5): the
 * level of the board's table (IN) that the value names to the digits given
 * (114.8 is the 114.75 MHz level, 1300.5 the 1300.5 MHz one); a value no
 * level rounds to is refused, naming the nearest levels.  A whole number
 * is the level of that whole MHz (control_level_mhz).  0, or -1 with the
 * message in err. */
struct dvf_info;
int options_check_clock(const struct dvf_opts *o, const struct dvf_info *in, char *err, size_t len);

/* The options follow a real process: -- CMD, --pid or --progress. */
bool options_follows_process(const struct dvf_opts *o);
/* Why a run on the simulated board that follows a real process rehearses
 * (session_rehearsal). */
#define OPTIONS_REHEARSAL_WHY "the simulated board's clock does not drive the real job's steps"

#endif
