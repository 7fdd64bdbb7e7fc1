/* govern_priv: what the governor's own files share (govern.c, the state
 * machine; govern_profile.c, its profile; govern_win.c, its windows;
 * govern_saved.c, the energy saved).
 * Not for other modules: govern.h is the interface. */
#ifndef DVF_GOVERN_PRIV_H
#define DVF_GOVERN_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "govern.h"

/* ---- the state machine's own (govern.c) ---- */
/* A decision, said: the log's newest line. */
void govern_say(struct govern *g, int64_t now, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A level as text ("714 MHz"; "the user's clocks" for -1). */
void govern_mhz(const struct govern *g, int lvl, char *buf, size_t len);
/* Change the wanted level; a window opens once it has settled. */
void govern_want(struct govern *g, int lvl, int64_t now);
/* Hold level lvl, or (user) the user's level held (lvl that level, or -1). */
void govern_to_hold(struct govern *g, int lvl, bool user, int64_t now, const struct dvf_sample *s);

/* ---- the profile (govern_profile.c) ---- */
/* Start a profile: the whole table, from the policy's level or the held one. */
void govern_profile_start(struct govern *g, int64_t now, const struct dvf_sample *s);

/* A sample of the profile: its windows, a change of the job under it, the choice. */
void govern_profile_feed(struct govern *g, const struct dvf_sample *s, const struct energy *e);

/* ---- the hold's probes (govern_probe.c) ---- */
/* The held level's window after a probe's: the pair done, the side
 * decided where it can be.  True when the hold moved to that side. */
bool govern_probe_paired(struct govern *g, double wj, double ws, const struct dvf_sample *s);
/* After a held window: the next probe, while a side is undecided. */
void govern_probe_next(struct govern *g, int64_t now);
/* The user's clocks held: probe level lvl, the profile's cheapest, on its side. */
void govern_probe_aim(struct govern *g, int lvl);
/* After a profile: where it did not read the table's lowest level, the
 * hold probes it too, once the side below is decided. */
void govern_probe_far(struct govern *g);
/* A new hold's probe distances: 1, on a dense table from the profile's slope. */
void govern_probe_reach(struct govern *g);
/* Arm both sides' probes at probe_dist from the held level; none where off. */
void govern_probe_arm(struct govern *g, bool off);
/* A sample of the lowest level's window: true where it is cut short,
 * decided dearer (the held level asked back). */
bool govern_probe_far_cut(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped);
/* The hold's reference windows are in (their medians j J/step, t s/step):
 * where the held level was the profile's choice, the saving takes its
 * figures from them (govern_saved.c). */
void govern_saved_reanchor(struct govern *g, double j, double t);
/* Steps of the hold's window now: a far probe's are a profile's. */
int64_t govern_probe_window(const struct govern *g);

/* ---- windows (govern_win.c) ---- */
/* The energy and time at the last step boundary (between the previous
 * sample and this one, at the step's own time where it is known). */
void govern_win_edge(const struct govern *g, const struct dvf_sample *s, const struct energy *e, struct energy *at,
		     int64_t *t);
/* Open g's window at this sample's step boundary, steps done so far. */
void govern_win_start(struct govern *g, const struct dvf_sample *s, const struct energy *e, int64_t steps);
/* A step boundary inside the open window: one more entry of its steps. */
void govern_win_step(struct govern *g, const struct dvf_sample *s, const struct energy *e, bool stepped);
/* The open window's figure once it holds n steps or more (false before). */
bool govern_win_fig(const struct govern *g, const struct dvf_sample *s, const struct energy *e, int64_t n,
		    struct govern_fig *f);
/* A sample inside the window: its load and the clock it ran at. */
void govern_win_add(struct govern_win *w, const struct dvf_sample *s);

/* The relative standard error of windows' J/step from their steps (the
 * per-step spread of those that are not stalls); 1 where it cannot be told. */
double govern_win_se(const struct govern_fig *f, int n);
/* The windows' sub-windows (J/step, s/step, steps) into j, t, k (room for
 * GOVERN_BASE_MAX * GOVERN_SUBS); their count, -1 where a window's edges
 * are on samples (coarse: no sub-window to trust). */
int govern_win_subs(const struct govern_fig *f, int n, double *j, double *t, int *k);
/* The median of GOVERN_REF_WINDOWS values. */
double govern_win_med4(const double *v);
/* Four windows' figures in order: +1 or -1 where the later two lie beyond
 * the earlier two the same way and their pairs' means differ (*gap, of
 * the earlier) by more than the change threshold of the pairs' own
 * spread (*thr); else 0. */
int govern_win_split4(const double *v, double change_min, double *gap, double *thr);

/* ---- the energy saved (govern_saved.c) ---- */
/* The baseline from its windows at the user's clocks (this phase): its
 * J/step and s/step with the stalls left out, and the level the clocks
 * stayed at (-1 where they moved). */
void govern_saved_base(struct govern *g, const struct govern_fig *f, int n);
/* The baseline's J/step over the held level's (where no power model). */
double govern_saved_ratio(const struct govern *g);
/* A baseline carried over a change of the job, scaled as the level held
 * before moved in this profile (est: its estimates). */
void govern_saved_carry(struct govern *g, const struct sweep_est *est);
/* A window's steps (raw: f as measured) and its stall-free J/step (clean):
 * what stalls cost a step, for the steps counted at the baseline's
 * stall-free J/step. */
void govern_saved_stalls(struct govern *g, const struct govern_fig *f, double clean);
/* Count the steps since the last boundary against the baseline. */
void govern_saved_count(struct govern *g, const struct dvf_sample *s, const struct energy *e);

#endif
