/* command.h: the : command line (command.c), parsed against the registry. */
#ifndef OC_UI_COMMAND_H
#define OC_UI_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

struct oc_app;

/* The action a : command line names, with its argument copied into arg
 * ("" when none). -1 with a message in err when no entry has that name or
 * none of those that have it takes what follows. No terminal needed. */
int oc_command_parse(const char *line, char *arg, size_t arg_len, char *err, size_t err_len);

/* Run a : command line ("nodes", "queue normal", "quota"...). Returns
 * true when it was understood (an error message is set otherwise). */
bool oc_command_run(struct oc_app *app, const char *line);

/* Complete the : command line in place (Tab), as far as the candidates
 * agree; a message when there is none. */
void oc_command_complete(struct oc_app *app, char *line, size_t len);

/* What Tab would complete the line being typed to, shown above the prompt
 * while typing: the candidates separated by two spaces, or a sentence
 * when there are none. "" for an empty line or a word complete and
 * followed by a space or an argument that takes no completion. Returns the
 * number of candidates. */
size_t oc_command_hint(struct oc_app *app, const char *line, char *buf, size_t len);

#endif
