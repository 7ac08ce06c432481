/* draw.c: theme roles, safe text output and the shared table widget. */
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/ui_int.h"

static attr_t role_attr[OC_ROLE_COUNT];

void oc_theme_init(void)
{
	const char *no_color = getenv("NO_COLOR");
	bool color = has_colors() && !(no_color && *no_color);
	if (color && start_color() == OK) {
		use_default_colors();
		static const struct {
			enum oc_role role;
			short fg, bg;
			attr_t extra;
		} pairs[] = {
			{OC_ROLE_HEADER, COLOR_BLACK, COLOR_CYAN, 0},
			{OC_ROLE_TAB, -1, -1, 0},
			{OC_ROLE_TAB_ACTIVE, COLOR_BLACK, COLOR_YELLOW, A_BOLD},
			{OC_ROLE_TITLE, COLOR_CYAN, -1, A_BOLD},
			{OC_ROLE_SELECTED, COLOR_BLACK, COLOR_WHITE, 0},
			{OC_ROLE_BANNER, COLOR_WHITE, COLOR_RED, A_BOLD},
			{OC_ROLE_STATUS, COLOR_BLACK, COLOR_CYAN, 0},
			{OC_ROLE_OK, COLOR_GREEN, -1, 0},
			{OC_ROLE_BUSY, COLOR_CYAN, -1, 0},
			{OC_ROLE_WARN, COLOR_YELLOW, -1, A_BOLD},
			{OC_ROLE_BAD, COLOR_RED, -1, A_BOLD},
			{OC_ROLE_DIM, COLOR_BLUE, -1, 0},
		};
		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			short n = (short)(i + 1);
			init_pair(n, pairs[i].fg, pairs[i].bg);
			role_attr[pairs[i].role] = COLOR_PAIR(n) | pairs[i].extra;
		}
		role_attr[OC_ROLE_NORMAL] = A_NORMAL;
		return;
	}
	/* Monochrome: attributes only. */
	role_attr[OC_ROLE_NORMAL] = A_NORMAL;
	role_attr[OC_ROLE_HEADER] = A_REVERSE;
	role_attr[OC_ROLE_TAB] = A_NORMAL;
	role_attr[OC_ROLE_TAB_ACTIVE] = A_REVERSE | A_BOLD;
	role_attr[OC_ROLE_TITLE] = A_BOLD | A_UNDERLINE;
	role_attr[OC_ROLE_SELECTED] = A_REVERSE;
	role_attr[OC_ROLE_BANNER] = A_REVERSE | A_BOLD;
	role_attr[OC_ROLE_STATUS] = A_REVERSE;
	role_attr[OC_ROLE_OK] = A_NORMAL;
	role_attr[OC_ROLE_BUSY] = A_NORMAL;
	role_attr[OC_ROLE_WARN] = A_BOLD;
	role_attr[OC_ROLE_BAD] = A_BOLD | A_UNDERLINE;
	role_attr[OC_ROLE_DIM] = A_DIM;
}

attr_t oc_theme_attr(enum oc_role r)
{
	return (r >= 0 && r < OC_ROLE_COUNT) ? role_attr[r] : A_NORMAL;
}

static bool locale_is_utf8(void)
{
	static int cached = -1;
	if (cached < 0) {
		const char *cs = nl_langinfo(CODESET);
		cached = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
	}
	return cached;
}

/* Columns that s takes, as oc_put_text would draw it, up to max. */
static int text_width(const char *s, int max)
{
	int cols = 0;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	bool utf8 = locale_is_utf8();
	while (*s && cols < max) {
		wchar_t wc;
		size_t n = utf8 ? mbrtowc(&wc, s, MB_CUR_MAX, &st) : 1;
		int w = 1;
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			n = 1;
		} else if (utf8) {
			w = wcwidth(wc);
			if (w < 0)
				w = 1;
		}
		if (cols + w > max)
			break;
		cols += w;
		s += n;
	}
	return cols;
}

