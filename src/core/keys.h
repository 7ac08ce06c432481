/* keys.h: the console's own key codes and their names, as keymap files
 * write them. No curses here: the UI maps what getch() returns to these
 * codes (KEY_UP -> OC_KEY_UP, 127 and KEY_BACKSPACE -> OC_KEY_BACKSPACE,
 * KEY_DC -> OC_KEY_DELETE, KEY_F(n) -> OC_KEY_F(n)...) before it looks a
 * key up in a keymap.
 *
 * The codes:
 *   - a printable ASCII character (' '..'~') is itself ("q" -> 'q',
 *     "Space" -> ' ');
 *   - Ctrl plus a letter is 1..26 (OC_KEY_CTRL('a') == 1); Tab is 9 (the
 *     same byte as C-i), Enter is 13 (C-m), Esc is 27 (C-[). The screen runs
 *     curses with nonl(), so Enter arrives as '\r' and C-j as '\n' (10);
 *     the UI maps KEY_ENTER to OC_KEY_ENTER too;
 *   - the other named keys are the enum below, from 0x10000 up, and the
 *     function keys F1..F12 are OC_KEY_F(1)..OC_KEY_F(12).
 */
#ifndef OC_CORE_KEYS_H
#define OC_CORE_KEYS_H

#include <stddef.h>

#define OC_KEY_CTRL(c) ((c) & 0x1f)   /* 'a' or 'A' -> 1 ... 'z' -> 26 */
#define OC_KEY_TAB 9
#define OC_KEY_ENTER 13
#define OC_KEY_ESC 27
#define OC_KEY_SPACE ' '

enum oc_key_named {
	OC_KEY_UP = 0x10000,
	OC_KEY_DOWN,
	OC_KEY_LEFT,
	OC_KEY_RIGHT,
	OC_KEY_PGUP,
	OC_KEY_PGDN,
	OC_KEY_HOME,
	OC_KEY_END,
	OC_KEY_INSERT,
	OC_KEY_DELETE,
	OC_KEY_BACKSPACE,
	OC_KEY_BTAB,          /* "S-Tab": Shift-Tab, curses' KEY_BTAB */
	OC_KEY_NAMED_END,     /* one past the last named key */
	OC_KEY_F0 = 0x10100,  /* OC_KEY_F(n) = OC_KEY_F0 + n */
};

#define OC_KEY_F(n) (OC_KEY_F0 + (n))
#define OC_KEY_FMAX 12        /* "F1".."F12" are accepted */

/* The code of a key name ("q", "C-l", "PgDn", "F5"; see docs/files.md).
 * Names of more than one character are matched without regard to case
 * ("pgdn" works); "C-" takes a lower-case letter. Returns the code, or -1
 * when name is NULL, unknown or refused. */
int oc_key_parse(const char *name);

/* As oc_key_parse, and on -1 writes why into err (when err and errlen
 * allow): "unknown key name", for C-i, C-m and C-[ that they are the same
 * key as Tab, Enter and Esc, for C-c and C-z that the terminal turns them
 * into signals and for C-s and C-q that it keeps them for flow control
 * (the screen runs curses in cbreak mode). The message does not name the
 * file; the caller prefixes it. */
int oc_key_parse_err(const char *name, char *err, size_t errlen);

/* The canonical name of a key code ("q", "Space", "C-l", "S-Tab", "F1"),
 * written into buf (a caller's buffer; 16 bytes are enough). A code that
 * has no name is written as "0x%x". Returns buf (or "" when buf is NULL
 * or len is 0). */
const char *oc_key_name(int code, char *buf, size_t len);

#endif
