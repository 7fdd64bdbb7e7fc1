/* panel_ctx: the services the dashboard lends a hook that need no more
 * than the context (panel_ctx.h). */
#include "config.h"
#include "panel_ctx.h"

#include <stdarg.h>
#include <stdio.h>

#include "layout.h"
#include "session.h"

void panel_ctx_msg(struct panel_ctx *c, const char *fmt, ...)
{
	char buf[sizeof c->s->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	session_msg(c->s, "%s", buf);
	c->dirty = true;
}

void panel_ctx_quit(struct panel_ctx *c)
{
	c->dirty = true;
	if (!session_job_running_child(c->s)) {
		c->quit = true;
		return;
	}
	c->quit_ask = true;
}

void panel_ctx_zoom(struct panel_ctx *c, int region)
{
	c->zoom = layout_is_panel(region) ? region : -1;
	if (c->zoom >= 0)
		c->focus = c->zoom;
	c->relayout = true;
	c->dirty = true;
}