int oc_put_text(WINDOW *w, const char *s, int width, bool pad, bool right)
{
	if (width <= 0)
		return 0;
	if (!s)
		s = "";
	int used = 0;
	if (right) {
		int tw = text_width(s, width);
		for (; used < width - tw; used++)
			waddch(w, ' ');
	}
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	bool utf8 = locale_is_utf8();
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

/* ---- table ------------------------------------------------------------- */

void oc_table_clamp(struct oc_table *t)
{
	if (t->nrows == 0) {
		t->sel = t->top = 0;
		return;
	}
	if (t->sel >= t->nrows)
		t->sel = t->nrows - 1;
	if (t->top > t->sel)
		t->top = t->sel;
}

/* Width of each column for a line of width columns: fixed ones as set,
 * the flexible one the rest; optional columns (from the right) are dropped
 * (width 0) while the flexible one would be narrower than OC_FLEX_MIN. */
#define OC_FLEX_MIN 24
static void table_layout(const struct oc_table *t, int width, int *w)
{
	int flex = -1;
	for (int c = 0; c < t->ncols; c++) {
		w[c] = t->cols[c].width;
		if (t->cols[c].width == 0 && flex < 0)
			flex = c;
	}
	for (;;) {
		int fixed = 0;
		for (int c = 0; c < t->ncols; c++)
			if (c != flex && w[c] > 0)
				fixed += w[c] + 1;
		int rest = width - fixed - (flex >= 0 ? 0 : 0);
		if (flex >= 0)
			w[flex] = rest > 4 ? rest : 4;
		if (flex < 0 || rest >= OC_FLEX_MIN)
			return;
		int drop = -1;
		for (int c = t->ncols - 1; c >= 0; c--)
			if (t->cols[c].optional && w[c] > 0) {
				drop = c;
				break;
			}
		if (drop < 0)
			return;
		w[drop] = 0;
	}
}

void oc_table_draw(struct oc_table *t, WINDOW *w, int y, int x, int h, int width)
{
	if (h <= 0 || width <= 0)
		return;
	int cw_of[64];
	if (t->ncols > 64)
		return;
	table_layout(t, width, cw_of);

	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	wmove(w, y, x);
	int used = 0;
	for (int c = 0; c < t->ncols && used < width; c++) {
		int cw = cw_of[c];
		if (cw == 0)
			continue;
		if (cw > width - used)
			cw = width - used;
		used += oc_put_text(w, t->cols[c].title, cw, true, t->cols[c].right);
		if (used < width) {
			waddch(w, ' ');
			used++;
		}
	}
	for (; used < width; used++)
		waddch(w, ' ');

	int rows = h - 1;
	t->page = rows > 0 ? rows : 1;
	oc_table_clamp(t);
	if (t->sel >= t->top + (size_t)t->page)
		t->top = t->sel - (size_t)t->page + 1;
	for (int r = 0; r < rows; r++) {
		size_t row = t->top + (size_t)r;
		wmove(w, y + 1 + r, x);
		if (row >= t->nrows) {
			wattrset(w, A_NORMAL);
			for (int i = 0; i < width; i++)
				waddch(w, ' ');
			continue;
		}
		bool selected = row == t->sel;
		used = 0;
		for (int c = 0; c < t->ncols && used < width; c++) {
			int cw = cw_of[c];
			if (cw == 0)
				continue;
			if (cw > width - used)
				cw = width - used;
			char buf[512];
			buf[0] = '\0';
			t->cell(t->ctx, row, c, buf, sizeof(buf));
			enum oc_role role = t->cell_role ? t->cell_role(t->ctx, row, c) : OC_ROLE_NORMAL;
			wattrset(w, selected ? oc_theme_attr(OC_ROLE_SELECTED) : oc_theme_attr(role));
			used += oc_put_text(w, buf, cw, true, t->cols[c].right);
			if (used < width) {
				waddch(w, ' ');
				used++;
			}
		}
		wattrset(w, selected ? oc_theme_attr(OC_ROLE_SELECTED) : A_NORMAL);
		for (; used < width; used++)
			waddch(w, ' ');
	}
	wattrset(w, A_NORMAL);
}

bool oc_table_key(struct oc_table *t, int key)
{
	size_t page = t->page > 1 ? (size_t)t->page : 1;
	switch (key) {
	case KEY_UP:
	case 'k':
		if (t->sel > 0)
			t->sel--;
		break;
	case KEY_DOWN:
	case 'j':
		if (t->sel + 1 < t->nrows)
			t->sel++;
		break;
	case KEY_PPAGE:
		t->sel = t->sel > page ? t->sel - page : 0;
		break;
	case KEY_NPAGE:
		t->sel = t->sel + page < t->nrows ? t->sel + page : (t->nrows ? t->nrows - 1 : 0);
		break;
	case KEY_HOME:
	case 'g':
		t->sel = 0;
		break;
	case KEY_END:
	case 'G':
		t->sel = t->nrows ? t->nrows - 1 : 0;
		break;
	default:
		return false;
	}
	if (t->sel < t->top)
		t->top = t->sel;
	return true;
}
