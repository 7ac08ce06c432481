/* help.h: the ? screen (help.c), an overlay. */
#ifndef OC_UI_HELP_H
#define OC_UI_HELP_H

struct oc_app;

/* Open the help screen. */
void oc_help_open(struct oc_app *app);

#endif
