/* overlay.c: the stack of overlays over the views (overlay.h). */
#include "ui/overlay.h"

#include <string.h>

#include "ui/app.h"

static void close_at(struct oc_app *app, int i)
{
	struct oc_overlay o = app->overlay[i];
	memmove(&app->overlay[i], &app->overlay[i + 1], (size_t)(app->noverlays - i - 1) * sizeof(o));
	app->noverlays--;
	app->dirty = true;
	/* Off the stack first: a close that opens or finds overlays sees
	 * the stack without it. */
	if (o.ops->close)
		o.ops->close(app, o.priv);
}

int oc_overlay_push(struct oc_app *app, const struct oc_overlay_ops *ops, void *priv)
{
	if (app->noverlays >= OC_OVERLAY_MAX) {
		if (ops->close)
			ops->close(app, priv);
		return -1;
	}
	app->overlay[app->noverlays++] = (struct oc_overlay){ops, priv};
	app->dirty = true;
	return 0;
}

struct oc_overlay *oc_overlay_top(struct oc_app *app)
{
	return app->noverlays ? &app->overlay[app->noverlays - 1] : NULL;
}

void *oc_overlay_find(struct oc_app *app, const struct oc_overlay_ops *ops)
{
	for (int i = app->noverlays - 1; i >= 0; i--)
		if (app->overlay[i].ops == ops)
			return app->overlay[i].priv;
	return NULL;
}

bool oc_overlay_remove(struct oc_app *app, const struct oc_overlay_ops *ops)
{
	for (int i = app->noverlays - 1; i >= 0; i--)
		if (app->overlay[i].ops == ops) {
			close_at(app, i);
			return true;
		}
	return false;
}

void oc_overlay_view_changed(struct oc_app *app)
{
	for (int i = app->noverlays - 1; i >= 0; i--)
		if (app->overlay[i].ops->closes_with_view)
			close_at(app, i);
}

void oc_overlay_close_all(struct oc_app *app)
{
	while (app->noverlays)
		close_at(app, app->noverlays - 1);
}
