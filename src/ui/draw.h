/* draw.h: theme roles and text output (draw.c). */
#ifndef OC_UI_DRAW_H
#define OC_UI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

/* Colour/attribute roles; the theme maps them to curses attributes. The
 * names (oc_role_names) are the keys of themes/NAME.json. */
enum oc_role {
	OC_ROLE_NORMAL = 0,
	OC_ROLE_HEADER,      /* top line */
	OC_ROLE_TAB,
	OC_ROLE_TAB_ACTIVE,
	OC_ROLE_TITLE,       /* column titles */
	OC_ROLE_SELECTED,
	OC_ROLE_TAGGED,
	OC_ROLE_BANNER,      /* stale data / errors */
	OC_ROLE_STATUS,      /* bottom line */
	OC_ROLE_OK,          /* idle, running */
	OC_ROLE_BUSY,        /* alloc, mix */
	OC_ROLE_WARN,        /* draining, pending on a limit */
	OC_ROLE_BAD,         /* drained, down, not responding */
	OC_ROLE_DIM,         /* powered down, hidden */
	OC_ROLE_GROUP,       /* group header rows */
	OC_ROLE_BAR_USED,
	OC_ROLE_BAR_FREE,
	OC_ROLE_BAR_OVER,
	OC_ROLE_COUNT,
};
extern const char *const oc_role_names[OC_ROLE_COUNT];

/* Load the theme called name (user dir, then data dir) or the built-in
 * one; mono when the terminal has no colours or NO_COLOR is set. Writes a
 * message into err (and still sets a usable theme) when the file was
 * broken. */
void oc_theme_init(const char *name, const char *datadir, char *err, size_t errlen);
/* The curses attribute of a role. */
attr_t oc_theme_attr(enum oc_role r);

/* Draw text at the cursor into at most width columns: UTF-8 decoded when
 * the locale allows (else non-ASCII shows as '?'), control characters
 * shown as '?', double-width characters counted as two. Pads with spaces
 * to width when pad. Returns the columns used. */
int oc_put_text(WINDOW *w, const char *s, int width, bool pad, bool right);

/* The columns s takes on screen (as oc_put_text draws it). */
int oc_text_cols(const char *s);

/* Draw s as a table cell of width columns (padded, right-aligned when
 * right). Text that does not fit ends with a cut mark in the last column
 * ("…" in a UTF-8 locale, '>' otherwise), so that a cut is never silent.
 * Returns width (0 when width <= 0). */
int oc_put_cell(WINDOW *w, const char *s, int width, bool right);

/* How many bytes of s (at most len) fit in width columns, without cutting
 * a character. */
size_t oc_text_fit(const char *s, size_t len, int width);

/* Whether the locale is UTF-8 (cached). */
bool oc_utf8(void);

#endif
