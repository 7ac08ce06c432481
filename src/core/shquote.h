/* shquote.h: the one function that builds a command line for a remote
 * POSIX shell (what sshd hands to the login shell with `sh -c`). Every
 * word is single-quoted ('it'\''s'), so the remote shell sees exactly the
 * bytes given: quotes, ;$()`, newlines and UTF-8 included. */
#ifndef OC_CORE_SHQUOTE_H
#define OC_CORE_SHQUOTE_H

#include <stddef.h>

/* Quote argv (NULL-terminated, at least one word) into one command line,
 * words separated by one space. Returns a malloc'd string the caller
 * frees, or NULL on ENOMEM or an empty argv. */
char *oc_shquote_argv(const char *const argv[]);

#endif
