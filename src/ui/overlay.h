/* overlay.h: what is drawn over the views (as tmux's window modes): the
 * help screen, the node detail, the probe results and the action dialogs
 * are overlays on one stack, each behind the same small table of
 * operations. The main loop (screen.c) gives the top overlay the keys and
 * draws it, polls every overlay's file descriptor, and knows no feature
 * by name. */
#ifndef OC_UI_OVERLAY_H
#define OC_UI_OVERLAY_H

#include <curses.h>
#include <stdbool.h>

struct oc_app;

struct oc_overlay_ops {
	const char *name;
	/* Keys go to it as read, before the keymap, the : prompt and the
	 * resize handling (a form types them); act is then -1. */
	bool raw_keys;
	/* It replaces the view and its tab bar (the help screen); the header
	 * and the status line stay. */
	bool full_screen;
	/* Closed when another view is shown (the node detail belongs to
	 * the row it was opened on). */
	bool closes_with_view;
	/* A key: ch as read (a character when wide, else a curses KEY_*
	 * code) and act, the keymap's action for it (-1: none). */
	void (*key)(struct oc_app *app, void *priv, int ch, bool wide, int act);
	/* Draw in the area y..y+h of width columns, after the view (stdscr
	 * drawn, not yet sent; a full-screen overlay draws into stdscr, the
	 * others send stdscr with wnoutrefresh and their panel after it). */
	void (*draw)(struct oc_app *app, void *priv, int y, int h, int width);
	/* Optional: the worker has news (an action's result): true when it
	 * took it (else the status line says it). */
	bool (*poll)(struct oc_app *app, void *priv);
	/* Optional: once per turn of the main loop. */
	void (*idle)(struct oc_app *app, void *priv);
	/* Optional: a descriptor to wait on (-1: none now); ack on POLLIN,
	 * then the screen is drawn again. */
	int (*fd)(void *priv);
	void (*ack)(void *priv);
	/* Free priv (the overlay is already off the stack). */
	void (*close)(struct oc_app *app, void *priv);
};

#define OC_OVERLAY_MAX 8

struct oc_overlay {
	const struct oc_overlay_ops *ops;
	void *priv;
};

/* Put an overlay on top; -1 (priv closed) when the stack is full. */
int oc_overlay_push(struct oc_app *app, const struct oc_overlay_ops *ops, void *priv);
/* The top overlay, or NULL. */
struct oc_overlay *oc_overlay_top(struct oc_app *app);
/* The priv of the overlay of ops nearest the top, or NULL. */
void *oc_overlay_find(struct oc_app *app, const struct oc_overlay_ops *ops);
/* Take the overlay of ops nearest the top off the stack and close it;
 * false when there was none. */
bool oc_overlay_remove(struct oc_app *app, const struct oc_overlay_ops *ops);
/* Close the overlays that close when another view is shown. */
void oc_overlay_view_changed(struct oc_app *app);
/* Close every overlay, the top first. */
void oc_overlay_close_all(struct oc_app *app);

/* Draw a panel of ph x pw (the whole y..y+h, width area when the panel
 * does not fit in it, or is narrower than 30 or lower than 5) centred in
 * that area for one frame: fill draws its window. Nothing to free. */
void oc_app_panel_once(struct oc_app *app, int ph, int pw, int y, int h, int width,
		       void (*fill)(struct oc_app *app, WINDOW *w, int h, int width));

#endif
