/* shquote.h: the one function that builds a command line for a remote
 * POSIX shell (what sshd hands to the login shell with `sh -c`). Every
 * word is single-quoted ('it'\''s'), so the remote shell sees exactly the
 * bytes given: quotes, ;$()`, newlines and UTF-8 included. */
#ifndef OC_CORE_SHQUOTE_H
#define OC_CORE_SHQUOTE_H

#include <stdbool.h>
#include <stddef.h>

/* Quote argv (NULL-terminated, at least one word) into one command line,
 * words separated by one space. Returns a malloc'd string the caller
 * frees, or NULL on ENOMEM or an empty argv. */
char *oc_shquote_argv(const char *const argv[]);

/* A command line shown to be copied (the "Equivalent command" of a
 * confirmation) in lines of width columns, so that the lines paste into
 * a shell as that one command: broken between words (outside quotes and
 * after no backslash), the line ending with " \" and the next indented
 * by 4 more than the first line. A word longer than a line is cut inside,
 * the line ending with "\" (or "'\" inside single quotes, the next line
 * opening them again with "'") and the rest starting at the margin, since
 * blanks there would split the word. line is len bytes (no newline), its
 * own leading blanks kept on its first line. Bytes are counted as columns
 * (a UTF-8 character never takes more), so a line never comes out wider
 * than width; a width under 8 counts as 8. Writes the lines, each ended
 * by '\n', to out (at most outlen bytes with the NUL, cut at a character
 * otherwise) and returns their number. */
int oc_shline_wrap(const char *line, size_t len, int width, char *out, size_t outlen);

/* Whether a line of a confirmation (len bytes) is such a command: blanks,
 * then a Slurm command (scontrol, sacctmgr, scancel, sdiag, ...; a path
 * to one too) and a blank. */
bool oc_shline_is_command(const char *line, size_t len);

#endif
