#include "config.h"
#include "tegrastats_board.h"

#include <stdio.h>
#include <string.h>

struct board_rule {
	const char *name;             /* as the header shows it */
	enum dvf_board board;         /* the live source's kind, where it has one */
	const char *const *needs;     /* rails that tell the board (NULL-ended) */
	const char *const *total;     /* rails summed for the total */
	const char *rule;             /* in words, for the summary */
};

static const char *const agx_orin[] = { "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", NULL };
static const char *const agx_xavier[] = { "GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V", NULL };
static const char *const nx[] = { "VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC", NULL };
static const char *const tx2[] = { "VDD_IN", "VDD_SYS_GPU", "VDD_SYS_CPU", NULL };
static const char *const tx1[] = { "VDD_IN", "VDD_GPU", "VDD_CPU", NULL };
static const char *const nano[] = { "POM_5V_IN", "POM_5V_GPU", "POM_5V_CPU", NULL };
static const char *const vdd_in[] = { "VDD_IN", NULL };
static const char *const pom_in[] = { "POM_5V_IN", NULL };

/* Most specific first: the last two are an input rail on a board whose
 * other rails are not known. */
static const struct board_rule rules[] = {
	{ "Jetson AGX Orin (by its rails)", DVF_BOARD_AGX_ORIN, agx_orin, agx_orin,
	  "VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0 (AGX Orin module)" },
	{ "Jetson AGX Xavier (by its rails)", DVF_BOARD_UNKNOWN, agx_xavier, agx_xavier,
	  "GPU + CPU + SOC + CV + VDDRQ + SYS5V (AGX Xavier module: no input rail)" },
	/* Xavier NX and Orin NX/Nano name the same rails and share the rule */
	{ "Jetson Orin NX/Nano or Xavier NX (by its rails)", DVF_BOARD_ORIN_NX, nx, vdd_in,
	  "VDD_IN (module input)" },
	{ "Jetson TX2 (by its rails)", DVF_BOARD_UNKNOWN, tx2, vdd_in, "VDD_IN (module input)" },
	{ "Jetson TX1 (by its rails)", DVF_BOARD_UNKNOWN, tx1, vdd_in, "VDD_IN (module input)" },
	{ "Jetson Nano (by its rails)", DVF_BOARD_UNKNOWN, nano, pom_in, "POM_5V_IN (module input)" },
	{ "", DVF_BOARD_UNKNOWN, vdd_in, vdd_in, "VDD_IN (input rail)" },
	{ "", DVF_BOARD_UNKNOWN, pom_in, pom_in, "POM_5V_IN (input rail)" },
};

static int rail_index(const struct dvf_info *in, const char *name)
{
	for (int i = 0; i < in->n_rails; i++)
		if (strcmp(in->rail_name[i], name) == 0)
			return i;
	return -1;
}

static bool has_all(const struct dvf_info *in, const char *const *names)
{
	for (; *names; names++)
		if (rail_index(in, *names) < 0)
			return false;
	return true;
}

bool tegrastats_board_apply(struct dvf_info *in)
{
	for (int i = 0; i < DVF_MAX_RAILS; i++)
		in->rail_in_total[i] = false;
	for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++) {
		const struct board_rule *b = &rules[k];
		if (!has_all(in, b->needs))
			continue;
		in->board = b->board;
		if (!in->board_name[0])
			snprintf(in->board_name, sizeof in->board_name, "%s", b->name);
		for (const char *const *t = b->total; *t; t++)
			in->rail_in_total[rail_index(in, *t)] = true;
		in->total_known = true;
		snprintf(in->total_rule, sizeof in->total_rule, "%s", b->rule);
		return true;
	}
	in->board = DVF_BOARD_UNKNOWN;
	for (int i = 0; i < in->n_rails; i++)
		in->rail_in_total[i] = true;
	in->total_known = false;
	snprintf(in->total_rule, sizeof in->total_rule, "%s",
		 "sum of all rails (board not known: rails may overlap)");
	return false;
}
