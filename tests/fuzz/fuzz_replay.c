/* Session CSV replay and tegrastats logs (the replay source): the input is
 * a recording, optionally followed by a line "#meta" and its sidecar
 * FILE.meta.json; it is opened and played to its end. */
#include "config.h"
#include "fuzz.h"

#include <stdio.h>
#include <unistd.h>

#include "timebase.h"
#include "replay.h"
#include "source_ops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char sep[] = "\n#meta\n";
	size_t csv_len = size, meta_off = size;
	for (size_t i = 0; i + sizeof sep - 1 <= size; i++)
		if (memcmp(data + i, sep, sizeof sep - 1) == 0) {
			csv_len = i + 1;
			meta_off = i + sizeof sep - 1;
			break;
		}
	char csv[300], meta[320];
	const char *p = fuzz_file(".csv", data, csv_len);
	if (!p)
		return 0;
	snprintf(csv, sizeof csv, "%s", p);
	snprintf(meta, sizeof meta, "%s.meta.json", csv);
	unlink(meta);
	if (meta_off < size) {
		FILE *fp = fopen(meta, "wb");
		if (fp) {
			fwrite(data + meta_off, 1, size - meta_off, fp);
			fclose(fp);
		}
	}
	struct dvf_timebase clk;
	timebase_init_sim(&clk, 0);
	struct source_cfg cfg = { .replay_path = csv, .interval_ns = 100 * DVF_NS_PER_MS, .mode = "replay", .clock = &clk };
	char err[1024];
	struct source *s = source_replay.open(&cfg, err, sizeof err);
	if (s) {
		const struct dvf_info *in = source_replay.info(s);
		(void)in;
		struct dvf_sample smp;
		struct source_timeline tl;
		struct source_recorded rec;
		char msg[512];
		for (int i = 0; i < 100000 && source_replay.sample(s, &smp) == 0; i++)
			while (source_replay.message(s, msg, sizeof msg) == 1)
				;
		(void)source_replay.timeline(s, &tl);
		(void)source_replay.recorded(s, &rec);
		/* back to the start, and a seek past the end */
		source_replay.seek(s, tl.first_ns);
		(void)source_replay.sample(s, &smp);
		source_replay.seek(s, tl.last_ns + 1);
		(void)source_replay.timeline(s, &tl);
		source_replay.close(s);
	}
	unlink(meta);
	unlink(csv);
	return 0;
}
