/* player: a recording played through the session: pause, speed and seek.
 *
 * A session plays a recording when its source has a time line (the source's
 * .timeline op).  Pause and speed are the session clock's (timebase_pause,
 * timebase_set_speed); a seek moves the source (.seek) and plays the rows up to
 * the target through session_sample, the one pipeline live sampling uses, so
 * energy, history, the fine-tune's figures, Prometheus and messages come out
 * as playing straight through does. */
#ifndef DVF_PLAYER_H
#define DVF_PLAYER_H

#include <stdbool.h>

struct session;

/* Does the session play a recording? */
bool player_active(const struct session *s);

/* All return 0, or -1 when the session is not a replay (or, for a seek,
 * while recording: a seek would break the new recording's time line; the
 * message says so). */
/* speed: N x the recording's pace; 0 = as fast as possible. */
int player_set_speed(struct session *s, double speed);
double player_speed(const struct session *s);
int player_set_paused(struct session *s, bool paused);
bool player_paused(const struct session *s);
/* Move delta_s seconds of recording time forwards or backwards (clamped to
 * the recording).  The next sample is the first row at or after the target;
 * a seek backwards starts the session's model over from the first row. */
int player_seek(struct session *s, double delta_s);
/* Where playback is and how long the recording is, in seconds from its
 * first row.  False when the session is not a replay. */
bool player_position(const struct session *s, double *pos_s, double *len_s);
/* Has playback passed the last row? */
bool player_ended(const struct session *s);

#endif
