#include "config.h"
#include "admit.h"

enum admit_verdict admit_decide(const struct admit_slot *s, int n, uid_t uid, int64_t now, int *slot,
				uid_t *top_uid, int *top_n)
{
	int used = 0, mine = 0, free_at = -1, idle_at = -1;
	for (int i = 0; i < n; i++) {
		if (!s[i].used) {
			if (free_at < 0)
				free_at = i;
			continue;
		}
		used++;
		mine += s[i].uid == uid;
		bool idle = !s[i].holds && !s[i].mid_line && now - s[i].last_ms >= ADMIT_IDLE_MS;
		if (idle && (idle_at < 0 || s[i].last_ms < s[idle_at].last_ms))
			idle_at = i;
	}
	if (uid != 0 && mine >= ADMIT_PER_UID) {
		*top_uid = uid;
		*top_n = mine;
		return ADMIT_USER_FULL;
	}
	/* the last slot is root's: others may use n - 1 */
	bool room = free_at >= 0 && (uid == 0 || used < n - 1);
	if (room) {
		*slot = free_at;
		return ADMIT_FREE;
	}
	if (idle_at >= 0) {
		*slot = idle_at;
		return ADMIT_EVICT;
	}
	/* who holds the most, for the message */
	*top_n = 0;
	*top_uid = 0;
	for (int i = 0; i < n; i++) {
		if (!s[i].used)
			continue;
		int k = 0;
		for (int j = 0; j < n; j++)
			k += s[j].used && s[j].uid == s[i].uid;
		if (k > *top_n) {
			*top_n = k;
			*top_uid = s[i].uid;
		}
	}
	return ADMIT_FULL;
}

void admit_bucket_init(struct admit_bucket *b, int burst, int64_t now)
{
	b->milli = (int64_t)burst * 1000;
	b->t_ms = now;
}

bool admit_bucket_ready(struct admit_bucket *b, int rate, int burst, int64_t now, int64_t *wait_ms)
{
	if (now > b->t_ms) {
		b->milli += (now - b->t_ms) * rate;
		if (b->milli > (int64_t)burst * 1000)
			b->milli = (int64_t)burst * 1000;
		b->t_ms = now;
	}
	if (b->milli >= 1000) {
		*wait_ms = 0;
		return true;
	}
	/* thousandths missing / (rate thousandths a ms), rounded up */
	*wait_ms = (1000 - b->milli + rate - 1) / rate;
	return false;
}

bool admit_bucket_take(struct admit_bucket *b, int rate, int burst, int64_t now, int64_t *wait_ms)
{
	if (!admit_bucket_ready(b, rate, burst, now, wait_ms))
		return false;
	b->milli -= 1000;
	return true;
}
