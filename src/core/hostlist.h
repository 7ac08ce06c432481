/* hostlist.h: Slurm hostlist expressions ("gpu-st-b300-[1-3,7],login1")
 * expanded into names and names compressed back into an expression.
 *
 * Where libslurm is linked, the source layer uses libslurm's own hostlist
 * functions; this small implementation exists for the CLI backend, which
 * must also build without libslurm (docs/architecture.md says why). It
 * covers what Slurm prints for node lists: comma-separated items, each a
 * name with one or more bracket groups of numbers and ranges ("[01-12,15]",
 * zero padding kept from the lower bound), text after a group
 * ("r[1-2]n[1-4]" is the product, first group outermost).
 *
 * Refused with a message: empty items, unbalanced or nested brackets, an
 * empty or reversed range, non-digits in a range, whitespace, numbers of
 * more than 18 digits, and expressions with more names than the caller's
 * maximum (counted before anything is expanded). */
#ifndef OC_CORE_HOSTLIST_H
#define OC_CORE_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest node name accepted (the longest host name DNS allows). */
#define OC_NODE_NAME_MAX 255
/* Largest number at the end of a node name: libslurm 22.05's hostlists
 * keep the number in 32 bits, so slurm_hostlist_uniq merges distinct names
 * with larger ones ("n4831010000,n1831010000" gives one name; found by
 * tests/fuzz/fuzz_hostlist). */
#define OC_NODE_NUM_MAX_STR "2147483647"

/* Called once per name, in order (name is NUL-terminated and only valid
 * during the call). A non-zero return stops the walk and is returned by
 * oc_hostlist_foreach. */
typedef int (*oc_hostlist_fn)(void *ctx, const char *name);

/* The number of names expr stands for (duplicates counted), or -1 with
 * err when expr is malformed. An empty expr has 0 names. */
long oc_hostlist_count(const char *expr, char *err, size_t errlen);

/* Call fn for each name of expr, refusing (-1, err) a malformed expr and
 * one of more than max names before the first call. Returns 0, fn's first
 * non-zero return, or -1 (err). Nothing to free. */
int oc_hostlist_foreach(const char *expr, size_t max, oc_hostlist_fn fn, void *ctx, char *err, size_t errlen);

/* Expand expr into *names (a malloc'd array of *n malloc'd strings, in
 * order, duplicates kept; free with oc_hostlist_names_free). Returns 0,
 * or -1 with err (malformed, more than max names, ENOMEM). */
int oc_hostlist_expand(const char *expr, size_t max, char ***names, size_t *n, char *err, size_t errlen);

/* Free what oc_hostlist_expand returned and clear *names. */
void oc_hostlist_names_free(char ***names, size_t n);

/* Compress names into a ranged expression ("gpu-st-b300-[1-3,7],login1"):
 * names that differ only in their trailing number (same width) share one
 * bracket group, sorted, duplicates dropped; groups come in the order
 * their first name came. Returns a malloc'd string (the caller frees it),
 * or NULL on ENOMEM or when a name is empty or holds a bracket, comma or
 * whitespace. */
char *oc_hostlist_compress(const char *const *names, size_t n);

/* ---- node lists a person typed (the writers' input) ----------------------
 * One rule for both writers (libslurm and the Slurm commands) and the
 * forms: names of letters, digits, '-', '_' and '.', with at most one
 * numeric "[1-3,07]" group, at the end (libslurm refuses "a[1-2]-b", and
 * expands several groups otherwise than core does), no empty name, no whitespace, no name longer than
 * OC_NODE_NAME_MAX, no number at a name's end above OC_NODE_NUM_MAX_STR;
 * the names come back in host order without duplicates. */

/* A character of a node name. */
bool oc_node_name_char(unsigned char c);

/* Check the syntax of expr and count its names without expanding it.
 * Returns 0 and *count (duplicates included, saturating at UINT64_MAX),
 * or -1 with a message. */
int oc_hostlist_check_nodes(const char *expr, uint64_t *count, char *err, size_t errlen);

/* oc_hostlist_check_nodes, and more than max names refused. */
int oc_hostlist_check_nodes_max(const char *expr, size_t max, uint64_t *count, char *err, size_t errlen);

/* One plain node name (no brackets, no commas): 0, or -1 with a message. */
int oc_node_name_check(const char *name, char *err, size_t errlen);

/* Host order (qsort of char *): the text before the number at the end of
 * the name, then that number's value, then its width ("n9" < "n10" <
 * "n010"); equal only for the same string. */
int oc_host_cmp(const void *a, const void *b);

/* Sort v[0..*n-1] (malloc'd names) into host order and free the
 * duplicates, leaving *n unique names. */
void oc_hostlist_uniq(char **v, size_t *n);

/* oc_hostlist_check_nodes, then expand (more than max names refused
 * before anything is expanded), every name checked, host order, no
 * duplicates. Returns 0, or -1 with err. Free with oc_hostlist_names_free. */
int oc_hostlist_expand_nodes(const char *expr, size_t max, char ***names, size_t *n, char *err, size_t errlen);

#endif
