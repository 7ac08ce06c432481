/* builtin_data.h: the shipped data files compiled in (the built-in
 * keymaps, themes and view layouts). The tables are generated at build
 * time from keymaps/, themes/ and views/ (src/cmake/OcEmbedBuiltins.cmake,
 * builtin_data.c in the build folder), so a built-in is the shipped file,
 * byte for byte. Only core/jsonfile.c reads them: it parses a built-in as
 * it parses a file (oc_jsonfile_builtin). */
#ifndef OC_CORE_BUILTIN_DATA_H
#define OC_CORE_BUILTIN_DATA_H

#include <stddef.h>

/* One file: KIND/NAME.json. */
struct oc_builtin_file {
	const char *kind;   /* "keymaps": the directory, as oc_jsonfile_kind.dir */
	const char *name;   /* "vim" */
	const char *text;   /* the file's bytes, NUL-terminated */
	size_t len;         /* without the NUL */
};

/* The names of one kind's files, NULL-terminated, sorted. */
struct oc_builtin_kind {
	const char *kind;
	const char *const *names;
};

extern const struct oc_builtin_file oc_builtin_files[];   /* ends with kind NULL */
extern const struct oc_builtin_kind oc_builtin_kinds[];   /* ends with kind NULL */

#endif
