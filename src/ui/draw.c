/* draw.c: theme roles and safe text output. */
#include <langinfo.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/theme.h"
#include "ui/draw.h"

static attr_t role_attr[OC_ROLE_COUNT];

const char *const oc_role_names[OC_ROLE_COUNT] = {
	[OC_ROLE_NORMAL] = "normal",	     [OC_ROLE_HEADER] = "header",     [OC_ROLE_TAB] = "tab",
	[OC_ROLE_TAB_ACTIVE] = "tab_active", [OC_ROLE_TITLE] = "title",       [OC_ROLE_SELECTED] = "selected",
	[OC_ROLE_TAGGED] = "tagged",	     [OC_ROLE_BANNER] = "banner",     [OC_ROLE_STATUS] = "status",
	[OC_ROLE_OK] = "ok",		     [OC_ROLE_BUSY] = "busy",	      [OC_ROLE_WARN] = "warn",
	[OC_ROLE_BAD] = "bad",		     [OC_ROLE_DIM] = "dim",	      [OC_ROLE_GROUP] = "group",
	[OC_ROLE_BAR_USED] = "bar_used",     [OC_ROLE_BAR_FREE] = "bar_free", [OC_ROLE_BAR_OVER] = "bar_over",
};

static attr_t attrs_from_theme(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & OC_ATTR_BOLD)
		r |= A_BOLD;
	if (a & OC_ATTR_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & OC_ATTR_REVERSE)
		r |= A_REVERSE;
	if (a & OC_ATTR_DIM)
		r |= A_DIM;
#ifdef A_ITALIC
	if (a & OC_ATTR_ITALIC)
		r |= A_ITALIC;
#endif
	if (a & OC_ATTR_STANDOUT)
		r |= A_STANDOUT;
	return r;
}

/* Apply a theme: one colour pair per role when colours are used. */
static void theme_apply(const struct oc_theme_spec *th, bool color)
{
	for (int r = 0; r < OC_ROLE_COUNT; r++) {
		const struct oc_theme_style *st = &th->role[r];
		attr_t a = attrs_from_theme(st->attrs);
		if (color && (st->fg != OC_COLOR_DEFAULT || st->bg != OC_COLOR_DEFAULT)) {
			short fg = st->fg, bg = st->bg;
			/* Bright colours on 8-colour terminals: the base colour, bold. */
			if (COLORS < 16) {
				if (fg >= 8) {
					fg = (short)(fg - 8);
					a |= A_BOLD;
				}
				if (bg >= 8)
					bg = (short)(bg - 8);
			}
			short pair = (short)(r + 1);
			if (init_pair(pair, fg, bg) == OK)
				a |= COLOR_PAIR(pair);
		}
		role_attr[r] = a;
	}
	/* Whatever the file says, selection and tags must show. */
	if (role_attr[OC_ROLE_SELECTED] == A_NORMAL)
		role_attr[OC_ROLE_SELECTED] = A_REVERSE;
	if (role_attr[OC_ROLE_TAGGED] == A_NORMAL)
		role_attr[OC_ROLE_TAGGED] = A_BOLD;
}

void oc_theme_init(const char *name, const char *datadir, char *err, size_t errlen)
{
	const char *no_color = getenv("NO_COLOR");
	bool color = has_colors() && !(no_color && *no_color);
	if (color && start_color() == OK)
		use_default_colors();
	else
		color = false;
	if (!name || !*name)
		name = "default";
	if (!color)
		name = "mono"; /* NO_COLOR or a terminal without colours */
	struct oc_theme_spec *th = calloc(1, sizeof(*th));
	if (!th) {
		for (int r = 0; r < OC_ROLE_COUNT; r++)
			role_attr[r] = r == OC_ROLE_SELECTED ? A_REVERSE : A_NORMAL;
		return;
	}
	struct oc_datafile_dirs dirs;
	oc_datafile_dirs(&dirs, datadir);
	char why[1024] = "";
	int rc = oc_theme_find(name, &dirs, oc_role_names, OC_ROLE_COUNT, th, why, sizeof(why));
	if (rc == 1)
		rc = oc_theme_builtin(name, oc_role_names, OC_ROLE_COUNT, th, why, sizeof(why)) == 0 ? 0 : -1;
	if (rc < 0) {
		snprintf(err, errlen, "theme: %s; using the built-in theme", why);
		oc_theme_builtin(color ? "default" : "mono", oc_role_names, OC_ROLE_COUNT, th, NULL, 0);
	}
	theme_apply(th, color);
	free(th);
}

attr_t oc_theme_attr(enum oc_role r)
{
	return (r >= 0 && r < OC_ROLE_COUNT) ? role_attr[r] : A_NORMAL;
}

bool oc_utf8(void)
{
	static int cached = -1;
	if (cached < 0) {
		const char *cs = nl_langinfo(CODESET);
		cached = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
	}
	return cached;
}

/* Walks s as oc_put_text would draw it: at most len bytes, up to a NUL,
 * while the columns fit in width. Returns the bytes that fit, without
 * cutting a character; puts their columns in *cols unless cols is NULL. */
static size_t text_walk(const char *s, size_t len, int width, int *cols)
{
	size_t off = 0;
	int used = 0;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	bool utf8 = oc_utf8();
	while (off < len && s[off]) {
		wchar_t wc;
		size_t n = utf8 ? mbrtowc(&wc, s + off, len - off, &st) : 1;
		int w = 1;
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			n = 1;
		} else if (utf8) {
			w = wcwidth(wc);
			if (w < 0)
				w = 1;
		}
		if (used + w > width)
			break;
		used += w;
		off += n;
	}
	if (cols)
		*cols = used;
	return off;
}

int oc_text_cols(const char *s)
{
	int cols = 0;
	text_walk(s ? s : "", SIZE_MAX, INT_MAX, &cols);
	return cols;
}

int oc_put_cell(WINDOW *w, const char *s, int width, bool right)
{
	if (width <= 0)
		return 0;
	if (oc_text_cols(s) <= width)
		return oc_put_text(w, s, width, true, right);
	int used = oc_put_text(w, s, width - 1, true, false);
	if (oc_utf8())
		waddwstr(w, L"\u2026");
	else
		waddch(w, '>');
	return used + 1;
}

size_t oc_text_fit(const char *s, size_t len, int width)
{
	return text_walk(s, len, width, NULL);
}

int oc_put_text(WINDOW *w, const char *s, int width, bool pad, bool right)
{
	if (width <= 0)
		return 0;
	if (!s)
		s = "";
	int used = 0;
	if (right) {
		int tw = 0;
		text_walk(s, SIZE_MAX, width, &tw);
		for (; used < width - tw; used++)
			waddch(w, ' ');
	}
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	bool utf8 = oc_utf8();
	while (*s && used < width) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x80) {
			waddch(w, (c < 0x20 || c == 0x7f) ? '?' : c);
			used++;
			s++;
			continue;
		}
		if (!utf8) {
			waddch(w, '?');
			used++;
			s++;
			continue;
		}
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			waddch(w, '?');
			used++;
			s++;
			continue;
		}
		int cw = wcwidth(wc);
		if (cw < 0) {
			waddch(w, '?');
			used++;
		} else if (used + cw > width) {
			break;
		} else if (cw > 0) {
			wchar_t one[2] = {wc, 0};
			waddnwstr(w, one, 1);
			used += cw;
		}
		s += n;
	}
	if (pad)
		for (; used < width; used++)
			waddch(w, ' ');
	return used;
}

