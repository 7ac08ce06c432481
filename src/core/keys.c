/* keys.c: key names <-> the console's key codes (keys.h). */
#include "core/keys.h"
#include "core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Named keys: the spelling written by oc_key_name first for each code. */
static const struct {
	const char *name;
	int code;
} keys_named[] = {
	{"Space", OC_KEY_SPACE},
	{"Tab", OC_KEY_TAB},
	{"S-Tab", OC_KEY_BTAB},
	{"Enter", OC_KEY_ENTER},
	{"Esc", OC_KEY_ESC},
	{"Backspace", OC_KEY_BACKSPACE},
	{"Delete", OC_KEY_DELETE},
	{"Insert", OC_KEY_INSERT},
	{"Up", OC_KEY_UP},
	{"Down", OC_KEY_DOWN},
	{"Left", OC_KEY_LEFT},
	{"Right", OC_KEY_RIGHT},
	{"PgUp", OC_KEY_PGUP},
	{"PgDn", OC_KEY_PGDN},
	{"Home", OC_KEY_HOME},
	{"End", OC_KEY_END},
};

/* Control keys a keymap may not name, and why. */
static const struct {
	char letter;
	const char *why;
} keys_refused[] = {
	{'i', "C-i is the same key as Tab: write \"Tab\""},
	{'m', "C-m is the same key as Enter: write \"Enter\""},
	{'c', "C-c never reaches the console: the terminal turns it into SIGINT (the console quits)"},
	{'z', "C-z never reaches the console: the terminal turns it into SIGTSTP (suspend)"},
	{'s', "C-s never reaches the console: the terminal uses it for flow control (XOFF)"},
	{'q', "C-q never reaches the console: the terminal uses it for flow control (XON)"},
};

/* Returns the code of name, or -1 with err set (keys.h). */
int oc_key_parse_err(const char *name, char *err, size_t errlen)
{
	size_t len;

	if (err && errlen)
		err[0] = '\0';
	if (!name || !*name) {
		oc_seterr(err, errlen, "empty key name");
		return -1;
	}
	len = strlen(name);
	if (len == 1) {
		unsigned char c = (unsigned char)name[0];
		if (c > ' ' && c < 0x7f)
			return c;
		if (c == ' ')
			oc_seterr(err, errlen, "unknown key name \" \": write \"Space\"");
		else
			oc_seterr(err, errlen, "unknown key name (byte 0x%02x): a key is one printable ASCII character or a name such as \"Enter\"", c);
		return -1;
	}
	for (size_t i = 0; i < sizeof(keys_named) / sizeof(keys_named[0]); i++)
		if (strcasecmp(name, keys_named[i].name) == 0)
			return keys_named[i].code;
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && len == 3) {
		char c = name[2];
		if (c == '[') {
			oc_seterr(err, errlen, "C-[ is the same key as Esc: write \"Esc\"");
			return -1;
		}
		if (c >= 'A' && c <= 'Z') {
			oc_seterr(err, errlen, "unknown key name \"%s\": write C-%c (Ctrl does not see Shift)",
				 name, c - 'A' + 'a');
			return -1;
		}
		if (c >= 'a' && c <= 'z') {
			for (size_t i = 0; i < sizeof(keys_refused) / sizeof(keys_refused[0]); i++) {
				if (keys_refused[i].letter == c) {
					oc_seterr(err, errlen, "%s", keys_refused[i].why);
					return -1;
				}
			}
			return OC_KEY_CTRL(c);
		}
	}
	if ((name[0] == 'F' || name[0] == 'f') && len <= 3 && name[1] >= '1' && name[1] <= '9') {
		int n = name[1] - '0';
		if (len == 3) {
			if (name[2] < '0' || name[2] > '9')
				n = 0;
			else
				n = n * 10 + (name[2] - '0');
		}
		if (n >= 1 && n <= OC_KEY_FMAX)
			return OC_KEY_F(n);
	}
	oc_seterr(err, errlen, "unknown key name \"%.40s\"", name);
	return -1;
}

/* Returns the code of name, or -1 (keys.h). */
int oc_key_parse(const char *name)
{
	return oc_key_parse_err(name, NULL, 0);
}

/* Writes the name of code into buf; returns buf (keys.h). */
const char *oc_key_name(int code, char *buf, size_t len)
{
	if (!buf || len == 0)
		return "";
	for (size_t i = 0; i < sizeof(keys_named) / sizeof(keys_named[0]); i++) {
		if (keys_named[i].code == code) {
			snprintf(buf, len, "%s", keys_named[i].name);
			return buf;
		}
	}
	if (code > ' ' && code < 0x7f)
		snprintf(buf, len, "%c", code);
	else if (code >= 1 && code <= 26)
		snprintf(buf, len, "C-%c", 'a' + code - 1);
	else if (code >= OC_KEY_F(1) && code <= OC_KEY_F(OC_KEY_FMAX))
		snprintf(buf, len, "F%d", code - OC_KEY_F0);
	else
		snprintf(buf, len, "0x%x", (unsigned)code);
	return buf;
}
