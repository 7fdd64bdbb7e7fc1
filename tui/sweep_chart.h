/* sweep_chart: the sweep panel's chart (pure): J/step and s/step bars
 * per level, and the marks under them (* the least J/step, P the policy's
 * level, > the level being measured). */
#ifndef DVF_SWEEP_CHART_H
#define DVF_SWEEP_CHART_H

#include <stdbool.h>

#include "cellbuf.h"
#include "sweep_view.h"

/* Draw the bars and marks of v in columns x0..x1, rows y..ymax-1 (ymax is
 * the legend's row, left to the caller).  False when there is no room
 * (nothing drawn, no legend). */
bool sweep_chart_render(const struct sweep_view *v, struct cellbuf *cb, int x0, int y, int x1, int ymax);

#endif
