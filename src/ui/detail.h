/* detail.h: the node detail panel (detail.c) and the job detail panel
 * (jobdetail.c), overlays, and the lines they both draw. */
#ifndef OC_UI_DETAIL_H
#define OC_UI_DETAIL_H

#include <curses.h>
#include <stdint.h>
#include <time.h>

struct oc_app;

/* One "Label  value" line of a panel at y; returns the next line. */
int oc_detail_field(WINDOW *w, int y, int width, const char *label, const char *value, attr_t a);
/* The same for a long text, wrapped at blanks over lines y..last.
 * Returns the next line. */
int oc_detail_wrapped(WINDOW *w, int y, int last, int width, const char *label, const char *text, attr_t a);
/* A panel's border, with title (NULL: the border alone) and "Esc closes"
 * on its top line (the node panel draws it after its lines, so that none
 * is drawn over it). */
void oc_detail_frame(WINDOW *w, int width, const char *title);
/* Lines *scroll.. of a pad of n lines into the panel w (h x width)
 * inside its border, the scroll clamped to what there is; when they do not
 * all fit, "lines A-B of N  PgUp/PgDn" on its bottom line. */
void oc_detail_pad_show(WINDOW *w, int h, int width, WINDOW *pad, int n, int *scroll);
/* "2026-12-02 15:04:05 (3m ago)", "-" for 0. */
void oc_detail_when(time_t t, time_t now, char *buf, size_t len);

/* Open the detail panel of a node (or show that node in the open one). */
void oc_app_show_node(struct oc_app *app, const char *node);

/* Open a panel of text fields (or show them in the open detail panel):
 * lines "Label\tvalue"; a line without a tab goes on with the field above
 * (a command of several lines). Values wrap at blanks; PgUp/PgDn scroll. */
void oc_app_show_text(struct oc_app *app, const char *title, const char *fields);

/* Open the detail panel of a job (or show that job in the open one). */
void oc_app_show_job(struct oc_app *app, uint32_t job_id);
/* The job's panel (jobdetail.c), its lines from *scroll on (clamped to
 * what there is). */
void oc_job_detail_fill(struct oc_app *app, WINDOW *w, int h, int width, uint32_t id, int *scroll);

#endif
