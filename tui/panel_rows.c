/* panel_rows: how many inner rows each region holds (the panel table's
 * .rows, panel.h), beyond which it scrolls (scroll.h).  Pure. */
#include "config.h"
#include "panel.h"

#include <string.h>

#include "layout.h"

int panel_rows_probe(void (*render)(const struct tui_view *, struct cellbuf *), const struct tui_view *v, int w)
{
	enum { PROBE_H = 128 };
	struct cellbuf cb;
	if (w < 3 || cellbuf_init(&cb, w, PROBE_H, false) < 0)
		return 0;
	render(v, &cb);
	int last = 0;
	for (int y = 1; y < cb.h - 1; y++)
		for (int x = 1; x < cb.w - 1; x++)
			if (strcmp(cb.c[y * cb.w + x].ch, " ") != 0) {
				last = y;
				break;
			}
	cellbuf_free(&cb);
	return last;
}

int panel_rows_power(const struct tui_view *v, int w)
{
	(void)w;
	int nr = v->info ? v->info->n_rails : 0;
	if (nr > LAYOUT_MAX_POWER_ROWS)
		nr = LAYOUT_MAX_POWER_ROWS;
	/* every rail, the total, the mean, the rule, a two-row graph */
	return nr + 3 + 2;
}

int panel_rows_energy(const struct tui_view *v, int w)
{
	return panel_rows_probe(panel_render_energy, v, w);
}

int panel_rows_cpu(const struct tui_view *v, int w)
{
	return panel_rows_probe(panel_render_cpu, v, w);
}
